//! E8008 `ParameterType`.
//!
//! Its catalogue entry (`META`) says what it checks, why, and gives an
//! example; `docs/rules.md` and `heatcap rules` print it.

use crate::diag::{Code, Diagnostic};
use crate::validate::onap::{OnapContext, OnapRule};
use crate::validate::RuleMeta;

pub(crate) struct ParameterType;

static META: RuleMeta = RuleMeta {
    code: Code("E8008"),
    name: "ParameterType",
    summary: "a parameter's `type` is not one ONAP supports",
    what: "A parameter's `type` is one of `string`, `number`, `json`, `comma_delimited_list` and `boolean`, spelled so.",
    why: "ONAP supports only these types (Heat also accepts CFN spellings in CFN templates). In a HOT template they are Heat's types too: Heat refuses any other (\"Invalid type (T)\"), so the finding also counts against R-92635.",
    example: "`type: String`.",
    source: "ONAP R-11441 (VNF requirements 5.2.2.1.4.2), R-92635 (VNF requirements 5.2.2; VVP's test_neutron_port_network_parameter fail fixture)",
};

impl OnapRule for ParameterType {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn replaces(&self) -> &'static [Code] {
        &[Code("E2001")]
    }

    fn check(&self, cx: &OnapContext<'_>, out: &mut Vec<Diagnostic>) {
        for (key, body) in cx.parameters() {
            let name = key.value.key_text();
            let Some(t) = body.as_map().and_then(|m| m.get("type")) else {
                continue;
            };
            if !t.as_str().is_some_and(|t| TYPES.contains(&t)) {
                out.push(cx.finding(
                    &META,
                    Some(t.span),
                    format!(
                        "parameter `{name}` has type `{}`, not one of {}",
                        t.value.key_text(),
                        TYPES.join(", ")
                    ),
                ));
            }
        }
    }
}

/// The parameter types ONAP supports.
const TYPES: [&str; 5] = [
    "string",
    "number",
    "json",
    "comma_delimited_list",
    "boolean",
];
