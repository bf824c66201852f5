//! E3002 `InvalidResourceKeyword`.
//!
//! Its catalogue entry (`META`) says what it checks, why, and gives an
//! example; `docs/rules.md` and `heatcap rules` print it.

use crate::diag::{Code, Diagnostic};
use crate::model::Format;
use crate::validate::{Context, Rule, RuleMeta};

pub(crate) struct InvalidResourceKeyword;

static META: RuleMeta = RuleMeta {
    code: Code("E3002"),
    name: "InvalidResourceKeyword",
    summary: "a HOT resource uses a key its template version does not allow",
    what: "HOT resource definitions use only the keys their version allows: `type, properties, metadata, depends_on, deletion_policy, update_policy, description`, plus `external_id, condition` from 2016-10-14. (CFN allows unknown keys, so CFN is not checked.)",
    why: r#"Heat refuses the template ("X" is not a valid keyword inside a resource definition)."#,
    example: "`propertes:` (a typo) in a resource.",
    source: "heat-semantics §1.6 (HOTemplate20130523.validate_section)",
};

const BASE: [&str; 7] = [
    "type",
    "properties",
    "metadata",
    "depends_on",
    "deletion_policy",
    "update_policy",
    "description",
];

impl Rule for InvalidResourceKeyword {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
        if cx.template.format != Format::Hot {
            return;
        }
        let newer = super::hot_at_least(cx.template, "2016-10-14");
        let Some(resources) = cx.root.get("resources").and_then(|n| n.as_map()) else {
            return;
        };
        for (name, body) in &resources.entries {
            let Some(body) = body.as_map() else { continue };
            for (k, _) in &body.entries {
                let key = k.value.key_str();
                let ok = BASE.contains(&key.as_ref())
                    || (newer && matches!(key.as_ref(), "external_id" | "condition"));
                if !ok {
                    out.push(
                        Diagnostic::new(
                            META.code,
                            cx.file.path.clone(),
                            format!("`{key}` is not a valid keyword inside a resource definition (resource `{}`)", name.value.key_text()),
                        )
                        .with_key_path(vec!["resources".into(), name.value.key_text(), key.to_string()])
                        .at(k.span),
                    );
                }
            }
        }
    }
}
