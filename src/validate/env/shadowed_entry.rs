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

/// The prefix of a glob key that maps types to types (`OS::Nova::*:
/// X::*`); `None` for other keys (a `*` elsewhere is literal, a glob mapped
/// to a template never matches, a null glob deletes).
pub fn type_glob<'k>(key: &'k str, value: &Node) -> Option<&'k str> {
    let prefix = key.strip_suffix('*')?;
    (!prefix.contains('*') && value.as_str().is_some_and(|v| !is_template_path(v)))
        .then_some(prefix)
}

/// True when the glob `prefix*` matches the exact key `key` first (a
/// null exact key is a deletion, not an entry).
pub fn shadows(prefix: &str, key: &str, value: &Node) -> bool {
    !key.contains('*')
        && key.starts_with(prefix)
        && key != prefix
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
            let glob = gk.value.key_text();
            let Some(prefix) = type_glob(&glob, gv) else {
                continue;
            };
            for (k, v) in &top {
                if shadows(prefix, &k.value.key_text(), v) {
                    out.push(finding(&cx.file.path, k, &glob, &cx.file.path, gk.span));
                }
            }
        }
    }
}
