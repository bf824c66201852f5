//! E8002 `MissingTemplateVersion`.
//!
//! What it checks: every YAML template of the package (nested ones included) has a
//! `heat_template_version` section.
//!
//! Why: ONAP requires the HOT format; without the key Heat does not take the
//! file for a HOT template at all.
//!
//! Example: a module that starts with `description:` and has no version.

use crate::diag::{Code, Diagnostic};
use crate::validate::onap::{OnapContext, OnapRule};
use crate::validate::RuleMeta;

pub struct MissingTemplateVersion;

static META: RuleMeta = RuleMeta {
    code: Code("E8002"),
    name: "MissingTemplateVersion",
    summary: "a template has no `heat_template_version` section",
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
