//! Serialisations heatcap writes, for output and for exported files alike:
//! JSON in Python's `json.dumps` spacing ([`json`]) and YAML that reads
//! back as the same values under Heat's YAML 1.1 rules ([`yaml`]), and a
//! finding's JSON written directly ([`diagnostic`]). A leaf: it knows
//! values and findings, not stages.

mod diagnostic;
pub(crate) mod json;
pub(crate) mod yaml;
