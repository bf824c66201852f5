//! E8001 `DuplicateKey`.
//!
//! Its catalogue entry (`META`) says what it checks, why, and gives an
//! example; `docs/rules.md` and `heatcap rules` print it.

use crate::diag::{codes, Code, Diagnostic};
use crate::validate::onap::{ModuleKind, OnapContext, OnapRule};
use crate::validate::RuleMeta;

pub(crate) struct DuplicateKey;

static META: RuleMeta = RuleMeta {
    code: Code("E8001"),
    name: "DuplicateKey",
    summary: "a mapping repeats a key (ONAP counts it against template compliance)",
    what: "No mapping of a template or environment file repeats a key.",
    why: "ONAP counts a duplicate key against compliance with the OpenStack Template Guide; Heat keeps the last value silently, so the first is lost.",
    example: "`flavor:` twice under one resource's `properties`.",
    source: "ONAP R-92635 (VNF requirements 5.2.2)",
};

impl OnapRule for DuplicateKey {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn replaces(&self) -> &'static [Code] {
        &[codes::DUPLICATE_KEY]
    }

    fn check(&self, cx: &OnapContext<'_>, out: &mut Vec<Diagnostic>) {
        if !(cx.kind.is_template() || cx.kind == ModuleKind::Environment) {
            return;
        }
        for d in &cx.file.diagnostics {
            if d.code == codes::DUPLICATE_KEY {
                let mut found = d.clone();
                found.code = META.code;
                found.severity = META.severity();
                out.push(found);
            }
        }
    }
}
