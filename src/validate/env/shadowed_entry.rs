//! W6011 `ShadowedEntry`.
//!
//! What it checks: no exact `resource_registry` key is matched by a glob
//! key of the same registry (`OS::Nova::*: X::*` beside
//! `OS::Nova::Server: my_server.yaml`).
//!
//! Why: Heat tries the matching globs before the exact key, so the exact
//! entry is used only if the glob's target turns out not to exist. The
//! exact key wins only when the glob's prefix is the whole type
//! (`OS::Nova::Server*`).
//!
//! Example: `OS::TripleO::*: OS::Heat::None` above
//! `OS::TripleO::Controller: controller.yaml`.

use crate::diag::{Code, Diagnostic, Related};
use crate::model::{Node, Value};
use crate::resolve::choose::is_template_path;
use crate::validate::{EnvContext, EnvRule, RuleMeta};

use super::registry_entries;

pub struct ShadowedEntry;

static META: RuleMeta = RuleMeta {
    code: Code("W6011"),
    name: "ShadowedEntry",
    summary: "an exact registry key is matched by a glob key, which Heat tries first",
    source: "heat-semantics §2.4 (a matching glob beats an exact key)",
};

/// A glob key that maps types to types (`OS::Nova::*: X::*`): its prefix
/// and its target. `None` for other keys (a `*` elsewhere is literal, a glob
/// mapped to a template never matches, a null glob deletes).
pub fn type_glob<'k>(key: &'k str, value: &'k Node) -> Option<(&'k str, &'k str)> {
    let prefix = key.strip_suffix('*')?;
    let target = value.as_str().filter(|v| !is_template_path(v))?;
    (!prefix.contains('*')).then_some((prefix, target))
}

/// True when the glob (`prefix*` mapped to `target`) matches the exact key
/// `key` first. Heat's glob never matches its own target (no
/// self-recursion), a glob whose prefix is the whole type loses to the exact
/// key, and a null exact key is a deletion, not an entry.
pub fn shadows(glob: (&str, &str), key: &Node, value: &Node) -> bool {
    let (prefix, target) = glob;
    let Some(key) = key.as_str() else {
        return false;
    };
    !key.contains('*')
        && key.starts_with(prefix)
        && key != prefix
        && key != target
        && !super::is_data_key_name(key)
        && !matches!(value.value, Value::Null)
}

/// The finding for an exact key `exact` shadowed by `glob` (declared at
/// `glob_file`, `glob_span`).
pub fn finding(
    file: &str,
    exact: &Node,
    glob: &str,
    glob_file: &str,
    glob_span: crate::diag::Span,
) -> Diagnostic {
    let key = exact.value.key_text();
    Diagnostic::new(
        META.code,
        file,
        format!("`{key}` is shadowed by the glob `{glob}`, which Heat tries first"),
    )
    .at(exact.span)
    .with_related(Related {
        file: glob_file.to_owned(),
        span: Some(glob_span),
        message: format!("the glob `{glob}`"),
    })
}

impl EnvRule for ShadowedEntry {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, cx: &EnvContext<'_>, out: &mut Vec<Diagnostic>) {
        let top: Vec<(&Node, &Node)> = registry_entries(cx.root)
            .into_iter()
            .filter(|(_, _, nested)| !nested)
            .map(|(k, v, _)| (k, v))
            .collect();
        for (gk, gv) in &top {
            let Some(glob_key) = gk.as_str() else {
                continue;
            };
            let Some(glob) = type_glob(glob_key, gv) else {
                continue;
            };
            for (k, v) in &top {
                if shadows(glob, k, v) {
                    out.push(finding(&cx.file.path, k, glob_key, &cx.file.path, gk.span));
                }
            }
        }
    }
}
