//! E3018 `TooManyResources`.
//!
//! Its catalogue entry (`META`) says what it checks, why, and gives an
//! example; `docs/rules.md` and `heatcap rules` print it.

use crate::diag::{Code, Diagnostic};
use crate::heat_schema::MAX_RESOURCES_PER_STACK;
use crate::model::Format;
use crate::validate::{Context, Rule, RuleMeta};

pub(crate) struct TooManyResources;

static META: RuleMeta = RuleMeta {
    code: Code("E3018"),
    name: "TooManyResources",
    summary: "a template declares more than 1,000 resources (Heat's `max_resources_per_stack`)",
    what: "A template's `resources` (`Resources` in CFN) has at most 1,000 entries. Reported at the section's key. With `-e`, a template the composition reaches that is not among those checked is E7012's.",
    why: r#"Heat's `template validate` refuses the template before it looks at any resource, right after the sections are checked (`_validate_template`): "Request limit exceeded: Maximum resources per stack exceeded." `stack create` refuses it too."#,
    example: "a generated template with 1,200 resources.",
    source: "Heat 27.0.1 heat/engine/service.py `_validate_template` (max_resources_per_stack, 1,000 by default); tests/heat/schema-verdicts.json, limit-resources-1001.yaml",
};

impl Rule for TooManyResources {
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
        let count = resources.entries.len();
        if count > MAX_RESOURCES_PER_STACK {
            out.push(cx.key_finding(
                &META,
                section,
                format!(
                    "{count} resources, more than Heat's max_resources_per_stack ({MAX_RESOURCES_PER_STACK}) (Heat: Request limit exceeded: Maximum resources per stack exceeded.)"
                ),
            ));
        }
    }
}
