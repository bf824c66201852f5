//! E3004 `MissingResourceReference`.
//!
//! Its catalogue entry (`META`) says what it checks, why, and gives an
//! example; `docs/rules.md` and `heatcap rules` print it.

use super::{body_sections, declared_sections};
use crate::diag::{Code, Diagnostic};
use crate::model::Format;
use crate::validate::{function_args, reference_name, Context, Rule, RuleMeta};

pub(crate) struct MissingResourceReference;

static META: RuleMeta = RuleMeta {
    code: Code("E3004"),
    name: "MissingResourceReference",
    summary: "`get_resource` or `get_attr` (CFN `Fn::GetAtt`) names a resource the template does not have",
    what: "Every `get_resource` and `get_attr` (CFN `Fn::GetAtt`) names a resource of the template.",
    why: r#"Heat refuses the template ('The specified reference "x" (in r) is incorrect.')."#,
    example: "`{get_attr: [Controlr, ip_address]}`.",
    source: "heat-semantics §1.6 (references)",
};

impl Rule for MissingResourceReference {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
        let (_, resources) = declared_sections(cx.template);
        let exists = |name: &str| {
            cx.root
                .get(resources)
                .and_then(|n| n.as_map())
                .is_some_and(|m| m.contains_key(name))
        };
        let funcs: &[&str] = match cx.template.format {
            Format::Hot => &["get_resource", "get_attr"],
            Format::Cfn => &["Fn::GetAtt"],
        };
        for section in body_sections(cx.template) {
            let Some(node) = cx.root.get(section) else {
                continue;
            };
            for func in funcs {
                let mut args = Vec::new();
                function_args(node, func, &mut args);
                for arg in args {
                    if let Some((name, span)) = reference_name(arg) {
                        if !exists(name) {
                            out.push(Diagnostic::new(META.code, cx.file.path.clone(), format!("`{func}` of `{name}`, which is not a resource of this template")).at(span));
                        }
                    }
                }
            }
        }
    }
}
