//! E8004 `TemplateWithoutParameters`.
//!
//! Its catalogue entry (`META`) says what it checks, why, and gives an
//! example; `docs/rules.md` and `heatcap rules` print it.

use crate::diag::{Code, Diagnostic};
use crate::validate::onap::{ModuleKind, OnapContext, OnapRule};
use crate::validate::RuleMeta;

pub(crate) struct TemplateWithoutParameters;

static META: RuleMeta = RuleMeta {
    code: Code("E8004"),
    name: "TemplateWithoutParameters",
    summary: "a template (other than a base module) declares no parameters",
    what: "Every YAML template except a base module has a `parameters` section with at least one parameter. ONAP's own validator exempts base modules, which may declare no resources (R-23663) and so need no inputs; heatcap does the same.",
    why: "ONAP instantiates modules from their parameters and environment files.",
    example: "An incremental module with `parameters: {}`.",
    source: "ONAP R-35414 (VNF requirements 5.2.2.1.4)",
};

impl OnapRule for TemplateWithoutParameters {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, cx: &OnapContext<'_>, out: &mut Vec<Diagnostic>) {
        if !cx.kind.is_template() || cx.kind == ModuleKind::Base || cx.file.tree.is_none() {
            return;
        }
        let declared = cx.section("parameters");
        if declared.is_some_and(|(_, v)| v.as_map().is_some_and(|m| !m.is_empty())) {
            return;
        }
        out.push(cx.finding(
            &META,
            declared.map(|(k, _)| k.span),
            format!("the {} declares no parameters", cx.kind.as_str()),
        ));
    }
}
