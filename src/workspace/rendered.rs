//! Raw TripleO trees: every tree a command's paths are in is rendered in
//! memory (`crate::render`) and its outputs mounted in the workspace's own
//! overlay (`crate::vfs::FileOverlay`, in its `LoadOptions`) before
//! anything is walked or read, so every stage reads the rendered files
//! under their rendered names.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use crate::diag::Diagnostic;
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
            if !inside && dir.exists() {
                return None;
            }
        }
        if !checked.insert(dir.to_path_buf()) {
            // Seen from another path: its answer is already taken.
            return None;
        }
        if dir.is_dir() && render::is_renderable(dir, opts, confine) {
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
        if let Some(t) = tree_of(p, opts, confine.as_deref(), &mut checked) {
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
        let Ok(real) = std::fs::canonicalize(dir) else {
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
            let found = rendered.diagnostics.clone();
            mount(&real, &tree, rendered, &mut part);
            (part, found)
        };
        let (part, found) = match &load.cache {
            Some(cache) => cache.rendered(
                (real.clone(), format!("{with} as {}", display(&tree))),
                &inputs(dir, opts, confine.as_deref()),
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
fn inputs(dir: &Path, opts: &RenderOptions, confine: Option<&[PathBuf]>) -> Vec<PathBuf> {
    let rules = render::rules_of(dir, confine);
    let mut out = vec![dir.to_path_buf()];
    out.extend(
        render::tree_entries(dir, rules.skip_hidden)
            .into_iter()
            .map(|(rel, _)| dir.join(rel)),
    );
    out.extend(opts.roles_data.iter().cloned());
    out.extend(opts.network_data.iter().cloned());
    out
}

/// Mounts a rendering's outputs at their real paths.
fn mount(real: &Path, shown_root: &Path, tree: RenderedTree, overlay: &mut FileOverlay) {
    let shown = |rel: &str| display(&shown_root.join(rel));
    let mut sources: std::collections::BTreeMap<PathBuf, Vec<PathBuf>> = tree
        .sources
        .iter()
        .map(|s| (real.join(s), Vec::new()))
        .collect();
    let files: Vec<(PathBuf, VirtualFile)> = tree
        .outputs
        .into_iter()
        .map(|f| {
            let path = real.join(&f.path);
            if let Some(outs) = sources.get_mut(&real.join(&f.source)) {
                outs.push(path.clone());
            }
            (
                path,
                VirtualFile {
                    text: f.text.into(),
                    origin: Some(shown(&f.source)),
                },
            )
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
                let content = if *is_dir {
                    super::export::Staged::Dir
                } else {
                    super::export::Staged::Copy(self.root.join(rel))
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
pub(crate) fn plan(tree: &Path, opts: &RenderOptions) -> RenderPlan {
    let shown = display(tree);
    let mut plan = RenderPlan {
        diagnostics: Vec::new(),
        root: tree.to_path_buf(),
        outputs: Vec::new(),
        copies: Vec::new(),
    };
    if !tree.is_dir() {
        plan.diagnostics.push(Diagnostic::new(
            crate::diag::codes::NOT_FOUND,
            shown,
            "not a directory: give the top of a tripleo-heat-templates tree",
        ));
        return plan;
    }
    let roles_given = opts.roles_data.as_ref().is_some_and(|p| p.is_file());
    if !roles_given && !render::is_renderable(tree, opts, None) {
        let rules = render::rules_of(tree, None);
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
    let rendered = render::render_tree(tree, &shown, opts, &render::Bounds::default());
    plan.diagnostics = rendered.diagnostics;
    plan.outputs = rendered
        .outputs
        .into_iter()
        .map(|f| (f.path, f.text))
        .collect();
    plan.copies = render::tree_entries(tree, rendered.rules.skip_hidden)
        .into_iter()
        .filter(|(rel, is_dir)| *is_dir || !rel.ends_with(".j2.yaml"))
        .collect();
    plan
}
