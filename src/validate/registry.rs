//! The table of every rule, in code order. docs/rules.md is generated from
//! it; the tests below and in tests/rules.rs keep it honest.

use super::onap::{self, OnapRule};
use super::{env, hot};
use super::{EnvRule, Rule, RuleMeta};

/// Every rule heatcap runs, in code order.
pub(crate) static RULES: &[&dyn Rule] = &[
    &hot::invalid_version::InvalidTemplateVersion,
    &hot::unknown_section::InvalidTemplateSection,
    &hot::unsupported_function::UnsupportedFunction,
    &hot::null_conditions::NullConditions,
    &hot::unknown_condition::UnknownCondition,
    &hot::circular_condition::CircularCondition,
    &hot::condition_function::FunctionInCondition,
    &hot::function_arguments::InvalidFunctionArguments,
    &hot::parameter_type::InvalidParameterType,
    &hot::undeclared_parameter::UndeclaredParameter,
    &hot::unused_parameter::UnusedParameter,
    &hot::parameter_key::InvalidParameterKey,
    &hot::constraint_type::ConstraintInvalidForType,
    &hot::default_constraints::DefaultViolatesConstraint,
    &hot::parameter_groups::InvalidParameterGroups,
    &hot::missing_value::ValueMissingAtValidate,
    &hot::resource_without_type::ResourceWithoutType,
    &hot::unknown_resource_key::InvalidResourceKeyword,
    &hot::missing_dependency::DependsOnMissingResource,
    &hot::missing_reference::MissingResourceReference,
    &hot::deletion_policy::InvalidDeletionPolicy,
    &hot::resource_name::SlashInResourceName,
    &hot::circular_dependency::CircularDependency,
    &hot::unknown_resource_type::UnknownResourceType,
    &hot::hidden_resource_type::HiddenResourceType,
    &hot::deprecated_resource_type::DeprecatedResourceType,
    &hot::unknown_resource_property::UnknownResourceProperty,
    &hot::deprecated_property::DeprecatedProperty,
    &hot::missing_required_property::MissingRequiredProperty,
    &hot::property_type_mismatch::PropertyTypeMismatch,
    &hot::property_constraint_violation::PropertyConstraintViolation,
    &hot::parameter_type_mismatch::ParameterTypeMismatch,
    &hot::unknown_attribute::UnknownAttribute,
    &hot::too_many_resources::TooManyResources,
    &hot::output_value::OutputWithoutValue,
    &hot::capability_value::CapabilityNeverMatches,
    &hot::unmappable_resource_type::UnmappableResourceType,
];

/// Every environment rule, in code order.
pub(crate) static ENV_RULES: &[&dyn EnvRule] = &[
    &env::template_extension_ignored::TemplateExtensionIgnored,
    &env::glob_to_template::GlobToTemplate,
    &env::literal_star::LiteralStar,
    &env::glob_in_resources::GlobInResources,
    &env::shadowed_entry::ShadowedEntry,
    &env::missing_target::MissingRegistryTarget,
];

/// The ONAP profile's rules (`validate --profile onap`), in code order.
pub(crate) static ONAP_RULES: &[&dyn OnapRule] = &[
    &onap::duplicate_key::DuplicateKey,
    &onap::missing_template_version::MissingTemplateVersion,
    &onap::missing_description::MissingDescription,
    &onap::template_without_parameters::TemplateWithoutParameters,
    &onap::unused_parameter::UnusedParameter,
    &onap::parameter_name::ParameterName,
    &onap::parameter_without_type::ParameterWithoutType,
    &onap::parameter_type::ParameterType,
    &onap::parameter_without_description::ParameterWithoutDescription,
    &onap::parameter_default::ParameterDefault,
    &onap::nested_parameter_constraints::NestedParameterConstraints,
    &onap::module_without_resources::ModuleWithoutResources,
    &onap::empty_resources::EmptyResources,
    &onap::resource_id_characters::ResourceIdCharacters,
    &onap::repeated_resource_id::RepeatedResourceId,
    &onap::remote_resource_type::RemoteResourceType,
    &onap::nested_get_param::NestedGetParam,
    &onap::metadata_not_map::MetadataNotMap,
    &onap::missing_environment_file::MissingEnvironmentFile,
    &onap::environment_without_parameters::EnvironmentWithoutParameters,
    &onap::environment_resource_registry::EnvironmentResourceRegistry,
    &onap::orphan_environment_file::OrphanEnvironmentFile,
    &onap::unprovided_resource_type::UnprovidedResourceType,
    &onap::port_on_many_servers::PortOnManyServers,
];

/// Every rule's metadata (templates', environments', ONAP's), in code order.
pub(crate) fn all() -> Vec<&'static RuleMeta> {
    let mut v: Vec<&'static RuleMeta> = RULES
        .iter()
        .map(|r| r.meta())
        .chain(ENV_RULES.iter().map(|r| r.meta()))
        .chain(ONAP_RULES.iter().map(|r| r.meta()))
        .collect();
    v.sort_by_key(|m| &m.code.0[1..]);
    v
}

/// The whole catalogue of codes, in code order: every rule's entry and
/// every code no rule owns ([`crate::diag::codes::CODES`]). Each code has
/// exactly one entry.
pub(crate) fn catalogue() -> Vec<&'static RuleMeta> {
    let mut v = all();
    v.extend(crate::diag::codes::CODES.iter());
    v.sort_by_key(|m| (&m.code.0[1..], m.code.0.as_bytes()[0]));
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_well_formed_and_in_order() {
        let codes: Vec<&str> = RULES.iter().map(|r| r.meta().code.0).collect();
        for table in [
            ENV_RULES
                .iter()
                .map(|r| r.meta().code.0)
                .collect::<Vec<_>>(),
            ONAP_RULES.iter().map(|r| r.meta().code.0).collect(),
        ] {
            let mut sorted = table.clone();
            sorted.sort_by_key(|c| &c[1..]);
            assert_eq!(table, sorted, "rules in code order");
        }
        for r in ONAP_RULES {
            assert!(
                r.meta().code.0[1..].starts_with('8') && !r.meta().requirements().is_empty(),
                "{}: ONAP rules are 8xxx and name their requirement",
                r.meta().code
            );
        }
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
