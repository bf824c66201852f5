//! `preview`: Heat's create preview (`POST /v1/{tenant}/stacks/preview`,
//! `openstack stack create --dry-run`), built offline from the walked
//! composition (Heat 27.0.1: `EngineService.preview_stack`,
//! `api.format_stack_preview`, `Stack.preview_resources`). Every resource
//! of every nested stack with its properties as Heat resolves them before
//! anything exists: parameter values, `get_resource` as the resource's
//! name (`null` for the types whose reference is their physical id),
//! `get_attr` as `null`; each property converted by its schema, with its
//! default when not given, as `format_resource_properties` shows it.
//! Nested stacks (template resources, groups, chains) are named as Heat
//! names them, `<parent>-<resource>`, and hold every member a group
//! creates (`ResourceGroup.preview`).
//!
//! The document is heatcap's own ([`Preview`]); [`heat_document`] gives
//! the API's answer from it. A later update preview (`diff`) compares two
//! of these trees: each resource carries what Heat's update compares
//! (type, implementation, properties, metadata, `depends_on`, the
//! schema's `update_allowed` and `immutable` through its plugin type).

use indexmap::IndexMap;
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{json, Map, Value as J};

use crate::eval::{python, Outcome};
use crate::heat_schema::{self, PropertySchema, PropertyType};
use crate::model::template::{Format, ResourceUse};
use crate::model::Template;
use crate::resolve::compose::{Composition, NodeKind, TreeNode};
use crate::resolve::Catalog;

use super::parameters::{value_source, Origins, Source};

/// A value as the preview shows it: the value, or a marker when Heat
/// would compute it and heatcap could not (as `parameters` marks it).
fn shown(v: &Outcome) -> J {
    match v {
        Ok(v) => v.clone(),
        // Heat itself fails: the property shows as null.
        Err(u) if u.heat_error => J::Null,
        Err(u) => json!({ "heatcap:Unevaluated": format!("{}: {}", u.function, u.reason) }),
    }
}

/// One stack of the preview.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
#[non_exhaustive]
pub struct PreviewStack {
    /// Heat's name for it: the root's is `--stack-name`, a nested stack's
    /// `<parent stack>-<resource>`.
    pub name: String,
    /// The resource of the parent stack that creates it (absent for the
    /// root).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parent_resource: Option<String>,
    /// The template it instantiates, as the tree's paths are shown (absent
    /// for the stack Heat generates for a group or chain).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub template: Option<String>,
    /// Its resources, in template order (a group's members in name order),
    /// those a false condition leaves out omitted.
    pub resources: Vec<PreviewResource>,
    /// Its template's output names: a template resource's attributes.
    #[serde(skip)]
    #[schemars(skip)]
    pub(crate) outputs: Vec<String>,
}

/// One resource of a stack.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
#[non_exhaustive]
pub struct PreviewResource {
    /// Its name in its stack (`"0"` for a group's first member).
    pub name: String,
    /// Its type as written.
    #[serde(rename = "type")]
    pub type_name: String,
    /// The Heat type that implements it after the environments' registry
    /// (absent for a template resource, or a type that does not resolve).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub plugin: Option<String>,
    /// Its properties as Heat's preview shows them: for a type Heat
    /// implements, every property of its schema (a value given converted
    /// by the schema, a default, or `null`); for a template resource, the
    /// properties it passes, evaluated. A value heatcap cannot compute is
    /// `{"heatcap:Unevaluated": "function: why"}`.
    pub properties: IndexMap<String, J>,
    /// Its `metadata`, evaluated (`{}` when none).
    pub metadata: J,
    /// Its `description` as written (empty when none).
    pub description: String,
    /// The resources of its stack it needs: `depends_on` and the
    /// resources its properties and metadata name (`get_resource`,
    /// `get_attr`, `Ref`, `Fn::GetAtt`), in template order; then the
    /// subnets a port or server waits for (Heat's implicit dependencies).
    pub requires: Vec<String>,
    /// The resources of its stack that need it, in template order.
    pub required_by: Vec<String>,
    /// The stack it creates (a template resource, group or chain).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nested: Option<PreviewStack>,
    /// `OS::Heat::Value`'s `value` attribute: its value under the class's
    /// schema (`any`, whatever its `type` says).
    #[serde(skip)]
    #[schemars(skip)]
    pub(crate) value_attribute: Option<J>,
    /// Its definition as Heat's update compares it (`ResourceDefinition`
    /// frozen: properties as written and resolved, unconverted; metadata,
    /// `depends_on`, `deletion_policy`, `update_policy`), for `diff`.
    #[serde(skip)]
    #[schemars(skip)]
    pub(crate) definition: J,
    /// Where each property's value is set, for `diff` (see [`Sources`]).
    #[serde(skip)]
    #[schemars(skip)]
    pub(crate) sources: Sources,
    /// The actions the environments restrict for it (`restricted_actions`:
    /// `update`, `replace`) and where (`env.yaml:LINE`), for `diff`.
    #[serde(skip)]
    #[schemars(skip)]
    pub(crate) restricted: Option<(Vec<String>, String)>,
    /// The resources of its stack whose reference or attributes its
    /// properties and metadata take (`get_resource`, `get_attr`, `Ref`,
    /// `Fn::GetAtt`), in template order, for `diff`.
    #[serde(skip)]
    #[schemars(skip)]
    pub(crate) takes: Vec<String>,
}

/// Where each property of a resource is set, by property name: the
/// template line that writes it (a group member's: its group's
/// `resource_def`), then, for each parameter it reads, the line that gives
/// that parameter its value (an environment's `parameters` or
/// `parameter_defaults`, the parameter's `default`, or the parent
/// resource's property, followed outward the same way), as `file:line`.
/// A property not written (a schema default) has no entry.
pub(crate) type Sources = IndexMap<String, ValueSites>;

/// Where one value is set (see [`Sources`]).
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct ValueSites {
    /// The `file:line` chain, nearest first.
    pub(crate) sites: Vec<String>,
    /// The parameters it reads that nothing gives a value (no property,
    /// `parameter_defaults` or `default`): Heat's "Property X not
    /// assigned"; the value shows `null`.
    pub(crate) unset: Vec<String>,
}

/// What a nested stack's sources start from: the parent resource's
/// property sources (a template's parameters), or the sources of every
/// member's properties (a group's stack).
#[derive(Clone, Copy)]
enum Inherited<'a> {
    Root,
    Parameters(&'a Sources),
    Members(&'a Sources),
}

impl PreviewStack {
    /// The stack without its resources (what an entry of Heat's document
    /// needs of it), cloned without the tree below.
    pub(crate) fn shell(&self) -> PreviewStack {
        PreviewStack {
            name: self.name.clone(),
            parent_resource: self.parent_resource.clone(),
            template: self.template.clone(),
            resources: Vec::new(),
            outputs: self.outputs.clone(),
        }
    }
}

impl PreviewResource {
    /// The resource with its nested stack's [`PreviewStack::shell`] only,
    /// cloned without the tree below.
    pub(crate) fn without_tree(&self) -> PreviewResource {
        PreviewResource {
            name: self.name.clone(),
            type_name: self.type_name.clone(),
            plugin: self.plugin.clone(),
            properties: self.properties.clone(),
            metadata: self.metadata.clone(),
            description: self.description.clone(),
            requires: self.requires.clone(),
            required_by: self.required_by.clone(),
            nested: self.nested.as_ref().map(PreviewStack::shell),
            value_attribute: self.value_attribute.clone(),
            definition: self.definition.clone(),
            sources: self.sources.clone(),
            restricted: self.restricted.clone(),
            takes: self.takes.clone(),
        }
    }
}

/// One output of the root stack.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
#[non_exhaustive]
pub struct PreviewOutput {
    /// Its name.
    pub name: String,
    /// Its description (Heat's `No description given` when none).
    pub description: String,
    /// Its value before create (`get_attr` gives `null`); `null` when Heat
    /// fails to compute it.
    pub value: J,
    /// Why Heat fails to compute it, in Heat's words (absent when it does
    /// not).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// The `preview` command's result.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
#[non_exhaustive]
pub struct Preview {
    /// The root template, as given.
    pub template: String,
    /// The environments, as given.
    pub environments: Vec<String>,
    /// The `--choose` selections.
    #[serde(skip_serializing_if = "IndexMap::is_empty")]
    #[schemars(extend("minProperties" = 1))]
    pub choices: IndexMap<String, String>,
    /// The root template's `description` (empty when none).
    pub description: String,
    /// The root stack's parameters as Heat's preview lists them: each
    /// value as text (`str()` of what `get_param` gives; `******` for a
    /// hidden one), pseudo parameters included; `null` when nothing gives
    /// it a value offline (`OS::project_id`: the request's project).
    pub parameters: IndexMap<String, Option<String>>,
    /// The root stack's outputs.
    pub outputs: Vec<PreviewOutput>,
    /// The stack tree.
    pub stack: PreviewStack,
    /// Heat's refusal of the whole preview, in its words, when there is
    /// one (Heat then answers with an error instead of a preview).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub heat_error: Option<String>,
    /// Problems found on the way.
    pub diagnostics: Vec<crate::diag::Diagnostic>,
    /// The nested parameters nothing gives a value, which Heat's create
    /// preview shows as `null` and its update preview refuses (see
    /// [`crate::resolve::compose::Composition`]), for `diff`.
    #[serde(skip)]
    #[schemars(skip)]
    pub(crate) unassigned: Vec<String>,
}

/// Builds the preview of the walked composition `c` (see
/// [`crate::resolve::compose::compose_preview`]) of root template `root`
/// named `stack_name`.
pub(crate) fn build(
    c: &Composition,
    catalog: &dyn Catalog,
    origins: &Origins<'_>,
    root: &str,
    stack_name: &str,
) -> (
    PreviewStack,
    String,
    IndexMap<String, Option<String>>,
    Vec<PreviewOutput>,
) {
    let template = catalog.template("", root).template;
    let stack = stack(
        &c.root,
        &Walk { catalog, origins },
        stack_name,
        None,
        false,
        Inherited::Root,
    );
    let description = template
        .and_then(|t| t.description.clone())
        .unwrap_or_default();
    let hidden = |name: &str| {
        template.is_some_and(|t| t.parameters.iter().any(|p| p.name == name && p.hidden))
    };
    let types = |name: &str| {
        template
            .and_then(|t| t.parameters.iter().find(|p| p.name == name))
            .and_then(|p| p.type_.clone())
    };
    let parameters = c
        .root_stack
        .parameters
        .iter()
        .filter(|(name, _)| {
            // Heat's pseudo parameters of a HOT template; CFN's are its own.
            template.is_none_or(|t| t.format == Format::Hot) || !name.starts_with("OS::")
        })
        .filter(|(name, _)| {
            !matches!(
                name.as_str(),
                "OS::region" | "AWS::Region" | "AWS::StackId" | "AWS::StackName"
            ) || template.is_some_and(|t| t.format == Format::Cfn)
        })
        .map(|(name, v)| {
            let text = match v {
                _ if hidden(name) => Some("******".to_owned()),
                Some(Ok(v)) => Some(parameter_text(types(name).as_deref(), v)),
                // Known only in a cloud (`OS::project_id`: the request's
                // project, which Heat's document fills in).
                Some(Err(_)) => pseudo_text(name),
                None => None,
            };
            (name.clone(), text)
        })
        .collect();
    let outputs = c
        .root_stack
        .outputs
        .iter()
        .map(|(name, description, value)| PreviewOutput {
            name: name.clone(),
            description: match description {
                None | Some(J::Null) => "No description given".to_owned(),
                Some(d) => python::str(d),
            },
            value: shown(value),
            error: match value {
                Err(u) if u.heat_error => Some(u.reason.clone()),
                _ => None,
            },
        })
        .collect();
    (stack, description, parameters, outputs)
}

/// What Heat's preview shows for a pseudo parameter that has no value
/// offline: the stack id of a stack never stored is `None`.
fn pseudo_text(name: &str) -> Option<String> {
    matches!(name, "OS::stack_id" | "AWS::StackId").then(|| "None".to_owned())
}

/// `str(parameter)`: a list joined with commas, json as `json.dumps`,
/// anything else Python's `str`.
fn parameter_text(type_name: Option<&str>, v: &J) -> String {
    match (type_name, v) {
        (Some("comma_delimited_list" | "CommaDelimitedList"), J::Array(items)) => {
            items.iter().map(python::str).collect::<Vec<_>>().join(",")
        }
        (Some("json" | "Json"), v) => python::json_dumps(v, false),
        (_, v) => python::str(v),
    }
}

/// The stack of a template or group node, named `name`; `chain` for a
/// `ResourceChain`'s, whose members each depend on the one before
/// (`ResourceChain.child_template`: `concurrent` or not, since Heat then
/// limits the concurrency to its count of engines, one before create).
fn stack(
    node: &TreeNode,
    w: &Walk<'_>,
    name: &str,
    parent: Option<&str>,
    chain: bool,
    inherited: Inherited<'_>,
) -> PreviewStack {
    let catalog = w.catalog;
    let template: Option<&Template> = node
        .template
        .as_deref()
        .and_then(|p| catalog.template("", p).template);
    let enabled: Vec<&str> = node
        .children
        .iter()
        .filter_map(|c| c.resource.as_deref())
        .collect();
    let uses = |r: &str| -> Option<&ResourceUse> {
        template.and_then(|t| t.resources.iter().find(|u| u.name == r))
    };
    let parameters = template.map(|t| parameter_sites(node, t, w.origins, inherited));
    let mut resources: Vec<PreviewResource> = node
        .children
        .iter()
        .enumerate()
        .map(|(i, child)| {
            let rname = child.resource.clone().unwrap_or_default();
            let written = uses(&rname);
            let requires = match written {
                Some(u) if !chain => requires(u, &enabled),
                _ if chain && i > 0 => vec![enabled[i - 1].to_owned()],
                _ => Vec::new(),
            };
            let (sources, members) = match (written, &parameters, inherited) {
                (Some(u), Some((t, sites)), _) => (
                    property_sources(t, sites, &u.properties, &u.property_keys),
                    property_sources(t, sites, &u.member_properties, &u.member_property_keys),
                ),
                (_, _, Inherited::Members(m)) => (m.clone(), Sources::new()),
                _ => (Sources::new(), Sources::new()),
            };
            let mut r = resource(child, w, name, &rname, written, requires, sources, &members);
            if let Some(u) = written {
                r.takes = takes(u, &enabled);
            }
            r
        })
        .collect();
    let subnets: Vec<usize> = (0..resources.len())
        .filter(|i| resources[*i].plugin.as_deref() == Some("OS::Neutron::Subnet"))
        .collect();
    for i in 0..resources.len() {
        for &j in &subnets {
            if i != j && implicit_requires(&resources[i], &resources[j]) {
                let name = resources[j].name.clone();
                if !resources[i].requires.contains(&name) {
                    resources[i].requires.push(name);
                }
            }
        }
    }
    let needs: Vec<(String, Vec<String>)> = resources
        .iter()
        .map(|r| (r.name.clone(), r.requires.clone()))
        .collect();
    for r in &mut resources {
        r.required_by = needs
            .iter()
            .filter(|(_, req)| req.contains(&r.name))
            .map(|(n, _)| n.clone())
            .collect();
    }
    PreviewStack {
        name: name.to_owned(),
        parent_resource: parent.map(str::to_owned),
        template: (node.kind == NodeKind::Template)
            .then(|| node.template.clone())
            .flatten(),
        resources,
        outputs: template
            .filter(|_| node.kind == NodeKind::Template)
            .map(|t| t.outputs.keys().cloned().collect())
            .unwrap_or_default(),
    }
}

/// One resource (`child`) of the stack `stack_name`, its properties set
/// where `sources` says (a group's members' where `members` says).
#[allow(clippy::too_many_arguments)]
fn resource(
    child: &TreeNode,
    w: &Walk<'_>,
    stack_name: &str,
    name: &str,
    written: Option<&ResourceUse>,
    requires: Vec<String>,
    sources: Sources,
    members: &Sources,
) -> PreviewResource {
    let nested_name = format!("{stack_name}-{name}");
    let nested = match child.kind {
        NodeKind::Template if child.template.is_some() => Some(stack(
            child,
            w,
            &nested_name,
            Some(name),
            false,
            Inherited::Parameters(&sources),
        )),
        NodeKind::Group => {
            let chain = child.plugin.as_deref() == Some("OS::Heat::ResourceChain");
            Some(stack(
                child,
                w,
                &nested_name,
                Some(name),
                chain,
                Inherited::Members(members),
            ))
        }
        _ => None,
    };
    let properties = match (&nested, child.plugin.as_deref()) {
        (None, Some(plugin)) => match heat_schema::heat().get(plugin) {
            Some(t) => {
                let given = translated(plugin, &child.properties);
                t.properties
                    .iter()
                    .map(|(k, schema)| (k.clone(), property(schema, given.get(k))))
                    .collect()
            }
            None => IndexMap::new(),
        },
        _ => child
            .properties
            .iter()
            .map(|(k, v)| (k.clone(), shown(v)))
            .collect(),
    };
    let mut properties = properties;
    let mut value_attribute = None;
    if child.plugin.as_deref() == Some("OS::Heat::Value") {
        value_attribute = properties.get("value").cloned();
        value_by_type(&mut properties, child.properties.get("value"));
    }
    let description = written
        .and_then(|u| {
            u.other
                .get("description")
                .or_else(|| u.other.get("Description"))
        })
        .map(python::str)
        .unwrap_or_default();
    PreviewResource {
        definition: definition(child, written),
        name: name.to_owned(),
        type_name: child.type_name.clone(),
        plugin: child.plugin.clone(),
        properties,
        metadata: match &child.metadata {
            Some(m) => match shown(m) {
                J::Null => json!({}),
                v => v,
            },
            None => json!({}),
        },
        description,
        requires,
        required_by: Vec::new(),
        nested,
        value_attribute,
        sources,
        restricted: child.restricted.clone(),
        takes: Vec::new(),
    }
}

/// The resources of `enabled` whose reference or attributes `u`'s
/// properties and metadata take.
fn takes(u: &ResourceUse, enabled: &[&str]) -> Vec<String> {
    let mut named: Vec<String> = Vec::new();
    referenced(u, &mut named);
    named_in(u, enabled, &named)
}

/// The resource names `u`'s properties and metadata take
/// (`get_resource`, `get_attr`, `Ref`, `Fn::GetAtt`), added to `named`.
fn referenced(u: &ResourceUse, named: &mut Vec<String>) {
    for v in u.properties.values() {
        references(v, named);
    }
    for k in ["metadata", "Metadata"] {
        if let Some(m) = u.other.get(k) {
            references(m, named);
        }
    }
}

/// The resources of `enabled` (in its order) that `named` names, `u`
/// itself left out.
fn named_in(u: &ResourceUse, enabled: &[&str], named: &[String]) -> Vec<String> {
    enabled
        .iter()
        .filter(|n| **n != u.name && named.iter().any(|x| x == *n))
        .map(|n| (*n).to_owned())
        .collect()
}

/// A resource's definition as Heat's update compares it
/// (`ResourceDefinition.render_hot`, engine/rsrc_defn.py L343: properties,
/// metadata, `depends_on`, `deletion_policy`, `update_policy`,
/// `condition`; not `description`).
fn definition(child: &TreeNode, written: Option<&ResourceUse>) -> J {
    let mut definition = Map::new();
    definition.insert(
        "properties".to_owned(),
        J::Object(
            child
                .properties
                .iter()
                .map(|(k, v)| (k.clone(), shown(v)))
                .collect(),
        ),
    );
    definition.insert(
        "metadata".to_owned(),
        child.metadata.as_ref().map_or(J::Null, shown),
    );
    for (key, alias) in [
        ("depends_on", "DependsOn"),
        ("deletion_policy", "DeletionPolicy"),
        ("update_policy", "UpdatePolicy"),
    ] {
        if let Some(v) = written.and_then(|u| u.other.get(key).or_else(|| u.other.get(alias))) {
            definition.insert(key.to_owned(), v.clone());
        }
    }
    // `ResourceDefinition.render_hot` keeps the condition as written (its
    // name): another condition, however it evaluates, is a change.
    if let Some(c) = written.and_then(|u| u.condition.as_ref()) {
        definition.insert("condition".to_owned(), c.clone());
    }
    J::Object(definition)
}

/// What a walk of the preview reads besides the tree.
struct Walk<'a> {
    catalog: &'a dyn Catalog,
    origins: &'a Origins<'a>,
}

/// Where each parameter of the stack walked as `node` (template `t`) takes
/// its value ([`super::parameters::value_source`]), followed outward
/// through `inherited` when its parent resource passes it.
fn parameter_sites(
    node: &TreeNode,
    t: &Template,
    origins: &Origins<'_>,
    inherited: Inherited<'_>,
) -> (String, Sources) {
    let path = node.template.clone().unwrap_or_default();
    let source = if matches!(inherited, Inherited::Root) {
        Source::Parameters
    } else {
        Source::Property
    };
    let passed: IndexMap<String, J> = node
        .values
        .iter()
        .map(|(k, v)| (k.clone(), shown(v)))
        .collect();
    let sites = t
        .parameters
        .iter()
        .map(|p| {
            let Some((from, _, (file, span))) =
                value_source(origins, node, &path, p, source, &passed)
            else {
                let unset = ValueSites {
                    sites: Vec::new(),
                    unset: vec![p.name.clone()],
                };
                return (p.name.clone(), unset);
            };
            let mut at = ValueSites {
                sites: vec![format!("{file}:{}", span.start.line)],
                unset: Vec::new(),
            };
            if let (Source::Property, Inherited::Parameters(up)) = (from, inherited) {
                if let Some(up) = up.get(&p.name) {
                    at.sites.extend(up.sites.iter().cloned());
                    at.unset.extend(up.unset.iter().cloned());
                }
            }
            (p.name.clone(), at)
        })
        .collect();
    (path, sites)
}

/// The sources of `properties` (as written in `file`, each key at `keys`):
/// its line, then the sites of the parameters it reads.
fn property_sources(
    file: &str,
    parameters: &Sources,
    properties: &IndexMap<String, J>,
    keys: &IndexMap<String, crate::diag::Span>,
) -> Sources {
    properties
        .iter()
        .map(|(k, v)| {
            let mut at = ValueSites {
                sites: keys
                    .get(k)
                    .map(|s| format!("{file}:{}", s.start.line))
                    .into_iter()
                    .collect(),
                unset: Vec::new(),
            };
            let mut read = Vec::new();
            parameters_read(v, &mut read);
            for p in read.iter().filter_map(|p| parameters.get(p)) {
                for site in &p.sites {
                    if !at.sites.contains(site) {
                        at.sites.push(site.clone());
                    }
                }
                for name in &p.unset {
                    if !at.unset.contains(name) {
                        at.unset.push(name.clone());
                    }
                }
            }
            (k.clone(), at)
        })
        .collect()
}

/// The parameters `v` reads (`get_param`, CFN `Ref`), in order.
fn parameters_read(v: &J, out: &mut Vec<String>) {
    match v {
        J::Object(m) => {
            for (k, x) in m {
                let name = match (k.as_str(), x) {
                    ("get_param" | "Ref", J::String(n)) => Some(n),
                    ("get_param", J::Array(items)) => match items.first() {
                        Some(J::String(n)) => Some(n),
                        _ => None,
                    },
                    _ => None,
                };
                match name {
                    Some(n) if !out.contains(n) => out.push(n.clone()),
                    Some(_) => {}
                    None => parameters_read(x, out),
                }
            }
        }
        J::Array(items) => items.iter().for_each(|i| parameters_read(i, out)),
        _ => {}
    }
}

/// Heat's `REPLACE` translation rules without a cloud look-up: a
/// deprecated property's value moves to the property that replaced it
/// (type, list property or `""` for the top level, old name, new name).
const REPLACED: &[(&str, &str, &str, &str)] = &[
    ("OS::Neutron::Port", "", "network_id", "network"),
    ("OS::Neutron::Port", "fixed_ips", "subnet_id", "subnet"),
    ("OS::Neutron::Subnet", "", "network_id", "network"),
    (
        "OS::Neutron::FloatingIP",
        "",
        "floating_network_id",
        "floating_network",
    ),
    ("OS::Neutron::RouterInterface", "", "port_id", "port"),
    ("OS::Neutron::RouterInterface", "", "router_id", "router"),
    ("OS::Neutron::RouterInterface", "", "subnet_id", "subnet"),
    ("OS::Neutron::RouterGateway", "", "network_id", "network"),
    ("OS::Neutron::VPNService", "", "subnet_id", "subnet"),
    ("OS::Neutron::VPNService", "", "router_id", "router"),
    (
        "OS::Neutron::NetworkGateway",
        "connections",
        "network_id",
        "network",
    ),
    ("OS::Nova::Server", "networks", "uuid", "network"),
    (
        "OS::Nova::Server",
        "block_device_mapping_v2",
        "image_id",
        "image",
    ),
    ("OS::Cinder::Volume", "", "imageRef", "image"),
];

/// The properties given, after [`REPLACED`]'s rules for `plugin`: the old
/// name's value under the new one when only the old is given.
fn translated(plugin: &str, given: &IndexMap<String, Outcome>) -> IndexMap<String, Outcome> {
    let mut out = given.clone();
    for (_, list, from, to) in REPLACED.iter().filter(|r| r.0 == plugin) {
        if list.is_empty() {
            if !out.contains_key(*to) {
                if let Some(v) = out.shift_remove(*from) {
                    out.insert((*to).to_owned(), v);
                }
            }
        } else if let Some(Ok(J::Array(items))) = out.get_mut(*list) {
            for item in items.iter_mut() {
                if let J::Object(m) = item {
                    if !m.contains_key(*to) {
                        if let Some(v) = m.shift_remove(*from) {
                            m.insert((*to).to_owned(), v);
                        }
                    }
                }
            }
        }
    }
    out
}

/// The dependencies a port or a server adds on the subnets of its stack
/// (`Port.add_dependencies`, `Server.add_dependencies`): a port on the
/// subnet's network; a server with networks, on a subnet whose network is
/// unknown, one of its networks, or when one of its networks is unknown.
fn implicit_requires(r: &PreviewResource, subnet: &PreviewResource) -> bool {
    let subnet_net = subnet.properties.get("network").unwrap_or(&J::Null);
    match r.plugin.as_deref() {
        Some("OS::Neutron::Port") => r.properties.get("network").unwrap_or(&J::Null) == subnet_net,
        Some("OS::Nova::Server") => {
            let Some(J::Array(nets)) = r.properties.get("networks") else {
                return false;
            };
            if nets.is_empty() {
                return false;
            }
            if !python::truthy(subnet_net) {
                return true;
            }
            nets.iter().any(|n| {
                let id = n.get("network").unwrap_or(&J::Null);
                !python::truthy(id) || id == subnet_net
            })
        }
        _ => false,
    }
}

/// `OS::Heat::Value.reparse`: with a known `type`, its `value` is
/// converted as a property of that type (required).
fn value_by_type(properties: &mut IndexMap<String, J>, given: Option<&Outcome>) {
    let kind = match properties.get("type").and_then(J::as_str) {
        Some("string") => "string",
        Some("number") => "number",
        Some("comma_delimited_list") => "list",
        Some("json") => "map",
        Some("boolean") => "boolean",
        _ => return,
    };
    let Ok(schema) =
        serde_json::from_value::<PropertySchema>(json!({"type": kind, "required": true}))
    else {
        return;
    };
    properties.insert("value".to_owned(), property(&schema, given));
}

/// The resources of `enabled` that `u` needs: its `depends_on` and those
/// its properties and metadata name.
fn requires(u: &ResourceUse, enabled: &[&str]) -> Vec<String> {
    let mut named: Vec<String> = Vec::new();
    for k in ["depends_on", "DependsOn"] {
        match u.other.get(k) {
            Some(J::String(s)) => named.push(s.clone()),
            Some(J::Array(items)) => {
                named.extend(items.iter().filter_map(J::as_str).map(str::to_owned));
            }
            _ => {}
        }
    }
    referenced(u, &mut named);
    named_in(u, enabled, &named)
}

/// The resource names a snippet's functions name.
fn references(v: &J, out: &mut Vec<String>) {
    match v {
        J::Object(m) => {
            if m.len() == 1 {
                let (k, arg) = m.iter().next().expect("one entry");
                match (k.as_str(), arg) {
                    ("get_resource" | "Ref", J::String(s)) => out.push(s.clone()),
                    ("get_attr" | "Fn::GetAtt", J::Array(items)) => {
                        if let Some(J::String(s)) = items.first() {
                            out.push(s.clone());
                        }
                    }
                    _ => {}
                }
            }
            for x in m.values() {
                references(x, out);
            }
        }
        J::Array(items) => items.iter().for_each(|x| references(x, out)),
        _ => {}
    }
}

/// One property as `format_resource_properties` shows it: the value
/// given, converted by its schema (`Property.get_value`), its default
/// when none, `null` when Heat's conversion fails or nothing gives one.
fn property(schema: &PropertySchema, given: Option<&Outcome>) -> J {
    match given {
        Some(Ok(v)) => convert(schema, Some(v)).unwrap_or(J::Null),
        Some(Err(u)) if u.heat_error => J::Null,
        Some(Err(u)) => shown(&Err(u.clone())),
        None if schema.default.is_some() => convert(schema, None).unwrap_or(J::Null),
        None => J::Null,
    }
}

/// Python's truth of a default (`has_default() and default() or x`).
fn truthy_default(schema: &PropertySchema) -> Option<&J> {
    schema.default.as_ref().filter(|d| python::truthy(d))
}

/// `Property.get_value(value)`; `Err` where Heat raises.
fn convert(schema: &PropertySchema, value: Option<&J>) -> Result<J, ()> {
    let value = value.filter(|v| !v.is_null());
    match schema.kind {
        PropertyType::String => {
            let v = value.or_else(|| truthy_default(schema));
            match v {
                None => Ok(J::String(String::new())),
                Some(J::String(s)) => Ok(J::String(s.clone())),
                Some(b @ J::Bool(_)) => Ok(J::String(python::str(b))),
                Some(J::Number(n)) if n.is_i64() || n.is_u64() => Ok(J::String(n.to_string())),
                Some(_) => Err(()),
            }
        }
        PropertyType::Integer => {
            let v = value.or_else(|| truthy_default(schema));
            match v {
                None => Ok(json!(0)),
                Some(J::Number(n)) if n.is_i64() || n.is_u64() => Ok(J::Number(n.clone())),
                Some(J::Number(n)) => n
                    .as_f64()
                    .filter(|f| f.is_finite())
                    .map(|f| json!(f.trunc() as i64))
                    .ok_or(()),
                Some(J::Bool(b)) => Ok(json!(i64::from(*b))),
                Some(J::String(s)) => python::int_of_str(s)
                    .and_then(|i| i64::try_from(i).ok())
                    .map(|i| json!(i))
                    .ok_or(()),
                Some(_) => Err(()),
            }
        }
        PropertyType::Number => {
            let v = value.or_else(|| truthy_default(schema));
            match v {
                None => Ok(json!(0)),
                Some(n @ J::Number(_)) => Ok(n.clone()),
                Some(J::Bool(b)) => Ok(J::Bool(*b)),
                Some(J::String(s)) => {
                    match python::int_of_str(s).and_then(|i| i64::try_from(i).ok()) {
                        Some(i) => Ok(json!(i)),
                        None => s
                            .trim()
                            .parse::<f64>()
                            .ok()
                            .filter(|f| f.is_finite())
                            .map(|f| json!(f))
                            .ok_or(()),
                    }
                }
                Some(_) => Err(()),
            }
        }
        PropertyType::Boolean => {
            let v = value.or_else(|| truthy_default(schema));
            match v {
                None => Ok(J::Bool(false)),
                Some(J::Bool(b)) => Ok(J::Bool(*b)),
                Some(J::String(s)) => match s.to_lowercase().as_str() {
                    "true" => Ok(J::Bool(true)),
                    "false" => Ok(J::Bool(false)),
                    _ => Err(()),
                },
                Some(_) => Err(()),
            }
        }
        PropertyType::Map => {
            let v = match value {
                Some(v) => v.clone(),
                None => schema.default.clone().unwrap_or_else(|| json!({})),
            };
            let J::Object(m) = v else { return Err(()) };
            match schema.fields() {
                Some(fields) => children(fields, &m),
                None => Ok(J::Object(m)),
            }
        }
        PropertyType::List => {
            let v = match value {
                Some(v) => v.clone(),
                None => truthy_default(schema).cloned().unwrap_or_else(|| json!([])),
            };
            let J::Array(items) = v else { return Err(()) };
            match schema.item_schema() {
                Some(item) => items
                    .iter()
                    .map(|x| child(item, Some(x)))
                    .collect::<Result<Vec<_>, ()>>()
                    .map(J::Array),
                None => Ok(J::Array(items)),
            }
        }
        PropertyType::Any => Ok(value.cloned().unwrap_or(J::Null)),
    }
}

/// A map's known keys (`_get_children`): each given one converted, a
/// default, `null`; a required one missing fails the whole map.
fn children(fields: &IndexMap<String, PropertySchema>, m: &Map<String, J>) -> Result<J, ()> {
    fields
        .iter()
        .map(|(k, s)| child(s, m.get(k)).map(|v| (k.clone(), v)))
        .collect::<Result<Map<_, _>, ()>>()
        .map(J::Object)
}

/// One child property (`Properties._get_property_value` inside a map or
/// list): given (even `null`) it is converted; else its default; else a
/// required one fails; else `null`.
fn child(schema: &PropertySchema, given: Option<&J>) -> Result<J, ()> {
    match given {
        Some(v) => convert(schema, Some(v)),
        None if schema.default.is_some() => convert(schema, None),
        None if schema.required => Err(()),
        None => Ok(J::Null),
    }
}

/// The context of a Heat API answer: the project in the request's path,
/// the user who asks, the API's endpoint, the time Heat's clock reads.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct HeatContext {
    /// The project (`{tenant}` of the path).
    pub tenant: String,
    /// The user (the preview's `stack_owner`).
    pub user: String,
    /// The endpoint links start with (`http://localhost:8004/v1`).
    pub endpoint: String,
    /// `creation_time`, as Heat writes it (`2026-01-01T00:00:00Z`).
    pub now: String,
}

impl HeatContext {
    /// A context for `tenant`, `user`, `endpoint`, `now`.
    pub fn new(tenant: &str, user: &str, endpoint: &str, now: &str) -> HeatContext {
        HeatContext {
            tenant: tenant.to_owned(),
            user: user.to_owned(),
            endpoint: endpoint.to_owned(),
            now: now.to_owned(),
        }
    }

    /// The context `heatcap preview --format heat` answers in (and
    /// `serve`'s `/heatcap/v1/preview`, which answers what it answers):
    /// project and user `heatcap`, endpoint `http://localhost:8004/v1`,
    /// Heat's clock now (`heat_clock`).
    pub fn offline() -> HeatContext {
        HeatContext::new(
            "heatcap",
            "heatcap",
            "http://localhost:8004/v1",
            &heat_clock(),
        )
    }
}

/// Heat's clock as `isotime` writes it (`2026-01-01T00:00:00Z`): now, or
/// `SOURCE_DATE_EPOCH` when set (reproducible output).
pub(crate) fn heat_clock() -> String {
    let secs = std::env::var("SOURCE_DATE_EPOCH")
        .ok()
        .and_then(|s| s.trim().parse::<u64>().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_secs())
                .unwrap_or_default()
        });
    isotime(secs)
}

/// `secs` since the epoch as Heat's `isotime` writes them.
fn isotime(secs: u64) -> String {
    let days = i64::try_from(secs / 86_400).unwrap_or_default();
    let rem = secs % 86_400;
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// The document Heat's `POST /v1/{tenant}/stacks/preview` answers for the
/// preview `p` (`{"stack": ...}`; nested stacks as lists of their
/// resources), or Heat's error (`{"Error": ...}`).
pub(crate) fn heat_document(p: &Preview, cx: &HeatContext) -> J {
    if let Some(e) = &p.heat_error {
        return json!({ "Error": e });
    }
    let name = &p.stack.name;
    let outputs: Vec<J> = p
        .outputs
        .iter()
        .map(|o| {
            let mut out = json!({"description": o.description, "output_key": o.name, "output_value": o.value});
            if let (Some(e), J::Object(m)) = (&o.error, &mut out) {
                m.insert("output_error".to_owned(), J::String(e.clone()));
            }
            out
        })
        .collect();
    let parameters: Map<String, J> = p
        .parameters
        .iter()
        .map(|(k, v)| (k.clone(), v.clone().map_or(J::Null, J::String)))
        .collect();
    let mut parameters = parameters;
    if parameters.contains_key("OS::project_id") {
        parameters.insert("OS::project_id".to_owned(), J::String(cx.tenant.clone()));
    }
    json!({"stack": {
        "capabilities": [],
        "creation_time": cx.now,
        "deletion_time": null,
        "description": p.description,
        "disable_rollback": true,
        "id": "None",
        "links": [{"href": format!("{}/{}/stacks/{}/None", cx.endpoint, cx.tenant, name), "rel": "self"}],
        "notification_topics": [],
        "outputs": outputs,
        "parameters": parameters,
        "parent": null,
        "resources": heat_resources(&p.stack, cx),
        "stack_name": name,
        "stack_owner": cx.user,
        "stack_user_project_id": null,
        "tags": [],
        "template_description": p.description,
        "timeout_mins": null,
        "updated_time": null,
    }})
}

/// A stack's resources as Heat's preview lists them: a nested stack as
/// the list of its own.
fn heat_resources(s: &PreviewStack, cx: &HeatContext) -> Vec<J> {
    s.resources
        .iter()
        .map(|r| match &r.nested {
            Some(n) => J::Array(heat_resources(n, cx)),
            None => heat_resource(r, s, cx),
        })
        .collect()
}

/// One resource as `format_stack_resource(with_props=True)` gives it
/// before create.
pub(crate) fn heat_resource(r: &PreviewResource, s: &PreviewStack, cx: &HeatContext) -> J {
    let identity = |path: String| json!({"path": path, "stack_id": "None", "stack_name": s.name, "tenant": cx.tenant});
    let mut out = json!({
        "attributes": attributes(r),
        "creation_time": null,
        "description": r.description,
        "metadata": r.metadata,
        "physical_resource_id": "",
        "properties": r.properties,
        "required_by": r.required_by,
        "resource_action": "INIT",
        "resource_identity": identity(format!("/resources/{}", r.name)),
        "resource_name": r.name,
        "resource_status": "COMPLETE",
        "resource_status_reason": "",
        "resource_type": r.type_name,
        "stack_identity": identity(String::new()),
        "stack_name": s.name,
        "updated_time": null,
    });
    if let (Some(parent), J::Object(m)) = (&s.parent_resource, &mut out) {
        m.insert("parent_resource".to_owned(), J::String(parent.clone()));
    }
    out
}

/// Heat's `resource_type` of a template resource whose type is a path
/// (`.yaml`, `.template`): python-heatclient sends it as the absolute
/// `file://` URL of its template, shown (as the oracle records it)
/// relative to the directory of the root template `root`. `None` for
/// any other type.
// python-heatclient's test is case-sensitive (`str.endswith`).
#[allow(clippy::case_sensitive_file_extension_comparisons)]
pub(crate) fn heat_path_type(r: &PreviewResource, root: &str) -> Option<String> {
    if !r.type_name.ends_with(".yaml") && !r.type_name.ends_with(".template") {
        return None;
    }
    let target = r.nested.as_ref()?.template.as_deref()?;
    let abs = |p: &std::path::Path| {
        let a = std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
        std::path::PathBuf::from(crate::walk::normalize(&a))
    };
    let from = abs(std::path::Path::new(root).parent()?);
    let to = abs(std::path::Path::new(target));
    let (from, to): (Vec<_>, Vec<_>) = (from.components().collect(), to.components().collect());
    let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
    let mut out = std::path::PathBuf::new();
    for _ in common..from.len() {
        out.push("..");
    }
    for c in &to[common..] {
        out.push(c);
    }
    Some(out.to_string_lossy().into_owned())
}

/// Its attributes before create (`format_resource_attributes`): every
/// attribute of its type but `show`, `null`; `OS::Heat::Value`'s `value`
/// is its property; a template resource's are its template's outputs
/// (`TemplateResource.get_schemas`), `null` (a nested stack never stored
/// has no outputs to read).
fn attributes(r: &PreviewResource) -> J {
    if let (None, Some(n)) = (&r.plugin, &r.nested) {
        return J::Object(n.outputs.iter().map(|k| (k.clone(), J::Null)).collect());
    }
    let Some(t) = r.plugin.as_deref().and_then(|p| heat_schema::heat().get(p)) else {
        return json!({});
    };
    J::Object(
        t.attributes
            .keys()
            .filter(|k| k.as_str() != "show")
            .map(|k| {
                let v = match (r.plugin.as_deref(), k.as_str()) {
                    (Some("OS::Heat::Value"), "value") => {
                        r.value_attribute.clone().unwrap_or(J::Null)
                    }
                    _ => J::Null,
                };
                (k.clone(), v)
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A template resource of type `type_name` whose stack instantiates
    /// `template` (outputs `outputs`).
    fn template_resource(type_name: &str, template: &str, outputs: &[&str]) -> PreviewResource {
        PreviewResource {
            name: "R".to_owned(),
            type_name: type_name.to_owned(),
            plugin: None,
            properties: IndexMap::new(),
            metadata: json!({}),
            description: String::new(),
            requires: Vec::new(),
            required_by: Vec::new(),
            nested: Some(PreviewStack {
                name: "s-R".to_owned(),
                parent_resource: Some("R".to_owned()),
                template: Some(template.to_owned()),
                resources: Vec::new(),
                outputs: outputs.iter().map(|o| (*o).to_owned()).collect(),
            }),
            value_attribute: None,
            definition: json!({}),
            sources: IndexMap::new(),
            restricted: None,
            takes: Vec::new(),
        }
    }

    /// Heat's update preview lists a template resource with its
    /// template's outputs as attributes, `null` (the 2016 deployment's
    /// `role_data`, `OS::stack_id`, ...: tests/heat/diff/corpus-2016-*.json).
    #[test]
    fn a_template_resources_attributes_are_its_outputs() {
        let r = template_resource("OS::My::T", "t/x.yaml", &["role_data", "OS::stack_id"]);
        assert_eq!(
            attributes(&r),
            json!({"role_data": null, "OS::stack_id": null})
        );
        assert_eq!(
            attributes(&template_resource("OS::My::T", "t/x.yaml", &[])),
            json!({})
        );
    }

    /// A path type is python-heatclient's absolute URL of the file,
    /// shown relative to the root template's directory; a registry type
    /// is left as written.
    #[test]
    fn a_path_type_is_the_file_the_client_sends() {
        let r = template_resource("./base.yaml", "tree/puppet/services/base.yaml", &[]);
        assert_eq!(
            heat_path_type(&r, "tree/overcloud.yaml").as_deref(),
            Some("puppet/services/base.yaml")
        );
        assert_eq!(
            heat_path_type(&r, "tree/sub/root.yaml").as_deref(),
            Some("../puppet/services/base.yaml")
        );
        let r = template_resource("OS::My::T", "tree/t.yaml", &[]);
        assert_eq!(heat_path_type(&r, "tree/overcloud.yaml"), None);
    }

    #[test]
    fn the_clock_reads_as_heat_writes_it() {
        assert_eq!(isotime(1_767_225_600), "2026-01-01T00:00:00Z");
        assert_eq!(isotime(951_782_400 + 3_723), "2000-02-29T01:02:03Z");
    }

    #[test]
    fn a_propertys_sources_are_its_line_then_its_parameters() {
        let mut read = Vec::new();
        parameters_read(
            &json!({"list_join": ["-", [{"get_param": "A"}, {"get_param": ["B", "k"]}, {"Ref": "C"}, {"get_param": "A"}]]}),
            &mut read,
        );
        assert_eq!(read, ["A", "B", "C"]);
        let parameters: Sources = [
            (
                "A".to_owned(),
                ValueSites {
                    sites: vec!["env.yaml:3".to_owned()],
                    unset: Vec::new(),
                },
            ),
            (
                "B".to_owned(),
                ValueSites {
                    sites: Vec::new(),
                    unset: vec!["B".to_owned()],
                },
            ),
        ]
        .into_iter()
        .collect();
        let properties: IndexMap<String, J> =
            [("p".to_owned(), json!({"str_replace": {"template": "x", "params": {"x": {"get_param": "A"}, "y": {"get_param": "B"}}}}))]
                .into_iter()
                .collect();
        let keys = [("p".to_owned(), crate::diag::Span::point(7, 5))]
            .into_iter()
            .collect();
        let got = property_sources("t.yaml", &parameters, &properties, &keys);
        assert_eq!(got["p"].sites, ["t.yaml:7", "env.yaml:3"]);
        assert_eq!(got["p"].unset, ["B"]);
    }
}
