//! Heat's custom constraints that need no cloud, as Heat 27.0.1 checks
//! them (heat/engine/constraint/common_constraints.py and the libraries it
//! calls), each refusal with Heat's message.
//!
//! A custom constraint names a class (the data's `custom_constraints`
//! map). Those under `heat.engine.clients.` look the value up in a cloud
//! service (`nova.flavor`, `neutron.port`): never checked here. Of the
//! others, Heat 27.0.1 has:
//!
//! - checked: `ip_addr`, `ip_or_cidr`, `net_cidr`, `mac_addr` (netaddr,
//!   neutron-lib and glibc's `inet_pton`), `dns_name`, `dns_domain`,
//!   `rel_dns_name`, `expiration` (iso8601, against the current time),
//!   `json_string` (Python's `json.loads`);
//! - checked in part: `timezone` (whether a zone exists depends on the
//!   host's time-zone database: only keys `zoneinfo` refuses on any host)
//!   and `cron_expression` (croniter's syntax changes between versions:
//!   only the number of fields);
//! - not checked: `iso_8601` (no property of Heat 27.0.1 uses it), and
//!   `test_constr` and `nova.network`, whose class (`TestConstraintDelay`,
//!   for Heat's tests) goes through the client machinery and sleeps for
//!   the value.
//!
//! tests/heat/custom-constraints.json holds Heat's verdicts on a few
//! thousand values (tools/heat-oracle/custom_constraints.py); the tests
//! check heatcap agrees with every one.

mod dns;
mod json;
mod net;
mod time;

#[cfg(test)]
mod tests;

/// What heatcap knows of Heat's verdict on a value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// Heat accepts it.
    Accepts,
    /// Heat refuses it, with this message.
    Refuses(String),
    /// Not known offline (the constraint, or this value, is not checked).
    Unchecked,
}

impl Verdict {
    fn of(refusal: Option<String>) -> Verdict {
        refusal.map_or(Verdict::Accepts, Verdict::Refuses)
    }
}

/// The offline custom constraints heatcap checks (wholly or in part),
/// with what a refused value is, for messages.
pub(crate) const CHECKED: [(&str, &str); 11] = [
    ("ip_addr", "is not a valid IP address"),
    ("ip_or_cidr", "is not a valid IP address or CIDR"),
    ("net_cidr", "is not a valid network CIDR"),
    ("mac_addr", "is not a valid MAC address"),
    ("dns_name", "is not a valid DNS name"),
    ("dns_domain", "is not a valid DNS domain"),
    ("rel_dns_name", "is not a valid relative DNS name"),
    ("expiration", "is not an ISO 8601 time in the future"),
    ("json_string", "is not valid JSON"),
    ("timezone", "is not a valid time zone key"),
    ("cron_expression", "is not a valid cron expression"),
];

/// Heat's verdict on a string `value` under the custom constraint `name`
/// (Heat's `CustomConstraint._err_msg`: `Error validating value '…': …`).
pub(crate) fn check(name: &str, value: &str) -> Verdict {
    let verdict = match name {
        "ip_addr" => Verdict::of(net::ip_addr(value)),
        "ip_or_cidr" => Verdict::of(net::ip_or_cidr(value)),
        "net_cidr" => Verdict::of(net::net_cidr(value)),
        "mac_addr" => Verdict::of(net::mac_addr(value)),
        "dns_name" => Verdict::of(dns::dns_name(value)),
        "dns_domain" => Verdict::of(dns::dns_domain(value)),
        "rel_dns_name" => Verdict::of(dns::rel_dns_name(value)),
        "expiration" => Verdict::of(time::expiration(value)),
        "json_string" => json::json_string(value),
        "timezone" => time::timezone(value),
        "cron_expression" => time::cron_expression(value),
        _ => Verdict::Unchecked,
    };
    match verdict {
        Verdict::Refuses(m) => Verdict::Refuses(format!("Error validating value '{value}': {m}")),
        other => other,
    }
}

/// What a value `check` refuses under `name` is, for messages.
pub(crate) fn what(name: &str) -> &'static str {
    CHECKED
        .iter()
        .find(|(n, _)| *n == name)
        .map_or("fails its custom constraint", |(_, w)| w)
}
