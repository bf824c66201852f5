//! E2005 `ConstraintInvalidForType`.
//!
//! Its catalogue entry (`META`) says what it checks, why, and gives an
//! example; `docs/rules.md` and `heatcap rules` print it.

use crate::diag::{Code, Diagnostic};
use crate::model::{Format, Value};
use crate::validate::{Context, Rule, RuleMeta};

pub(crate) struct ConstraintInvalidForType;

static META: RuleMeta = RuleMeta {
    code: Code("E2005"),
    name: "ConstraintInvalidForType",
    summary: "a parameter constraint that does not apply to the parameter's type",
    what: "Each HOT parameter constraint applies to the parameter's type: `range` and `modulo` to numbers; `length` to strings, lists and json; `allowed_values` and `custom_constraint` to all but json; `allowed_pattern` to strings only.",
    why: r#"Heat refuses the template ("Parameter 'p' is invalid: AllowedValues constraint invalid for Json")."#,
    example: "`allowed_pattern` on a `number` parameter.",
    source: "heat-semantics §1.7 (constraint applicability)",
};

fn applies(constraint: &str, ty: &str) -> Option<bool> {
    Some(match constraint {
        "range" | "modulo" => ty == "number",
        "length" => matches!(ty, "string" | "comma_delimited_list" | "json"),
        "allowed_values" | "custom_constraint" => ty != "json",
        "allowed_pattern" => ty == "string",
        _ => return None,
    })
}

impl Rule for ConstraintInvalidForType {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
        if cx.template.format != Format::Hot {
            return;
        }
        let Some(params) = cx.root.get("parameters").and_then(|n| n.as_map()) else {
            return;
        };
        for (name, body) in &params.entries {
            let Some(body) = body.as_map() else { continue };
            let Some(ty) = body.get("type").and_then(|t| t.value.as_str()) else {
                continue;
            };
            let Some(Value::Seq(items)) = body.get("constraints").map(|c| &c.value) else {
                continue;
            };
            for item in items {
                let Some(m) = item.as_map() else { continue };
                for (k, _) in &m.entries {
                    let c = k.value.key_text();
                    if applies(&c, ty) == Some(false) {
                        let p = name.value.key_text();
                        out.push(Diagnostic::new(META.code, cx.file.path.clone(), format!("parameter `{p}`: a `{c}` constraint is invalid for type `{ty}`")).at(k.span));
                    }
                }
            }
        }
    }
}
