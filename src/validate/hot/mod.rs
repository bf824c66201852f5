//! Rules for HOT and CFN templates (heat-semantics §1).

pub mod capability_value;
pub mod circular_condition;
pub mod condition_function;
pub mod constraint_type;
pub mod default_constraints;
pub mod deletion_policy;
pub mod function_arguments;
pub mod functions;
pub mod invalid_version;
pub mod missing_dependency;
pub mod missing_reference;
pub mod null_conditions;
pub mod output_value;
pub mod parameter_groups;
pub mod parameter_key;
pub mod parameter_type;
pub mod resource_name;
pub mod resource_without_type;
pub mod undeclared_parameter;
pub mod unknown_condition;
pub mod unknown_resource_key;
pub mod unknown_section;
pub mod unmappable_resource_type;
pub mod unsupported_function;
pub mod unused_parameter;

/// HOT versions and aliases Heat accepts, sorted as Heat sorts them.
pub const HOT_VERSIONS: [&str; 17] = [
    "2013-05-23",
    "2014-10-16",
    "2015-04-30",
    "2015-10-15",
    "2016-04-08",
    "2016-10-14",
    "2017-02-24",
    "2017-09-01",
    "2018-03-02",
    "2018-08-31",
    "2021-04-16",
    "newton",
    "ocata",
    "pike",
    "queens",
    "rocky",
    "wallaby",
];

/// The date a HOT version (or alias) stands for; `None` when unknown.
pub fn hot_date(version: &str) -> Option<&'static str> {
    Some(match version {
        "newton" => "2016-10-14",
        "ocata" => "2017-02-24",
        "pike" => "2017-09-01",
        "queens" => "2018-03-02",
        "rocky" => "2018-08-31",
        "wallaby" => "2021-04-16",
        v => HOT_VERSIONS
            .iter()
            .copied()
            .find(|h| *h == v && h.starts_with('2'))?,
    })
}

/// True when the template is HOT at `date` or later (unknown versions: no).
pub fn hot_at_least(template: &crate::model::Template, date: &str) -> bool {
    template.format == crate::model::Format::Hot
        && template
            .version
            .as_deref()
            .and_then(hot_date)
            .is_some_and(|d| d >= date)
}

pub use crate::model::template::PSEUDO_PARAMETERS;

/// The sections whose functions refer to parameters and resources.
pub fn body_sections(template: &crate::model::Template) -> [&'static str; 3] {
    match template.format {
        crate::model::Format::Hot => ["resources", "outputs", "conditions"],
        crate::model::Format::Cfn => ["Resources", "Outputs", "Conditions"],
    }
}

/// The section holding parameters and the one holding resources.
pub fn declared_sections(template: &crate::model::Template) -> (&'static str, &'static str) {
    match template.format {
        crate::model::Format::Hot => ("parameters", "resources"),
        crate::model::Format::Cfn => ("Parameters", "Resources"),
    }
}
