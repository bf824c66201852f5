//! E8024 `PortOnManyServers`.
//!
//! Its catalogue entry (`META`) says what it checks, why, and gives an
//! example; `docs/rules.md` and `heatcap rules` print it.

use std::collections::BTreeMap;

use crate::diag::{Code, Diagnostic};
use crate::validate::onap::{OnapContext, OnapRule};
use crate::validate::RuleMeta;

pub(crate) struct PortOnManyServers;

static META: RuleMeta = RuleMeta {
    code: Code("E8024"),
    name: "PortOnManyServers",
    summary: "one port (`get_resource`) is attached to more than one `OS::Nova::Server`",
    what: "No port a template declares is attached, through `networks: [{port: {get_resource: ID}}]`, to two `OS::Nova::Server` resources of that template. It is reported at every server after the first.",
    why: "A Neutron port binds to one server: Nova refuses to attach a port already in use, so the second server fails at create, and ONAP's design studio (SDC) refuses the template on onboarding. ONAP's validation scripts count it against R-92635.",
    example: "`vm_0` and `vm_1` both with `networks: [{port: {get_resource: oam_port}}]`.",
    source: "ONAP R-92635 (VNF requirements 5.2.2; ONAP's validation scripts, test_port_connected_to_multiple_servers)",
};

impl OnapRule for PortOnManyServers {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, cx: &OnapContext<'_>, out: &mut Vec<Diagnostic>) {
        // Port ID → the first server that takes it.
        let mut first: BTreeMap<String, String> = BTreeMap::new();
        for (key, body) in cx.resources() {
            let Some(body) = body.as_map() else { continue };
            if body.get("type").and_then(|t| t.as_str()) != Some("OS::Nova::Server") {
                continue;
            }
            let server = key.value.key_text();
            let networks = body
                .get("properties")
                .and_then(|p| p.as_map())
                .and_then(|p| p.get("networks"))
                .and_then(|n| n.as_seq())
                .unwrap_or_default();
            for network in networks {
                let Some(reference) = network
                    .as_map()
                    .and_then(|n| n.get("port"))
                    .and_then(|p| p.as_map())
                    .filter(|p| p.entries.len() == 1)
                    .and_then(|p| p.get("get_resource"))
                else {
                    continue;
                };
                let Some(port) = reference.as_str() else {
                    continue;
                };
                match first.get(port) {
                    Some(owner) if *owner != server => out.push(cx.finding(
                        &META,
                        Some(reference.span),
                        format!(
                            "server `{server}` is attached to port `{port}`, which server `{owner}` is attached to already: a port binds to one server"
                        ),
                    )),
                    Some(_) => {}
                    None => {
                        first.insert(port.to_owned(), server.clone());
                    }
                }
            }
        }
    }
}
