//! E1004 `NullConditions`.
//!
//! Its catalogue entry (`META`) says what it checks, why, and gives an
//! example; `docs/rules.md` and `heatcap rules` print it.

use crate::diag::{Code, Diagnostic};
use crate::model::{Format, Value};
use crate::validate::{Context, Rule, RuleMeta};

pub(crate) struct NullConditions;

static META: RuleMeta = RuleMeta {
    code: Code("E1004"),
    name: "NullConditions",
    summary: "the `conditions` section is null or not a mapping",
    what: "A HOT `conditions:` section is not null (every other null section is treated as empty by Heat, this one is not).",
    why: r#"Heat refuses the template ("Conditions validation error: Condition definitions must be a map. Found a NoneType instead")."#,
    example: "`conditions:` with nothing under it.",
    source: "heat-semantics §1.5, §1.11",
};

impl Rule for NullConditions {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
        let key = match cx.template.format {
            Format::Hot => "conditions",
            Format::Cfn => "Conditions",
        };
        if let Some((k, v)) = cx.root.entry(key) {
            if !matches!(v.value, Value::Map(_)) {
                out.push(
                    Diagnostic::new(
                        META.code,
                        cx.file.path.clone(),
                        format!(
                            "condition definitions must be a map, found {}",
                            v.value.kind_name()
                        ),
                    )
                    .at(k.span),
                );
            }
        }
    }
}
