//! The document Heat's `template validate` API returns with `show_nested`
//! (heat-semantics §4), built offline from the walked composition, so that
//! clients of that API can use heatcap unchanged.

use indexmap::IndexMap;
use serde_json::{json, Map, Value as J};

use crate::model::template::{Format, Parameter, ResourceUse, PSEUDO_PARAMETERS};
use crate::model::Environment;
use crate::model::Template;
use crate::resolve::compose::TreeNode;
use crate::resolve::merge::Merged;
use crate::resolve::registry::Registry;
use crate::resolve::Catalog;

/// Heat reports CFN type names, even for HOT.
fn cfn_type(t: Option<&str>) -> J {
    J::String(
        match t.unwrap_or("") {
            "string" => "String",
            "number" => "Number",
            "comma_delimited_list" => "CommaDelimitedList",
            "json" => "Json",
            "boolean" => "Boolean",
            other => other,
        }
        .to_owned(),
    )
}

/// Python's truthiness, which decides whether Heat shows `Value`.
fn truthy(v: &J) -> bool {
    match v {
        J::Null => false,
        J::Bool(b) => *b,
        J::Number(n) => n.as_f64().is_some_and(|f| f != 0.0),
        J::String(s) => !s.is_empty(),
        J::Array(a) => !a.is_empty(),
        J::Object(o) => !o.is_empty(),
    }
}

/// A value heatcap cannot know offline (an intrinsic function call).
fn is_function(v: &J) -> bool {
    matches!(v, J::Object(o) if o.len() == 1 && o.keys().next().is_some_and(|k| k.starts_with("get_") || k.starts_with("Fn::") || k == "Ref" || matches!(k.as_str(), "str_replace" | "list_join" | "if" | "yaql" | "repeat" | "map_merge" | "map_replace" | "str_split" | "digest" | "filter" | "make_url" | "list_concat" | "list_concat_unique" | "contains" | "resource_facade")))
}

/// HOT constraints, or CFN's constraint keys, as Heat's entry keys.
fn constraints(p: &Parameter, format: Format, entry: &mut Map<String, J>) {
    let Some(c) = p.constraints() else { return };
    match format {
        Format::Hot => {
            let mut descriptions = Vec::new();
            for item in c.as_array().into_iter().flatten() {
                let Some(m) = item.as_object() else { continue };
                for (k, v) in m {
                    match k.as_str() {
                        "length" | "range" | "modulo" => {
                            let names: [(&str, &str); 2] = match k.as_str() {
                                "length" => [("min", "MinLength"), ("max", "MaxLength")],
                                "range" => [("min", "MinValue"), ("max", "MaxValue")],
                                _ => [("step", "Step"), ("offset", "Offset")],
                            };
                            for (from, to) in names {
                                if let Some(x) = v.get(from) {
                                    entry.insert(to.to_owned(), x.clone());
                                }
                            }
                        }
                        "allowed_values" => {
                            entry.insert("AllowedValues".to_owned(), v.clone());
                        }
                        "allowed_pattern" => {
                            entry.insert("AllowedPattern".to_owned(), v.clone());
                        }
                        "custom_constraint" => {
                            entry.insert("CustomConstraint".to_owned(), v.clone());
                        }
                        "description" => {
                            if let Some(d) = v.as_str() {
                                descriptions.push(d.to_owned());
                            }
                        }
                        _ => {}
                    }
                }
            }
            if !descriptions.is_empty() {
                entry.insert(
                    "ConstraintDescription".to_owned(),
                    J::String(descriptions.join(" ")),
                );
            }
        }
        Format::Cfn => {
            let Some(m) = c.as_object() else { return };
            let mut count = 0;
            for (k, v) in m {
                if k != "ConstraintDescription" {
                    entry.insert(k.clone(), v.clone());
                    count += 1;
                }
            }
            // Heat attaches the description to each generated constraint.
            if let Some(d) = m.get("ConstraintDescription").and_then(J::as_str) {
                let repeated = vec![d; count.max(1)].join(" ");
                entry.insert("ConstraintDescription".to_owned(), J::String(repeated));
            }
        }
    }
}

fn entry(p: &Parameter, format: Format, pd: Option<&J>, value: Option<&J>) -> J {
    let mut e = Map::new();
    e.insert("Type".to_owned(), cfn_type(p.type_.as_deref()));
    e.insert(
        "Description".to_owned(),
        J::String(p.description().cloned().unwrap_or_default()),
    );
    e.insert(
        "NoEcho".to_owned(),
        J::String(if p.hidden { "true" } else { "false" }.to_owned()),
    );
    e.insert(
        "Label".to_owned(),
        J::String(p.label().cloned().unwrap_or_else(|| p.name.clone())),
    );
    if let Some(d) = pd.or(p.default()) {
        e.insert("Default".to_owned(), d.clone());
    }
    if let Some(v) = value.filter(|v| truthy(v) && !is_function(v)) {
        e.insert("Value".to_owned(), v.clone());
    }
    if let Some(t) = p
        .tags()
        .filter(|t| t.as_array().is_some_and(|a| !a.is_empty()))
    {
        e.insert("Tags".to_owned(), t.clone());
    }
    constraints(p, format, &mut e);
    J::Object(e)
}

struct Builder<'c> {
    catalog: &'c dyn Catalog,
    defaults: IndexMap<String, J>,
}

impl Builder<'_> {
    /// The document of one stack: its parameters (with the values `given`)
    /// and its nested stacks.
    fn stack(
        &self,
        node: &TreeNode,
        type_name: Option<&str>,
        given: &IndexMap<String, J>,
    ) -> Map<String, J> {
        let template: Option<&Template> = node
            .template
            .as_deref()
            .and_then(|p| self.catalog.template("", p).template);
        let mut doc = Map::new();
        if let Some(t) = type_name {
            doc.insert("Type".to_owned(), J::String(t.to_owned()));
        }
        let description = template
            .and_then(|t| t.description.clone())
            .unwrap_or_else(|| "No description".to_owned());
        doc.insert("Description".to_owned(), J::String(description));
        let mut params = Map::new();
        if let Some(t) = template {
            for p in t
                .parameters
                .iter()
                .filter(|p| !PSEUDO_PARAMETERS.contains(&p.name.as_str()))
            {
                params.insert(
                    p.name.clone(),
                    entry(p, t.format, self.defaults.get(&p.name), given.get(&p.name)),
                );
            }
        }
        doc.insert("Parameters".to_owned(), J::Object(params));
        if let Some(groups) = template
            .and_then(|t| t.parameter_groups.clone())
            .filter(truthy)
        {
            doc.insert("ParameterGroups".to_owned(), groups);
        }
        let resources: &[ResourceUse] = template.map_or(&[], |t| t.resources.as_slice());
        let mut nested = Map::new();
        for child in &node.children {
            let name = child.resource.clone().unwrap_or_default();
            let res = resources.iter().find(|r| r.name == name);
            if child.template.is_some() {
                let props = res.map(|r| r.properties.clone()).unwrap_or_default();
                nested.insert(
                    name,
                    J::Object(self.stack(child, Some(&child.type_name), &props)),
                );
            } else if !child.children.is_empty() {
                // A group (or chain): its generated stack, holding the members.
                let member_props = res.map(|r| r.member_properties.clone()).unwrap_or_default();
                let mut members = Map::new();
                for m in child.children.iter().filter(|m| m.template.is_some()) {
                    let key = m.resource.clone().unwrap_or_default();
                    members.insert(
                        key,
                        J::Object(self.stack(m, Some(&m.type_name), &member_props)),
                    );
                }
                nested.insert(
                    name,
                    json!({"Type": child.type_name, "Description": "No description", "Parameters": {}, "NestedParameters": members}),
                );
            }
        }
        if !nested.is_empty() {
            doc.insert("NestedParameters".to_owned(), J::Object(nested));
        }
        doc
    }
}

/// Heat's validate document for the composition rooted at `root`.
pub(crate) fn document(
    root: &TreeNode,
    envs: &[Environment],
    merged: &Merged,
    registry: &Registry<'_>,
    catalog: &dyn Catalog,
) -> J {
    let b = Builder {
        catalog,
        defaults: merged.parameter_defaults.clone(),
    };
    let parameters = merged.parameters.clone();
    let mut doc = b.stack(root, None, &parameters);
    // The user environment as Heat shows it (`user_env_as_dict`): lists
    // already resolved, paths as written.
    let mut env = super::export::environment(envs, merged, registry, &|_, t| t.to_owned());
    if let J::Object(m) = &mut env {
        m.shift_remove("encrypted_param_names");
        m.entry("parameters").or_insert_with(|| json!({}));
        m.entry("parameter_defaults").or_insert_with(|| json!({}));
        m.entry("event_sinks").or_insert_with(|| json!([]));
        if let Some(J::Object(reg)) = m.get_mut("resource_registry") {
            reg.entry("resources").or_insert_with(|| json!({}));
        }
    }
    doc.insert("Environment".to_owned(), env);
    J::Object(doc)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn param(yaml: &str) -> (Parameter, Format) {
        let text = format!("heat_template_version: 2018-03-02\nparameters:\n  p:\n{yaml}");
        let root = crate::load::parse_text(&text, "t.yaml", &crate::load::ParseOptions::default())
            .root
            .unwrap();
        let t = Template::from_node(
            "t.yaml",
            Format::Hot,
            root.as_map().unwrap(),
            &mut Vec::new(),
        );
        (t.parameters[0].clone(), Format::Hot)
    }

    #[test]
    fn entry_follows_heat_conventions() {
        let (p, f) = param("    type: string\n    hidden: true\n    default: abc\n    tags: [a]\n    constraints:\n      - length: {min: 4, max: 8}\n        description: four to eight\n      - allowed_pattern: '[a-z]*'\n        description: lower case\n");
        let e = entry(&p, f, Some(&json!("from-defaults")), Some(&json!("")));
        assert_eq!(
            e,
            json!({"Type": "String", "Description": "", "NoEcho": "true", "Label": "p", "Default": "from-defaults",
                   "Tags": ["a"], "MinLength": 4, "MaxLength": 8, "AllowedPattern": "[a-z]*",
                   "ConstraintDescription": "four to eight lower case"})
        );
        // Value only when truthy and known.
        let (p, f) = param("    type: number\n");
        assert!(entry(&p, f, None, Some(&json!(0))).get("Value").is_none());
        assert_eq!(entry(&p, f, None, Some(&json!(3)))["Value"], json!(3));
        assert!(entry(&p, f, None, Some(&json!({"get_param": "x"})))
            .get("Value")
            .is_none());
        assert!(entry(&p, f, None, None).get("Default").is_none());
    }
}
