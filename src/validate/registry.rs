//! The table of every rule, in code order. docs/rules.md is generated from
//! it; the tests below and in tests/rules.rs keep it honest.

use std::fmt::Write as _;

use super::hot;
use super::Rule;

/// Every rule heatcap runs, in code order.
pub static RULES: &[&dyn Rule] = &[
    &hot::invalid_version::InvalidTemplateVersion,
    &hot::unknown_section::InvalidTemplateSection,
    &hot::parameter_type::InvalidParameterType,
    &hot::undeclared_parameter::UndeclaredParameter,
    &hot::unused_parameter::UnusedParameter,
    &hot::resource_without_type::ResourceWithoutType,
    &hot::unknown_resource_key::InvalidResourceKeyword,
    &hot::missing_dependency::DependsOnMissingResource,
    &hot::missing_reference::MissingResourceReference,
];

/// docs/rules.md, rendered from [`RULES`].
pub fn markdown() -> String {
    let mut s = String::from(
        "# heatcap rules\n\nGenerated from `src/validate/registry.rs`; do not edit (refresh with\n`HEATCAP_UPDATE_DOCS=1 cargo test --test rules`). The letter of a code is\nits severity (E error, W warning, I note); the first digit its area (1\ntemplate and version, 2 parameters, 3 resources).\n\n| code | severity | name | summary | source |\n|---|---|---|---|---|\n",
    );
    for r in RULES {
        let m = r.meta();
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} |",
            m.code,
            m.severity(),
            m.name,
            m.summary,
            m.source
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_well_formed_and_in_order() {
        let codes: Vec<&str> = RULES.iter().map(|r| r.meta().code.0).collect();
        for c in &codes {
            assert!(
                c.len() == 5
                    && c[1..].bytes().all(|b| b.is_ascii_digit())
                    && "EWI".contains(&c[..1]),
                "{c}"
            );
        }
        let mut sorted = codes.clone();
        sorted.sort_by_key(|c| &c[1..]);
        sorted.dedup();
        assert_eq!(codes, sorted, "unique and in code order");
    }
}
