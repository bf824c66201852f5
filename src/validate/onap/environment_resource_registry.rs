//! E8021 `EnvironmentResourceRegistry`.
//!
//! Its catalogue entry (`META`) says what it checks, why, and gives an
//! example; `docs/rules.md` and `heatcap rules` print it.

use crate::diag::{Code, Diagnostic};
use crate::validate::onap::{ModuleKind, OnapContext, OnapRule};
use crate::validate::RuleMeta;

pub(crate) struct EnvironmentResourceRegistry;

static META: RuleMeta = RuleMeta {
    code: Code("E8021"),
    name: "EnvironmentResourceRegistry",
    summary: "an environment file has a `resource_registry` section",
    what: "No `.env` file has a `resource_registry` section.",
    why: "ONAP does not support custom resource types; nested templates are named by file in the module instead.",
    example: "`resource_registry: {My::Server: server.yaml}` in `module_1.env`.",
    source: "ONAP R-67231 (VNF requirements 5.2.2.2)",
};

impl OnapRule for EnvironmentResourceRegistry {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, cx: &OnapContext<'_>, out: &mut Vec<Diagnostic>) {
        if cx.kind != ModuleKind::Environment {
            return;
        }
        if let Some((k, _)) = cx.section("resource_registry") {
            out.push(cx.finding(
                &META,
                Some(k.span),
                "the environment file has a `resource_registry` section",
            ));
        }
    }
}
