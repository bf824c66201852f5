//! W2003 `UnusedParameter`.
//!
//! Its catalogue entry (`META`) says what it checks, why, and gives an
//! example; `docs/rules.md` and `heatcap rules` print it.

use super::{body_sections, declared_sections};
use crate::diag::{Code, Diagnostic};
use crate::model::Format;
use crate::validate::{function_args, reference_name, Context, Rule, RuleMeta};

pub(crate) struct UnusedParameter;

static META: RuleMeta = RuleMeta {
    code: Code("W2003"),
    name: "UnusedParameter",
    summary: "a declared parameter is never read with `get_param` (CFN `Ref`)",
    what: "Every declared parameter is used by a `get_param` (CFN `Ref`) in the resources, outputs or conditions.",
    why: "An unused parameter is asked of users for nothing, or hides a typo in the `get_param` that should use it. A parameter a parent passes as a property is the provider template's interface (Heat refuses a property the template does not declare, E7007), so it is not reported when the parent is among the files checked: a resource whose type is the template's path, a type an environment (checked, or given with `-e`) maps to it, or a group or chain member; a chain or group whose members are only known at deploy time passes its member properties to every template an environment maps.",
    example: "A parameter `Flavor` no resource reads.",
    source: "HOT spec parameters section; heatcap",
};

impl Rule for UnusedParameter {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
        let (params, _) = declared_sections(cx.template);
        let Some(declared) = cx.root.get(params).and_then(|n| n.as_map()) else {
            return;
        };
        let func = match cx.template.format {
            Format::Hot => "get_param",
            Format::Cfn => "Ref",
        };
        let mut used: std::collections::HashSet<String> = std::collections::HashSet::new();
        for section in body_sections(cx.template) {
            let Some(node) = cx.root.get(section) else {
                continue;
            };
            let mut args = Vec::new();
            function_args(node, func, &mut args);
            used.extend(
                args.iter()
                    .filter_map(|a| reference_name(a).map(|(n, _)| n.to_owned())),
            );
        }
        for (k, _) in &declared.entries {
            let name = k.value.key_str();
            if !used.contains(name.as_ref()) {
                out.push(
                    Diagnostic::new(
                        META.code,
                        cx.file.path.clone(),
                        format!("parameter `{name}` is never used"),
                    )
                    .with_key_path(vec![params.to_owned(), name.into_owned()])
                    .at(k.span),
                );
            }
        }
    }
}
