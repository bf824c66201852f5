//! E8018 `MetadataNotMap`.
//!
//! Its catalogue entry (`META`) says what it checks, why, and gives an
//! example; `docs/rules.md` and `heatcap rules` print it.

use crate::diag::{Code, Diagnostic};
use crate::model::Value;
use crate::validate::onap::{OnapContext, OnapRule};
use crate::validate::RuleMeta;

pub(crate) struct MetadataNotMap;

static META: RuleMeta = RuleMeta {
    code: Code("E8018"),
    name: "MetadataNotMap",
    summary: "a resource's `metadata` is not a mapping",
    what: "A resource's `metadata`, which ONAP allows, is a mapping.",
    why: r#"Heat rejects any other value (\"metadata type must be object\"), and ONAP reads server metadata (`vnf_id`, `vf_module_id`, ...) as keys."#,
    example: "`metadata: [vnf_id]`.",
    source: "ONAP R-67386 (VNF requirements 5.2.2.1.5.4)",
};

impl OnapRule for MetadataNotMap {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, cx: &OnapContext<'_>, out: &mut Vec<Diagnostic>) {
        for (key, body) in cx.resources() {
            let id = key.value.key_text();
            let Some(m) = body.as_map().and_then(|b| b.get("metadata")) else {
                continue;
            };
            if m.as_map().is_none() && !matches!(m.value, Value::Null) {
                out.push(cx.finding(
                    &META,
                    Some(m.span),
                    format!("resource `{id}` has `metadata` that is not a mapping"),
                ));
            }
        }
    }
}
