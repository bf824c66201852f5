//! The table of every rule, in code order. docs/rules.md is generated from
//! it; the tests below and in tests/rules.rs keep it honest.

use std::fmt::Write as _;

use super::{env, hot};
use super::{EnvRule, Rule, RuleMeta};

/// Every rule heatcap runs, in code order.
pub static RULES: &[&dyn Rule] = &[
    &hot::invalid_version::InvalidTemplateVersion,
    &hot::unknown_section::InvalidTemplateSection,
    &hot::unsupported_function::UnsupportedFunction,
    &hot::null_conditions::NullConditions,
    &hot::unknown_condition::UnknownCondition,
    &hot::circular_condition::CircularCondition,
    &hot::parameter_type::InvalidParameterType,
    &hot::undeclared_parameter::UndeclaredParameter,
    &hot::unused_parameter::UnusedParameter,
    &hot::parameter_key::InvalidParameterKey,
    &hot::constraint_type::ConstraintInvalidForType,
    &hot::default_constraints::DefaultViolatesConstraint,
    &hot::parameter_groups::InvalidParameterGroups,
    &hot::resource_without_type::ResourceWithoutType,
    &hot::unknown_resource_key::InvalidResourceKeyword,
    &hot::missing_dependency::DependsOnMissingResource,
    &hot::missing_reference::MissingResourceReference,
    &hot::deletion_policy::InvalidDeletionPolicy,
    &hot::resource_name::SlashInResourceName,
    &hot::output_value::OutputWithoutValue,
    &hot::capability_value::CapabilityNeverMatches,
];

/// Every environment rule, in code order.
pub static ENV_RULES: &[&dyn EnvRule] = &[
    &env::heat_errors::InvalidHook,
    &env::heat_errors::WrongEnvironmentSection,
    &env::heat_errors::EmptyEnvironmentSection,
    &env::registry_keys::TemplateExtensionIgnored,
    &env::registry_keys::GlobToTemplate,
    &env::registry_keys::LiteralStar,
    &env::registry_keys::GlobInResources,
];

/// Every rule's metadata, templates' then environments', in code order.
pub fn all() -> Vec<&'static RuleMeta> {
    let mut v: Vec<&'static RuleMeta> = RULES
        .iter()
        .map(|r| r.meta())
        .chain(ENV_RULES.iter().map(|r| r.meta()))
        .collect();
    v.sort_by_key(|m| &m.code.0[1..]);
    v
}

/// docs/rules.md, rendered from [`RULES`] and [`ENV_RULES`].
pub fn markdown() -> String {
    let mut s = String::from(
        "# heatcap rules\n\nGenerated from `src/validate/registry.rs`; do not edit (refresh with\n`HEATCAP_UPDATE_DOCS=1 cargo test --test rules`). The letter of a code is\nits severity (E error, W warning, I note); the first digit its area (1\ntemplate and version, 2 parameters, 3 resources, 4 outputs, 5 the `capabilities`\nannotation, 6 environments).\n\n| code | severity | name | summary | source |\n|---|---|---|---|---|\n",
    );
    for m in all() {
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
        let env_codes: Vec<&str> = ENV_RULES.iter().map(|r| r.meta().code.0).collect();
        let mut env_sorted = env_codes.clone();
        env_sorted.sort_by_key(|c| &c[1..]);
        assert_eq!(env_codes, env_sorted, "environment rules in code order");
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
