//! E4001 `OutputWithoutValue`.
//!
//! Its catalogue entry (`META`) says what it checks, why, and gives an
//! example; `docs/rules.md` and `heatcap rules` print it.

use crate::diag::{Code, Diagnostic};
use crate::model::{Format, Value};
use crate::validate::{Context, Rule, RuleMeta};

pub(crate) struct OutputWithoutValue;

static META: RuleMeta = RuleMeta {
    code: Code("E4001"),
    name: "OutputWithoutValue",
    summary: "an output is not a mapping, or has no value",
    what: "Every output is a mapping with a `value` (`Value` in CFN).",
    why: r#"Heat refuses the template ("Output validation error: outputs.x: Each output definition must contain a value key.", or "Output definitions must be a map")."#,
    example: "An output with only a `description`.",
    source: "heat-semantics §1.10 (outputs)",
};

impl Rule for OutputWithoutValue {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
        let (section, key) = match cx.template.format {
            Format::Hot => ("outputs", "value"),
            Format::Cfn => ("Outputs", "Value"),
        };
        let Some(outputs) = cx.root.get(section).and_then(|n| n.as_map()) else {
            return;
        };
        for (k, body) in &outputs.entries {
            let name = k.value.key_text();
            let message = match &body.value {
                Value::Map(m) if m.contains_key(key) => continue,
                Value::Map(_) => format!("output `{name}` must contain a `{key}` key"),
                other => format!("output `{name}` must be a map, found {}", other.kind_name()),
            };
            out.push(Diagnostic::new(META.code, cx.file.path.clone(), message).at(k.span));
        }
    }
}
