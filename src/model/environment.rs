//! The environment view: registry entries (single or candidate lists),
//! per-resource overrides, `requires`, and the parameter names it sets.

use indexmap::IndexMap;
use serde::Serialize;

use super::capability::{CapValue, Requirement};
use crate::node::{Mapping, Node, Value};

/// The value of one `resource_registry` entry.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum RegistryValue {
    /// A template path or a type name.
    Single(String),
    /// heatcap's list form: candidate implementations.
    Candidates(Vec<String>),
    /// `null`: deletes the mapping (Heat, first file only).
    Null(()),
    /// Anything else (hooks, restricted actions, nested maps, numbers).
    Other(serde_json::Value),
}

impl RegistryValue {
    pub fn from_node(node: &Node) -> RegistryValue {
        match &node.value {
            Value::Str(s) => RegistryValue::Single(s.clone()),
            Value::Null => RegistryValue::Null(()),
            Value::Seq(items) => {
                let names: Option<Vec<String>> = items
                    .iter()
                    .map(|i| i.value.as_str().map(str::to_owned))
                    .collect();
                names.map_or_else(
                    || RegistryValue::Other(node.value.to_json()),
                    RegistryValue::Candidates,
                )
            }
            other => RegistryValue::Other(other.to_json()),
        }
    }

    /// The template paths and types this entry names.
    pub fn targets(&self) -> &[String] {
        match self {
            RegistryValue::Single(s) => std::slice::from_ref(s),
            RegistryValue::Candidates(c) => c,
            RegistryValue::Null(()) | RegistryValue::Other(_) => &[],
        }
    }
}

/// One environment file.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Environment {
    /// Reported by the file entry that holds the environment.
    #[serde(skip)]
    pub path: String,
    /// Top-level registry entries, `resources` excluded, in file order.
    pub resource_registry: IndexMap<String, RegistryValue>,
    /// `resource_registry.resources`: resource name → entries.
    pub resources: IndexMap<String, IndexMap<String, RegistryValue>>,
    /// `requires`: key → the value as written (a scalar or a list).
    #[serde(serialize_with = "serialize_requires")]
    pub requires: IndexMap<String, (CapValue, Option<Requirement>)>,
    pub parameters: Vec<String>,
    pub parameter_defaults: Vec<String>,
}

fn serialize_requires<S: serde::Serializer>(
    requires: &IndexMap<String, (CapValue, Option<Requirement>)>,
    s: S,
) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeMap;
    let mut m = s.serialize_map(Some(requires.len()))?;
    for (k, (v, _)) in requires {
        m.serialize_entry(k, v)?;
    }
    m.end()
}

impl Environment {
    pub fn from_node(path: &str, root: &Mapping) -> Environment {
        let mut resource_registry = IndexMap::new();
        let mut resources = IndexMap::new();
        if let Some(reg) = root.get("resource_registry").and_then(Node::as_map) {
            for (k, v) in &reg.entries {
                let key = k.value.key_text();
                match (&*key, v.as_map()) {
                    ("resources", Some(per_resource)) => {
                        for (name, entries) in &per_resource.entries {
                            let entries = entries.as_map().map_or_else(IndexMap::new, |m| {
                                m.entries
                                    .iter()
                                    .map(|(t, v)| (t.value.key_text(), RegistryValue::from_node(v)))
                                    .collect()
                            });
                            resources.insert(name.value.key_text(), entries);
                        }
                    }
                    _ => {
                        resource_registry.insert(key, RegistryValue::from_node(v));
                    }
                }
            }
        }
        let requires = root
            .get("requires")
            .and_then(Node::as_map)
            .map(|m| {
                m.entries
                    .iter()
                    .map(|(k, v)| {
                        (
                            k.value.key_text(),
                            (CapValue::from_node(v), Requirement::from_node(v)),
                        )
                    })
                    .collect()
            })
            .unwrap_or_default();
        let names = |section: &str| -> Vec<String> {
            root.get(section)
                .and_then(Node::as_map)
                .map(|m| m.entries.iter().map(|(k, _)| k.value.key_text()).collect())
                .unwrap_or_default()
        };
        Environment {
            path: path.to_owned(),
            resource_registry,
            resources,
            requires,
            parameters: names("parameters"),
            parameter_defaults: names("parameter_defaults"),
        }
    }

    /// Every template path the registry names (top level and per resource,
    /// single and candidate entries), in file order. Type names (with `::`)
    /// are left out, as python-heatclient leaves them.
    pub fn template_paths(&self) -> Vec<&str> {
        let top = self.resource_registry.iter();
        let per_resource = self.resources.values().flat_map(|m| m.iter());
        top.chain(per_resource)
            .filter(|(k, _)| !matches!(k.as_str(), "hooks" | "restricted_actions" | "base_url"))
            .flat_map(|(_, v)| v.targets())
            .map(String::as_str)
            .filter(|t| !t.contains("::"))
            .collect()
    }
}
