//! E1005 `UnknownCondition`.
//!
//! What it checks: a resource's or output's `condition` that is a name
//! refers to a condition defined in `conditions` (a boolean or a function is
//! also allowed).
//!
//! Why: Heat refuses the template ('resources.r.condition: Invalid condition
//! "x"').
//!
//! Example: `condition: is_prod` with no `is_prod` condition.

use crate::diag::{Code, Diagnostic};
use crate::model::{Format, Value};
use crate::validate::{Context, Rule, RuleMeta};

pub struct UnknownCondition;

static META: RuleMeta = RuleMeta {
    code: Code("E1005"),
    name: "UnknownCondition",
    summary: "a resource or output `condition` names a condition that is not defined",
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
    }
}
