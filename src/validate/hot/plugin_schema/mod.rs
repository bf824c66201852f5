//! What Heat's resource plugins require of a template, checked offline
//! against Heat 27.0.1's resource types (`heat_schema`), the way Heat
//! checks it: one walk per template ([`check`], run once and shared by the
//! rules E3008–E3017 through [`Context::schema_findings`]), each finding
//! with Heat's own message and the stage of Heat that refuses it.
//!
//! Heat validates in two stages. `template validate` builds the stack with
//! `strict_validate=False`: resource types, property names (`Properties.
//! validate(with_value=False)`) and `get_attr` attribute names. `stack
//! create` validates again with `strict_validate=True` before it creates
//! anything, and converts and checks every value: required properties,
//! types, constraints, nested list and map schemas. What the walk
//! reproduces of heat/engine/properties.py:
//!
//! - only literal values are checked: a value that is (or, inside a list or
//!   map, holds) a function call is Heat's to compute; a property whose
//!   value refers to another resource (`get_resource`, `get_attr`) is
//!   converted but not validated (`_find_deps_any_in_init`: no constraints,
//!   no unknown keys inside it), and Heat's path stops at that property;
//! - `null` is the default, else the type's empty value, and that is what
//!   the constraints see (a required property set to null is not missing);
//! - hidden properties are accepted without checking their value (Heat
//!   translates most of them into their replacement, which then counts as
//!   given: `network_id` sets `network`); deprecated ones are checked like
//!   any other, as Heat checks them (no translation rule of Heat 27 deletes
//!   or replaces one);
//! - a placeholder type (`OS::Heat::None` and the removed types Heat keeps
//!   as placeholders: no properties, any attribute) accepts any property;
//! - a template-backed type of Heat's default environment
//!   (`AWS::CloudWatch::Alarm`) is checked for property names and required
//!   properties only (its properties are its template's parameters, which
//!   Heat converts more loosely);
//! - custom constraints that ask a cloud (`nova.flavor`) are not checked;
//!   Heat's offline ones (`ip_addr`, `net_cidr`, `json_string`) are, as
//!   Heat checks them (`custom`);
//! - a resource whose type an environment given with `-e` maps is left to
//!   the composition.
//!
//! `OS::Heat::ResourceGroup`'s `resource_def` and `OS::Heat::ResourceChain`'s
//! `resource_properties` are checked against each member type, at create:
//! Heat checks the members' property names before it creates anything and
//! their values when it creates the nested stack (unless the group's
//! `count` is 0, when it checks nothing).

mod convert;
pub(crate) mod custom;

use indexmap::IndexMap;
use serde_json::Value as J;

use crate::diag::{Diagnostic, Span};
use crate::eval::python;
use crate::eval::tables::{CFN_CONDITIONS, CFN_FUNCTIONS, FUNCTIONS};
use crate::heat_schema::{self, HeatTypes, PropertySchema, PropertyType, ResourceType, Status};
use crate::model::registry::is_template_path;
use crate::model::{Format, Mapping, Node, Value};
use crate::validate::hot::functions::{single_key, Parse, Tables};
use crate::validate::{Context, RuleMeta};

/// What a finding is about; each rule reports one kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A type in one of Heat's namespaces that Heat does not have (E3008).
    UnknownType,
    /// A hidden or unsupported type (W3009).
    HiddenType,
    /// A deprecated type (W3010).
    DeprecatedType,
    /// A property name Heat does not know, or has not implemented (E3011).
    UnknownProperty,
    /// A deprecated or hidden property (W3012).
    DeprecatedProperty,
    /// A required property that is not set (E3013).
    MissingProperty,
    /// A literal Heat cannot convert to the property's type (E3014).
    WrongType,
    /// A literal outside the property's constraints (E3015).
    Constraint,
    /// A `get_param` of a parameter whose type never fits (E3016).
    ParameterType,
    /// `get_attr` of an attribute the type does not have (E3017).
    UnknownAttribute,
}

/// Which stage of Heat refuses it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stage {
    /// `openstack orchestration template validate` (and create).
    Validate,
    /// `openstack stack create`, before it creates anything.
    Create,
    /// `openstack stack create`, when it creates a group's or chain's
    /// nested stack (validated then with `strict_validate=True`).
    Nested,
}

impl Stage {
    fn heat(self) -> &'static str {
        match self {
            Stage::Validate => "Heat",
            Stage::Create => "Heat at create",
            Stage::Nested => "Heat at create of the nested stack",
        }
    }
}

/// One finding of the walk.
#[derive(Debug, Clone)]
pub(crate) struct Finding {
    pub kind: Kind,
    pub span: Span,
    pub key_path: Vec<String>,
    pub message: String,
}

/// Reports the findings of `kind` as `meta`'s code.
pub(crate) fn report(cx: &Context<'_>, meta: &RuleMeta, kind: Kind, out: &mut Vec<Diagnostic>) {
    for f in cx.schema_findings().iter().filter(|f| f.kind == kind) {
        out.push(
            Diagnostic::new(meta.code, cx.file.path.clone(), f.message.clone())
                .with_key_path(f.key_path.clone())
                .at(f.span),
        );
    }
}

/// Whether a type is one of Heat's placeholders (`OS::Heat::None` and its
/// subclasses, the removed types Heat keeps): they accept any property
/// (their `reparse` drops the data) and any attribute. In the data: no
/// properties, and attributes of their own.
pub(crate) fn is_placeholder(ty: &ResourceType) -> bool {
    ty.properties.is_empty() && ty.dynamic_attributes
}

/// Heat's path text (`HeatExceptionWithPath`): items joined with `.`,
/// all-digit items as `[i]`.
fn heat_path(items: &[String]) -> String {
    let mut out = String::new();
    for item in items {
        if !item.is_empty() && item.chars().all(|c| c.is_ascii_digit()) {
            out.push('[');
            out.push_str(item);
            out.push(']');
        } else if out.is_empty() {
            out.push_str(item);
        } else {
            out.push('.');
            out.push_str(item);
        }
    }
    out
}

/// Where a walk starts: a resource, or a group's or chain's member (its
/// key path and Heat's, given whole).
struct Origin {
    /// The resource, for messages.
    resource: String,
    /// The key path of the origin.
    keys: Vec<String>,
    /// Heat's path items of the origin.
    heat: Vec<String>,
    /// Group members: strings holding the index variable are computed.
    index_var: Option<String>,
}

/// One step below a place.
#[derive(Clone, Copy)]
enum Step<'s> {
    /// A section (`properties`, `resource_def`): in the key path and
    /// Heat's, not in the property label.
    Section(&'s str),
    /// A property, or a key of a map property.
    Key(&'s str),
    /// An item of a list.
    Index(usize),
}

impl Step<'_> {
    fn text(self) -> String {
        match self {
            Step::Section(k) | Step::Key(k) => k.to_owned(),
            Step::Index(i) => i.to_string(),
        }
    }
}

/// Where a value sits, in the user's terms and in Heat's: its origin and
/// the steps below it, each place borrowing the one above. Nothing is
/// copied while the walk descends; the paths a finding shows are built
/// when one is reported.
#[derive(Clone, Copy)]
struct Place<'p> {
    origin: &'p Origin,
    /// The place above and the step from it.
    up: Option<(&'p Place<'p>, Step<'p>)>,
    /// Heat reports what goes wrong below at this path (a value it
    /// converts without validating): the steps below are not in Heat's path.
    flat: bool,
    /// The stage that checks names here.
    stage: Stage,
    /// The stage that checks values here (and everything inside them).
    values: Stage,
}

impl<'p> Place<'p> {
    /// The place at the start of `origin`.
    fn at(origin: &'p Origin, stage: Stage, values: Stage) -> Place<'p> {
        Place {
            origin,
            up: None,
            flat: false,
            stage,
            values,
        }
    }

    fn down<'q>(&'q self, step: Step<'q>) -> Place<'q> {
        Place {
            origin: self.origin,
            up: Some((self, step)),
            ..*self
        }
    }

    fn key<'q>(&'q self, k: &'q str) -> Place<'q> {
        self.down(Step::Key(k))
    }

    fn index(&self, i: usize) -> Place<'_> {
        self.down(Step::Index(i))
    }

    /// The place of a section (`properties`, `resource_def`): in the key
    /// path and Heat's, not in the property label.
    fn section<'q>(&'q self, k: &'q str) -> Place<'q> {
        self.down(Step::Section(k))
    }

    /// The resource, for messages.
    fn resource(&self) -> &'p str {
        &self.origin.resource
    }

    fn index_var(&self) -> Option<&'p str> {
        self.origin.index_var.as_deref()
    }

    /// The steps from the origin, first to last, each with whether it is
    /// in Heat's path (the place above it is not flat).
    fn steps(&self) -> Vec<(Step<'_>, bool)> {
        let mut out = Vec::new();
        let mut p = self;
        while let Some((up, step)) = &p.up {
            out.push((*step, !up.flat));
            p = up;
        }
        out.reverse();
        out
    }

    /// The key path of the node (the diagnostic's).
    fn keys(&self) -> Vec<String> {
        let mut keys = self.origin.keys.clone();
        keys.extend(self.steps().into_iter().map(|(s, _)| s.text()));
        keys
    }

    /// Heat's path items.
    fn heat(&self) -> Vec<String> {
        let mut heat = self.origin.heat.clone();
        heat.extend(
            self.steps()
                .into_iter()
                .filter(|(_, in_heat)| *in_heat)
                .map(|(s, _)| s.text()),
        );
        heat
    }

    /// The property path as the user writes it (`fixed_ips[0].subnet`).
    fn label(&self) -> String {
        let mut label = String::new();
        for (step, _) in self.steps() {
            match step {
                Step::Section(_) => {}
                Step::Key(k) => {
                    if !label.is_empty() {
                        label.push('.');
                    }
                    label.push_str(k);
                }
                Step::Index(i) => {
                    use std::fmt::Write as _;
                    let _ = write!(label, "[{i}]");
                }
            }
        }
        label
    }

    /// Heat's message for a property problem here.
    fn property_error(&self, message: &str) -> String {
        format!(
            "{}: Property error: {}: {message}",
            self.stage.heat(),
            heat_path(&self.heat())
        )
    }
}

/// The section and key names of the template's format.
struct Names {
    resources: &'static str,
    outputs: &'static str,
    kind: &'static str,
    properties: &'static str,
    get_attr: &'static str,
    unparsed: [&'static str; 2],
}

impl Names {
    fn of(format: Format) -> Names {
        match format {
            Format::Hot => Names {
                resources: "resources",
                outputs: "outputs",
                kind: "type",
                properties: "properties",
                get_attr: "get_attr",
                unparsed: ["description", "depends_on"],
            },
            Format::Cfn => Names {
                resources: "Resources",
                outputs: "Outputs",
                kind: "Type",
                properties: "Properties",
                get_attr: "Fn::GetAtt",
                unparsed: ["Description", "DependsOn"],
            },
        }
    }
}

struct Walker<'a, 'c> {
    cx: &'a Context<'c>,
    heat: &'static HeatTypes,
    tables: &'a Tables,
    names: Names,
    /// Parameter name → its type, normalised to HOT's spelling.
    parameters: IndexMap<&'a str, String>,
    out: Vec<Finding>,
}

/// What Heat says when a property of Heat's type `property_type`
/// (`integer`, `string`, ...) with `constraints` in its resource schema's
/// shape receives `value` (`Property.get_value` at create): the
/// conversion's error or the first constraint broken. `None` when it fits,
/// and for lists and maps, which a parameter's value reaches converted in
/// ways this does not follow.
pub(crate) fn property_violation(
    property_type: &str,
    constraints: &J,
    value: &J,
) -> Option<String> {
    let schema: PropertySchema = serde_json::from_value(serde_json::json!({
        "type": property_type,
        "constraints": known_constraints(constraints),
    }))
    .ok()?;
    if matches!(
        schema.kind,
        PropertyType::List | PropertyType::Map | PropertyType::Any
    ) {
        return None;
    }
    match convert::scalar(schema.kind, value) {
        Err(e) => Some(e),
        Ok(converted) => convert::constraints(&schema, &converted).map(|(_, message)| message),
    }
}

/// The constraints heatcap reads, of those written (custom ones and any
/// with keys it does not know left out).
fn known_constraints(constraints: &J) -> Vec<J> {
    constraints
        .as_array()
        .map(|items| {
            items
                .iter()
                .filter(|c| {
                    serde_json::from_value::<heat_schema::Constraint>((*c).clone())
                        .is_ok_and(|k| k.has_kind())
                })
                .cloned()
                .collect()
        })
        .unwrap_or_default()
}

/// What Heat says when a resource of a template-path type passes `value`
/// to the template's parameter of type `param_type` with `constraints`:
/// Heat's `TemplateResource` makes each parameter a property
/// (`Property.schema_from_param`: `number` → a number property, and so
/// on, the constraints kept), then converts and checks the value as for a
/// native property. `None` when it fits, and for lists and maps.
pub(crate) fn provider_property_violation(
    param_type: &str,
    constraints: Option<&J>,
    value: &J,
) -> Option<String> {
    let kind = match param_type {
        "number" => "number",
        "boolean" => "boolean",
        // The property converts text (a list from a delimited string, a
        // map property keeps text and lists as they are) and refuses a
        // number or a boolean (`Property._get_list` / `_get_map`); the
        // constraints of lists and maps are not followed.
        "comma_delimited_list" | "json" => {
            let scalar = matches!(value, J::Number(_) | J::Bool(_));
            return scalar.then(|| {
                if param_type == "json" {
                    format!("\"{}\" is not a map", python::str(value))
                } else {
                    format!("\"{}\" is not a list", python::repr(value))
                }
            });
        }
        _ => "string",
    };
    property_violation(kind, constraints.unwrap_or(&J::Array(Vec::new())), value)
}

/// What Heat says when a HOT parameter of type `param_type` with the
/// `constraints` as written receives `value` (already converted to the
/// parameter's type, as `get_param` gives it): the first constraint it
/// breaks, in Heat's words or the constraint's description, as
/// `Parameter.validate` checks a value at create. `None` when it fits, or
/// when the constraints are not ones heatcap reads (custom constraints that
/// ask a cloud are not checked; constraints with unknown keys are E2004's).
pub(crate) fn parameter_violation(param_type: &str, constraints: &J, value: &J) -> Option<String> {
    let kind = match param_type {
        "number" => "number",
        "comma_delimited_list" => "list",
        "json" => "map",
        "boolean" => "boolean",
        _ => "string",
    };
    let schema: PropertySchema = serde_json::from_value(serde_json::json!({
        "type": kind,
        "constraints": known_constraints(constraints),
    }))
    .ok()?;
    convert::constraints(&schema, value).map(|(_, message)| message)
}

/// Every finding about the template's resources and `get_attr` calls.
pub(crate) fn check(cx: &Context<'_>) -> Vec<Finding> {
    let Some(tables) = Tables::of(cx) else {
        // An unknown version is E1001; nothing else can be said.
        return Vec::new();
    };
    let names = Names::of(cx.template.format);
    let mut parameters: IndexMap<&str, String> = IndexMap::new();
    for p in &cx.template.parameters {
        if let Some(t) = &p.type_ {
            let hot = match t.as_str() {
                "CommaDelimitedList" => "comma_delimited_list".to_owned(),
                other => other.to_ascii_lowercase(),
            };
            parameters.insert(p.name.as_str(), hot);
        }
    }
    for pseudo in crate::model::template::PSEUDO_PARAMETERS {
        parameters
            .entry(pseudo)
            .or_insert_with(|| "string".to_owned());
    }
    let mut w = Walker {
        cx,
        heat: heat_schema::heat(),
        tables,
        names,
        parameters,
        out: Vec::new(),
    };
    w.resources();
    w.attributes();
    w.out
}

impl<'a> Walker<'a, '_> {
    fn push(&mut self, kind: Kind, span: Span, key_path: Vec<String>, message: String) {
        self.out.push(Finding {
            kind,
            span,
            key_path,
            message,
        });
    }

    fn resource_map(&self) -> Option<&'a Mapping> {
        self.cx
            .root
            .get(self.names.resources)
            .and_then(Node::as_map)
    }

    fn resources(&mut self) {
        let Some(resources) = self.resource_map() else {
            return;
        };
        for (k, body) in &resources.entries {
            let name = k.value.key_text();
            let Some(body) = body.as_map() else { continue };
            let Some(type_node) = body.get(self.names.kind) else {
                continue;
            };
            let Some(type_name) = type_node.as_str() else {
                continue;
            };
            let origin = Origin {
                keys: vec![self.names.resources.to_owned(), name.clone()],
                heat: vec![self.names.resources.to_owned(), name.clone()],
                resource: name,
                index_var: None,
            };
            let here = Place::at(&origin, Stage::Validate, Stage::Create);
            let Some(ty) = self.resource_type(type_name, type_node, &here) else {
                continue;
            };
            if body
                .get("external_id")
                .is_some_and(|e| e.value != Value::Null)
            {
                // Heat validates an adopted resource against the cloud
                // only (`validate_external`), never its properties.
                continue;
            }
            let props_entry = body.entry(self.names.properties);
            let at = here.section(self.names.properties);
            let anchor = props_entry.map_or(k.span, |(pk, _)| pk.span);
            self.properties(ty, type_name, props_entry.map(|(_, v)| v), &at, anchor);
            let props = props_entry.and_then(|(_, v)| v.as_map());
            match ty.class.as_str() {
                "ResourceGroup" => self.group(&here, props),
                "ResourceChain" => self.chain(&here, props),
                _ => {}
            }
        }
    }

    /// The Heat type `type_name` stands for, after reporting what its name
    /// and support status call for; `None` when there is nothing to check
    /// (a provider template, a type an environment maps, a type Heat does
    /// not have).
    fn resource_type(
        &mut self,
        type_name: &str,
        node: &Node,
        at: &Place<'_>,
    ) -> Option<&'static ResourceType> {
        if is_template_path(type_name) || type_name.contains('/') || self.cx.mapped.maps(type_name)
        {
            return None;
        }
        let heat = self.heat;
        let Some(found) = heat.lookup(type_name) else {
            // With `-e` the composition reports it (E7004), with the same hint.
            if heat.is_heat_namespace(type_name) && !self.cx.mapped.composed {
                let hint = heat
                    .misspelling_of(type_name)
                    .map(|s| format!("; did you mean `{s}`?"))
                    .unwrap_or_default();
                self.push(
                    Kind::UnknownType,
                    node.span,
                    at.keys(),
                    format!(
                        "resource `{}`: Heat {} has no resource type `{type_name}`{hint} ({}: The Resource Type ({type_name}) could not be found.)",
                        at.resource(),
                        heat.heat_version,
                        at.stage.heat()
                    ),
                );
            }
            return None;
        };
        // The same entry, with the data's own lifetime.
        let ty: &'static ResourceType = heat.get(found.name)?;
        let ss = &ty.support_status;
        let alias = if found.is_alias() {
            format!(" (Heat's alias of `{}`)", found.name)
        } else {
            String::new()
        };
        let (kind, state, tail) = match ss.status {
            Status::Hidden => (
                Kind::HiddenType,
                "is hidden",
                " (Heat no longer lists it, but its validation still accepts it)",
            ),
            Status::Unsupported => (Kind::HiddenType, "is unsupported", ""),
            Status::Deprecated => (Kind::DeprecatedType, "is deprecated", ""),
            Status::Supported | Status::Unknown => return Some(ty),
        };
        self.push(
            kind,
            node.span,
            at.keys(),
            format!(
                "resource `{}`: `{type_name}`{alias} {state}{}{tail}",
                at.resource(),
                status_detail(ss)
            ),
        );
        Some(ty)
    }

    /// A resource's (or a member's) `properties` against its type.
    fn properties(
        &mut self,
        ty: &'static ResourceType,
        type_name: &str,
        props: Option<&Node>,
        at: &Place<'_>,
        anchor: Span,
    ) {
        if is_placeholder(ty) {
            return;
        }
        let empty = Mapping::default();
        let data = match props {
            None => &empty,
            Some(n) if is_call(n) => return,
            Some(n) => match &n.value {
                Value::Null => &empty,
                Value::Map(m) => m,
                // Heat refuses it elsewhere.
                _ => return,
            },
        };
        let level = Level::Resource {
            type_name,
            template_backed: ty.is_template(),
        };
        self.map(&ty.properties, data, at, anchor, level, true);
    }

    /// The keys of `data` that `schema` does not have (E3011).
    fn unknown_keys(
        &mut self,
        schema: &'static IndexMap<String, PropertySchema>,
        data: &Mapping,
        at: &Place<'_>,
        level: Level<'_>,
    ) {
        for (k, _) in &data.entries {
            if k.value.as_str().is_some_and(|key| schema.contains_key(key)) {
                continue;
            }
            let key = k.value.key_text();
            if !schema.contains_key(&key) {
                let hint = heat_schema::nearest(&key, schema.keys().map(String::as_str))
                    .map(|n| format!("; did you mean `{n}`?"))
                    .unwrap_or_default();
                let what = match level {
                    Level::Resource { type_name, .. } => {
                        format!("`{key}` is not a property of `{type_name}`{hint}")
                    }
                    Level::Nested => {
                        format!("`{key}` is not a key `{}` can have{hint}", at.label())
                    }
                };
                let keys = at.key(&key).keys();
                let message = format!(
                    "resource `{}`: {what} ({})",
                    at.resource(),
                    at.property_error(&format!("Unknown Property {key}"))
                );
                self.push(Kind::UnknownProperty, k.span, keys, message);
            }
        }
    }

    /// Heat's `Properties.validate` of one mapping against its schema:
    /// unknown keys, then each property in the schema's order. `validate`
    /// is false below a value that refers to a resource: Heat then only
    /// converts (unknown keys and constraints go unchecked).
    fn map(
        &mut self,
        schema: &'static IndexMap<String, PropertySchema>,
        data: &Mapping,
        at: &Place<'_>,
        anchor: Span,
        level: Level<'_>,
        validate: bool,
    ) {
        let top = matches!(level, Level::Resource { .. });
        if validate || top {
            self.unknown_keys(schema, data, at, level);
        }
        let template_backed = matches!(
            level,
            Level::Resource {
                template_backed: true,
                ..
            }
        );
        for (name, s) in schema {
            let given = data.entry(name);
            let here = at.key(name);
            if let Some((k, _)) = given {
                if !s.implemented && (validate || top) {
                    let message = format!(
                        "resource `{}`: Heat has not implemented property `{}` ({})",
                        at.resource(),
                        here.label(),
                        at.property_error(&format!("Property {name} not implemented yet"))
                    );
                    self.push(Kind::UnknownProperty, k.span, here.keys(), message);
                    continue;
                }
                let ss = &s.support_status;
                if matches!(ss.status, Status::Deprecated | Status::Hidden) {
                    let (state, tail) = if ss.status == Status::Hidden {
                        ("is hidden", " (Heat still accepts it)")
                    } else {
                        ("is deprecated", "")
                    };
                    let message = format!(
                        "resource `{}`: property `{}` {state}{}{tail}",
                        at.resource(),
                        here.label(),
                        status_detail(ss)
                    );
                    self.push(Kind::DeprecatedProperty, k.span, here.keys(), message);
                    // A hidden property is mostly translated into its
                    // replacement, whose checks are Heat's own. A deprecated
                    // one is not (none of Heat 27's is deleted or replaced by
                    // a translation rule): Heat converts and checks its value
                    // at create like any other (tests/heat/schema-verdicts.json,
                    // deprecated-value-*.yaml).
                    if ss.status == Status::Hidden {
                        continue;
                    }
                }
            }
            match given {
                Some((_, v)) if !template_backed => {
                    let mut here = here;
                    here.stage = here.values;
                    let deps = refers_to_resources(v);
                    if deps && !here.flat {
                        here.flat = true;
                    }
                    self.value(s, v, &here, validate && !deps);
                }
                None if s.required
                    && s.default.is_none()
                    && !translated_into(name, schema, data) =>
                {
                    let mut at = *at;
                    at.stage = at.values;
                    let what = match level {
                        Level::Resource { type_name, .. } => {
                            format!("required property `{name}` of `{type_name}` is not set")
                        }
                        Level::Nested => {
                            format!("`{}` requires key `{name}`", at.label())
                        }
                    };
                    let message = format!(
                        "resource `{}`: {what} ({})",
                        at.resource(),
                        at.property_error(&format!("Property {name} not assigned"))
                    );
                    self.push(Kind::MissingProperty, anchor, at.keys(), message);
                }
                Some(_) | None => {}
            }
        }
    }

    /// One value against its schema (`Property.get_value`): converted to
    /// the type (lists and maps item by item), then, when `validate`, its
    /// constraints checked. Returns the converted value when it is known
    /// whole (for the constraints of the value holding it).
    fn value(
        &mut self,
        s: &'static PropertySchema,
        node: &Node,
        at: &Place<'_>,
        validate: bool,
    ) -> Option<J> {
        if is_call(node) {
            self.parameter_type(s, node, at);
            return None;
        }
        if let (Some(var), Value::Str(text)) = (at.index_var(), &node.value) {
            if text.contains(var) {
                return None;
            }
        }
        let converted = match (&node.value, s.kind) {
            (_, PropertyType::Any) => return None,
            (Value::Null, kind) => {
                let empty = convert::default_or_empty(s);
                match (kind, s.fields(), &empty) {
                    // The children of a null map are validated as empty.
                    (PropertyType::Map, Some(fields), J::Object(m)) if m.is_empty() => {
                        self.map(
                            fields,
                            &Mapping::default(),
                            at,
                            node.span,
                            Level::Nested,
                            validate,
                        );
                        J::Object(fields.keys().map(|k| (k.clone(), J::Null)).collect())
                    }
                    _ => empty,
                }
            }
            (Value::Map(m), PropertyType::Map) => match s.fields() {
                Some(fields) => {
                    self.map(fields, m, at, node.span, Level::Nested, validate);
                    // Heat's value holds every schema key.
                    J::Object(fields.keys().map(|k| (k.clone(), J::Null)).collect())
                }
                None if holds_call(node) => return None,
                None => node.value.to_json(),
            },
            (other, PropertyType::Map) => {
                return self.wrong_type(node, at, s.kind, &convert::not_a_map(&other.to_json()));
            }
            (Value::Seq(items), PropertyType::List) => match s.item_schema() {
                Some(item) => self.items(item, items, at, validate)?,
                None if holds_call(node) => return None,
                None => node.value.to_json(),
            },
            (other, PropertyType::List) => {
                return self.wrong_type(node, at, s.kind, &convert::not_a_list(&other.to_json()));
            }
            (Value::Map(_) | Value::Seq(_), kind) if holds_call(node) => {
                // A list or map with computed parts into a number: Heat's
                // `int()` fails whatever they compute (other types' messages
                // would show the computed value: left alone).
                return match kind {
                    PropertyType::Integer | PropertyType::Number => {
                        let shape = node.value.to_json();
                        match convert::scalar(kind, &shape) {
                            Err(e) => self.wrong_type(node, at, kind, &e),
                            Ok(_) => None,
                        }
                    }
                    _ => None,
                };
            }
            (v, kind) => match convert::scalar(kind, &v.to_json()) {
                Ok(c) => c,
                Err(e) => return self.wrong_type(node, at, kind, &e),
            },
        };
        if validate {
            if let Some((what, message)) = convert::constraints(s, &converted) {
                let text = format!(
                    "resource `{}`: property `{}` {what} ({})",
                    at.resource(),
                    at.label(),
                    at.property_error(&message)
                );
                self.push(Kind::Constraint, node.span, at.keys(), text);
                return None;
            }
        }
        Some(converted)
    }

    /// The items of a list property with an item schema, each against it;
    /// the converted list when every item is known.
    fn items(
        &mut self,
        item: &'static PropertySchema,
        items: &[Node],
        at: &Place<'_>,
        validate: bool,
    ) -> Option<J> {
        let mut whole = Some(Vec::with_capacity(items.len()));
        if !item.implemented && validate && !items.is_empty() {
            // The items are properties `0`, `1`, ... of a
            // schema Heat has not implemented (AWS `Tags`).
            let message = format!(
                "resource `{}`: Heat has not implemented the items of `{}` ({})",
                at.resource(),
                at.label(),
                at.property_error("Property 0 not implemented yet")
            );
            self.push(
                Kind::UnknownProperty,
                items[0].span,
                at.index(0).keys(),
                message,
            );
            return None;
        }
        for (i, n) in items.iter().enumerate() {
            let v = self.value(item, n, &at.index(i), validate);
            match (v, &mut whole) {
                (Some(v), Some(w)) => w.push(v),
                _ => whole = None,
            }
        }
        Some(J::Array(whole?))
    }

    fn wrong_type(
        &mut self,
        node: &Node,
        at: &Place<'_>,
        kind: PropertyType,
        message: &str,
    ) -> Option<J> {
        let text = format!(
            "resource `{}`: property `{}` takes {} ({})",
            at.resource(),
            at.label(),
            type_phrase(kind),
            at.property_error(message)
        );
        self.push(Kind::WrongType, node.span, at.keys(), text);
        None
    }

    /// E3016: a `get_param` (CFN `Ref`) of a parameter whose type Heat can
    /// never convert to the property's.
    fn parameter_type(&mut self, s: &PropertySchema, node: &Node, at: &Place) {
        let Some((func, arg)) = single_key(node) else {
            return;
        };
        let hot = self.cx.template.format == Format::Hot;
        let name = match (func, &arg.value) {
            ("get_param", Value::Str(n)) if hot => n.as_str(),
            ("get_param", Value::Seq(items)) if hot && items.len() == 1 => {
                match items[0].as_str() {
                    Some(n) => n,
                    None => return,
                }
            }
            ("Ref", Value::Str(n)) if self.cx.template.format == Format::Cfn => n.as_str(),
            _ => return,
        };
        let Some(ptype) = self.parameters.get(name).cloned() else {
            return;
        };
        let Some(sample) = parameter_sample(&ptype, self.parameter_default(name)) else {
            return;
        };
        if never_fits(&ptype, s.kind) {
            let heat = match s.kind {
                PropertyType::Map => convert::not_a_map(&sample),
                PropertyType::List => convert::not_a_list(&sample),
                kind => match convert::scalar(kind, &sample) {
                    Err(e) => e,
                    Ok(_) => return,
                },
            };
            let message = format!(
                "resource `{}`: property `{}` takes {}, but parameter `{name}` is a {ptype}, which Heat never converts to it ({})",
                at.resource(),
                at.label(),
                type_phrase(s.kind),
                at.property_error(&heat)
            );
            self.push(Kind::ParameterType, node.span, at.keys(), message);
        }
    }

    /// A declared parameter's default, as written.
    fn parameter_default(&self, name: &str) -> Option<&'a J> {
        self.cx
            .template
            .parameters
            .iter()
            .find(|p| p.name == name)
            .and_then(|p| p.default())
    }

    /// `OS::Heat::ResourceGroup`: its `resource_def` against the member type.
    fn group(&mut self, at: &Place<'_>, props: Option<&Mapping>) {
        let Some(props) = props else { return };
        if props
            .get("count")
            .is_some_and(|c| matches!(&c.value, Value::Int(0)) || c.as_str() == Some("0"))
        {
            // Heat validates no member when there is none.
            return;
        }
        let Some(def) = props.get("resource_def").and_then(Node::as_map) else {
            return;
        };
        let index_var = match props.get("index_var") {
            None => "%index%",
            Some(n) => match n.as_str() {
                Some(v) => v,
                None => return,
            },
        };
        let Some(type_node) = def.get("type") else {
            return;
        };
        let properties = at.section(self.names.properties);
        let base = properties.section("resource_def");
        let member = Member {
            type_node,
            type_keys: base.section("type").keys(),
            props: def.entry("properties"),
            props_keys: base.section("properties").keys(),
            heat: self.member_heat(at, "0"),
            index_var: Some(index_var.to_owned()),
        };
        self.member(at, &member);
    }

    /// `OS::Heat::ResourceChain`: its `resource_properties` against each
    /// member type (once per type, at its first member).
    fn chain(&mut self, at: &Place<'_>, props: Option<&Mapping>) {
        let Some(props) = props else { return };
        let Some(types) = props.get("resources").and_then(Node::as_seq) else {
            return;
        };
        let base = at.section(self.names.properties);
        let mut seen: Vec<&str> = Vec::new();
        for (i, t) in types.iter().enumerate() {
            let Some(name) = t.as_str() else { continue };
            if seen.contains(&name) {
                continue;
            }
            seen.push(name);
            let member = Member {
                type_node: t,
                type_keys: base.section("resources").index(i).keys(),
                props: props.entry("resource_properties"),
                props_keys: base.section("resource_properties").keys(),
                heat: self.member_heat(at, &i.to_string()),
                index_var: None,
            };
            self.member(at, &member);
        }
    }

    /// Heat's path of a member's properties in the nested stack it
    /// builds: `resources.R<nested_stack>.resources[N].properties`.
    fn member_heat(&self, owner: &Place<'_>, member: &str) -> Vec<String> {
        vec![
            self.names.resources.to_owned(),
            format!("{}<nested_stack>", owner.resource()),
            "resources".to_owned(),
            member.to_owned(),
            "properties".to_owned(),
        ]
    }

    /// One member of a group or chain, at create.
    fn member(&mut self, owner: &Place<'_>, m: &Member<'_>) {
        let Some(type_name) = m.type_node.as_str() else {
            return;
        };
        let typed = Origin {
            resource: owner.resource().to_owned(),
            keys: m.type_keys.clone(),
            heat: m.heat.clone(),
            index_var: m.index_var.clone(),
        };
        // Heat refuses an unknown member type in `template validate`
        // already (recorded: group-member-unknown-type.yaml).
        let at = Place::at(&typed, Stage::Validate, Stage::Nested);
        let Some(ty) = self.resource_type(type_name, m.type_node, &at) else {
            return;
        };
        let origin = Origin {
            keys: m.props_keys.clone(),
            ..typed
        };
        // Member property names are checked before create; values
        // when the nested stack is created.
        let at = Place::at(&origin, Stage::Create, Stage::Nested);
        let anchor = m.props.map_or(m.type_node.span, |(k, _)| k.span);
        self.properties(ty, type_name, m.props.map(|(_, v)| v), &at, anchor);
    }

    /// E3017: `get_attr` (CFN `Fn::GetAtt`) of an attribute a resource's
    /// Heat type does not have, in the resources and outputs.
    fn attributes(&mut self) {
        for section in [self.names.resources, self.names.outputs] {
            let Some(m) = self.cx.root.get(section).and_then(Node::as_map) else {
                continue;
            };
            for (k, body) in &m.entries {
                let keys = vec![section.to_owned(), k.value.key_text()];
                match body.as_map() {
                    Some(b) => {
                        for (bk, bv) in &b.entries {
                            if !bk
                                .value
                                .as_str()
                                .is_some_and(|s| self.names.unparsed.contains(&s))
                            {
                                self.walk_attrs(bv, &keys);
                            }
                        }
                    }
                    None => self.walk_attrs(body, &keys),
                }
            }
        }
    }

    fn walk_attrs(&mut self, node: &'a Node, keys: &[String]) {
        match &node.value {
            Value::Map(m) => {
                if let Some((name, args)) = single_key(node) {
                    if name == self.names.get_attr && self.tables.is_call(node, Parse::Functions) {
                        self.attribute(args, keys);
                    }
                }
                for (_, v) in &m.entries {
                    self.walk_attrs(v, keys);
                }
            }
            Value::Seq(items) => {
                for i in items {
                    self.walk_attrs(i, keys);
                }
            }
            _ => {}
        }
    }

    fn attribute(&mut self, args: &Node, keys: &[String]) {
        let Some([res, attr, ..]) = args.as_seq() else {
            return;
        };
        let (Some(res_name), Some(attr_name)) = (res.as_str(), attr.as_str()) else {
            return;
        };
        let Some(type_name) = self
            .resource_map()
            .and_then(|m| m.get(res_name))
            .and_then(Node::as_map)
            .and_then(|b| b.get(self.names.kind))
            .and_then(Node::as_str)
        else {
            return;
        };
        if is_template_path(type_name) || self.cx.mapped.maps(type_name) {
            return;
        }
        let Some(found) = self.heat.lookup(type_name) else {
            return;
        };
        if found.ty.accepts_attribute(attr_name) {
            return;
        }
        let hint = heat_schema::nearest(attr_name, found.ty.attributes.keys().map(String::as_str))
            .map(|n| format!("; did you mean `{n}`?"))
            .unwrap_or_default();
        let message = format!(
            "`{}` of `{attr_name}`, which resource `{res_name}` (`{type_name}`) does not have{hint} (Heat: The Referenced Attribute ({res_name} {attr_name}) is incorrect.)",
            self.names.get_attr
        );
        self.push(Kind::UnknownAttribute, attr.span, keys.to_vec(), message);
    }
}

/// A function call: any name Heat makes a function in some version or
/// dialect (a literal that only looks like one is left alone too).
fn is_call(node: &Node) -> bool {
    single_key(node).is_some_and(|(k, _)| is_function_name(k))
}

/// A list or map with a function call somewhere inside.
fn holds_call(node: &Node) -> bool {
    match &node.value {
        Value::Map(m) => is_call(node) || m.entries.iter().any(|(_, v)| holds_call(v)),
        Value::Seq(items) => items.iter().any(holds_call),
        _ => false,
    }
}

/// Whether Heat's `function.dependencies` finds a resource in the value
/// (`get_resource`, `get_attr`, CFN `Ref`, `Fn::GetAtt`; a `Ref` of a
/// parameter is counted too, which only leaves a value unchecked).
fn refers_to_resources(node: &Node) -> bool {
    match &node.value {
        Value::Map(m) => {
            single_key(node).is_some_and(|(k, _)| {
                matches!(k, "get_resource" | "get_attr" | "Ref" | "Fn::GetAtt")
            }) || m.entries.iter().any(|(_, v)| refers_to_resources(v))
        }
        Value::Seq(items) => items.iter().any(refers_to_resources),
        _ => false,
    }
}

/// A group's or chain's member: its type, its properties, where they sit.
struct Member<'n> {
    type_node: &'n Node,
    type_keys: Vec<String>,
    props: Option<&'n (Node, Node)>,
    props_keys: Vec<String>,
    heat: Vec<String>,
    index_var: Option<String>,
}

/// How deep a mapping sits.
#[derive(Clone, Copy)]
enum Level<'t> {
    /// A resource's `properties`.
    Resource {
        type_name: &'t str,
        template_backed: bool,
    },
    /// A map property's value, or a list item.
    Nested,
}

fn is_function_name(k: &str) -> bool {
    FUNCTIONS.iter().any(|(f, _, _)| *f == k)
        || CFN_FUNCTIONS.contains(&k)
        || CFN_CONDITIONS.contains(&k)
        || matches!(
            k,
            "equals" | "not" | "and" | "or" | "Fn::Not" | "Fn::And" | "Fn::Or"
        )
}

/// Whether a given deprecated property names `name` as its replacement
/// ("Use property network."): Heat's translation then sets it.
fn translated_into(name: &str, schema: &IndexMap<String, PropertySchema>, data: &Mapping) -> bool {
    data.str_entries().any(|(k, _)| {
        schema.get(k).is_some_and(|s| {
            !s.support_status.is_plain()
                && s.support_status.any_message().is_some_and(|m| {
                    m.split(|c: char| !(c.is_alphanumeric() || c == '_'))
                        .any(|w| w == name)
                })
        })
    })
}

/// `a boolean`, `an integer`, ... for messages.
fn type_phrase(kind: PropertyType) -> &'static str {
    match kind {
        PropertyType::String => "a string",
        PropertyType::Integer => "an integer",
        PropertyType::Number => "a number",
        PropertyType::Boolean => "a boolean",
        PropertyType::Map => "a map",
        PropertyType::List => "a list",
        PropertyType::Any => "any value",
    }
}

/// Whether a parameter of HOT type `ptype` can never give a value Heat
/// converts to a property of type `kind` (`Property.get_value` on the
/// parameter's value: a list, a string, a number, a bool; a `json`
/// parameter may hold anything, so it always may fit).
fn never_fits(ptype: &str, kind: PropertyType) -> bool {
    use PropertyType as P;
    match ptype {
        "string" => matches!(kind, P::Map | P::List),
        "number" => matches!(kind, P::Boolean | P::Map | P::List),
        "boolean" => matches!(kind, P::Map | P::List),
        "comma_delimited_list" => !matches!(kind, P::List | P::Any),
        _ => false,
    }
}

/// A value a parameter of type `ptype` gives `get_param`: its default
/// (as Heat parses it), else the type's empty value; for Heat's message.
fn parameter_sample(ptype: &str, default: Option<&J>) -> Option<J> {
    Some(match ptype {
        "string" => J::String(default.map_or_else(String::new, python::str)),
        "number" => default.cloned().unwrap_or(J::from(0)),
        "boolean" => J::Bool(default.is_some_and(python::truthy)),
        "comma_delimited_list" => match default {
            Some(J::Array(a)) => J::Array(a.clone()),
            Some(J::String(s)) if s.is_empty() => J::Array(Vec::new()),
            Some(J::String(s)) => J::Array(
                s.split(',')
                    .map(|p| J::String(p.trim().to_owned()))
                    .collect(),
            ),
            _ => J::Array(Vec::new()),
        },
        _ => return None,
    })
}

/// `: since 10.0.0: MESSAGE` as the data has it (a hidden type's message is
/// its own, else its deprecation's).
fn status_detail(ss: &heat_schema::SupportStatus) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    if let Some(v) = &ss.version {
        let _ = write!(out, " since Heat {}", v.trim());
    }
    if let Some(prev) = ss
        .previous_status
        .as_deref()
        .filter(|p| p.status == Status::Deprecated)
    {
        if let Some(v) = &prev.version {
            let _ = write!(out, " (deprecated since {})", v.trim());
        }
    }
    if let Some(m) = ss.any_message() {
        out.push_str(": ");
        out.push_str(m.trim());
    }
    out
}

#[cfg(test)]
mod tests;
