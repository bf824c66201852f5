//! Stage 6: the [`Workspace`], where every caller starts (the CLI, a test,
//! a server, another program). It opens a set of roots and environments
//! once (the loaded files, the merged environment with its diagnostics, the
//! file-system catalog of templates) and answers each question the
//! commands ask: what exists ([`Workspace::find`], [`Workspace::summary`],
//! [`Workspace::index`]), what the environments pick
//! ([`Workspace::resolve`]), the choices a UI offers
//! ([`Workspace::options`]), the parameters of the chosen composition
//! ([`Workspace::parameters`]), what stock Heat accepts
//! ([`Workspace::export`]) and what Heat refuses ([`validate`]).

pub(crate) mod catalog;
pub(crate) mod catalogue;
mod compose_check;
pub(crate) mod editor;
mod env_values;
mod export;
mod heat_request;
mod inferred;
mod interface;
mod packages;
mod references;
mod rendered;
mod suppress;
mod validate;

use std::path::{Path, PathBuf};

use indexmap::IndexMap;

pub(crate) use catalog::FsCatalog;
pub(crate) use catalogue::{
    catalogue, open_plan, plan_parameter_defaults, plan_requirements, plans_in,
};
pub(crate) use export::heat_api_schema;
pub use export::{Export, ExportFile};
pub(crate) use heat_request::{
    error_class, heat_resource_tree, validate_request, HeatRequest, BODY_TEMPLATE,
};
pub use rendered::RenderPlan;
pub use validate::{validate, ValidateOptions, Validated};

use crate::diag::{codes, Diagnostic, Severity};
use std::collections::HashMap;

use crate::index::{Index, Inferred};
use crate::load::{self, LoadOptions, Status};
use crate::model::{Corpus, Environment, FileRecord, Template};
use crate::product::options::{Annotated, OptionsReport};
use crate::product::parameters::{ChoiceDiff, ParametersReport};
use crate::product::preview::{Preview, PreviewStack};
use crate::query::{self, Condition, IndexDocument, Match, TypeImplementation};
use crate::resolve::compose::{compose, compose_preview, Composition};
use crate::resolve::merge::{merge, Merged};
use crate::resolve::registry::Registry;
use crate::resolve::{Catalog, Resolution, ResolveReport};
use crate::walk::{self, display, Source, WalkOptions, Walked};

/// What to open.
#[derive(Debug, Clone, Default)]
pub struct WorkspaceBuilder {
    load: LoadOptions,
    walk: Option<WalkOptions>,
    prefilter: Option<&'static str>,
    infer: bool,
    environments: Vec<PathBuf>,
    registry_templates: bool,
    roots: Vec<String>,
    choices: IndexMap<String, String>,
    max_depth: Option<usize>,
    remap: Option<walk::Remap>,
}

impl WorkspaceBuilder {
    /// Heat's `max_nested_stack_depth` (5 unless set; TripleO's undercloud
    /// set 7).
    #[must_use]
    pub fn max_nested_depth(mut self, depth: usize) -> Self {
        self.max_depth = Some(depth);
        self
    }

    /// How files are read (size limit, parser limits).
    #[must_use]
    pub fn load_options(mut self, load: LoadOptions) -> Self {
        self.load = load;
        self
    }

    /// Read paths through `files` (a tree at a git revision,
    /// [`crate::git::tree_at`]) instead of the disk where it holds them.
    #[must_use]
    pub fn files(mut self, files: crate::vfs::FileOverlay) -> Self {
        self.load.overlay = files;
        self
    }

    /// The data TripleO trees are rendered with (`--roles-data`,
    /// `--network-data`).
    #[must_use]
    pub fn render_options(mut self, render: crate::load::RenderOptions) -> Self {
        self.load.render = render;
        self
    }

    /// Walk these roots into the workspace's corpus (for [`Workspace::find`],
    /// [`Workspace::summary`], [`Workspace::index`]).
    #[must_use]
    pub fn walk(mut self, walk: WalkOptions) -> Self {
        self.walk = Some(walk);
        self
    }

    /// Parse only walked files whose bytes contain this word (the others
    /// cannot have what is asked).
    #[must_use]
    pub fn prefilter(mut self, word: &'static str) -> Self {
        self.prefilter = Some(word);
        self
    }

    /// Count as a candidate implementation of a type every walked template
    /// that an environment (walked, or given) maps the type to, as if it
    /// declared it in `capabilities.resource_type` (issue 17: the choices
    /// a tree already offers). [`Workspace::find`], [`Workspace::by_type`]
    /// and [`Workspace::index`] then include them, saying where each came
    /// from. Without it, only declarations count (capabilities.md's strict
    /// answer).
    #[must_use]
    pub fn infer_candidates(mut self) -> Self {
        self.infer = true;
        self
    }

    /// The commands' rule (`--declared-only` turns it off): candidates
    /// are inferred ([`WorkspaceBuilder::infer_candidates`]) unless
    /// `declared_only`. Every adapter (the CLI, `serve`) asks through this.
    #[must_use]
    pub fn declared_only(self, declared_only: bool) -> Self {
        if declared_only {
            self
        } else {
            self.infer_candidates()
        }
    }

    /// The rule for a capabilities query ([`Workspace::find`]): inference
    /// adds only `resource_type`, so candidates are inferred only when a
    /// condition is on that key (without one it cannot change the answer,
    /// and the environments need not be read), and never when
    /// `declared_only`.
    #[must_use]
    pub fn declared_only_for(self, declared_only: bool, conditions: &[Condition]) -> Self {
        self.declared_only(declared_only || !conditions.iter().any(|c| c.key == "resource_type"))
    }

    /// Read paths under one prefix from another (`--templates-root`):
    /// registry targets, template paths and `get_file` targets. Paths
    /// given to the builder are used as given.
    #[must_use]
    pub fn remap(mut self, remap: walk::Remap) -> Self {
        self.remap = Some(remap);
        self
    }

    /// Environment files, merged in the order given, as Heat merges them.
    #[must_use]
    pub fn environments(mut self, paths: &[PathBuf]) -> Self {
        self.environments = paths.to_vec();
        self
    }

    /// Add to the corpus every template the environments' registries name
    /// (the given ones, and any walked file that is an environment).
    #[must_use]
    pub fn registry_templates(mut self) -> Self {
        self.registry_templates = true;
        self
    }

    /// Root templates of compositions (paths as the user gave them): they,
    /// and every template they and the registry reach, are loaded.
    #[must_use]
    pub fn roots<S: AsRef<str>>(mut self, roots: &[S]) -> Self {
        self.roots = roots.iter().map(|r| r.as_ref().to_owned()).collect();
        self
    }

    /// A UI's selections (`TYPE` → template path): they win over the
    /// environments, as an entry written into the user registry would.
    #[must_use]
    pub fn choices(mut self, choices: IndexMap<String, String>) -> Self {
        self.choices = choices;
        self
    }

    /// Reads and merges everything.
    pub fn open(mut self) -> Workspace {
        if let Some(remap) = self.remap.take() {
            self.load.remap = remap;
        }
        let render_diagnostics = if self.load.renders() {
            rendered::mount_trees(
                self.environments
                    .iter()
                    .map(PathBuf::as_path)
                    .chain(self.roots.iter().map(Path::new))
                    .chain(self.choices.values().map(Path::new))
                    .chain(
                        self.walk
                            .iter()
                            .flat_map(|w| w.roots.iter().map(PathBuf::as_path)),
                    ),
                &mut self.load,
            )
        } else {
            Vec::new()
        };
        let env_files = load_environments(&self.environments, &self.load);
        let environments: Vec<Environment> = env_files
            .iter()
            .filter_map(|f| f.environment().cloned())
            .collect();
        let merged = merge(&environments);
        let (mut corpus, mut walked) = match &self.walk {
            Some(w) => {
                let mut opts = self.load.clone();
                opts.prefilter = self.prefilter.into_iter().collect();
                if self.infer && !opts.prefilter.is_empty() {
                    // The environments that map types to templates.
                    opts.prefilter.push("resource_registry");
                }
                load_corpus(w, &opts)
            }
            None => (Corpus::default(), Walked::default()),
        };
        let render_diagnostics = if self.walk.is_some() {
            corpus.walk_diagnostics.splice(0..0, render_diagnostics);
            Vec::new()
        } else {
            render_diagnostics
        };
        // With inference, TripleO's install prefix is read in the walked tree.
        let root = self
            .walk
            .iter()
            .flat_map(|w| &w.roots)
            .find(|r| self.load.overlay.is_dir(r))
            .map(PathBuf::as_path);
        let named_remap = if self.infer {
            inferred::remap_for(&self.load.remap, root)
        } else {
            self.load.remap.clone()
        };
        if self.registry_templates {
            add_registry_templates(
                &mut corpus,
                &mut walked,
                &env_files,
                &self.load,
                &named_remap,
            );
        }
        let inferred = if self.infer {
            infer(&mut corpus, &walked, &env_files, &self.load, &named_remap)
        } else {
            HashMap::new()
        };
        let mut roots: Vec<&str> = self.roots.iter().map(String::as_str).collect();
        roots.extend(self.choices.values().map(String::as_str));
        let catalog = FsCatalog::preload(&roots, &environments, &merged, &self.load);
        // The parameter names of every template the client uploads decide
        // which names of later environments Heat's merge keeps.
        let mut merged = merged;
        let schemata: std::collections::HashSet<String> = catalog
            .records()
            .filter_map(FileRecord::template)
            .flat_map(|t| t.parameters.iter().map(|p| p.name.clone()))
            .collect();
        merged.apply_parameter_schemata(&environments, &schemata);
        // The walk's listing (a path and a name per file, the inode map) is
        // freed on a worker: the main thread has the answer to write.
        rayon::spawn(move || drop(walked));
        Workspace {
            load: self.load,
            corpus,
            inferred,
            infer: self.infer,
            env_files,
            environments,
            merged,
            catalog,
            choices: self.choices,
            render_diagnostics,
            max_depth: self
                .max_depth
                .unwrap_or(crate::resolve::compose::MAX_NESTED_DEPTH),
        }
    }
}

/// Loaded files, merged environments and the catalog of templates: what
/// every question starts from.
///
/// ```
/// use heatcap::Workspace;
/// let ws = Workspace::builder()
///     .environments(&["fixtures/spec/environment.yaml".into()])
///     .open();
/// let report = ws.resolve(None, None, None);
/// let picked: Vec<String> = report.resolutions.iter().map(|r| r.type_name.clone()).collect();
/// assert_eq!(picked, ["OS::TripleO::Controller"]);
/// ```
pub struct Workspace {
    load: LoadOptions,
    corpus: Corpus,
    /// Per corpus file: the types it implements by inference.
    inferred: HashMap<usize, Inferred>,
    /// [`WorkspaceBuilder::infer_candidates`] was asked for.
    infer: bool,
    env_files: Vec<FileRecord>,
    environments: Vec<Environment>,
    merged: Merged,
    catalog: FsCatalog,
    choices: IndexMap<String, String>,
    /// What rendering the TripleO trees given found, when nothing is
    /// walked (a walk reports it with its own diagnostics).
    render_diagnostics: Vec<Diagnostic>,
    max_depth: usize,
}

impl Workspace {
    /// Starts describing what to open.
    pub fn builder() -> WorkspaceBuilder {
        WorkspaceBuilder::default()
    }

    /// `render`: the TripleO tree at `tree` rendered as its
    /// `tools/process-templates.py -o DIR` writes it, ready to write.
    pub fn render(tree: &Path, opts: &crate::load::RenderOptions) -> RenderPlan {
        rendered::plan(tree, opts, &crate::vfs::FileOverlay::default())
    }

    /// [`Workspace::render`] of a tree read through `files` (a tree at a
    /// git revision, [`crate::git::tree_at`]).
    pub fn render_in(
        tree: &Path,
        opts: &crate::load::RenderOptions,
        files: &crate::vfs::FileOverlay,
    ) -> RenderPlan {
        rendered::plan(tree, opts, files)
    }

    /// The walked files.
    pub fn corpus(&self) -> &Corpus {
        &self.corpus
    }

    /// The environments that loaded, in the order given.
    pub fn environments(&self) -> &[Environment] {
        &self.environments
    }

    /// The environment files as given (the ones that are not environments
    /// included), in order.
    pub fn environment_files(&self) -> &[FileRecord] {
        &self.env_files
    }

    /// The merged environment.
    pub fn merged(&self) -> &Merged {
        &self.merged
    }

    /// Heat's `max_nested_stack_depth` the compositions are walked with.
    pub fn max_nested_depth(&self) -> usize {
        self.max_depth
    }

    /// The catalog of templates the roots and the registry reach.
    pub fn catalog(&self) -> &FsCatalog {
        &self.catalog
    }

    /// The root stack's registry (with the UI's choices applied).
    pub fn registry(&self) -> Registry<'_> {
        Registry::new(&self.environments, &self.merged, &self.catalog)
            .with_choices(self.choices.clone())
    }

    /// The environment files' own diagnostics, a warning for each file given
    /// as an environment that is not one, and the merge's.
    pub fn environment_diagnostics(&self) -> Vec<Diagnostic> {
        let mut out = self.environment_file_diagnostics();
        out.extend(self.merged.diagnostics.iter().cloned());
        out
    }

    /// The environment files' own diagnostics (reading and parsing), and a
    /// warning for each file given as an environment that is not one.
    pub fn environment_file_diagnostics(&self) -> Vec<Diagnostic> {
        let mut out = self.render_diagnostics.clone();
        out.extend(file_diagnostics(&self.env_files));
        out
    }

    /// The diagnostics of the templates the catalog loaded, by path. A
    /// missing file is left out: it is reported where it is named (E7001).
    pub fn catalog_diagnostics(&self) -> Vec<Diagnostic> {
        let mut loaded: Vec<&FileRecord> = self.catalog.records().collect();
        loaded.sort_by(|x, y| x.path.cmp(&y.path));
        let mut out = Vec::new();
        for f in loaded {
            let missing = |d: &&Diagnostic| {
                matches!(d.code, codes::READ_ERROR | codes::NOT_FOUND)
                    && !self.catalog.exists(&crate::walk::path_of(&f.path))
            };
            out.extend(f.diagnostics.iter().filter(|d| !missing(d)).cloned());
        }
        out
    }

    /// The capabilities index of the corpus.
    pub fn capability_index(&self) -> Index<'_> {
        Index::build(&self.corpus, &self.inferred)
    }

    /// `capabilities-find`: the templates whose capabilities meet every
    /// condition, in walk order.
    pub fn find(&self, conditions: &[Condition]) -> Vec<Match<'_>> {
        query::find(&self.capability_index(), conditions)
    }

    /// `template-capabilities`: every capability value offered.
    pub fn summary(&self) -> IndexMap<String, Vec<serde_json::Value>> {
        query::summary(&self.capability_index())
    }

    /// `template-capabilities --by-type`: each type and the templates whose
    /// `resource_type` names it (or that implement it by inference, with
    /// [`WorkspaceBuilder::infer_candidates`]).
    pub fn by_type(&self) -> IndexMap<String, Vec<TypeImplementation>> {
        query::by_type(&self.capability_index())
    }

    /// `index`: every walked file.
    pub fn index(&self) -> IndexDocument<'_> {
        query::index_document(&self.corpus, &self.inferred)
    }

    /// The composition of `root` (as the user gave its path).
    pub fn compose(&self, root: &str) -> Composition {
        compose(root, &self.registry(), &self.catalog, self.max_depth)
    }

    /// `resolve`: with `type_name`, one lookup (for `resource`, where
    /// per-resource entries apply); else with `root`, every lookup its
    /// composition makes; else every registry entry.
    pub fn resolve(
        &self,
        root: Option<&str>,
        type_name: Option<&str>,
        resource: Option<&str>,
    ) -> ResolveReport {
        let mut diagnostics = self.environment_diagnostics();
        if self.environment_broken() {
            return ResolveReport {
                environments: self.environment_paths(),
                requires: self.requires(),
                template: root.map(str::to_owned),
                tree: None,
                resolutions: Vec::new(),
                resolved: false,
                diagnostics: finish(diagnostics, &self.load.overlay),
            };
        }
        let loaded = self.catalog_diagnostics();
        // A root that loaded with errors is reported by them, at their place.
        let reported = |r: &str| {
            loaded
                .iter()
                .any(|d| d.file == r && d.severity == Severity::Error)
        };
        diagnostics.extend(self.root_problem(root.filter(|r| !reported(r))));
        diagnostics.extend(loaded);
        let registry = self.registry();
        diagnostics.extend(registry.missing_targets());
        let (resolutions, tree) = if let Some(t) = type_name {
            (vec![registry.lookup(t, resource, root)], None)
        } else if let Some(r) = root {
            let c = compose(r, &registry, &self.catalog, self.max_depth);
            diagnostics.extend(c.diagnostics);
            (c.resolutions, Some(c.root))
        } else {
            (registry.lookup_all(), None)
        };
        if tree.is_none() {
            // The composition walk reports its own, at the resource that failed.
            let fallback = self.last_environment();
            diagnostics.extend(resolutions.iter().filter_map(|r| r.diagnostic(fallback)));
        }
        let resolved = resolutions.iter().all(Resolution::is_resolved);
        ResolveReport {
            environments: self.environment_paths(),
            requires: self.requires(),
            template: root.map(str::to_owned),
            tree,
            resolutions,
            resolved,
            diagnostics: finish(diagnostics, &self.load.overlay),
        }
    }

    /// `options`: every choice a UI must offer. `directories` are walked
    /// (recursively) for templates that offer implementations through their
    /// `resource_type` annotation.
    pub fn options(&self, directories: &[PathBuf]) -> OptionsReport {
        let mut diagnostics = self.environment_diagnostics();
        let walk_opts = WalkOptions::new(directories.to_vec()).recursive();
        let walked = walk::walk(&walk_opts, &self.load.overlay);
        diagnostics.extend(walked.diagnostics.iter().cloned());
        let dir_files = load::load_all(&walked.sources, &self.load, |l| {
            FileRecord::from_loaded(l, false)
        });
        let mut annotated = Annotated::new();
        for f in &dir_files {
            diagnostics.extend(
                f.diagnostics
                    .iter()
                    .filter(|d| d.severity == Severity::Error)
                    .cloned(),
            );
            if let Some(t) = f.template() {
                for ty in &t.resource_type {
                    annotated
                        .entry(ty.clone())
                        .or_default()
                        .push((f.path.clone(), t));
                }
            }
        }
        let offers = if self.infer {
            let remap = inferred::remap_for(
                &self.load.remap,
                directories
                    .iter()
                    .find(|d| self.load.overlay.is_dir(d))
                    .map(PathBuf::as_path),
            );
            inferred::offers(&self.env_files, &walked, &dir_files, &self.catalog, &remap)
        } else {
            crate::product::options::Offers::new()
        };
        let choices = crate::product::options::options(
            &self.environments,
            &self.merged,
            &self.catalog,
            &annotated,
            &offers,
        );
        let mut report = OptionsReport {
            environments: self.environment_paths(),
            requires: self.requires(),
            choices,
            diagnostics: finish(diagnostics, &self.load.overlay),
        };
        // The tree's environment catalogue (TripleO's capabilities map, in
        // the first directory walked) says which conflicts it declares
        // mutually exclusive; a pair it does not list both of is unknown.
        if let Some(map) = directories
            .iter()
            .map(|d| d.join(catalogue::CAPABILITIES_MAP))
            .find(|m| self.load.overlay.is_file(m))
        {
            let cat = catalogue::read_catalogue(&map, &self.load);
            let known = |p: &str| cat.relative(p).is_some_and(|r| cat.entry(&r).is_some());
            report.set_mutually_exclusive(|a, b| {
                (known(a) && known(b)).then(|| cat.mutually_exclusive_paths(a, b))
            });
        }
        report
    }

    /// `parameters`: every parameter of the composition of `root` (with
    /// the workspace's choices), and Heat's validate document of it.
    pub fn parameters(&self, root: &str) -> (ParametersReport, serde_json::Value) {
        let (report, heat, _) = self.described(root, true);
        (report, heat.unwrap_or_default())
    }

    /// [`Self::parameters`], Heat's document only when `heat`, and the
    /// composition's tree (`None` when an environment is refused).
    fn described(
        &self,
        root: &str,
        heat: bool,
    ) -> (
        ParametersReport,
        Option<serde_json::Value>,
        Option<crate::resolve::compose::TreeNode>,
    ) {
        let mut diagnostics = self.environment_diagnostics();
        if !self.environment_broken() {
            diagnostics.extend(self.root_problem(Some(root)));
        }
        let registry = self.registry();
        diagnostics.extend(registry.missing_targets());
        if self.environment_broken() {
            let (report, heat) = self.parameters_refused(root, diagnostics);
            return (report, Some(heat), None);
        }
        let composition = compose(root, &registry, &self.catalog, self.max_depth);
        // Unset provider parameters (W7008) are what this report lists as
        // required; repeating them as warnings would only be noise.
        diagnostics.extend(
            composition
                .diagnostics
                .iter()
                .filter(|d| d.code != codes::PROPERTY_UNSET)
                .cloned(),
        );
        let (tree, parameters) = crate::product::parameters::collect(
            &composition.root,
            &self.merged,
            &self.environment_paths(),
            &self.catalog,
        );
        let heat = heat.then(|| match &composition.heat_error {
            Some(message) => serde_json::json!({ "Error": message }),
            None => crate::product::heat_validate::document(
                &composition.root,
                &self.environments,
                &self.merged,
                &registry,
                &self.catalog,
            ),
        });
        let required = parameters
            .iter()
            .filter(|(_, p)| !p.required_in.is_empty())
            .map(|(n, _)| n.clone())
            .collect();
        let unevaluated = composition
            .unevaluated
            .iter()
            .map(|(at, u)| crate::product::parameters::UnevaluatedValue {
                at: at.clone(),
                function: u.function.clone(),
                reason: u.reason.clone(),
            })
            .collect();
        let report = ParametersReport {
            template: root.to_owned(),
            environments: self.environment_paths(),
            choices: self.choices.clone(),
            tree,
            parameters,
            required,
            diagnostics: finish(diagnostics, &self.load.overlay),
            unevaluated,
        };
        (report, heat, Some(composition.root))
    }

    /// `parameters --diff`: what switching `type_name` from template `from`
    /// to template `to` changes in the parameters of the composition of
    /// `root`, with the diagnostics of both sides (sorted, once each). The
    /// builder gives the environments and any other choices.
    pub fn choice_diff(
        base: &WorkspaceBuilder,
        root: &str,
        type_name: &str,
        from: &str,
        to: &str,
    ) -> (ChoiceDiff, Vec<Diagnostic>) {
        let mut sides = Vec::new();
        let mut diagnostics = Vec::new();
        for path in [from, to] {
            let mut b = base.clone();
            b.choices.insert(type_name.to_owned(), path.to_owned());
            b.roots = vec![root.to_owned()];
            let (described, _) = b.open().parameters(root);
            diagnostics.extend(described.diagnostics);
            sides.push(described.parameters);
        }
        diagnostics.sort_by(|x, y| (&x.file, x.span).cmp(&(&y.file, y.span)));
        diagnostics.dedup();
        let d = crate::product::parameters::diff(type_name, from, to, &sides[0], &sides[1]);
        (d, diagnostics)
    }

    /// The answer of `parameters` when an environment is broken: its
    /// problems, no stacks, and Heat's error shape.
    fn parameters_refused(
        &self,
        root: &str,
        diagnostics: Vec<Diagnostic>,
    ) -> (ParametersReport, serde_json::Value) {
        let first = diagnostics
            .iter()
            .find(|d| d.severity == Severity::Error)
            .map(ToString::to_string)
            .unwrap_or_default();
        let report = ParametersReport {
            template: root.to_owned(),
            environments: self.environment_paths(),
            choices: self.choices.clone(),
            tree: crate::product::parameters::StackNode::root(root),
            parameters: IndexMap::new(),
            required: Vec::new(),
            diagnostics: finish(diagnostics, &self.load.overlay),
            unevaluated: Vec::new(),
        };
        (report, serde_json::json!({ "Error": first }))
    }

    /// `preview`: Heat's create preview of the composition of `root`, the
    /// root stack named `stack_name` (see `product::preview`).
    pub fn preview(&self, root: &str, stack_name: &str) -> Preview {
        let mut diagnostics = self.environment_diagnostics();
        if !self.environment_broken() {
            diagnostics.extend(self.root_problem(Some(root)));
        }
        let registry = self.registry();
        diagnostics.extend(registry.missing_targets());
        let mut preview = Preview {
            template: root.to_owned(),
            environments: self.environment_paths(),
            choices: self.choices.clone(),
            description: String::new(),
            parameters: IndexMap::new(),
            outputs: Vec::new(),
            stack: PreviewStack {
                name: stack_name.to_owned(),
                parent_resource: None,
                template: Some(root.to_owned()),
                resources: Vec::new(),
                outputs: Vec::new(),
            },
            heat_error: None,
            diagnostics: Vec::new(),
            unassigned: Vec::new(),
        };
        if self.environment_broken() {
            preview.heat_error = diagnostics
                .iter()
                .find(|d| d.severity == Severity::Error)
                .map(ToString::to_string);
            preview.diagnostics = finish(diagnostics, &self.load.overlay);
            return preview;
        }
        let c = compose_preview(root, &registry, &self.catalog, self.max_depth, stack_name);
        diagnostics.extend(c.diagnostics.iter().cloned());
        let (stack, description, parameters, outputs) = crate::product::preview::build(
            &c,
            &self.catalog,
            &crate::product::parameters::Origins {
                merged: &self.merged,
                environments: &self.environment_paths(),
            },
            root,
            stack_name,
        );
        preview.stack = stack;
        preview.description = description;
        preview.parameters = parameters;
        preview.outputs = outputs;
        // Heat builds the root stack's parameters first: a name the
        // environments' `parameters` give that the template does not
        // declare, then one without a value, refuse the preview before any
        // resource is looked at.
        let unknown = self.unknown_user_parameter(root);
        let missing = c
            .root_stack
            .parameters
            .iter()
            .find(|(_, v)| v.is_none())
            .map(|(name, _)| name.clone());
        if let Some(name) = &missing {
            let mut d = Diagnostic::new(
                codes::ROOT_PARAMETER_UNSET,
                root,
                format!("parameter `{name}` has no value: no default, and the environments give none (Heat: UserParameterMissing: The Parameter ({name}) was not provided.)"),
            );
            d.span = self.parameter_key(root, name);
            diagnostics.push(d);
        }
        let refusal = unknown
            .map(|(name, d)| {
                diagnostics.push(d);
                format!("UnknownUserParameter: The Parameter ({name}) was not defined in template.")
            })
            .or_else(|| {
                missing.map(|name| {
                    format!("UserParameterMissing: The Parameter ({name}) was not provided.")
                })
            });
        preview.heat_error = refusal.or_else(|| c.heat_error.as_deref().map(preview_error));
        preview.unassigned.clone_from(&c.unassigned);
        preview.diagnostics = finish(diagnostics, &self.load.overlay);
        preview
    }

    /// The first name the environments' `parameters` give that the root
    /// template `root` does not declare, with its diagnostic (E7018).
    fn unknown_user_parameter(&self, root: &str) -> Option<(String, Diagnostic)> {
        let t = self.catalog.template("", root).template?;
        let name = self
            .merged
            .parameters
            .keys()
            .find(|k| !t.parameters.iter().any(|p| &p.name == *k))?;
        let origin = self.merged.parameter_origins[0].get(name);
        let env = origin
            .and_then(|o| self.environment_paths().get(o.env).cloned())
            .unwrap_or_default();
        let mut d = Diagnostic::new(
            codes::UNKNOWN_USER_PARAMETER,
            &env,
            format!("`parameters` gives `{name}`, which the root template `{root}` does not declare (Heat: UnknownUserParameter: The Parameter ({name}) was not defined in template.)"),
        );
        d.span = origin.map(|o| o.span);
        Some((name.clone(), d))
    }

    /// Where the root template `root` declares parameter `name` (its key).
    fn parameter_key(&self, root: &str, name: &str) -> Option<crate::diag::Span> {
        let bytes = self.load.overlay.read(Path::new(root)).ok()?;
        let text = String::from_utf8(bytes).ok()?;
        let parsed = load::parse_text(&text, root, &load::ParseOptions::default());
        let top = parsed.root?;
        let section = ["parameters", "Parameters"]
            .iter()
            .find_map(|k| top.as_map()?.get(k))?;
        section
            .as_map()?
            .entries
            .iter()
            .find(|(k, _)| k.value.key_text() == name)
            .map(|(k, _)| k.span)
    }

    /// `diff`: what an update from the composition previewed as `old` to
    /// the one previewed as `new` does (see `product::diff`).
    pub fn diff(old: &Preview, new: &Preview) -> crate::product::diff::Diff {
        crate::product::diff::compare(old, new)
    }

    /// `diff`'s interface section: what the composition of `new_root` in
    /// `new` does to the deployment's values, against the composition of
    /// `old_root` in `old` (see `product::interface`).
    pub fn interface(
        old: &Workspace,
        old_root: &str,
        new: &Workspace,
        new_root: &str,
    ) -> crate::product::interface::Interface {
        let old_text = |path: &str| old.catalog.text("", path).map(|(text, _)| text);
        let new_text = |path: &str| new.catalog.text("", path).map(|(text, _)| text);
        let side = |ws: &'_ Workspace, root: &str| {
            let (params, _, composition) = ws.described(root, false);
            (params, composition)
        };
        let ((old_params, old_tree), (new_params, new_tree)) =
            rayon::join(|| side(old, old_root), || side(new, new_root));
        let o = crate::product::interface::Side::new(
            old_params,
            old_tree,
            &old.environments,
            &old.env_files,
            old.environment_paths(),
            &old.merged,
            &old.catalog,
            &old_text,
        );
        let n = crate::product::interface::Side::new(
            new_params,
            new_tree,
            &new.environments,
            &new.env_files,
            new.environment_paths(),
            &new.merged,
            &new.catalog,
            &new_text,
        );
        crate::product::interface::compare(&o, &n)
    }

    /// The document Heat's update preview API answers for `d`
    /// (`diff --format heat`).
    pub fn diff_heat_document(
        d: &crate::product::diff::Diff,
        cx: &crate::product::preview::HeatContext,
    ) -> serde_json::Value {
        crate::product::diff::heat_document(d, cx)
    }

    /// The document Heat's stack preview API answers for `p` in the
    /// context `cx` (`preview --format heat`).
    pub fn preview_heat_document(
        p: &Preview,
        cx: &crate::product::preview::HeatContext,
    ) -> serde_json::Value {
        crate::product::preview::heat_document(p, cx)
    }

    /// `export`: the files stock Heat needs for the composition of `root`,
    /// or the errors that refuse it.
    ///
    /// Reads are confined (the same rule will guard the HTTP service): a
    /// file whose real path is outside the root template's directory and
    /// the environments' directories refuses the export (E7011), unless
    /// `allow_outside`.
    pub fn export(&self, root: &str, allow_outside: bool) -> Export {
        export::plan(self, root, allow_outside)
    }

    /// The environments' paths, as given.
    pub fn environment_paths(&self) -> Vec<String> {
        self.environments.iter().map(|e| e.path.clone()).collect()
    }

    /// The merged `requires`, as written.
    fn requires(&self) -> IndexMap<String, crate::model::capability::CapValue> {
        self.merged
            .requires
            .iter()
            .map(|(k, (_, v, _))| (k.clone(), v.clone()))
            .collect()
    }

    /// True when an environment given could not be read or parsed (or is a
    /// Jinja source): composing without it would report what it maps as
    /// missing, so the commands report its own problem instead.
    /// A file whose top level is not a mapping (E6014) counts: it loaded,
    /// but Heat refuses it before it merges anything.
    ///
    /// A Jinja source that failed to render (E0020) does not count: only
    /// its outputs are missing, and an environment among them is reported
    /// missing (as its file's own problem) where it is given.
    pub fn environment_broken(&self) -> bool {
        file_diagnostics(&self.env_files)
            .iter()
            .any(|d| d.severity == Severity::Error)
    }

    /// The file findings without an entry fall back to: the last
    /// environment searched.
    fn last_environment(&self) -> &str {
        self.environments.last().map_or("-", |e| e.path.as_str())
    }

    /// A root template that cannot be composed: missing, unreadable,
    /// unparsable or not a template.
    fn root_problem(&self, root: Option<&str>) -> Option<Diagnostic> {
        let root = root?;
        let found = self.catalog.template("", root);
        if found.template.is_some() {
            return None;
        }
        let problem = found
            .problem
            .unwrap_or_else(|| "it is not a template".to_owned());
        Some(Diagnostic::new(
            codes::MISSING_TEMPLATE,
            root,
            format!("the root template cannot be used: {problem}"),
        ))
    }

    /// The template at `path` (as given), if the catalog loaded one.
    pub fn template(&self, path: &str) -> Option<&Template> {
        self.catalog.template("", path).template
    }
}

/// Loads environment files, keeping their trees (for positions).
fn load_environments(paths: &[PathBuf], opts: &LoadOptions) -> Vec<FileRecord> {
    let sources: Vec<Source> = paths
        .iter()
        .map(|p| Source::new(p.clone(), display(p), true))
        .collect();
    load::load_all(&sources, opts, |l| FileRecord::from_loaded(l, false))
}

/// The files' own diagnostics, and a warning for each file given as an
/// environment that is not one.
fn file_diagnostics(envs: &[FileRecord]) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for f in envs {
        out.extend(f.diagnostics.iter().cloned());
        let flagged = f.diagnostics.iter().any(|d| d.code == codes::NOT_HEAT_FILE);
        let not_mapping = f.reason.is_some_and(|r| r.starts_with("the top level is"));
        if f.status == Status::Ok && f.environment().is_none() && not_mapping {
            out.retain(|d: &Diagnostic| !(d.code == codes::NOT_HEAT_FILE && d.file == f.path));
            out.push(Diagnostic::new(
                codes::ENVIRONMENT_NOT_MAPPING,
                f.path.clone(),
                "The environment is not a valid YAML mapping data type.",
            ));
        } else if f.status == Status::Ok && f.environment().is_none() && !flagged {
            out.push(Diagnostic::new(
                codes::NOT_HEAT_FILE,
                f.path.clone(),
                "given with -e but is not an environment",
            ));
        }
    }
    out
}

/// A report's diagnostics: once each, and those in a rendered file
/// naming its source.
/// Heat's refusal of a preview as the API reports it: the exception's
/// class, then its message (the validate API answers the message alone).
fn preview_error(message: &str) -> String {
    let class = if message.starts_with("Request limit exceeded") {
        "RequestLimitExceeded"
    } else if message.starts_with("The template version is invalid") {
        "InvalidTemplateVersion"
    } else {
        "StackValidationFailed"
    };
    format!("{class}: {message}")
}

fn finish(diagnostics: Vec<Diagnostic>, overlay: &crate::vfs::FileOverlay) -> Vec<Diagnostic> {
    let mut out = crate::diag::dedup(diagnostics);
    overlay.name_origins(&mut out);
    out
}

/// Loads every walked file (in parallel, in order) into a corpus, slim;
/// the walk is kept for files added later.
fn load_corpus(walk: &WalkOptions, opts: &LoadOptions) -> (Corpus, Walked) {
    let (walked, files) = load::walk_and_load(walk, opts, true, FileRecord::from_loaded_slim);
    let corpus = Corpus {
        files,
        walk_diagnostics: walked.diagnostics.clone(),
    };
    (corpus, walked)
}

/// Adds to the corpus every template the registries name (resolved
/// against each environment's real directory, as python-heatclient does):
/// the given environments', then those of environments among the walked
/// files. A template named twice, or also walked, is loaded once.
fn add_registry_templates(
    corpus: &mut Corpus,
    walked: &mut Walked,
    env_files: &[FileRecord],
    opts: &LoadOptions,
    remap: &walk::Remap,
) {
    let given = walked.sources.len();
    for env_file in env_files.iter().chain(corpus.files.iter()) {
        let Some(env) = env_file.environment() else {
            continue;
        };
        for (target, at) in env.entries.iter().flat_map(|e| e.templates()) {
            if let Some((path, shown)) =
                catalog::locate(&env_file.path, target, remap, &opts.overlay)
            {
                walked.add_named_file(path, shown, &env_file.path, at);
            }
        }
    }
    let named = load::load_all(&walked.sources[given..], opts, |l| {
        FileRecord::from_loaded(l, false)
    });
    corpus.files.extend(named);
    corpus.walk_diagnostics.clone_from(&walked.diagnostics);
}

/// The types environments map to walked templates ([`inferred::infer`]):
/// the given environments not walked, then the walked ones. A target the
/// prefilter skipped is loaded whole, since it is now a candidate.
fn infer(
    corpus: &mut Corpus,
    walked: &Walked,
    env_files: &[FileRecord],
    opts: &LoadOptions,
    remap: &walk::Remap,
) -> HashMap<usize, Inferred> {
    let by_path = walked.by_path();
    let given = env_files.iter().filter(|f| {
        walked
            .position(&crate::walk::path_of(&f.path), &by_path)
            .is_none()
    });
    let envs: Vec<&FileRecord> = given.chain(corpus.files.iter()).collect();
    let found = inferred::infer(&envs, walked, &by_path, remap);
    let skipped: Vec<usize> = found
        .keys()
        .copied()
        .filter(|&i| corpus.files[i].status == Status::Skipped && !walked.sources[i].jinja)
        .collect();
    if !skipped.is_empty() {
        let mut whole = opts.clone();
        whole.prefilter = Vec::new();
        let sources: Vec<Source> = skipped.iter().map(|&i| walked.sources[i].clone()).collect();
        let loaded = load::load_all_for_index(&sources, &whole, FileRecord::from_loaded_slim);
        for (i, record) in skipped.into_iter().zip(loaded) {
            corpus.files[i] = record;
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inference_rule_of_the_commands() {
        assert!(Workspace::builder().declared_only(false).infer);
        assert!(!Workspace::builder().declared_only(true).infer);
        let on_type = [Condition::parse("resource_type=OS::X").unwrap()];
        let other = [Condition::parse("os=centos").unwrap()];
        let b = || Workspace::builder();
        assert!(b().declared_only_for(false, &on_type).infer);
        assert!(!b().declared_only_for(true, &on_type).infer);
        assert!(!b().declared_only_for(false, &other).infer);
        assert!(!b().declared_only_for(false, &[]).infer);
    }
}
