//! Heat's template versions and the functions of each, as its API lists
//! them (`GET /template_versions`, `GET /template_versions/{v}/functions`),
//! recorded from Heat 27.0.1's engine by
//! `tools/heat-schema/template_versions.py`.

use std::sync::OnceLock;

use serde::Deserialize;
use serde_json::Value;

const DATA: &str = include_str!("../../data/heat-27.0.1-template-versions.json");

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Data {
    template_versions: Vec<Value>,
    functions: indexmap::IndexMap<String, Functions>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Functions {
    plain: Vec<Value>,
    conditions: Vec<Value>,
}

fn data() -> &'static Data {
    static DATA_PARSED: OnceLock<Data> = OnceLock::new();
    DATA_PARSED
        .get_or_init(|| serde_json::from_str(DATA).expect("the embedded template versions parse"))
}

/// `{"template_versions": [...]}`, in Heat's order.
pub(crate) fn list_document() -> Value {
    serde_json::json!({ "template_versions": data().template_versions })
}

/// `{"template_functions": [...]}` of a version (its full name or an
/// alias), with the condition functions when asked; `None` when Heat has
/// no such version ("Template with version X not found").
pub(crate) fn functions_document(version: &str, with_condition: bool) -> Option<Value> {
    let f = data().functions.get(version)?;
    let list = if with_condition {
        &f.conditions
    } else {
        &f.plain
    };
    Some(serde_json::json!({ "template_functions": list }))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// heat-api.md §2.3: 2 CFN and 11 dated HOT versions, sorted by name
    /// (upper case first), 6 release-name aliases.
    #[test]
    fn versions_as_heat_lists_them() {
        let doc = list_document();
        let list = doc["template_versions"].as_array().unwrap();
        assert_eq!(list.len(), 13);
        assert_eq!(list[0]["version"], "AWSTemplateFormatVersion.2010-09-09");
        let aliases: usize = list
            .iter()
            .map(|v| v["aliases"].as_array().unwrap().len())
            .sum();
        assert_eq!(aliases, 6);
        assert_eq!(data().functions.len(), 19);
    }

    #[test]
    fn functions_by_name_and_alias() {
        let plain = functions_document("heat_template_version.2016-10-14", false).unwrap();
        let alias = functions_document("heat_template_version.newton", false).unwrap();
        assert_eq!(plain, alias);
        let names: Vec<&str> = plain["template_functions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["functions"].as_str().unwrap())
            .collect();
        assert!(names.contains(&"yaql") && names.contains(&"get_param"));
        assert!(!names.contains(&"equals"));
        let with = functions_document("heat_template_version.2016-10-14", true).unwrap();
        assert!(with["template_functions"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["functions"] == "equals"));
        assert!(functions_document("2016-10-14", false).is_none());
    }
}
