//! Template, environment or neither, by top-level keys, as Heat would take
//! the file (heat-semantics §1.1 version keys, §2.1 environment sections).

use serde::Serialize;

use crate::node::{Node, Value};

/// What a loaded file is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum FileKind {
    /// Has `heat_template_version`.
    HotTemplate,
    /// Has `AWSTemplateFormatVersion` or `HeatTemplateFormatVersion`.
    CfnTemplate,
    /// A mapping of environment sections (plus heatcap's `requires`).
    Environment,
    /// Empty, or only a null document.
    Empty,
    /// Parses, but is not a Heat file (a playbook, release notes, config).
    Other,
}

impl FileKind {
    /// True for HOT and CFN templates.
    pub fn is_template(self) -> bool {
        matches!(self, FileKind::HotTemplate | FileKind::CfnTemplate)
    }

    /// The kebab-case name the JSON uses.
    pub fn as_str(self) -> &'static str {
        match self {
            FileKind::HotTemplate => "hot-template",
            FileKind::CfnTemplate => "cfn-template",
            FileKind::Environment => "environment",
            FileKind::Empty => "empty",
            FileKind::Other => "other",
        }
    }
}

/// Heat's template version keys (`template_format.parse`).
pub(crate) const CFN_VERSION_KEYS: [&str; 2] =
    ["AWSTemplateFormatVersion", "HeatTemplateFormatVersion"];

/// Environment sections Heat knows (heat-semantics §2.1), plus `requires`.
pub(crate) const ENVIRONMENT_SECTIONS: [&str; 7] = [
    "parameters",
    "resource_registry",
    "parameter_defaults",
    "encrypted_param_names",
    "event_sinks",
    "parameter_merge_strategies",
    "requires",
];

/// Sections that only a template has; a file with one of them and no
/// version key is a broken template, not an environment.
const TEMPLATE_ONLY: [&str; 5] = ["resources", "outputs", "Resources", "Outputs", "conditions"];

/// True when the mapping has a section only a template has (`resources`,
/// `outputs`, `conditions` and their CFN spellings).
pub(crate) fn has_template_section(map: &crate::node::Mapping) -> bool {
    map.str_entries().any(|(k, _)| TEMPLATE_ONLY.contains(&k))
}

/// Classifies a loaded document, with the reason when it is `Other`.
pub(crate) fn classify(root: &Node) -> (FileKind, Option<&'static str>) {
    let map = match &root.value {
        Value::Null => return (FileKind::Empty, None),
        Value::Map(m) => m,
        Value::Seq(_) => {
            return (
                FileKind::Other,
                Some("the top level is a list, not a mapping"),
            )
        }
        _ => {
            return (
                FileKind::Other,
                Some("the top level is a scalar, not a mapping"),
            )
        }
    };
    if map.is_empty() {
        return (FileKind::Empty, None);
    }
    if map.contains_key("heat_template_version") {
        return (FileKind::HotTemplate, None);
    }
    if CFN_VERSION_KEYS.iter().any(|k| map.contains_key(k)) {
        return (FileKind::CfnTemplate, None);
    }
    let keys: Vec<&str> = map.str_entries().map(|(k, _)| k).collect();
    if has_template_section(map) {
        return (
            FileKind::Other,
            Some("it has template sections but no template version key"),
        );
    }
    // A TripleO plan environment has `parameter_defaults` and
    // `resource_registry` too, but Heat never reads it: tripleo-common
    // builds environments from it (`--plan`).
    if super::plan::is_plan(root) {
        return (
            FileKind::Other,
            Some("it is a TripleO plan environment (template, environments): give it with --plan"),
        );
    }
    if keys.iter().any(|k| ENVIRONMENT_SECTIONS.contains(k)) {
        return (FileKind::Environment, None);
    }
    (
        FileKind::Other,
        Some("it has no template version key and no environment section"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::{parse_text, ParseOptions};

    fn kind(text: &str) -> FileKind {
        let parsed = parse_text(text, "t.yaml", &ParseOptions::default());
        classify(&parsed.root.expect("parses")).0
    }

    #[test]
    fn a_plan_environment_is_not_an_environment() {
        let plan = "template: overcloud.yaml\nenvironments: [{path: a.yaml}]\nparameter_defaults: {A: 1}\n";
        let parsed = parse_text(plan, "p.yaml", &ParseOptions::default());
        let (kind, reason) = classify(&parsed.root.unwrap());
        assert_eq!(kind, FileKind::Other);
        assert!(reason.unwrap().contains("--plan"));
        // `environments` that is not a list, or no `template`: as before.
        assert_eq!(
            kind_of("template: t\nenvironments: x\nparameter_defaults: {}\n"),
            FileKind::Environment
        );
        assert_eq!(
            kind_of("environments: []\nparameter_defaults: {}\n"),
            FileKind::Environment
        );
    }

    fn kind_of(text: &str) -> FileKind {
        kind(text)
    }

    #[test]
    fn classifies_by_top_level_keys() {
        assert_eq!(
            kind("heat_template_version: 2015-10-15\n"),
            FileKind::HotTemplate
        );
        assert_eq!(
            kind("{\"AWSTemplateFormatVersion\": \"2010-09-09\"}"),
            FileKind::CfnTemplate
        );
        assert_eq!(
            kind("HeatTemplateFormatVersion: '2012-12-12'\n"),
            FileKind::CfnTemplate
        );
        assert_eq!(kind("resource_registry: {}\n"), FileKind::Environment);
        assert_eq!(
            kind("requires: {deployment: puppet}\n"),
            FileKind::Environment
        );
        assert_eq!(kind(""), FileKind::Empty);
        assert_eq!(kind("{}"), FileKind::Empty);
        assert_eq!(kind("- hosts: all\n"), FileKind::Other);
        assert_eq!(kind("features:\n  - x\n"), FileKind::Other);
        assert_eq!(kind("parameters: {}\nresources: {}\n"), FileKind::Other);
        assert_eq!(kind("just text\n"), FileKind::Other);
    }
}
