//! E3006 `SlashInResourceName`.
//!
//! Its catalogue entry (`META`) says what it checks, why, and gives an
//! example; `docs/rules.md` and `heatcap rules` print it.

use crate::diag::{Code, Diagnostic};
use crate::model::Format;
use crate::validate::{Context, Rule, RuleMeta};

pub(crate) struct SlashInResourceName;

static META: RuleMeta = RuleMeta {
    code: Code("E3006"),
    name: "SlashInResourceName",
    summary: "a resource name contains `/`",
    what: "No resource name contains `/`.",
    why: r#"Heat refuses the template ('Resource name may not contain "/"')."#,
    example: "A resource named `web/server`.",
    source: "heat-semantics §1.6 (other resource checks)",
};

impl Rule for SlashInResourceName {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
        let section = match cx.template.format {
            Format::Hot => "resources",
            Format::Cfn => "Resources",
        };
        let Some(resources) = cx.root.get(section).and_then(|n| n.as_map()) else {
            return;
        };
        for (k, _) in &resources.entries {
            let name = k.value.key_str();
            if name.contains('/') {
                out.push(
                    Diagnostic::new(
                        META.code,
                        cx.file.path.clone(),
                        format!("resource name `{name}` may not contain \"/\""),
                    )
                    .at(k.span),
                );
            }
        }
    }
}
