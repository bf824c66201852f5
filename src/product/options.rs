//! Workflow steps 3 and 4 (capabilities.md §3): every type with more than
//! one possible implementation, each candidate with its capabilities, what
//! the current `requires` selects, and what would select each candidate.

use indexmap::IndexMap;
use schemars::JsonSchema;
use serde::Serialize;

use crate::diag::Span;
use crate::model::registry::{is_template_path, EntryValue};
use crate::model::{Environment, Template};
use crate::resolve::choose::{candidate, decide, locate, selectors, Requires};
use crate::resolve::merge::Merged;
use crate::resolve::{Candidate, Catalog, Selection};

/// One choice a user can make.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
#[non_exhaustive]
pub struct Choice {
    #[serde(rename = "type")]
    /// The type to choose an implementation of.
    pub type_name: String,
    /// For a per-resource entry (`resources/NAME/TYPE`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resource: Option<String>,
    /// The environment with the list-valued entry (absent when the
    /// candidates come only from annotated templates).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub environment: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// The entry's position in `environment`.
    pub span: Option<Span>,
    /// The type's current single-valued mapping, when it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mapped_to: Option<String>,
    /// The candidates, and what the current `requires` chooses.
    pub selection: Selection,
    /// `no-match` or `ambiguous` when the current `requires` does not decide.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(schema_with = "problem_schema")]
    pub problem: Option<&'static str>,
}

/// `problem` is one of the two texts `list_choice` sets.
fn problem_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({
        "description": "`no-match` or `ambiguous` when the current `requires` does not decide.",
        "enum": ["no-match", "ambiguous"]
    })
}

/// Templates found by directory, by the types their `resource_type` names.
pub(crate) type Annotated<'a> = IndexMap<String, Vec<(String, &'a Template)>>;

fn same_path(a: &str, b: &str) -> bool {
    a.trim_start_matches("./") == b.trim_start_matches("./")
}

/// Every choice: list-valued entries (top level, then per resource), then
/// types that only annotated templates offer more than one implementation of.
pub(crate) fn options(
    envs: &[Environment],
    merged: &Merged,
    catalog: &dyn Catalog,
    annotated: &Annotated<'_>,
) -> Vec<Choice> {
    let mut out = Vec::new();
    let requires: &Requires = &merged.requires;
    let list_entries = merged.entries.values().map(|e| (None, e)).chain(
        merged
            .resources
            .iter()
            .flat_map(|(name, m)| m.values().map(move |e| (Some(name.clone()), e))),
    );
    let mut covered: Vec<String> = Vec::new();
    for (resource, entry) in list_entries {
        let EntryValue::Candidates(cs) = &entry.value else {
            continue;
        };
        let names: Vec<String> = cs.iter().map(|c| c.name.clone()).collect();
        let t = &entry.key;
        let from = envs[entry.origin.env].path.as_str();
        let listed = locate(t, &names, from, catalog);
        let extras: Vec<_> = annotated
            .get(t)
            .into_iter()
            .flatten()
            .filter(|(display, _)| {
                !listed
                    .iter()
                    .any(|c| c.path.as_deref().is_some_and(|p| same_path(p, display)))
            })
            .map(|(display, template)| {
                let mut c = candidate(t, display, Some(display.clone()), Some(template), None);
                c.unlisted = true;
                c
            })
            .collect();
        covered.push(t.clone());
        out.push(list_choice(
            t,
            resource,
            from,
            entry.origin.span,
            listed,
            extras,
            requires,
        ));
    }
    for (t, templates) in annotated {
        if covered.contains(t) {
            continue;
        }
        let mapped_to = merged.entries.get(t).and_then(|e| {
            let v = e.node.value.as_str()?;
            Some(if is_template_path(v) {
                catalog.template(&envs[e.origin.env].path, v).display
            } else {
                v.to_owned()
            })
        });
        let mut candidates: Vec<_> = templates
            .iter()
            .map(|(display, template)| {
                candidate(t, display, Some(display.clone()), Some(template), None)
            })
            .collect();
        if let Some(m) = &mapped_to {
            if !candidates
                .iter()
                .any(|c| c.path.as_deref().is_some_and(|p| same_path(p, m)))
            {
                let found = catalog.template("", m);
                candidates.push(candidate(
                    t,
                    m,
                    Some(found.display),
                    found.template,
                    found.problem,
                ));
            }
        }
        if candidates.len() > 1 {
            out.push(mapped_choice(t, mapped_to, candidates));
        }
    }
    out
}

/// A list-valued entry: the entry's own candidates decide (as `resolve`
/// does); templates the directories add are offered, unlisted, and count
/// only for what would select each candidate.
fn list_choice(
    t: &str,
    resource: Option<String>,
    from: &str,
    span: Span,
    listed: Vec<Candidate>,
    extras: Vec<Candidate>,
    requires: &Requires,
) -> Choice {
    let mut selection = decide(listed, requires.iter().map(|(k, (r, _, _))| (k, r)));
    let matching = selection.candidates.iter().filter(|c| c.matches).count();
    let problem = match (selection.chosen.is_some(), matching) {
        (true, _) => None,
        (false, 0) => Some("no-match"),
        (false, _) => Some("ambiguous"),
    };
    // Listed candidates: what selects them in this entry as written.
    // Unlisted ones: what would, were the entry to list them too.
    selectors(&mut selection.candidates);
    if !extras.is_empty() {
        let listed = selection.candidates.len();
        let mut union: Vec<_> = selection.candidates.iter().cloned().chain(extras).collect();
        selectors(&mut union);
        selection.candidates.extend(union.drain(listed..));
    }
    Choice {
        type_name: t.to_owned(),
        resource,
        environment: Some(from.to_owned()),
        span: Some(span),
        mapped_to: None,
        selection,
        problem,
    }
}

/// A type only annotated templates offer: its current single mapping (if
/// any) is what Heat uses; `requires` does not apply until the environment
/// lists the candidates.
fn mapped_choice(t: &str, mapped_to: Option<String>, candidates: Vec<Candidate>) -> Choice {
    let mut selection = decide(candidates, std::iter::empty());
    for c in &mut selection.candidates {
        c.matches = false;
        c.unlisted = true;
    }
    selection.chosen = mapped_to.as_ref().and_then(|m| {
        selection
            .candidates
            .iter()
            .find(|c| c.path.as_deref().is_some_and(|p| same_path(p, m)))
            .map(|c| c.name.clone())
    });
    selectors(&mut selection.candidates);
    Choice {
        type_name: t.to_owned(),
        resource: None,
        environment: None,
        span: None,
        mapped_to,
        selection,
        problem: None,
    }
}

/// The `options` command's result.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
#[non_exhaustive]
pub struct OptionsReport {
    /// The environments, as given.
    pub environments: Vec<String>,
    /// The merged `requires`.
    pub requires: IndexMap<String, crate::model::capability::CapValue>,
    /// Every choice.
    pub choices: Vec<Choice>,
    /// Problems found on the way.
    pub diagnostics: Vec<crate::diag::Diagnostic>,
}
