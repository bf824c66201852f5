//! E1005 `UnknownCondition`.
//!
//! Its catalogue entry (`META`) says what it checks, why, and gives an
//! example; `docs/rules.md` and `heatcap rules` print it.

use crate::diag::{Code, Diagnostic};
use crate::model::{Format, Node, Value};
use crate::validate::{Context, Rule, RuleMeta};

pub(crate) struct UnknownCondition;

static META: RuleMeta = RuleMeta {
    code: Code("E1005"),
    name: "UnknownCondition",
    summary:
        "a `condition` key, `if` or a condition function names a condition that is not defined",
    what: "A condition named anywhere is defined in `conditions`: a resource's or output's `condition` that is a name (a boolean or a function is also allowed), the first argument of `if` (`Fn::If`), and a name given to `not`, `and` or `or` (`Fn::Not`, `Fn::And`, `Fn::Or`).",
    why: r#"Heat refuses the template ('resources.r.condition: Invalid condition "x"')."#,
    example: "`condition: is_prod`, or `{if: [is_prod, a, b]}`, with no `is_prod` condition.",
    source: "heat-semantics §1.11 (conditions)",
};

impl Rule for UnknownCondition {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
        let (conditions, key, sections) = match cx.template.format {
            Format::Hot => ("conditions", "condition", ["resources", "outputs"]),
            Format::Cfn => ("Conditions", "Condition", ["Resources", "Outputs"]),
        };
        let defined = cx.root.get(conditions).and_then(|n| n.as_map());
        for section in sections {
            let Some(items) = cx.root.get(section).and_then(|n| n.as_map()) else {
                continue;
            };
            for (name, body) in &items.entries {
                let Some(cond) = body.as_map().and_then(|b| b.get(key)) else {
                    continue;
                };
                let Value::Str(c) = &cond.value else { continue };
                if !defined.is_some_and(|d| d.contains_key(c)) {
                    let n = name.value.key_text();
                    out.push(
                        Diagnostic::new(
                            META.code,
                            cx.file.path.clone(),
                            format!(
                                "{section}.{n}.{key}: invalid condition `{c}`: no such condition"
                            ),
                        )
                        .at(cond.span),
                    );
                }
            }
        }
        let Some(tables) = super::functions::Tables::of(cx) else {
            return;
        };
        for call in tables.calls(cx.root, cx.template.format) {
            if call.invalid_here {
                // Heat stops at the invalid function (E1007).
                continue;
            }
            let items: Vec<&Node> = match (call.name, &call.args.value) {
                ("if" | "Fn::If", Value::Seq(items)) => items.iter().take(1).collect(),
                ("not", Value::Str(_)) => vec![call.args],
                ("and" | "or" | "Fn::And" | "Fn::Or" | "Fn::Not", Value::Seq(items)) => {
                    items.iter().collect()
                }
                _ => continue,
            };
            for item in items {
                let Value::Str(c) = &item.value else { continue };
                if !defined.is_some_and(|d| d.contains_key(c)) {
                    out.push(
                        Diagnostic::new(
                            META.code,
                            cx.file.path.clone(),
                            format!("{}: invalid condition `{c}`: no such condition", call.name),
                        )
                        .at(item.span),
                    );
                }
            }
        }
    }
}
