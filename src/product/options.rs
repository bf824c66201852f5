//! Workflow steps 3 and 4 (capabilities.md §3): every type with more than
//! one possible implementation, each candidate with its capabilities, what
//! the current `requires` selects, and what would select each candidate.

use indexmap::IndexMap;
use schemars::JsonSchema;
use serde::Serialize;

use crate::diag::Span;
use crate::model::registry::Site;
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
    /// Pairs of environments that map the type to different candidates:
    /// enabling both lets the later one win silently (absent when none).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub conflicts: Vec<Conflict>,
}

/// Two environments mapping one type to different candidates.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
#[non_exhaustive]
pub struct Conflict {
    /// The two environments, in the order they are (or would be) given:
    /// the second wins.
    pub environments: [String; 2],
    /// What each maps the type to (a template path as shown, or a type).
    pub targets: [String; 2],
    /// The environment whose mapping wins (the second).
    pub wins: String,
    /// `given`: both are among the `-e` environments, and the `-e` order
    /// decides. `assumed`: at least one is not given; environments not
    /// given are taken as given after the `-e` ones, in walk order.
    #[schemars(schema_with = "order_schema")]
    pub order: &'static str,
    /// Whether the tree's environment catalogue declares the two mutually
    /// exclusive. Absent while no catalogue is read: the hook for TripleO's
    /// `capabilities-map.yaml` (issue 17.3), which fills it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mutually_exclusive: Option<bool>,
}

/// `order` is one of two texts.
fn order_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({
        "description": "`given`: the `-e` order decides; `assumed`: environments not given are taken as given after the `-e` ones, in walk order.",
        "enum": ["given", "assumed"]
    })
}

/// What one environment maps one type to (for [`Offers`]).
#[derive(Debug, Clone)]
pub(crate) struct Mapping {
    /// The environment, as shown.
    pub environment: String,
    /// Its place in the order environments are (or would be) given.
    pub position: usize,
    /// Given with `-e`.
    pub given: bool,
    /// The target's key in [`TypeOffers::offers`] (for a list, the keys
    /// of its candidates, one a line).
    pub target: String,
    /// The target as shown (a list as `[A, B]`).
    pub shown: String,
}

/// One candidate environments offer for a type.
#[derive(Debug, Clone)]
pub(crate) struct Offer<'a> {
    /// As first written.
    pub name: String,
    /// The template path as shown (absent for a type).
    pub path: Option<String>,
    pub template: Option<&'a Template>,
    /// The file is missing or not a template.
    pub problem: Option<String>,
    /// The entries that map the type to it.
    pub sites: Vec<Site>,
}

/// Everything environments map one type to.
#[derive(Debug, Clone, Default)]
pub(crate) struct TypeOffers<'a> {
    /// Target key (a real path, or `type:NAME`) → the offer.
    pub offers: IndexMap<String, Offer<'a>>,
    /// Each environment's mapping of the type, in the order found.
    pub mappings: Vec<Mapping>,
}

/// Per type: what the environments (given and walked) map it to.
pub(crate) type Offers<'a> = IndexMap<String, TypeOffers<'a>>;

impl TypeOffers<'_> {
    /// Every pair of environments mapping the type to different targets,
    /// earlier one first.
    fn conflicts(&self) -> Vec<Conflict> {
        let mut ms: Vec<&Mapping> = self.mappings.iter().collect();
        ms.sort_by_key(|m| m.position);
        let mut out = Vec::new();
        for (i, a) in ms.iter().enumerate() {
            for b in &ms[i + 1..] {
                if a.target == b.target {
                    continue;
                }
                out.push(Conflict {
                    environments: [a.environment.clone(), b.environment.clone()],
                    targets: [a.shown.clone(), b.shown.clone()],
                    wins: b.environment.clone(),
                    order: if a.given && b.given {
                        "given"
                    } else {
                        "assumed"
                    },
                    mutually_exclusive: None,
                });
            }
        }
        out
    }

    /// The offers as candidates of `t`, each with the entries that map it.
    fn candidates(&self, t: &str) -> Vec<Candidate> {
        self.offers
            .values()
            .map(|o| {
                let mut c = candidate(t, &o.name, o.path.clone(), o.template, o.problem.clone());
                c.mapped_by.clone_from(&o.sites);
                c
            })
            .collect()
    }
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
/// types that annotated templates and environments' entries (`offers`)
/// together offer more than one implementation of.
pub(crate) fn options(
    envs: &[Environment],
    merged: &Merged,
    catalog: &dyn Catalog,
    annotated: &Annotated<'_>,
    offers: &Offers<'_>,
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
        let mut listed = locate(t, &names, from, catalog);
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
        let mut extras = extras;
        if resource.is_none() {
            if let Some(o) = offers.get(t) {
                add_offered(t, o, &mut listed, &mut extras);
            }
        }
        covered.push(t.clone());
        let mut choice = list_choice(
            t,
            resource,
            from,
            entry.origin.span,
            listed,
            extras,
            requires,
        );
        if choice.resource.is_none() {
            choice.conflicts = offers.get(t).map(TypeOffers::conflicts).unwrap_or_default();
        }
        out.push(choice);
    }
    let types = annotated.keys().chain(offers.keys());
    let mut seen: std::collections::HashSet<&str> = std::collections::HashSet::new();
    for t in types {
        if covered.contains(t) || !seen.insert(t.as_str()) {
            continue;
        }
        out.extend(offered_choice(t, envs, merged, catalog, annotated, offers));
    }
    out
}

/// What environments offer for a type a list-valued entry decides: the
/// entry's own candidates learn which entries map them; the others join
/// as `unlisted` extras.
fn add_offered(
    t: &str,
    offered: &TypeOffers<'_>,
    listed: &mut [Candidate],
    extras: &mut Vec<Candidate>,
) {
    for mut c in offered.candidates(t) {
        let same = |x: &Candidate| match (&x.path, &c.path) {
            (Some(p), Some(q)) => same_path(p, q),
            (None, None) => x.name == c.name,
            _ => false,
        };
        if let Some(l) = listed.iter_mut().find(|x| same(x)) {
            l.mapped_by.clone_from(&c.mapped_by);
            continue;
        }
        if extras.iter().any(same) {
            continue;
        }
        c.unlisted = true;
        extras.push(c);
    }
}

/// A type no list-valued entry decides: the templates annotated for it
/// (walk order), then what environments map it to, and the current
/// mapping; a choice when that makes two or more.
fn offered_choice(
    t: &str,
    envs: &[Environment],
    merged: &Merged,
    catalog: &dyn Catalog,
    annotated: &Annotated<'_>,
    offers: &Offers<'_>,
) -> Option<Choice> {
    let mut mapped_to = merged.entries.get(t).and_then(|e| {
        let v = e.node.value.as_str()?;
        Some(if is_template_path(v) {
            catalog.template(&envs[e.origin.env].path, v).display
        } else {
            v.to_owned()
        })
    });
    let offered = offers.get(t);
    let mut candidates: Vec<Candidate> = annotated
        .get(t)
        .into_iter()
        .flatten()
        .map(|(display, template)| {
            candidate(t, display, Some(display.clone()), Some(template), None)
        })
        .collect();
    for c in offered.map(|o| o.candidates(t)).unwrap_or_default() {
        match candidates.iter_mut().find(|d| match (&d.path, &c.path) {
            (Some(p), Some(q)) => same_path(p, q),
            _ => false,
        }) {
            // Declared and mapped: one candidate.
            Some(d) => d.mapped_by = c.mapped_by,
            None => candidates.push(c),
        }
    }
    // A pick the catalog shows otherwise (a TripleO install path read in
    // the tree): the candidate the same environment wrote the same way.
    if let (Some(m), Some(e)) = (&mapped_to, merged.entries.get(t)) {
        let from = &envs[e.origin.env].path;
        let written = e.node.value.as_str();
        let same_entry = |c: &&Candidate| {
            Some(c.name.as_str()) == written && c.mapped_by.iter().any(|s| &s.environment == from)
        };
        if !candidates.iter().any(|c| is_pick(c, m)) {
            if let Some(c) = candidates.iter().find(same_entry) {
                mapped_to = Some(c.path.clone().unwrap_or_else(|| c.name.clone()));
            }
        }
    }
    if let Some(m) = &mapped_to {
        if !candidates.iter().any(|c| is_pick(c, m)) {
            let found = catalog.template("", m);
            candidates.push(if is_template_path(m) {
                candidate(t, m, Some(found.display), found.template, found.problem)
            } else {
                candidate(t, m, None, None, None)
            });
        }
    }
    if candidates.len() < 2 {
        return None;
    }
    let mut choice = mapped_choice(t, mapped_to, candidates);
    choice.conflicts = offered.map(TypeOffers::conflicts).unwrap_or_default();
    Some(choice)
}

/// The candidate that is the current mapping `m` (a path as shown, or a type).
fn is_pick(c: &Candidate, m: &str) -> bool {
    match &c.path {
        Some(p) => same_path(p, m),
        None => c.name == m,
    }
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
        conflicts: Vec::new(),
    }
}

/// A type only annotated templates offer: its current single mapping (if
/// any) is what Heat uses; `requires` does not apply until the environment
/// lists the candidates.
fn mapped_choice(t: &str, mapped_to: Option<String>, candidates: Vec<Candidate>) -> Choice {
    let mut selection = decide(candidates, std::iter::empty());
    for c in &mut selection.candidates {
        c.matches = false;
        // A template only a directory offers; an environment maps the others.
        c.unlisted = c.mapped_by.is_empty();
    }
    selection.chosen = mapped_to.as_ref().and_then(|m| {
        selection
            .candidates
            .iter()
            .find(|c| is_pick(c, m))
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
        conflicts: Vec::new(),
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

impl OptionsReport {
    /// The hook for an environment catalogue (TripleO's
    /// `capabilities-map.yaml`, issue 17.3): `exclusive(a, b)` says whether
    /// the catalogue declares environments `a` and `b` (paths as shown in
    /// the conflict) mutually exclusive, `None` when it does not know them;
    /// each conflict's `mutually_exclusive` takes the answer.
    pub fn set_mutually_exclusive(&mut self, exclusive: impl Fn(&str, &str) -> Option<bool>) {
        for c in self
            .choices
            .iter_mut()
            .flat_map(|ch| ch.conflicts.iter_mut())
        {
            c.mutually_exclusive = exclusive(&c.environments[0], &c.environments[1]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn offers(mappings: &[(&str, usize, bool, &str)]) -> TypeOffers<'static> {
        let mut t = TypeOffers::default();
        for (env, position, given, target) in mappings {
            t.offers.entry((*target).to_owned()).or_insert(Offer {
                name: (*target).to_owned(),
                path: None,
                template: None,
                problem: None,
                sites: Vec::new(),
            });
            t.mappings.push(Mapping {
                environment: (*env).to_owned(),
                position: *position,
                given: *given,
                target: (*target).to_owned(),
                shown: (*target).to_owned(),
            });
        }
        t
    }

    #[test]
    fn conflicts_are_pairs_of_different_targets_the_later_winning() {
        // Found in walk order; `b` and `c` were given, `c` first.
        let t = offers(&[
            ("a.yaml", 2, false, "x.yaml"),
            ("b.yaml", 1, true, "y.yaml"),
            ("c.yaml", 0, true, "x.yaml"),
        ]);
        let got: Vec<_> = t
            .conflicts()
            .into_iter()
            .map(|c| (c.environments, c.wins, c.order, c.mutually_exclusive))
            .collect();
        assert_eq!(
            got,
            [
                (
                    ["c.yaml".to_owned(), "b.yaml".to_owned()],
                    "b.yaml".to_owned(),
                    "given",
                    None
                ),
                (
                    ["b.yaml".to_owned(), "a.yaml".to_owned()],
                    "a.yaml".to_owned(),
                    "assumed",
                    None
                ),
            ]
        );
        let mut report = OptionsReport {
            environments: Vec::new(),
            requires: IndexMap::new(),
            choices: vec![Choice {
                type_name: "OS::A".into(),
                resource: None,
                environment: None,
                span: None,
                mapped_to: None,
                selection: decide(Vec::new(), std::iter::empty()),
                problem: None,
                conflicts: t.conflicts(),
            }],
            diagnostics: Vec::new(),
        };
        report.set_mutually_exclusive(|a, b| (a == "c.yaml").then_some(b == "b.yaml"));
        let marks: Vec<_> = report.choices[0]
            .conflicts
            .iter()
            .map(|c| c.mutually_exclusive)
            .collect();
        assert_eq!(marks, [Some(true), None]);
    }
}
