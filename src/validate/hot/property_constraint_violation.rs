//! E3015 `PropertyConstraintViolation`.
//!
//! Its catalogue entry (`META`) says what it checks, why, and gives an
//! example; `docs/rules.md` and `heatcap rules` print it. The walk is
//! shared with the other rules on Heat's resource types
//! (`plugin_schema`).

use super::plugin_schema::{report, Kind};
use crate::diag::{Code, Diagnostic};
use crate::validate::{Context, Rule, RuleMeta};

pub(crate) struct PropertyConstraintViolation;

static META: RuleMeta = RuleMeta {
    code: Code("E3015"),
    name: "PropertyConstraintViolation",
    summary: "a literal outside its property's constraints: allowed values, range, length, pattern, modulo, Heat's offline custom constraints such as `ip_addr` and `net_cidr` (Heat at create: \"600 is out of range (min: 1, max: 512)\")",
    what: "Every literal value (converted as Heat converts it; `null` is the default or the type's empty value) meets its property's constraints as Heat checks them: `allowed_values` (each item, for a list), `range`, `length` (of a string, list or map), `allowed_pattern` (Python's `re.match`, then the whole value), `modulo`, and the custom constraints Heat checks without a cloud, with the code Heat runs (netaddr, neutron-lib, iso8601, Python's `json` and `zoneinfo`, croniter) and Heat's message: `ip_addr` (`10.0.0.256`, `192.168.1`, an empty string), `ip_or_cidr` (`10.0.0.01` is refused, `10.0.0.1` recommended), `net_cidr` (`10.0.0.0/33`, `10.0.0/24`), `mac_addr`, `dns_name`, `dns_domain` (it must end with a dot), `rel_dns_name` (it must not), `expiration` (an ISO 8601 time, which must be in the future), `json_string`; and, in part, `timezone` (only the keys Python refuses on any host: absolute or unnormalised paths; whether a zone exists depends on the host's time-zone database) and `cron_expression` (only the number of fields, which croniter checks first in every version; its syntax beyond that changes between versions). A constraint with a description fails with that description, as in Heat. Not checked: values that are function calls; a value that refers to another resource (Heat does not validate it before create); `iso_8601`, which no property of Heat 27.0.1 uses; `test_constr` (the test resource `OS::Heat::TestResource`, whose constraint sleeps); and the custom constraints that ask a cloud, which cannot be checked offline: `nova.flavor`, `nova.keypair`, `nova.server`, `nova.host`, `glance.image`, `cinder.volume`, `cinder.snapshot`, `cinder.backup`, `cinder.vtype`, `cinder.qos_specs`, `neutron.network`, `neutron.port`, `neutron.subnet`, `neutron.router`, `neutron.security_group`, `neutron.qos_policy`, `neutron.address_scope`, `neutron.subnetpool`, `neutron.segment`, the other `neutron.*`, `keystone.*`, `barbican.*`, `designate.zone`, `manila.*`, `magnum.cluster_template`, `mistral.workflow`, `octavia.*`, `ironic.*`, `blazar.reservation`, `trove.flavor`, `zaqar.queue`.",
    why: "`template validate` accepts the template, but `stack create` refuses it before creating anything, with Heat's message (recorded: fixtures/schema/out-of-range.yaml, subnet-ip-version.yaml, keypair-name-too-long.yaml, allowed-values-nested.yaml, custom-port-fixed-ip.yaml, custom-subnet-cidr.yaml and others; Heat's verdicts on 2,672 values of the custom constraints are in tests/heat/custom-constraints.json).",
    example: "`length: 600` on an `OS::Heat::RandomString` (range 1 to 512); `ip_version: 5`; a port's `fixed_ips: [{ip_address: 10.0.0.256}]`; a subnet's `cidr: 10.0.0.0/33`.",
    source: "Heat 27.0.1's property schemas; heat/engine/constraints.py; heat/engine/constraint/common_constraints.py",
};

impl Rule for PropertyConstraintViolation {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
        report(cx, &META, Kind::Constraint, out);
    }
}
