//! E8022 `OrphanEnvironmentFile`.
//!
//! Its catalogue entry (`META`) says what it checks, why, and gives an
//! example; `docs/rules.md` and `heatcap rules` print it.

use crate::diag::{Code, Diagnostic};
use crate::validate::onap::{ModuleKind, OnapContext, OnapRule};
use crate::validate::RuleMeta;

pub(crate) struct OrphanEnvironmentFile;

static META: RuleMeta = RuleMeta {
    code: Code("E8022"),
    name: "OrphanEnvironmentFile",
    summary: "an environment file has no module of the same base name",
    what: "Every `.env` file has a base, incremental or volume module of the same base name (`.yaml` or `.yml`) beside it.",
    why: "ONAP pairs a module with its environment file by name; an environment file with no module (a typo in either name, a module since removed, or one named after a nested template, which takes none) is never used. ONAP's validator checks both directions of R-86285.",
    example: "`module_1.env` beside `module-1.yaml`.",
    source: "ONAP R-86285 (VNF requirements 5.2.2.2; ONAP's validator pairs both ways)",
};

impl OnapRule for OrphanEnvironmentFile {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, cx: &OnapContext<'_>, out: &mut Vec<Diagnostic>) {
        if cx.kind != ModuleKind::Environment {
            return;
        }
        let stem = &cx.package.files[cx.index].stem;
        let message = match cx.package.template_stems.get(stem) {
            Some(ModuleKind::Nested) => format!(
                "the environment file pairs with `{stem}`, a nested template, which takes none"
            ),
            Some(_) => return,
            None => format!("the environment file has no module `{stem}.yaml` or `{stem}.yml`"),
        };
        out.push(cx.finding(&META, None, message));
    }
}
