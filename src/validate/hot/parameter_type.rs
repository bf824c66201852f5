//! E2001 `InvalidParameterType`.
//!
//! Its catalogue entry (`META`) says what it checks, why, and gives an
//! example; `docs/rules.md` and `heatcap rules` print it.

use crate::diag::{Code, Diagnostic};
use crate::model::{Format, Value};
use crate::validate::{Context, Rule, RuleMeta};

pub(crate) struct InvalidParameterType;

static META: RuleMeta = RuleMeta {
    code: Code("E2001"),
    name: "InvalidParameterType",
    summary: "a parameter is not a mapping, or its type is missing or unknown",
    what: "Every parameter is a mapping with a `type` (`Type` in CFN) Heat knows, case included: HOT `string, number, comma_delimited_list, json, boolean`; CFN `String, Number, CommaDelimitedList, Json, Boolean`.",
    why: r#"Heat refuses the template ("Missing parameter type for parameter: X", "Invalid type (X)", "Invalid parameter (X), expected a mapping")."#,
    example: "`type: String` in a HOT template.",
    source: "heat-semantics §1.7 (parameter schemas)",
};

const HOT: [&str; 5] = [
    "string",
    "number",
    "comma_delimited_list",
    "json",
    "boolean",
];
const CFN: [&str; 5] = ["String", "Number", "CommaDelimitedList", "Json", "Boolean"];

impl Rule for InvalidParameterType {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
        let (section, key, known): (&str, &str, &[&str]) = match cx.template.format {
            Format::Hot => ("parameters", "type", &HOT),
            Format::Cfn => ("Parameters", "Type", &CFN),
        };
        let Some(params) = cx.root.get(section).and_then(|n| n.as_map()) else {
            return;
        };
        for (k, body) in &params.entries {
            let name = k.value.key_str();
            let (message, span) = match &body.value {
                Value::Map(m) => match m.get(key) {
                    None => (
                        format!("missing parameter type for parameter `{name}`"),
                        k.span,
                    ),
                    Some(t) => match &t.value {
                        Value::Str(s) if known.contains(&s.as_str()) => continue,
                        Value::Str(s) => (
                            format!(
                                "invalid type `{s}` for parameter `{name}`; one of: {}",
                                known.join(", ")
                            ),
                            t.span,
                        ),
                        other => (
                            format!(
                                "parameter `{name}`: `{key}` is {}, not a string",
                                other.kind_name()
                            ),
                            t.span,
                        ),
                    },
                },
                other => (
                    format!(
                        "invalid parameter `{name}`: {}, expected a mapping",
                        other.kind_name()
                    ),
                    k.span,
                ),
            };
            out.push(
                Diagnostic::new(META.code, cx.file.path.clone(), message)
                    .with_key_path(vec![section.to_owned(), name.into_owned()])
                    .at(span),
            );
        }
    }
}
