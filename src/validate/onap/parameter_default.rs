//! E8010 `ParameterDefault`.
//!
//! Its catalogue entry (`META`) says what it checks, why, and gives an
//! example; `docs/rules.md` and `heatcap rules` print it.

use crate::diag::{Code, Diagnostic};
use crate::validate::onap::{OnapContext, OnapRule};
use crate::validate::RuleMeta;

pub(crate) struct ParameterDefault;

static META: RuleMeta = RuleMeta {
    code: Code("E8010"),
    name: "ParameterDefault",
    summary: "a parameter declares a `default`",
    what: "No parameter declares `default`.",
    why: "ONAP takes every value from the environment file (R-26124); a default in the template would be a second, hidden source.",
    example: "`flavor: {type: string, description: d, default: m1.small}`.",
    source: "ONAP R-90526 (VNF requirements 5.2.2.1.4.5)",
};

impl OnapRule for ParameterDefault {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, cx: &OnapContext<'_>, out: &mut Vec<Diagnostic>) {
        for (key, body) in cx.parameters() {
            let name = key.value.key_text();
            if let Some((k, _)) = body.as_map().and_then(|m| m.entry("default")) {
                out.push(cx.finding(
                    &META,
                    Some(k.span),
                    format!("parameter `{name}` declares a `default`"),
                ));
            }
        }
    }
}
