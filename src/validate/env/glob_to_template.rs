//! W6008 `GlobToTemplate`.
//!
//! What it checks: no glob key is mapped to a template.
//!
//! Why: a glob mapped to a template becomes a template entry that matches only
//! the literal type with the `*`, never the types it looks like it covers.
//!
//! Example: `OS::TripleO::Services::*: noop.yaml`.

use crate::diag::{Code, Diagnostic};
use crate::resolve::choose::is_template_path;
use crate::validate::{EnvContext, EnvRule, RuleMeta};

use super::{finding, registry_entries};

pub struct GlobToTemplate;

static META: RuleMeta = RuleMeta {
    code: Code("W6008"),
    name: "GlobToTemplate",
    summary: "a glob key mapped to a template never matches any type",
    source: "heat-semantics §2.5",
};

impl EnvRule for GlobToTemplate {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, cx: &EnvContext<'_>, out: &mut Vec<Diagnostic>) {
        for (k, v, nested) in registry_entries(cx.root) {
            let key = k.value.key_text();
            if !nested && key.ends_with('*') && v.value.as_str().is_some_and(is_template_path) {
                out.push(finding(
                    &META,
                    cx,
                    k.span,
                    format!(
                        "`{key}` maps to a template, so it matches only the literal type `{key}`"
                    ),
                ));
            }
        }
    }
}
