//! E8003 `MissingDescription`.
//!
//! Its catalogue entry (`META`) says what it checks, why, and gives an
//! example; `docs/rules.md` and `heatcap rules` print it.

use crate::diag::{Code, Diagnostic};
use crate::validate::onap::{OnapContext, OnapRule};
use crate::validate::RuleMeta;

pub(crate) struct MissingDescription;

static META: RuleMeta = RuleMeta {
    code: Code("E8003"),
    name: "MissingDescription",
    summary: "a template has no `description` section",
    what: "Every YAML template of the package has a `description` section.",
    why: "ONAP requires one, though Heat does not.",
    example: "A module with `heat_template_version`, `parameters` and `resources` only.",
    source: "ONAP R-39402 (VNF requirements 5.2.2.1.2)",
};

impl OnapRule for MissingDescription {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, cx: &OnapContext<'_>, out: &mut Vec<Diagnostic>) {
        if !cx.kind.is_template() {
            return;
        }
        if cx.lacks_section("description") {
            out.push(cx.finding(
                &META,
                None,
                format!("the {} has no `description` section", cx.kind.as_str()),
            ));
        }
    }
}
