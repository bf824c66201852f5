//! E8015 `RepeatedResourceId`.
//!
//! Its catalogue entry (`META`) says what it checks, why, and gives an
//! example; `docs/rules.md` and `heatcap rules` print it.

use crate::diag::{Code, Diagnostic, Related, Span};
use crate::validate::onap::{OnapContext, OnapRule};
use crate::validate::RuleMeta;

pub(crate) struct RepeatedResourceId;

/// How many other declarations a finding names.
const SHOWN: usize = 3;

static META: RuleMeta = RuleMeta {
    code: Code("E8015"),
    name: "RepeatedResourceId",
    summary: "a resource ID is declared by another template of the package too",
    what: "No resource ID is declared by two templates of the package (modules and nested templates alike).",
    why: "ONAP keys resources by ID across the whole VNF; Heat only requires uniqueness within one template.",
    example: "`oam_port` in both `base_vnf.yaml` and `module_1.yaml`.",
    source: "ONAP R-16447 (VNF requirements 5.2.2.1.5.1)",
};

impl OnapRule for RepeatedResourceId {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, cx: &OnapContext<'_>, out: &mut Vec<Diagnostic>) {
        for (key, _) in cx.resources() {
            let id = key.value.key_text();
            let Some(declared) = cx.package.resource_ids.get(&id) else {
                continue;
            };
            let others: Vec<&(usize, Span)> =
                declared.iter().filter(|(i, _)| *i != cx.index).collect();
            if others.is_empty() {
                continue;
            }
            // The first few others by name, so a much-repeated ID costs little.
            let shown = &others[..others.len().min(SHOWN)];
            let names: Vec<String> = shown
                .iter()
                .map(|(i, _)| format!("`{}`", cx.package.files[*i].record.path))
                .collect();
            let more = match others.len() - shown.len() {
                0 => String::new(),
                1 => " and 1 more file".to_owned(),
                n => format!(" and {n} more files"),
            };
            let mut d = cx.finding(
                &META,
                Some(key.span),
                format!(
                    "resource ID `{id}` is also declared in {}{more}",
                    names.join(", ")
                ),
            );
            for (i, span) in shown {
                d = d.with_related(Related {
                    file: cx.package.files[*i].record.path.clone(),
                    span: Some(*span),
                    message: format!("`{id}` declared here"),
                });
            }
            out.push(d);
        }
    }
}
