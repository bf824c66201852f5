//! E8013 `EmptyResources`.
//!
//! What it checks: a `resources` section, when present, declares at least one
//! resource.
//!
//! Why: an empty section is a module that creates nothing, or a section left
//! over from an edit.
//!
//! Example: `resources: {}`.

use crate::diag::{Code, Diagnostic};
use crate::model::Mapping;
use crate::validate::onap::{OnapContext, OnapRule};
use crate::validate::RuleMeta;

pub struct EmptyResources;

static META: RuleMeta = RuleMeta {
    code: Code("E8013"),
    name: "EmptyResources",
    summary: "a `resources` section declares no resource",
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
