//! E8016 `RemoteResourceType`.
//!
//! Its catalogue entry (`META`) says what it checks, why, and gives an
//! example; `docs/rules.md` and `heatcap rules` print it.

use crate::diag::{Code, Diagnostic};
use crate::validate::onap::{OnapContext, OnapRule};
use crate::validate::RuleMeta;

pub(crate) struct RemoteResourceType;

static META: RuleMeta = RuleMeta {
    code: Code("E8016"),
    name: "RemoteResourceType",
    summary: "a resource type is a URL (a remote definition or nested template)",
    what: "No resource type (nor a `ResourceGroup`'s `resource_def` type) is a URL (`http`, `https`, `file`, `ftp`, `ftps`).",
    why: "ONAP onboards a package as a closed set of files; Heat would fetch a URL type at deploy time from wherever it points.",
    example: "`type: https://example.com/server.yaml`.",
    source: "ONAP R-53952, R-71699 (VNF requirements 5.2.2.1.5.2)",
};

impl OnapRule for RemoteResourceType {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, cx: &OnapContext<'_>, out: &mut Vec<Diagnostic>) {
        for (id, t) in cx.resource_types() {
            if t.as_str().is_some_and(is_url) {
                out.push(cx.finding(
                    &META,
                    Some(t.span),
                    format!("resource `{id}` has a URL type `{}`", t.value.key_text()),
                ));
            }
        }
    }
}

/// `scheme://rest` for the schemes ONAP forbids.
fn is_url(t: &str) -> bool {
    ["http", "https", "file", "ftp", "ftps"]
        .iter()
        .any(|scheme| {
            t.strip_prefix(scheme)
                .and_then(|r| r.strip_prefix("://"))
                .is_some_and(|r| !r.is_empty())
        })
}
