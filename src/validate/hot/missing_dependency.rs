//! E3003 `DependsOnMissingResource`.
//!
//! Its catalogue entry (`META`) says what it checks, why, and gives an
//! example; `docs/rules.md` and `heatcap rules` print it.

use crate::diag::{Code, Diagnostic};
use crate::model::{Format, Value};
use crate::validate::{Context, Rule, RuleMeta};

pub(crate) struct DependsOnMissingResource;

static META: RuleMeta = RuleMeta {
    code: Code("E3003"),
    name: "DependsOnMissingResource",
    summary: "`depends_on` names a resource the template does not have",
    what: "Every name in a HOT resource's `depends_on` (a string or a list) is a resource of the same template.",
    why: r#"Heat refuses the template ('The specified reference "x" (in r) is incorrect.')."#,
    example: "`depends_on: [Networks, Netwroks]`.",
    source: "heat-semantics §1.6 (dependency references)",
};

impl Rule for DependsOnMissingResource {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
        if cx.template.format != Format::Hot {
            return;
        }
        let Some(resources) = cx.root.get("resources").and_then(|n| n.as_map()) else {
            return;
        };
        for (name, body) in &resources.entries {
            let Some(dep) = body.as_map().and_then(|b| b.get("depends_on")) else {
                continue;
            };
            let items: Vec<&crate::model::Node> = match &dep.value {
                Value::Seq(items) => items.iter().collect(),
                _ => vec![dep],
            };
            for item in items {
                let Some(target) = item.value.as_str() else {
                    continue;
                };
                if !resources.contains_key(target) {
                    let r = name.value.key_text();
                    out.push(
                        Diagnostic::new(META.code, cx.file.path.clone(), format!("the specified reference `{target}` (in `{r}`) is incorrect: no such resource"))
                            .with_key_path(vec!["resources".into(), r, "depends_on".into()])
                            .at(item.span),
                    );
                }
            }
        }
    }
}
