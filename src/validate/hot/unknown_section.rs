//! E1002 `InvalidTemplateSection`.
//!
//! Its catalogue entry (`META`) says what it checks, why, and gives an
//! example; `docs/rules.md` and `heatcap rules` print it.

use crate::diag::{Code, Diagnostic};
use crate::model::Format;
use crate::validate::{Context, Rule, RuleMeta};

pub(crate) struct InvalidTemplateSection;

static META: RuleMeta = RuleMeta {
    code: Code("E1002"),
    name: "InvalidTemplateSection",
    summary: "a top-level key is not a section of the template's format and version",
    what: "Every top-level key is a section the template's format and version allow (`conditions` from HOT 2016-10-14; `Conditions` only with `AWSTemplateFormatVersion`). heatcap's own `capabilities` section is allowed: `heatcap export` removes it before Heat sees the template.",
    why: r#"Heat refuses the template ("The template section is invalid: X"); sections are case-sensitive, so `Resources` in HOT is invalid."#,
    example: "`Resources:` in a HOT template.",
    source: "heat-semantics §1.5 (Template.validate)",
};

/// The sections of every HOT version (`conditions` comes with 2016-10-14),
/// heatcap's `capabilities` included; the editor completes these.
pub(crate) const HOT: [&str; 7] = [
    "heat_template_version",
    "description",
    "parameter_groups",
    "parameters",
    "resources",
    "outputs",
    "capabilities",
];
const CFN: [&str; 8] = [
    "AWSTemplateFormatVersion",
    "HeatTemplateFormatVersion",
    "Description",
    "Mappings",
    "Parameters",
    "Resources",
    "Outputs",
    "capabilities",
];

impl Rule for InvalidTemplateSection {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
        let conditions = match cx.template.format {
            Format::Hot => super::hot_at_least(cx.template, "2016-10-14"),
            Format::Cfn => cx.root.contains_key("AWSTemplateFormatVersion"),
        };
        for (k, _) in &cx.root.entries {
            let key = k.value.key_str();
            let allowed = match cx.template.format {
                Format::Hot => HOT.contains(&key.as_ref()) || (conditions && key == "conditions"),
                Format::Cfn => CFN.contains(&key.as_ref()) || (conditions && key == "Conditions"),
            };
            if !allowed {
                out.push(
                    Diagnostic::new(
                        META.code,
                        cx.file.path.clone(),
                        format!("the template section is invalid: `{key}`"),
                    )
                    .with_key_path(vec![key.to_string()])
                    .at(k.span),
                );
            }
        }
    }
}
