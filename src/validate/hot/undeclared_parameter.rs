//! E2002 `UndeclaredParameter`.
//!
//! Its catalogue entry (`META`) says what it checks, why, and gives an
//! example; `docs/rules.md` and `heatcap rules` print it.

use super::{body_sections, declared_sections, PSEUDO_PARAMETERS};
use crate::diag::{Code, Diagnostic};
use crate::model::Format;
use crate::validate::{function_args, reference_name, Context, Rule, RuleMeta};

pub(crate) struct UndeclaredParameter;

static META: RuleMeta = RuleMeta {
    code: Code("E2002"),
    name: "UndeclaredParameter",
    summary: "`get_param` (or CFN `Ref`) names a parameter the template does not declare",
    what: "Every `get_param` (HOT) names a declared parameter or a pseudo parameter (`OS::stack_id`, ...); in CFN, every `Ref` names a parameter, a resource or a pseudo parameter.",
    why: r#"Heat refuses the template (the parameter is not found, or "The specified reference is incorrect")."#,
    example: "`{get_param: KeyNmae}`.",
    source: "heat-semantics §1.6 (references), HOT spec get_param",
};

impl Rule for UndeclaredParameter {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
        let (params, resources) = declared_sections(cx.template);
        let declared = |name: &str| {
            PSEUDO_PARAMETERS.contains(&name)
                || cx
                    .root
                    .get(params)
                    .and_then(|n| n.as_map())
                    .is_some_and(|m| m.contains_key(name))
                || (cx.template.format == Format::Cfn
                    && cx
                        .root
                        .get(resources)
                        .and_then(|n| n.as_map())
                        .is_some_and(|m| m.contains_key(name)))
        };
        let func = match cx.template.format {
            Format::Hot => "get_param",
            Format::Cfn => "Ref",
        };
        for section in body_sections(cx.template) {
            let Some(node) = cx.root.get(section) else {
                continue;
            };
            let mut args = Vec::new();
            function_args(node, func, &mut args);
            for arg in args {
                if let Some((name, span)) = reference_name(arg) {
                    if !declared(name) {
                        out.push(
                            Diagnostic::new(
                                META.code,
                                cx.file.path.clone(),
                                format!("`{func}` of `{name}`, which is not declared"),
                            )
                            .at(span),
                        );
                    }
                }
            }
        }
    }
}
