//! The template view the index needs: version, capabilities, the
//! `resource_type` list, the resource types used, parameters.

use indexmap::IndexMap;
use schemars::JsonSchema;
use serde::Serialize;

use super::capability::CapValue;
use crate::diag::{Diagnostic, Span};
use crate::node::{Mapping, Node, Value};

use crate::diag::codes::{CAPABILITIES_NOT_MAPPING, RESOURCE_TYPE_NOT_STRINGS};

/// Heat's pseudo parameters: always declared, never listed.
pub(crate) const PSEUDO_PARAMETERS: [&str; 7] = [
    "OS::stack_id",
    "OS::stack_name",
    "OS::region",
    "OS::project_id",
    "AWS::StackId",
    "AWS::StackName",
    "AWS::Region",
];

/// HOT versions and aliases Heat accepts, sorted as Heat sorts them.
pub(crate) const HOT_VERSIONS: [&str; 17] = [
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
pub(crate) fn hot_date(version: &str) -> Option<&'static str> {
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

/// HOT or CFN.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    Hot,
    Cfn,
}

/// A parameter as the index reports it.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Parameter {
    /// Its name.
    pub name: String,
    /// Its type as written (`null` when absent).
    #[serde(rename = "type")]
    pub type_: Option<String>,
    /// No default: the user (or the environment) must give a value.
    pub required: bool,
    /// HOT `hidden: true`, or CFN `NoEcho`.
    pub hidden: bool,
    /// The rest, for `parameters` (absent in a slim view).
    #[serde(skip)]
    pub detail: Option<Box<ParameterDetail>>,
}

/// What `parameters` reads of a parameter beyond its name and type.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ParameterDetail {
    pub description: Option<String>,
    pub label: Option<String>,
    /// The default as written (`None`: no default, or null).
    pub default: Option<serde_json::Value>,
    /// Where its `default` key is written (`Default` in CFN).
    pub default_key: Option<Span>,
    /// Where its name is written (the key under `parameters`).
    pub key: Span,
    /// HOT `constraints` as written, or CFN's constraint keys gathered.
    pub constraints: Option<serde_json::Value>,
    pub tags: Option<serde_json::Value>,
}

impl Parameter {
    fn detail(&self) -> Option<&ParameterDetail> {
        self.detail.as_deref()
    }
    pub fn description(&self) -> Option<&String> {
        self.detail()?.description.as_ref()
    }
    pub fn label(&self) -> Option<&String> {
        self.detail()?.label.as_ref()
    }
    pub fn default(&self) -> Option<&serde_json::Value> {
        self.detail()?.default.as_ref()
    }
    /// Where its default is written (its `default` key).
    pub fn default_key(&self) -> Option<Span> {
        self.detail()?.default_key
    }
    /// Where its name is written (`None` in a slim view).
    pub fn key(&self) -> Option<Span> {
        self.detail().map(|d| d.key)
    }
    pub fn constraints(&self) -> Option<&serde_json::Value> {
        self.detail()?.constraints.as_ref()
    }
    pub fn tags(&self) -> Option<&serde_json::Value> {
        self.detail()?.tags.as_ref()
    }
}

/// One resource of a template, for walking the composition.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ResourceUse {
    pub name: String,
    #[serde(rename = "type")]
    pub type_name: String,
    /// The member types of its nested stack: one for an
    /// `OS::Heat::ResourceGroup` (`resource_def`) or AutoScalingGroup
    /// (`resource`), each of an `OS::Heat::ResourceChain`'s `resources`
    /// (a literal list, or a `get_param` of this template's parameter
    /// default). Members are named `"0"`, `"1"`, ...
    pub members: Vec<String>,
    pub span: Span,
    /// The properties it passes (to a nested template: its parameters).
    #[serde(skip)]
    pub properties: IndexMap<String, serde_json::Value>,
    /// Where each key of `properties` is written.
    #[serde(skip)]
    pub property_keys: IndexMap<String, Span>,
    /// Its `condition` (CFN `Condition`) as written: a name, a boolean or
    /// a condition function.
    #[serde(skip)]
    pub condition: Option<serde_json::Value>,
    /// The properties each member of a group or chain receives
    /// (`resource_def.properties`, `resource.properties`, `resource_properties`).
    #[serde(skip)]
    pub member_properties: IndexMap<String, serde_json::Value>,
    /// Where each key of `member_properties` is written.
    #[serde(skip)]
    pub member_property_keys: IndexMap<String, Span>,
    /// Its other keys as written (`depends_on`, `metadata`,
    /// `description`, `deletion_policy`, `update_policy`; CFN's
    /// `DependsOn`, `Metadata`...), by key: what a preview shows besides
    /// the properties.
    #[serde(skip)]
    pub other: IndexMap<String, serde_json::Value>,
}

/// One template.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[non_exhaustive]
pub struct Template {
    /// Reported by the file entry that holds the template.
    #[serde(skip)]
    pub path: String,
    /// HOT or CFN.
    pub format: Format,
    /// The version as written.
    pub version: Option<String>,
    /// The `description` section.
    pub description: Option<String>,
    /// Key → value in first-seen order; `None` (`null`) when there is no
    /// section.
    pub capabilities: Option<IndexMap<String, CapValue>>,
    /// The types named by `capabilities.resource_type`.
    pub resource_type: Vec<String>,
    /// Resource types the template uses (first-seen order, once each),
    /// including group members' `resource_def` types.
    pub uses: Vec<String>,
    /// Its parameters, in document order.
    pub parameters: Vec<Parameter>,
    /// Resources in document order (not in the index JSON: `uses` is).
    #[serde(skip)]
    pub resources: Vec<ResourceUse>,
    /// `get_file` arguments, in document order, with their positions.
    #[serde(skip)]
    pub get_files: Vec<(String, Span)>,
    /// `parameter_groups` as written (HOT).
    #[serde(skip)]
    pub parameter_groups: Option<serde_json::Value>,
    /// The `conditions` section (CFN `Conditions`): name → definition.
    #[serde(skip)]
    pub conditions: IndexMap<String, serde_json::Value>,
    /// The `outputs` section (CFN `Outputs`) as written: name → definition.
    #[serde(skip)]
    pub outputs: IndexMap<String, serde_json::Value>,
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
        Template::build(path, format, root, out, false)
    }

    /// The slim view ([`Template::slim`]) built directly: what `slim`
    /// drops (property values, other resource keys, outputs, conditions,
    /// `get_file` arguments, parameter details) is never made. The same
    /// view and the same diagnostics as `from_node` followed by `slim`.
    pub fn slim_from_node(
        path: &str,
        format: Format,
        root: &Mapping,
        out: &mut Vec<Diagnostic>,
    ) -> Template {
        Template::build(path, format, root, out, true)
    }

    fn build(
        path: &str,
        format: Format,
        root: &Mapping,
        out: &mut Vec<Diagnostic>,
        slim: bool,
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
        if slim {
            return Template {
                path: path.to_owned(),
                format,
                version,
                description,
                capabilities,
                resource_type,
                uses: used_types(root.get(res_key), root.get(params_key), type_key),
                resources: Vec::new(),
                get_files: Vec::new(),
                parameter_groups: None,
                conditions: IndexMap::new(),
                outputs: IndexMap::new(),
                parameters: slim_parameters(root.get(params_key), type_key, default_key, format),
            };
        }
        let resources = resource_uses(root.get(res_key), root.get(params_key), type_key);
        Template {
            path: path.to_owned(),
            format,
            version,
            description,
            capabilities,
            resource_type,
            uses: uses(&resources),
            resources,
            get_files: get_files(root),
            parameter_groups: root.get("parameter_groups").map(|n| n.value.to_json()),
            conditions: root
                .get(if format == Format::Hot {
                    "conditions"
                } else {
                    "Conditions"
                })
                .and_then(Node::as_map)
                .map(crate::node::Mapping::json_entries)
                .unwrap_or_default(),
            outputs: root
                .get(if format == Format::Hot {
                    "outputs"
                } else {
                    "Outputs"
                })
                .and_then(Node::as_map)
                .map(crate::node::Mapping::json_entries)
                .unwrap_or_default(),
            parameters: parameters(root.get(params_key), type_key, default_key, format),
        }
    }

    /// Drops what only composition commands read (property values, the
    /// parameters' descriptions, defaults and constraints): the index keeps
    /// the view small, so its memory grows with what it reports.
    pub fn slim(&mut self) {
        // `uses` already holds what the index reports of the resources.
        self.resources = Vec::new();
        for p in &mut self.parameters {
            p.detail = None;
        }
        self.get_files.clear();
        self.parameter_groups = None;
        self.conditions = IndexMap::new();
        self.outputs = IndexMap::new();
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
        Value::Str(s) => vec![s.as_str().to_owned()],
        Value::Seq(items) => {
            let mut types = Vec::new();
            for (i, item) in items.iter().enumerate() {
                if let Value::Str(s) = &item.value {
                    types.push(s.as_str().to_owned());
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

/// Every `get_file` argument below the root (heat-semantics §2.12: the
/// client fetches them relative to the template).
fn get_files(root: &Mapping) -> Vec<(String, Span)> {
    fn walk(node: &Node, out: &mut Vec<(String, Span)>) {
        match &node.value {
            Value::Map(m) => {
                for (k, v) in &m.entries {
                    match (&k.value, &v.value) {
                        (Value::Str(key), Value::Str(path)) if key == "get_file" => {
                            out.push((path.to_string(), v.span));
                        }
                        _ => walk(v, out),
                    }
                }
            }
            Value::Seq(items) => items.iter().for_each(|i| walk(i, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    for (_, v) in &root.entries {
        walk(v, &mut out);
    }
    out
}

/// Types used, first-seen order, each once, group member types included.
fn uses(resources: &[ResourceUse]) -> Vec<String> {
    let mut types: Vec<String> = Vec::new();
    for r in resources {
        for t in std::iter::once(&r.type_name).chain(&r.members) {
            if !types.contains(t) {
                types.push(t.clone());
            }
        }
    }
    types
}

/// The member types of a group or chain resource (see [`ResourceUse::members`]).
fn members(body: &Mapping, type_name: &str, params: Option<&Node>) -> Vec<String> {
    let Some(props) = body.get("properties").and_then(Node::as_map) else {
        return Vec::new();
    };
    if type_name == "OS::Heat::ResourceChain" {
        let list = match props.get("resources") {
            Some(Node {
                value: Value::Map(m),
                ..
            }) => m
                .get("get_param")
                .and_then(|p| p.value.as_str())
                .and_then(|name| params?.as_map()?.get(name)?.as_map()?.get("default")),
            other => other,
        };
        return match list.map(|n| &n.value) {
            Some(Value::Seq(items)) => items
                .iter()
                .filter_map(|i| i.value.as_str().map(str::to_owned))
                .collect(),
            // A comma_delimited_list default may be a string.
            Some(Value::Str(s)) => s
                .split(',')
                .map(|t| t.trim().to_owned())
                .filter(|t| !t.is_empty())
                .collect(),
            _ => Vec::new(),
        };
    }
    ["resource_def", "resource"]
        .iter()
        .find_map(|member| {
            props
                .get(member)
                .and_then(Node::as_map)
                .and_then(|d| d.get("type"))
                .and_then(|n| n.value.as_str())
                .map(|t| vec![t.to_owned()])
        })
        .unwrap_or_default()
}

/// The keys of a mapping node with their spans.
pub(crate) fn key_spans(node: Option<&Node>) -> IndexMap<String, Span> {
    node.and_then(Node::as_map)
        .map(|m| {
            m.entries
                .iter()
                .map(|(k, _)| (k.value.key_text(), k.span))
                .collect()
        })
        .unwrap_or_default()
}

/// The mapping each member of a group or chain receives as properties.
fn member_properties_node(body: &Mapping) -> Option<&Node> {
    let props = body.get("properties").and_then(Node::as_map)?;
    props.get("resource_properties").or_else(|| {
        ["resource_def", "resource"].iter().find_map(|k| {
            props
                .get(k)
                .and_then(Node::as_map)
                .and_then(|d| d.get("properties"))
        })
    })
}

fn member_properties(body: &Mapping) -> IndexMap<String, serde_json::Value> {
    let Some(props) = body.get("properties").and_then(Node::as_map) else {
        return IndexMap::new();
    };
    let found = props.get("resource_properties").or_else(|| {
        ["resource_def", "resource"].iter().find_map(|k| {
            props
                .get(k)
                .and_then(Node::as_map)
                .and_then(|d| d.get("properties"))
        })
    });
    found
        .and_then(Node::as_map)
        .map(crate::node::Mapping::json_entries)
        .unwrap_or_default()
}

/// The `(type, members)` of each resource [`resource_uses`] keeps, in
/// document order, without its properties' values.
fn typed_resources<'n>(
    resources: Option<&'n Node>,
    params: Option<&'n Node>,
    type_key: &'n str,
) -> impl Iterator<Item = (&'n str, Vec<String>)> {
    resources
        .and_then(Node::as_map)
        .into_iter()
        .flat_map(|m| &m.entries)
        .filter_map(move |(k, body)| {
            k.value.as_str()?;
            let body = body.as_map()?;
            let type_name = body.get(type_key)?.value.as_str()?;
            Some((type_name, members(body, type_name, params)))
        })
}

/// [`uses`] of [`resource_uses`], from the types alone.
fn used_types(resources: Option<&Node>, params: Option<&Node>, type_key: &str) -> Vec<String> {
    let mut types: Vec<String> = Vec::new();
    for (type_name, members) in typed_resources(resources, params, type_key) {
        if !types.iter().any(|t| t == type_name) {
            types.push(type_name.to_owned());
        }
        for m in members {
            if !types.contains(&m) {
                types.push(m);
            }
        }
    }
    types
}

/// [`parameters`] without their details (what [`Template::slim`] keeps).
fn slim_parameters(
    params: Option<&Node>,
    type_key: &str,
    default_key: &str,
    format: Format,
) -> Vec<Parameter> {
    let Some(map) = params.and_then(Node::as_map) else {
        return Vec::new();
    };
    // At its size: the filter on string names hides it from `collect`,
    // which grew the vector by doubling (a tenth of `index`'s heap).
    let mut out = Vec::with_capacity(map.len());
    out.extend(map.str_entries().map(|(name, body)| {
        let body = body.as_map();
        let get = |k: &str| body.and_then(|b| b.get(k));
        Parameter {
            name: name.to_owned(),
            type_: get(type_key)
                .and_then(|n| n.value.as_str())
                .map(str::to_owned),
            required: get(default_key).is_none_or(|n| n.value == Value::Null),
            hidden: hidden(format, get),
            detail: None,
        }
    }));
    out
}

/// HOT `hidden: true`, CFN `NoEcho` (any case of `true`).
fn hidden<'n>(format: Format, get: impl Fn(&str) -> Option<&'n Node>) -> bool {
    match format {
        Format::Hot => get("hidden").is_some_and(|n| n.value == Value::Bool(true)),
        Format::Cfn => get("NoEcho")
            .and_then(|n| n.value.scalar_text())
            .is_some_and(|t| t.eq_ignore_ascii_case("true")),
    }
}

fn resource_uses(
    resources: Option<&Node>,
    params: Option<&Node>,
    type_key: &str,
) -> Vec<ResourceUse> {
    let Some(map) = resources.and_then(Node::as_map) else {
        return Vec::new();
    };
    map.entries
        .iter()
        .filter_map(|(k, body)| {
            let name = k.value.as_str()?;
            let body = body.as_map()?;
            let type_node = body.get(type_key)?;
            let type_name = type_node.value.as_str()?;
            let properties_node = body.get(if type_key == "Type" {
                "Properties"
            } else {
                "properties"
            });
            let properties = properties_node
                .and_then(Node::as_map)
                .map(crate::node::Mapping::json_entries)
                .unwrap_or_default();
            let member_properties = member_properties(body);
            let condition = body
                .get(if type_key == "Type" {
                    "Condition"
                } else {
                    "condition"
                })
                .map(|n| n.value.to_json());
            Some(ResourceUse {
                condition,
                name: name.to_owned(),
                type_name: type_name.to_owned(),
                members: members(body, type_name, params),
                span: type_node.span,
                properties,
                property_keys: key_spans(properties_node),
                member_properties,
                member_property_keys: key_spans(member_properties_node(body)),
                other: body
                    .entries
                    .iter()
                    .filter_map(|(k, v)| {
                        let k = k.value.as_str()?;
                        let skip = [
                            type_key,
                            "properties",
                            "Properties",
                            "condition",
                            "Condition",
                        ];
                        (!skip.contains(&k)).then(|| (k.to_owned(), v.value.to_json()))
                    })
                    .collect(),
            })
        })
        .collect()
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
    map.entries
        .iter()
        .filter_map(|(k, v)| k.value.as_str().map(|s| (s, k.span, v)))
        .map(|(name, key, body)| {
            let body = body.as_map();
            let get = |k: &str| body.and_then(|b| b.get(k));
            let hidden = hidden(format, get);
            let text = |k: &str| get(k).and_then(|n| n.value.as_str()).map(str::to_owned);
            let default = get(default_key)
                .filter(|n| n.value != Value::Null)
                .map(|n| n.value.to_json());
            let default_at = body
                .and_then(|b| b.entry(default_key))
                .filter(|(_, v)| v.value != Value::Null)
                .map(|(k, _)| k.span);
            let constraints = match format {
                Format::Hot => get("constraints").map(|n| n.value.to_json()),
                Format::Cfn => {
                    let keys = [
                        "AllowedValues",
                        "AllowedPattern",
                        "MaxLength",
                        "MinLength",
                        "MaxValue",
                        "MinValue",
                        "ConstraintDescription",
                    ];
                    let found: serde_json::Map<String, serde_json::Value> = keys
                        .iter()
                        .filter_map(|k| get(k).map(|n| ((*k).to_owned(), n.value.to_json())))
                        .collect();
                    (!found.is_empty()).then_some(serde_json::Value::Object(found))
                }
            };
            Parameter {
                name: name.to_owned(),
                type_: text(type_key),
                required: default.is_none(),
                hidden,
                detail: Some(Box::new(ParameterDetail {
                    description: text(if format == Format::Hot {
                        "description"
                    } else {
                        "Description"
                    }),
                    label: text(if format == Format::Hot {
                        "label"
                    } else {
                        "Label"
                    }),
                    default,
                    default_key: default_at,
                    key,
                    constraints,
                    tags: get("tags").map(|n| n.value.to_json()),
                })),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every file under fixtures/: the index's view of a template built
    /// directly, from the tree built for the index alone, is the full view
    /// slimmed; the pruned tree classifies the same and parses with the
    /// same diagnostics; an environment's view is the same.
    #[test]
    fn slim_view_built_directly_is_the_full_view_slimmed() {
        use crate::load::{classify::classify, parse_text_as, FileKind, ParseOptions};
        let (mut checked, mut environments) = (0, 0);
        for entry in walkdir::WalkDir::new(concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures"))
            .sort_by_file_name()
            .into_iter()
            .filter_map(Result::ok)
            .filter(|e| e.file_type().is_file())
        {
            let Ok(text) = std::fs::read_to_string(entry.path()) else {
                continue;
            };
            let file = entry.path().display().to_string();
            let whole = parse_text_as(&text, &file, &ParseOptions::default(), false);
            let pruned = parse_text_as(&text, &file, &ParseOptions::default(), true);
            assert_eq!(whole.diagnostics, pruned.diagnostics, "{file}");
            assert_eq!(whole.root.is_some(), pruned.root.is_some(), "{file}");
            let (Some(root), Some(slim_root)) = (whole.root, pruned.root) else {
                continue;
            };
            assert_eq!(classify(&root), classify(&slim_root), "{file}");
            let (Some(m), Some(slim_m)) = (root.as_map(), slim_root.as_map()) else {
                continue;
            };
            let format = match classify(&root).0 {
                FileKind::HotTemplate => Format::Hot,
                FileKind::CfnTemplate => Format::Cfn,
                FileKind::Environment => {
                    let mut env = crate::model::Environment::from_node(&file, m);
                    let slim_env = crate::model::Environment::slim_from_node(&file, slim_m);
                    env.slim();
                    assert_eq!(env, slim_env, "{file}");
                    environments += 1;
                    continue;
                }
                _ => continue,
            };
            let (mut full_out, mut slim_out) = (Vec::new(), Vec::new());
            let mut full = Template::from_node(&file, format, m, &mut full_out);
            full.slim();
            let slim = Template::slim_from_node(&file, format, slim_m, &mut slim_out);
            assert_eq!(full, slim, "{file}");
            assert_eq!(full_out, slim_out, "{file}");
            checked += 1;
        }
        assert!(checked > 500, "{checked} templates");
        assert!(environments > 50, "{environments} environments");
    }

    /// The index's tree drops outputs' and unread resource keys' values,
    /// keeps types and group members.
    #[test]
    fn the_index_tree_keeps_what_the_view_reads() {
        let text = "heat_template_version: 2016-10-14\nresources:\n  g:\n    type: OS::Heat::ResourceGroup\n    depends_on: [x]\n    properties:\n      count: 3\n      resource_def: {type: OS::M, properties: {p: [1, 2]}}\noutputs:\n  o: {value: {get_attr: [g, x]}}\n";
        let parsed =
            crate::load::parse_text_as(text, "t.yaml", &crate::load::ParseOptions::default(), true);
        let json = parsed.root.unwrap().value.to_json();
        assert_eq!(
            json,
            serde_json::json!({
                "heat_template_version": "2016-10-14",
                "resources": {"g": {
                    "type": "OS::Heat::ResourceGroup",
                    "depends_on": null,
                    "properties": {"count": null, "resource_def": {"type": "OS::M", "properties": null}}
                }},
                "outputs": {"o": null}
            })
        );
    }

    #[test]
    fn slim_view_keeps_member_types_and_required() {
        let text = "heat_template_version: 2016-10-14\nparameters:\n  a: {type: string, default: null}\n  b: {type: string, default: x, hidden: true}\n  S: {type: comma_delimited_list, default: 'OS::X, OS::Y'}\n  c: 1\nresources:\n  g:\n    type: OS::Heat::ResourceGroup\n    properties: {resource_def: {type: OS::M, properties: {p: 1}}}\n  ch:\n    type: OS::Heat::ResourceChain\n    properties: {resources: {get_param: S}}\n  again: {type: OS::M}\n";
        let parsed = crate::load::parse_text(text, "t.yaml", &crate::load::ParseOptions::default());
        let root = parsed.root.unwrap();
        let t = Template::slim_from_node(
            "t.yaml",
            Format::Hot,
            root.as_map().unwrap(),
            &mut Vec::new(),
        );
        assert_eq!(
            t.uses,
            [
                "OS::Heat::ResourceGroup",
                "OS::M",
                "OS::Heat::ResourceChain",
                "OS::X",
                "OS::Y"
            ]
        );
        let p: Vec<(&str, bool, bool)> = t
            .parameters
            .iter()
            .map(|p| (p.name.as_str(), p.required, p.hidden))
            .collect();
        assert_eq!(
            p,
            [
                ("a", true, false),
                ("b", false, true),
                ("S", false, false),
                ("c", true, false)
            ]
        );
        assert!(t.resources.is_empty() && t.parameters.iter().all(|p| p.detail.is_none()));
    }
}
