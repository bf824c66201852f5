//! Rules for environment files (heat-semantics §2).

pub mod heat_errors;
pub mod missing_target;
pub mod registry_keys;
pub mod shadowed_entry;

use crate::model::{Mapping, Node};

/// Every type mapping of a registry, `(key, value, per_resource)`: top
/// level, then per resource. Map-valued per-resource entries (resource-name
/// patterns of nested stacks) and `hooks`/`restricted_actions`/`base_url`
/// are data, not type mappings, and are left out.
pub fn registry_entries(root: &Node) -> Vec<(&Node, &Node, bool)> {
    let mut out = Vec::new();
    let Some(reg) = root
        .as_map()
        .and_then(|m| m.get("resource_registry"))
        .and_then(Node::as_map)
    else {
        return out;
    };
    for (k, v) in &reg.entries {
        if k.value.as_str() == Some("resources") {
            if let Some(per) = v.as_map() {
                for (_, body) in &per.entries {
                    if let Some(m) = body.as_map() {
                        out.extend(
                            m.entries
                                .iter()
                                .filter(|(k, v)| v.as_map().is_none() && !is_data_key(k))
                                .map(|(k, v)| (k, v, true)),
                        );
                    }
                }
            }
        } else if !is_data_key(k) {
            out.push((k, v, false));
        }
    }
    out
}

/// The registry mapping, if any.
pub fn registry(root: &Node) -> Option<&Mapping> {
    root.as_map()?.get("resource_registry")?.as_map()
}

/// Registry keys that hold data, not type mappings.
pub fn is_data_key(k: &Node) -> bool {
    k.value.as_str().is_some_and(is_data_key_name)
}

/// `hooks`, `restricted_actions`, `base_url`.
pub fn is_data_key_name(k: &str) -> bool {
    matches!(k, "hooks" | "restricted_actions" | "base_url")
}
