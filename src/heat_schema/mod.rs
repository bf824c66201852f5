//! Heat's resource types as data: every type of Heat 27.0.1's global
//! environment with its property and attribute schemas, generated from Heat
//! itself by `tools/heat-schema/generate.py` into
//! `data/heat-27.0.1-resource-types.json`, embedded in the binary and
//! parsed once, on first use ([`heat`]).
//!
//! A leaf: it knows Heat's data, not heatcap's stages, so every stage may
//! ask it (the rules in `validate`, the `resource-type` command).
//! docs/design.md, "Heat's resource types", describes the data and this API.
//!
//! # Using it from a rule
//!
//! ```ignore
//! let heat = heat_schema::heat();
//! match heat.lookup(type_name) {
//!     Some(found) if found.ty.support_status.is_hidden() => { /* Heat refuses it */ }
//!     Some(found) => {
//!         for (name, value) in given_properties {
//!             match found.ty.property(name) {
//!                 None => { /* "Unknown Property {name}" */ }
//!                 Some(p) => { /* p.kind, p.constraints, p.item_schema() ... */ }
//!             }
//!         }
//!         for name in found.ty.required_properties() { /* missing? */ }
//!         if !found.ty.accepts_attribute(attr) { /* get_attr of an unknown attribute */ }
//!     }
//!     None if heat.is_heat_namespace(type_name) => {
//!         let hint = heat.suggest(type_name); // did you mean ...?
//!     }
//!     None => {}
//! }
//! ```

/// Heat's `max_resources_per_stack` (its default): the most resources one
/// stack may have; `template validate` and `stack create` refuse more.
pub(crate) const MAX_RESOURCES_PER_STACK: usize = 1000;

pub(crate) mod api;
pub(crate) mod versions;

use std::collections::BTreeMap;
use std::fmt;
use std::sync::OnceLock;

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The generated data, as written by `tools/heat-schema/generate.py`.
const DATA: &str = include_str!("../../data/heat-27.0.1-resource-types.json");

/// Heat's resource types, parsed from the embedded data on the first call
/// (under 2 ms; `cargo bench --bench throughput` measures it).
///
/// # Panics
/// Never at run time: the embedded file is parsed by the unit tests, so a
/// file that does not parse fails the build's tests first.
pub(crate) fn heat() -> &'static HeatTypes {
    static HEAT: OnceLock<HeatTypes> = OnceLock::new();
    HEAT.get_or_init(|| parse(DATA).expect("the embedded Heat resource types parse"))
}

/// Parses a data file in the generator's shape (unknown fields refused).
pub(crate) fn parse(text: &str) -> Result<HeatTypes, serde_json::Error> {
    let mut heat: HeatTypes = serde_json::from_str(text)?;
    heat.namespaces = heat.compute_namespaces();
    Ok(heat)
}

/// Parses the embedded data afresh (the benchmark's start-up measurement).
pub(crate) fn bench_parse() -> usize {
    parse(DATA).map_or(0, |h| h.types.len())
}

/// Every resource type of one Heat release.
///
/// Its fields, and those of every type in it, are in the order of their
/// names, so that serialising it gives the data file back byte for byte
/// (the drift test, tests/heat_resource_types.rs).
#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct HeatTypes {
    /// Every custom constraint Heat registers, with the Python class that
    /// checks it (`nova.flavor` → `heat.engine.clients.os.nova.FlavorConstraint`).
    pub(crate) custom_constraints: BTreeMap<String, String>,
    /// The `resource_registry` of Heat's shipped default environment
    /// (`etc/heat/environment.d/default.yaml`), in file order: aliases
    /// (`OS::Ceilometer::Alarm` → `OS::Aodh::Alarm`), the glob
    /// `OS::Quantum*` → `OS::Neutron*`, and the template-backed types.
    pub(crate) environment: Vec<(String, String)>,
    /// The release the data was generated from (`27.0.1`).
    pub(crate) heat_version: String,
    /// The order of Heat's registry, which its list API keeps.
    pub(crate) registry_order: Vec<String>,
    /// The plugins and the template-backed types of Heat's global
    /// environment, by name (hidden ones included).
    pub(crate) types: BTreeMap<String, ResourceType>,
    /// Heat's namespaces, computed once after parsing.
    #[serde(skip)]
    namespaces: Vec<String>,
    /// `suggest`'s answers so far: a tree names the same few unknown
    /// types many times, and each answer costs an edit distance to every
    /// listed type.
    #[serde(skip)]
    suggestions: std::sync::Mutex<std::collections::HashMap<String, Option<String>>>,
}

/// One resource type: a plugin class, or a type Heat's default
/// environment backs with a template.
#[derive(Debug, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct ResourceType {
    /// Every attribute (the class's, then the base `show`), in order,
    /// hidden ones included.
    pub(crate) attributes: IndexMap<String, AttributeSchema>,
    /// The Python class name (`RandomString`), which names the resource
    /// in Heat's provider-template skeleton.
    pub(crate) class: String,
    /// The class's documentation, as Heat's API shows it.
    pub(crate) description: String,
    /// The class computes attributes Heat does not declare (its
    /// `get_attribute` or `FnGetAtt` is its own: `ResourceGroup`'s
    /// `resource.0`, a deployment's outputs), so Heat accepts any
    /// attribute name in `get_attr` at validate time.
    #[serde(default, skip_serializing_if = "is_false")]
    pub(crate) dynamic_attributes: bool,
    /// Every property, in the class's declaration order, hidden and
    /// unimplemented ones included (Heat still knows their names).
    pub(crate) properties: IndexMap<String, PropertySchema>,
    /// Supported, deprecated, unsupported or hidden, since which version.
    #[serde(default, skip_serializing_if = "SupportStatus::is_plain")]
    pub(crate) support_status: SupportStatus,
    /// For a template-backed type, the template Heat names
    /// (`file:///etc/heat/templates/AWS_CloudWatch_Alarm.yaml`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) template: Option<String>,
}

/// A property's type, as Heat's schema API spells it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum PropertyType {
    /// `string`
    String,
    /// `integer`
    Integer,
    /// `number`
    Number,
    /// `boolean`
    Boolean,
    /// `map`
    Map,
    /// `list`
    List,
    /// `any` (only `OS::Heat::Value`'s `value`)
    Any,
}

impl PropertyType {
    /// The name Heat's schema API gives it.
    pub(crate) fn name(self) -> &'static str {
        match self {
            PropertyType::String => "string",
            PropertyType::Integer => "integer",
            PropertyType::Number => "number",
            PropertyType::Boolean => "boolean",
            PropertyType::Map => "map",
            PropertyType::List => "list",
            PropertyType::Any => "any",
        }
    }
}

impl fmt::Display for PropertyType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One property's schema (Heat's `properties.Schema`).
#[allow(clippy::struct_excessive_bools)] // Heat's schema has these four flags
#[derive(Debug, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct PropertySchema {
    /// The constraints, in Heat's order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) constraints: Vec<Constraint>,
    /// The value Heat uses when none is given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) default: Option<Value>,
    /// What it is for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) description: Option<String>,
    /// A stack update may not change it at all.
    #[serde(default, skip_serializing_if = "is_false")]
    pub(crate) immutable: bool,
    /// False for a property Heat declares but refuses when given
    /// ("Property %s not implemented yet").
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    pub(crate) implemented: bool,
    /// Heat refuses the resource without it (at create: `strict_validate`).
    #[serde(default, skip_serializing_if = "is_false")]
    pub(crate) required: bool,
    /// A list's item schema (the key `*`) or a map's known keys.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) schema: Option<IndexMap<String, PropertySchema>>,
    /// Deprecated, hidden, since which version.
    #[serde(default, skip_serializing_if = "SupportStatus::is_plain")]
    pub(crate) support_status: SupportStatus,
    /// Its type.
    #[serde(rename = "type")]
    pub(crate) kind: PropertyType,
    /// A stack update may change it in place.
    #[serde(default, skip_serializing_if = "is_false")]
    pub(crate) update_allowed: bool,
}

impl PropertySchema {
    /// The schema of every item of a list property, when Heat has one.
    pub(crate) fn item_schema(&self) -> Option<&PropertySchema> {
        match self.kind {
            PropertyType::List => self.schema.as_ref()?.get("*"),
            _ => None,
        }
    }

    /// The known keys of a map property, when Heat declares them (Heat then
    /// refuses any other key: "Unknown Property").
    pub(crate) fn fields(&self) -> Option<&IndexMap<String, PropertySchema>> {
        match self.kind {
            PropertyType::Map => self.schema.as_ref(),
            _ => None,
        }
    }

    /// Whether Heat's schema API and its template skeleton show it:
    /// implemented and not hidden.
    pub(crate) fn is_shown(&self) -> bool {
        self.implemented && !self.support_status.is_hidden()
    }

    /// The names of the custom constraints it carries (`nova.flavor`).
    #[cfg_attr(
        not(test),
        expect(dead_code, reason = "part of the data's API; only tests use it so far")
    )]
    pub(crate) fn custom_constraints(&self) -> impl Iterator<Item = &str> {
        self.constraints.iter().filter_map(|c| match c.kind() {
            ConstraintKind::Custom(name) => Some(name),
            _ => None,
        })
    }
}

/// One attribute's schema.
#[derive(Debug, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct AttributeSchema {
    /// What it holds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) description: Option<String>,
    /// Deprecated, hidden, since which version.
    #[serde(default, skip_serializing_if = "SupportStatus::is_plain")]
    pub(crate) support_status: SupportStatus,
    /// Its type, when Heat declares one (`string`, `map`, `list`,
    /// `integer`, `boolean`).
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    pub(crate) kind: Option<String>,
}

/// A status of Heat's `support` module.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, Serialize, schemars::JsonSchema,
)]
#[serde(rename_all = "UPPERCASE")]
pub(crate) enum Status {
    /// Supported (Heat's default).
    #[default]
    Supported,
    /// Still works; Heat's documentation names the replacement.
    Deprecated,
    /// Works, at the user's own risk.
    Unsupported,
    /// Refused: the type cannot be used in a template any more.
    Hidden,
    /// An invalid status Heat replaced.
    Unknown,
}

impl Status {
    /// Heat's name for it (`DEPRECATED`).
    pub(crate) fn name(self) -> &'static str {
        match self {
            Status::Supported => "SUPPORTED",
            Status::Deprecated => "DEPRECATED",
            Status::Unsupported => "UNSUPPORTED",
            Status::Hidden => "HIDDEN",
            Status::Unknown => "UNKNOWN",
        }
    }

    /// The status Heat names `name` (exactly, in capitals).
    pub(crate) fn from_name(name: &str) -> Option<Status> {
        [
            Status::Unknown,
            Status::Supported,
            Status::Deprecated,
            Status::Unsupported,
            Status::Hidden,
        ]
        .into_iter()
        .find(|s| s.name() == name)
    }
}

/// Heat's `SupportStatus`: a status, the version it holds from, a message
/// (the replacement, usually) and the status before it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct SupportStatus {
    /// Heat's message (`Use property character_classes.`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) message: Option<String>,
    /// The status before this one (a hidden property was deprecated first).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) previous_status: Option<Box<SupportStatus>>,
    /// The status.
    #[serde(default)]
    pub(crate) status: Status,
    /// The Heat version (`2014.2`, `5.0.0`) it holds from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) version: Option<String>,
}

impl SupportStatus {
    /// Plain `SUPPORTED`, no version or message (left out of the data).
    pub(crate) fn is_plain(&self) -> bool {
        *self == SupportStatus::default()
    }

    /// Heat refuses it (a hidden type) or leaves it out of its API (a
    /// hidden property or attribute).
    pub(crate) fn is_hidden(&self) -> bool {
        self.status == Status::Hidden
    }

    /// Deprecated: it works, and Heat names a replacement.
    #[cfg_attr(
        not(test),
        expect(dead_code, reason = "part of the data's API; only tests use it so far")
    )]
    pub(crate) fn is_deprecated(&self) -> bool {
        self.status == Status::Deprecated
    }

    /// The message of this status, else of the one before it (a hidden
    /// property keeps its deprecation message there).
    pub(crate) fn any_message(&self) -> Option<&str> {
        self.message
            .as_deref()
            .or_else(|| self.previous_status.as_ref()?.any_message())
    }

    /// Heat's `to_dict()`: every key, nulls included, in Heat's order.
    pub(crate) fn to_heat(&self) -> Value {
        let mut m = serde_json::Map::new();
        m.insert("status".into(), Value::from(self.status.name()));
        m.insert("message".into(), self.message.clone().into());
        m.insert("version".into(), self.version.clone().into());
        m.insert(
            "previous_status".into(),
            self.previous_status
                .as_ref()
                .map_or(Value::Null, |p| p.to_heat()),
        );
        Value::Object(m)
    }
}

/// One constraint, as Heat serialises it: exactly one of the kinds, and
/// an optional description. [`Constraint::kind`] says which.
#[derive(Debug, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Constraint {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    allowed_pattern: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    allowed_values: Option<Vec<Value>>,
    #[serde(
        rename = "custom_constraint",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    custom: Option<String>,
    /// The message Heat gives instead of its own when the value fails.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) description: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    length: Option<Bounds>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    modulo: Option<Modulo>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    range: Option<Bounds>,
}

/// The bounds of a `range` or `length` constraint (inclusive).
#[derive(Debug, Clone, Copy, PartialEq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Bounds {
    /// The greatest value (or length) allowed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) max: Option<Number>,
    /// The least value (or length) allowed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) min: Option<Number>,
}

/// A `modulo` constraint: the value is `offset` plus a multiple of `step`.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Modulo {
    /// The offset.
    pub(crate) offset: Number,
    /// The step.
    pub(crate) step: Number,
}

/// A number as Heat wrote it: an integer or a float (`1` and `1.0` print
/// differently).
#[derive(Debug, Clone, Copy, PartialEq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(untagged)]
pub(crate) enum Number {
    /// An integer.
    Int(i64),
    /// A float.
    Float(f64),
}

impl Number {
    /// The value as a float, for comparisons.
    #[allow(clippy::cast_precision_loss)] // Heat's bounds are small integers
    pub(crate) fn as_f64(self) -> f64 {
        match self {
            Number::Int(i) => i as f64,
            Number::Float(f) => f,
        }
    }

    /// As a JSON value.
    pub(crate) fn to_json(self) -> Value {
        match self {
            Number::Int(i) => Value::from(i),
            Number::Float(f) => Value::from(f),
        }
    }
}

impl fmt::Display for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Number::Int(i) => write!(f, "{i}"),
            Number::Float(x) => write!(f, "{x:?}"),
        }
    }
}

/// What a [`Constraint`] constrains.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum ConstraintKind<'a> {
    /// One of these values.
    AllowedValues(&'a [Value]),
    /// A number within the bounds.
    Range(Bounds),
    /// A string, list or map whose length is within the bounds.
    Length(Bounds),
    /// `offset` plus a multiple of `step`.
    Modulo(Modulo),
    /// A string matching this Python regular expression (anchored at the
    /// start, as Python's `re.match`).
    AllowedPattern(&'a str),
    /// A check Heat registers by name (`nova.flavor`, `ip_addr`); see
    /// [`HeatTypes::custom_constraints`].
    Custom(&'a str),
}

impl Constraint {
    /// Whether it names a kind ([`Constraint::kind`] panics on one that
    /// does not, such as a template's `{description: ...}` alone).
    pub(crate) fn has_kind(&self) -> bool {
        self.allowed_values.is_some()
            || self.range.is_some()
            || self.length.is_some()
            || self.modulo.is_some()
            || self.allowed_pattern.is_some()
            || self.custom.is_some()
    }

    /// Which constraint this is.
    ///
    /// # Panics
    /// Never for the embedded data: a unit test checks that every
    /// constraint has exactly one kind.
    pub(crate) fn kind(&self) -> ConstraintKind<'_> {
        if let Some(v) = &self.allowed_values {
            ConstraintKind::AllowedValues(v)
        } else if let Some(b) = self.range {
            ConstraintKind::Range(b)
        } else if let Some(b) = self.length {
            ConstraintKind::Length(b)
        } else if let Some(m) = self.modulo {
            ConstraintKind::Modulo(m)
        } else if let Some(p) = &self.allowed_pattern {
            ConstraintKind::AllowedPattern(p)
        } else if let Some(c) = &self.custom {
            ConstraintKind::Custom(c)
        } else {
            unreachable!("a constraint without a kind")
        }
    }

    /// How many kinds it has (one in valid data).
    #[cfg(test)]
    fn kinds(&self) -> usize {
        usize::from(self.allowed_values.is_some())
            + usize::from(self.range.is_some())
            + usize::from(self.length.is_some())
            + usize::from(self.modulo.is_some())
            + usize::from(self.allowed_pattern.is_some())
            + usize::from(self.custom.is_some())
    }
}

/// A type found by [`HeatTypes::lookup`]: the entry, its own name, and the
/// alias of Heat's default environment that led to it, if any.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Found<'a> {
    /// The name asked for.
    pub(crate) asked: &'a str,
    /// The name of the type found (after aliases: `OS::Aodh::Alarm` for
    /// `OS::Ceilometer::Alarm`).
    pub(crate) name: &'a str,
    /// The type.
    pub(crate) ty: &'a ResourceType,
}

impl Found<'_> {
    /// True when an alias of the default environment led here.
    pub(crate) fn is_alias(&self) -> bool {
        self.asked != self.name
    }
}

impl ResourceType {
    /// The property `name`, hidden ones included (Heat accepts their names).
    pub(crate) fn property(&self, name: &str) -> Option<&PropertySchema> {
        self.properties.get(name)
    }

    /// The names of the properties Heat requires (at create time).
    pub(crate) fn required_properties(&self) -> impl Iterator<Item = &str> {
        self.properties
            .iter()
            .filter(|(_, p)| p.required)
            .map(|(n, _)| n.as_str())
    }

    /// The attribute `name`, hidden ones included.
    pub(crate) fn attribute(&self, name: &str) -> Option<&AttributeSchema> {
        self.attributes.get(name)
    }

    /// Whether Heat's validation accepts `get_attr` of `name` (the first
    /// element of the attribute path): a declared attribute, or any name
    /// for a type with [`dynamic_attributes`](Self::dynamic_attributes).
    pub(crate) fn accepts_attribute(&self, name: &str) -> bool {
        self.dynamic_attributes || self.attributes.contains_key(name)
    }

    /// A template-backed type of the default environment (no plugin class).
    pub(crate) fn is_template(&self) -> bool {
        self.template.is_some()
    }
}

impl HeatTypes {
    /// The entry `name` itself (a plugin or a template-backed type), no
    /// alias followed.
    pub(crate) fn get(&self, name: &str) -> Option<&ResourceType> {
        self.types.get(name)
    }

    /// The type `name` stands for in Heat's global environment: itself, or
    /// what the default environment's aliases and glob map it to
    /// (`OS::Ceilometer::Alarm` → `OS::Aodh::Alarm`, `OS::Quantum::Net` →
    /// `OS::Neutron::Net`), as Heat's `get_class` finds it. Hidden types
    /// are found too: check [`SupportStatus::is_hidden`]. `None` when Heat
    /// has no such type (nor alias).
    pub(crate) fn lookup<'a>(&'a self, name: &'a str) -> Option<Found<'a>> {
        let mut current = name;
        // The default environment has no alias chains, but follow a few
        // links rather than assume it; a loop ends the walk.
        for _ in 0..8 {
            if let Some((key, ty)) = self.types.get_key_value(current) {
                return Some(Found {
                    asked: name,
                    name: key,
                    ty,
                });
            }
            current = self.alias_target(current)?;
        }
        None
    }

    /// What the default environment maps `name` to, if it is an alias
    /// (an exact key, else a glob ending in `*`, whose matched tail is
    /// carried over when the target ends in `*` too).
    fn alias_target<'a>(&'a self, name: &'a str) -> Option<&'a str> {
        if let Some((_, to)) = self
            .environment
            .iter()
            .find(|(from, to)| from == name && !to.contains('/'))
        {
            return Some(to);
        }
        // Globs: only `OS::Quantum*` → `OS::Neutron*` in Heat 27, whose
        // targets are real type names; return the key into `types`.
        for (from, to) in &self.environment {
            let Some(prefix) = from.strip_suffix('*') else {
                continue;
            };
            let Some(rest) = name.strip_prefix(prefix) else {
                continue;
            };
            let target = match to.strip_suffix('*') {
                Some(base) => format!("{base}{rest}"),
                None => to.clone(),
            };
            return self.types.get_key_value(&target).map(|(k, _)| k.as_str());
        }
        None
    }

    /// The aliases of the default environment: (alias, type) pairs, glob
    /// and template entries left out.
    #[cfg_attr(
        not(test),
        expect(dead_code, reason = "part of the data's API; only tests use it so far")
    )]
    pub(crate) fn aliases(&self) -> impl Iterator<Item = (&str, &str)> {
        self.environment
            .iter()
            .filter(|(from, _)| !from.ends_with('*') && !self.types.contains_key(from.as_str()))
            .map(|(from, to)| (from.as_str(), to.as_str()))
    }

    /// The types Heat's list API shows (neither aliases nor hidden types),
    /// in name order.
    pub(crate) fn listed(&self) -> impl Iterator<Item = (&str, &ResourceType)> {
        self.types
            .iter()
            .filter(|(_, t)| !t.support_status.is_hidden())
            .map(|(n, t)| (n.as_str(), t))
    }

    /// Whether `name` is in one of Heat's own namespaces, derived from the
    /// data: `AWS::` for any AWS type, else the first two parts of a name
    /// Heat knows or aliases (`OS::Nova::`, `OS::Heat::`, `OS::Quantum::`,
    /// `OS::Ceilometer::`). `OS::TripleO::Foo` is not. A misspelt
    /// separator does not hide the namespace: `OS::Nova:Server` is in
    /// `OS::Nova::`.
    pub(crate) fn is_heat_namespace(&self, name: &str) -> bool {
        let name = single_colons_doubled(name);
        self.namespaces()
            .iter()
            .any(|ns| name.starts_with(ns.as_str()))
    }

    /// For a type Heat does not have in one of its own namespaces, the
    /// nearest type it lists (`OS::Nova::Sever` → `OS::Nova::Server`).
    pub(crate) fn misspelling_of(&self, name: &str) -> Option<&str> {
        if self.lookup(name).is_some() || !self.is_heat_namespace(name) {
            return None;
        }
        self.suggest(name)
    }

    /// Heat's namespaces (see [`Self::is_heat_namespace`]), sorted.
    pub(crate) fn namespaces(&self) -> &[String] {
        &self.namespaces
    }

    fn compute_namespaces(&self) -> Vec<String> {
        let names = self
            .types
            .keys()
            .chain(self.environment.iter().map(|(from, _)| from));
        let mut out: Vec<String> = names
            .filter_map(|n| namespace_of(n.trim_end_matches('*')))
            .collect();
        out.sort();
        out.dedup();
        out
    }

    /// The type Heat lists whose name is nearest to `name` (a misspelt
    /// `OS::Nova::Sever` → `OS::Nova::Server`): the smallest edit distance,
    /// case ignored, then with case, then the first name in order; `None`
    /// when even the nearest differs in more than a third of `name`.
    pub(crate) fn suggest(&self, name: &str) -> Option<&str> {
        let mut known = self
            .suggestions
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let answer = known
            .entry(name.to_owned())
            .or_insert_with(|| nearest(name, self.listed().map(|(n, _)| n)).map(str::to_owned));
        // The answer is a key of `types`, which lives as long as `self`.
        answer
            .as_deref()
            .and_then(|n| self.types.get_key_value(n))
            .map(|(k, _)| k.as_str())
    }

    /// The Python class of the custom constraint `name`, if Heat registers
    /// it.
    pub(crate) fn custom_constraint(&self, name: &str) -> Option<&str> {
        self.custom_constraints.get(name).map(String::as_str)
    }
}

/// The candidate nearest to `name` by edit distance (optimal string
/// alignment: a swap of two letters is one edit; case folded first,
/// then exact), if it is near enough to be a misspelling: at most one edit
/// in three characters. `OS::Nova::Sever` → `OS::Nova::Server`,
/// `lenght` → `length`.
pub(crate) fn nearest<'a>(
    name: &str,
    candidates: impl Iterator<Item = &'a str>,
) -> Option<&'a str> {
    let lower = name.to_lowercase();
    let limit = name.chars().count().max(3);
    // A length difference is a lower bound of the distance: candidates it
    // already puts out of reach are never the answer.
    let (distance, _, best) = candidates
        .filter(|n| n.chars().count().abs_diff(name.chars().count()) * 3 <= limit)
        .map(|n| {
            (
                strsim::osa_distance(&lower, &n.to_lowercase()),
                strsim::osa_distance(name, n),
                n,
            )
        })
        .min()?;
    (distance * 3 <= limit).then_some(best)
}

/// Whether a custom constraint (by its Python class) asks a cloud service
/// (`heat.engine.clients.os.nova.FlavorConstraint`): those cannot be
/// checked offline; Heat's common ones (`ip_addr`, `net_cidr`, `iso_8601`, ...)
/// can.
pub(crate) fn needs_cloud(class: &str) -> bool {
    class.starts_with("heat.engine.clients.")
}

/// The type name with every run of colons written `::`, so that a
/// misspelt separator (`OS::Nova:Server`) still shows its namespace.
fn single_colons_doubled(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 2);
    let mut colons = 0;
    for c in name.chars() {
        if c == ':' {
            colons += 1;
            continue;
        }
        if colons > 0 {
            out.push_str("::");
            colons = 0;
        }
        out.push(c);
    }
    if colons > 0 {
        out.push_str("::");
    }
    out
}

/// `AWS::` for AWS types, `OS::Nova::` for `OS::Nova::Server`.
fn namespace_of(name: &str) -> Option<String> {
    if name.starts_with("AWS::") {
        return Some("AWS::".to_owned());
    }
    let mut parts = name.splitn(3, "::");
    let (a, b) = (parts.next()?, parts.next()?);
    (!a.is_empty() && !b.is_empty()).then(|| format!("{a}::{b}::"))
}

#[allow(clippy::trivially_copy_pass_by_ref)] // serde's skip_serializing_if passes a reference
fn is_false(b: &bool) -> bool {
    !*b
}

#[allow(clippy::trivially_copy_pass_by_ref)]
fn is_true(b: &bool) -> bool {
    *b
}

fn yes() -> bool {
    true
}

#[cfg(test)]
mod tests;
