//! What Heat's resource-type API answers, computed from the data: the list
//! (`GET /resource_types`, the engine's `list_resource_types`), one type's
//! schema (`GET /resource_types/{type}`, `resource_schema`) and its
//! provider-template skeleton (`GET /resource_types/{type}/template`,
//! `generate_template`). Every map is built in the order Heat builds it,
//! so the JSON is Heat's byte for byte.

use regex::Regex;
use serde_json::{json, Map, Value};

use super::{
    AttributeSchema, Constraint, ConstraintKind, Found, HeatTypes, PropertySchema, PropertyType,
    ResourceType, Status,
};

/// The filters of Heat's list API (`--filter name=...` and so on).
#[derive(Debug, Default)]
pub(crate) struct ListFilter {
    /// `name`: a regular expression matched at the start of the name, as
    /// Python's `re.match`.
    pub(crate) name: Option<Regex>,
    /// `support_status`: the type's status.
    pub(crate) support_status: Option<Status>,
    /// `version`: the version its support status names, exactly.
    pub(crate) version: Option<String>,
}

impl ListFilter {
    /// Whether Heat's list shows `ty` under this filter (hidden types never,
    /// as in Heat).
    fn shows(&self, name: &str, ty: &ResourceType) -> bool {
        !ty.support_status.is_hidden() && self.matches(name, ty)
    }

    /// The filter alone (hidden types may match: `list --all`).
    pub(crate) fn matches(&self, name: &str, ty: &ResourceType) -> bool {
        self.name
            .as_ref()
            .is_none_or(|re| re.find(name).is_some_and(|m| m.start() == 0))
            && self
                .support_status
                .is_none_or(|s| ty.support_status.status == s)
            && self
                .version
                .as_ref()
                .is_none_or(|v| ty.support_status.version.as_ref() == Some(v))
    }
}

/// The body of Heat's list API: `{"resource_types": [...]}`, names (or,
/// with descriptions, `{"resource_type", "description"}` objects) in the
/// order of Heat's registry.
pub(crate) fn list_document(
    heat: &HeatTypes,
    filter: &ListFilter,
    with_description: bool,
) -> Value {
    let items: Vec<Value> = heat
        .registry_order
        .iter()
        .filter_map(|name| {
            let ty = heat.get(name)?;
            filter.shows(name, ty).then(|| {
                if with_description {
                    json!({"resource_type": name, "description": ty.description})
                } else {
                    Value::from(name.as_str())
                }
            })
        })
        .collect();
    json!({ "resource_types": items })
}

/// Why Heat gives no schema or template for a type it knows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Refusal {
    /// A hidden type: Heat's `NotSupported` (HTTP 400), "TYPE is not
    /// supported.".
    Hidden,
    /// `generate_template` of a type with a property of type `any`, which
    /// has no parameter type: Heat fails with an internal error (a
    /// `KeyError`, HTTP 500).
    NoParameterType {
        /// The property.
        property: String,
    },
}

/// The body of Heat's schema API for a type found by
/// [`HeatTypes::lookup`]: `resource_type` (the name asked for),
/// `properties` (implemented and not hidden), `attributes` (not hidden),
/// `support_status`, and with `with_description` the class's
/// `description`, as the engine's `resource_schema` builds it.
pub(crate) fn schema_document(found: Found<'_>, with_description: bool) -> Result<Value, Refusal> {
    let ty = found.ty;
    if ty.support_status.is_hidden() {
        return Err(Refusal::Hidden);
    }
    let properties: Map<String, Value> = ty
        .properties
        .iter()
        .filter(|(_, p)| p.is_shown())
        .map(|(n, p)| (n.clone(), property(p)))
        .collect();
    let attributes: Map<String, Value> = ty
        .attributes
        .iter()
        .filter(|(_, a)| !a.support_status.is_hidden())
        .map(|(n, a)| (n.clone(), attribute(a)))
        .collect();
    let mut doc = Map::new();
    doc.insert("resource_type".into(), found.asked.into());
    doc.insert("properties".into(), Value::Object(properties));
    doc.insert("attributes".into(), Value::Object(attributes));
    doc.insert("support_status".into(), ty.support_status.to_heat());
    if with_description {
        doc.insert("description".into(), ty.description.clone().into());
    }
    Ok(Value::Object(doc))
}

/// `dict(schema)` of a property: Heat's keys in Heat's order (`type`,
/// `description`, `default`, `schema`, `required`, `constraints`,
/// `update_allowed`, `immutable`); nested schemas whole.
fn property(p: &PropertySchema) -> Value {
    let mut m = Map::new();
    m.insert("type".into(), p.kind.name().into());
    if let Some(d) = &p.description {
        m.insert("description".into(), d.clone().into());
    }
    if let Some(d) = &p.default {
        m.insert("default".into(), d.clone());
    }
    if let Some(s) = &p.schema {
        let nested: Map<String, Value> = s.iter().map(|(n, p)| (n.clone(), property(p))).collect();
        m.insert("schema".into(), Value::Object(nested));
    }
    m.insert("required".into(), p.required.into());
    if !p.constraints.is_empty() {
        let list: Vec<Value> = p.constraints.iter().map(constraint).collect();
        m.insert("constraints".into(), list.into());
    }
    m.insert("update_allowed".into(), p.update_allowed.into());
    m.insert("immutable".into(), p.immutable.into());
    Value::Object(m)
}

/// `dict(constraint)`: its description first, then its one key.
fn constraint(c: &Constraint) -> Value {
    let mut m = Map::new();
    if let Some(d) = &c.description {
        m.insert("description".into(), d.clone().into());
    }
    let (key, body) = match c.kind() {
        ConstraintKind::AllowedValues(v) => ("allowed_values", Value::from(v.to_vec())),
        ConstraintKind::Range(b) => ("range", bounds(b)),
        ConstraintKind::Length(b) => ("length", bounds(b)),
        ConstraintKind::Modulo(md) => (
            "modulo",
            json!({"step": md.step.to_json(), "offset": md.offset.to_json()}),
        ),
        ConstraintKind::AllowedPattern(p) => ("allowed_pattern", p.into()),
        ConstraintKind::Custom(n) => ("custom_constraint", n.into()),
    };
    m.insert(key.into(), body);
    Value::Object(m)
}

fn bounds(b: super::Bounds) -> Value {
    let mut m = Map::new();
    if let Some(min) = b.min {
        m.insert("min".into(), min.to_json());
    }
    if let Some(max) = b.max {
        m.insert("max".into(), max.to_json());
    }
    Value::Object(m)
}

/// `dict(schema)` of an attribute: `description`, then `type`.
fn attribute(a: &AttributeSchema) -> Value {
    let mut m = Map::new();
    if let Some(d) = &a.description {
        m.insert("description".into(), d.clone().into());
    }
    if let Some(t) = &a.kind {
        m.insert("type".into(), t.clone().into());
    }
    Value::Object(m)
}

/// The dialect of a provider-template skeleton (`--template-type`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TemplateType {
    /// HOT, version 2016-10-14.
    Hot,
    /// CloudFormation-compatible (`HeatTemplateFormatVersion` 2012-12-12).
    Cfn,
}

/// The provider template Heat's `generate_template` returns for a type
/// found by [`HeatTypes::lookup`] (`Resource.resource_to_template`): each
/// shown property as a parameter passed through, each attribute not hidden
/// (then `show`) as an output, plus `OS::stack_id`.
pub(crate) fn template_document(found: Found<'_>, dialect: TemplateType) -> Result<Value, Refusal> {
    let ty = found.ty;
    if ty.support_status.is_hidden() {
        return Err(Refusal::Hidden);
    }
    let hot = dialect == TemplateType::Hot;
    let res = ty.class.as_str();
    let mut params = Map::new();
    let mut props = Map::new();
    for (name, p) in ty.properties.iter().filter(|(_, p)| p.is_shown()) {
        let param = if hot {
            hot_parameter(p)
        } else {
            cfn_parameter(p)
        }
        .ok_or_else(|| Refusal::NoParameterType {
            property: name.clone(),
        })?;
        params.insert(name.clone(), param);
        let prop = match (hot, p.kind) {
            (true, _) => json!({ "get_param": name }),
            (false, PropertyType::List) => json!({"Fn::Split": [",", {"Ref": name}]}),
            (false, _) => json!({ "Ref": name }),
        };
        props.insert(name.clone(), prop);
    }
    // `Attributes.as_outputs`: the class's attributes that are not hidden,
    // then the base ones (`show`) whatever their status.
    let mut outputs = Map::new();
    let (value, description) = if hot {
        ("value", "description")
    } else {
        ("Value", "Description")
    };
    for (name, a) in &ty.attributes {
        if a.support_status.is_hidden() && name != "show" {
            continue;
        }
        let get = if hot {
            json!({"get_attr": [res, name]})
        } else {
            json!({"Fn::GetAtt": [res, name]})
        };
        let mut out = Map::new();
        out.insert(value.into(), get);
        out.insert(description.into(), a.description.clone().into());
        outputs.insert(name.clone(), Value::Object(out));
    }
    let stack_id = if hot {
        json!({"value": {"get_resource": res}})
    } else {
        json!({"Value": {"Ref": res}})
    };
    outputs.insert("OS::stack_id".into(), stack_id);
    let described = format!("Initial template of {res}");
    let mut doc = Map::new();
    if hot {
        doc.insert("heat_template_version".into(), "2016-10-14".into());
        doc.insert("description".into(), described.into());
        doc.insert("parameters".into(), Value::Object(params));
        doc.insert("outputs".into(), Value::Object(outputs));
        doc.insert(
            "resources".into(),
            json!({ res: {"type": found.asked, "properties": Value::Object(props)} }),
        );
    } else {
        doc.insert("HeatTemplateFormatVersion".into(), "2012-12-12".into());
        doc.insert("Description".into(), described.into());
        doc.insert("Parameters".into(), Value::Object(params));
        doc.insert(
            "Resources".into(),
            json!({ res: {"Type": found.asked, "Properties": Value::Object(props)} }),
        );
        doc.insert("Outputs".into(), Value::Object(outputs));
    }
    Ok(Value::Object(doc))
}

/// `Properties._hot_param_def_from_prop`; `None` for a type HOT has no
/// parameter type for (`any`).
fn hot_parameter(p: &PropertySchema) -> Option<Value> {
    let kind = match p.kind {
        PropertyType::Integer | PropertyType::Number => "number",
        PropertyType::String => "string",
        PropertyType::Boolean => "boolean",
        PropertyType::Map => "json",
        PropertyType::List => "comma_delimited_list",
        PropertyType::Any => return None,
    };
    let mut m = Map::new();
    m.insert("type".into(), kind.into());
    if let Some(d) = &p.description {
        m.insert("description".into(), d.clone().into());
    }
    if let Some(d) = &p.default {
        m.insert("default".into(), d.clone());
    }
    if !p.constraints.is_empty() {
        // Modulo and custom constraints have no HOT parameter form: Heat
        // writes an empty map for each.
        let list: Vec<Value> = p
            .constraints
            .iter()
            .map(|c| match c.kind() {
                ConstraintKind::Length(b) => json!({ "length": bounds(b) }),
                ConstraintKind::Range(b) => json!({ "range": bounds(b) }),
                ConstraintKind::AllowedValues(v) => json!({ "allowed_values": v }),
                ConstraintKind::AllowedPattern(s) => json!({ "allowed_pattern": s }),
                ConstraintKind::Modulo(_) | ConstraintKind::Custom(_) => json!({}),
            })
            .collect();
        m.insert("constraints".into(), list.into());
    }
    Some(Value::Object(m))
}

/// `Properties._param_def_from_prop`; `None` for `any`.
fn cfn_parameter(p: &PropertySchema) -> Option<Value> {
    let kind = match p.kind {
        PropertyType::Integer | PropertyType::Number => "Number",
        PropertyType::String => "String",
        PropertyType::Boolean => "Boolean",
        PropertyType::Map => "Json",
        PropertyType::List => "CommaDelimitedList",
        PropertyType::Any => return None,
    };
    // A Python dict built from pairs: a key given twice keeps its first
    // place and takes the last value, as an IndexMap insert does.
    let mut m = Map::new();
    m.insert("Type".into(), kind.into());
    if let Some(d) = &p.description {
        m.insert("Description".into(), d.clone().into());
    }
    if let Some(d) = &p.default {
        m.insert("Default".into(), d.clone());
    }
    for c in &p.constraints {
        match c.kind() {
            ConstraintKind::Length(b) => {
                if let Some(min) = b.min {
                    m.insert("MinLength".into(), min.to_json());
                }
                if let Some(max) = b.max {
                    m.insert("MaxLength".into(), max.to_json());
                }
            }
            ConstraintKind::Range(b) => {
                if let Some(min) = b.min {
                    m.insert("MinValue".into(), min.to_json());
                }
                if let Some(max) = b.max {
                    m.insert("MaxValue".into(), max.to_json());
                }
            }
            ConstraintKind::AllowedValues(v) => {
                m.insert("AllowedValues".into(), v.to_vec().into());
            }
            ConstraintKind::AllowedPattern(s) => {
                m.insert("AllowedPattern".into(), s.into());
            }
            ConstraintKind::Modulo(_) | ConstraintKind::Custom(_) => {}
        }
    }
    if p.kind == PropertyType::Boolean {
        m.insert(
            "AllowedValues".into(),
            json!(["True", "true", "False", "false"]),
        );
    }
    Some(Value::Object(m))
}
