//! E6004 `InvalidHook`.
//!
//! What it checks: `hooks` and `restricted_actions` values are ones Heat accepts.
//!
//! Why: Heat refuses the environment when it loads it (also reported by
//! `resolve`).
//!
//! Example: `hooks: [pre-launch]`.

use crate::diag::{Code, Diagnostic};
use crate::resolve::merge::check_hooks;
use crate::validate::{EnvContext, EnvRule, RuleMeta};

pub struct InvalidHook;

static META: RuleMeta = RuleMeta {
    code: Code("E6004"),
    name: "InvalidHook",
    summary: "a `hooks` or `restricted_actions` value is not one Heat accepts",
    source: "heat-semantics §2.3 (ResourceRegistry hooks and restricted_actions)",
};

impl EnvRule for InvalidHook {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, cx: &EnvContext<'_>, out: &mut Vec<Diagnostic>) {
        if let Some(reg) = cx.root.as_map().and_then(|m| m.get("resource_registry")) {
            check_hooks(&cx.file.path, reg, out);
        }
    }
}
