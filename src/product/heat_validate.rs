//! The document Heat's `template validate` API returns with `show_nested`
//! (heat-semantics §4), built offline from the walked composition, so that
//! clients of that API can use heatcap unchanged.

use indexmap::IndexMap;
use serde_json::{json, Map, Value as J};

use crate::eval::Outcome;
use crate::model::registry::is_template_path;
use crate::model::template::{Format, Parameter, PSEUDO_PARAMETERS};
use crate::model::Environment;
use crate::model::Template;
use crate::resolve::compose::{NodeKind, TreeNode};
use crate::resolve::merge::Merged;
use crate::resolve::registry::Registry;
use crate::resolve::values::truthy;
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

fn entry(p: &Parameter, format: Format, pd: Option<&J>, value: Option<&Outcome>) -> J {
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
    match value {
        Some(Ok(v)) if truthy(v) => {
            e.insert("Value".to_owned(), v.clone());
        }
        // Heat would compute it; say so rather than leave it out.
        Some(Err(u)) if !u.heat_error => {
            e.insert(
                UNEVALUATED_KEY.to_owned(),
                J::String(format!("{}: {}", u.function, u.reason)),
            );
        }
        _ => {}
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

/// The key that marks a `Value` Heat would compute and heatcap could not
/// (with the function and why), in place of `Value`.
pub(crate) const UNEVALUATED_KEY: &str = "heatcap:Unevaluated";

struct Builder<'c> {
    catalog: &'c dyn Catalog,
    defaults: IndexMap<String, J>,
}

impl Builder<'_> {
    /// The `Type` Heat shows: as written, except that python-heatclient
    /// made a template path an absolute `file://` URL.
    fn type_of(&self, parent: Option<&str>, type_name: &str) -> J {
        let shown = match parent {
            Some(p) if is_template_path(type_name) => self
                .catalog
                .url(p, type_name)
                .unwrap_or_else(|| type_name.to_owned()),
            _ => type_name.to_owned(),
        };
        J::String(shown)
    }

    /// The document of one stack: its parameters (with the values its
    /// node received) and its nested stacks.
    fn stack(&self, node: &TreeNode, type_name: Option<J>) -> Map<String, J> {
        let template: Option<&Template> = node
            .template
            .as_deref()
            .and_then(|p| self.catalog.template("", p).template);
        let mut doc = Map::new();
        if let Some(t) = type_name {
            doc.insert("Type".to_owned(), t);
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
                    entry(
                        p,
                        t.format,
                        self.defaults.get(&p.name),
                        node.values.get(&p.name),
                    ),
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
        let nested = self.nested(node);
        if !nested.is_empty() {
            doc.insert("NestedParameters".to_owned(), J::Object(nested));
        }
        doc
    }

    /// The entries of a stack's resources that are stacks themselves:
    /// provider templates, and groups and chains (whose generated stack
    /// holds their members).
    fn nested(&self, node: &TreeNode) -> Map<String, J> {
        let parent = node.template.as_deref();
        let mut nested = Map::new();
        for child in &node.children {
            let name = child.resource.clone().unwrap_or_default();
            let ty = self.type_of(parent, &child.type_name);
            match child.kind {
                NodeKind::Template if child.template.is_some() => {
                    nested.insert(name, J::Object(self.stack(child, Some(ty))));
                }
                NodeKind::Group => {
                    let mut group = Map::new();
                    group.insert("Type".to_owned(), ty);
                    group.insert(
                        "Description".to_owned(),
                        J::String("No description".to_owned()),
                    );
                    group.insert("Parameters".to_owned(), json!({}));
                    let mut members = Map::new();
                    for m in &child.children {
                        if m.kind == NodeKind::Template && m.template.is_some() {
                            let key = m.resource.clone().unwrap_or_default();
                            let mty = self.type_of(parent, &m.type_name);
                            members.insert(key, J::Object(self.stack(m, Some(mty))));
                        }
                    }
                    if !members.is_empty() {
                        group.insert("NestedParameters".to_owned(), J::Object(members));
                    }
                    nested.insert(name, J::Object(group));
                }
                _ => {}
            }
        }
        nested
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
    let mut doc = b.stack(root, None);
    // The user environment as Heat shows it (`user_env_as_dict`): lists
    // already resolved, template paths as python-heatclient sends them
    // (absolute `file://` URLs).
    let mut env = super::export::environment(envs, merged, registry, &|from, t| {
        catalog.url(from, t).unwrap_or_else(|| t.to_owned())
    });
    if let J::Object(m) = &mut env {
        m.shift_remove("encrypted_param_names");
        m.entry("parameters").or_insert_with(|| json!({}));
        m.entry("parameter_defaults").or_insert_with(|| json!({}));
        m.entry("event_sinks").or_insert_with(|| json!([]));
        if let Some(J::Object(reg)) = m.get_mut("resource_registry") {
            // A template path used directly as a type in the root template
            // is registered in its environment (heat-semantics §2.4).
            for child in &root.children {
                let parent = root.template.as_deref().unwrap_or_default();
                if is_template_path(&child.type_name) {
                    if let Some(url) = catalog.url(parent, &child.type_name) {
                        reg.entry(url.clone()).or_insert(J::String(url));
                    }
                }
            }
            let resources = reg.shift_remove("resources").unwrap_or_else(|| json!({}));
            reg.insert("resources".to_owned(), resources);
        }
    }
    doc.insert("Environment".to_owned(), env);
    J::Object(doc)
}

/// The exception class Heat's API names in the fault for a refusal
/// (`{"Error": message}`): the engine returns most as that dict, which the
/// API raises as `HTTPBadRequest`; a template of an unknown version and a
/// nesting beyond the limit propagate as their own exceptions.
pub(crate) fn error_class(message: &str) -> &'static str {
    if message.starts_with("The template version is invalid") {
        "InvalidTemplateVersion"
    } else if message.starts_with("Request limit exceeded") {
        "RequestLimitExceeded"
    } else {
        "HTTPBadRequest"
    }
}

/// The document as Heat answers without `show_nested`: no top-level
/// `NestedParameters`.
pub(crate) fn without_nested(mut doc: J) -> J {
    if let J::Object(m) = &mut doc {
        m.shift_remove("NestedParameters");
    }
    doc
}

/// TripleO's flattened parameters (tripleo-common's
/// `validate_stack_and_flatten_parameters`, `utils/stack.py`, which the
/// plan's `tripleo.parameters.get` answers and TripleO's UI reads) built
/// from the validate document with `show_nested`:
/// `{"heat_resource_tree": {"resources": {ID: RESOURCE}, "parameters":
/// {NAME: PARAMETER}}, "environment_parameters": ...}`. Each resource has
/// its `name` (`Root` for the stack), `id`, its `type`, `description` and
/// `parameter_groups` when the document has them, its parameters' names
/// and its nested resources' ids (`resources`); every parameter is listed
/// once, as the first resource that has it in a depth-first walk shows it
/// (the root before its nested stacks), its keys with the first letter in
/// lower case (`Default` → `default`) and its `name` added. Resources are
/// listed children first, as tripleo-common inserts them.
///
/// `environment_parameters` is `plan_defaults`, the plan's own
/// `parameter_defaults` as tripleo-common read them (`env.get(
/// 'parameter_defaults')` of the stored plan environment:
/// [`Plan::own_parameter_defaults`](crate::load::plan::Plan)) when the
/// composition comes from a plan; without one (tripleo-common had none
/// to read), the merged environment's `parameter_defaults`.
///
/// One difference, for stable output: an `id` is the resource's path of
/// names from the root (`Root/Controller/0`), not a random UUID. A
/// refusal (`{"Error": ...}`) is answered unchanged.
pub(crate) fn heat_resource_tree(doc: &J, plan_defaults: Option<&J>) -> J {
    if doc.get("Error").is_some() {
        return doc.clone();
    }
    let mut flat = Flattened::default();
    flat.walk("Root", "Root", doc);
    let environment_parameters = match plan_defaults {
        Some(own) => own.clone(),
        None => doc
            .get("Environment")
            .and_then(|e| e.get("parameter_defaults"))
            .cloned()
            .unwrap_or(J::Null),
    };
    json!({
        "heat_resource_tree": {
            "resources": J::Object(flat.resources),
            "parameters": J::Object(flat.parameters),
        },
        "environment_parameters": environment_parameters,
    })
}

/// [`heat_resource_tree`]'s two maps, filled as `_flat_it` fills them.
#[derive(Default)]
struct Flattened {
    resources: Map<String, J>,
    parameters: Map<String, J>,
}

impl Flattened {
    /// One stack (or nested stack) of the document: its entry, after its
    /// children's.
    fn walk(&mut self, name: &str, id: &str, data: &J) {
        let mut value = Map::new();
        value.insert("name".to_owned(), json!(name));
        value.insert("id".to_owned(), json!(id));
        if let Some(t) = data.get("Type") {
            value.insert("type".to_owned(), t.clone());
        }
        if let Some(d) = data.get("Description") {
            value.insert("description".to_owned(), d.clone());
        }
        if let Some(J::Object(params)) = data.get("Parameters") {
            for (p, entry) in params {
                if self.parameters.contains_key(p) {
                    continue;
                }
                let mut shown = Map::new();
                if let J::Object(fields) = entry {
                    for (k, v) in fields {
                        shown.insert(lower_first(k), v.clone());
                    }
                }
                shown.insert("name".to_owned(), json!(p));
                self.parameters.insert(p.clone(), J::Object(shown));
            }
            let names: Vec<J> = params.keys().map(|k| json!(k)).collect();
            value.insert("parameters".to_owned(), J::Array(names));
        }
        if let Some(g) = data.get("ParameterGroups") {
            value.insert("parameter_groups".to_owned(), g.clone());
        }
        if let Some(J::Object(nested)) = data.get("NestedParameters") {
            let mut ids = Vec::new();
            for (child, child_data) in nested {
                let child_id = format!("{id}/{child}");
                self.walk(child, &child_id, child_data);
                ids.push(json!(child_id));
            }
            value.insert("resources".to_owned(), J::Array(ids));
        }
        self.resources.insert(id.to_owned(), J::Object(value));
    }
}

/// `key[0].lower() + key[1:]`.
fn lower_first(key: &str) -> String {
    let mut chars = key.chars();
    chars.next().map_or_else(String::new, |c| {
        c.to_lowercase().chain(chars).collect::<String>()
    })
}

/// What [`document`] builds (and the refusal beside it): a stack's
/// `Description`, `Parameters` (Heat's entries, CFN type names, `NoEcho`
/// as a string), `ParameterGroups` and `NestedParameters` (a nested
/// stack's with its `Type`), and at the root the user environment.
pub(crate) fn schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
    // Constraint values are copied as written.
    let as_written = json!({"description": "as written in the template"});
    let defs = generator.definitions_mut();
    defs.insert(
        "HeatParameter".to_owned(),
        json!({
            "description": "One parameter as Heat's validate API shows it.",
            "type": "object",
            "properties": {
                "Type": {"type": "string", "description": "CFN's type name (`String`, `Number`, `CommaDelimitedList`, `Json`, `Boolean`), or the type as written"},
                "Description": {"type": "string"},
                "NoEcho": {"enum": ["true", "false"]},
                "Label": {"type": "string", "description": "the label, else the name"},
                "Default": {"description": "`parameter_defaults`' value, else the default, as written"},
                "Value": {"description": "the value the stack receives, when truthy"},
                (UNEVALUATED_KEY): {"type": "string", "description": "in place of `Value`: the function heatcap did not evaluate, and why"},
                "Tags": {"type": "array", "minItems": 1},
                "MinLength": as_written,
                "MaxLength": as_written,
                "MinValue": as_written,
                "MaxValue": as_written,
                "Step": as_written,
                "Offset": as_written,
                "AllowedValues": as_written,
                "AllowedPattern": as_written,
                "CustomConstraint": as_written,
                "ConstraintDescription": {"type": "string"}
            },
            "required": ["Type", "Description", "NoEcho", "Label"],
            "not": {"required": ["Value", UNEVALUATED_KEY]},
            "additionalProperties": false
        }),
    );
    let stack = |nested: bool| {
        let mut properties = json!({
            "Description": {"type": "string", "description": "the template's description, else `No description`"},
            "Parameters": {"type": "object", "additionalProperties": {"$ref": "#/$defs/HeatParameter"}},
            "ParameterGroups": {"description": "the template's `parameter_groups` as written, when truthy"},
            "NestedParameters": {
                "description": "resource name -> its nested stack (a group's or chain's holds its members `0`, `1`, ...)",
                "type": "object",
                "additionalProperties": {"$ref": "#/$defs/HeatStack"}
            }
        });
        let required = if nested {
            properties["Type"] = json!({"type": "string", "description": "the resource type; a template path as an absolute `file://` URL"});
            ["Type", "Description", "Parameters"]
        } else {
            // The user environment, every section but the encrypted names.
            let mut env = super::export::environment_schema().to_value();
            env["required"] = json!([
                "parameters",
                "parameter_defaults",
                "event_sinks",
                "resource_registry"
            ]);
            if let Some(p) = env["properties"].as_object_mut() {
                p.shift_remove("encrypted_param_names");
            }
            properties["Environment"] = env;
            ["Description", "Parameters", "Environment"]
        };
        json!({
            "type": "object",
            "properties": properties,
            "required": required,
            "additionalProperties": false
        })
    };
    let nested = stack(true);
    let root = stack(false);
    defs.insert("HeatStack".to_owned(), nested);
    defs.insert("HeatDocument".to_owned(), root);
    // Heat's refusal is told by its `Error` key (so a broken document is
    // reported against the document's schema, not as "none of these").
    schemars::json_schema!({
        "if": {"type": "object", "required": ["Error"]},
        "then": {
            "description": "Heat refuses the composition: its message",
            "type": "object",
            "properties": {"Error": {"type": "string"}},
            "required": ["Error"],
            "additionalProperties": false
        },
        "else": {"$ref": "#/$defs/HeatDocument"}
    })
}

/// What [`heat_resource_tree`] builds (or the refusal it passes on).
pub(crate) fn resource_tree_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    let resource = json!({
        "description": "A stack or nested stack.",
        "type": "object",
        "required": ["name", "id"],
        "properties": {
            "name": {"type": "string", "description": "`Root`, or the resource's name in its parent"},
            "id": {"type": "string", "description": "the path of names from `Root` (tripleo-common: a random UUID)"},
            "type": {"type": "string"},
            "description": {"type": "string"},
            "parameters": {"type": "array", "items": {"type": "string"}, "description": "its parameters' names"},
            "parameter_groups": {"type": "array"},
            "resources": {"type": "array", "items": {"type": "string"}, "description": "its nested stacks' ids"}
        }
    });
    let parameter = json!({
        "description": "A parameter as the first stack that has it shows it (Heat's keys, first letter in lower case), and its name.",
        "type": "object",
        "required": ["name"],
        "properties": {"name": {"type": "string"}}
    });
    let tree = json!({
        "type": "object",
        "required": ["heat_resource_tree", "environment_parameters"],
        "properties": {
            "heat_resource_tree": {
                "type": "object",
                "required": ["resources", "parameters"],
                "properties": {
                    "resources": {"type": "object", "additionalProperties": resource},
                    "parameters": {"type": "object", "additionalProperties": parameter}
                }
            },
            "environment_parameters": {"description": "the plan's own parameter_defaults (tripleo-common's), or without a plan the merged environment's"}
        }
    });
    // A refusal is told by its `Error` key, as in [`schema`].
    schemars::json_schema!({
        "description": "TripleO's flattened parameters (tripleo-common's heat_resource_tree), or Heat's refusal.",
        "if": {"type": "object", "required": ["Error"]},
        "then": {
            "type": "object",
            "properties": {"Error": {"type": "string"}},
            "required": ["Error"],
            "additionalProperties": false
        },
        "else": tree
    })
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
        let e = entry(&p, f, Some(&json!("from-defaults")), Some(&Ok(json!(""))));
        assert_eq!(
            e,
            json!({"Type": "String", "Description": "", "NoEcho": "true", "Label": "p", "Default": "from-defaults",
                   "Tags": ["a"], "MinLength": 4, "MaxLength": 8, "AllowedPattern": "[a-z]*",
                   "ConstraintDescription": "four to eight lower case"})
        );
        // Value only when truthy; marked when heatcap cannot compute it.
        let (p, f) = param("    type: number\n");
        assert!(entry(&p, f, None, Some(&Ok(json!(0))))
            .get("Value")
            .is_none());
        assert_eq!(entry(&p, f, None, Some(&Ok(json!(3))))["Value"], json!(3));
        let unknown = Err(crate::eval::Unevaluated::new("yaql", "not evaluated"));
        let e = entry(&p, f, None, Some(&unknown));
        assert!(e.get("Value").is_none());
        assert_eq!(e[UNEVALUATED_KEY], json!("yaql: not evaluated"));
        let heat_fails = Err(crate::eval::Unevaluated::heat_error("get_param", "missing"));
        assert_eq!(
            entry(&p, f, None, Some(&heat_fails)).get(UNEVALUATED_KEY),
            None
        );
        assert!(entry(&p, f, None, None).get("Default").is_none());
    }

    /// tripleo-common's `_flat_it` on a validate document with a nested
    /// stack: children listed first, a parameter shown as the first stack
    /// that has it shows it, keys lower-cased at their first letter.
    #[test]
    fn flattened_as_tripleo_common_flattens() {
        let doc = json!({
            "Description": "root",
            "Parameters": {"A": {"Type": "String", "Default": "x", "NoEcho": "false"}},
            "ParameterGroups": [{"label": "g", "parameters": ["A"]}],
            "NestedParameters": {
                "Controller": {
                    "Type": "OS::TripleO::Controller",
                    "Description": "nested",
                    "Parameters": {
                        "A": {"Type": "String", "Default": "shadowed"},
                        "B": {"Type": "Number", "Label": "B"},
                    },
                    "NestedParameters": {"0": {"Type": "x.yaml", "Parameters": {}}},
                }
            },
            "Environment": {"parameter_defaults": {"B": 2}},
        });
        let flat = heat_resource_tree(&doc, None);
        let tree = &flat["heat_resource_tree"];
        let ids: Vec<&String> = tree["resources"].as_object().unwrap().keys().collect();
        assert_eq!(ids, ["Root/Controller/0", "Root/Controller", "Root"]);
        let root = &tree["resources"]["Root"];
        assert_eq!(root["name"], "Root");
        assert_eq!(root["description"], "root");
        assert!(root.get("type").is_none());
        assert_eq!(root["parameters"], json!(["A"]));
        assert_eq!(root["parameter_groups"][0]["label"], "g");
        assert_eq!(root["resources"], json!(["Root/Controller"]));
        let c = &tree["resources"]["Root/Controller"];
        assert_eq!(c["type"], "OS::TripleO::Controller");
        assert_eq!(c["parameters"], json!(["A", "B"]));
        assert_eq!(
            tree["resources"]["Root/Controller/0"]["parameters"],
            json!([])
        );
        assert_eq!(
            tree["parameters"]["A"],
            json!({"type": "String", "default": "x", "noEcho": "false", "name": "A"})
        );
        assert_eq!(tree["parameters"]["B"]["label"], "B");
        assert_eq!(flat["environment_parameters"], json!({"B": 2}));
        // From a plan: the plan's own section, as tripleo-common read it.
        let own = json!({"C": 3});
        assert_eq!(
            heat_resource_tree(&doc, Some(&own))["environment_parameters"],
            own
        );
        assert_eq!(
            heat_resource_tree(&doc, Some(&J::Null))["environment_parameters"],
            J::Null
        );
        let refused = json!({"Error": "bad"});
        assert_eq!(heat_resource_tree(&refused, None), refused);
    }
}
