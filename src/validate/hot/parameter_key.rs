//! E2004 `InvalidParameterKey`.
//!
//! Its catalogue entry (`META`) says what it checks, why, and gives an
//! example; `docs/rules.md` and `heatcap rules` print it.

use crate::diag::{Code, Diagnostic};
use crate::model::Format;
use crate::validate::{Context, Rule, RuleMeta};

pub(crate) struct InvalidParameterKey;

static META: RuleMeta = RuleMeta {
    code: Code("E2004"),
    name: "InvalidParameterKey",
    summary: "a parameter uses a key its format or version does not allow",
    what: "A parameter uses only the keys its format allows: HOT `type, description, default, schema, constraints, hidden, label, immutable`, plus `tags` from 2018-03-02; CFN `Type, Default, NoEcho, AllowedValues, AllowedPattern, MaxLength, MinLength, MaxValue, MinValue, Description, ConstraintDescription, Label`.",
    why: r#"Heat refuses the template ("Invalid key 'x' for parameter (p)")."#,
    example: "`tags: [a]` in a 2016-10-14 template.",
    source: "heat-semantics §1.7 (allowed keys)",
};

const HOT: [&str; 8] = [
    "type",
    "description",
    "default",
    "schema",
    "constraints",
    "hidden",
    "label",
    "immutable",
];
const CFN: [&str; 12] = [
    "Type",
    "Default",
    "NoEcho",
    "AllowedValues",
    "AllowedPattern",
    "MaxLength",
    "MinLength",
    "MaxValue",
    "MinValue",
    "Description",
    "ConstraintDescription",
    "Label",
];

impl Rule for InvalidParameterKey {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
        let (section, allowed): (&str, &[&str]) = match cx.template.format {
            Format::Hot => ("parameters", &HOT),
            Format::Cfn => ("Parameters", &CFN),
        };
        let tags = super::hot_at_least(cx.template, "2018-03-02");
        let Some(params) = cx.root.get(section).and_then(|n| n.as_map()) else {
            return;
        };
        for (name, body) in &params.entries {
            let Some(body) = body.as_map() else { continue };
            for (k, _) in &body.entries {
                let key = k.value.key_str();
                if !(allowed.contains(&key.as_ref()) || (tags && key == "tags")) {
                    let p = name.value.key_str();
                    out.push(
                        Diagnostic::new(
                            META.code,
                            cx.file.path.clone(),
                            format!("invalid key `{key}` for parameter `{p}`"),
                        )
                        .at(k.span),
                    );
                }
            }
        }
    }
}
