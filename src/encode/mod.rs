//! Serialisations heatcap writes, for output and for exported files alike:
//! JSON in Python's `json.dumps` spacing ([`json`]) and YAML that reads
//! back as the same values under Heat's YAML 1.1 rules ([`yaml`]). A leaf:
//! it knows values, not stages.

pub(crate) mod json;
pub(crate) mod yaml;
