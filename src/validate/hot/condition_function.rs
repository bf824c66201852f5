//! E1007 `FunctionInCondition`.
//!
//! Its catalogue entry (`META`) says what it checks, why, and gives an
//! example; `docs/rules.md` and `heatcap rules` print it.

use super::functions::Tables;
use crate::diag::{Code, Diagnostic};
use crate::validate::{Context, Rule, RuleMeta};

pub(crate) struct FunctionInCondition;

static META: RuleMeta = RuleMeta {
    code: Code("E1007"),
    name: "FunctionInCondition",
    summary: "a template function that is not a condition function is used in a condition",
    what: "The `conditions` section and `condition` keys use only condition functions: `get_param`, `equals`, `not`, `and`, `or` (HOT from 2016-10-14), plus `yaql` and `contains` (from 2017-09-01); in CFN `Fn::Equals`, `Ref`, `Fn::FindInMap`, `Fn::Not`, `Fn::And`, `Fn::Or`.",
    why: r#"Heat parses conditions with its condition-function table, where every other template function is `Invalid` ('The function "get_attr" is invalid in this context'): a condition is decided before any resource exists."#,
    example: "`is_big: {equals: [{get_attr: [server, flavor]}, large]}`.",
    source: "heat-semantics §1.4 (condition-function tables)",
};

impl Rule for FunctionInCondition {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
        let Some(tables) = Tables::of(cx) else { return };
        for call in tables.calls(cx.root, cx.template.format) {
            if call.invalid_here {
                out.push(
                    Diagnostic::new(
                        META.code,
                        cx.file.path.clone(),
                        format!(
                            "the function \"{}\" is invalid in this context (a condition)",
                            call.name
                        ),
                    )
                    .at(call.key.span),
                );
            }
        }
    }
}
