//! W8011 `NestedParameterConstraints`.
//!
//! What it checks: parameters of nested templates declare no `constraints`.
//!
//! Why: the module that passes the value constrains it already; ONAP asks
//! nested templates not to repeat (and so possibly contradict) it.
//!
//! Example: a nested `server.yaml` whose `flavor` has `allowed_values`.

use crate::diag::{Code, Diagnostic};
use crate::validate::onap::{ModuleKind, OnapContext, OnapRule};
use crate::validate::RuleMeta;

pub struct NestedParameterConstraints;

static META: RuleMeta = RuleMeta {
    code: Code("W8011"),
    name: "NestedParameterConstraints",
    summary: "a nested template's parameter declares `constraints`",
    source: "ONAP R-00011 (VNF requirements 5.2.2.1.4.7)",
};

impl OnapRule for NestedParameterConstraints {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, cx: &OnapContext<'_>, out: &mut Vec<Diagnostic>) {
        if cx.kind != ModuleKind::Nested {
            return;
        }
        for (key, body) in cx.parameters() {
            let name = key.value.key_text();
            if let Some((k, _)) = body.as_map().and_then(|m| m.entry("constraints")) {
                out.push(cx.finding(
                    &META,
                    Some(k.span),
                    format!("parameter `{name}` of a nested template declares `constraints`"),
                ));
            }
        }
    }
}
