//! Stage 5 (beside `model`): TripleO's Jinja sources rendered as the tree's
//! own `tools/process-templates.py` renders them, in memory.
//!
//! A tree with `*.j2.yaml` sources and a roles file is rendered by
//! [`render_tree`]: the script's rules for that revision
//! ([`script::ScriptRules`], read from the tree's copy of the script), its
//! data rules (`name_lower`, role tags, network `idx`, disabled networks,
//! the `{{role.name}}` test), its output names, its include lookup
//! (the output's directory, then the root) and Jinja2's defaults
//! (lenient undefined values, no auto-escaping, one final newline
//! dropped). minijinja renders; [`pyobj`] and [`rewrite`] give it Python's
//! mutable lists and dicts. The result is a list of virtual files the
//! workspace mounts as an overlay (`crate::vfs`) and `heatcap render`
//! writes.

mod data;
pub(crate) mod pyobj;
mod rewrite;
pub(crate) mod script;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use indexmap::IndexMap;
use minijinja::value::Value;
use minijinja::{AutoEscape, Environment, UndefinedBehavior};
use rayon::prelude::*;

use crate::diag::{codes, Diagnostic, Span};
use crate::load::{parse_text, ParseOptions};
use crate::node::{Node, Value as NodeValue};
use data::Py;
pub(crate) use script::ScriptRules;

pub(crate) use crate::load::RenderOptions;

/// One rendered output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RenderedFile {
    /// Its path relative to the tree, `/`-separated
    /// (`puppet/controller-role.yaml`).
    pub path: String,
    /// The source it was rendered from, relative to the tree.
    pub source: String,
    /// The text.
    pub text: String,
    /// The engine's work it took, in minijinja's fuel.
    #[cfg_attr(not(test), allow(dead_code))]
    pub fuel: u64,
}

/// A tree's rendering.
#[derive(Debug, Clone)]
pub(crate) struct RenderedTree {
    /// The outputs, by path (one per path: a later one replaces an
    /// earlier one, as the script's writes do).
    pub outputs: Vec<RenderedFile>,
    /// Every `*.j2.yaml` source, relative to the tree.
    pub sources: Vec<String>,
    /// What went wrong (roles or network data, a template that fails).
    pub diagnostics: Vec<Diagnostic>,
    /// The script's rules the tree follows.
    pub rules: ScriptRules,
}

/// The engine's work allowed for one output, in minijinja's fuel (one
/// unit per instruction executed, and per 64 bytes of data made: output,
/// captured blocks, strings and lists built). Measured (`render::tests`,
/// and each tree rendered with every role of its `roles/`): the most one
/// file of a real tripleo-heat-templates tree takes is 23,024 with its own
/// roles data (`overcloud.yaml` at 894bd5b8c) and 48,999 with all 56 roles
/// (`overcloud-resource-registry-puppet.yaml`), so 500,000 leaves a
/// margin of 10 to 20; a hostile source then costs a fraction of a
/// second and at most about 32 MB of data (500,000 x 64 bytes).
pub(crate) const FUEL: u64 = 500_000;

/// What a render may read, and how much one output may cost.
#[derive(Debug, Clone)]
pub(crate) struct Bounds {
    /// The directories reads are confined to (`LoadOptions::confine`,
    /// `heatcap serve`'s roots): a source, an include, the roles,
    /// network or excludes data or the script whose real path is
    /// elsewhere is not read.
    pub confine: Option<Arc<[PathBuf]>>,
    /// The most characters one output may hold: Heat's
    /// `max_template_size` (`--max-size`). The render stops as soon as
    /// its output grows past it.
    pub max_chars: usize,
    /// The engine's work allowed for one output ([`FUEL`]).
    pub fuel: u64,
    /// The files read instead of the disk's (`LoadOptions::overlay`): a
    /// tree read at a git revision (`--rev`) is rendered from it.
    pub files: crate::vfs::FileOverlay,
}

impl Default for Bounds {
    fn default() -> Bounds {
        Bounds {
            confine: None,
            files: crate::vfs::FileOverlay::default(),
            max_chars: crate::load::DEFAULT_MAX_SIZE,
            fuel: FUEL,
        }
    }
}

impl Bounds {
    /// The bounds of a workspace's reads.
    pub(crate) fn of(load: &crate::load::LoadOptions) -> Bounds {
        Bounds {
            confine: load.confine.clone(),
            files: load.overlay.clone(),
            max_chars: load.max_size,
            fuel: FUEL,
        }
    }

    /// The bytes of the regular file at `path` (shown as `shown_as`),
    /// refused as every other read is when it is outside the confinement
    /// (E0001) or not a regular file (E0017).
    fn read(&self, path: &Path, shown_as: &str) -> Result<Vec<u8>, Box<Diagnostic>> {
        if let Some(problem) = outside(path, self.confine.as_deref()) {
            return Err(Box::new(Diagnostic::new(
                codes::READ_ERROR,
                shown_as,
                problem,
            )));
        }
        let cannot = |e: &std::io::Error| {
            Box::new(render_error(
                shown_as,
                format!("cannot read: {}", crate::walk::path_io_message(path, e)),
            ))
        };
        if !self.files.is_empty() {
            return self.files.read(path).map_err(|e| cannot(&e));
        }
        let meta = std::fs::metadata(path).map_err(|e| cannot(&e))?;
        if !meta.is_file() {
            return Err(Box::new(crate::walk::not_regular(shown_as.to_owned())));
        }
        std::fs::read(path).map_err(|e| cannot(&e))
    }
}

/// Why `path` may not be read under `confine`, as the loader says it.
fn outside(path: &Path, confine: Option<&[PathBuf]>) -> Option<String> {
    confine?;
    crate::load::outside(path, confine, &crate::vfs::FileOverlay::default())
}

/// The script's rules for the tree at `root` (the latest ones when it
/// has no script, or when the script is outside `confine`).
pub(crate) fn rules_of(
    root: &Path,
    confine: Option<&[PathBuf]>,
    files: &crate::vfs::FileOverlay,
) -> ScriptRules {
    let script = root.join("tools/process-templates.py");
    if outside(&script, confine).is_some() {
        return ScriptRules::latest();
    }
    files
        .read(&script)
        .ok()
        .and_then(|b| String::from_utf8(b).ok())
        .map_or_else(ScriptRules::latest, |s| ScriptRules::from_script(&s))
}

/// Whether `dir` is a tree heatcap renders: it is a TripleO tree's top
/// (it has the script's roles file, or the script itself), the roles file
/// to use exists (the given one, or the script's default) and it has a
/// Jinja source at its top (`overcloud.j2.yaml` and its kin) or one
/// directory down. Cheap: a few `stat`s and at most one listing per
/// directory, no walk.
pub(crate) fn is_renderable(
    dir: &Path,
    opts: &RenderOptions,
    confine: Option<&[PathBuf]>,
    files: &crate::vfs::FileOverlay,
) -> bool {
    let script = dir.join("tools/process-templates.py");
    let default_roles = dir.join("roles_data.yaml");
    if !files.is_file(&default_roles) && !files.is_file(&script) {
        return false;
    }
    let roles = match &opts.roles_data {
        Some(p) => files.is_file(p),
        None => {
            files.is_file(&default_roles)
                || files.is_file(&dir.join(rules_of(dir, confine, files).roles_data))
        }
    };
    roles && has_top_level_source(dir, files)
}

fn has_top_level_source(dir: &Path, files: &crate::vfs::FileOverlay) -> bool {
    if let Some(entries) = files.tree_entries(dir) {
        return entries.iter().any(|(name, is_dir)| {
            name.ends_with(".j2.yaml")
                || (*is_dir
                    && !name.starts_with('.')
                    && files
                        .tree_entries(&dir.join(name))
                        .is_some_and(|sub| sub.iter().any(|(f, _)| f.ends_with(".j2.yaml"))))
        });
    }
    std::fs::read_dir(dir).is_ok_and(|entries| {
        entries.flatten().any(|e| {
            let name = e.file_name();
            let name = name.to_string_lossy();
            name.ends_with(".j2.yaml")
                || (e.file_type().is_ok_and(|t| t.is_dir())
                    && !name.starts_with('.')
                    && std::fs::read_dir(e.path()).is_ok_and(|sub| {
                        sub.flatten()
                            .any(|f| f.file_name().to_string_lossy().ends_with(".j2.yaml"))
                    }))
        })
    })
}

/// Shows `rel` (relative to the tree) as the user sees it.
fn shown(root_display: &str, rel: &str) -> String {
    if root_display.is_empty() {
        rel.to_owned()
    } else {
        format!("{}/{rel}", root_display.trim_end_matches('/'))
    }
}

fn render_error(file: &str, message: impl Into<String>) -> Diagnostic {
    Diagnostic::new(codes::RENDER_ERROR, file, message)
}

/// Reads a data file (roles, networks, excludes) as PyYAML's `safe_load`
/// does: `Ok(None)` for an empty document.
fn load_data(
    path: &Path,
    shown_as: &str,
    bounds: &Bounds,
) -> Result<Option<Node>, Vec<Diagnostic>> {
    let bytes = bounds.read(path, shown_as).map_err(|d| vec![*d])?;
    let text =
        String::from_utf8(bytes).map_err(|_| vec![render_error(shown_as, "not UTF-8 text")])?;
    let parsed = parse_text(&text, shown_as, &ParseOptions::default());
    let errors: Vec<Diagnostic> = parsed
        .diagnostics
        .into_iter()
        .filter(|d| d.severity == crate::diag::Severity::Error)
        .collect();
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(parsed.root.filter(|r| r.value != NodeValue::Null))
}

/// A list of mappings (roles, networks) or the diagnostics saying why not.
fn list_of_maps(node: &Node, shown_as: &str, what: &str) -> Result<Vec<Py>, Vec<Diagnostic>> {
    let NodeValue::Seq(items) = &node.value else {
        return Err(vec![render_error(
            shown_as,
            format!("the {what} data must be a list of mappings"),
        )
        .at(node.span)]);
    };
    let mut out = Vec::with_capacity(items.len());
    let mut errors = Vec::new();
    for item in items {
        match &item.value {
            NodeValue::Map(m) => {
                let name = m
                    .entries
                    .iter()
                    .find(|(k, _)| matches!(&k.value, NodeValue::Str(s) if s == "name"));
                match name {
                    Some((_, v)) if matches!(v.value, NodeValue::Str(_)) => {}
                    Some((_, v)) => errors.push(
                        render_error(shown_as, format!("each {what}'s `name` must be a string"))
                            .at(v.span),
                    ),
                    None => errors.push(
                        render_error(shown_as, format!("each {what} needs a `name`")).at(item.span),
                    ),
                }
                out.push(Py::from_node(item));
            }
            _ => errors.push(
                render_error(shown_as, format!("each {what} must be a mapping")).at(item.span),
            ),
        }
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}

/// What one output is rendered with.
enum Data {
    /// `roles` (and `networks`).
    Plain,
    /// `role` (its map, or its name) and maybe `networks`,
    /// `disable_constraints`.
    Role { role: usize, map: bool },
    /// `network`.
    Network(usize),
}

struct Job {
    source: usize,
    output: String,
    data: Data,
}

/// The prepared data of a tree.
struct Prepared {
    roles: Vec<Py>,
    networks: Option<Vec<Py>>,
    /// Enabled networks by name (the script's `n_map`): indexes into
    /// `networks`.
    enabled: Vec<usize>,
}

/// Renders the tree at `root` (shown as `root_display`) as its script
/// would with `-p . -r ROLES -n NETWORKS`.
/// Reads go through `bounds`' confinement, and each output is stopped
/// when it grows past `bounds.max_chars` or uses up `bounds.fuel`.
pub(crate) fn render_tree(
    root: &Path,
    root_display: &str,
    opts: &RenderOptions,
    bounds: &Bounds,
) -> RenderedTree {
    let confine = bounds.confine.as_deref();
    let rules = rules_of(root, confine, &bounds.files);
    let mut tree = RenderedTree {
        outputs: Vec::new(),
        sources: Vec::new(),
        diagnostics: Vec::new(),
        rules: rules.clone(),
    };
    let script = root.join("tools/process-templates.py");
    if bounds.files.in_tree(&script).is_none() && std::fs::symlink_metadata(&script).is_ok() {
        if let Some(problem) = outside(&script, confine) {
            tree.diagnostics.push(Diagnostic::new(
                codes::READ_ERROR,
                shown(root_display, "tools/process-templates.py"),
                format!("{problem} (the latest script's rules are used)"),
            ));
        }
    }
    let files = tree_files(root, rules.skip_hidden, &bounds.files);
    tree.sources = files
        .iter()
        .filter(|f| f.ends_with(".j2.yaml"))
        .cloned()
        .collect();
    let prepared = match prepare(root, root_display, opts, &rules, bounds) {
        Ok(p) => p,
        Err(d) => {
            tree.diagnostics.extend(d);
            return tree;
        }
    };
    let excludes = match excludes(root, root_display, &rules, bounds) {
        Ok(e) => e,
        Err(d) => {
            tree.diagnostics.extend(d);
            return tree;
        }
    };
    let mut texts: Vec<Result<String, Box<Diagnostic>>> = Vec::new();
    let mut jobs = Vec::new();
    for (si, rel) in tree.sources.iter().enumerate() {
        let text = read_source(root, &shown(root_display, rel), rel, bounds);
        let names = Names {
            rules: &rules,
            prepared: &prepared,
            excludes: &excludes,
        };
        jobs.extend(names.jobs(si, rel, text.as_deref().ok()));
        texts.push(text);
    }
    let sources: Vec<Result<Arc<Template>, Box<Diagnostic>>> = texts
        .into_iter()
        .enumerate()
        .map(|(i, t)| t.map(|t| Arc::new(Template::new(shown(root_display, &tree.sources[i]), &t))))
        .collect();
    let ctx = Ctx {
        root,
        root_display,
        rules: &rules,
        prepared: &prepared,
        bounds,
    };
    let results: Vec<Result<RenderedFile, Box<Diagnostic>>> = jobs
        .par_iter()
        .map(|job| {
            let template = sources[job.source].clone()?;
            ctx.render(job, &template).map(|(text, fuel)| RenderedFile {
                path: job.output.clone(),
                source: tree.sources[job.source].clone(),
                text,
                fuel,
            })
        })
        .collect();
    let mut by_path: IndexMap<String, RenderedFile> = IndexMap::new();
    let mut failed_sources = std::collections::HashSet::new();
    for r in results {
        match r {
            Ok(f) => {
                by_path.insert(f.path.clone(), f);
            }
            Err(d) => {
                let d = *d;
                // One report per source and message: a source that fails
                // for every role fails the same way each time.
                // (A refused include is named by each source including it.)
                let by = d.related.first().map(|r| (r.file.clone(), r.span));
                if failed_sources.insert((d.file.clone(), d.span, d.message.clone(), by)) {
                    tree.diagnostics.push(d);
                }
            }
        }
    }
    tree.outputs = by_path.into_values().collect();
    tree.outputs.sort_by(|a, b| a.path.cmp(&b.path));
    tree
}

/// A source's text (UTF-8, as Python's text mode reads it).
fn read_source(
    root: &Path,
    shown_as: &str,
    rel: &str,
    bounds: &Bounds,
) -> Result<String, Box<Diagnostic>> {
    let bytes = bounds.read(&root.join(rel), shown_as)?;
    String::from_utf8(bytes).map_err(|_| Box::new(render_error(shown_as, "not UTF-8 text")))
}

/// The script's output names.
struct Names<'a> {
    rules: &'a ScriptRules,
    prepared: &'a Prepared,
    excludes: &'a [String],
}

impl Names<'_> {
    /// The outputs of the source `rel` (number `si`, text `text` when it
    /// could be read), the excluded ones left out.
    fn jobs(&self, si: usize, rel: &str, text: Option<&str>) -> Vec<Job> {
        let (rules, prepared) = (self.rules, self.prepared);
        let (dir, base) = rel.rsplit_once('/').unwrap_or(("", rel));
        let join = |name: &str| {
            if dir.is_empty() {
                name.to_owned()
            } else {
                format!("{dir}/{name}")
            }
        };
        let dotted = format!("./{rel}");
        let mut jobs = Vec::new();
        if base.ends_with(".role.j2.yaml") {
            let map = rules.role_map_test && text.is_some_and(|t| t.contains("{{role.name}}"));
            let stem = base.replace(".role.j2.yaml", ".yaml");
            for (ri, role) in prepared.roles.iter().enumerate() {
                let name = role.get("name").map(Py::python_str).unwrap_or_default();
                let lower = name.to_lowercase();
                let mut out = join(&format!("{lower}-{stem}"));
                if rules.nic_config_names && dotted.contains("network/config") {
                    let deprecated = role
                        .get("deprecated_nic_config_name")
                        .filter(|v| rules.deprecated_nic_config_name && v.truthy());
                    out = join(&deprecated.map_or_else(|| format!("{lower}.yaml"), Py::python_str));
                }
                jobs.push(Job {
                    source: si,
                    output: out,
                    data: Data::Role {
                        role: role_index(&prepared.roles, &name, ri),
                        map,
                    },
                });
            }
        } else if rules.network_templates && base.ends_with(".network.j2.yaml") {
            let networks = prepared.networks.as_deref().unwrap_or_default();
            let stem = base.replace(".network.j2.yaml", ".yaml");
            let ports = Path::new(&dotted)
                .parent()
                .is_some_and(|p| p.to_string_lossy().ends_with("ports"));
            for &ni in &prepared.enabled {
                let lower = networks[ni]
                    .get("name_lower")
                    .map(Py::python_str)
                    .unwrap_or_default();
                jobs.push(Job {
                    source: si,
                    output: join(&stem.replace(if ports { "port" } else { "network" }, &lower)),
                    data: Data::Network(ni),
                });
            }
        } else {
            // Excludes apply to role and network outputs only.
            return vec![Job {
                source: si,
                output: join(&base.replace(".j2.yaml", ".yaml")),
                data: Data::Plain,
            }];
        }
        jobs.retain(|j| !self.excludes.contains(&j.output));
        jobs
    }
}

/// Where the script would write each output of the tree at `root`, with
/// the source it renders it from (paths below the tree): every source's
/// outputs named as [`render_tree`] names them, with the tree's roles and
/// network data, excluded outputs left out. `None` when the data cannot be
/// read (no roles file, or one outside `confine`): [`sources_named`] then
/// guesses from the names.
pub(crate) fn output_names(
    root: &Path,
    opts: &RenderOptions,
    confine: Option<&[PathBuf]>,
    files: &crate::vfs::FileOverlay,
) -> Option<Vec<(String, String)>> {
    let rules = rules_of(root, confine, files);
    let bounds = Bounds {
        confine: confine.map(Into::into),
        files: files.clone(),
        ..Bounds::default()
    };
    let prepared = prepare(root, "", opts, &rules, &bounds).ok()?;
    let excludes = excludes(root, "", &rules, &bounds).unwrap_or_default();
    let names = Names {
        rules: &rules,
        prepared: &prepared,
        excludes: &excludes,
    };
    let sources = tree_files(root, rules.skip_hidden, files)
        .into_iter()
        .filter(|f| f.ends_with(".j2.yaml"));
    Some(
        sources
            .enumerate()
            .flat_map(|(si, rel)| {
                names
                    .jobs(si, &rel, None)
                    .into_iter()
                    .map(move |j| (j.output, rel.clone()))
                    .collect::<Vec<_>>()
            })
            .collect(),
    )
}

/// The sources among `sources` (Jinja sources, paths below a tree) whose
/// outputs the script's naming rules could name `name`, without the data
/// that says which roles and networks there are: `x.j2.yaml` for `x.yaml`;
/// `B.role.j2.yaml` for `ROLE-B.yaml` beside it (and any role template
/// for a NIC config under `network/config/`); `S.network.j2.yaml` for a
/// name that is `S` with `network` (under `ports/`: `port`) replaced by a
/// network's name.
pub(crate) fn sources_named<'a>(
    name: &str,
    sources: &'a [String],
    rules: &ScriptRules,
) -> Vec<&'a str> {
    let (dir, base) = name.rsplit_once('/').unwrap_or(("", name));
    let Some(stem) = base.strip_suffix(".yaml") else {
        return Vec::new();
    };
    sources
        .iter()
        .filter(|s| {
            let (sdir, sbase) = s.rsplit_once('/').unwrap_or(("", s.as_str()));
            if sdir != dir {
                return false;
            }
            if let Some(role_stem) = sbase.strip_suffix(".role.j2.yaml") {
                let nic = rules.nic_config_names && format!("./{dir}").contains("network/config");
                return nic
                    || stem
                        .strip_suffix(role_stem)
                        .and_then(|r| r.strip_suffix('-'))
                        .is_some_and(|role| !role.is_empty());
            }
            if let (true, Some(net_stem)) = (
                rules.network_templates,
                sbase.strip_suffix(".network.j2.yaml"),
            ) {
                let word = if dir.ends_with("ports") {
                    "port"
                } else {
                    "network"
                };
                return net_stem.match_indices(word).any(|(i, _)| {
                    let (before, after) = (&net_stem[..i], &net_stem[i + word.len()..]);
                    stem.len() > before.len() + after.len()
                        && stem.starts_with(before)
                        && stem.ends_with(after)
                });
            }
            sbase.strip_suffix(".j2.yaml") == Some(stem)
        })
        .map(String::as_str)
        .collect()
}

/// `r_map[name]`: the last role of that name (the script's dict keeps the
/// last).
fn role_index(roles: &[Py], name: &str, fallback: usize) -> usize {
    roles
        .iter()
        .rposition(|r| r.get("name").map(Py::python_str).as_deref() == Some(name))
        .unwrap_or(fallback)
}

/// Every file below `root`, relative and `/`-separated, sorted; hidden
/// ones left out when the script leaves them out. Directory links are
/// not followed (`os.walk`'s default).
pub(crate) fn tree_files(
    root: &Path,
    skip_hidden: bool,
    files: &crate::vfs::FileOverlay,
) -> Vec<String> {
    tree_entries(root, skip_hidden, files)
        .into_iter()
        .filter_map(|(rel, is_dir)| (!is_dir).then_some(rel))
        .collect()
}

/// Every file and directory below `root` as `os.walk` lists them (links
/// to directories neither entered nor listed), with whether it is a
/// directory.
pub(crate) fn tree_entries(
    root: &Path,
    skip_hidden: bool,
    files: &crate::vfs::FileOverlay,
) -> Vec<(String, bool)> {
    let mut out = Vec::new();
    if files.tree_entries(root).is_some() {
        // A tree read at a revision: listed as `os.walk` lists a checkout.
        let mut stack = vec![String::new()];
        while let Some(dir) = stack.pop() {
            let Some(entries) = files.tree_entries(&root.join(&dir)) else {
                continue;
            };
            let mut below = Vec::new();
            for (name, is_dir) in entries {
                if skip_hidden && name.starts_with('.') {
                    continue;
                }
                let rel = if dir.is_empty() {
                    name
                } else {
                    format!("{dir}/{name}")
                };
                if is_dir {
                    below.push(rel.clone());
                }
                out.push((rel, is_dir));
            }
            stack.extend(below.into_iter().rev());
        }
        out.sort_by(|a, b| Path::new(&a.0).cmp(Path::new(&b.0)));
        return out;
    }
    let walker = walkdir::WalkDir::new(root)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| {
            e.depth() == 0 || !(skip_hidden && e.file_name().to_string_lossy().starts_with('.'))
        });
    for e in walker.flatten() {
        if e.depth() == 0 {
            continue;
        }
        let is_dir = e.file_type().is_dir();
        if e.file_type().is_symlink() && e.path().is_dir() {
            continue;
        }
        if let Ok(rel) = e.path().strip_prefix(root) {
            out.push((crate::walk::display(rel), is_dir));
        }
    }
    out
}

/// The roles and networks, changed as the script changes them.
fn prepare(
    root: &Path,
    root_display: &str,
    opts: &RenderOptions,
    rules: &ScriptRules,
    bounds: &Bounds,
) -> Result<Prepared, Vec<Diagnostic>> {
    let (roles_path, roles_shown) = match &opts.roles_data {
        Some(p) => (p.clone(), crate::walk::display(p)),
        None => (
            root.join(&rules.roles_data),
            shown(root_display, &rules.roles_data),
        ),
    };
    // Both files are checked before either error is reported.
    let role_list = load_data(&roles_path, &roles_shown, bounds).and_then(|node| match &node {
        Some(n) => list_of_maps(n, &roles_shown, "role"),
        None => Err(vec![render_error(
            &roles_shown,
            "the roles data is empty; it must be a list of roles",
        )]),
    });
    let networks = match &rules.network_data {
        None => Ok(None),
        Some(default) => {
            let (path, net_shown) = match &opts.network_data {
                Some(p) => (p.clone(), crate::walk::display(p)),
                None => (root.join(default), shown(root_display, default)),
            };
            load_data(&path, &net_shown, bounds).and_then(|node| match node {
                Some(n) => list_of_maps(&n, &net_shown, "network").map(Some),
                None if rules.empty_network_data => Ok(Some(Vec::new())),
                None => Err(vec![render_error(
                    &net_shown,
                    "the network data is empty (this revision's script needs a list)",
                )]),
            })
        }
    };
    let (mut role_maps, mut networks) = match (role_list, networks) {
        (Ok(r), Ok(n)) => (r, n),
        (r, n) => {
            let mut errors = r.err().unwrap_or_default();
            errors.extend(n.err().unwrap_or_default());
            return Err(errors);
        }
    };
    if let (true, Some(nets)) = (rules.network_idx, networks.as_mut()) {
        for (i, n) in nets.iter_mut().enumerate() {
            n.set("idx", Py::Int(i64::try_from(i).unwrap_or(i64::MAX)));
        }
    }
    if rules.role_tags {
        for role in &mut role_maps {
            data::add_role_tags(role).map_err(|m| vec![render_error(&roles_shown, m)])?;
        }
    }
    let mut enabled: IndexMap<String, usize> = IndexMap::new();
    if let Some(nets) = networks.as_mut() {
        for (i, n) in nets.iter_mut().enumerate() {
            if n.get("enabled") == Some(&Py::Bool(false)) {
                continue;
            }
            let name = n.get("name").map(Py::python_str).unwrap_or_default();
            enabled.insert(name.clone(), i);
            if rules.network_templates && !n.get("name_lower").is_some_and(Py::truthy) {
                n.set("name_lower", Py::Str(name.to_lowercase()));
            }
        }
    }
    Ok(Prepared {
        roles: role_maps,
        networks,
        enabled: enabled.into_values().collect(),
    })
}

/// The outputs `j2_excludes.yaml` names (its `name` list).
fn excludes(
    root: &Path,
    root_display: &str,
    rules: &ScriptRules,
    bounds: &Bounds,
) -> Result<Vec<String>, Vec<Diagnostic>> {
    let path = root.join("j2_excludes.yaml");
    let shown_as = shown(root_display, "j2_excludes.yaml");
    if !bounds.files.is_file(&path) {
        return if rules.excludes_required {
            Err(vec![render_error(
                &shown_as,
                "missing: this revision's script requires j2_excludes.yaml",
            )])
        } else {
            Ok(Vec::new())
        };
    }
    let Some(node) = load_data(&path, &shown_as, bounds)? else {
        return Err(vec![render_error(
            &shown_as,
            "empty: it must be a mapping with a `name` list",
        )]);
    };
    let py = Py::from_node(&node);
    match py.get("name") {
        Some(Py::List(items)) => Ok(items.iter().map(Py::python_str).collect()),
        None if !rules.excludes_required && matches!(py, Py::Dict(_)) => Ok(Vec::new()),
        _ => Err(vec![render_error(
            &shown_as,
            "`name` must be a list of paths",
        )
        .at(node.span)]),
    }
}

/// A source (or an include) ready for minijinja: newlines as Python's
/// text mode reads them, lists and dicts made mutable.
struct Template {
    shown: String,
    original: String,
    rewritten: rewrite::Rewritten,
}

impl Template {
    fn new(shown: String, text: &str) -> Template {
        // Python's universal newlines: `\r\n` and `\r` read as `\n`.
        let original = if text.contains('\r') {
            text.replace("\r\n", "\n").replace('\r', "\n")
        } else {
            text.to_owned()
        };
        let rewritten = rewrite::rewrite(&original);
        Template {
            shown,
            original,
            rewritten,
        }
    }

    /// The 1-based line and column (in characters) of `offset` in the
    /// rewritten text.
    fn position(&self, offset: usize) -> Span {
        let at = self
            .rewritten
            .original_offset(offset)
            .min(self.original.len());
        let before = &self.original[..floor_char(&self.original, at)];
        let line = before.matches('\n').count() + 1;
        let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        Span::point(
            u32::try_from(line).unwrap_or(u32::MAX),
            u32::try_from(col).unwrap_or(u32::MAX),
        )
    }
}

fn floor_char(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

struct Ctx<'a> {
    root: &'a Path,
    root_display: &'a str,
    rules: &'a ScriptRules,
    prepared: &'a Prepared,
    bounds: &'a Bounds,
}

/// Jinja2's `split_template_path`: `..` is never found.
fn template_pieces(name: &str) -> Option<Vec<&str>> {
    let mut pieces = Vec::new();
    for p in name.split('/') {
        if p == ".." {
            return None;
        }
        if !p.is_empty() && p != "." {
            pieces.push(p);
        }
    }
    Some(pieces)
}

/// Jinja2's `FileSystemLoader([dirname(output), root])`: an include is
/// looked up in the output's directory, then at the tree's top.
struct Includes {
    root: std::path::PathBuf,
    root_display: String,
    out_dir: String,
    main_name: String,
    /// The directories reads are confined to.
    confine: Option<Arc<[PathBuf]>>,
    /// The files read instead of the disk's.
    files: crate::vfs::FileOverlay,
    /// Every template read for this render, by the name it was loaded as
    /// (for the position of an error in it).
    loaded: Arc<Mutex<HashMap<String, Arc<Template>>>>,
    /// An include refused as every read outside the confinement is: the
    /// render's diagnostic.
    refused: Arc<Mutex<Option<Diagnostic>>>,
}

impl Includes {
    fn load(&self, name: &str) -> Result<Option<String>, minijinja::Error> {
        if name == self.main_name {
            return Ok(None);
        }
        let Some(pieces) = template_pieces(name) else {
            return Ok(None);
        };
        for base in [self.out_dir.as_str(), ""] {
            let mut rel = base.to_owned();
            for p in &pieces {
                if !rel.is_empty() {
                    rel.push('/');
                }
                rel.push_str(p);
            }
            let path = self.root.join(&rel);
            if !self.files.is_file(&path) {
                continue;
            }
            if let Some(problem) = outside(&path, self.confine.as_deref()) {
                *self
                    .refused
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(Diagnostic::new(
                    codes::READ_ERROR,
                    shown(&self.root_display, &rel),
                    problem.clone(),
                ));
                // Not "not found": `ignore missing` would skip it silently.
                return Err(minijinja::Error::new(
                    minijinja::ErrorKind::InvalidOperation,
                    format!("{rel}: {problem}"),
                ));
            }
            let bytes = self.files.read(&path).map_err(|e| {
                minijinja::Error::new(minijinja::ErrorKind::TemplateNotFound, e.to_string())
            })?;
            let text = String::from_utf8(bytes).map_err(|_| {
                minijinja::Error::new(
                    minijinja::ErrorKind::InvalidOperation,
                    format!("{rel} is not UTF-8 text"),
                )
            })?;
            let t = Arc::new(Template::new(shown(&self.root_display, &rel), &text));
            let out = t.rewritten.text.clone();
            self.loaded
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .insert(name.to_owned(), t);
            return Ok(Some(out));
        }
        Ok(None)
    }
}

/// Python's methods of strings, lists and dicts (minijinja-contrib's
/// `pycompat`), with `str.format` charged for the padding and precision
/// it is asked for before it makes them: pycompat charges fuel for the
/// string it returns once it exists, so `'{:>2000000000}'.format(1)`
/// would hold 2 GB first.
fn python_method(
    state: &mut minijinja::State<'_, '_>,
    value: &Value,
    method: &str,
    args: &[Value],
) -> Result<Value, minijinja::Error> {
    if method == "format" {
        if let Some(text) = value.as_str() {
            state.consume_fuel(format_widths(text) / 64)?;
        }
    }
    minijinja_contrib::pycompat::unknown_method_callback(state, value, method, args)
}

/// minijinja's `join`, charged first for the text it will make (at
/// least each string item's length, and two characters a member of any
/// other item): with an empty joiner minijinja makes the whole result
/// before charging for it, so `(['x' * 1000000] * 100000) | join` would
/// hold 100 GB first.
fn join(
    state: &mut minijinja::State<'_, '_>,
    value: &Value,
    joiner: Option<minijinja::value::StringInput<'_>>,
    attribute: Option<&str>,
    kwargs: minijinja::value::Kwargs,
) -> Result<Value, minijinja::Error> {
    let by = match attribute {
        Some(a) => Some(a),
        None => kwargs.peek::<Option<&str>>("attribute").ok().flatten(),
    };
    if let Ok(items) = value.try_iter() {
        let mut bytes = 0usize;
        for item in items {
            let item = match by {
                Some(a) => a
                    .split('.')
                    .try_fold(item, |v, key| v.get_attr(key).ok())
                    .unwrap_or_default(),
                None => item,
            };
            let size = match item.as_str() {
                Some(text) => text.len(),
                None => item.len().unwrap_or(1).saturating_mul(2),
            };
            bytes = bytes.saturating_add(size);
        }
        state.consume_fuel(u64::try_from(bytes / 64).unwrap_or(u64::MAX))?;
    }
    minijinja::filters::join(state, value, joiner, attribute, kwargs)
}

/// An upper bound of the characters `str.format`'s replacement fields
/// pad or extend to: the sum of every number in their format specs
/// (`{:>20}`, `{:08.3f}`: 20, 11).
fn format_widths(text: &str) -> u64 {
    let (mut total, mut number) = (0u64, 0u64);
    let (mut in_field, mut in_spec) = (false, false);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '{' if !in_field => {
                if chars.peek() == Some(&'{') {
                    chars.next();
                } else {
                    in_field = true;
                }
            }
            '}' if in_field => {
                total = total.saturating_add(number);
                (number, in_field, in_spec) = (0, false, false);
            }
            ':' if in_field && !in_spec => in_spec = true,
            '0'..='9' if in_spec => {
                number = number
                    .saturating_mul(10)
                    .saturating_add(u64::from(c.to_digit(10).unwrap_or(0)));
            }
            _ if in_spec => {
                total = total.saturating_add(number);
                number = 0;
            }
            _ => {}
        }
    }
    total
}

/// A render's output, refused as soon as it holds more than `max`
/// characters (Heat's `len(template) > max_template_size`).
struct Bounded {
    text: Vec<u8>,
    chars: usize,
    max: usize,
    over: bool,
}

impl std::io::Write for Bounded {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        // minijinja writes whole strings: a character is a byte that does
        // not continue one.
        self.chars += buf.iter().filter(|&&b| (b & 0xC0) != 0x80).count();
        if self.chars > self.max {
            self.over = true;
            return Err(std::io::Error::other("the rendered file is too large"));
        }
        self.text.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Ctx<'_> {
    /// One output, rendered as Jinja2's default `Environment` renders it,
    /// within the bounds: its text and the fuel it took.
    fn render(&self, job: &Job, main: &Arc<Template>) -> Result<(String, u64), Box<Diagnostic>> {
        let includes = Includes {
            root: self.root.to_path_buf(),
            root_display: self.root_display.to_owned(),
            out_dir: job
                .output
                .rsplit_once('/')
                .map_or("", |(d, _)| d)
                .to_owned(),
            main_name: main.shown.clone(),
            confine: self.bounds.confine.clone(),
            files: self.bounds.files.clone(),
            loaded: Arc::default(),
            refused: Arc::default(),
        };
        let loaded = includes.loaded.clone();
        let refused = includes.refused.clone();
        let main_name = main.shown.clone();
        let mut env = Environment::new();
        // minijinja tracks where an undefined value came from (the
        // "`x` is undefined" of E0020) only in debug mode, which is on by
        // default in debug builds alone: the release binary said less than
        // the tests saw. On in every build (it costs only on errors and on
        // undefined values).
        env.set_debug(true);
        env.set_auto_escape_callback(|_| AutoEscape::None);
        env.set_undefined_behavior(UndefinedBehavior::Lenient);
        env.set_unknown_method_callback(python_method);
        env.add_filter("join", join);
        env.add_function(rewrite::MUTABLE_FN, pyobj::mutable);
        env.set_fuel(Some(self.bounds.fuel));
        env.set_loader(move |name| includes.load(name));
        let mut out = Bounded {
            text: Vec::new(),
            chars: 0,
            max: self.bounds.max_chars,
            over: false,
        };
        let result = env
            .add_template_owned(main_name.clone(), main.rewritten.text.clone())
            .and_then(|()| {
                let captured = env
                    .get_template(&main_name)?
                    .render_captured_to(self.context(job), &mut out)?;
                Ok(captured.state().fuel_levels().map_or(0, |(used, _)| used))
            });
        match result {
            Ok(fuel) => Ok((
                String::from_utf8(out.text)
                    .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()),
                fuel,
            )),
            Err(err) => {
                let refused = refused
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .take();
                let loaded = loaded
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
                Err(Box::new(match refused {
                    Some(d) => Self::refused_include(d, &err, main, &loaded),
                    None => self.diagnostic(&err, job, main, &loaded, out.over),
                }))
            }
        }
    }

    /// An include outside the confinement: the read's own diagnostic, with
    /// the place of the include.
    fn refused_include(
        d: Diagnostic,
        err: &minijinja::Error,
        main: &Arc<Template>,
        loaded: &HashMap<String, Arc<Template>>,
    ) -> Diagnostic {
        let (failing, span) = Self::place(err, main, loaded);
        d.with_related(crate::diag::Related {
            file: failing.shown.clone(),
            span,
            message: "included here".into(),
        })
    }

    /// The template an error happened in and its place there.
    fn place(
        err: &minijinja::Error,
        main: &Arc<Template>,
        loaded: &HashMap<String, Arc<Template>>,
    ) -> (Arc<Template>, Option<Span>) {
        let failing = err
            .name()
            .and_then(|n| loaded.get(n))
            .cloned()
            .unwrap_or_else(|| main.clone());
        let span = match err.range() {
            Some(r) => Some(failing.position(r.start)),
            None => err
                .line()
                .map(|l| Span::point(u32::try_from(l).unwrap_or(u32::MAX), 1)),
        };
        (failing, span)
    }

    /// A render error as a diagnostic at its place in the source (or the
    /// include) it happened in.
    fn diagnostic(
        &self,
        err: &minijinja::Error,
        job: &Job,
        main: &Arc<Template>,
        loaded: &HashMap<String, Arc<Template>>,
        too_large: bool,
    ) -> Diagnostic {
        let (failing, span) = Self::place(err, main, loaded);
        let mut message = err.kind().to_string();
        if let Some(detail) = err.detail() {
            message = format!("{message}: {detail}");
        }
        if too_large {
            message = format!(
                "the rendered file grows past {} characters, Heat's limit for a template (max_template_size): rendering stopped there",
                self.bounds.max_chars
            );
        } else if err.kind() == minijinja::ErrorKind::OutOfFuel {
            message = format!(
                "the render does more work than heatcap allows for one file ({} fuel: one unit per Jinja instruction or per 64 bytes made; a file of a real TripleO tree takes under 50000): rendering stopped here",
                self.bounds.fuel
            );
        }
        let output = shown(self.root_display, &job.output);
        let mut d = render_error(
            &failing.shown,
            format!("{message} (rendering {output}; nothing was rendered for it)"),
        );
        if let Some(s) = span {
            d = d.at(s);
        }
        if failing.shown != main.shown {
            d = d.with_related(crate::diag::Related {
                file: main.shown.clone(),
                span: None,
                message: "included from this source".into(),
            });
        }
        d
    }

    fn context(&self, job: &Job) -> Value {
        let p = self.prepared;
        let mut ctx: IndexMap<Value, Value> = IndexMap::new();
        let networks = || p.networks.as_ref().map(|n| Py::List(n.clone()).to_value());
        match &job.data {
            Data::Plain => {
                ctx.insert(Value::from("roles"), Py::List(p.roles.clone()).to_value());
                if let Some(n) = networks() {
                    ctx.insert(Value::from("networks"), n);
                }
            }
            Data::Role { role, map } => {
                let r = &p.roles[*role];
                let value = if *map {
                    r.to_value()
                } else {
                    Value::from(r.get("name").map(Py::python_str).unwrap_or_default())
                };
                ctx.insert(Value::from("role"), value);
                if self.rules.role_networks {
                    if let Some(n) = networks() {
                        ctx.insert(Value::from("networks"), n);
                    }
                }
                // Only where the role is given by name: the script sets
                // it in that branch alone.
                if self.rules.disable_constraints
                    && !*map
                    && r.get("disable_constraints").is_some_and(Py::truthy)
                {
                    ctx.insert(Value::from("disable_constraints"), Value::from(true));
                }
            }
            Data::Network(i) => {
                if let Some(n) = &p.networks {
                    ctx.insert(Value::from("network"), n[*i].to_value());
                }
            }
        }
        Value::from(ctx)
    }
}

#[cfg(test)]
mod tests;
