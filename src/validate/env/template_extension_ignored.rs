//! W6007 `TemplateExtensionIgnored`.
//!
//! What it checks: a registry target that looks like a template ends in `.yaml` or
//! `.template` (Heat's test is case-sensitive: `.yml` and `.YAML` are types
//! to Heat).
//!
//! Why: Heat looks such a target up as a type alias, which is not found.
//!
//! Example: `OS::TripleO::Controller: controller.yml`.

use crate::diag::{Code, Diagnostic};
use crate::model::Value;
use crate::validate::{EnvContext, EnvRule, RuleMeta};

use super::{finding, looks_like_template, registry_entries};

pub struct TemplateExtensionIgnored;

static META: RuleMeta = RuleMeta {
    code: Code("W6007"),
    name: "TemplateExtensionIgnored",
    summary: "a registry target looks like a template but does not end in `.yaml` or `.template` (Heat takes it for a type)",
    source: "heat-semantics §2.3 (case-sensitive suffix test)",
};

impl EnvRule for TemplateExtensionIgnored {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, cx: &EnvContext<'_>, out: &mut Vec<Diagnostic>) {
        for (_, v, _) in registry_entries(cx.root) {
            let targets: Vec<&crate::model::Node> = match &v.value {
                Value::Seq(items) => items.iter().collect(),
                _ => vec![v],
            };
            for t in targets {
                if let Some(s) = t.value.as_str().filter(|s| looks_like_template(s)) {
                    out.push(finding(&META, cx, t.span, format!("`{s}` is not a template to Heat (only `.yaml` and `.template` are); it is looked up as a type")));
                }
            }
        }
    }
}
