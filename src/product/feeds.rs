//! Where each parameter of a composition lands: the properties of Heat's
//! own resources (native types, after the registry) whose value is the
//! parameter, and the constraints Heat's resource schema puts on them, so
//! that a UI asking for the parameter can check what Heat will check.
//!
//! A parameter feeds a property when the property's value is
//! `{get_param: NAME}` (CFN: `{Ref: NAME}`), written directly or at a place
//! inside a list or map property that Heat's schema describes
//! (`networks: [{network: {get_param: net}}]` feeds `networks[].network`),
//! in a native resource, a group's or chain's own properties, or a group's
//! or chain's member definition when the member type is native. Through a
//! nested stack: a resource of a template type that passes
//! `{get_param: NAME}` to the child's parameter `X` makes `NAME` feed
//! whatever `X` feeds, however deep. A parameter feeds the name users see
//! only where their value reaches it: at the root, and in a nested stack
//! whose parent passes nothing for it (so `parameter_defaults` or its
//! default give it).

use std::collections::{HashMap, HashSet};

use indexmap::IndexMap;
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value as J;

use crate::heat_schema::{self, ConstraintKind, HeatTypes, PropertySchema};
use crate::model::template::{Format, Template};
use crate::resolve::compose::{NodeKind, TreeNode};
use crate::resolve::Catalog;

/// A property of one of Heat's own resources that a parameter's value
/// lands in, with what Heat's resource schema requires of it.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
#[non_exhaustive]
pub struct Feed {
    /// The resource: its stack's id and its name joined with `/`
    /// (`root/server`, `root/servers/0` for a group's member).
    pub resource: String,
    /// The template that writes the property (for a group's member, the
    /// template of the group).
    pub template: String,
    /// The resource's Heat type, after the registry and Heat's own aliases
    /// (`OS::Nova::Server`).
    #[serde(rename = "type")]
    pub type_name: String,
    /// The property: its name, then `[]` for a list's items and `.KEY` for
    /// a map's key (`networks[].network`).
    pub property: String,
    /// The property's type, as Heat's schema names it.
    #[schemars(extend("enum" = ["string", "integer", "number", "boolean", "map", "list", "any"]))]
    pub property_type: String,
    /// Heat requires the property (inside a list item or map: within it).
    pub required: bool,
    /// The property's constraints, in Heat's order and in the shape of
    /// Heat's resource schema.
    pub constraints: Vec<PropertyConstraint>,
    /// The nested stacks' parameters the value passes through on its way,
    /// outermost first (absent when the parameter feeds the property
    /// directly).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schemars(length(min = 1))]
    pub via: Vec<Via>,
}

/// A nested stack's parameter a value passes through.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
#[non_exhaustive]
pub struct Via {
    /// The stack's id (`root/network`).
    pub stack: String,
    /// Its parameter that receives the value.
    pub parameter: String,
}

/// One constraint of a property, as Heat's resource schema shows it
/// (the keys of a HOT parameter's `constraints`), with a custom
/// constraint's need of a cloud.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(untagged)]
#[schemars(deny_unknown_fields)]
#[non_exhaustive]
pub enum PropertyConstraint {
    /// One of these values.
    AllowedValues {
        /// The values.
        allowed_values: Vec<J>,
        /// Heat's message when the value fails.
        #[serde(skip_serializing_if = "Option::is_none")]
        description: Option<String>,
    },
    /// A number within the bounds.
    Range {
        /// The bounds (inclusive).
        range: ConstraintBounds,
        /// Heat's message when the value fails.
        #[serde(skip_serializing_if = "Option::is_none")]
        description: Option<String>,
    },
    /// A string, list or map whose length is within the bounds.
    Length {
        /// The bounds (inclusive).
        length: ConstraintBounds,
        /// Heat's message when the value fails.
        #[serde(skip_serializing_if = "Option::is_none")]
        description: Option<String>,
    },
    /// `offset` plus a multiple of `step`.
    Modulo {
        /// The step and offset.
        modulo: ConstraintModulo,
        /// Heat's message when the value fails.
        #[serde(skip_serializing_if = "Option::is_none")]
        description: Option<String>,
    },
    /// A string matching this Python regular expression (anchored at its
    /// start, as Python's `re.match`).
    AllowedPattern {
        /// The expression.
        allowed_pattern: String,
        /// Heat's message when the value fails.
        #[serde(skip_serializing_if = "Option::is_none")]
        description: Option<String>,
    },
    /// A check Heat registers by name (`nova.flavor`, `ip_addr`).
    Custom {
        /// Its name.
        custom_constraint: String,
        /// The check asks a cloud service (`nova.flavor`: does the flavor
        /// exist?), so only a running cloud can make it; `false` for the
        /// ones that need none (`ip_addr`, `cidr`, `iso_8601`).
        needs_cloud: bool,
        /// Heat's message when the value fails.
        #[serde(skip_serializing_if = "Option::is_none")]
        description: Option<String>,
    },
}

/// The bounds of a `range` or `length` constraint (inclusive; a missing
/// one is unbounded).
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
#[non_exhaustive]
pub struct ConstraintBounds {
    /// The least value (or length) allowed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min: Option<serde_json::Number>,
    /// The greatest value (or length) allowed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max: Option<serde_json::Number>,
}

/// A `modulo` constraint: the value is `offset` plus a multiple of `step`.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
#[non_exhaustive]
pub struct ConstraintModulo {
    /// The step.
    pub step: serde_json::Number,
    /// The offset.
    pub offset: serde_json::Number,
}

/// The properties of native resources each user-facing parameter of the
/// composition `root` feeds, by parameter name (first-seen order; each
/// resource's property once per name).
pub(crate) fn by_parameter(root: &TreeNode, catalog: &dyn Catalog) -> IndexMap<String, Vec<Feed>> {
    let mut walk = Walk {
        catalog,
        heat: heat_schema::heat(),
        stacks: 0,
        user: Vec::new(),
    };
    walk.stack(root, "root", true);
    // Stacks in the tree's order (the root first), as `declared_by` lists
    // them; the walk finishes the deepest first.
    walk.user.sort_by_key(|(order, _, _)| *order);
    let mut by_name: IndexMap<String, Vec<Feed>> = IndexMap::new();
    for (_, name, feeds) in walk.user {
        by_name.entry(name).or_default().extend(feeds);
    }
    for feeds in by_name.values_mut() {
        let mut seen = HashSet::new();
        feeds.retain(|f| seen.insert((f.resource.clone(), f.property.clone())));
    }
    by_name
}

struct Walk<'c> {
    catalog: &'c dyn Catalog,
    heat: &'static HeatTypes,
    /// The stacks entered so far.
    stacks: usize,
    /// What users' values feed: (the stack's place in the tree's order,
    /// the parameter's name, what it feeds).
    user: Vec<(usize, String, Vec<Feed>)>,
}

impl Walk<'_> {
    /// What each parameter of the stack `node` (id `id`) feeds, by name;
    /// the ones users' values reach are added to `user` on the way.
    fn stack(&mut self, node: &TreeNode, id: &str, root: bool) -> IndexMap<String, Vec<Feed>> {
        let order = self.stacks;
        self.stacks += 1;
        let mut feeds: IndexMap<String, Vec<Feed>> = IndexMap::new();
        let Some(path) = node.template.as_deref() else {
            return feeds;
        };
        let Some(t) = self.catalog.template("", path).template else {
            return feeds;
        };
        // The template's resources by name (the first of a repeated name,
        // as a search in order finds it): one lookup per child, where a
        // search per child was quadratic in the stack's resources.
        let mut by_name = HashMap::with_capacity(t.resources.len());
        for r in &t.resources {
            by_name.entry(r.name.as_str()).or_insert(r);
        }
        for child in &node.children {
            let Some(name) = child.resource.as_deref() else {
                continue;
            };
            let Some(&res) = by_name.get(name) else {
                continue;
            };
            let child_id = format!("{id}/{name}");
            let at = Place {
                template: t,
                path,
                id: &child_id,
            };
            self.resource(&at, child, &res.properties, &mut feeds);
            if child.kind == NodeKind::Group {
                // The members, from the group's member definition.
                for member in &child.children {
                    let member_id = format!(
                        "{child_id}/{}",
                        member.resource.as_deref().unwrap_or_default()
                    );
                    let at = Place {
                        template: t,
                        path,
                        id: &member_id,
                    };
                    self.resource(&at, member, &res.member_properties, &mut feeds);
                }
            }
        }
        for p in &t.parameters {
            if root || !node.values.contains_key(&p.name) {
                if let Some(found) = feeds.get(&p.name) {
                    self.user.push((order, p.name.clone(), found.clone()));
                }
            }
        }
        feeds
    }

    /// One resource `node`, written in `at` with `properties`: a native
    /// one's properties, or what its nested stack's parameters feed.
    fn resource(
        &mut self,
        at: &Place<'_>,
        node: &TreeNode,
        properties: &IndexMap<String, J>,
        feeds: &mut IndexMap<String, Vec<Feed>>,
    ) {
        if let Some(plugin) = node.plugin.as_deref() {
            let Some(found) = self.heat.lookup(plugin) else {
                return;
            };
            for (key, value) in properties {
                let Some(schema) = found.ty.property(key).filter(|s| s.implemented) else {
                    continue;
                };
                let mut sinks = Vec::new();
                find(value, schema, key.clone(), at.template, &mut sinks);
                for (param, property, schema) in sinks {
                    let feed = Feed {
                        resource: at.id.to_owned(),
                        template: at.path.to_owned(),
                        type_name: found.name.to_owned(),
                        property,
                        property_type: schema.kind.name().to_owned(),
                        required: schema.required,
                        constraints: schema
                            .constraints
                            .iter()
                            .map(|c| constraint(c, self.heat))
                            .collect(),
                        via: Vec::new(),
                    };
                    feeds.entry(param.to_owned()).or_default().push(feed);
                }
            }
        } else if node.template.is_some() {
            let nested = self.stack(node, at.id, false);
            for (x, found) in nested {
                let Some(param) = properties
                    .get(&x)
                    .and_then(|v| parameter_of(v, at.template))
                else {
                    continue;
                };
                let through = found.into_iter().map(|mut f| {
                    f.via.insert(
                        0,
                        Via {
                            stack: at.id.to_owned(),
                            parameter: x.clone(),
                        },
                    );
                    f
                });
                feeds.entry(param.to_owned()).or_default().extend(through);
            }
        }
    }
}

/// Where a resource is written: its template (and the path shown) and the
/// resource's id.
struct Place<'a> {
    template: &'a Template,
    path: &'a str,
    id: &'a str,
}

/// The parameter `value` is, whole, in template `t`: `{get_param: NAME}`
/// or `{get_param: [NAME]}` in HOT, `{Ref: NAME}` of a declared parameter
/// in CFN. A path into a parameter (`{get_param: [NAME, key]}`) is not the
/// parameter, nor is any other expression.
fn parameter_of<'v>(value: &'v J, t: &Template) -> Option<&'v str> {
    let J::Object(m) = value else {
        return None;
    };
    if m.len() != 1 {
        return None;
    }
    let (key, arg) = m.iter().next()?;
    let name = match (t.format, key.as_str()) {
        (Format::Hot, "get_param") => match arg {
            J::String(s) => s.as_str(),
            J::Array(items) if items.len() == 1 => items[0].as_str()?,
            _ => return None,
        },
        (Format::Cfn, "Ref") => {
            let name = arg.as_str()?;
            if !t.parameters.iter().any(|p| p.name == name) {
                return None;
            }
            name
        }
        _ => return None,
    };
    Some(name)
}

/// The parameters `value` (of a property whose schema is `schema`, at
/// `path`) is made of, with the place and the schema each lands in: the
/// value itself, or, following Heat's schema, a list's items (`path[]`)
/// and a map's known keys (`path.key`).
fn find<'s, 'v>(
    value: &'v J,
    schema: &'s PropertySchema,
    path: String,
    t: &Template,
    out: &mut Vec<(&'v str, String, &'s PropertySchema)>,
) {
    if let Some(param) = parameter_of(value, t) {
        out.push((param, path, schema));
        return;
    }
    match value {
        J::Array(items) => {
            if let Some(item) = schema.item_schema() {
                for v in items {
                    find(v, item, format!("{path}[]"), t, out);
                }
            }
        }
        J::Object(m) => {
            if let Some(fields) = schema.fields() {
                for (k, v) in m {
                    if let Some(field) = fields.get(k).filter(|f| f.implemented) {
                        find(v, field, format!("{path}.{k}"), t, out);
                    }
                }
            }
        }
        _ => {}
    }
}

/// A constraint of Heat's data as the report shows it.
fn constraint(c: &heat_schema::Constraint, heat: &HeatTypes) -> PropertyConstraint {
    let description = c.description.clone();
    match c.kind() {
        ConstraintKind::AllowedValues(v) => PropertyConstraint::AllowedValues {
            allowed_values: v.to_vec(),
            description,
        },
        ConstraintKind::Range(b) => PropertyConstraint::Range {
            range: bounds(b),
            description,
        },
        ConstraintKind::Length(b) => PropertyConstraint::Length {
            length: bounds(b),
            description,
        },
        ConstraintKind::Modulo(m) => PropertyConstraint::Modulo {
            modulo: ConstraintModulo {
                step: number(m.step),
                offset: number(m.offset),
            },
            description,
        },
        ConstraintKind::AllowedPattern(p) => PropertyConstraint::AllowedPattern {
            allowed_pattern: p.to_owned(),
            description,
        },
        ConstraintKind::Custom(name) => PropertyConstraint::Custom {
            custom_constraint: name.to_owned(),
            // A name Heat does not register cannot be checked offline.
            needs_cloud: heat
                .custom_constraint(name)
                .is_none_or(heat_schema::needs_cloud),
            description,
        },
    }
}

fn bounds(b: heat_schema::Bounds) -> ConstraintBounds {
    ConstraintBounds {
        min: b.min.map(number),
        max: b.max.map(number),
    }
}

fn number(n: heat_schema::Number) -> serde_json::Number {
    match n {
        heat_schema::Number::Int(i) => i.into(),
        // Parsed from JSON, so never NaN or infinite.
        heat_schema::Number::Float(f) => {
            serde_json::Number::from_f64(f).unwrap_or_else(|| 0.into())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::{parse_text, ParseOptions};

    fn template(text: &str, format: Format) -> Template {
        let p = parse_text(text, "t.yaml", &ParseOptions::default());
        let root = p.root.expect("the test template parses");
        Template::from_node("t.yaml", format, root.as_map().unwrap(), &mut Vec::new())
    }

    fn hot() -> Template {
        template(
            "heat_template_version: 2018-08-31\nparameters: {flavor: {type: string}}\n",
            Format::Hot,
        )
    }

    /// (parameter, property path, property type) of what `value`, the
    /// property `property` of a `type_name`, is made of.
    fn sinks(
        type_name: &str,
        property: &str,
        value: &J,
        t: &Template,
    ) -> Vec<(String, String, String)> {
        let heat = heat_schema::heat();
        let schema = heat
            .lookup(type_name)
            .unwrap()
            .ty
            .property(property)
            .unwrap();
        let mut out = Vec::new();
        find(value, schema, property.to_owned(), t, &mut out);
        out.into_iter()
            .map(|(p, path, s)| (p.to_owned(), path, s.kind.name().to_owned()))
            .collect()
    }

    fn triple(p: &str, path: &str, ty: &str) -> (String, String, String) {
        (p.to_owned(), path.to_owned(), ty.to_owned())
    }

    #[test]
    fn a_whole_property() {
        let v = serde_json::json!({"get_param": "flavor"});
        assert_eq!(
            sinks("OS::Nova::Server", "flavor", &v, &hot()),
            [triple("flavor", "flavor", "string")]
        );
        // get_param with a one-element list is the parameter too.
        let v = serde_json::json!({"get_param": ["flavor"]});
        assert_eq!(sinks("OS::Nova::Server", "flavor", &v, &hot()).len(), 1);
    }

    #[test]
    fn list_items_and_map_keys_follow_heats_schema() {
        let v = serde_json::json!([
            {"network": {"get_param": "net"}, "fixed_ip": "10.0.0.1"},
            {"port": {"get_param": "port"}},
            {"get_param": "nic"},
        ]);
        assert_eq!(
            sinks("OS::Nova::Server", "networks", &v, &hot()),
            [
                triple("net", "networks[].network", "string"),
                triple("port", "networks[].port", "string"),
                triple("nic", "networks[]", "map"),
            ]
        );
        // Two levels: a list inside a list item.
        let v = serde_json::json!([{"subnet": {"get_param": "sub"}}]);
        assert_eq!(
            sinks("OS::Neutron::Port", "fixed_ips", &v, &hot()),
            [triple("sub", "fixed_ips[].subnet", "string")]
        );
    }

    #[test]
    fn only_the_parameter_itself_feeds() {
        for v in [
            // A path into the parameter, an expression made of it, a key
            // Heat's schema does not know, a map Heat leaves open.
            serde_json::json!({"get_param": ["flavor", "name"]}),
            serde_json::json!({"str_replace": {"template": "x", "params": {"x": {"get_param": "flavor"}}}}),
            serde_json::json!({"get_param": "flavor", "other": 1}),
        ] {
            assert_eq!(sinks("OS::Nova::Server", "flavor", &v, &hot()), []);
        }
        let v = serde_json::json!([{"notakey": {"get_param": "net"}}]);
        assert_eq!(sinks("OS::Nova::Server", "networks", &v, &hot()), []);
        let v = serde_json::json!({"role": {"get_param": "flavor"}});
        assert_eq!(sinks("OS::Nova::Server", "metadata", &v, &hot()), []);
        // A member's properties inside `resource_def` are left to the
        // member's type.
        let v = serde_json::json!({"type": "OS::Nova::Server", "properties": {"flavor": {"get_param": "flavor"}}});
        assert_eq!(
            sinks("OS::Heat::ResourceGroup", "resource_def", &v, &hot()),
            []
        );
    }

    #[test]
    fn cfn_refs_a_declared_parameter() {
        let t = template(
            "HeatTemplateFormatVersion: '2012-12-12'\nParameters: {Flavor: {Type: String}}\nResources: {Other: {Type: OS::Heat::None}}\n",
            Format::Cfn,
        );
        let v = serde_json::json!({"Ref": "Flavor"});
        assert_eq!(
            sinks("OS::Nova::Server", "flavor", &v, &t),
            [triple("Flavor", "flavor", "string")]
        );
        // A resource's reference, and HOT's function in CFN, are not.
        for v in [
            serde_json::json!({"Ref": "Other"}),
            serde_json::json!({"get_param": "Flavor"}),
        ] {
            assert_eq!(sinks("OS::Nova::Server", "flavor", &v, &t), []);
        }
        // And Ref is not HOT's.
        let v = serde_json::json!({"Ref": "flavor"});
        assert_eq!(sinks("OS::Nova::Server", "flavor", &v, &hot()), []);
    }

    fn constraints_of(type_name: &str, property: &str) -> Vec<J> {
        let heat = heat_schema::heat();
        let schema = heat
            .lookup(type_name)
            .unwrap()
            .ty
            .property(property)
            .unwrap();
        schema
            .constraints
            .iter()
            .map(|c| serde_json::to_value(constraint(c, heat)).unwrap())
            .collect()
    }

    #[test]
    fn constraints_in_heats_shape_with_the_need_of_a_cloud() {
        assert_eq!(
            constraints_of("OS::Nova::Server", "flavor"),
            [serde_json::json!({"custom_constraint": "nova.flavor", "needs_cloud": true})]
        );
        assert_eq!(
            constraints_of("OS::Heat::RandomString", "length"),
            [serde_json::json!({"range": {"min": 1, "max": 512}})]
        );
        assert_eq!(
            constraints_of("OS::Heat::ResourceGroup", "count"),
            [serde_json::json!({"range": {"min": 0}})]
        );
        let heat = heat_schema::heat();
        let fixed_ip = heat
            .lookup("OS::Nova::Server")
            .unwrap()
            .ty
            .property("networks")
            .unwrap()
            .item_schema()
            .unwrap()
            .fields()
            .unwrap()
            .get("fixed_ip")
            .unwrap();
        assert_eq!(
            serde_json::to_value(constraint(&fixed_ip.constraints[0], heat)).unwrap(),
            serde_json::json!({"custom_constraint": "ip_addr", "needs_cloud": false})
        );
    }
}
