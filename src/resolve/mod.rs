//! Stage 4b: what an environment picks. Environments are merged as Heat
//! merges them ([`merge`]), registry entries are looked up as Heat looks
//! them up ([`registry`]), and list-valued entries are resolved against the
//! merged `requires` ([`choose`], capabilities.md §2).
//!
//! Results are structured values ([`Resolution`], [`ResolveError`]): the
//! renderers format them, and the JSON carries them whole.

pub(crate) mod choose;
pub(crate) mod compose;
#[cfg(test)]
mod conformance;
pub(crate) mod merge;
pub(crate) mod plugins;
pub(crate) mod registry;
pub(crate) mod values;

use indexmap::IndexMap;
use schemars::JsonSchema;
use serde::Serialize;

use crate::diag::Span;
use crate::model::capability::CapValue;
use crate::model::Template;

/// The templates the resolver can see, with heatcap's path rules.
pub trait Catalog {
    /// The template `target` names, relative to the file `from` (an
    /// environment or a template, as the user gave its path).
    fn template(&self, from: &str, target: &str) -> TemplateRef<'_>;

    /// Why a file `target` names from `from` cannot be read (for
    /// `get_file`); `None` when it can.
    fn file_problem(&self, from: &str, target: &str) -> Option<String>;

    /// The content of the file `target` names from `from`, as
    /// python-heatclient uploads it (`get_file`); `None` when it cannot be
    /// read.
    fn file(&self, from: &str, target: &str) -> Option<String>;

    /// The absolute `file://` URL python-heatclient makes of the file
    /// `target` names from `from`; `None` when it does not exist.
    fn url(&self, from: &str, target: &str) -> Option<String>;
}

/// A template path as the catalog found it.
#[derive(Debug, Clone)]
pub struct TemplateRef<'a> {
    /// The path to show (relative to where the user gave the referring file).
    pub display: String,
    /// The loaded template; `None` when the file is missing or not a template.
    pub template: Option<&'a Template>,
    /// Why `template` is `None`.
    pub problem: Option<String>,
}

/// What a type finally is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum Implementation {
    /// A provider template (path as shown to the user).
    Template(String),
    /// A type Heat provides itself (a plugin, such as `OS::Heat::None`).
    Plugin(String),
}

/// How one step of a lookup went.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum StepKind {
    /// `resources: NAME: {TYPE: ...}` matched.
    PerResource,
    /// The exact key matched.
    Entry,
    /// A glob key (`OS::X::*`) matched.
    Glob,
    /// A template path used directly as a type (`type: nested.yaml`).
    Path,
    /// Heat's own type.
    Plugin,
    /// An entry of Heat's shipped global environment.
    GlobalEntry,
    /// This candidate failed; Heat falls through to the next one.
    FellThrough,
    /// The entry that made this nested stack: Heat removes it from the
    /// nested stack's registry (heat-semantics §3.4), so it is not used.
    Removed,
    /// A selection made with `--choose`, as a UI would make it.
    Chosen,
}

/// One step of a lookup: which entry was used, from which file, where.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
#[non_exhaustive]
pub struct Step {
    /// What kind of step.
    pub kind: StepKind,
    /// The environment file (as given) the entry came from.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub environment: Option<String>,
    /// The registry key (or the type looked up, for plugins and paths).
    pub key: String,
    /// The value as written (a string or a candidate list).
    pub value: serde_json::Value,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// The entry's position in `environment`.
    pub span: Option<Span>,
    /// For list-valued entries: how the candidate was chosen.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub selection: Option<Selection>,
    /// For fall-through steps: why the entry was passed over.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// One candidate of a list-valued entry.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
#[non_exhaustive]
pub struct Candidate {
    /// As written in the environment.
    pub name: String,
    /// The template path as shown (absent for type candidates).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// Its declared capabilities (`null`: none declared).
    pub capabilities: Option<IndexMap<String, CapValue>>,
    /// Rule 1: its `resource_type` names other types only.
    pub excluded: bool,
    /// Rule 3: it meets every relevant requirement.
    pub matches: bool,
    /// The file is missing or is not a template.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub problem: Option<String>,
    /// `options` only: offered by a template's `resource_type` annotation
    /// under a scanned directory, not listed in the environment's entry.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    #[schemars(extend("const" = true))]
    pub unlisted: bool,
    /// `options` only: the `requires` that would select this candidate on
    /// its own (`{}`: none needed; absent: no `requires` can).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub selected_by: Option<IndexMap<String, serde_json::Value>>,
    /// `options` only: the environments' entries that map the type to this
    /// candidate (given with `-e`, or found under the scanned directories;
    /// absent when none).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub mapped_by: Vec<crate::model::registry::Site>,
}

/// How a list-valued entry was decided.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
#[non_exhaustive]
pub struct Selection {
    /// Every candidate, as written, in order.
    pub candidates: Vec<Candidate>,
    /// Rule 2: the `requires` keys that at least one remaining candidate
    /// declares, with the values they accept.
    pub relevant: IndexMap<String, Vec<String>>,
    /// The chosen candidate, as written.
    pub chosen: Option<String>,
}

/// Why a lookup failed. Named fields, so the JSON carries it whole.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(tag = "error", rename_all = "kebab-case")]
#[schemars(deny_unknown_fields)]
#[non_exhaustive]
pub enum ResolveError {
    /// Nothing maps the type and Heat does not provide it ("The Resource
    /// Type (T) could not be found.").
    NotFound {
        #[serde(rename = "type")]
        /// The type looked up.
        type_name: String,
    },
    /// Aliases lead back to a type already being looked up (Heat recurses
    /// until it crashes).
    AliasLoop {
        /// The types of the loop, in lookup order.
        types: Vec<String>,
    },
    /// No candidate of a list-valued entry meets `requires`.
    NoMatch(Box<Unresolved>),
    /// Several candidates meet `requires`; heatcap never guesses.
    Ambiguous(Box<Unresolved>),
    /// The entry's value is something Heat cannot use (a number, a mapping).
    InvalidValue {
        #[serde(rename = "type")]
        /// The type looked up.
        type_name: String,
        /// The environment with the entry.
        environment: String,
        /// What the value is (`a mapping`, ...).
        found: String,
    },
}

/// The detail of an unresolved list-valued entry (capabilities.md §2 step 4).
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
#[non_exhaustive]
pub struct Unresolved {
    #[serde(rename = "type")]
    /// The type looked up.
    pub type_name: String,
    /// The environment with the entry.
    pub environment: String,
    /// The registry entry: the type, or `resources/NAME/TYPE`.
    pub entry: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// The entry's position.
    pub span: Option<Span>,
    /// How the candidates were decided.
    pub selection: Selection,
}

impl ResolveError {
    /// One line for people.
    pub fn message(&self) -> String {
        match self {
            ResolveError::NotFound { type_name } => {
                let hint = crate::heat_schema::heat()
                    .misspelling_of(type_name)
                    .map(|s| format!("; did you mean `{s}`?"))
                    .unwrap_or_default();
                format!("the resource type `{type_name}` could not be found{hint}")
            }
            ResolveError::AliasLoop { types } => {
                format!("aliases form a loop: {}", types.join(" -> "))
            }
            ResolveError::NoMatch(u) => {
                let total = u.selection.candidates.len();
                let excluded = u.selection.candidates.iter().filter(|c| c.excluded).count();
                let detail = if excluded > 0 {
                    format!("{total} candidates, {excluded} excluded by their resource_type or a problem")
                } else {
                    format!("{total} candidates")
                };
                format!(
                    "no candidate for `{}` meets requires{} ({detail})",
                    u.type_name,
                    relevant_text(&u.selection)
                )
            }
            ResolveError::Ambiguous(u) => {
                let matching: Vec<&str> = u
                    .selection
                    .candidates
                    .iter()
                    .filter(|c| c.matches)
                    .map(|c| c.name.as_str())
                    .collect();
                format!(
                    "several candidates for `{}` meet requires{}: {}",
                    u.type_name,
                    relevant_text(&u.selection),
                    matching.join(", ")
                )
            }
            ResolveError::InvalidValue {
                type_name, found, ..
            } => {
                format!("the registry value for `{type_name}` is {found}, which Heat cannot use")
            }
        }
    }
}

fn relevant_text(s: &Selection) -> String {
    if s.relevant.is_empty() {
        " (no requires key is declared by any candidate)".to_owned()
    } else {
        let parts: Vec<String> = s
            .relevant
            .iter()
            .map(|(k, v)| format!("{k}={}", v.join("|")))
            .collect();
        format!(" {}", parts.join(", "))
    }
}

/// The outcome of looking up one type (for one resource name, if any).
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
#[non_exhaustive]
pub struct Resolution {
    #[serde(rename = "type")]
    /// The type looked up.
    pub type_name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// The resource name, where per-resource entries apply.
    pub resource: Option<String>,
    /// What the type is, when the lookup succeeded.
    pub implementation: Option<Implementation>,
    /// Every entry consulted, in order.
    pub chain: Vec<Step>,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// Why the lookup failed.
    pub error: Option<ResolveError>,
}

impl Resolution {
    /// True when an implementation was found.
    pub fn is_resolved(&self) -> bool {
        self.error.is_none() && self.implementation.is_some()
    }

    /// Why the lookup failed, in one line for people: the error, and for a
    /// type that could not be found, the entries that mapped it and why
    /// Heat passed them over.
    pub fn message(&self) -> Option<String> {
        self.message_at(None)
    }

    /// [`Self::message`] for a diagnostic placed at `here` (file, line):
    /// an entry written there is not named again.
    fn message_at(&self, here: Option<(&str, u32)>) -> Option<String> {
        let e = self.error.as_ref()?;
        let mut text = e.message();
        if let ResolveError::NoMatch(u) | ResolveError::Ambiguous(u) = e {
            let types: Vec<String> = u
                .selection
                .candidates
                .iter()
                .filter(|c| c.path.is_none() && looks_like_file(&c.name))
                .map(|c| format!("`{}`", c.name))
                .collect();
            if !types.is_empty() {
                text = format!(
                    "{text}; {} {} read as a type name, not a template (only names ending in `.yaml` or `.template` are templates)",
                    types.join(", "),
                    if types.len() == 1 { "is" } else { "are" }
                );
            }
        }
        if let ResolveError::NotFound { .. } = e {
            let hints: Vec<String> = self
                .chain
                .iter()
                .filter_map(|s| {
                    let value = s.value.as_str().unwrap_or_default();
                    let place = step_place(s, here);
                    match s.kind {
                        StepKind::FellThrough => Some(format!("{place}`{value}`, {}", passed_over(value))),
                        StepKind::Removed => Some(format!(
                            "{place}`{value}`, but that entry made this nested stack and Heat removes it here (a template cannot implement itself)"
                        )),
                        _ => None,
                    }
                })
                .collect();
            if !hints.is_empty() {
                text = format!("{text}: {}", hints.join("; "));
            }
        }
        Some(text)
    }

    /// The error as a diagnostic at the registry entry that failed (or the
    /// first entry consulted; else in `fallback`, the last environment
    /// searched), for registry and single-type lookups.
    pub fn diagnostic(&self, fallback: &str) -> Option<crate::diag::Diagnostic> {
        let e = self.error.as_ref()?;
        let (file, span) = match e {
            ResolveError::NoMatch(u) | ResolveError::Ambiguous(u) => {
                (Some(u.environment.clone()), u.span)
            }
            _ => self
                .chain
                .first()
                .map_or((None, None), |s| (s.environment.clone(), s.span)),
        };
        let message = self
            .message_at(file.as_deref().zip(span.map(|s| s.start.line)))
            .unwrap_or_else(|| e.message());
        let mut d = crate::diag::Diagnostic::new(
            compose::UNRESOLVED,
            file.unwrap_or_else(|| fallback.to_owned()),
            message,
        );
        if let Some(span) = span {
            d = d.at(span);
        }
        Some(d)
    }
}

/// `env.yaml:3 maps it to `: where a step's entry is written, unless that
/// is where the diagnostic is.
fn step_place(s: &Step, here: Option<(&str, u32)>) -> String {
    let env = s.environment.as_deref().unwrap_or("Heat");
    let line = s.span.map(|span| span.start.line);
    match line {
        Some(l) if here == Some((env, l)) => "it maps to ".to_owned(),
        Some(l) => format!("{env}:{l} maps it to "),
        None => format!("{env} maps it to "),
    }
}

/// A path rather than a type name: a `/`, or a short extension and no `::`.
fn looks_like_file(value: &str) -> bool {
    value.contains('/')
        || (!value.contains("::")
            && std::path::Path::new(value)
                .extension()
                .is_some_and(|e| !e.is_empty() && e.len() <= 8))
}

/// Why Heat passed over an entry whose target could not be found: a value
/// that looks like a file but does not end in `.yaml` or `.template` is
/// read as a type name (heat-semantics §2.3).
fn passed_over(value: &str) -> &'static str {
    if looks_like_file(value) {
        "which Heat reads as a type name, not a template (only names ending in `.yaml` or `.template` are templates)"
    } else {
        "which is not a type Heat knows either"
    }
}

/// The `resolve` command's result: the merged environment's `requires`,
/// the composition tree (with `-t`), every lookup, and the diagnostics.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
#[non_exhaustive]
pub struct ResolveReport {
    /// The environments, as given.
    pub environments: Vec<String>,
    /// The merged `requires`.
    pub requires: IndexMap<String, CapValue>,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// The root template, as given.
    pub template: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// The composition tree of the root template.
    pub tree: Option<compose::TreeNode>,
    /// Every lookup, first-seen order.
    pub resolutions: Vec<Resolution>,
    /// True when every lookup found an implementation.
    pub resolved: bool,
    /// Problems found on the way.
    pub diagnostics: Vec<crate::diag::Diagnostic>,
}
