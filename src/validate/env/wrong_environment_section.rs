//! E6005 `WrongEnvironmentSection`.
//!
//! What it checks: every top-level section is one Heat knows (`requires` is
//! heatcap's own and accepted).
//!
//! Why: Heat refuses the environment when it loads it (also reported by
//! `resolve`).
//!
//! Example: `parameter_default:` (singular).

use crate::diag::{Code, Diagnostic};
use crate::validate::{EnvContext, EnvRule, RuleMeta};

pub struct WrongEnvironmentSection;

static META: RuleMeta = RuleMeta {
    code: Code("E6005"),
    name: "WrongEnvironmentSection",
    summary: "an environment section Heat does not know (`requires` is heatcap's own)",
    source: "heat-semantics §2.1 (environment_format.validate)",
};

impl EnvRule for WrongEnvironmentSection {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, cx: &EnvContext<'_>, out: &mut Vec<Diagnostic>) {
        super::section_errors(cx, META.code, out);
    }
}
