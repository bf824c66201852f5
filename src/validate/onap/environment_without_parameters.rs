//! E8020 `EnvironmentWithoutParameters`.
//!
//! Its catalogue entry (`META`) says what it checks, why, and gives an
//! example; `docs/rules.md` and `heatcap rules` print it.

use crate::diag::{Code, Diagnostic};
use crate::validate::onap::{ModuleKind, OnapContext, OnapRule};
use crate::validate::RuleMeta;

pub(crate) struct EnvironmentWithoutParameters;

static META: RuleMeta = RuleMeta {
    code: Code("E8020"),
    name: "EnvironmentWithoutParameters",
    summary: "an environment file has no `parameters` section",
    what: "Every `.env` file has a `parameters` section (it may be empty).",
    why: "ONAP reads the module's parameter values from that section, and requires it even when it lists nothing.",
    example: "A `.env` file with `parameter_defaults` only.",
    source: "ONAP R-03324 (VNF requirements 5.2.2.2)",
};

impl OnapRule for EnvironmentWithoutParameters {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, cx: &OnapContext<'_>, out: &mut Vec<Diagnostic>) {
        if cx.kind != ModuleKind::Environment || cx.file.tree.is_none() {
            return;
        }
        if !cx.root.is_some_and(|r| r.contains_key("parameters")) {
            out.push(cx.finding(
                &META,
                None,
                "the environment file has no `parameters` section",
            ));
        }
    }
}
