//! E6004 `InvalidHook`, E6005 `WrongEnvironmentSection`, E6006
//! `EmptyEnvironmentSection`: the environment errors Heat itself raises
//! when it loads the file (also reported by `resolve`).
//!
//! What they check: `hooks`/`restricted_actions` values are Heat's; every
//! top-level section is one Heat knows (`requires` is heatcap's own); no
//! section is null.
//!
//! Why: Heat refuses the environment with these messages.
//!
//! Example: `parameter_defaults:` with nothing under it.

use crate::diag::{Code, Diagnostic};
use crate::resolve::merge::{check_hooks, check_sections, EnvInput};
use crate::validate::{EnvContext, EnvRule, RuleMeta};

pub struct InvalidHook;
pub struct WrongEnvironmentSection;
pub struct EmptyEnvironmentSection;

static HOOK: RuleMeta = RuleMeta {
    code: Code("E6004"),
    name: "InvalidHook",
    summary: "a `hooks` or `restricted_actions` value is not one Heat accepts",
    source: "heat-semantics §2.3 (ResourceRegistry hooks and restricted_actions)",
};
static WRONG: RuleMeta = RuleMeta {
    code: Code("E6005"),
    name: "WrongEnvironmentSection",
    summary: "an environment section Heat does not know (`requires` is heatcap's own)",
    source: "heat-semantics §2.1 (environment_format.validate)",
};
static EMPTY: RuleMeta = RuleMeta {
    code: Code("E6006"),
    name: "EmptyEnvironmentSection",
    summary: "an environment section whose value is null",
    source: "heat-semantics §2.1 (environment_format.validate)",
};

fn sections(cx: &EnvContext<'_>, code: Code, out: &mut Vec<Diagnostic>) {
    let Some(root) = cx.root.as_map() else { return };
    let env = EnvInput {
        path: &cx.file.path,
        root: cx.root,
    };
    let mut found = Vec::new();
    check_sections(&env, root, &mut found);
    out.extend(found.into_iter().filter(|d| d.code == code));
}

impl EnvRule for InvalidHook {
    fn meta(&self) -> &'static RuleMeta {
        &HOOK
    }
    fn check(&self, cx: &EnvContext<'_>, out: &mut Vec<Diagnostic>) {
        if let Some(reg) = cx.root.as_map().and_then(|m| m.get("resource_registry")) {
            check_hooks(&cx.file.path, reg, out);
        }
    }
}

impl EnvRule for WrongEnvironmentSection {
    fn meta(&self) -> &'static RuleMeta {
        &WRONG
    }
    fn check(&self, cx: &EnvContext<'_>, out: &mut Vec<Diagnostic>) {
        sections(cx, WRONG.code, out);
    }
}

impl EnvRule for EmptyEnvironmentSection {
    fn meta(&self) -> &'static RuleMeta {
        &EMPTY
    }
    fn check(&self, cx: &EnvContext<'_>, out: &mut Vec<Diagnostic>) {
        sections(cx, EMPTY.code, out);
    }
}
