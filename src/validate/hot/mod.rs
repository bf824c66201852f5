//! Rules for HOT and CFN templates (heat-semantics §1).

pub(crate) mod capability_value;
pub(crate) mod circular_condition;
pub(crate) mod circular_dependency;
pub(crate) mod condition_function;
pub(crate) mod constraint_type;
pub(crate) mod default_constraints;
pub(crate) mod deletion_policy;
pub(crate) mod deprecated_property;
pub(crate) mod deprecated_resource_type;
pub(crate) mod function_arguments;
pub(crate) mod functions;
pub(crate) mod hidden_resource_type;
pub(crate) mod invalid_version;
pub(crate) mod missing_dependency;
pub(crate) mod missing_reference;
pub(crate) mod missing_required_property;
pub(crate) mod missing_value;
pub(crate) mod null_conditions;
pub(crate) mod output_value;
pub(crate) mod parameter_groups;
pub(crate) mod parameter_key;
pub(crate) mod parameter_type;
pub(crate) mod parameter_type_mismatch;
pub(crate) mod plugin_schema;
pub(crate) mod property_constraint_violation;
pub(crate) mod property_type_mismatch;
pub(crate) mod resource_name;
pub(crate) mod resource_without_type;
pub(crate) mod too_many_resources;
pub(crate) mod undeclared_parameter;
pub(crate) mod unknown_attribute;
pub(crate) mod unknown_condition;
pub(crate) mod unknown_resource_key;
pub(crate) mod unknown_resource_property;
pub(crate) mod unknown_resource_type;
pub(crate) mod unknown_section;
pub(crate) mod unmappable_resource_type;
pub(crate) mod unsupported_function;
pub(crate) mod unused_parameter;

pub(crate) use crate::model::template::{hot_date, HOT_VERSIONS};

/// True when the template is HOT at `date` or later (unknown versions: no).
pub(crate) fn hot_at_least(template: &crate::model::Template, date: &str) -> bool {
    template.format == crate::model::Format::Hot
        && template
            .version
            .as_deref()
            .and_then(hot_date)
            .is_some_and(|d| d >= date)
}

pub(crate) use crate::model::template::PSEUDO_PARAMETERS;

/// The sections whose functions refer to parameters and resources.
pub(crate) fn body_sections(template: &crate::model::Template) -> [&'static str; 3] {
    match template.format {
        crate::model::Format::Hot => ["resources", "outputs", "conditions"],
        crate::model::Format::Cfn => ["Resources", "Outputs", "Conditions"],
    }
}

/// The section holding parameters and the one holding resources.
pub(crate) fn declared_sections(template: &crate::model::Template) -> (&'static str, &'static str) {
    match template.format {
        crate::model::Format::Hot => ("parameters", "resources"),
        crate::model::Format::Cfn => ("Parameters", "Resources"),
    }
}
