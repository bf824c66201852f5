//! W5003 `CapabilityNeverMatches`.
//!
//! Its catalogue entry (`META`) says what it checks, why, and gives an
//! example; `docs/rules.md` and `heatcap rules` print it.

use crate::diag::{Code, Diagnostic};
use crate::model::capability::CapValue;
use crate::validate::{Context, Rule, RuleMeta};

pub(crate) struct CapabilityNeverMatches;

static META: RuleMeta = RuleMeta {
    code: Code("W5003"),
    name: "CapabilityNeverMatches",
    summary: "a capability value that is not a scalar or a list of scalars never matches",
    what: "Every `capabilities` value is a scalar or a list of scalars; a mapping, a null, or a list with a non-scalar item is kept and reported but never matches a query or a `requires` (capabilities.md §1).",
    why: "Such a template can never be chosen by that key.",
    example: "`capabilities: {deployment: {tool: puppet}}`.",
    source: "capabilities.md §1",
};

impl Rule for CapabilityNeverMatches {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
        let Some(caps) = cx.root.get("capabilities").and_then(|n| n.as_map()) else {
            return;
        };
        for (k, v) in &caps.entries {
            if matches!(CapValue::from_node(v), CapValue::Other(_)) {
                let key = k.value.key_text();
                out.push(
                    Diagnostic::new(
                        META.code,
                        cx.file.path.clone(),
                        format!(
                            "capability `{key}` is {}: it is kept but never matches",
                            v.value.kind_name()
                        ),
                    )
                    .at(k.span),
                );
            }
        }
    }
}
