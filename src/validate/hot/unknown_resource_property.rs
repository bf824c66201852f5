//! E3011 `UnknownResourceProperty`.
//!
//! Its catalogue entry (`META`) says what it checks, why, and gives an
//! example; `docs/rules.md` and `heatcap rules` print it. The walk is
//! shared with the other rules on Heat's resource types
//! (`plugin_schema`).

use super::plugin_schema::{report, Kind};
use crate::diag::{Code, Diagnostic};
use crate::validate::{Context, Rule, RuleMeta};

pub(crate) struct UnknownResourceProperty;

static META: RuleMeta = RuleMeta {
    code: Code("E3011"),
    name: "UnknownResourceProperty",
    summary: "a resource sets a property its Heat type does not have (Heat: \"Unknown Property X\"), or one Heat has not implemented; inside a list or map property, a key its schema does not have",
    what: "Every property a resource of a Heat type sets is a property of that type (hidden ones count: Heat still accepts their names) that Heat has implemented. Inside a list or map property with a schema (`networks`, `fixed_ips`, `block_device_mapping_v2`, `character_classes`, ...) every key is one the schema has. A `ResourceGroup`'s `resource_def.properties` and a `ResourceChain`'s `resource_properties` are checked against each member type. Placeholder types (`OS::Heat::None`) accept any property; a type an environment given with `-e` maps is left to the composition (E7007 checks provider templates).",
    why: "Heat refuses the template. A resource's own property names are checked by `template validate` (\"Property error: resources.r.properties: Unknown Property notprop\"); keys inside list and map properties and members' properties only at create (\"... fixed_ips[0]: Unknown Property ip_addres\", \"resources.group<nested_stack>.resources[0].properties: Unknown Property lenght\"), and not inside a value that refers to another resource, which Heat converts without validating. The message says which stage.",
    example: "`notprop: 1` on an `OS::Heat::RandomString`; `ip_addres:` in a port's `fixed_ips`.",
    source: "Heat 27.0.1's property schemas; heat/engine/properties.py (Properties.validate)",
};

impl Rule for UnknownResourceProperty {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
        report(cx, &META, Kind::UnknownProperty, out);
    }
}
