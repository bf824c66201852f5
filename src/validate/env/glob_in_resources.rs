//! W6010 `GlobInResources`.
//!
//! Its catalogue entry (`META`) says what it checks, why, and gives an
//! example; `docs/rules.md` and `heatcap rules` print it.

use crate::diag::{Code, Diagnostic};
use crate::validate::{EnvContext, EnvRule, RuleMeta};

use super::{finding, mappings};

pub(crate) struct GlobInResources;

static META: RuleMeta = RuleMeta {
    code: Code("W6010"),
    name: "GlobInResources",
    summary: "a glob key under `resources:` is ignored for type mapping",
    what: "No glob type key sits under `resources:`.",
    why: "Per-resource entries are looked up by exact type only; the glob is ignored.",
    example: "`resources: {web: {OS::TripleO::*: OS::Heat::None}}`.",
    source: "heat-semantics §2.5",
};

impl EnvRule for GlobInResources {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, cx: &EnvContext<'_>, out: &mut Vec<Diagnostic>) {
        for e in mappings(cx.env) {
            let key = &e.key;
            if e.resource().is_some() && key.ends_with('*') && key.contains("::") {
                out.push(finding(&META, cx, e.span, format!("`{key}` under `resources:` is not a wildcard: per-resource entries match exact types only")));
            }
        }
    }
}
