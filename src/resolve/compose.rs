//! The nested composition of a root template, evaluated as Heat evaluates
//! it when it validates a stack with `show_nested` (heat-semantics §3–§4,
//! docs/heat-evaluation.md): each stack's parameters get their values
//! (the environments' at the root, the parent's evaluated properties
//! below, `parameter_defaults` everywhere, then defaults); conditions
//! decide which resources exist; every resource whose type is (or maps to)
//! a template becomes a nested stack with Heat's child environment (the
//! entry that produced it removed, §3.4); groups and chains become a stack
//! of their members, from their evaluated properties (§3.7). Heat's depth
//! limit (§3.6) and real cycles are reported; the walk goes on after each
//! problem.

use std::cell::RefCell;
use std::collections::HashMap;

use indexmap::IndexMap;
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value as J;

use super::registry::{KeyPath, Registry};
use super::values::{child_param, parameter_value, ParamType};
use super::{Catalog, Implementation, Resolution, Step, StepKind};
use crate::diag::Diagnostic;
use crate::eval::{
    evaluate, evaluate_condition, evaluate_condition_definition, python, Dialect, Outcome, Scope,
    Unevaluated,
};
use crate::model::template::{Format, ResourceUse, PSEUDO_PARAMETERS};
use crate::model::Template;

pub(crate) use crate::diag::codes::{
    ANNOTATION_MISMATCH, CYCLE, MISSING_FILE, MISSING_TEMPLATE, NESTED_TOO_DEEP as TOO_DEEP,
    PROPERTY_UNSET, UNKNOWN_PROPERTY, UNRESOLVED,
};

/// Heat's `max_nested_stack_depth`.
pub(crate) const MAX_NESTED_DEPTH: usize = 5;

pub(crate) use crate::heat_schema::MAX_RESOURCES_PER_STACK;

/// The name Heat gives the stack it validates.
pub(crate) const ROOT_STACK_NAME: &str = "dummy";

/// What a node of the tree is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum NodeKind {
    /// A stack of a template (the root, or a provider template).
    #[default]
    Template,
    /// A group or chain: Heat generates its stack, whose resources are the
    /// members (`"0"`, `"1"`, ...).
    Group,
    /// A resource Heat implements itself.
    Native,
}

/// One node of the composition tree.
#[derive(Debug, Clone, Serialize, JsonSchema, Default)]
#[schemars(deny_unknown_fields)]
#[non_exhaustive]
pub struct TreeNode {
    /// The resource name (`"0"` for a group member; the root has none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resource: Option<String>,
    /// The resource type as written.
    #[serde(rename = "type")]
    pub type_name: String,
    /// The template this node instantiates, as shown to the user.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub template: Option<String>,
    /// Nested stack depth (the root is 0).
    pub depth: usize,
    /// The resources it nests.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schemars(length(min = 1))]
    pub children: Vec<TreeNode>,
    /// What it is.
    #[serde(skip)]
    pub kind: NodeKind,
    /// The values its template's parameters receive (the environments'
    /// `parameters` at the root; the parent's evaluated properties, as
    /// Heat passes them, below), by parameter name.
    #[serde(skip)]
    pub(crate) values: IndexMap<String, Outcome>,
    /// Below the root: the template whose resource passes `values`, and
    /// where it writes each (the property's key; the resource's type when
    /// Heat writes the property).
    #[serde(skip)]
    pub(crate) passed_at: Option<(String, IndexMap<String, crate::diag::Span>)>,
    /// The Heat type that implements it, after the registry (a native
    /// resource, group or chain, or a native group member); `None` for a
    /// template or a type that did not resolve.
    #[serde(skip)]
    pub(crate) plugin: Option<String>,
    /// The properties it receives, evaluated as Heat resolves them before
    /// create (a group member's from the group's definition); empty for
    /// the root.
    #[serde(skip)]
    pub(crate) properties: IndexMap<String, Outcome>,
    /// Its `metadata`, evaluated (a preview's walk only; `None` when not
    /// written).
    #[serde(skip)]
    pub(crate) metadata: Option<Outcome>,
    /// The actions its stack's registry restricts for it
    /// (`restricted_actions`), with where (`env.yaml:LINE`).
    #[serde(skip)]
    pub(crate) restricted: Option<(Vec<String>, String)>,
}

/// What a preview shows of the root stack besides its resources.
#[derive(Debug, Clone, Default)]
pub(crate) struct RootStack {
    /// Every parameter's value as `get_param` gives it (pseudo parameters
    /// included), or why there is none (`None`: no value).
    pub(crate) parameters: IndexMap<String, Option<Outcome>>,
    /// Each output: its description as written and its value.
    pub(crate) outputs: Vec<(String, Option<J>, Outcome)>,
}

/// The walked composition.
#[derive(Debug, Clone, Serialize)]
#[non_exhaustive]
pub struct Composition {
    /// The root stack.
    pub root: TreeNode,
    /// Every distinct lookup made, first-seen order (by type, and by
    /// resource where a per-resource entry decided it).
    pub resolutions: Vec<Resolution>,
    /// Problems found while walking.
    #[serde(skip)]
    pub diagnostics: Vec<Diagnostic>,
    /// Values Heat would compute that heatcap could not, with where.
    #[serde(skip)]
    pub(crate) unevaluated: Vec<(String, Unevaluated)>,
    /// The first problem that makes Heat refuse the whole document, in
    /// Heat's words (its validate API answers `{"Error": ...}`).
    #[serde(skip)]
    pub(crate) heat_error: Option<String>,
    /// The root stack's parameters and outputs (a preview's walk only).
    #[serde(skip)]
    pub(crate) root_stack: RootStack,
    /// The nested parameters nothing gives a value (no property, no
    /// default, no `parameter_defaults`), in walk order: Heat's update
    /// refuses them ("Property X not assigned").
    pub(crate) unassigned: Vec<String>,
}

/// Walks the composition of `root` (a template path as the user gave it),
/// nested stacks at most `max_depth` deep (Heat's
/// `max_nested_stack_depth`: 5 by default, 7 on TripleO's undercloud).
pub(crate) fn compose(
    root: &str,
    registry: &Registry<'_>,
    catalog: &dyn Catalog,
    max_depth: usize,
) -> Composition {
    compose_as(root, registry, catalog, max_depth, ROOT_STACK_NAME, false)
}

/// The composition as Heat's create preview builds it
/// (`Stack.preview_resources`): the root stack named `stack_name`, and
/// every member of a group (a `ResourceGroup`'s `count` members, named as
/// its `removal_policies` leave them; every server of a deployment group)
/// instead of the one member `show_nested` builds.
pub(crate) fn compose_preview(
    root: &str,
    registry: &Registry<'_>,
    catalog: &dyn Catalog,
    max_depth: usize,
    stack_name: &str,
) -> Composition {
    compose_as(root, registry, catalog, max_depth, stack_name, true)
}

fn compose_as(
    root: &str,
    registry: &Registry<'_>,
    catalog: &dyn Catalog,
    max_depth: usize,
    stack_name: &str,
    every_member: bool,
) -> Composition {
    let mut w = Walker {
        catalog,
        max_depth,
        every_member,
        defaults: registry.parameter_defaults().clone(),
        seen: IndexMap::new(),
        diagnostics: Vec::new(),
        unevaluated: Vec::new(),
        heat_error: None,
        root_stack: RootStack::default(),
        unassigned: Vec::new(),
    };
    let values: IndexMap<String, Outcome> = registry
        .root_parameters()
        .iter()
        .map(|(k, v)| (k.clone(), Ok(v.clone())))
        .collect();
    let mut ancestry = vec![(root.to_owned(), registry.state())];
    let children = w.template_children(root, registry, 0, &mut ancestry, stack_name, &values);
    Composition {
        root: TreeNode {
            resource: None,
            type_name: root.to_owned(),
            template: Some(root.to_owned()),
            depth: 0,
            children,
            kind: NodeKind::Template,
            values,
            passed_at: None,
            plugin: None,
            properties: IndexMap::new(),
            metadata: None,
            restricted: None,
        },
        resolutions: w.seen.into_values().collect(),
        diagnostics: w.diagnostics,
        unevaluated: w.unevaluated,
        heat_error: w.heat_error,
        root_stack: w.root_stack,
        unassigned: w.unassigned,
    }
}

/// The registry entry that produced a template, for the child registry.
fn producing_entry(r: &Resolution) -> Option<KeyPath> {
    r.chain.iter().rev().find_map(|s| match s.kind {
        StepKind::Entry | StepKind::Chosen => Some(vec![s.key.clone()]),
        StepKind::PerResource => Some(vec![
            "resources".to_owned(),
            r.resource.clone().unwrap_or_default(),
            s.key.clone(),
        ]),
        _ => None,
    })
}

/// Heat's group resources: their nested stack holds the members.
fn group_kind(plugin: &str) -> Option<GroupKind> {
    Some(match plugin {
        "OS::Heat::ResourceGroup" => GroupKind::ResourceDef,
        "OS::Heat::AutoScalingGroup" => GroupKind::AutoScaling,
        "OS::Heat::ResourceChain" => GroupKind::Chain,
        "OS::Heat::SoftwareDeploymentGroup" | "OS::Heat::SoftwareDeployments" => {
            GroupKind::Deployments { structured: false }
        }
        "OS::Heat::StructuredDeploymentGroup" | "OS::Heat::StructuredDeployments" => {
            GroupKind::Deployments { structured: true }
        }
        // Members are Heat's own instances: no templates.
        "OS::Heat::InstanceGroup" | "AWS::AutoScaling::AutoScalingGroup" => GroupKind::Native,
        _ => return None,
    })
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum GroupKind {
    /// `OS::Heat::ResourceGroup`: one member from `resource_def`.
    ResourceDef,
    /// `OS::Heat::AutoScalingGroup`: one member from `resource`.
    AutoScaling,
    /// `OS::Heat::ResourceChain`: a member per type of `resources`.
    Chain,
    /// A software deployment group: one member, the first `servers` key,
    /// a (Software|Structured)Deployment with the group's properties.
    Deployments { structured: bool },
    /// Members Heat implements itself.
    Native,
}

struct Walker<'c> {
    catalog: &'c dyn Catalog,
    max_depth: usize,
    /// Every member of a group, as a preview builds them (see
    /// [`compose_preview`]).
    every_member: bool,
    /// The environments' `parameter_defaults` (they reach every stack).
    defaults: IndexMap<String, J>,
    seen: IndexMap<(String, Option<String>, String), Resolution>,
    diagnostics: Vec<Diagnostic>,
    unevaluated: Vec<(String, Unevaluated)>,
    heat_error: Option<String>,
    root_stack: RootStack,
    unassigned: Vec<String>,
}

/// Heat's message for a template whose version it does not know
/// (`InvalidTemplateVersion`), or `None`.
fn invalid_version(template: &Template) -> Option<String> {
    let version = template.version.as_deref()?;
    let (key, allowed): (&str, Vec<&str>) = match template.format {
        Format::Hot => (
            "heat_template_version",
            crate::model::template::HOT_VERSIONS.to_vec(),
        ),
        Format::Cfn => return None,
    };
    if crate::model::template::hot_date(version).is_some() {
        return None;
    }
    Some(format!(
        "The template version is invalid: \"{key}: {version}\". \"{key}\" should be one of: {}",
        allowed.join(", ")
    ))
}

/// One stack as the functions see it.
struct StackScope<'t> {
    template: &'t Template,
    path: &'t str,
    catalog: &'t dyn Catalog,
    params: IndexMap<String, Option<Outcome>>,
    conditions: RefCell<HashMap<String, Outcome>>,
    /// Conditions being evaluated (a cycle is Heat's error, E1006).
    evaluating: RefCell<Vec<String>>,
    /// The Heat type of each resource Heat implements itself, after the
    /// registry (it decides what `get_resource` gives before create).
    plugins: HashMap<String, String>,
}

impl Scope for StackScope<'_> {
    fn dialect(&self) -> Dialect {
        let version = self.template.version.as_deref().unwrap_or_default();
        let key = match (self.template.format, version) {
            (Format::Hot, _) => "heat_template_version",
            (Format::Cfn, "2012-12-12") => "HeatTemplateFormatVersion",
            (Format::Cfn, _) => "AWSTemplateFormatVersion",
        };
        // An unknown version is validate's finding (E1001); evaluate with
        // the first version's functions meanwhile.
        Dialect::of(key, version).unwrap_or(match self.template.format {
            Format::Hot => Dialect::Hot("2013-05-23"),
            Format::Cfn => Dialect::Cfn,
        })
    }

    fn parameter(&self, name: &str) -> Option<Outcome> {
        match self.params.get(name) {
            Some(Some(v)) => Some(v.clone()),
            Some(None) => Some(Err(Unevaluated::heat_error(
                "get_param",
                format!("The Parameter ({name}) was not provided."),
            ))),
            None => None,
        }
    }

    fn has_resource(&self, name: &str) -> bool {
        self.template.resources.iter().any(|r| r.name == name)
    }

    fn condition(&self, name: &str) -> Option<Outcome> {
        if let Some(v) = self.conditions.borrow().get(name) {
            return Some(v.clone());
        }
        let definition = self.template.conditions.get(name)?;
        if self.evaluating.borrow().iter().any(|n| n == name) {
            return Some(Err(Unevaluated::heat_error(
                "conditions",
                format!("Circular definition for condition \"{name}\""),
            )));
        }
        self.evaluating.borrow_mut().push(name.to_owned());
        let v = evaluate_condition_definition(name, definition, self).map(J::Bool);
        self.evaluating.borrow_mut().pop();
        self.conditions
            .borrow_mut()
            .insert(name.to_owned(), v.clone());
        Some(v)
    }

    fn file(&self, name: &str) -> Option<String> {
        self.catalog.file(self.path, name)
    }

    fn resource_type(&self, name: &str) -> Option<String> {
        self.plugins.get(name).cloned()
    }
}

/// The typed value of every parameter of `t` (and Heat's pseudo
/// parameters), from the values passed and the defaults.
fn stack_parameters(
    t: &Template,
    values: &IndexMap<String, Outcome>,
    defaults: &IndexMap<String, J>,
    stack_name: &str,
) -> IndexMap<String, Option<Outcome>> {
    let mut params: IndexMap<String, Option<Outcome>> = IndexMap::new();
    for p in &t.parameters {
        let ty = ParamType::of(p.type_.as_deref());
        let default = defaults.get(&p.name).or(p.default());
        let v = match values.get(&p.name) {
            Some(Err(e)) => Some(Err(e.clone())),
            Some(Ok(user)) => parameter_value(ty, Some(user), default),
            None => parameter_value(ty, None, default),
        };
        params.insert(p.name.clone(), v);
    }
    let name = J::String(stack_name.to_owned());
    for (pseudo, value) in [
        ("OS::stack_name", Ok(name.clone())),
        ("AWS::StackName", Ok(name)),
        (
            "OS::stack_id",
            Err(Unevaluated::new(
                "get_param",
                "the stack id is known only once created",
            )),
        ),
        (
            "AWS::StackId",
            Err(Unevaluated::new(
                "get_param",
                "the stack id is known only once created",
            )),
        ),
        (
            "OS::project_id",
            Err(Unevaluated::new(
                "get_param",
                "the project is known only in a cloud",
            )),
        ),
        (
            "OS::region",
            Err(Unevaluated::new(
                "get_param",
                "the region is known only in a cloud",
            )),
        ),
        (
            "AWS::Region",
            Err(Unevaluated::new(
                "get_param",
                "the region is known only in a cloud",
            )),
        ),
    ] {
        debug_assert!(PSEUDO_PARAMETERS.contains(&pseudo));
        params.entry(pseudo.to_owned()).or_insert(Some(value));
    }
    params
}

/// The root stack's parameters and outputs, for a preview.
fn root_stack(template: &Template, scope: &StackScope<'_>) -> RootStack {
    let mut out = RootStack {
        parameters: scope.params.clone(),
        outputs: Vec::new(),
    };
    for (name, def) in &template.outputs {
        let field = |hot: &str, cfn: &str| def.get(hot).or_else(|| def.get(cfn));
        let value = match field("value", "Value") {
            Some(v) => evaluate(v, scope),
            None => Ok(J::Null),
        };
        let description = field("description", "Description").cloned();
        out.outputs.push((name.clone(), description, value));
    }
    out
}

/// Where a resource is used: the template, the resource name, its span.
#[derive(Clone, Copy)]
struct Site<'a> {
    from: &'a str,
    name: &'a str,
    span: crate::diag::Span,
}

/// A resource to place in a stack: its name, type, evaluated properties.
struct Member<'a> {
    name: String,
    type_name: String,
    properties: IndexMap<String, Outcome>,
    site: Site<'a>,
    /// Where each property is written (the keys of `properties`, or of a
    /// group's member properties).
    keys: Option<&'a IndexMap<String, crate::diag::Span>>,
    /// Where each of its members' properties is written (a group's).
    group_keys: Option<&'a IndexMap<String, crate::diag::Span>>,
    /// Heat wrote the properties (a deployment group's members receive all
    /// of the group's), so they are not checked against the template.
    implicit: bool,
}

impl Walker<'_> {
    /// The resources of the stack of template `path` (named `stack_name`,
    /// its parameters given `values`).
    fn template_children(
        &mut self,
        path: &str,
        registry: &Registry<'_>,
        depth: usize,
        ancestry: &mut Vec<(String, String)>,
        stack_name: &str,
        values: &IndexMap<String, Outcome>,
    ) -> Vec<TreeNode> {
        let Some(template) = self.catalog.template("", path).template else {
            return Vec::new();
        };
        for (target, span) in &template.get_files {
            if let Some(problem) = self.catalog.file_problem(path, target) {
                self.diagnostics.push(
                    Diagnostic::new(
                        MISSING_FILE,
                        path,
                        format!("get_file `{target}`: {problem}"),
                    )
                    .at(*span),
                );
            }
        }
        if let Some(problem) = invalid_version(template) {
            // Heat refuses the template before it validates anything
            // (InvalidTemplateVersion); validate reports it as E1001.
            self.heat_error.get_or_insert(problem);
        }
        if template.resources.len() > MAX_RESOURCES_PER_STACK {
            self.heat_error.get_or_insert_with(|| {
                "Request limit exceeded: Maximum resources per stack exceeded.".to_owned()
            });
            self.diagnostics.push(Diagnostic::new(
                crate::diag::codes::TOO_MANY_RESOURCES,
                path,
                format!(
                    "{} resources, more than Heat's max_resources_per_stack ({MAX_RESOURCES_PER_STACK})",
                    template.resources.len()
                ),
            ));
        }
        let scope = StackScope {
            template,
            path,
            catalog: self.catalog,
            params: stack_parameters(template, values, &self.defaults, stack_name),
            conditions: RefCell::new(HashMap::new()),
            evaluating: RefCell::new(Vec::new()),
            // A preview's nested stacks are parsed, never validated: no
            // resource has node data, and `get_resource` gives every
            // resource's name (`ResourceProxy.FnGetRefId`).
            plugins: template
                .resources
                .iter()
                .filter(|_| !(self.every_member && depth > 0))
                .filter_map(|r| {
                    match registry
                        .lookup(&r.type_name, Some(&r.name), Some(path))
                        .implementation
                    {
                        Some(Implementation::Plugin(p)) => Some((r.name.clone(), p)),
                        _ => None,
                    }
                })
                .collect(),
        };
        let mut children = Vec::new();
        for res in &template.resources {
            if !self.enabled(res, &scope, path) {
                continue;
            }
            let properties = res
                .properties
                .iter()
                .map(|(k, v)| (k.clone(), self.eval(v, &scope, path, &res.name, k)))
                .collect();
            let member = Member {
                name: res.name.clone(),
                type_name: res.type_name.clone(),
                properties,
                site: Site {
                    from: path,
                    name: &res.name,
                    span: res.span,
                },
                keys: Some(&res.property_keys),
                group_keys: Some(&res.member_property_keys),
                implicit: false,
            };
            let mut node = self.resource(
                &member,
                &res.properties,
                &scope,
                registry,
                depth,
                ancestry,
                stack_name,
            );
            if self.every_member {
                node.metadata = ["metadata", "Metadata"]
                    .iter()
                    .find_map(|k| res.other.get(*k))
                    .map(|m| evaluate(m, &scope));
            }
            children.push(node);
        }
        if self.every_member && depth == 0 {
            self.root_stack = root_stack(template, &scope);
        }
        children
    }

    /// A resource's condition: false leaves it out, as Heat leaves it out.
    fn enabled(&mut self, res: &ResourceUse, scope: &StackScope<'_>, path: &str) -> bool {
        let Some(cond) = &res.condition else {
            return true;
        };
        match evaluate_condition(cond, scope) {
            Ok(b) => b,
            Err(e) => {
                self.unevaluated
                    .push((format!("{path}: resources.{}.condition", res.name), e));
                true
            }
        }
    }

    /// Evaluates one property, noting what could not be.
    fn eval(&mut self, v: &J, scope: &StackScope<'_>, path: &str, res: &str, key: &str) -> Outcome {
        let out = evaluate(v, scope);
        if let Err(e) = &out {
            if !e.heat_error {
                self.unevaluated.push((
                    format!("{path}: resources.{res}.properties.{key}"),
                    e.clone(),
                ));
            }
        }
        out
    }

    #[allow(clippy::too_many_arguments)]
    fn resource(
        &mut self,
        m: &Member<'_>,
        raw: &IndexMap<String, J>,
        scope: &StackScope<'_>,
        registry: &Registry<'_>,
        depth: usize,
        ancestry: &mut Vec<(String, String)>,
        stack_name: &str,
    ) -> TreeNode {
        let (mut node, found) = self.member(m, registry, depth, ancestry, stack_name);
        let Some(Implementation::Plugin(plugin)) = found else {
            return node;
        };
        let Some(kind) = group_kind(&plugin) else {
            node.kind = NodeKind::Native;
            return node;
        };
        node.kind = NodeKind::Group;
        // The group's own generated stack is a level too.
        if depth + 1 > self.max_depth {
            self.too_deep(&m.site, &m.type_name, depth + 1);
            return node;
        }
        let group_stack = format!("{stack_name}-{}", m.name);
        let nested_registry = registry.child(&m.name, None);
        let members = group_members(kind, m, raw, scope, self.every_member);
        for member in members {
            let (child, _) =
                self.member(&member, &nested_registry, depth + 1, ancestry, &group_stack);
            node.children.push(child);
        }
        node
    }

    /// One resource placed in a stack: looked up, and when it is a
    /// template, walked as a nested stack. The second value is what the
    /// type is.
    #[allow(clippy::too_many_lines)]
    fn member(
        &mut self,
        m: &Member<'_>,
        registry: &Registry<'_>,
        depth: usize,
        ancestry: &mut Vec<(String, String)>,
        stack_name: &str,
    ) -> (TreeNode, Option<Implementation>) {
        let Site { from, span, .. } = m.site;
        let name = m.name.as_str();
        let type_name = m.type_name.as_str();
        let r = registry.lookup(type_name, Some(name), Some(from));
        // Lookups depend on the stack's registry (child environments), so
        // each distinct outcome is kept: by type, by resource where a
        // per-resource entry decided, and by result.
        let per_resource = r.chain.iter().any(|s| s.kind == StepKind::PerResource);
        let outcome = format!("{:?}{:?}", r.implementation, r.error);
        let key = (
            type_name.to_owned(),
            per_resource.then(|| name.to_owned()),
            outcome,
        );
        if let Some(e) = &r.error {
            let heat = match e {
                super::ResolveError::NotFound { .. } => {
                    format!("The Resource Type ({type_name}) could not be found.")
                }
                other => other.message(),
            };
            self.heat_error.get_or_insert(heat);
            if !self.seen.contains_key(&key) {
                self.diagnostics.push(
                    Diagnostic::new(
                        UNRESOLVED,
                        from,
                        format!(
                            "resource `{}`: {}",
                            m.site.name,
                            r.message().unwrap_or_else(|| e.message())
                        ),
                    )
                    .at(span),
                );
            }
        }
        let implementation = r.implementation.clone();
        let template = match &r.implementation {
            Some(Implementation::Template(p)) => Some(p.clone()),
            _ => None,
        };
        let producing = producing_entry(&r);
        let first_seen = !self.seen.contains_key(&key);
        let mapping_step = r
            .chain
            .iter()
            .rev()
            .find(|s| matches!(s.kind, StepKind::Entry | StepKind::PerResource))
            .cloned();
        self.seen.entry(key).or_insert(r);
        let mut node = TreeNode {
            resource: Some(name.to_owned()),
            type_name: type_name.to_owned(),
            template: template.clone(),
            depth: depth + 1,
            children: Vec::new(),
            kind: NodeKind::Template,
            values: IndexMap::new(),
            passed_at: None,
            plugin: match &implementation {
                Some(Implementation::Plugin(p)) => Some(p.clone()),
                _ => None,
            },
            properties: m.properties.clone(),
            metadata: None,
            restricted: registry.restricted_actions(name),
        };
        let Some(path) = template.clone() else {
            return (node, implementation);
        };
        let found = self.catalog.template("", &path);
        let Some(t) = found.template else {
            let why = found
                .problem
                .unwrap_or_else(|| "it is not a template".to_owned());
            self.heat_error.get_or_insert_with(|| {
                format!("Could not fetch remote template \"{path}\": {why}")
            });
            self.diagnostics.push(
                Diagnostic::new(
                    MISSING_TEMPLATE,
                    from,
                    format!(
                        "resource `{}` (`{type_name}`) maps to `{path}`: {why}",
                        m.site.name
                    ),
                )
                .at(span),
            );
            return (node, implementation);
        };
        if first_seen {
            if let Some(step) = &mapping_step {
                self.check_annotation(from, &path, t, step);
            }
        }
        if !m.implicit {
            let passed: Vec<String> = m.properties.keys().cloned().collect();
            self.check_properties(&m.site, &path, t, &passed);
        }
        node.values = child_values(t, &m.properties);
        let keys = node
            .values
            .keys()
            .map(|k| {
                let at = m.keys.and_then(|ks| ks.get(k)).copied();
                (k.clone(), at.unwrap_or(span))
            })
            .collect();
        node.passed_at = Some((from.to_owned(), keys));
        let child_registry = registry.child(name, producing.as_ref());
        let state = child_registry.state();
        if ancestry.iter().any(|(p, s)| *p == path && *s == state) {
            let chain: Vec<&str> = ancestry.iter().map(|(p, _)| p.as_str()).collect();
            self.diagnostics.push(
                Diagnostic::new(
                    CYCLE,
                    from,
                    format!(
                        "resource `{}` includes `{path}`, which already contains it ({} -> {path})",
                        m.site.name,
                        chain.join(" -> ")
                    ),
                )
                .at(span),
            );
            return (node, implementation);
        }
        if depth + 1 > self.max_depth {
            self.too_deep(&m.site, &path, depth + 1);
            return (node, implementation);
        }
        ancestry.push((path.clone(), state));
        let nested_name = format!("{stack_name}-{name}");
        let values = node.values.clone();
        node.children = self.template_children(
            &path,
            &child_registry,
            depth + 1,
            ancestry,
            &nested_name,
            &values,
        );
        ancestry.pop();
        (node, implementation)
    }

    /// E7003: a nested stack beyond Heat's depth limit ("Recursion depth
    /// exceeds N.").
    fn too_deep(&mut self, site: &Site<'_>, what: &str, depth: usize) {
        let max = self.max_depth;
        self.heat_error.get_or_insert_with(|| {
            format!("Request limit exceeded: Recursion depth exceeds {max}.")
        });
        self.diagnostics.push(
            Diagnostic::new(
                TOO_DEEP,
                site.from,
                format!("resource `{}` nests `{what}` at depth {depth}, beyond Heat's limit of {max} (Heat: Recursion depth exceeds {max}.)", site.name),
            )
            .at(site.span),
        );
    }

    /// W7009: the entry that mapped the type names a template whose
    /// `resource_type` annotation leaves the type out.
    fn check_annotation(&mut self, from: &str, path: &str, t: &Template, step: &Step) {
        if t.resource_type.is_empty() || t.implements(&step.key) {
            return;
        }
        let mut d = Diagnostic::new(
            ANNOTATION_MISMATCH,
            step.environment.clone().unwrap_or_else(|| from.to_owned()),
            format!(
                "`{}` maps to `{path}`, whose `resource_type` ({}) does not include it",
                step.key,
                t.resource_type.join(", ")
            ),
        );
        if let Some(sp) = step.span {
            d = d.at(sp);
        }
        self.diagnostics.push(d);
    }

    /// E7007 and W7008: the properties a resource passes against its
    /// provider template's parameters (§3.2).
    fn check_properties(&mut self, at: &Site<'_>, path: &str, t: &Template, passed: &[String]) {
        let Site { from, name, span } = *at;
        // Heat checks even in plain validate: a property the provider
        // template does not declare is "Unknown Property".
        for p in passed
            .iter()
            .filter(|p| !t.parameters.iter().any(|q| &q.name == *p))
        {
            self.heat_error.get_or_insert_with(|| {
                format!("Property error: resources.{name}.properties: Unknown Property {p}")
            });
            self.diagnostics.push(
                Diagnostic::new(
                    UNKNOWN_PROPERTY,
                    from,
                    format!("resource `{name}` passes property `{p}`, which `{path}` does not declare as a parameter (Heat: Unknown Property {p})"),
                )
                .at(span),
            );
        }
        // At create, a parameter with no default that neither the
        // resource nor parameter_defaults sets is "Property X not assigned".
        for q in t.parameters.iter().filter(|q| {
            q.required && !passed.contains(&q.name) && !self.defaults.contains_key(&q.name)
        }) {
            if !self.unassigned.contains(&q.name) {
                self.unassigned.push(q.name.clone());
            }
            self.diagnostics.push(
                Diagnostic::new(
                    PROPERTY_UNSET,
                    from,
                    format!("resource `{name}` does not set property `{}`, which `{path}` requires: the parameter has no default and these environments' parameter_defaults give none (Heat at create: Property {} not assigned)", q.name, q.name),
                )
                .at(span),
            );
        }
    }
}

/// The members of a group's or chain's generated stack, from its
/// evaluated properties (heat-semantics §3.7): show_nested always
/// builds one member of a group, whatever its count.
fn group_members<'s>(
    kind: GroupKind,
    m: &Member<'s>,
    raw: &IndexMap<String, J>,
    scope: &dyn Scope,
    every: bool,
) -> Vec<Member<'s>> {
    let prop = |k: &str| m.properties.get(k).and_then(|v| v.as_ref().ok());
    match kind {
        GroupKind::Native => Vec::new(),
        GroupKind::Chain => {
            let types: Vec<String> = match prop("resources") {
                Some(J::Array(items)) => items
                    .iter()
                    .filter_map(|i| i.as_str().map(str::to_owned))
                    .collect(),
                Some(J::String(s)) if !s.is_empty() => s.split(',').map(str::to_owned).collect(),
                _ => Vec::new(),
            };
            let props = member_properties(raw.get("resource_properties"), scope, every);
            types
                .into_iter()
                .enumerate()
                .map(|(i, t)| Member {
                    name: i.to_string(),
                    type_name: t,
                    properties: props.clone(),
                    site: m.site,
                    keys: m.group_keys,
                    group_keys: None,
                    implicit: false,
                })
                .collect()
        }
        GroupKind::Deployments { structured } => deployment_members(m, structured, every),
        GroupKind::ResourceDef | GroupKind::AutoScaling => {
            let def_key = if kind == GroupKind::ResourceDef {
                "resource_def"
            } else {
                "resource"
            };
            let Some(J::Object(def)) = raw.get(def_key) else {
                return Vec::new();
            };
            let Some(Ok(J::String(type_name))) = def.get("type").map(|t| evaluate(t, scope)) else {
                return Vec::new();
            };
            let names = if every {
                // An AutoScalingGroup's size: `desired_capacity` when set,
                // else `min_size` (heat/engine/resources/aws/autoscaling/
                // autoscaling_group.py `child_template`, L409).
                let size = match kind {
                    GroupKind::AutoScaling => prop("desired_capacity")
                        .filter(|v| python::truthy(v))
                        .or_else(|| prop("min_size")),
                    _ => prop("count"),
                };
                let count = match size {
                    Some(v) => python::int_of(v).ok().and_then(|n| usize::try_from(n).ok()),
                    None => Some(1),
                };
                member_names(prop("removal_policies"), count.unwrap_or(0))
            } else {
                vec![first_member_name(prop("removal_policies"))]
            };
            let index_var = match prop("index_var") {
                Some(J::String(v)) => v.clone(),
                _ => "%index%".to_owned(),
            };
            let props = member_properties(def.get("properties"), scope, every);
            names
                .into_iter()
                .map(|name| {
                    let mut props = props.clone();
                    if kind == GroupKind::ResourceDef {
                        for x in props.values_mut().flatten() {
                            *x = replace_index(x, &index_var, &name);
                        }
                    }
                    Member {
                        name,
                        type_name: type_name.clone(),
                        properties: props,
                        site: m.site,
                        keys: m.group_keys,
                        group_keys: None,
                        implicit: false,
                    }
                })
                .collect()
        }
    }
}

/// The members of a software deployment group (heat-evaluation §4.2): the
/// first `servers` key (every key with `every`), a
/// (Software|Structured)Deployment receiving every group property,
/// defaults applied, and its server.
fn deployment_members<'s>(m: &Member<'s>, structured: bool, every: bool) -> Vec<Member<'s>> {
    let prop = |k: &str| m.properties.get(k).and_then(|v| v.as_ref().ok());
    // `servers` from get_attr is None: no member.
    let Some(J::Object(servers)) = prop("servers") else {
        return Vec::new();
    };
    let take = if every { servers.len() } else { 1 };
    servers
        .iter()
        .take(take)
        .map(|(name, server)| deployment_member(m, structured, name, server))
        .collect()
}

/// One member of a software deployment group: `name`, deploying to `server`.
fn deployment_member<'s>(m: &Member<'s>, structured: bool, name: &str, server: &J) -> Member<'s> {
    let given = |k: &str, default: J| -> Outcome {
        match m.properties.get(k) {
            Some(v) => v.clone(),
            None => Ok(default),
        }
    };
    let mut props: IndexMap<String, Outcome> = IndexMap::new();
    props.insert("config".into(), given("config", J::Null));
    props.insert(
        "input_values".into(),
        given("input_values", serde_json::json!({})),
    );
    props.insert(
        "actions".into(),
        given("actions", serde_json::json!(["CREATE", "UPDATE"])),
    );
    props.insert("name".into(), given("name", J::Null));
    props.insert(
        "signal_transport".into(),
        given("signal_transport", J::String("CFN_SIGNAL".into())),
    );
    if structured {
        props.insert(
            "input_key".into(),
            given("input_key", J::String("get_input".into())),
        );
        props.insert(
            "input_values_validate".into(),
            given("input_values_validate", J::String("LAX".into())),
        );
    }
    props.insert("server".into(), Ok(server.clone()));
    let member_type = if structured {
        "OS::Heat::StructuredDeployment"
    } else {
        "OS::Heat::SoftwareDeployment"
    };
    Member {
        name: name.to_owned(),
        type_name: member_type.to_owned(),
        properties: props,
        site: m.site,
        keys: m.keys,
        group_keys: None,
        implicit: true,
    }
}

/// The values a provider template's parameters receive from the
/// properties passed (`TemplateResource.child_params`).
fn child_values(t: &Template, properties: &IndexMap<String, Outcome>) -> IndexMap<String, Outcome> {
    let mut out = IndexMap::new();
    for p in &t.parameters {
        let Some(v) = properties.get(&p.name) else {
            continue;
        };
        // A property Heat fails to compute falls back to its default.
        let v = match v {
            Err(e) if e.heat_error => Ok(J::Null),
            other => other.clone(),
        };
        if let Some(passed) = child_param(ParamType::of(p.type_.as_deref()), &v) {
            out.insert(p.name.clone(), passed);
        }
    }
    out
}

/// A group member's properties, each evaluated on its own in the group's
/// stack: a value that is null or whose parameter is missing is left out
/// (`ResourceGroup.get_resource_def` resolves missing parameters to None,
/// and `_clean_props` drops None).
///
/// A preview (`every`) assembles the members with `include_all`: a null
/// value stays (`_clean_props` is not applied).
fn member_properties(def: Option<&J>, scope: &dyn Scope, every: bool) -> IndexMap<String, Outcome> {
    let Some(J::Object(m)) = def else {
        return match def.map(|d| evaluate(d, scope)) {
            Some(Ok(J::Object(m))) => m
                .into_iter()
                .filter(|(_, v)| !v.is_null())
                .map(|(k, v)| (k, Ok(v)))
                .collect(),
            _ => IndexMap::new(),
        };
    };
    m.iter()
        .filter_map(|(k, v)| match evaluate(v, scope) {
            Ok(J::Null) if every => Some((k.clone(), Ok(J::Null))),
            Err(e) if e.heat_error && every => Some((k.clone(), Ok(J::Null))),
            Ok(J::Null) => None,
            Err(e) if e.heat_error => None,
            other => Some((k.clone(), other)),
        })
        .collect()
}

/// The first member name a group's `removal_policies` leave (`"0"` unless
/// listed).
fn first_member_name(policies: Option<&J>) -> String {
    let mut skip: Vec<String> = Vec::new();
    if let Some(J::Array(items)) = policies {
        for p in items {
            if let Some(J::Array(list)) = p.get("resource_list") {
                skip.extend(list.iter().map(super::values::py_str));
            }
        }
    }
    // One more candidate than names listed: one of them is free.
    (0..=skip.len())
        .map(|i| i.to_string())
        .find(|n| !skip.contains(n))
        .unwrap_or_default()
}

/// `ResourceGroup._resource_names` before create: `count` names from
/// `"0"` up, skipping those `removal_policies` list.
fn member_names(policies: Option<&J>, count: usize) -> Vec<String> {
    let mut skip: Vec<String> = Vec::new();
    if let Some(J::Array(items)) = policies {
        for p in items {
            if let Some(J::Array(list)) = p.get("resource_list") {
                skip.extend(list.iter().map(super::values::py_str));
            }
        }
    }
    (0..)
        .map(|i: usize| i.to_string())
        .filter(|n| !skip.contains(n))
        .take(count)
        .collect()
}

/// `ResourceGroup._handle_repl_val`: the index variable replaced by the
/// member name in every string.
fn replace_index(v: &J, var: &str, name: &str) -> J {
    match v {
        J::String(s) => J::String(s.replace(var, name)),
        J::Array(items) => J::Array(items.iter().map(|i| replace_index(i, var, name)).collect()),
        J::Object(m) => J::Object(
            m.iter()
                .map(|(k, x)| (k.clone(), replace_index(x, var, name)))
                .collect(),
        ),
        other => other.clone(),
    }
}
