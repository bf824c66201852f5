//! E3001 `ResourceWithoutType`.
//!
//! Its catalogue entry (`META`) says what it checks, why, and gives an
//! example; `docs/rules.md` and `heatcap rules` print it.

use crate::diag::{Code, Diagnostic};
use crate::model::{Format, Value};
use crate::validate::{Context, Rule, RuleMeta};

pub(crate) struct ResourceWithoutType;

static META: RuleMeta = RuleMeta {
    code: Code("E3001"),
    name: "ResourceWithoutType",
    summary: "a resource is not a mapping, or has no non-empty string type",
    what: "Every resource is a mapping with a non-empty string `type` (`Type` in CFN).",
    why: r#"Heat refuses the template ("Each resource must contain a type key.", "Resource X type must be string")."#,
    example: "A resource with only `properties`.",
    source: "heat-semantics §1.6 (resource definitions)",
};

impl Rule for ResourceWithoutType {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
        let (section, type_key) = match cx.template.format {
            Format::Hot => ("resources", "type"),
            Format::Cfn => ("Resources", "Type"),
        };
        let Some(resources) = cx.root.get(section).and_then(|n| n.as_map()) else {
            return;
        };
        for (k, body) in &resources.entries {
            let name = k.value.key_str();
            let problem = match &body.value {
                Value::Map(m) => match m.get(type_key).map(|n| &n.value) {
                    None => Some(format!("resource `{name}` has no `{type_key}`")),
                    Some(Value::Str(t)) if t.is_empty() => {
                        Some(format!("resource `{name}` has an empty `{type_key}`"))
                    }
                    Some(Value::Str(_)) => None,
                    Some(other) => Some(format!(
                        "resource `{name}`: `{type_key}` is {}, not a string",
                        other.kind_name()
                    )),
                },
                Value::Null => Some(format!(
                    "resource `{name}` is empty; each resource must contain a type key"
                )),
                other => Some(format!(
                    "resource `{name}` is {}, not a mapping",
                    other.kind_name()
                )),
            };
            if let Some(message) = problem {
                out.push(
                    Diagnostic::new(META.code, cx.file.path.clone(), message)
                        .with_key_path(vec![section.to_owned(), name.into_owned()])
                        .at(k.span),
                );
            }
        }
    }
}
