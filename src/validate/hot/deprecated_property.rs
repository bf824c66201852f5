//! W3012 `DeprecatedProperty`.
//!
//! Its catalogue entry (`META`) says what it checks, why, and gives an
//! example; `docs/rules.md` and `heatcap rules` print it. The walk is
//! shared with the other rules on Heat's resource types
//! (`plugin_schema`).

use super::plugin_schema::{report, Kind};
use crate::diag::{Code, Diagnostic};
use crate::validate::{Context, Rule, RuleMeta};

pub(crate) struct DeprecatedProperty;

static META: RuleMeta = RuleMeta {
    code: Code("W3012"),
    name: "DeprecatedProperty",
    summary: "a resource sets a property Heat 27.0.1 marks deprecated or has hidden; the version and Heat's replacement are given",
    what: "No property a resource sets (at any depth, members included) is deprecated or hidden in Heat 27.0.1. A deprecated property's value is still checked like any other (E3014, E3015): Heat converts it at create (`metadata: none` on an `OS::Heat::DeployedServer` is refused: `\"none\" is not a map`). A hidden property's is not: Heat translates most of these into their replacement (`network_id` into `network`), which then counts as set.",
    why: "It still works, but Heat names a replacement; hidden properties are gone from its documentation.",
    example: "`network_id:` on an `OS::Neutron::Port` (hidden since 5.0.0: \"Use property network.\").",
    source: "Heat 27.0.1's support status of each property (heat/engine/support.py)",
};

impl Rule for DeprecatedProperty {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
        report(cx, &META, Kind::DeprecatedProperty, out);
    }
}
