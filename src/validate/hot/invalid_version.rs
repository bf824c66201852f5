//! E1001 `InvalidTemplateVersion`.
//!
//! Its catalogue entry (`META`) says what it checks, why, and gives an
//! example; `docs/rules.md` and `heatcap rules` print it.

use super::HOT_VERSIONS;
use crate::diag::{Code, Diagnostic};
use crate::model::Value;
use crate::validate::{Context, Rule, RuleMeta};

pub(crate) struct InvalidTemplateVersion;

static META: RuleMeta = RuleMeta {
    code: Code("E1001"),
    name: "InvalidTemplateVersion",
    summary: "the template version is missing, not a string, unknown, or ambiguous",
    what: "The version key's value is a string Heat knows (HOT dates and aliases; CFN `2010-09-09`, Heat `2012-12-12`), and only one version key is present.",
    why: r#"Heat refuses the template ("The template version is invalid: …")."#,
    example: "`heat_template_version: 2099-01-01`.",
    source: "heat-semantics §1.4 (heat/engine/template.py get_version)",
};

const KEYS: [(&str, &[&str]); 3] = [
    ("heat_template_version", &HOT_VERSIONS),
    ("AWSTemplateFormatVersion", &["2010-09-09"]),
    ("HeatTemplateFormatVersion", &["2012-12-12"]),
];

impl Rule for InvalidTemplateVersion {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
        let present: Vec<(&str, &[&str], &crate::model::Node)> = KEYS
            .iter()
            .filter_map(|(k, allowed)| cx.root.get(k).map(|v| (*k, *allowed, v)))
            .collect();
        if present.is_empty() {
            // Only a file read as a template without a version key (the
            // ONAP profile's versionless templates) gets here; Heat's client
            // refuses it before the engine sees it.
            out.push(cx.finding(
                &META,
                &[],
                "the template version is invalid: Template format version not found.",
            ));
            return;
        }
        let strings: Vec<_> = present
            .iter()
            .filter(|(_, _, v)| matches!(v.value, Value::Str(_)))
            .collect();
        if strings.len() > 1 {
            let names: Vec<String> = strings
                .iter()
                .map(|(k, _, v)| format!("{k}: {}", v.value.as_str().unwrap_or("")))
                .collect();
            out.push(cx.key_finding(
                &META,
                strings[1].0,
                format!(
                    "the template version is invalid: ambiguous versions ({})",
                    names.join(", ")
                ),
            ));
            return;
        }
        for (key, allowed, node) in &present {
            match &node.value {
                Value::Str(v) if allowed.contains(&v.as_str()) => {}
                Value::Str(v) => {
                    let expected = if allowed.len() == 1 {
                        format!("should be: {}", allowed[0])
                    } else {
                        format!("should be one of: {}", allowed.join(", "))
                    };
                    out.push(cx.finding(&META, &[key], format!("the template version is invalid: \"{key}: {v}\". \"{key}\" {expected}")));
                }
                other => out.push(cx.finding(
                    &META,
                    &[key],
                    format!("the template version is invalid: `{key}` is {}, not a string, so Heat finds no version", other.kind_name()),
                )),
            }
        }
    }
}
