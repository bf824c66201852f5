//! E8014 `ResourceIdCharacters`.
//!
//! Its catalogue entry (`META`) says what it checks, why, and gives an
//! example; `docs/rules.md` and `heatcap rules` print it.

use crate::diag::{Code, Diagnostic};
use crate::validate::onap::{is_word, OnapContext, OnapRule};
use crate::validate::RuleMeta;

pub(crate) struct ResourceIdCharacters;

static META: RuleMeta = RuleMeta {
    code: Code("E8014"),
    name: "ResourceIdCharacters",
    summary: "a resource ID has characters other than letters, digits and `_`",
    what: "Resource IDs contain only ASCII letters, digits and `_`.",
    why: "ONAP derives names from resource IDs and allows no other characters.",
    example: "A resource named `vm-1`.",
    source: "ONAP R-75141 (VNF requirements 5.2.2.1.5.1)",
};

impl OnapRule for ResourceIdCharacters {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, cx: &OnapContext<'_>, out: &mut Vec<Diagnostic>) {
        for (key, _) in cx.resources() {
            let id = key.value.key_text();
            if !is_word(&id) {
                out.push(cx.finding(
                    &META,
                    Some(key.span),
                    format!("resource ID `{id}` has characters other than letters, digits and `_`"),
                ));
            }
        }
    }
}
