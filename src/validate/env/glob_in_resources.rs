//! W6010 `GlobInResources`.
//!
//! What it checks: no glob type key sits under `resources:`.
//!
//! Why: per-resource entries are looked up by exact type only; the glob is
//! ignored.
//!
//! Example: `resources: {web: {OS::TripleO::*: OS::Heat::None}}`.

use crate::diag::{Code, Diagnostic};
use crate::validate::{EnvContext, EnvRule, RuleMeta};

use super::{finding, registry_entries};

pub struct GlobInResources;

static META: RuleMeta = RuleMeta {
    code: Code("W6010"),
    name: "GlobInResources",
    summary: "a glob key under `resources:` is ignored for type mapping",
    source: "heat-semantics §2.5",
};

impl EnvRule for GlobInResources {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, cx: &EnvContext<'_>, out: &mut Vec<Diagnostic>) {
        for (k, _, nested) in registry_entries(cx.root) {
            let key = k.value.key_text();
            if nested && key.ends_with('*') && key.contains("::") {
                out.push(finding(&META, cx, k.span, format!("`{key}` under `resources:` is not a wildcard: per-resource entries match exact types only")));
            }
        }
    }
}
