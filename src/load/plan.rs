//! TripleO plan environments (`plan-environment.yaml`): the root template
//! and the ordered environment list tripleo-common built from one
//! (`plan_utils.build_env_paths`, 2018-04 to 2021-03):
//!
//! 1. each `environments[]` entry with a truthy `path`, in list order,
//!    relative to the plan's directory (the plan container's root);
//! 2. each entry with a truthy `data` (and no `path`), in list order,
//!    after every `path` one (since tripleo-common `5c77d516`);
//! 3. when not empty, one environment of `parameter_defaults`: `passwords`
//!    then `derived_parameters` (Python's shallow `dict.update`), then the
//!    plan's `parameter_defaults` (python-heatclient's `deep_update`: user
//!    values win, nested maps merge);
//! 4. when not empty, one environment of the plan's `resource_registry`.
//!
//! The generated environments are no files: each is addressed as a *part*
//! of the plan, `PLAN#environments[N]`, `PLAN#parameter_defaults` and
//! `PLAN#resource_registry`, which the loader reads from the plan itself
//! (so every stage that reads environments by path reads them unchanged),
//! and whose nodes keep their positions in the plan file.

use std::path::Path;

use crate::diag::{codes, Diagnostic, Span};
use crate::node::{Mapping, Node, Value};

/// The part of a plan that holds its merged `parameter_defaults`.
pub(crate) const PARAMETER_DEFAULTS: &str = "parameter_defaults";
/// The part of a plan that holds its own `resource_registry`.
pub(crate) const RESOURCE_REGISTRY: &str = "resource_registry";

/// One environment of a plan's list, in tripleo-common's order.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PlanEnvironment {
    /// The path to load: a file (the entry's `path` joined with the
    /// plan's directory) or a part of the plan (`PLAN#...`).
    pub path: String,
    /// Where the plan names it (the entry, or the section).
    pub span: Span,
    /// The entry's `path` as written (a file), or `None` (a part).
    pub written: Option<String>,
}

/// A plan environment read: the root template, the environment list, and
/// what is wrong with the plan.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub(crate) struct Plan {
    /// The plan file as given.
    pub path: String,
    /// Its `name` and `description` (tripleo-ui showed them), when text.
    pub name: Option<String>,
    pub description: Option<String>,
    /// `template`, joined with the plan's directory, and where it is
    /// written.
    pub template: Option<(String, Span)>,
    /// The environments in the order tripleo-common gave them to Heat.
    pub environments: Vec<PlanEnvironment>,
    /// Problems with the plan: an error where tripleo-common would fail,
    /// a warning where it silently drops something.
    pub diagnostics: Vec<Diagnostic>,
    /// The plan's own `parameter_defaults` as written (JSON `null` when
    /// absent): what tripleo-common's `validate_stack_and_flatten_parameters`
    /// answers as `environment_parameters` (`env.get('parameter_defaults')`
    /// of the plan environment as stored; neither its environments' nor its
    /// `passwords` and `derived_parameters`).
    pub own_parameter_defaults: serde_json::Value,
}

/// Whether a document has a plan environment's shape: a mapping with a
/// `template` and an `environments` list (tripleo-common's
/// `plan-environment.yaml`). Heat never reads one as an environment.
pub(crate) fn is_plan(root: &Node) -> bool {
    root.as_map().is_some_and(|map| {
        map.contains_key("template")
            && map
                .get("environments")
                .is_some_and(|e| e.as_seq().is_some())
    })
}

/// A path's plan part: `(plan file, part)` when the path is `FILE#PART`.
pub(crate) fn split_part(path: &Path) -> Option<(&str, &str)> {
    let s = path.to_str()?;
    let (plan, part) = s.rsplit_once('#')?;
    let known =
        part == PARAMETER_DEFAULTS || part == RESOURCE_REGISTRY || data_index(part).is_some();
    (known && !plan.is_empty()).then_some((plan, part))
}

/// The file a part is written to by `export`, beside the plan: the plan's
/// name without its extension, the part, `.json` (tripleo-common wrote
/// each as a JSON temporary file): `plan-environment.parameter_defaults.json`,
/// `plan-environment.environments-0.json`.
pub(crate) fn part_file(plan: &Path, part: &str) -> std::path::PathBuf {
    let stem = plan
        .file_stem()
        .map_or_else(|| "plan".into(), |s| s.to_string_lossy());
    let part = part.replace('[', "-").replace(']', "");
    plan.with_file_name(format!("{stem}.{part}.json"))
}

/// `environments[N]` → N.
fn data_index(part: &str) -> Option<usize> {
    part.strip_prefix("environments[")?
        .strip_suffix(']')?
        .parse()
        .ok()
}

/// Python's truth of a loaded value.
fn truthy(v: &Value) -> bool {
    match v {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Int(i) => *i != 0,
        Value::BigInt(_) => true,
        Value::Float(f) => *f != 0.0,
        Value::Str(s) => !s.is_empty(),
        Value::Seq(s) => !s.is_empty(),
        Value::Map(m) => !m.is_empty(),
    }
}

/// A path relative to the plan's directory, as shown.
fn beside(plan: &str, rel: &str) -> String {
    match Path::new(plan).parent() {
        Some(dir) if !dir.as_os_str().is_empty() && !rel.starts_with('/') => {
            format!("{}/{rel}", crate::walk::display(dir))
        }
        _ => rel.to_owned(),
    }
}

impl Plan {
    /// Reads a plan document (`path` as given).
    pub(crate) fn from_node(path: &str, root: &Node) -> Plan {
        let mut plan = Plan {
            path: path.to_owned(),
            ..Plan::default()
        };
        let Some(map) = root.as_map() else {
            plan.error(
                root.span,
                format!(
                    "the plan is {}, not a mapping; tripleo-common cannot read it",
                    root.value.kind_name()
                ),
            );
            return plan;
        };
        let text = |k: &str| map.get(k).and_then(Node::as_str).map(str::to_owned);
        plan.name = text("name");
        plan.description = text("description");
        match map.entry("template") {
            Some((_, v)) => match v.as_str() {
                Some(t) if !t.is_empty() => plan.template = Some((beside(path, t), v.span)),
                _ => plan.error(
                    v.span,
                    "`template` is not a file name: tripleo-common would fetch the container itself as the root template",
                ),
            },
            None => plan.warn(
                root.span,
                "the plan names no `template`: tripleo-common would fetch the container itself as the root template (give -t)",
            ),
        }
        let mut data = Vec::new();
        match map.get("environments") {
            None => {}
            Some(n) => match n.as_seq() {
                Some(items) => {
                    for (i, item) in items.iter().enumerate() {
                        plan.entry(i, item, &mut data);
                    }
                }
                None if n.value == Value::Null => {}
                None => plan.error(
                    n.span,
                    format!(
                        "`environments` is {}, not a list; tripleo-common cannot iterate it",
                        n.value.kind_name()
                    ),
                ),
            },
        }
        plan.environments.extend(data);
        plan.own_parameter_defaults = map
            .get(PARAMETER_DEFAULTS)
            .map_or(serde_json::Value::Null, |n| n.value.to_json());
        let (merged, span) = parameter_defaults(path, map, &mut plan.diagnostics);
        if !merged.is_empty() {
            plan.environments.push(PlanEnvironment {
                path: format!("{path}#{PARAMETER_DEFAULTS}"),
                span,
                written: None,
            });
        }
        if let Some((k, v)) = map.entry(RESOURCE_REGISTRY) {
            if truthy(&v.value) {
                plan.environments.push(PlanEnvironment {
                    path: format!("{path}#{RESOURCE_REGISTRY}"),
                    span: k.span,
                    written: None,
                });
            }
        }
        plan
    }

    /// One `environments[]` item: a path (listed now), a data environment
    /// (held back in `data`), or what tripleo-common drops or fails on.
    fn entry(&mut self, i: usize, item: &Node, data: &mut Vec<PlanEnvironment>) {
        let Some(m) = item.as_map() else {
            self.error(
                item.span,
                format!(
                    "`environments[{i}]` is {}, not a mapping with `path` or `data`; tripleo-common fails on it",
                    item.value.kind_name()
                ),
            );
            return;
        };
        if let Some(p) = m.get("path").filter(|p| truthy(&p.value)) {
            match p.as_str() {
                Some(rel) => self.environments.push(PlanEnvironment {
                    path: beside(&self.path, rel),
                    span: p.span,
                    written: Some(rel.to_owned()),
                }),
                None => self.error(
                    p.span,
                    format!(
                        "`environments[{i}].path` is {}, not a file name; tripleo-common fails on it",
                        p.value.kind_name()
                    ),
                ),
            }
        } else if let Some(d) = m.get("data").filter(|d| truthy(&d.value)) {
            data.push(PlanEnvironment {
                path: format!("{}#environments[{i}]", self.path),
                span: d.span,
                written: None,
            });
        } else {
            self.warn(
                item.span,
                format!("`environments[{i}]` has neither a `path` nor a `data` that is not empty; tripleo-common leaves it out"),
            );
        }
    }

    fn error(&mut self, span: Span, message: impl Into<String>) {
        self.diagnostics
            .push(Diagnostic::new(codes::PLAN_INVALID, &self.path, message).at(span));
    }

    fn warn(&mut self, span: Span, message: impl Into<String>) {
        self.diagnostics
            .push(Diagnostic::new(codes::PLAN_ENTRY_DROPPED, &self.path, message).at(span));
    }
}

/// The environment document a plan part stands for (`{parameter_defaults:
/// ...}`, `{resource_registry: ...}` or an entry's `data`), its nodes at
/// their places in the plan, with the problems building it met.
pub(crate) fn part(plan_path: &str, root: &Node, part: &str) -> (Option<Node>, Vec<Diagnostic>) {
    let mut diagnostics = Vec::new();
    let Some(map) = root.as_map() else {
        return (None, diagnostics);
    };
    if let Some(i) = data_index(part) {
        let data = map
            .get("environments")
            .and_then(Node::as_seq)
            .and_then(|items| items.get(i))
            .and_then(Node::as_map)
            .and_then(|m| m.get("data"))
            .cloned();
        return (data, diagnostics);
    }
    let (key_span, value) = if part == PARAMETER_DEFAULTS {
        let (merged, span) = parameter_defaults(plan_path, map, &mut diagnostics);
        (span, Node::new(Value::Map(merged), span))
    } else {
        match map.entry(RESOURCE_REGISTRY) {
            Some((k, v)) => (k.span, v.clone()),
            None => return (None, diagnostics),
        }
    };
    let key = Node::new(Value::Str(part.into()), key_span);
    let doc = Node::new(
        Value::Map(Mapping::from_entries(vec![(key, value)])),
        key_span,
    );
    (Some(doc), diagnostics)
}

/// The merged `parameter_defaults` (passwords, then derived parameters,
/// then the user's values deep-merged), and where the section is written.
fn parameter_defaults(
    path: &str,
    map: &Mapping,
    diagnostics: &mut Vec<Diagnostic>,
) -> (Mapping, Span) {
    let mut merged: Vec<(Node, Node)> = Vec::new();
    let mut span = None;
    for section in ["passwords", "derived_parameters"] {
        let Some((k, v)) = map.entry(section) else {
            continue;
        };
        span.get_or_insert(k.span);
        match v.as_map() {
            Some(m) => {
                for (key, value) in &m.entries {
                    set(&mut merged, key.clone(), value.clone());
                }
            }
            None => diagnostics.push(
                Diagnostic::new(
                    codes::PLAN_INVALID,
                    path,
                    format!(
                        "`{section}` is {}, not a mapping; tripleo-common's `dict.update` fails on it",
                        v.value.kind_name()
                    ),
                )
                .at(v.span),
            ),
        }
    }
    if let Some((k, v)) = map.entry(PARAMETER_DEFAULTS) {
        span = Some(k.span);
        match v.as_map() {
            Some(m) => deep_update(path, &mut merged, m, diagnostics),
            None => diagnostics.push(
                Diagnostic::new(
                    codes::PLAN_INVALID,
                    path,
                    format!(
                        "`parameter_defaults` is {}, not a mapping; python-heatclient's `deep_update` fails on it",
                        v.value.kind_name()
                    ),
                )
                .at(v.span),
            ),
        }
    }
    (
        Mapping::from_entries(merged),
        span.unwrap_or_else(|| Span::point(1, 1)),
    )
}

/// `old[key] = value` as a Python dict does it: a key already there keeps
/// its place (its value, and the key's position, are the new ones).
fn set(entries: &mut Vec<(Node, Node)>, key: Node, value: Node) {
    match entries
        .iter_mut()
        .find(|(k, _)| k.value.same_key(&key.value))
    {
        Some(slot) => *slot = (key, value),
        None => entries.push((key, value)),
    }
}

/// python-heatclient's `template_utils.deep_update(old, new)` on nodes: a
/// mapping merges into the mapping (or null, or absent) it meets; a null
/// does not replace a mapping; anything else replaces. Where the Python
/// fails (a mapping with keys meets a value that is neither a mapping nor
/// null: `'str' object has no attribute 'get'`), the new value is taken
/// and the failure reported.
fn deep_update(
    path: &str,
    old: &mut Vec<(Node, Node)>,
    new: &Mapping,
    diagnostics: &mut Vec<Diagnostic>,
) {
    for (k, v) in &new.entries {
        let at = old.iter().position(|(ok, _)| ok.value.same_key(&k.value));
        match &v.value {
            Value::Map(vm) => {
                let before = at.map(|i| old[i].1.clone());
                let merged = match before {
                    None
                    | Some(Node {
                        value: Value::Null, ..
                    }) => Some(Vec::new()),
                    Some(Node {
                        value: Value::Map(om),
                        ..
                    }) => Some(om.entries),
                    // An empty mapping leaves the old value as it is.
                    Some(_) if vm.is_empty() => None,
                    Some(other) => {
                        diagnostics.push(
                            Diagnostic::new(
                                codes::PLAN_INVALID,
                                path,
                                format!(
                                    "`{}` merges a mapping into {}: python-heatclient's `deep_update` fails here (no attribute 'get'); the mapping is taken",
                                    k.value.key_text(),
                                    other.value.kind_name()
                                ),
                            )
                            .at(k.span),
                        );
                        Some(Vec::new())
                    }
                };
                if let Some(mut entries) = merged {
                    deep_update(path, &mut entries, vm, diagnostics);
                    let node = Node::new(Value::Map(Mapping::from_entries(entries)), v.span);
                    set(old, k.clone(), node);
                }
            }
            Value::Null if at.is_some_and(|i| old[i].1.as_map().is_some()) => {}
            _ => set(old, k.clone(), v.clone()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::{parse_text, ParseOptions};

    fn plan(text: &str) -> Plan {
        let root = parse_text(text, "p/plan.yaml", &ParseOptions::default())
            .root
            .expect("parses");
        Plan::from_node("p/plan.yaml", &root)
    }

    fn merged(text: &str) -> (serde_json::Value, Vec<Diagnostic>) {
        let root = parse_text(text, "p/plan.yaml", &ParseOptions::default())
            .root
            .expect("parses");
        let (doc, d) = part("p/plan.yaml", &root, PARAMETER_DEFAULTS);
        (doc.expect("a part").value.to_json(), d)
    }

    #[test]
    fn paths_come_first_then_data_then_parameters_then_registry() {
        let p = plan(
            "template: overcloud.yaml\nenvironments:\n- data: {parameter_defaults: {A: 1}}\n- path: envs/a.yaml\n- {path: '', data: {}}\n- path: b.yaml\nparameter_defaults: {X: 1}\nresource_registry: {OS::T: t.yaml}\n",
        );
        let got: Vec<&str> = p.environments.iter().map(|e| e.path.as_str()).collect();
        assert_eq!(
            got,
            [
                "p/envs/a.yaml",
                "p/b.yaml",
                "p/plan.yaml#environments[0]",
                "p/plan.yaml#parameter_defaults",
                "p/plan.yaml#resource_registry"
            ]
        );
        assert_eq!(p.template.as_ref().unwrap().0, "p/overcloud.yaml");
        // The entry with an empty path and empty data is dropped, as
        // tripleo-common drops it, with a warning at its line.
        assert_eq!(p.diagnostics.len(), 1);
        assert_eq!(p.diagnostics[0].code, codes::PLAN_ENTRY_DROPPED);
        assert_eq!(p.diagnostics[0].span.unwrap().start.line, 5);
    }

    /// A plan's shape (tripleo-common's plan-environment.yaml): a
    /// `template` and an `environments` list; its name and description.
    #[test]
    fn the_shape_of_a_plan() {
        let shaped = |t: &str| {
            let root = parse_text(t, "p.yaml", &ParseOptions::default())
                .root
                .expect("parses");
            is_plan(&root)
        };
        assert!(shaped("template: o.yaml\nenvironments: []\n"));
        assert!(shaped(
            "version: 1.0\nname: overcloud\ntemplate: o.yaml\nenvironments: [{path: a.yaml}]\n"
        ));
        assert!(!shaped("template: o.yaml\nenvironments: a.yaml\n"));
        assert!(!shaped("environments: []\nparameter_defaults: {}\n"));
        assert!(!shaped("resource_registry: {}\n"));
        assert!(!shaped("- template\n"));
        let p =
            plan("name: overcloud\ndescription: The default\ntemplate: o.yaml\nenvironments: []\n");
        assert_eq!(p.name.as_deref(), Some("overcloud"));
        assert_eq!(p.description.as_deref(), Some("The default"));
        assert_eq!(plan("template: o.yaml\nname: [x]\n").name, None);
    }

    #[test]
    fn empty_sections_add_no_environment() {
        let p = plan("template: t.yaml\nenvironments: []\nparameter_defaults: {}\nresource_registry: {}\npasswords: {}\n");
        assert!(p.environments.is_empty());
        assert!(p.diagnostics.is_empty());
    }

    /// tripleo-common's `environment_parameters`: the plan's own section
    /// as written, none of the merged passwords and derived values.
    #[test]
    fn own_parameter_defaults_as_written() {
        let p = plan(
            "template: t.yaml\npasswords: {A: p}\nderived_parameters: {T: {a: 1}}\nparameter_defaults: {T: {b: 2}, U: 3}\n",
        );
        assert_eq!(
            p.own_parameter_defaults,
            serde_json::json!({"T": {"b": 2}, "U": 3})
        );
        assert_eq!(
            plan("template: t.yaml\npasswords: {A: p}\n").own_parameter_defaults,
            serde_json::Value::Null
        );
    }

    #[test]
    fn passwords_then_derived_then_user_values_deep_merged() {
        let (v, d) = merged(
            "passwords: {AdminPassword: p1, Other: o}\nderived_parameters: {AdminPassword: d1, Map: {a: 1, b: 2}, N: ~}\nparameter_defaults: {AdminPassword: u1, Map: {b: 3, c: 4}, N: {x: 1}}\n",
        );
        assert!(d.is_empty());
        assert_eq!(
            v,
            serde_json::json!({"parameter_defaults": {
                "AdminPassword": "u1", "Other": "o", "Map": {"a": 1, "b": 3, "c": 4}, "N": {"x": 1}
            }})
        );
    }

    #[test]
    fn a_null_does_not_replace_a_mapping_and_a_string_cannot_take_one() {
        let (v, d) = merged(
            "derived_parameters: {M: {a: 1}, S: text, E: text}\nparameter_defaults: {M: null, S: {k: v}, E: {}}\n",
        );
        assert_eq!(
            v,
            serde_json::json!({"parameter_defaults": {"M": {"a": 1}, "S": {"k": "v"}, "E": "text"}})
        );
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].code, codes::PLAN_INVALID);
        assert_eq!(d[0].span.unwrap().start.line, 2);
    }

    #[test]
    fn merged_values_keep_their_places_in_the_plan() {
        let root = parse_text(
            "passwords:\n  A: p\nparameter_defaults:\n  B: 1\n",
            "plan.yaml",
            &ParseOptions::default(),
        )
        .root
        .unwrap();
        let (doc, _) = part("plan.yaml", &root, PARAMETER_DEFAULTS);
        let doc = doc.unwrap();
        let pd = doc.as_map().unwrap().get("parameter_defaults").unwrap();
        let lines: Vec<u32> = pd
            .as_map()
            .unwrap()
            .entries
            .iter()
            .map(|(k, _)| k.span.start.line)
            .collect();
        assert_eq!(lines, [2, 4]);
    }

    #[test]
    fn parts_are_exported_beside_the_plan() {
        assert_eq!(
            part_file(Path::new("t/plan-environment.yaml"), "environments[2]"),
            Path::new("t/plan-environment.environments-2.json")
        );
        assert_eq!(
            part_file(Path::new("p.yaml"), PARAMETER_DEFAULTS),
            Path::new("p.parameter_defaults.json")
        );
    }

    #[test]
    fn plan_parts_are_recognised_by_name() {
        assert_eq!(
            split_part(Path::new("a/plan.yaml#parameter_defaults")),
            Some(("a/plan.yaml", "parameter_defaults"))
        );
        assert_eq!(
            split_part(Path::new("plan.yaml#environments[3]")),
            Some(("plan.yaml", "environments[3]"))
        );
        assert_eq!(split_part(Path::new("a#b.yaml")), None);
        assert_eq!(split_part(Path::new("#resource_registry")), None);
    }

    #[test]
    fn shapes_tripleo_common_fails_on_are_errors() {
        let p = plan("template: t.yaml\nenvironments:\n- just-a-string.yaml\n- path: [x]\n");
        let codes: Vec<_> = p.diagnostics.iter().map(|d| d.code).collect();
        assert_eq!(codes, [codes::PLAN_INVALID, codes::PLAN_INVALID]);
        let p = plan("environments: {a: b}\n");
        assert!(p.diagnostics.iter().any(|d| d.code == codes::PLAN_INVALID));
        assert!(p
            .diagnostics
            .iter()
            .any(|d| d.code == codes::PLAN_ENTRY_DROPPED));
    }
}
