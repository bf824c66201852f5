//! heatcap: discover, resolve and validate OpenStack Heat template
//! compositions.
//!
//! # Using the library
//!
//! Everything starts from a [`Workspace`]: it opens a set of roots and
//! environment files once and answers each question the commands ask.
//!
//! ```
//! use heatcap::{Implementation, Workspace};
//!
//! // The spec's example (fixtures/spec): `requires: {deployment: puppet}`
//! // picks the puppet controller among the two candidates.
//! let ws = Workspace::builder()
//!     .environments(&["fixtures/spec/environment.yaml".into()])
//!     .open();
//! let report = ws.resolve(None, None, None);
//! let controller = &report.resolutions[0];
//! assert_eq!(controller.type_name, "OS::TripleO::Controller");
//! assert_eq!(
//!     controller.implementation,
//!     Some(Implementation::Template("fixtures/spec/puppet/controller.yaml".into()))
//! );
//! ```
//!
//! - What exists: [`Workspace::find`], [`Workspace::summary`],
//!   [`Workspace::by_type`], [`Workspace::index`].
//! - What the environments pick: [`Workspace::resolve`]; the choices a UI
//!   offers: [`Workspace::options`]; the parameters of the chosen
//!   composition: [`Workspace::parameters`]; what stock Heat accepts:
//!   [`Workspace::export`].
//! - What Heat refuses: [`validate()`], and the [`catalogue`] of every code.
//! - Heat's YAML dialect: [`parse_text`].
//!
//! Every result is plain data that serialises to the JSON documented in
//! `docs/output.md`. Problems with the input are [`Diagnostic`]s in the
//! results, never panics or early returns.
//!
//! # The pipeline
//!
//! One module per stage; a module uses only the stages before it (a test,
//! `tests/architecture.rs`, keeps it so):
//!
//! 1. leaves any stage may use: `diag` (findings and the catalogue of
//!    codes), `error`, [`node`] (the YAML tree and the YAML 1.1 scalar
//!    rules), `encode` (JSON and YAML writers), `heat_schema` (Heat's
//!    resource types and their property and attribute schemas, embedded),
//!    `vfs` (virtual files read instead of the disk: rendered outputs);
//! 2. `walk`: roots and globs → the files to read;
//! 3. `load`: read and parse as Heat does, in parallel;
//! 4. `model`: typed views (templates, environments and their registry
//!    entries), and beside it `render` (TripleO's Jinja sources rendered in
//!    memory as the tree's own script renders them);
//! 5. `eval`: Heat's intrinsic functions and conditions, evaluated as Heat
//!    evaluates them when it validates a stack;
//! 6. `index` (capabilities), `resolve` (merge, look up, choose, compose)
//!    and `validate` (the rules), side by side, none using another;
//! 7. `product` (options, parameters, Heat's validate document, export's
//!    transforms, all built on a resolution) and `query` (questions to the
//!    index);
//! 8. `workspace`: the façade that opens files and runs the stages;
//! 9. `report`: renderers, pure functions from results to a writer;
//! 10. `cli`: flags → workspace → one call → render. `main.rs` only maps
//!     the result to an exit code.
#![warn(clippy::print_stdout, clippy::print_stderr, clippy::dbg_macro)]
#![warn(missing_docs)]

#[doc(hidden)]
pub mod cli;
pub(crate) mod diag;
pub(crate) mod encode;
pub(crate) mod error;
pub(crate) mod eval;
#[doc(hidden)]
pub mod fuzzing;
pub mod git;
pub(crate) mod heat_schema;
pub(crate) mod index;
pub(crate) mod load;
pub(crate) mod lsp;
pub(crate) mod model;
pub mod node;
pub(crate) mod product;
pub(crate) mod query;
pub(crate) mod render;
pub(crate) mod report;
pub(crate) mod resolve;
pub(crate) mod serve;
pub(crate) mod validate;
pub(crate) mod vfs;
pub(crate) mod walk;
pub(crate) mod workspace;

pub use diag::{Code, CodeInfo, Diagnostic, Pos, Related, Severity, Span};
pub use error::{Error, Exit};
pub use index::{Inferred, Site};
pub use load::{
    parse_text, FileKind, LoadCache, LoadOptions, ParseOptions, Parsed, RenderOptions, Status,
    Touched, DEFAULT_MAX_SIZE,
};
pub use model::capability::{CapValue, Scalar};
pub use model::catalogue::{Catalogue, CatalogueEnvironment, CatalogueGroup, CatalogueTopic};
pub use model::environment::Environment;
pub use model::package::ModuleKind;
pub use model::template::Template;
pub use model::Content;
pub use product::catalogue::{
    CapabilitiesEnvironment, CapabilitiesGroup, CapabilitiesTopic, CatalogueReport, Drift,
    DriftKind,
};
pub use product::diff::{
    Action as DiffAction, Change as DiffChange, Diff, PropertyChange, Rule as DiffRule,
    Summary as DiffSummary,
};
pub use product::feeds::{
    ConstraintBounds, ConstraintModulo, Feed, PropertyConstraint, Via as FeedVia,
};
pub use product::interface::{
    Counts as InterfaceCounts, Finding as InterfaceFinding, Interface, Rule as InterfaceRule,
    Severity as InterfaceSeverity, Site as InterfaceSite,
};
pub use product::options::{Choice, OptionsReport};
pub use product::parameters::{
    ChoiceDiff, ParameterInfo, ParametersReport, Source as ValueSource, StackNode, Supplied,
    UnevaluatedValue,
};
pub use product::preview::{HeatContext, Preview, PreviewOutput, PreviewResource, PreviewStack};
pub use query::{Condition, FileEntry, IndexDocument, IndexSummary, Match, TypeImplementation};
pub use report::Format;
pub use resolve::compose::{Composition, TreeNode};
pub use resolve::{
    Candidate, Implementation, Resolution, ResolveError, ResolveReport, Selection, Step, StepKind,
    Unresolved,
};
pub use validate::{Profile, Selection as RuleSelection};
pub use vfs::FileOverlay;
pub use walk::{MemoryFiles, WalkOptions};
pub use workspace::{
    validate, Export, ExportFile, RenderPlan, ValidateOptions, Validated, Workspace,
    WorkspaceBuilder,
};

/// The whole catalogue of codes, in code order: what each code means, why
/// it matters, an example and its source.
pub fn catalogue() -> Vec<&'static CodeInfo> {
    validate::registry::catalogue()
}

/// The codes `validate`'s rules own (the rest of the catalogue comes from
/// loading, merging and composing), in code order.
pub fn rules() -> Vec<&'static CodeInfo> {
    validate::registry::all()
}

/// The start-up cost of Heat's resource types: parses the embedded data
/// afresh (not the cached copy) and returns the number of types.
#[doc(hidden)]
pub fn bench_heat_schema_parse() -> usize {
    heat_schema::bench_parse()
}

/// The parse floor the benchmark compares with: libyaml's events only.
#[doc(hidden)]
pub fn bench_parse_events(text: &str) -> usize {
    load::bench_parse_events(text)
}

/// Every file under `dir`, in a sorted walk (walkdir's): the files the
/// benchmark's floor and bare parse read. Not part of the API.
#[doc(hidden)]
pub fn bench_files(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    load::bench_files(dir)
}

/// The benchmark's bare parse: every file under `dir` (a sorted walk),
/// read and taken through libyaml's events by heatcap's reader on rayon's
/// threads; the number of events. The floor `index` is held to, for the
/// benchmark and `examples/bare_parse.rs`. Not part of the API.
#[doc(hidden)]
pub fn bench_bare_parse(dir: &std::path::Path) -> usize {
    load::bench_bare_parse(dir)
}

/// The tree Heat's second YAML stage alone (PyYAML's pure-Python
/// `SafeLoader`) makes of `text`, whatever libyaml makes of it, for
/// comparing the port with PyYAML (`examples/dump --second-stage`) and for
/// the fuzz harness. Not part of the API.
#[doc(hidden)]
pub fn second_stage_tree(text: &str) -> Result<serde_json::Value, String> {
    load::second_stage_tree(text)
}
