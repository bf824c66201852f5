//! E6012 `MissingRegistryTarget`.
//!
//! What it checks: every file a `resource_registry` entry names exists,
//! relative to the environment file as python-heatclient resolves it: a
//! value without `::` (whatever its extension: the client fetches `x.yml`
//! too), top level or per resource, or a candidate of a list. Remote
//! (`http://`, `https://`) targets are not fetched, and a registry with a
//! `base_url` is not checked.
//!
//! Why: python-heatclient reads every template the registry names before it
//! calls Heat, so one missing file fails the whole deployment, even when no
//! resource uses that type (heat-semantics §2.12).
//!
//! Example: `OS::TripleO::Compute: puppet/compute.yaml` with no such file.

use std::path::Path;

use crate::diag::{Code, Diagnostic};
use crate::model::{Node, Value};
use crate::validate::{EnvContext, EnvRule, RuleMeta};

use super::registry_entries;

pub struct MissingRegistryTarget;

/// This rule's code (`validate -e` reports the same problem as E7001 only
/// where this rule has not).
pub const CODE: Code = Code("E6012");

static META: RuleMeta = RuleMeta {
    code: CODE,
    name: "MissingRegistryTarget",
    summary: "a template the registry names does not exist",
    source: "heat-semantics §2.12 (python-heatclient fetches every registry template)",
};

/// The local file a registry value names, if it names one (the client's
/// test: a string without `::`).
fn local_target(value: &str) -> Option<&str> {
    if value.contains("::") || value.is_empty() {
        return None;
    }
    match value.split_once("://") {
        Some(("file", rest)) => Some(rest),
        Some(_) => None,
        None => Some(value),
    }
}

impl EnvRule for MissingRegistryTarget {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, cx: &EnvContext<'_>, out: &mut Vec<Diagnostic>) {
        if super::registry(cx.root).is_some_and(|r| r.contains_key("base_url")) {
            return;
        }
        let dir = Path::new(&cx.file.path).parent().unwrap_or(Path::new(""));
        for (_, v, _) in registry_entries(cx.root) {
            let targets: Vec<&Node> = match &v.value {
                Value::Seq(items) => items.iter().collect(),
                _ => vec![v],
            };
            for t in targets {
                let Some(target) = t.value.as_str().and_then(local_target) else {
                    continue;
                };
                if !dir.join(target).exists() {
                    out.push(
                        Diagnostic::new(
                            META.code,
                            cx.file.path.clone(),
                            format!(
                                "`{target}` does not exist (relative to this environment file)"
                            ),
                        )
                        .at(t.span),
                    );
                }
            }
        }
    }
}
