//! E8012 `ModuleWithoutResources`.
//!
//! Its catalogue entry (`META`) says what it checks, why, and gives an
//! example; `docs/rules.md` and `heatcap rules` print it.

use crate::diag::{Code, Diagnostic};
use crate::validate::onap::{ModuleKind, OnapContext, OnapRule};
use crate::validate::RuleMeta;

pub(crate) struct ModuleWithoutResources;

static META: RuleMeta = RuleMeta {
    code: Code("E8012"),
    name: "ModuleWithoutResources",
    summary: "an incremental or volume module has no `resources` section",
    what: "Incremental and volume modules have a `resources` section (a base module may have none, R-23663; a nested template may have none, R-40551).",
    why: "A module that creates nothing cannot be orchestrated.",
    example: "`module_1.yaml` with parameters and outputs only.",
    source: "ONAP R-23664 (VNF requirements 5.2.2.1.5)",
};

impl OnapRule for ModuleWithoutResources {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, cx: &OnapContext<'_>, out: &mut Vec<Diagnostic>) {
        if !matches!(cx.kind, ModuleKind::Incremental | ModuleKind::Volume) {
            return;
        }
        if cx.lacks_section("resources") {
            out.push(cx.finding(
                &META,
                None,
                format!("the {} has no `resources` section", cx.kind.as_str()),
            ));
        }
    }
}
