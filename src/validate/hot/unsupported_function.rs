//! E1003 `UnsupportedFunction`.
//!
//! Its catalogue entry (`META`) says what it checks, why, and gives an
//! example; `docs/rules.md` and `heatcap rules` print it.

use crate::diag::{Code, Diagnostic};
use crate::eval::tables::FUNCTIONS;
use crate::model::{Format, Node, Value};
use crate::validate::{Context, Rule, RuleMeta};

pub(crate) struct UnsupportedFunction;

static META: RuleMeta = RuleMeta {
    code: Code("E1003"),
    name: "UnsupportedFunction",
    summary: "an intrinsic function the template's HOT version does not support",
    what: "Every intrinsic function in `resources` and `outputs` is one the template's HOT version supports (heat-semantics §1.4 tables): `repeat` and `digest` from 2015-04-30, `str_split` from 2015-10-15, `map_merge` from 2016-04-08, `yaql`, `map_replace` and `if` from 2016-10-14, `filter` and `str_replace_strict` from 2017-02-24, `make_url`, `list_concat`, `list_concat_unique`, `str_replace_vstrict` and `contains` from 2017-09-01; CFN-style functions only in 2013-05-23 (`Fn::Select` until 2015-04-30). A one-key mapping whose key is no function at all is data, and is not flagged.",
    why: r#"Heat refuses the template ("The function X is not supported in this version of HOT")."#,
    example: "`{str_split: [',', a]}` in a 2015-04-30 template.",
    source: "heat-semantics §1.4 (function tables per HOT version)",
};

fn walk(node: &Node, version: &str, date: &str, cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    match &node.value {
        Value::Map(m) => {
            if m.len() == 1 {
                let (k, _) = &m.entries[0];
                if let Some(name) = k.value.as_str() {
                    if let Some((_, from, to)) = FUNCTIONS.iter().find(|(f, _, _)| *f == name) {
                        if date < *from || date > *to {
                            out.push(
                                Diagnostic::new(
                                    META.code,
                                    cx.file.path.clone(),
                                    format!("the function `{name}` is not supported in this version of HOT ({version})"),
                                )
                                .at(k.span),
                            );
                        }
                    }
                }
            }
            for (_, v) in &m.entries {
                walk(v, version, date, cx, out);
            }
        }
        Value::Seq(items) => items.iter().for_each(|i| walk(i, version, date, cx, out)),
        _ => {}
    }
}

impl Rule for UnsupportedFunction {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
        if cx.template.format != Format::Hot {
            return;
        }
        let Some(version) = cx.template.version.as_deref() else {
            return;
        };
        let Some(date) = super::hot_date(version) else {
            return;
        };
        for section in ["resources", "outputs"] {
            if let Some(node) = cx.root.get(section) {
                walk(node, version, date, cx, out);
            }
        }
    }
}
