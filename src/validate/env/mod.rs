//! Rules for environment files (heat-semantics §2).

pub mod empty_environment_section;
pub mod glob_in_resources;
pub mod glob_to_template;
pub mod invalid_hook;
pub mod literal_star;
pub mod missing_target;
pub mod shadowed_entry;
pub mod template_extension_ignored;
pub mod wrong_environment_section;

use crate::diag::{Code, Diagnostic};
use crate::model::{Mapping, Node};
use crate::resolve::choose::is_template_path;
use crate::resolve::merge::{check_sections, EnvInput};
use crate::validate::{EnvContext, RuleMeta};

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

/// A finding of `meta`'s code at `span` of the environment.
pub fn finding(
    meta: &RuleMeta,
    cx: &EnvContext<'_>,
    span: crate::diag::Span,
    message: String,
) -> Diagnostic {
    Diagnostic::new(meta.code, cx.file.path.clone(), message).at(span)
}

/// Near misses of Heat's template suffixes: compared lower-cased on
/// purpose, since `.YAML` is exactly what Heat's case-sensitive test misses.
#[allow(clippy::case_sensitive_file_extension_comparisons)]
pub fn looks_like_template(s: &str) -> bool {
    let lower = s.to_ascii_lowercase();
    (lower.ends_with(".yml") || lower.ends_with(".yaml") || lower.ends_with(".template"))
        && !is_template_path(s)
}

/// The section errors Heat raises on loading (E6005, E6006), of `code`.
pub fn section_errors(cx: &EnvContext<'_>, code: Code, out: &mut Vec<Diagnostic>) {
    let Some(root) = cx.root.as_map() else { return };
    let env = EnvInput {
        path: &cx.file.path,
        root: cx.root,
    };
    let mut found = Vec::new();
    check_sections(&env, root, &mut found);
    out.extend(found.into_iter().filter(|d| d.code == code));
}
