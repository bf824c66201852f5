//! W6008 `GlobToTemplate`.
//!
//! Its catalogue entry (`META`) says what it checks, why, and gives an
//! example; `docs/rules.md` and `heatcap rules` print it.

use crate::diag::{Code, Diagnostic};
use crate::model::registry::{EntryValue, Scope};
use crate::validate::{EnvContext, EnvRule, RuleMeta};

use super::{finding, mappings};

pub(crate) struct GlobToTemplate;

static META: RuleMeta = RuleMeta {
    code: Code("W6008"),
    name: "GlobToTemplate",
    summary: "a glob key mapped to a template never matches any type",
    what: "No glob key is mapped to a template.",
    why: "A glob mapped to a template becomes a template entry that matches only the literal type with the `*`, never the types it looks like it covers.",
    example: "`OS::TripleO::Services::*: noop.yaml`.",
    source: "heat-semantics §2.5",
};

impl EnvRule for GlobToTemplate {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, cx: &EnvContext<'_>, out: &mut Vec<Diagnostic>) {
        for e in mappings(cx.env) {
            let key = &e.key;
            let to_template = matches!(&e.value, EntryValue::Template(p) if p != key);
            if e.scope == Scope::Top && key.ends_with('*') && to_template {
                out.push(finding(
                    &META,
                    cx,
                    e.span,
                    format!(
                        "`{key}` maps to a template, so it matches only the literal type `{key}`"
                    ),
                ));
            }
        }
    }
}
