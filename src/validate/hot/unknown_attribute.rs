//! E3017 `UnknownAttribute`.
//!
//! Its catalogue entry (`META`) says what it checks, why, and gives an
//! example; `docs/rules.md` and `heatcap rules` print it. The walk is
//! shared with the other rules on Heat's resource types
//! (`plugin_schema`).

use super::plugin_schema::{report, Kind};
use crate::diag::{Code, Diagnostic};
use crate::validate::{Context, Rule, RuleMeta};

pub(crate) struct UnknownAttribute;

static META: RuleMeta = RuleMeta {
    code: Code("E3017"),
    name: "UnknownAttribute",
    summary: "`get_attr` (CFN `Fn::GetAtt`) of an attribute the resource's Heat type does not have (Heat: \"The Referenced Attribute (r a) is incorrect.\")",
    what: "The attribute every `get_attr` (CFN `Fn::GetAtt`) names first is one the resource's Heat type declares (hidden ones included), in resources and outputs. Types that compute their attributes (`OS::Heat::ResourceGroup`, software deployments, `OS::Heat::None`, ...) accept any name. Provider templates' outputs are not checked here: Heat 27.0.1 accepts `get_attr` of an output a provider template does not have at both stages (recorded: fixtures/schema/provider-unknown-output.yaml). A type an environment given with `-e` maps is left alone.",
    why: "Heat refuses the template, `template validate` already: \"outputs.out.value.get_attr: The Referenced Attribute (test_resource notanattr) is incorrect.\" (recorded: fixtures/schema/unknown-attribute.yaml).",
    example: "`{get_attr: [secret, valu]}` where `secret` is an `OS::Heat::RandomString`.",
    source: "Heat 27.0.1's attribute schemas; heat/engine/hot/functions.py (GetAtt.validate)",
};

impl Rule for UnknownAttribute {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
        report(cx, &META, Kind::UnknownAttribute, out);
    }
}
