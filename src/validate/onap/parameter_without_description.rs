//! E8009 `ParameterWithoutDescription`.
//!
//! Its catalogue entry (`META`) says what it checks, why, and gives an
//! example; `docs/rules.md` and `heatcap rules` print it.

use crate::diag::{Code, Diagnostic};
use crate::validate::onap::{OnapContext, OnapRule};
use crate::validate::RuleMeta;

pub(crate) struct ParameterWithoutDescription;

static META: RuleMeta = RuleMeta {
    code: Code("E8009"),
    name: "ParameterWithoutDescription",
    summary: "a parameter declares no `description`",
    what: "Every parameter declares `description`.",
    why: "ONAP shows the description to whoever supplies the value; Heat makes it optional, ONAP does not.",
    example: "`vnf_name: {type: string}`.",
    source: "ONAP R-44001 (VNF requirements 5.2.2.1.4.4)",
};

impl OnapRule for ParameterWithoutDescription {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, cx: &OnapContext<'_>, out: &mut Vec<Diagnostic>) {
        for (key, body) in cx.parameters() {
            let name = key.value.key_text();
            if body
                .as_map()
                .is_some_and(|m| !m.contains_key("description"))
            {
                out.push(cx.finding(
                    &META,
                    Some(key.span),
                    format!("parameter `{name}` declares no `description`"),
                ));
            }
        }
    }
}
