//! E8006 `ParameterName`.
//!
//! Its catalogue entry (`META`) says what it checks, why, and gives an
//! example; `docs/rules.md` and `heatcap rules` print it.

use crate::diag::{Code, Diagnostic};
use crate::validate::onap::{is_word, OnapContext, OnapRule};
use crate::validate::RuleMeta;

pub(crate) struct ParameterName;

static META: RuleMeta = RuleMeta {
    code: Code("E8006"),
    name: "ParameterName",
    summary: "a parameter name has characters other than letters, digits and `_`",
    what: "Parameter names contain only ASCII letters, digits and `_`.",
    why: "ONAP maps parameter names into its own data model, which allows no other characters.",
    example: "A parameter named `vnf-name`.",
    source: "ONAP R-25877 (VNF requirements 5.2.2.1.4.1)",
};

impl OnapRule for ParameterName {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, cx: &OnapContext<'_>, out: &mut Vec<Diagnostic>) {
        for (key, _) in cx.parameters() {
            let name = key.value.key_text();
            if !is_word(&name) {
                out.push(cx.finding(
                    &META,
                    Some(key.span),
                    format!(
                        "parameter name `{name}` has characters other than letters, digits and `_`"
                    ),
                ));
            }
        }
    }
}
