//! W6007 `TemplateExtensionIgnored`.
//!
//! Its catalogue entry (`META`) says what it checks, why, and gives an
//! example; `docs/rules.md` and `heatcap rules` print it.

use crate::diag::{Code, Diagnostic};
use crate::model::Value;
use crate::validate::{EnvContext, EnvRule, RuleMeta};

use super::{finding, looks_like_template, mappings};

pub(crate) struct TemplateExtensionIgnored;

static META: RuleMeta = RuleMeta {
    code: Code("W6007"),
    name: "TemplateExtensionIgnored",
    summary: "a registry target looks like a template but does not end in `.yaml` or `.template` (Heat takes it for a type)",
    what: "A registry target (or a candidate of a list) that looks like a template ends in `.yaml` or `.template` (Heat's test is case-sensitive: `.yml`, `.YAML` and `.json` are types to Heat, though a template file may hold JSON).",
    why: "Heat looks such a target up as a type alias, which is not found.",
    example: "`OS::TripleO::Controller: controller.yml`, or `[a.yaml, b.json]`.",
    source: "heat-semantics §2.3 (case-sensitive suffix test)",
};

impl EnvRule for TemplateExtensionIgnored {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, cx: &EnvContext<'_>, out: &mut Vec<Diagnostic>) {
        for e in mappings(cx.env) {
            let targets: Vec<&crate::node::Node> = match &e.node.value {
                Value::Seq(items) => items.iter().collect(),
                _ => vec![&e.node],
            };
            for t in targets {
                if let Some(s) = t.value.as_str().filter(|s| looks_like_template(s)) {
                    out.push(finding(&META, cx, t.span, format!("`{s}` is not a template to Heat (only `.yaml` and `.template` are); it is looked up as a type")));
                }
            }
        }
    }
}
