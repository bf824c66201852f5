//! E2007 `InvalidParameterGroups`.
//!
//! Its catalogue entry (`META`) says what it checks, why, and gives an
//! example; `docs/rules.md` and `heatcap rules` print it.

use crate::diag::{Code, Diagnostic};
use crate::model::{Format, Value};
use crate::validate::{Context, Rule, RuleMeta};

pub(crate) struct InvalidParameterGroups;

static META: RuleMeta = RuleMeta {
    code: Code("E2007"),
    name: "InvalidParameterGroups",
    summary: "`parameter_groups` is malformed, names an undeclared parameter, or names one twice",
    what: "HOT `parameter_groups` is a list of groups, each with a `parameters` list naming declared parameters (pseudo parameters count), each parameter in one group only.",
    why: r#"Heat refuses the template ("Parameter Groups error: …")."#,
    example: "A group listing `KeyNmae`.",
    source: "heat-semantics §1.9 (parameter_groups)",
};

impl Rule for InvalidParameterGroups {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
        if cx.template.format != Format::Hot {
            return;
        }
        let Some((key, groups)) = cx.root.entry("parameter_groups") else {
            return;
        };
        let err = |span, msg: String| {
            Diagnostic::new(
                META.code,
                cx.file.path.clone(),
                format!("parameter groups error: {msg}"),
            )
            .at(span)
        };
        let Value::Seq(groups) = &groups.value else {
            if groups.value != Value::Null {
                out.push(err(key.span, "`parameter_groups` should be a list".into()));
            }
            return;
        };
        let declared = cx.root.get("parameters").and_then(|n| n.as_map());
        let mut seen: Vec<String> = Vec::new();
        for g in groups {
            let Some(params) = g.as_map().and_then(|m| m.get("parameters")) else {
                out.push(err(
                    g.span,
                    "the parameters must be provided for each parameter group".into(),
                ));
                continue;
            };
            let Value::Seq(names) = &params.value else {
                out.push(err(
                    params.span,
                    "the parameters of a parameter group should be a list".into(),
                ));
                continue;
            };
            for n in names {
                let Some(name) = n.value.as_str() else {
                    continue;
                };
                if seen.iter().any(|s| s == name) {
                    out.push(err(
                        n.span,
                        format!("`{name}` must be assigned to one parameter group only"),
                    ));
                } else if !super::PSEUDO_PARAMETERS.contains(&name)
                    && !declared.is_some_and(|d| d.contains_key(name))
                {
                    out.push(err(
                        n.span,
                        format!(
                            "the grouped parameter `{name}` does not reference a valid parameter"
                        ),
                    ));
                }
                seen.push(name.to_owned());
            }
        }
    }
}
