//! `catalogue`: a tree's capabilities map as tripleo-common's
//! GetCapabilitiesAction returned it (topic title → topic, each
//! environment with `enabled`, and an `Other` topic), plus what it lacked:
//! each entry whose file drifted from the tree (missing, only a Jinja
//! source, not an environment), `enabled` always a boolean, and the
//! tree's environments no topic names. The enabled environments are
//! checked against `requires` and put in an order where each comes after
//! what it requires ([`requirement_order`]).

use std::collections::{HashMap, HashSet};

use indexmap::IndexMap;
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value as J;

use crate::diag::{codes, Diagnostic, Related, Span};
use crate::model::catalogue::Catalogue;

/// What the tree holds under a name the map uses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum FileState {
    /// A Heat environment.
    Environment,
    /// A file that is not an environment (why, in a few words).
    NotEnvironment(String),
    /// No file, but its Jinja source (this name) is there.
    SourceOnly(String),
    /// Nothing.
    Missing,
}

/// How an entry drifted from the tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum DriftKind {
    /// No such file, nor a Jinja source of it.
    Missing,
    /// Only its Jinja source (`x.j2.yaml`) is there: the file exists once
    /// the tree is rendered (tools/process-templates.py).
    SourceOnly,
    /// The file is there but is not a Heat environment.
    NotEnvironment,
}

/// One name of the map that drifted from the tree.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
#[non_exhaustive]
pub struct Drift {
    /// The name, relative to the map's directory.
    pub file: String,
    /// How it drifted.
    pub kind: DriftKind,
    /// The Jinja source, for `source-only`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// For a `requires` item: the environment that requires it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub required_by: Option<String>,
    /// Where the map names it.
    pub span: Span,
}

/// One environment of a topic, as GetCapabilitiesAction returned it.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[non_exhaustive]
pub struct CapabilitiesEnvironment {
    /// The entry's keys as written in the map (`file`, `title`,
    /// `description`, `requires`, ...); for `Other`, the action's own.
    #[serde(flatten)]
    pub written: IndexMap<String, J>,
    /// Whether the plan (or `-e`) enables it: always a boolean (the
    /// action gave `[]` for `Other` entries of a plan without environments).
    pub enabled: bool,
    /// heatcap's: how the file drifted from the tree, when it did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub drift: Option<DriftKind>,
    /// heatcap's: the Jinja source of a `source-only` file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
}

/// One environment group.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[non_exhaustive]
pub struct CapabilitiesGroup {
    /// The group's keys as written (`title`, `description`, `tags`,
    /// `mutually_exclusive`, ...).
    #[serde(flatten)]
    pub written: IndexMap<String, J>,
    /// Its environments.
    pub environments: Vec<CapabilitiesEnvironment>,
    /// heatcap's: whether its environments exclude each other (the key, or
    /// in a map that never writes it, two or more environments).
    pub exclusive: bool,
}

/// One topic.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[non_exhaustive]
pub struct CapabilitiesTopic {
    /// The topic's keys as written (`title`, `description`, ...).
    #[serde(flatten)]
    pub written: IndexMap<String, J>,
    /// Its groups.
    pub environment_groups: Vec<CapabilitiesGroup>,
}

/// `catalogue --format jsonl`: one environment with its topic and group.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[non_exhaustive]
pub struct CatalogueRecord<'a> {
    /// The topic's key (its title, `_title_holder`, or `Other`).
    pub topic: &'a str,
    /// The group's title, when it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
    /// The environment, as in `capabilities`.
    #[serde(flatten)]
    pub environment: &'a CapabilitiesEnvironment,
}

impl CatalogueReport {
    /// Every environment with its topic and group, in order.
    pub fn records(&self) -> Vec<CatalogueRecord<'_>> {
        self.capabilities
            .iter()
            .flat_map(|(t, topic)| {
                topic.environment_groups.iter().flat_map(move |g| {
                    let group = g
                        .written
                        .get("title")
                        .and_then(J::as_str)
                        .map(str::to_owned);
                    g.environments.iter().map(move |e| CatalogueRecord {
                        topic: t,
                        group: group.clone(),
                        environment: e,
                    })
                })
            })
            .collect()
    }
}

/// One enabled environment, in the order given.
#[derive(Debug, Clone)]
pub(crate) struct Enabled {
    /// The path as given.
    pub shown: String,
    /// Its name relative to the map's directory, when it is below it.
    pub name: Option<String>,
    /// Where it is enabled (a plan's entry), when in a file.
    pub at: Option<(String, Span)>,
}

/// `catalogue`'s answer.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
#[non_exhaustive]
pub struct CatalogueReport {
    /// The capabilities map, as given.
    pub map: String,
    /// `root_template` (the 2016 format), when written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub root_template: Option<String>,
    /// `root_environment` (the 2016 format), when written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub root_environment: Option<String>,
    /// GetCapabilitiesAction's answer: topic title → topic (a topic
    /// without title under `_title_holder`, a later topic of the same
    /// title replacing the earlier), then `Other`: one group per
    /// environment of the tree that no topic names.
    pub capabilities: IndexMap<String, CapabilitiesTopic>,
    /// Every name of the map that drifted from the tree, in map order: each
    /// entry's file, and each other file a `requires` names (once, where
    /// first named).
    pub drift: Vec<Drift>,
    /// The enabled environments, as given.
    pub enabled: Vec<String>,
    /// The same, each after every environment it requires (see
    /// docs/cli.md, `catalogue`).
    pub order: Vec<String>,
    /// The map's problems, drift, and the requirement findings.
    pub diagnostics: Vec<Diagnostic>,
}

/// The action's topic key.
fn topic_key(title: Option<&str>) -> String {
    title.unwrap_or("_title_holder").to_owned()
}

/// Builds the report. `state` tells what the tree holds under a name of
/// the map; `tree_environments` are the tree's environment files (names
/// relative to the map's directory, sorted); `enabled` in the order given.
pub(crate) fn report(
    cat: &Catalogue,
    state: &dyn Fn(&str) -> FileState,
    tree_environments: &[String],
    enabled: &[Enabled],
) -> CatalogueReport {
    let mut diagnostics = cat.diagnostics.clone();
    let on: HashSet<&str> = enabled.iter().filter_map(|e| e.name.as_deref()).collect();
    let (drift, found) = drift_of_map(cat, state);
    diagnostics.extend(found);
    let entries: HashSet<&str> = cat
        .environments()
        .map(|(_, _, e)| e.file.as_str())
        .collect();
    let mut capabilities: IndexMap<String, CapabilitiesTopic> = IndexMap::new();
    for topic in &cat.topics {
        let mut groups = Vec::new();
        for g in &topic.groups {
            let mut envs = Vec::new();
            for e in &g.environments {
                let (kind, source) = drift_of(&state(&e.file));
                let mut written = e.written.clone();
                for k in ["enabled", "drift", "source"] {
                    written.shift_remove(k);
                }
                envs.push(CapabilitiesEnvironment {
                    written,
                    enabled: on.contains(e.file.as_str()),
                    drift: kind,
                    source,
                });
            }
            groups.push(CapabilitiesGroup {
                written: g.written.clone(),
                environments: envs,
                exclusive: cat.group_exclusive(g),
            });
        }
        let mut written = topic.written.clone();
        written.shift_remove("environment_groups");
        capabilities.insert(
            topic_key(topic.title.as_deref()),
            CapabilitiesTopic {
                written,
                environment_groups: groups,
            },
        );
    }
    let other_groups = tree_environments
        .iter()
        .filter(|f| !entries.contains(f.as_str()))
        .map(|f| {
            let env = CapabilitiesEnvironment {
                written: IndexMap::from([
                    (
                        "description".to_owned(),
                        J::from(format!("Enable {f} environment")),
                    ),
                    ("file".to_owned(), J::from(f.as_str())),
                    ("title".to_owned(), J::from(f.as_str())),
                ]),
                enabled: on.contains(f.as_str()),
                drift: None,
                source: None,
            };
            CapabilitiesGroup {
                written: IndexMap::from([
                    ("description".to_owned(), J::Null),
                    ("title".to_owned(), J::from(f.as_str())),
                ]),
                environments: vec![env],
                exclusive: false,
            }
        })
        .collect();
    capabilities.insert(
        "Other".to_owned(),
        CapabilitiesTopic {
            written: IndexMap::from([
                ("description".to_owned(), J::Null),
                ("title".to_owned(), J::from("Other")),
            ]),
            environment_groups: other_groups,
        },
    );
    let (order, found) = requirement_order(cat, enabled);
    diagnostics.extend(found);
    CatalogueReport {
        map: cat.path.clone(),
        root_template: cat.root_template.clone(),
        root_environment: cat.root_environment.clone(),
        capabilities,
        drift,
        enabled: enabled.iter().map(|e| e.shown.clone()).collect(),
        order: order
            .into_iter()
            .map(|i| enabled[i].shown.clone())
            .collect(),
        diagnostics,
    }
}

/// Every name of the map that drifted, with its finding: each entry's
/// file, and each other name a `requires` gives (once, where first named;
/// a name the map lists is flagged at its entry).
fn drift_of_map(
    cat: &Catalogue,
    state: &dyn Fn(&str) -> FileState,
) -> (Vec<Drift>, Vec<Diagnostic>) {
    let entries: HashSet<&str> = cat
        .environments()
        .map(|(_, _, e)| e.file.as_str())
        .collect();
    let mut seen: HashSet<&str> = HashSet::new();
    let mut drift = Vec::new();
    let mut diagnostics = Vec::new();
    for (_, _, e) in cat.environments() {
        let named = std::iter::once((&e.file, e.span, None)).chain(
            e.requires
                .iter()
                .filter(|(r, _)| !entries.contains(r.as_str()))
                .map(|(r, span)| (r, *span, Some(e.file.clone()))),
        );
        for (file, span, required_by) in named {
            let (Some(kind), source) = drift_of(&state(file)) else {
                continue;
            };
            if !seen.insert(file.as_str()) {
                continue;
            }
            diagnostics.push(drift_diagnostic(
                cat,
                file,
                kind,
                source.as_deref(),
                required_by.as_deref(),
                span,
            ));
            drift.push(Drift {
                file: file.clone(),
                kind,
                source,
                required_by,
                span,
            });
        }
    }
    (drift, diagnostics)
}

fn drift_of(s: &FileState) -> (Option<DriftKind>, Option<String>) {
    match s {
        FileState::Environment => (None, None),
        FileState::NotEnvironment(_) => (Some(DriftKind::NotEnvironment), None),
        FileState::SourceOnly(src) => (Some(DriftKind::SourceOnly), Some(src.clone())),
        FileState::Missing => (Some(DriftKind::Missing), None),
    }
}

fn drift_diagnostic(
    cat: &Catalogue,
    file: &str,
    kind: DriftKind,
    source: Option<&str>,
    required_by: Option<&str>,
    span: Span,
) -> Diagnostic {
    let what = match required_by {
        Some(by) => format!("`{file}`, which `{by}` requires,"),
        None => format!("`{file}`"),
    };
    let message = match kind {
        DriftKind::Missing => format!("{what} does not exist in the tree (drift: missing)"),
        DriftKind::SourceOnly => format!(
            "{what} exists only as its Jinja source `{}`: render the tree to have it (drift: source-only)",
            source.unwrap_or_default()
        ),
        DriftKind::NotEnvironment => format!("{what} is not a Heat environment (drift: not-environment)"),
    };
    Diagnostic::new(codes::CATALOGUE_DRIFT, &cat.path, message).at(span)
}

/// The enabled environments (indices into `enabled`) in an order where
/// each comes after every enabled environment the catalogue says it
/// requires, with the findings: an environment enabled without one it
/// requires (E9003), requirements in a cycle (E9004), an environment
/// given before one it requires (W9007), and two environments the
/// catalogue declares mutually exclusive (W9008).
///
/// The order is stable and deterministic: environments the map lists
/// are taken in the order given, each preceded (depth first, in the order
/// its `requires` lists them) by the enabled environments it requires and
/// not yet placed; environments the map does not list follow, in the
/// order given (tripleo-common's intent since `936a599a`: custom
/// environments override the catalogue's). A cycle is reported and broken
/// at the requirement that closes it.
pub(crate) fn requirement_order(
    cat: &Catalogue,
    enabled: &[Enabled],
) -> (Vec<usize>, Vec<Diagnostic>) {
    let mut diagnostics = Vec::new();
    let mut index: HashMap<&str, usize> = HashMap::new();
    for (i, e) in enabled.iter().enumerate() {
        if let Some(n) = &e.name {
            index.entry(n.as_str()).or_insert(i);
        }
    }
    let related = |e: &Enabled| {
        e.at.as_ref().map(|(file, span)| Related {
            file: file.clone(),
            span: Some(*span),
            message: format!("`{}` is enabled here", e.shown),
        })
    };
    // Requirements that are not enabled.
    for e in enabled {
        let Some(entry) = e.name.as_deref().and_then(|n| cat.entry(n)) else {
            continue;
        };
        for (r, span) in &entry.requires {
            if !index.contains_key(r.as_str()) {
                let mut d = Diagnostic::new(
                    codes::REQUIREMENT_MISSING,
                    &cat.path,
                    format!(
                        "`{}` is enabled without `{r}`, which it requires",
                        entry.file
                    ),
                )
                .at(*span);
                if let Some(rel) = related(e) {
                    d = d.with_related(rel);
                }
                diagnostics.push(d);
            }
        }
    }
    // Given before a requirement.
    for (i, e) in enabled.iter().enumerate() {
        let Some(entry) = e.name.as_deref().and_then(|n| cat.entry(n)) else {
            continue;
        };
        for (r, span) in &entry.requires {
            if let Some(&j) = index.get(r.as_str()) {
                if j > i {
                    let mut d = Diagnostic::new(
                        codes::REQUIREMENT_AFTER,
                        &cat.path,
                        format!(
                            "`{}` is merged before `{r}`, which it requires, so `{r}`'s values win; give `{r}` first",
                            entry.file
                        ),
                    )
                    .at(*span);
                    if let Some(rel) = related(e) {
                        d = d.with_related(rel);
                    }
                    diagnostics.push(d);
                }
            }
        }
    }
    diagnostics.extend(exclusive_pairs(cat, enabled));
    let mapped = |i: usize| enabled[i].name.as_deref().and_then(|n| cat.entry(n));
    let mut order = Vec::with_capacity(enabled.len());
    let mut state = vec![0u8; enabled.len()]; // 0 new, 1 on the path, 2 placed
    let mut path: Vec<usize> = Vec::new();
    let mut reported: HashSet<Vec<usize>> = HashSet::new();
    for i in 0..enabled.len() {
        if mapped(i).is_some() {
            visit(
                i,
                &mut Visit {
                    cat,
                    enabled,
                    index: &index,
                    state: &mut state,
                    path: &mut path,
                    order: &mut order,
                    reported: &mut reported,
                    diagnostics: &mut diagnostics,
                },
            );
        }
    }
    order.extend((0..enabled.len()).filter(|&i| state[i] != 2));
    (order, diagnostics)
}

/// Two enabled environments the catalogue declares mutually exclusive
/// (W9008), reported at the later one's entry in the map.
fn exclusive_pairs(cat: &Catalogue, enabled: &[Enabled]) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for (j, later) in enabled.iter().enumerate() {
        let Some(b) = later.name.as_deref() else {
            continue;
        };
        for earlier in &enabled[..j] {
            let Some(a) = earlier.name.as_deref() else {
                continue;
            };
            if cat.mutually_exclusive(a, b) {
                let span = cat.entry(b).map(|e| e.span);
                let mut d = Diagnostic::new(
                    codes::EXCLUSIVE_ENABLED,
                    &cat.path,
                    format!("`{a}` and `{b}` are both enabled, but the catalogue declares them mutually exclusive; `{b}`, merged later, wins"),
                );
                if let Some(s) = span {
                    d = d.at(s);
                }
                out.push(d);
            }
        }
    }
    out
}

/// The depth-first walk's state.
struct Visit<'a> {
    cat: &'a Catalogue,
    enabled: &'a [Enabled],
    index: &'a HashMap<&'a str, usize>,
    state: &'a mut Vec<u8>,
    path: &'a mut Vec<usize>,
    order: &'a mut Vec<usize>,
    reported: &'a mut HashSet<Vec<usize>>,
    diagnostics: &'a mut Vec<Diagnostic>,
}

fn visit(i: usize, v: &mut Visit<'_>) {
    if v.state[i] != 0 {
        return;
    }
    v.state[i] = 1;
    v.path.push(i);
    let entry = v.enabled[i].name.as_deref().and_then(|n| v.cat.entry(n));
    for (r, span) in entry.map(|e| e.requires.as_slice()).unwrap_or_default() {
        let Some(&j) = v.index.get(r.as_str()) else {
            continue;
        };
        match v.state[j] {
            0 => visit(j, v),
            1 => {
                let from = v.path.iter().position(|&p| p == j).unwrap_or(0);
                let cycle: Vec<usize> = v.path[from..].to_vec();
                let mut key = cycle.clone();
                key.sort_unstable();
                if v.reported.insert(key) {
                    let names: Vec<String> = cycle
                        .iter()
                        .chain(std::iter::once(&j))
                        .map(|&k| format!("`{}`", v.enabled[k].name.as_deref().unwrap_or_default()))
                        .collect();
                    v.diagnostics.push(
                        Diagnostic::new(
                            codes::REQUIREMENT_CYCLE,
                            &v.cat.path,
                            format!(
                                "requirements in a cycle: {}; the order breaks it here",
                                names.join(" requires ")
                            ),
                        )
                        .at(*span),
                    );
                }
            }
            _ => {}
        }
    }
    v.path.pop();
    v.state[i] = 2;
    v.order.push(i);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `a` requires `base`, `b` requires `a`: the map of
    /// ../shared/docs/tripleo-plans.md §4.3.
    const MAP: &str = "topics:\n- title: T\n  environment_groups:\n  - environments:\n    - {file: base.yaml}\n  - environments:\n    - {file: a.yaml, requires: [base.yaml]}\n  - environments:\n    - {file: b.yaml, requires: [a.yaml]}\n";

    fn enabled(names: &[&str]) -> Vec<Enabled> {
        names
            .iter()
            .map(|n| Enabled {
                shown: (*n).to_owned(),
                name: Some((*n).to_owned()),
                at: None,
            })
            .collect()
    }

    fn order(map: &str, names: &[&str]) -> (Vec<String>, Vec<Diagnostic>) {
        let cat = Catalogue::parse(map, "capabilities-map.yaml");
        let given = enabled(names);
        let (o, d) = requirement_order(&cat, &given);
        (o.into_iter().map(|i| given[i].shown.clone()).collect(), d)
    }

    /// tripleo-common `936a599a` apply_environments_order gave
    /// `b, base, a, custom` (it skips `b` after removing `custom` while
    /// iterating, so `b` stays before `a`).
    #[test]
    fn an_unmapped_environment_first_does_not_hide_the_next() {
        let (o, d) = order(MAP, &["custom.yaml", "b.yaml", "a.yaml", "base.yaml"]);
        assert_eq!(o, ["base.yaml", "a.yaml", "b.yaml", "custom.yaml"]);
        assert!(d.iter().all(|d| d.code == codes::REQUIREMENT_AFTER));
        assert_eq!(d.len(), 2);
    }

    /// tripleo-common gave `a, b, base`: one pass left `a` before `base`.
    #[test]
    fn requirements_of_requirements_come_first() {
        let (o, _) = order(MAP, &["b.yaml", "a.yaml", "base.yaml"]);
        assert_eq!(o, ["base.yaml", "a.yaml", "b.yaml"]);
    }

    /// tripleo-common gave `c2, base, c1`: the second unmapped file was
    /// skipped, so not moved to the end.
    #[test]
    fn every_unmapped_environment_follows_in_the_order_given() {
        let (o, d) = order(MAP, &["c1.yaml", "c2.yaml", "base.yaml"]);
        assert_eq!(o, ["base.yaml", "c1.yaml", "c2.yaml"]);
        assert!(d.is_empty());
    }

    #[test]
    fn an_order_that_is_right_stays() {
        let (o, d) = order(MAP, &["base.yaml", "x.yaml", "a.yaml", "b.yaml"]);
        assert_eq!(o, ["base.yaml", "a.yaml", "b.yaml", "x.yaml"]);
        assert!(d.is_empty());
    }

    #[test]
    fn two_exclusive_environments_enabled_are_named() {
        let map = "topics:\n- environment_groups:\n  - mutually_exclusive: true\n    environments:\n    - {file: v4.yaml}\n    - {file: v6.yaml}\n";
        let (_, d) = order(map, &["v6.yaml", "x.yaml", "v4.yaml"]);
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].code, codes::EXCLUSIVE_ENABLED);
        assert_eq!(
            d[0].message,
            "`v6.yaml` and `v4.yaml` are both enabled, but the catalogue declares them mutually exclusive; `v4.yaml`, merged later, wins"
        );
        assert_eq!(d[0].span.unwrap().start.line, 5);
    }

    #[test]
    fn a_missing_requirement_names_both() {
        let (o, d) = order(MAP, &["b.yaml"]);
        assert_eq!(o, ["b.yaml"]);
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].code, codes::REQUIREMENT_MISSING);
        assert_eq!(
            d[0].message,
            "`b.yaml` is enabled without `a.yaml`, which it requires"
        );
        assert_eq!(d[0].span.unwrap().start.line, 9);
    }

    #[test]
    fn a_cycle_is_reported_once_and_broken_where_it_closes() {
        let map = "topics:\n- environment_groups:\n  - environments:\n    - {file: x.yaml, requires: [y.yaml]}\n    - {file: y.yaml, requires: [z.yaml]}\n    - {file: z.yaml, requires: [x.yaml]}\n";
        let (o, d) = order(map, &["y.yaml", "x.yaml", "z.yaml"]);
        assert_eq!(o, ["x.yaml", "z.yaml", "y.yaml"]);
        let cycles: Vec<&Diagnostic> = d
            .iter()
            .filter(|d| d.code == codes::REQUIREMENT_CYCLE)
            .collect();
        assert_eq!(cycles.len(), 1);
        assert_eq!(
            cycles[0].message,
            "requirements in a cycle: `y.yaml` requires `z.yaml` requires `x.yaml` requires `y.yaml`; the order breaks it here"
        );
        // The same input twice gives the same answer.
        assert_eq!(order(map, &["y.yaml", "x.yaml", "z.yaml"]).0, o);
    }

    #[test]
    fn the_report_keeps_the_action_shape_and_flags_drift() {
        let cat = Catalogue::parse(
            "topics:\n- title: T\n  description: d\n  environment_groups:\n  - title: G\n    environments:\n    - {file: ok.yaml, title: OK}\n    - {file: gone.yaml, title: Gone, requires: [src.yaml]}\n",
            "capabilities-map.yaml",
        );
        let state = |f: &str| match f {
            "ok.yaml" | "extra.yaml" => FileState::Environment,
            "src.yaml" => FileState::SourceOnly("src.j2.yaml".into()),
            _ => FileState::Missing,
        };
        let r = report(
            &cat,
            &state,
            &["extra.yaml".into(), "ok.yaml".into()],
            &enabled(&["ok.yaml"]),
        );
        let j = serde_json::to_value(&r.capabilities).unwrap();
        assert_eq!(
            j,
            serde_json::json!({
                "T": {"title": "T", "description": "d", "environment_groups": [
                    {"title": "G", "exclusive": true, "environments": [
                        {"file": "ok.yaml", "title": "OK", "enabled": true},
                        {"file": "gone.yaml", "title": "Gone", "requires": ["src.yaml"], "enabled": false, "drift": "missing"}
                    ]}
                ]},
                "Other": {"description": null, "title": "Other", "environment_groups": [
                    {"description": null, "title": "extra.yaml", "exclusive": false, "environments": [
                        {"description": "Enable extra.yaml environment", "file": "extra.yaml", "title": "extra.yaml", "enabled": false}
                    ]}
                ]}
            })
        );
        let kinds: Vec<(&str, DriftKind)> =
            r.drift.iter().map(|d| (d.file.as_str(), d.kind)).collect();
        assert_eq!(
            kinds,
            [
                ("gone.yaml", DriftKind::Missing),
                ("src.yaml", DriftKind::SourceOnly)
            ]
        );
        assert_eq!(
            r.diagnostics
                .iter()
                .filter(|d| d.code == codes::CATALOGUE_DRIFT)
                .count(),
            2
        );
    }
}
