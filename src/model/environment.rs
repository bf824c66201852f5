//! The environment view: its registry entries ([`RegistryEntry`], classified
//! once), `requires`, the `parameters` and `parameter_defaults` it sets,
//! and the problems Heat finds when it loads the file (heat-semantics §2.1,
//! §2.3), with Heat's messages.

use indexmap::IndexMap;
use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::Value as J;

use super::capability::{CapValue, Requirement};
use super::registry::{entries, RegistryEntry, Scope};
use crate::diag::{codes, Diagnostic, Span};
use crate::node::{AsJson, Mapping, Node, Value};

/// Environment sections Heat knows (heat-semantics §2.1), plus heatcap's
/// `requires`.
pub(crate) use crate::load::classify::ENVIRONMENT_SECTIONS;

/// One `requires` entry.
#[derive(Debug, Clone, PartialEq)]
pub struct Require {
    /// The value as written.
    pub value: CapValue,
    /// What it asks for; `None` when the value is not a scalar or a list
    /// of scalars (it then asks for nothing).
    pub requirement: Option<Requirement>,
    /// The key's position.
    pub span: Span,
}

/// One environment file.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Environment {
    /// The path as the user gave it.
    pub path: String,
    /// Every registry entry, in file order (top level, and each resource's
    /// entries where `resources:` stands).
    pub entries: Vec<RegistryEntry>,
    /// `resource_registry` is a mapping with at least one key (Heat skips a
    /// falsy section when it merges files).
    pub has_registry: bool,
    /// The key of `resource_registry.resources`, when it is a mapping (a
    /// later file's replaces an earlier one's wholesale).
    pub resources_key: Option<Span>,
    /// `requires`: key → requirement.
    pub requires: IndexMap<String, Require>,
    /// `parameters`, as written.
    pub parameters: IndexMap<String, J>,
    /// `parameter_defaults`, as written.
    pub parameter_defaults: IndexMap<String, J>,
    /// Where each key of `parameters` and of `parameter_defaults` is
    /// written (for findings about the value it sets).
    pub(crate) parameter_keys: [IndexMap<String, Span>; 2],
    /// `event_sinks` and `encrypted_param_names` when not null, as written.
    pub other_sections: IndexMap<String, J>,
    /// What Heat refuses when it loads the file: unknown sections (E6005),
    /// null sections (E6006), invalid hooks (E6004), and sections that are
    /// not mappings (E6003).
    pub problems: Vec<Diagnostic>,
}

impl Environment {
    /// The view of an environment document.
    pub fn from_node(path: &str, root: &Mapping) -> Environment {
        Environment::build(path, root, false)
    }

    /// The slim view ([`Environment::slim`]) built directly: the values
    /// `parameters` and `parameter_defaults` set, and the other sections,
    /// are never made. The same view and the same problems as `from_node`
    /// followed by `slim`.
    pub(crate) fn slim_from_node(path: &str, root: &Mapping) -> Environment {
        Environment::build(path, root, true)
    }

    fn build(path: &str, root: &Mapping, slim: bool) -> Environment {
        let mut problems = Vec::new();
        check_sections(path, root, &mut problems);
        let registry = section(path, root, "resource_registry", &mut problems);
        if let Some(node) = root.get("resource_registry") {
            check_hooks(path, node, &mut problems);
        }
        let requires = section(path, root, "requires", &mut problems)
            .map(|m| {
                m.entries
                    .iter()
                    .map(|(k, v)| {
                        if Requirement::from_node(v).is_none() {
                            problems.push(
                                Diagnostic::new(
                                    codes::INVALID_REQUIREMENT,
                                    path,
                                    format!(
                                        "`requires.{}` is {}, not a scalar or a list of scalars; it asks for nothing",
                                        k.value.key_text(),
                                        if v.as_seq().is_some() {
                                            "a list with items that are not scalars"
                                        } else {
                                            v.value.kind_name()
                                        }
                                    ),
                                )
                                .at(v.span),
                            );
                        }
                        let r = Require {
                            value: CapValue::from_node(v),
                            requirement: Requirement::from_node(v),
                            span: k.span,
                        };
                        (k.value.key_text(), r)
                    })
                    .collect()
            })
            .unwrap_or_default();
        let values = |name: &str| -> IndexMap<String, J> {
            let Some(m) = root.get(name).and_then(Node::as_map) else {
                return IndexMap::new();
            };
            if slim {
                m.entries
                    .iter()
                    .map(|(k, _)| (k.value.key_text(), J::Null))
                    .collect()
            } else {
                m.json_entries()
            }
        };
        let keys = |name: &str| super::template::key_spans(root.get(name));
        let other_sections = ["event_sinks", "encrypted_param_names"]
            .into_iter()
            .filter(|_| !slim)
            .filter_map(|s| {
                let n = root.get(s)?;
                (n.value != Value::Null).then(|| (s.to_owned(), n.value.to_json()))
            })
            .collect();
        Environment {
            path: path.to_owned(),
            entries: registry.map(entries).unwrap_or_default(),
            has_registry: registry.is_some_and(|m| !m.is_empty()),
            // One question of the registry: a scan, not an index.
            resources_key: registry
                .and_then(|m| m.scan("resources"))
                .filter(|(_, v)| v.as_map().is_some())
                .map(|(k, _)| k.span),
            requires,
            parameters: values("parameters"),
            parameter_defaults: values("parameter_defaults"),
            parameter_keys: [keys("parameters"), keys("parameter_defaults")],
            other_sections,
            problems,
        }
    }

    /// Drops what only composition commands read (the values `parameters`
    /// and `parameter_defaults` set, the other sections): the index reports
    /// names, so its memory grows with what it reports.
    pub(crate) fn slim(&mut self) {
        for v in self
            .parameters
            .values_mut()
            .chain(self.parameter_defaults.values_mut())
        {
            *v = J::Null;
        }
        self.other_sections = IndexMap::new();
    }

    /// The top-level entries, in file order.
    pub fn top(&self) -> impl Iterator<Item = &RegistryEntry> {
        self.entries.iter().filter(|e| e.scope == Scope::Top)
    }

    /// The per-resource entries, in file order.
    pub fn per_resource(&self) -> impl Iterator<Item = &RegistryEntry> {
        self.entries.iter().filter(|e| e.scope != Scope::Top)
    }

    /// Every template Heat may instantiate through this registry (as
    /// written, relative to the file), in file order.
    pub fn templates(&self) -> Vec<&str> {
        self.entries
            .iter()
            .flat_map(RegistryEntry::templates)
            .map(|(p, _)| p)
            .collect()
    }
}

/// The index's JSON shape: `resource_registry` (top-level entries, values
/// as written), `resources` (name → type → value), `requires`, and the
/// names `parameters` and `parameter_defaults` set.
impl Serialize for Environment {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let (registry, resources) = self.registry_objects();
        let requires: IndexMap<&str, &CapValue> = self
            .requires
            .iter()
            .map(|(k, r)| (k.as_str(), &r.value))
            .collect();
        let mut m = s.serialize_map(Some(5))?;
        m.serialize_entry("resource_registry", &registry)?;
        m.serialize_entry("resources", &resources)?;
        m.serialize_entry("requires", &requires)?;
        m.serialize_entry("parameters", &self.parameters.keys().collect::<Vec<_>>())?;
        m.serialize_entry(
            "parameter_defaults",
            &self.parameter_defaults.keys().collect::<Vec<_>>(),
        )?;
        m.end()
    }
}

/// Registry entries as a JSON object holds them: key → value as written.
pub(crate) type EntryObject<'a> = IndexMap<&'a str, AsJson<'a>, foldhash::fast::RandomState>;

/// `resource_registry.resources` as a JSON object: resource name → its
/// entries.
pub(crate) type ResourceObjects<'a> =
    IndexMap<&'a str, EntryObject<'a>, foldhash::fast::RandomState>;

impl Environment {
    /// The JSON objects of `resource_registry` (the top-level entries)
    /// and of `resources` (resource name → its entries): a key written
    /// twice (`1` and `'1'`) is kept once, at its first place, with its
    /// last value, as in a JSON object.
    pub(crate) fn registry_objects(&self) -> (EntryObject<'_>, ResourceObjects<'_>) {
        let mut registry = EntryObject::default();
        let mut resources = ResourceObjects::default();
        for e in &self.entries {
            let value = AsJson(&e.node.value);
            match &e.scope {
                Scope::Top => {
                    registry.insert(e.key.as_str(), value);
                }
                Scope::Resource(name) => {
                    resources
                        .entry(name.as_str())
                        .or_default()
                        .insert(e.key.as_str(), value);
                }
            }
        }
        (registry, resources)
    }
}

/// The object `Serialize` writes (every field always present).
impl schemars::JsonSchema for Environment {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Environment".into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let value = generator.subschema_for::<CapValue>();
        schemars::json_schema!({
            "description": "What an environment file sets: its registry entries as written, its `requires`, and the names of the parameters it sets.",
            "type": "object",
            "properties": {
                "resource_registry": {
                    "description": "Top-level entries in file order (`resources` excluded), each value as written: a string (path or type), an array (candidate list), `null`, or another value.",
                    "type": "object",
                    "additionalProperties": true
                },
                "resources": {
                    "description": "`resource_registry.resources`: resource name → its entries, values as written.",
                    "type": "object",
                    "additionalProperties": {"type": "object", "additionalProperties": true}
                },
                "requires": {
                    "description": "`requires`: key → value as written (a scalar or a list).",
                    "type": "object",
                    "additionalProperties": value
                },
                "parameters": {
                    "description": "The names set in `parameters`.",
                    "type": "array",
                    "items": {"type": "string"}
                },
                "parameter_defaults": {
                    "description": "The names set in `parameter_defaults`.",
                    "type": "array",
                    "items": {"type": "string"}
                }
            },
            "required": ["resource_registry", "resources", "requires", "parameters", "parameter_defaults"]
        })
    }
}

/// Checks the top-level sections as Heat's `environment_format.validate`
/// does (heat-semantics §2.1), with Heat's messages.
fn check_sections(path: &str, root: &Mapping, out: &mut Vec<Diagnostic>) {
    for (k, v) in &root.entries {
        let key = k.value.key_text();
        if !ENVIRONMENT_SECTIONS.contains(&key.as_str()) {
            out.push(
                Diagnostic::new(
                    codes::WRONG_SECTION,
                    path,
                    format!("environment has wrong section \"{key}\""),
                )
                .at(k.span),
            );
        } else if v.value == Value::Null {
            out.push(
                Diagnostic::new(
                    codes::EMPTY_SECTION,
                    path,
                    format!("environment has empty section \"{key}\""),
                )
                .at(k.span),
            );
        }
    }
}

/// Heat's breakpoint hooks (heat-semantics §2.3;
/// `heat.engine.environment.HOOK_TYPES`).
pub(crate) const HOOKS: [&str; 6] = [
    "pre-create",
    "pre-update",
    "pre-delete",
    "post-create",
    "post-update",
    "post-delete",
];
/// Heat's restricted actions.
pub(crate) const RESTRICTED: [&str; 2] = ["update", "replace"];

/// Checks every `hooks` and `restricted_actions` value at any depth of a
/// registry, as Heat does when it loads it, with Heat's message.
fn check_hooks(path: &str, node: &Node, out: &mut Vec<Diagnostic>) {
    let Some(map) = node.as_map() else { return };
    for (k, v) in &map.entries {
        // Only a string key's text is `hooks` (no copy of each key's text).
        let (allowed, what): (&[&str], &str) = match k.value.as_str().unwrap_or_default() {
            "hooks" => (&HOOKS, "hook type \"{}\" for resource breakpoint, acceptable hook types are: ({})"),
            "restricted_actions" => (&RESTRICTED, "restricted_action type \"{}\" for resource, acceptable restricted_action types are: ({})"),
            _ => {
                check_hooks(path, v, out);
                continue;
            }
        };
        let values: Vec<&Node> = match &v.value {
            Value::Seq(items) => items.iter().collect(),
            _ => vec![v],
        };
        for item in values {
            let ok = item.value.as_str().is_some_and(|s| allowed.contains(&s));
            if !ok {
                let shown = item
                    .value
                    .scalar_text()
                    .unwrap_or_else(|| item.value.to_json().to_string());
                let list = allowed
                    .iter()
                    .map(|a| format!("'{a}'"))
                    .collect::<Vec<_>>()
                    .join(", ");
                let msg = what.replacen("{}", &shown, 1).replacen("{}", &list, 1);
                out.push(
                    Diagnostic::new(codes::INVALID_HOOK, path, format!("invalid {msg}"))
                        .at(item.span),
                );
            }
        }
    }
}

/// The mapping under `name`, or a problem when it is not one (null is
/// Heat's E6006, reported by [`check_sections`]).
fn section<'a>(
    path: &str,
    root: &'a Mapping,
    name: &str,
    out: &mut Vec<Diagnostic>,
) -> Option<&'a Mapping> {
    let node = root.get(name)?;
    match &node.value {
        Value::Map(m) => Some(m),
        Value::Null => None,
        other => {
            out.push(
                Diagnostic::new(
                    codes::SECTION_NOT_MAPPING,
                    path,
                    format!(
                        "`{name}` is {}, not a mapping; it is ignored",
                        other.kind_name()
                    ),
                )
                .at(node.span),
            );
            None
        }
    }
}
