//! W6009 `LiteralStar`.
//!
//! Its catalogue entry (`META`) says what it checks, why, and gives an
//! example; `docs/rules.md` and `heatcap rules` print it.

use crate::diag::{Code, Diagnostic};
use crate::validate::{EnvContext, EnvRule, RuleMeta};

use super::{finding, mappings};

pub(crate) struct LiteralStar;

static META: RuleMeta = RuleMeta {
    code: Code("W6009"),
    name: "LiteralStar",
    summary: "a `*` that is not the last character of a key is literal, not a wildcard",
    what: "A `*` in a registry key is its last character.",
    why: "Only a trailing `*` is a wildcard; one elsewhere is a literal character no resource type has.",
    example: "`OS::*::Server: OS::Heat::None`.",
    source: "heat-semantics §2.5",
};

impl EnvRule for LiteralStar {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, cx: &EnvContext<'_>, out: &mut Vec<Diagnostic>) {
        for e in mappings(cx.env) {
            let key = &e.key;
            if key.trim_end_matches('*').contains('*') {
                out.push(finding(
                    &META,
                    cx,
                    e.span,
                    format!("the `*` in `{key}` is literal; only a trailing `*` is a wildcard"),
                ));
            }
        }
    }
}
