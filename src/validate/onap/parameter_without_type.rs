//! E8007 `ParameterWithoutType`.
//!
//! Its catalogue entry (`META`) says what it checks, why, and gives an
//! example; `docs/rules.md` and `heatcap rules` print it.

use crate::diag::{Code, Diagnostic};
use crate::validate::onap::{OnapContext, OnapRule};
use crate::validate::RuleMeta;

pub(crate) struct ParameterWithoutType;

static META: RuleMeta = RuleMeta {
    code: Code("E8007"),
    name: "ParameterWithoutType",
    summary: "a parameter declares no `type`",
    what: "Every parameter declares `type`.",
    why: "ONAP reads the type to build its model; Heat rejects the template too.",
    example: "`vnf_name: {description: name}`.",
    source: "ONAP R-36772 (VNF requirements 5.2.2.1.4.2)",
};

impl OnapRule for ParameterWithoutType {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn replaces(&self) -> &'static [Code] {
        &[Code("E2001")]
    }

    fn check(&self, cx: &OnapContext<'_>, out: &mut Vec<Diagnostic>) {
        for (key, body) in cx.parameters() {
            let name = key.value.key_text();
            if !body.as_map().is_some_and(|m| m.contains_key("type")) {
                out.push(cx.finding(
                    &META,
                    Some(key.span),
                    format!("parameter `{name}` declares no `type`"),
                ));
            }
        }
    }
}
