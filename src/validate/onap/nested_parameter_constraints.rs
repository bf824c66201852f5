//! W8011 `NestedParameterConstraints`.
//!
//! Its catalogue entry (`META`) says what it checks, why, and gives an
//! example; `docs/rules.md` and `heatcap rules` print it.

use crate::diag::{Code, Diagnostic};
use crate::validate::onap::{ModuleKind, OnapContext, OnapRule};
use crate::validate::RuleMeta;

pub(crate) struct NestedParameterConstraints;

static META: RuleMeta = RuleMeta {
    code: Code("W8011"),
    name: "NestedParameterConstraints",
    summary: "a nested template's parameter declares `constraints`",
    what: "Parameters of nested templates declare no `constraints`.",
    why: "The module that passes the value constrains it already; ONAP asks nested templates not to repeat (and so possibly contradict) it.",
    example: "A nested `server.yaml` whose `flavor` has `allowed_values`.",
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
