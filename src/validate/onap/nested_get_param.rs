//! E8017 `NestedGetParam`.
//!
//! Its catalogue entry (`META`) says what it checks, why, and gives an
//! example; `docs/rules.md` and `heatcap rules` print it.

use crate::diag::{Code, Diagnostic};
use crate::validate::onap::{get_params, OnapContext, OnapRule};
use crate::validate::RuleMeta;

pub(crate) struct NestedGetParam;

static META: RuleMeta = RuleMeta {
    code: Code("E8017"),
    name: "NestedGetParam",
    summary: "a `get_param` inside a `get_param` path takes more than a parameter name",
    what: "A `get_param` nested in another `get_param`'s path takes a bare parameter name: `{get_param: [names, {get_param: index}]}` is fine, `{get_param: [names, {get_param: [list, 0]}]}` is not. Outputs are exempt.",
    why: "ONAP's design tool supports two levels of `get_param` and no list inside a list.",
    example: "`name: {get_param: [vm_names, {get_param: [indexes, 0]}]}`.",
    source: "ONAP R-10834 (VNF requirements 5.2.2.1.5.3)",
};

impl OnapRule for NestedGetParam {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, cx: &OnapContext<'_>, out: &mut Vec<Diagnostic>) {
        let Some(root) = cx.root.filter(|_| cx.kind.is_template()) else {
            return;
        };
        let mut calls = Vec::new();
        for (k, v) in &root.entries {
            if k.value.as_str() != Some("outputs") {
                get_params(v, &mut calls);
            }
        }
        for (arg, _) in calls {
            let Some(items) = arg.as_seq() else { continue };
            let mut inner = Vec::new();
            for item in items {
                if let Some([(k, v)]) = item.as_map().map(|m| m.entries.as_slice()) {
                    if k.value.as_str() == Some("get_param") && v.as_str().is_none() {
                        inner.push(k.span);
                    }
                }
            }
            for span in inner {
                out.push(cx.finding(
                    &META,
                    Some(span),
                    "a `get_param` inside a `get_param` path takes more than a parameter name",
                ));
            }
        }
    }
}
