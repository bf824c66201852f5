//! E8019 `MissingEnvironmentFile`.
//!
//! Its catalogue entry (`META`) says what it checks, why, and gives an
//! example; `docs/rules.md` and `heatcap rules` print it.

use crate::diag::{Code, Diagnostic};
use crate::validate::onap::{ModuleKind, OnapContext, OnapRule};
use crate::validate::RuleMeta;

pub(crate) struct MissingEnvironmentFile;

static META: RuleMeta = RuleMeta {
    code: Code("E8019"),
    name: "MissingEnvironmentFile",
    summary: "a module has no environment file of the same base name (`.env`)",
    what: "Every base, incremental and volume module has an environment file of the same name with the extension `.env` beside it (nested templates need none).",
    why: "ONAP makes the environment file mandatory: it is where every parameter value comes from.",
    example: "`module_1.yaml` without `module_1.env`.",
    source: "ONAP R-86285 (VNF requirements 5.2.2.2)",
};

impl OnapRule for MissingEnvironmentFile {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, cx: &OnapContext<'_>, out: &mut Vec<Diagnostic>) {
        if !matches!(
            cx.kind,
            ModuleKind::Base | ModuleKind::Incremental | ModuleKind::Volume
        ) {
            return;
        }
        let stem = &cx.package.files[cx.index].stem;
        if !cx.package.env_stems.contains(stem) {
            out.push(cx.finding(
                &META,
                None,
                format!(
                    "the {} has no environment file `{stem}.env`",
                    cx.kind.as_str()
                ),
            ));
        }
    }
}
