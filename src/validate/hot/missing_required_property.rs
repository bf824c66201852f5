//! E3013 `MissingRequiredProperty`.
//!
//! Its catalogue entry (`META`) says what it checks, why, and gives an
//! example; `docs/rules.md` and `heatcap rules` print it. The walk is
//! shared with the other rules on Heat's resource types
//! (`plugin_schema`).

use super::plugin_schema::{report, Kind};
use crate::diag::{Code, Diagnostic};
use crate::validate::{Context, Rule, RuleMeta};

pub(crate) struct MissingRequiredProperty;

static META: RuleMeta = RuleMeta {
    code: Code("E3013"),
    name: "MissingRequiredProperty",
    summary: "a resource leaves out a property its Heat type requires (Heat at create: \"Property X not assigned\"); inside a list or map property, a key its schema requires",
    what: "Every property a Heat type requires is set (a deprecated property Heat translates into it counts), and so is every key a list or map property's schema requires; `ResourceGroup` and `ResourceChain` members included. A property set to `null` is set: Heat then uses its default, or the type's empty value, and checks that (E3015). Placeholder types and types an environment given with `-e` maps are not checked.",
    why: "`template validate` accepts the template, but `stack create` refuses it before creating anything: \"Property error: resources.key.properties: Property name not assigned\" (recorded: fixtures/schema/keypair-missing-name.yaml).",
    example: "An `OS::Nova::Server` without `flavor`.",
    source: "Heat 27.0.1's property schemas; heat/engine/properties.py (Properties._get_property_value)",
};

impl Rule for MissingRequiredProperty {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
        report(cx, &META, Kind::MissingProperty, out);
    }
}
