//! E3005 `InvalidDeletionPolicy`.
//!
//! Its catalogue entry (`META`) says what it checks, why, and gives an
//! example; `docs/rules.md` and `heatcap rules` print it.

use crate::diag::{Code, Diagnostic};
use crate::model::Format;
use crate::validate::{Context, Rule, RuleMeta};

pub(crate) struct InvalidDeletionPolicy;

static META: RuleMeta = RuleMeta {
    code: Code("E3005"),
    name: "InvalidDeletionPolicy",
    summary: "a deletion policy Heat does not know for the template's version",
    what: "A literal `deletion_policy` (`DeletionPolicy` in CFN) is `Delete`, `Retain` or `Snapshot`, or their lower-case forms from HOT 2016-10-14.",
    why: r#"Heat refuses the template ('Invalid deletion policy "X"')."#,
    example: "`deletion_policy: retain` in a 2015-10-15 template.",
    source: "heat-semantics §1.6 (deletion_policy)",
};

impl Rule for InvalidDeletionPolicy {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
        let (section, key) = match cx.template.format {
            Format::Hot => ("resources", "deletion_policy"),
            Format::Cfn => ("Resources", "DeletionPolicy"),
        };
        let lower = super::hot_at_least(cx.template, "2016-10-14");
        let Some(resources) = cx.root.get(section).and_then(|n| n.as_map()) else {
            return;
        };
        for (_, body) in &resources.entries {
            let Some(policy) = body.as_map().and_then(|b| b.get(key)) else {
                continue;
            };
            let Some(v) = policy.value.as_str() else {
                continue;
            };
            let ok = matches!(v, "Delete" | "Retain" | "Snapshot")
                || (lower && matches!(v, "delete" | "retain" | "snapshot"));
            if !ok {
                out.push(
                    Diagnostic::new(
                        META.code,
                        cx.file.path.clone(),
                        format!("invalid deletion policy `{v}`"),
                    )
                    .at(policy.span),
                );
            }
        }
    }
}
