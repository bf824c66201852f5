//! E3008 `UnknownResourceType`.
//!
//! Its catalogue entry (`META`) says what it checks, why, and gives an
//! example; `docs/rules.md` and `heatcap rules` print it. The walk is
//! shared with the other rules on Heat's resource types
//! (`plugin_schema`).

use super::plugin_schema::{report, Kind};
use crate::diag::{Code, Diagnostic};
use crate::validate::{Context, Rule, RuleMeta};

pub(crate) struct UnknownResourceType;

static META: RuleMeta = RuleMeta {
    code: Code("E3008"),
    name: "UnknownResourceType",
    summary: "a resource type in one of Heat's own namespaces (`OS::Nova::`, `OS::Heat::`, `AWS::`, ...) that Heat 27.0.1 does not have; the nearest real name is suggested",
    what: "Every resource type in one of Heat's namespaces (`AWS::`, or the first two parts of a type Heat has or aliases: `OS::Nova::`, `OS::Neutron::`, `OS::Heat::`, `OS::Quantum::`, ...) is a type of Heat 27.0.1's global environment, or an alias of its default environment (`OS::Ceilometer::Alarm`). A `ResourceGroup`'s `resource_def` type and a `ResourceChain`'s member types are checked too (Heat refuses those at create). Types outside Heat's namespaces (`OS::TripleO::Controller`, `My::Server`) are expected to be mapped by the environments given at deploy time and are not reported; with `-e` the composition reports every type nothing provides (E7004, with the same hint), so this rule leaves those to it; under `--profile onap` E8023 reports every type neither Heat nor the package provides instead.",
    why: "Heat refuses the template: \"The Resource Type (OS::Nova::Sever) could not be found.\" (`template validate` already; recorded: fixtures/schema/misspelt-type.yaml).",
    example: "`type: OS::Nova::Sever` (did you mean `OS::Nova::Server`?).",
    source: "Heat 27.0.1's resource types (data/heat-27.0.1-resource-types.json); heat-semantics §2.4",
};

impl Rule for UnknownResourceType {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
        report(cx, &META, Kind::UnknownType, out);
    }
}
