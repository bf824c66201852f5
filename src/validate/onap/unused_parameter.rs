//! E8005 `UnusedParameter`.
//!
//! Its catalogue entry (`META`) says what it checks, why, and gives an
//! example; `docs/rules.md` and `heatcap rules` print it.

use std::collections::BTreeSet;

use crate::diag::{Code, Diagnostic};
use crate::model::Node;
use crate::validate::onap::{get_params, OnapContext, OnapRule};
use crate::validate::{reference_name, RuleMeta};

pub(crate) struct UnusedParameter;

static META: RuleMeta = RuleMeta {
    code: Code("E8005"),
    name: "UnusedParameter",
    summary: "a parameter is read by no resource or output",
    what: "Every parameter of a YAML template is read by a `get_param` outside the `parameters` section. Parameters for `OS::Nova::Server`'s `availability_zone` (`availability_zone`, `availability_zone_0`, ...; R-98450) are exempt, as R-91273 lets them go unused.",
    why: "An unused parameter is an input ONAP asks operators for nothing; it often hides a typo in the `get_param` that should read it.",
    example: "`vnf_name` declared and never read.",
    source: "ONAP R-90279 (VNF requirements 5.2.2.1.4)",
};

impl OnapRule for UnusedParameter {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn replaces(&self) -> &'static [Code] {
        &[Code("W2003")]
    }

    fn check(&self, cx: &OnapContext<'_>, out: &mut Vec<Diagnostic>) {
        let Some(root) = cx.root.filter(|_| cx.kind.is_template()) else {
            return;
        };
        let Some(declared) = root.get("parameters").and_then(Node::as_map) else {
            return;
        };
        let mut calls = Vec::new();
        for (k, v) in &root.entries {
            if !matches!(k.value.as_str(), Some("parameters" | "parameter_groups")) {
                get_params(v, &mut calls);
            }
        }
        let used: BTreeSet<&str> = calls
            .iter()
            .filter_map(|(arg, _)| reference_name(arg).map(|(n, _)| n))
            .collect();
        for (k, _) in &declared.entries {
            let name = k.value.key_text();
            if !used.contains(name.as_str()) && !is_availability_zone(&name) {
                out.push(cx.finding(
                    &META,
                    Some(k.span),
                    format!("parameter `{name}` is read by no resource or output"),
                ));
            }
        }
    }
}

/// `availability_zone`, `availability_zone_0`, `availability_zone0`: the
/// names R-98450 gives `OS::Nova::Server`'s zone parameters.
fn is_availability_zone(name: &str) -> bool {
    name.strip_prefix("availability_zone").is_some_and(|rest| {
        rest.strip_prefix('_')
            .unwrap_or(rest)
            .bytes()
            .all(|b| b.is_ascii_digit())
    })
}

#[cfg(test)]
mod tests {
    use super::is_availability_zone;

    #[test]
    fn availability_zone_names() {
        for n in [
            "availability_zone",
            "availability_zone_0",
            "availability_zone12",
        ] {
            assert!(is_availability_zone(n), "{n}");
        }
        for n in ["availability_zones", "availability_zone_x", "zone_0"] {
            assert!(!is_availability_zone(n), "{n}");
        }
    }
}
