//! W6009 `LiteralStar`.
//!
//! What it checks: a `*` in a registry key is its last character.
//!
//! Why: only a trailing `*` is a wildcard; one elsewhere is a literal
//! character no resource type has.
//!
//! Example: `OS::*::Server: OS::Heat::None`.

use crate::diag::{Code, Diagnostic};
use crate::validate::{EnvContext, EnvRule, RuleMeta};

use super::{finding, registry_entries};

pub struct LiteralStar;

static META: RuleMeta = RuleMeta {
    code: Code("W6009"),
    name: "LiteralStar",
    summary: "a `*` that is not the last character of a key is literal, not a wildcard",
    source: "heat-semantics §2.5",
};

impl EnvRule for LiteralStar {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, cx: &EnvContext<'_>, out: &mut Vec<Diagnostic>) {
        for (k, _, _) in registry_entries(cx.root) {
            let key = k.value.key_text();
            if key.trim_end_matches('*').contains('*') {
                out.push(finding(
                    &META,
                    cx,
                    k.span,
                    format!("the `*` in `{key}` is literal; only a trailing `*` is a wildcard"),
                ));
            }
        }
    }
}
