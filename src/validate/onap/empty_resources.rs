//! E8013 `EmptyResources`.
//!
//! Its catalogue entry (`META`) says what it checks, why, and gives an
//! example; `docs/rules.md` and `heatcap rules` print it.

use crate::diag::{Code, Diagnostic};
use crate::model::Mapping;
use crate::validate::onap::{OnapContext, OnapRule};
use crate::validate::RuleMeta;

pub(crate) struct EmptyResources;

static META: RuleMeta = RuleMeta {
    code: Code("E8013"),
    name: "EmptyResources",
    summary: "a `resources` section declares no resource",
    what: "A `resources` section, when present, declares at least one resource.",
    why: "An empty section is a module that creates nothing, or a section left over from an edit.",
    example: "`resources: {}`.",
    source: "ONAP R-90152 (VNF requirements 5.2.2.1.5)",
};

impl OnapRule for EmptyResources {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, cx: &OnapContext<'_>, out: &mut Vec<Diagnostic>) {
        if !cx.kind.is_template() {
            return;
        }
        if let Some((k, v)) = cx.section("resources") {
            if v.as_map().is_none_or(Mapping::is_empty) {
                out.push(cx.finding(
                    &META,
                    Some(k.span),
                    "the `resources` section declares no resource",
                ));
            }
        }
    }
}
