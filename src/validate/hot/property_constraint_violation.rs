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
    summary: "a literal outside its property's constraints: allowed values, range, length, pattern, modulo (Heat at create: \"600 is out of range (min: 1, max: 512)\")",
    what: "Every literal value (converted as Heat converts it; `null` is the default or the type's empty value) meets its property's constraints as Heat checks them: `allowed_values` (each item, for a list), `range`, `length` (of a string, list or map), `allowed_pattern` (Python's `re.match`, then the whole value), `modulo`; a constraint with a description fails with that description, as in Heat. Not checked: values that are function calls; a value that refers to another resource (Heat does not validate it before create); and custom constraints. Those that ask a cloud cannot be checked offline: `nova.flavor`, `nova.keypair`, `nova.server`, `nova.host`, `glance.image`, `cinder.volume`, `cinder.snapshot`, `cinder.backup`, `cinder.vtype`, `cinder.qos_specs`, `neutron.network`, `neutron.port`, `neutron.subnet`, `neutron.router`, `neutron.security_group`, `neutron.qos_policy`, `neutron.address_scope`, `neutron.subnetpool`, `neutron.segment`, the other `neutron.*`, `keystone.*`, `barbican.*`, `designate.zone`, `manila.*`, `magnum.cluster_template`, `mistral.workflow`, `octavia.*`, `ironic.*`, `blazar.reservation`, `trove.flavor`, `zaqar.queue`; Heat's offline ones (`ip_addr`, `ip_or_cidr`, `net_cidr`, `mac_addr`, `dns_name`, `dns_domain`, `rel_dns_name`, `iso_8601`, `expiration`, `cron_expression`, `timezone`, `json_string`) are not checked yet either.",
    why: "`template validate` accepts the template, but `stack create` refuses it before creating anything, with Heat's message (recorded: fixtures/schema/out-of-range.yaml, subnet-ip-version.yaml, keypair-name-too-long.yaml, allowed-values-nested.yaml and others).",
    example: "`length: 600` on an `OS::Heat::RandomString` (range 1 to 512); `ip_version: 5`.",
    source: "Heat 27.0.1's property schemas; heat/engine/constraints.py",
};

impl Rule for PropertyConstraintViolation {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
        report(cx, &META, Kind::Constraint, out);
    }
}
