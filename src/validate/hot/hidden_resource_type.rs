//! W3009 `HiddenResourceType`.
//!
//! Its catalogue entry (`META`) says what it checks, why, and gives an
//! example; `docs/rules.md` and `heatcap rules` print it. The walk is
//! shared with the other rules on Heat's resource types
//! (`plugin_schema`).

use super::plugin_schema::{report, Kind};
use crate::diag::{Code, Diagnostic};
use crate::validate::{Context, Rule, RuleMeta};

pub(crate) struct HiddenResourceType;

static META: RuleMeta = RuleMeta {
    code: Code("W3009"),
    name: "HiddenResourceType",
    summary: "a resource type Heat 27.0.1 has hidden (removed: kept as a placeholder or for old stacks) or marks unsupported",
    what: "No resource type is one Heat 27.0.1 has hidden (`OS::Heat::HARestarter`, `OS::Heat::SoftwareDeployments`, `OS::Glance::Image`, the removed Neutron LBaaS v1 and v2, Sahara, Senlin and Monasca types, ...) or marks unsupported (`OS::Neutron::ExtraRoute`). The message gives the version and Heat's own words (the replacement, usually).",
    why: "A hidden type is gone from Heat's type list and documentation; most are placeholders that do nothing (HARestarter \"will be a placeholder that does nothing\"). The issue asked for an error, as if Heat refused them, but Heat 27.0.1 accepts them at both stages (recorded: fixtures/schema/hidden-type.yaml, deprecated-type.yaml, unsupported-type.yaml), so this is a warning: the template deploys, but not as its author expects.",
    example: "`type: OS::Heat::SoftwareDeployments` (hidden since 7.0.0: use `OS::Heat::SoftwareDeploymentGroup`).",
    source: "Heat 27.0.1's support status of each type (heat/engine/support.py)",
};

impl Rule for HiddenResourceType {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
        report(cx, &META, Kind::HiddenType, out);
    }
}
