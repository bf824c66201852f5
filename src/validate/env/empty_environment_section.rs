//! E6006 `EmptyEnvironmentSection`.
//!
//! What it checks: no environment section is null.
//!
//! Why: Heat refuses the environment when it loads it (also reported by
//! `resolve`).
//!
//! Example: `parameter_defaults:` with nothing under it.

use crate::diag::{Code, Diagnostic};
use crate::validate::{EnvContext, EnvRule, RuleMeta};

pub struct EmptyEnvironmentSection;

static META: RuleMeta = RuleMeta {
    code: Code("E6006"),
    name: "EmptyEnvironmentSection",
    summary: "an environment section whose value is null",
    source: "heat-semantics §2.1 (environment_format.validate)",
};

impl EnvRule for EmptyEnvironmentSection {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, cx: &EnvContext<'_>, out: &mut Vec<Diagnostic>) {
        super::section_errors(cx, META.code, out);
    }
}
