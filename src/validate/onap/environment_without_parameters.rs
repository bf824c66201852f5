//! E8020 `EnvironmentWithoutParameters`.
//!
//! What it checks: every `.env` file has a `parameters` section (it may be empty).
//!
//! Why: ONAP reads the module's parameter values from that section, and
//! requires it even when it lists nothing.
//!
//! Example: a `.env` file with `parameter_defaults` only.

use crate::diag::{Code, Diagnostic};
use crate::validate::onap::{ModuleKind, OnapContext, OnapRule};
use crate::validate::RuleMeta;

pub struct EnvironmentWithoutParameters;

static META: RuleMeta = RuleMeta {
    code: Code("E8020"),
    name: "EnvironmentWithoutParameters",
    summary: "an environment file has no `parameters` section",
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
