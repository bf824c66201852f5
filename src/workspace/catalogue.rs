//! The file-system side of TripleO plans and catalogues: reading a plan
//! environment ([`open_plan`]), checking its environments against the
//! capabilities map beside it ([`plan_requirements`]), and `catalogue`
//! ([`catalogue`]): the map read against the tree it describes.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::diag::{Diagnostic, Span};
use crate::load::plan::Plan;
use crate::load::{self, FileKind, LoadOptions, Status};
use crate::model::catalogue::Catalogue;
use crate::node::{Node, Value};
use crate::product::catalogue::{report, requirement_order, CatalogueReport, Enabled, FileState};
use crate::walk::{self, display, Source, WalkOptions};

/// The name TripleO gives the map, at the tree's root.
pub(crate) const CAPABILITIES_MAP: &str = "capabilities-map.yaml";

/// A plan environment read from `path`: its template, its environment
/// list in tripleo-common's order (files and parts of the plan, every one
/// a path the workspace loads) and its problems. A plan that cannot be
/// read or parsed lists nothing and says why.
pub(crate) fn open_plan(path: &Path, opts: &LoadOptions) -> Plan {
    let (shown, root, mut diagnostics) = read_tree(path, opts);
    let mut plan = Plan::from_node(&shown, &root);
    if root.value == Value::Null && !diagnostics.is_empty() {
        // Its reading or parsing problems say it all.
        plan.diagnostics = diagnostics;
    } else {
        diagnostics.append(&mut plan.diagnostics);
        plan.diagnostics = diagnostics;
    }
    plan
}

/// The plan's own `parameter_defaults` as written (`null` when absent or
/// unreadable): `heat_resource_tree`'s `environment_parameters` for a
/// composition from this plan, as tripleo-common answered them.
pub(crate) fn plan_parameter_defaults(path: &Path, opts: &LoadOptions) -> serde_json::Value {
    open_plan(path, opts).own_parameter_defaults
}

/// The plan environments below `tree` (walked recursively, in path
/// order): every file with a plan's shape ([`is_plan`]), read as `--plan`
/// reads it, its findings with those of [`plan_requirements`]. A UI lists
/// them beside the root templates.
///
/// [`is_plan`]: crate::load::plan::is_plan
pub(crate) fn plans_in(tree: &Path, opts: &LoadOptions) -> Vec<Plan> {
    let walked = walk::walk(
        &WalkOptions::new(vec![tree.to_path_buf()]).recursive(),
        &opts.overlay,
    );
    let found: Vec<Option<Plan>> = load::load_all(&walked.sources, opts, |l| {
        let root = l.root.as_ref().filter(|r| crate::load::plan::is_plan(r))?;
        let shown = crate::walk::normalize(Path::new(&l.source.display));
        let mut plan = Plan::from_node(&shown, root);
        let mut diagnostics = l.diagnostics;
        diagnostics.append(&mut plan.diagnostics);
        plan.diagnostics = diagnostics;
        Some(plan)
    });
    let mut plans: Vec<Plan> = found.into_iter().flatten().collect();
    for plan in &mut plans {
        let more = plan_requirements(plan, opts);
        plan.diagnostics.extend(more);
    }
    plans.sort_by(|a, b| a.path.cmp(&b.path));
    plans
}

/// The plan's file environments checked against the capabilities map in
/// the plan's directory, when there is one: an environment enabled
/// without one it requires (E9003), a cycle (E9004), and an environment
/// listed before one it requires (W9007).
pub(crate) fn plan_requirements(plan: &Plan, opts: &LoadOptions) -> Vec<Diagnostic> {
    let dir = Path::new(&plan.path).parent().unwrap_or(Path::new(""));
    let map = dir.join(CAPABILITIES_MAP);
    if !map.is_file() {
        return Vec::new();
    }
    let cat = read_catalogue(&map, opts);
    let enabled = plan_enabled(plan, &cat);
    requirement_order(&cat, &enabled).1
}

/// The plan's file environments as enabled catalogue entries.
fn plan_enabled(plan: &Plan, cat: &Catalogue) -> Vec<Enabled> {
    plan.environments
        .iter()
        .filter(|e| e.written.is_some())
        .map(|e| Enabled {
            shown: e.path.clone(),
            name: cat.relative(&e.path),
            at: Some((plan.path.clone(), e.span)),
        })
        .collect()
}

/// Reads a capabilities map (its problems in the catalogue's diagnostics):
/// for `options`, which asks it whether two environments exclude each
/// other (`Catalogue::mutually_exclusive_paths`).
pub(crate) fn read_catalogue(path: &Path, opts: &LoadOptions) -> Catalogue {
    let (shown, root, mut diagnostics) = read_tree(path, opts);
    let mut c = Catalogue::from_node(&shown, &root);
    if root.value == Value::Null && !diagnostics.is_empty() {
        // Its reading or parsing problems say it all.
        c.diagnostics = diagnostics;
    } else {
        diagnostics.append(&mut c.diagnostics);
        c.diagnostics = diagnostics;
    }
    c
}

/// A file's path as shown, its document (null when it cannot be read or
/// parsed) and its reading and parsing problems.
fn read_tree(path: &Path, opts: &LoadOptions) -> (String, Node, Vec<Diagnostic>) {
    let shown = crate::walk::normalize(path);
    let loaded = load::load_one(&Source::new(path.to_path_buf(), shown.clone(), true), opts);
    let root = loaded
        .root
        .unwrap_or_else(|| Node::new(Value::Null, Span::point(1, 1)));
    (shown, root, loaded.diagnostics)
}

/// `catalogue`: the capabilities map of `tree` (a directory holding
/// `capabilities-map.yaml`, or the map itself) against the tree: each
/// entry's file state, the tree's environments the map leaves out, and
/// the environments a plan and `environments` enable, checked and ordered.
pub(crate) fn catalogue(
    tree: &Path,
    plan: Option<&Plan>,
    environments: &[PathBuf],
    opts: &LoadOptions,
) -> CatalogueReport {
    let map = if tree.is_dir() {
        tree.join(CAPABILITIES_MAP)
    } else {
        tree.to_path_buf()
    };
    let cat = read_catalogue(&map, opts);
    let dir = cat.dir();
    let root = if dir.as_os_str().is_empty() {
        PathBuf::from(".")
    } else {
        dir.clone()
    };
    // A raw TripleO tree is read as every command reads it: rendered in
    // memory (a tree rendered on disk, from its files there), so a file
    // is source-only only where no rendered file exists.
    let mut rendered = opts.clone();
    let render_diagnostics = if opts.renders() {
        super::rendered::mount_trees([root.as_path()], &mut rendered)
    } else {
        Vec::new()
    };
    let opts = &rendered;
    // The tree's environments, by name relative to the map.
    let walked = walk::walk(
        &WalkOptions::new(vec![root.clone()]).recursive(),
        &opts.overlay,
    );
    // (A plan environment is not an environment: the loader says so.)
    let kinds: Vec<(String, Option<FileKind>)> = load::load_all(&walked.sources, opts, |l| {
        (
            l.source.path.to_string_lossy().into_owned(),
            l.kind.filter(|_| l.status == Status::Ok),
        )
    });
    let mut known: HashMap<String, Option<FileKind>> = HashMap::new();
    let mut tree_environments = Vec::new();
    for (path, kind) in kinds {
        let Some(name) = cat.relative(&path) else {
            continue;
        };
        if kind == Some(FileKind::Environment) {
            tree_environments.push(name.clone());
        }
        known.insert(name, kind);
    }
    tree_environments.sort();
    // What the tree holds under every name the map uses.
    let sourced = Sourced::of(&root, opts);
    let mut states: HashMap<String, FileState> = HashMap::new();
    for (_, _, e) in cat.environments() {
        for name in std::iter::once(&e.file).chain(e.requires.iter().map(|(r, _)| r)) {
            if !states.contains_key(name) {
                let s = file_state(&root, name, &known, &sourced, opts);
                states.insert(name.clone(), s);
            }
        }
    }
    let state = |name: &str| states.get(name).cloned().unwrap_or(FileState::Missing);
    let mut enabled = plan.map(|p| plan_enabled(p, &cat)).unwrap_or_default();
    enabled.extend(environments.iter().map(|e| {
        let shown = display(e);
        Enabled {
            name: cat.relative(&shown),
            shown,
            at: None,
        }
    }));
    let mut r = report(&cat, &state, &tree_environments, &enabled);
    let mut diagnostics = render_diagnostics;
    diagnostics.extend(walked.diagnostics);
    if let Some(p) = plan {
        diagnostics.extend(p.diagnostics.iter().cloned());
    }
    diagnostics.append(&mut r.diagnostics);
    r.diagnostics = crate::diag::dedup(diagnostics);
    r
}

/// The Jinja sources of a tree and the outputs its script writes.
struct Sourced {
    /// Output → source (paths below the tree), as the script names them
    /// with the tree's data; `None` when the data cannot be read.
    outputs: Option<HashMap<String, String>>,
    /// Every `*.j2.yaml` source below the tree.
    sources: Vec<String>,
    rules: crate::render::ScriptRules,
}

impl Sourced {
    fn of(root: &Path, opts: &LoadOptions) -> Sourced {
        let confine = opts.confine.as_deref();
        let rules = crate::render::rules_of(root, confine, &opts.overlay);
        let sources: Vec<String> =
            crate::render::tree_files(root, rules.skip_hidden, &opts.overlay)
                .into_iter()
                .filter(|f| f.ends_with(".j2.yaml"))
                .collect();
        let outputs = if sources.is_empty() {
            Some(HashMap::new())
        } else {
            crate::render::output_names(root, &opts.render, confine, &opts.overlay)
                .map(|o| o.into_iter().collect())
        };
        Sourced {
            outputs,
            sources,
            rules,
        }
    }

    /// The source the script renders `name` from: the output of that
    /// name when the tree's data can be read (a role or network it does
    /// not have, or an excluded output, has none), else a source whose
    /// naming rule could give that name.
    fn source_of(&self, name: &str) -> Option<String> {
        let name = name.strip_prefix("./").unwrap_or(name);
        match &self.outputs {
            Some(outputs) => outputs.get(name).cloned(),
            None => crate::render::sources_named(name, &self.sources, &self.rules)
                .first()
                .map(|s| (*s).to_owned()),
        }
    }
}

/// What `root` holds under `name` (on disk or rendered by heatcap, as
/// `opts`' overlay holds it): the walk's reading when it walked the
/// file, else the file read now; else the Jinja source
/// tools/process-templates.py renders it from (`x.j2.yaml` for `x.yaml`,
/// a role template for `ROLE-x.yaml` or a NIC config, a network template
/// for a network's or port's file) when heatcap could not render it,
/// else nothing.
fn file_state(
    root: &Path,
    name: &str,
    known: &HashMap<String, Option<FileKind>>,
    sourced: &Sourced,
    opts: &LoadOptions,
) -> FileState {
    let path = root.join(name);
    if opts.overlay.is_file(&path) {
        let kind = match known.get(name) {
            Some(k) => *k,
            None => load::load_one(&Source::new(path.clone(), display(&path), false), opts).kind,
        };
        return match kind {
            Some(FileKind::Environment) => FileState::Environment,
            Some(k) => FileState::NotEnvironment(k.as_str().to_owned()),
            None => FileState::NotEnvironment("it cannot be read".to_owned()),
        };
    }
    match sourced.source_of(name) {
        Some(source) => FileState::SourceOnly(source),
        None => FileState::Missing,
    }
}
