//! E8002 `MissingTemplateVersion`.
//!
//! Its catalogue entry (`META`) says what it checks, why, and gives an
//! example; `docs/rules.md` and `heatcap rules` print it.

use crate::diag::{Code, Diagnostic};
use crate::validate::onap::{OnapContext, OnapRule};
use crate::validate::RuleMeta;

pub(crate) struct MissingTemplateVersion;

static META: RuleMeta = RuleMeta {
    code: Code("E8002"),
    name: "MissingTemplateVersion",
    summary: "a template has no `heat_template_version` section",
    what: "Every YAML template of the package (nested ones included) has a `heat_template_version` section.",
    why: "ONAP requires the HOT format; without the key Heat does not take the file for a HOT template at all.",
    example: "A module that starts with `description:` and has no version.",
    source: "ONAP R-27078 (VNF requirements 5.2.2.1.1)",
};

impl OnapRule for MissingTemplateVersion {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, cx: &OnapContext<'_>, out: &mut Vec<Diagnostic>) {
        if !cx.kind.is_template() {
            return;
        }
        if cx.lacks_section("heat_template_version") {
            out.push(cx.finding(
                &META,
                None,
                format!(
                    "the {} has no `heat_template_version` section",
                    cx.kind.as_str()
                ),
            ));
        }
    }
}
