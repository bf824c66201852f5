//! Raw TripleO trees: every tree a command's paths are in is rendered in
//! memory (`crate::render`) and its outputs mounted in the workspace's own
//! overlay (`crate::vfs::FileOverlay`, in its `LoadOptions`) before
//! anything is walked or read, so every stage reads the rendered files
//! under their rendered names.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use crate::diag::{codes, Diagnostic};
use crate::load::{LoadOptions, RenderOptions};
use crate::render::{self, RenderedTree};
use crate::vfs::{FileOverlay, VirtualFile};
use crate::walk::display;

/// The tree a path is in: the path itself (a directory) or its nearest
/// ancestor, as typed, that [`render::is_renderable`] accepts. Under
/// confinement the search stops at the first directory outside the
/// allowed ones (nothing there is looked at).
fn tree_of(
    path: &Path,
    opts: &RenderOptions,
    confine: Option<&[PathBuf]>,
    files: &FileOverlay,
    checked: &mut HashSet<PathBuf>,
) -> Option<PathBuf> {
    let mut at: Option<&Path> = Some(path);
    while let Some(p) = at {
        let dir = if p.as_os_str().is_empty() {
            Path::new(".")
        } else {
            p
        };
        if let Some(allowed) = confine {
            let inside = std::fs::canonicalize(dir)
                .is_ok_and(|real| allowed.iter().any(|a| real.starts_with(a)));
            if !inside && files.exists(dir) {
                return None;
            }
        }
        if !checked.insert(dir.to_path_buf()) {
            // Seen from another path: its answer is already taken.
            return None;
        }
        if files.is_dir(dir) && render::is_renderable(dir, opts, confine, files) {
            // As typed (empty for the working directory), so the sources
            // are shown as the paths beside them are.
            return Some(p.to_path_buf());
        }
        at = p.parent();
    }
    None
}

/// Renders the trees `paths` are in and mounts them in `load`'s overlay
/// (a tree it already holds, rendered with the same data, is not rendered
/// again; with `load`'s cache, a tree none of whose files and
/// directories changed is taken from it); the rendering's diagnostics
/// (roles or network data, failing sources).
pub(crate) fn mount_trees<'a>(
    paths: impl IntoIterator<Item = &'a Path>,
    load: &mut LoadOptions,
) -> Vec<Diagnostic> {
    let opts = &load.render.clone();
    let confine = load.confine.clone();
    let bounds = render::Bounds::of(load);
    let mut checked = HashSet::new();
    let mut trees: Vec<PathBuf> = Vec::new();
    for p in paths {
        if crate::walk::is_stdin(p) {
            continue;
        }
        if let Some(t) = tree_of(p, opts, confine.as_deref(), &load.overlay, &mut checked) {
            if !trees.contains(&t) {
                trees.push(t);
            }
        }
    }
    let mut out = Vec::new();
    for tree in trees {
        let dir = if tree.as_os_str().is_empty() {
            Path::new(".")
        } else {
            tree.as_path()
        };
        let Ok(real) = load.overlay.canonicalize(dir) else {
            continue;
        };
        // The data it is rendered with (and the size limit), as a key.
        let with = format!("{opts:?} max {}", bounds.max_chars);
        if load.overlay.has_rendered(&real, &with) {
            continue;
        }
        let render = || {
            let mut part = FileOverlay::new();
            part.note_rendered(real.clone(), with.clone());
            let rendered = render::render_tree(dir, &display(&tree), opts, &bounds);
            let mut found = rendered.diagnostics.clone();
            let disk = OnDisk::compare(&real, &rendered, confine.as_deref(), &bounds.files);
            let keep: Option<HashSet<String>> = if disk.any() && !opts.explicit() {
                // The files on disk are what Heat is given: heatcap's
                // render stands in only where it is the same text.
                found.extend(disk.differs_warning(&tree, &rendered.rules, opts, false));
                Some(disk.same.iter().cloned().collect())
            } else {
                found.extend(disk.set_aside_note(&tree, opts, false));
                None
            };
            mount(&real, &tree, rendered, keep.as_ref(), &mut part);
            (part, found)
        };
        let (part, found) = match &load.cache {
            Some(cache) => cache.rendered(
                (real.clone(), format!("{with} as {}", display(&tree))),
                &inputs(dir, opts, confine.as_deref(), &load.overlay),
                render,
            ),
            None => render(),
        };
        load.overlay.merge(&part);
        out.extend(found);
    }
    out
}

/// What rendering the tree at `dir` reads, as far as a change matters:
/// the tree itself, every file and directory in it (a source, an include,
/// the script, the data files; a directory changes when a file is added
/// or removed), and the data files given from elsewhere.
fn inputs(
    dir: &Path,
    opts: &RenderOptions,
    confine: Option<&[PathBuf]>,
    files: &FileOverlay,
) -> Vec<PathBuf> {
    let rules = render::rules_of(dir, confine, files);
    let mut out = vec![dir.to_path_buf()];
    out.extend(
        render::tree_entries(dir, rules.skip_hidden, files)
            .into_iter()
            .map(|(rel, _)| dir.join(rel)),
    );
    out.extend(opts.roles_data.iter().cloned());
    out.extend(opts.network_data.iter().cloned());
    out
}

/// The largest file on disk read to compare it with heatcap's render (32
/// times Heat's `max_template_size`); a larger one differs unread.
const COMPARED_AT_MOST: u64 = 16 << 20;

/// The state of a tree's rendered outputs on disk against heatcap's
/// render of its sources (paths below the tree, in path order).
#[derive(Debug, Default)]
struct OnDisk {
    /// Outputs the disk holds with the same text.
    same: Vec<String>,
    /// Outputs the disk holds with other text (or that cannot be read:
    /// a link out of the allowed directories, a file that is not UTF-8),
    /// with the 1-based line of the first difference when known.
    differs: Vec<(String, Option<u32>)>,
    /// Outputs the disk does not hold.
    absent: Vec<String>,
    /// Each output's source.
    sources: std::collections::HashMap<String, String>,
    /// How many outputs heatcap rendered.
    rendered: usize,
}

impl OnDisk {
    /// Compares each output of `rendered` (a tree at real path `real`)
    /// with the file at its path. Under confinement a file whose real
    /// path is outside the allowed directories is not read (it differs).
    fn compare(
        real: &Path,
        rendered: &RenderedTree,
        confine: Option<&[PathBuf]>,
        files: &FileOverlay,
    ) -> OnDisk {
        let mut out = OnDisk {
            rendered: rendered.outputs.len(),
            sources: rendered
                .outputs
                .iter()
                .map(|f| (f.path.clone(), f.source.clone()))
                .collect(),
            ..OnDisk::default()
        };
        for f in &rendered.outputs {
            let path = real.join(&f.path);
            if files.in_tree(&path).is_some() {
                // A tree read at a revision: its file, or none.
                match files.get(&path) {
                    Some(v) if *v.text == f.text => out.same.push(f.path.clone()),
                    Some(v) => out
                        .differs
                        .push((f.path.clone(), Some(first_difference(&v.text, &f.text)))),
                    None => out.absent.push(f.path.clone()),
                }
                continue;
            }
            if std::fs::symlink_metadata(&path).is_err() {
                out.absent.push(f.path.clone());
                continue;
            }
            let inside = confine.is_none_or(|allowed| {
                std::fs::canonicalize(&path).is_ok_and(|r| allowed.iter().any(|a| r.starts_with(a)))
            });
            let text = if inside {
                // A regular file of a size worth reading (never a FIFO or
                // a device; a huge file differs unread).
                std::fs::metadata(&path)
                    .ok()
                    .filter(|m| m.is_file() && m.len() <= COMPARED_AT_MOST)
                    .and_then(|_| std::fs::read(&path).ok())
                    .and_then(|b| String::from_utf8(b).ok())
            } else {
                None
            };
            match text {
                Some(t) if t == f.text => out.same.push(f.path.clone()),
                Some(t) => out
                    .differs
                    .push((f.path.clone(), Some(first_difference(&t, &f.text)))),
                None => out.differs.push((f.path.clone(), None)),
            }
        }
        out
    }

    /// Whether any output is on disk (the tree was rendered in place).
    fn any(&self) -> bool {
        !self.same.is_empty() || !self.differs.is_empty()
    }

    /// Whether the disk holds exactly heatcap's render.
    fn agrees(&self) -> bool {
        self.differs.is_empty() && self.absent.is_empty()
    }

    /// W0026 when the files on disk are not heatcap's render: at the
    /// first output that differs (else the first one the disk lacks),
    /// naming the data heatcap rendered with. `rendering` when the
    /// command writes heatcap's render (`heatcap render`) rather than
    /// answering for the disk.
    fn differs_warning(
        &self,
        shown_root: &Path,
        rules: &render::ScriptRules,
        opts: &RenderOptions,
        rendering: bool,
    ) -> Option<Diagnostic> {
        if !self.any() || self.agrees() {
            return None;
        }
        let shown = |rel: &str| display(&shown_root.join(rel));
        let (first, line) = match self.differs.first() {
            Some((p, l)) => (p.clone(), *l),
            None => (self.absent[0].clone(), None),
        };
        let (roles_file, network) = data_shown(shown_root, rules, opts);
        let data = match network {
            Some(n) => format!("roles data `{roles_file}` and network data `{n}`"),
            None => format!("roles data `{roles_file}`"),
        };
        let what = if self.differs.iter().any(|(p, _)| *p == first) {
            "differs from heatcap's render of its Jinja source"
        } else {
            "is not on disk, although heatcap's render of the Jinja sources writes it"
        };
        let counts = format!(
            "{} of the {} outputs {}, {} not on disk",
            self.differs.len(),
            self.rendered,
            if self.differs.len() == 1 {
                "differs"
            } else {
                "differ"
            },
            match self.absent.len() {
                1 => "1 is".to_owned(),
                n => format!("{n} are"),
            }
        );
        let then = if rendering {
            "heatcap writes its own render; give --roles-data and --network-data to render with the data the files on disk were rendered with"
        } else {
            "heatcap answers for the files on disk, which Heat is given; give --roles-data or --network-data to answer for heatcap's render with other data instead"
        };
        let mut d = Diagnostic::new(
            codes::RENDERED_ON_DISK_DIFFERS,
            shown(&first),
            format!("this rendered file {what} with {data} ({counts}): {then}"),
        );
        if let Some(l) = line {
            d = d.at(crate::diag::Span::point(l, 1));
        }
        if let Some(source) = self.sources.get(first.as_str()) {
            d = d.with_related(crate::diag::Related {
                file: shown(source),
                span: None,
                message: "the Jinja source heatcap rendered it from".into(),
            });
        }
        Some(d)
    }

    /// W0027 with `--roles-data` or `--network-data`: the files on disk
    /// heatcap's render replaces (those that differ from it).
    fn set_aside_note(
        &self,
        shown_root: &Path,
        opts: &RenderOptions,
        rendering: bool,
    ) -> Option<Diagnostic> {
        if self.differs.is_empty() || !opts.explicit() {
            return None;
        }
        let shown = |rel: &str| display(&shown_root.join(rel));
        let given: Vec<String> = opts
            .roles_data
            .iter()
            .map(|p| format!("--roles-data `{}`", display(p)))
            .chain(
                opts.network_data
                    .iter()
                    .map(|p| format!("--network-data `{}`", display(p))),
            )
            .collect();
        let names: Vec<String> = self
            .differs
            .iter()
            .map(|(p, _)| format!("`{}`", shown(p)))
            .collect();
        let root = display(shown_root);
        Some(Diagnostic::new(
            codes::RENDERED_ON_DISK_SET_ASIDE,
            if root.is_empty() { ".".to_owned() } else { root },
            format!(
                "heatcap {} its render with {} instead of {} rendered {} on disk, which differ from it (set aside): {}",
                if rendering { "writes" } else { "answers for" },
                given.join(" and "),
                names.len(),
                if names.len() == 1 { "file" } else { "files" },
                names.join(", ")
            ),
        ))
    }
}

/// The 1-based line where `a` and `b` first differ.
fn first_difference(a: &str, b: &str) -> u32 {
    let mut line = 1u32;
    for (x, y) in a.split_inclusive('\n').zip(b.split_inclusive('\n')) {
        if x != y {
            return line;
        }
        line = line.saturating_add(1);
    }
    line
}

/// The roles and network data files a tree is rendered with, as shown
/// (`None` for the network data of a script that reads none).
fn data_shown(
    shown_root: &Path,
    rules: &render::ScriptRules,
    opts: &RenderOptions,
) -> (String, Option<String>) {
    let roles_file = opts.roles_data.as_ref().map_or_else(
        || display(&shown_root.join(&rules.roles_data)),
        |p| display(p),
    );
    let network = rules.network_data.as_ref().map(|default| {
        opts.network_data
            .as_ref()
            .map_or_else(|| display(&shown_root.join(default)), |p| display(p))
    });
    (roles_file, network)
}

/// Mounts a rendering's outputs at their real paths (only those `keep`
/// names, when given: the tree's other outputs are read from disk).
fn mount(
    real: &Path,
    shown_root: &Path,
    tree: RenderedTree,
    keep: Option<&HashSet<String>>,
    overlay: &mut FileOverlay,
) {
    let shown = |rel: &str| display(&shown_root.join(rel));
    let mut sources: std::collections::BTreeMap<PathBuf, Vec<PathBuf>> = tree
        .sources
        .iter()
        .map(|s| (real.join(s), Vec::new()))
        .collect();
    let files: Vec<(PathBuf, VirtualFile)> = tree
        .outputs
        .into_iter()
        .filter_map(|f| {
            let path = real.join(&f.path);
            if let Some(outs) = sources.get_mut(&real.join(&f.source)) {
                outs.push(path.clone());
            }
            if keep.is_some_and(|k| !k.contains(&f.path)) {
                return None;
            }
            Some((
                path,
                VirtualFile {
                    text: f.text.into(),
                    origin: Some(shown(&f.source)),
                },
            ))
        })
        .collect();
    overlay.mount(files, sources);
}

/// `heatcap render`: a TripleO tree rendered as its
/// `tools/process-templates.py -o DIR` writes it (the tree's files, its
/// Jinja sources left out, and the rendered outputs), or refused.
#[derive(Debug, Clone)]
pub struct RenderPlan {
    /// What rendering found; an error refuses the plan.
    pub diagnostics: Vec<Diagnostic>,
    /// The tree as given.
    root: PathBuf,
    /// The rendered outputs (path below the tree, text).
    outputs: Vec<(String, String)>,
    /// The tree's other files and directories, relative to it.
    copies: Vec<(String, bool)>,
    /// The files read instead of the disk's (a tree at a revision).
    files: FileOverlay,
}

impl RenderPlan {
    /// Whether nothing may be written: rendering failed somewhere (no
    /// half-rendered tree is ever written).
    pub fn refused(&self) -> bool {
        self.diagnostics
            .iter()
            .any(|d| d.severity == crate::diag::Severity::Error)
    }

    /// The rendered outputs' paths below the tree, in path order.
    pub fn outputs(&self) -> Vec<&str> {
        self.outputs.iter().map(|(p, _)| p.as_str()).collect()
    }

    /// How many of the tree's files are copied as they are.
    pub fn copied(&self) -> usize {
        self.copies.iter().filter(|(_, dir)| !dir).count()
    }

    /// Writes the rendered tree into `dir` (empty unless `force`), staged
    /// beside it and moved into place as `export` writes; returns the
    /// rendered outputs written.
    ///
    /// # Errors
    /// The message saying what could not be written (nothing is, then),
    /// or that the plan is refused.
    pub fn write_tree(&self, dir: &Path, force: bool) -> Result<Vec<String>, String> {
        if self.refused() {
            return Err("rendering failed; nothing written".into());
        }
        let rendered: HashSet<&str> = self.outputs.iter().map(|(p, _)| p.as_str()).collect();
        let mut entries: Vec<(PathBuf, super::export::Staged)> = self
            .copies
            .iter()
            .filter(|(rel, _)| !rendered.contains(rel.as_str()))
            .map(|(rel, is_dir)| {
                let path = self.root.join(rel);
                let content = if *is_dir {
                    super::export::Staged::Dir
                } else if let Some(v) = self.files.get(&path) {
                    super::export::Staged::Text(v.text.to_string())
                } else {
                    super::export::Staged::Copy(path)
                };
                (PathBuf::from(rel), content)
            })
            .collect();
        entries.extend(self.outputs.iter().map(|(rel, text)| {
            (
                PathBuf::from(rel),
                super::export::Staged::Text(text.clone()),
            )
        }));
        super::export::write_staged(dir, force, ".heatcap-render-", &entries)?;
        Ok(self.outputs.iter().map(|(p, _)| p.clone()).collect())
    }
}

/// Plans the rendering of the TripleO tree at `tree`.
pub(crate) fn plan(tree: &Path, opts: &RenderOptions, files: &FileOverlay) -> RenderPlan {
    let shown = display(tree);
    let mut plan = RenderPlan {
        diagnostics: Vec::new(),
        root: tree.to_path_buf(),
        outputs: Vec::new(),
        copies: Vec::new(),
        files: files.clone(),
    };
    if !files.is_dir(tree) {
        plan.diagnostics.push(Diagnostic::new(
            crate::diag::codes::NOT_FOUND,
            shown,
            "not a directory: give the top of a tripleo-heat-templates tree",
        ));
        return plan;
    }
    let roles_given = opts.roles_data.as_ref().is_some_and(|p| files.is_file(p));
    if !roles_given && !render::is_renderable(tree, opts, None, files) {
        let rules = render::rules_of(tree, None, files);
        let roles_file = opts
            .roles_data
            .as_ref()
            .map_or_else(|| display(&tree.join(&rules.roles_data)), |p| display(p));
        plan.diagnostics.push(Diagnostic::new(
            crate::diag::codes::RENDER_ERROR,
            shown,
            format!("not a TripleO tree heatcap can render: it needs `*.j2.yaml` sources and a roles file (`{roles_file}` does not exist; give --roles-data)"),
        ));
        return plan;
    }
    let bounds = render::Bounds {
        files: files.clone(),
        ..render::Bounds::default()
    };
    let rendered = render::render_tree(tree, &shown, opts, &bounds);
    plan.diagnostics.clone_from(&rendered.diagnostics);
    if let Ok(real) = files.canonicalize(tree) {
        // A tree rendered in place: say where its files on disk are not
        // what is written.
        let disk = OnDisk::compare(&real, &rendered, None, files);
        plan.diagnostics.extend(if opts.explicit() {
            disk.set_aside_note(tree, opts, true)
        } else {
            disk.differs_warning(tree, &rendered.rules, opts, true)
        });
    }
    plan.outputs = rendered
        .outputs
        .into_iter()
        .map(|f| (f.path, f.text))
        .collect();
    plan.copies = render::tree_entries(tree, rendered.rules.skip_hidden, files)
        .into_iter()
        .filter(|(rel, is_dir)| *is_dir || !rel.ends_with(".j2.yaml"))
        .collect();
    plan
}

#[cfg(test)]
mod tests {
    use super::*;

    /// fixtures/jinja/rendered-other without its outputs (a raw tree), in
    /// a directory of its own.
    fn raw_copy() -> (tempfile::TempDir, PathBuf) {
        let tmp = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(tmp.path()).unwrap().join("tree");
        let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/jinja/rendered-other");
        for f in [
            "roles_data.yaml",
            "network_data_other.yaml",
            "network-data-samples/default-network-isolation.yaml",
            "overcloud.j2.yaml",
            "environments/network-isolation.j2.yaml",
            "network/port.yaml",
        ] {
            let to = root.join(f);
            std::fs::create_dir_all(to.parent().unwrap()).unwrap();
            std::fs::copy(from.join(f), to).unwrap();
        }
        (tmp, root)
    }

    fn mounted(root: &Path, opts: RenderOptions) -> (LoadOptions, Vec<Diagnostic>) {
        let mut load = LoadOptions {
            render: opts,
            ..LoadOptions::default()
        };
        let found = mount_trees([root], &mut load);
        (load, found)
    }

    fn codes_of(found: &[Diagnostic]) -> Vec<&str> {
        found.iter().map(|d| d.code.0).collect()
    }

    /// A raw tree (no output on disk) is read as heatcap renders it, and
    /// nothing is said.
    #[test]
    fn a_raw_tree_is_rendered_as_before() {
        let (_tmp, root) = raw_copy();
        let (load, found) = mounted(&root, RenderOptions::default());
        assert!(found.is_empty(), "{found:?}");
        let text = load.overlay.get(&root.join("overcloud.yaml")).unwrap();
        assert!(text.text.contains("StorageNetCidr"));
        assert!(load
            .overlay
            .get(&root.join("environments/network-isolation.yaml"))
            .is_some());
    }

    /// Outputs on disk rendered with other data: the disk is read (nothing
    /// that differs is mounted) and W0026 names the first differing file,
    /// its first differing line, its source and the data used; an output
    /// the disk lacks counts, and one the disk agrees with is mounted.
    #[test]
    fn outputs_on_disk_with_other_data_are_read_from_disk() {
        let (_tmp, root) = raw_copy();
        let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/jinja/rendered-other");
        std::fs::copy(from.join("overcloud.yaml"), root.join("overcloud.yaml")).unwrap();
        let (load, found) = mounted(&root, RenderOptions::default());
        assert_eq!(codes_of(&found), ["W0026"], "{found:?}");
        let d = &found[0];
        assert_eq!(d.file, display(&root.join("overcloud.yaml")));
        assert_eq!(d.span, Some(crate::diag::Span::point(6, 1)));
        assert!(d.message.contains("network data `"), "{}", d.message);
        assert!(
            d.message.contains("network-data-samples/default-network-isolation.yaml` (1 of the 2 outputs differs, 1 is not on disk)"),
            "{}",
            d.message
        );
        assert_eq!(d.related[0].file, display(&root.join("overcloud.j2.yaml")));
        assert!(load.overlay.get(&root.join("overcloud.yaml")).is_none());
        assert!(load
            .overlay
            .get(&root.join("environments/network-isolation.yaml"))
            .is_none());

        // The disk agrees where heatcap renders with the same data: the
        // agreeing output is mounted, the one the disk lacks is not.
        let other = RenderOptions {
            network_data: Some(root.join("network_data_other.yaml")),
            ..RenderOptions::default()
        };
        let rendered = render::render_tree(&root, "", &other, &render::Bounds::default());
        let disk = OnDisk::compare(&root, &rendered, None, &FileOverlay::default());
        assert_eq!(disk.same, ["overcloud.yaml"]);
        assert_eq!(disk.absent, ["environments/network-isolation.yaml"]);
        assert!(disk.differs.is_empty());
    }

    /// With `--network-data`, heatcap's render is read and W0027 names the
    /// files on disk set aside; with the data the disk was rendered with,
    /// nothing is said.
    #[test]
    fn given_data_sets_the_files_on_disk_aside() {
        let (_tmp, root) = raw_copy();
        let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/jinja/rendered-other");
        for f in ["overcloud.yaml", "environments/network-isolation.yaml"] {
            std::fs::copy(from.join(f), root.join(f)).unwrap();
        }
        let given = RenderOptions {
            network_data: Some(root.join("network-data-samples/default-network-isolation.yaml")),
            ..RenderOptions::default()
        };
        let (load, found) = mounted(&root, given);
        assert_eq!(codes_of(&found), ["W0027"], "{found:?}");
        assert!(found[0]
            .message
            .contains("instead of 2 rendered files on disk"));
        let text = load.overlay.get(&root.join("overcloud.yaml")).unwrap();
        assert!(text.text.contains("StorageNetCidr"));

        let disk_data = RenderOptions {
            network_data: Some(root.join("network_data_other.yaml")),
            ..RenderOptions::default()
        };
        let (load, found) = mounted(&root, disk_data);
        assert!(found.is_empty(), "{found:?}");
        assert!(load.overlay.get(&root.join("overcloud.yaml")).is_some());
    }

    /// Under confinement an output on disk that links out of the allowed
    /// directories is never read: it counts as differing, without a line.
    #[test]
    fn an_output_linking_out_of_the_roots_is_not_read() {
        let (tmp, root) = raw_copy();
        let outside = tmp.path().join("outside.yaml");
        let rendered = render::render_tree(
            &root,
            "",
            &RenderOptions::default(),
            &render::Bounds::default(),
        );
        let text = &rendered
            .outputs
            .iter()
            .find(|f| f.path == "overcloud.yaml")
            .unwrap()
            .text;
        std::fs::write(&outside, text).unwrap();
        std::os::unix::fs::symlink(&outside, root.join("overcloud.yaml")).unwrap();
        let confined = [root.clone()];
        let disk = OnDisk::compare(&root, &rendered, Some(&confined), &FileOverlay::default());
        assert_eq!(disk.differs, [("overcloud.yaml".to_owned(), None)]);
        let free = OnDisk::compare(&root, &rendered, None, &FileOverlay::default());
        assert_eq!(free.same, ["overcloud.yaml"]);
    }

    /// An output on disk that is a FIFO is never opened (it would block):
    /// it differs.
    #[test]
    fn an_output_that_is_a_fifo_is_not_opened() {
        let (_tmp, root) = raw_copy();
        let fifo = root.join("overcloud.yaml");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if !made.is_ok_and(|s| s.success()) {
            return;
        }
        let rendered = render::render_tree(
            &root,
            "",
            &RenderOptions::default(),
            &render::Bounds::default(),
        );
        let disk = OnDisk::compare(&root, &rendered, None, &FileOverlay::default());
        assert_eq!(disk.differs, [("overcloud.yaml".to_owned(), None)]);
    }
}
