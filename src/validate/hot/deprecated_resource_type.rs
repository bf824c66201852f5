//! W3010 `DeprecatedResourceType`.
//!
//! Its catalogue entry (`META`) says what it checks, why, and gives an
//! example; `docs/rules.md` and `heatcap rules` print it. The walk is
//! shared with the other rules on Heat's resource types
//! (`plugin_schema`).

use super::plugin_schema::{report, Kind};
use crate::diag::{Code, Diagnostic};
use crate::validate::{Context, Rule, RuleMeta};

pub(crate) struct DeprecatedResourceType;

static META: RuleMeta = RuleMeta {
    code: Code("W3010"),
    name: "DeprecatedResourceType",
    summary: "a resource type Heat 27.0.1 marks deprecated; the version and Heat's replacement are given",
    what: "No resource type (nor alias of one: `OS::Ceilometer::Alarm` is `OS::Aodh::Alarm`) is deprecated in Heat 27.0.1.",
    why: "A deprecated type still works, but Heat names a replacement and will hide it in a later release (as it did with `OS::Heat::SoftwareDeployments`).",
    example: "`type: OS::Aodh::Alarm` (deprecated since 10.0.0: use `OS::Aodh::GnocchiAggregationByResourcesAlarm`).",
    source: "Heat 27.0.1's support status of each type (heat/engine/support.py)",
};

impl Rule for DeprecatedResourceType {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
        report(cx, &META, Kind::DeprecatedType, out);
    }
}
