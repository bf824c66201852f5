//! Merging environment files in order, as `openstack stack create -e a -e b`
//! does (heat-semantics §2.11–2.12): python-heatclient resolves each file's
//! relative paths against that file's directory, then the server merges the
//! files: `resource_registry` by a shallow, one-level update that skips
//! later nulls, a later `resources:` replacing the earlier one; heatcap's
//! `requires` merges key by key, later winning (capabilities.md §2).

use indexmap::IndexMap;

use crate::diag::{Code, Diagnostic, Span};
use crate::model::capability::{CapValue, Requirement};
use crate::node::{Mapping, Node, Value};

/// A later null that Heat ignores (it cannot undo an earlier mapping).
pub const LATER_NULL_IGNORED: Code = Code("W6001");
/// A later `resources:` section replaces the earlier one wholesale.
pub const RESOURCES_REPLACED: Code = Code("W6002");
/// `resource_registry` or `requires` is not a mapping.
pub const SECTION_NOT_MAPPING: Code = Code("E6003");
/// A `hooks` or `restricted_actions` value Heat rejects.
pub const INVALID_HOOK: Code = Code("E6004");
/// A top-level section Heat does not know (`requires` is heatcap's own).
pub const WRONG_SECTION: Code = Code("E6005");
/// A section whose value is null, which Heat rejects.
pub const EMPTY_SECTION: Code = Code("E6006");

/// Checks the top-level sections as Heat's `environment_format.validate`
/// does (heat-semantics §2.1), with Heat's messages.
pub(crate) fn check_sections(env: &EnvInput<'_>, root: &Mapping, out: &mut Vec<Diagnostic>) {
    for (k, v) in &root.entries {
        let key = k.value.key_text();
        if !crate::load::classify::ENVIRONMENT_SECTIONS.contains(&key.as_str()) {
            out.push(
                Diagnostic::new(
                    WRONG_SECTION,
                    env.path,
                    format!("environment has wrong section \"{key}\""),
                )
                .at(k.span),
            );
        } else if v.value == Value::Null {
            out.push(
                Diagnostic::new(
                    EMPTY_SECTION,
                    env.path,
                    format!("environment has empty section \"{key}\""),
                )
                .at(k.span),
            );
        }
    }
}

/// Heat's breakpoint hooks (heat-semantics §2.3).
const HOOKS: [&str; 6] = [
    "pre-create",
    "pre-update",
    "pre-delete",
    "post-create",
    "post-update",
    "post-delete",
];
/// Heat's restricted actions.
const RESTRICTED: [&str; 2] = ["update", "replace"];

/// Checks every `hooks` and `restricted_actions` value at any depth of a
/// registry, as Heat does when it loads it, with Heat's message.
pub(crate) fn check_hooks(path: &str, node: &Node, out: &mut Vec<Diagnostic>) {
    let Some(map) = node.as_map() else { return };
    for (k, v) in &map.entries {
        let key = k.value.key_text();
        let (allowed, what): (&[&str], &str) = match key.as_str() {
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
                    Diagnostic::new(INVALID_HOOK, path, format!("invalid {msg}")).at(item.span),
                );
            }
        }
    }
}

/// One environment file, as the resolver needs it.
#[derive(Debug, Clone, Copy)]
pub struct EnvInput<'a> {
    /// The path as the user gave it.
    pub path: &'a str,
    pub root: &'a Node,
}

/// Where an entry came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Origin {
    /// Index into the environment list.
    pub env: usize,
    /// The entry's key.
    pub span: Span,
}

/// One `resource_registry` entry after merging.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub key: String,
    pub value: Node,
    pub origin: Origin,
}

/// The merged environment.
#[derive(Debug, Clone, Default)]
pub struct Merged {
    /// Top-level entries, `resources` excluded, in first-seen order.
    pub entries: IndexMap<String, Entry>,
    /// `resources`: resource name → entries, from the last file that had it.
    pub resources: IndexMap<String, IndexMap<String, Entry>>,
    /// `requires`, merged key by key.
    pub requires: IndexMap<String, (Requirement, CapValue, Origin)>,
    pub diagnostics: Vec<Diagnostic>,
}

/// Merges the environments in order.
pub fn merge(envs: &[EnvInput<'_>]) -> Merged {
    let mut m = Merged::default();
    let mut registry_seen = false;
    let mut resources_from: Option<usize> = None;
    for (i, env) in envs.iter().enumerate() {
        let Some(root) = env.root.as_map() else {
            continue;
        };
        check_sections(env, root, &mut m.diagnostics);
        if let Some(req) = section(env, root, "requires", &mut m.diagnostics) {
            for (k, v) in &req.entries {
                let origin = Origin {
                    env: i,
                    span: k.span,
                };
                if let Some(r) = Requirement::from_node(v) {
                    m.requires
                        .insert(k.value.key_text(), (r, CapValue::from_node(v), origin));
                }
            }
        }
        let Some(reg) = section(env, root, "resource_registry", &mut m.diagnostics) else {
            continue;
        };
        if let Some(node) = root.get("resource_registry") {
            check_hooks(env.path, node, &mut m.diagnostics);
        }
        // Heat skips a falsy section, and takes the first non-empty one whole.
        if reg.is_empty() {
            continue;
        }
        let first = !registry_seen;
        registry_seen = true;
        for (k, v) in &reg.entries {
            let key = k.value.key_text();
            let origin = Origin {
                env: i,
                span: k.span,
            };
            if key == "resources" {
                if let Value::Map(per) = &v.value {
                    if let Some(prev) = resources_from {
                        m.diagnostics.push(
                            Diagnostic::new(
                                RESOURCES_REPLACED,
                                env.path,
                                format!(
                                    "this `resources` section replaces the one from `{}` (Heat does not merge them)",
                                    envs[prev].path
                                ),
                            )
                            .at(k.span),
                        );
                    }
                    resources_from = Some(i);
                    m.resources = per_resource(per, i);
                }
                continue;
            }
            if v.value == Value::Null && !first {
                m.diagnostics.push(
                    Diagnostic::new(
                        LATER_NULL_IGNORED,
                        env.path,
                        format!("`{key}: null` in a later environment does not undo the mapping (Heat ignores it)"),
                    )
                    .at(k.span),
                );
                continue;
            }
            m.entries.insert(
                key.clone(),
                Entry {
                    key,
                    value: v.clone(),
                    origin,
                },
            );
        }
    }
    m
}

/// `resources: NAME: {TYPE: value}` entries of environment `env`.
fn per_resource(per: &Mapping, env: usize) -> IndexMap<String, IndexMap<String, Entry>> {
    per.entries
        .iter()
        .map(|(name, body)| {
            let entries = body
                .as_map()
                .map(|b| {
                    b.entries
                        .iter()
                        .map(|(t, tv)| {
                            let e = Entry {
                                key: t.value.key_text(),
                                value: tv.clone(),
                                origin: Origin { env, span: t.span },
                            };
                            (e.key.clone(), e)
                        })
                        .collect()
                })
                .unwrap_or_default();
            (name.value.key_text(), entries)
        })
        .collect()
}

fn section<'a>(
    env: &EnvInput<'_>,
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
                    SECTION_NOT_MAPPING,
                    env.path,
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
