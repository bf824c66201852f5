//! The template view the index needs: version, capabilities, the
//! `resource_type` list, the resource types used, parameters.

use indexmap::IndexMap;
use serde::Serialize;

use super::capability::CapValue;
use super::node::{Mapping, Node, Value};
use crate::diag::{Code, Diagnostic};

/// `capabilities` is present but is not a mapping.
pub const CAPABILITIES_NOT_MAPPING: Code = Code("W5001");
/// `capabilities.resource_type` is not a string or a list of strings.
pub const RESOURCE_TYPE_NOT_STRINGS: Code = Code("W5002");

/// HOT or CFN.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    Hot,
    Cfn,
}

/// A parameter as the index reports it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Parameter {
    pub name: String,
    #[serde(rename = "type")]
    pub type_: Option<String>,
    /// No default: the user (or the environment) must give a value.
    pub required: bool,
    pub hidden: bool,
}

/// One template.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Template {
    /// Reported by the file entry that holds the template.
    #[serde(skip)]
    pub path: String,
    pub format: Format,
    pub version: Option<String>,
    pub description: Option<String>,
    /// Key → value in first-seen order; `None` when there is no section.
    pub capabilities: Option<IndexMap<String, CapValue>>,
    /// The types named by `capabilities.resource_type`.
    pub resource_type: Vec<String>,
    /// Resource types the template uses (first-seen order, once each),
    /// including group members' `resource_def` types.
    pub uses: Vec<String>,
    pub parameters: Vec<Parameter>,
}

impl Template {
    /// Builds the view; problems in the `capabilities` section become
    /// diagnostics (the rest of the template is still read).
    pub fn from_node(
        path: &str,
        format: Format,
        root: &Mapping,
        out: &mut Vec<Diagnostic>,
    ) -> Template {
        let (version_keys, desc_key, params_key, res_key, type_key, default_key): (
            &[&str],
            &str,
            &str,
            &str,
            &str,
            &str,
        ) = match format {
            Format::Hot => (
                &["heat_template_version"],
                "description",
                "parameters",
                "resources",
                "type",
                "default",
            ),
            Format::Cfn => (
                &["AWSTemplateFormatVersion", "HeatTemplateFormatVersion"],
                "Description",
                "Parameters",
                "Resources",
                "Type",
                "Default",
            ),
        };
        let version = version_keys
            .iter()
            .find_map(|k| root.get(k))
            .and_then(|n| n.value.scalar_text());
        let description = root
            .get(desc_key)
            .and_then(|n| n.value.as_str())
            .map(str::to_owned);
        let (capabilities, resource_type) = capabilities(path, root, out);
        Template {
            path: path.to_owned(),
            format,
            version,
            description,
            capabilities,
            resource_type,
            uses: uses(root.get(res_key), type_key),
            parameters: parameters(root.get(params_key), type_key, default_key, format),
        }
    }

    /// True when the template declares it can implement `type_name`.
    pub fn implements(&self, type_name: &str) -> bool {
        self.resource_type.iter().any(|t| t == type_name)
    }
}

fn capabilities(
    path: &str,
    root: &Mapping,
    out: &mut Vec<Diagnostic>,
) -> (Option<IndexMap<String, CapValue>>, Vec<String>) {
    let Some(node) = root.get("capabilities") else {
        return (None, Vec::new());
    };
    let map = match &node.value {
        Value::Map(m) => m,
        Value::Null => return (Some(IndexMap::new()), Vec::new()),
        other => {
            out.push(
                Diagnostic::new(
                    CAPABILITIES_NOT_MAPPING,
                    path,
                    format!(
                        "`capabilities` is {}, not a mapping; it is ignored",
                        other.kind_name()
                    ),
                )
                .with_key_path(vec!["capabilities".into()])
                .at(node.span),
            );
            return (None, Vec::new());
        }
    };
    let mut caps = IndexMap::new();
    let mut resource_type = Vec::new();
    for (k, v) in &map.entries {
        let key = k.value.key_text();
        if key == "resource_type" {
            resource_type = resource_types(path, v, out);
        }
        caps.insert(key, CapValue::from_node(v));
    }
    (Some(caps), resource_type)
}

fn resource_types(path: &str, node: &Node, out: &mut Vec<Diagnostic>) -> Vec<String> {
    let bad = |n: &Node, key_path: Vec<String>| {
        Diagnostic::new(
            RESOURCE_TYPE_NOT_STRINGS,
            path,
            format!(
                "`resource_type` must be a type name or a list of type names, found {}",
                n.value.kind_name()
            ),
        )
        .with_key_path(key_path)
        .at(n.span)
    };
    let base = vec!["capabilities".to_owned(), "resource_type".to_owned()];
    match &node.value {
        Value::Str(s) => vec![s.clone()],
        Value::Seq(items) => {
            let mut types = Vec::new();
            for (i, item) in items.iter().enumerate() {
                if let Value::Str(s) = &item.value {
                    types.push(s.clone());
                } else {
                    let mut kp = base.clone();
                    kp.push(i.to_string());
                    out.push(bad(item, kp));
                }
            }
            types
        }
        _ => {
            out.push(bad(node, base));
            Vec::new()
        }
    }
}

fn uses(resources: Option<&Node>, type_key: &str) -> Vec<String> {
    let mut types: Vec<String> = Vec::new();
    let mut add = |t: &str| {
        if !types.iter().any(|x| x == t) {
            types.push(t.to_owned());
        }
    };
    let Some(map) = resources.and_then(Node::as_map) else {
        return types;
    };
    for (_, body) in map.str_entries() {
        let Some(body) = body.as_map() else { continue };
        if let Some(t) = body.get(type_key).and_then(|n| n.value.as_str()) {
            add(t);
        }
        // OS::Heat::ResourceGroup resource_def, AutoScalingGroup resource.
        let props = body.get("properties").and_then(Node::as_map);
        for member in ["resource_def", "resource"] {
            if let Some(t) = props
                .and_then(|p| p.get(member))
                .and_then(Node::as_map)
                .and_then(|d| d.get("type"))
                .and_then(|n| n.value.as_str())
            {
                add(t);
            }
        }
    }
    types
}

fn parameters(
    params: Option<&Node>,
    type_key: &str,
    default_key: &str,
    format: Format,
) -> Vec<Parameter> {
    let Some(map) = params.and_then(Node::as_map) else {
        return Vec::new();
    };
    map.str_entries()
        .map(|(name, body)| {
            let body = body.as_map();
            let get = |k: &str| body.and_then(|b| b.get(k));
            let hidden = match format {
                Format::Hot => get("hidden").is_some_and(|n| n.value == Value::Bool(true)),
                Format::Cfn => get("NoEcho")
                    .and_then(|n| n.value.scalar_text())
                    .is_some_and(|t| t.eq_ignore_ascii_case("true")),
            };
            Parameter {
                name: name.to_owned(),
                type_: get(type_key)
                    .and_then(|n| n.value.as_str())
                    .map(str::to_owned),
                required: get(default_key).is_none_or(|n| n.value == Value::Null),
                hidden,
            }
        })
        .collect()
}
