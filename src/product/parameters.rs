//! Workflow step 5: every parameter of the chosen nested composition, with
//! where its value comes from, as Heat would give it (heat-semantics §3.2,
//! §3.4): the root stack takes the environments' `parameters`, then
//! `parameter_defaults`, then its default; a nested stack takes the
//! properties its parent resource passes, then `parameter_defaults`, then
//! its default. Anything left without a value must be asked of the user.

use indexmap::IndexMap;
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value as J;

use super::feeds::{self, Feed};
use crate::diag::Span;
use crate::eval::{python, Outcome};
use crate::model::template::Parameter;
use crate::resolve::compose::{NodeKind, TreeNode};
use crate::resolve::merge::Merged;
use crate::resolve::values::{parameter_value, ParamType};
use crate::resolve::Catalog;
use crate::validate::hot::plugin_schema::parameter_violation;

/// Where a parameter's value comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Source {
    /// The environments' `parameters` (root stack only).
    Parameters,
    /// A property the parent resource passes.
    Property,
    /// The environments' `parameter_defaults` (every stack).
    ParameterDefaults,
    /// The parameter's own default.
    Default,
}

/// A value for one parameter in one stack.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
#[non_exhaustive]
pub struct Supplied {
    /// The stack (see [`StackNode::id`]).
    pub stack: String,
    /// Where the value comes from.
    pub source: Source,
    /// The value as written (an intrinsic function stays as written).
    pub value: J,
    /// The file whose text sets the value: the environment
    /// (`parameters`, `parameter_defaults`), the template that declares
    /// the parameter (`default`), or the parent's template (`property`);
    /// as the tree's and the environments' paths are shown.
    pub file: String,
    /// Where in `file`: the key that sets it (the parameter's name in the
    /// environment's section, its `default:`, the parent resource's
    /// property; the resource's `type:` for a property Heat writes).
    pub span: Span,
    /// Why Heat would refuse this value when it creates the stack, in its
    /// words (`20 is out of range (min: 1, max: 10)`), for a value from the
    /// environments or the parameter's default; absent when Heat accepts
    /// it, or for a value a parent passes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub invalid: Option<String>,
}

/// What Heat makes of a value `raw` for a parameter of type `type_name`
/// with `constraints` when it creates the stack (`Parameter.validate`).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum ValueCheck {
    /// Accepted: the value as `get_param` gives it.
    Accepted(J),
    /// Refused, in Heat's words; `converting` when the type's conversion
    /// fails (before any constraint).
    Refused { converting: bool, why: String },
    /// Not known: no value (`null` is "not given" to Heat), or a
    /// conversion heatcap does not follow.
    Unknown,
}

/// Heat's verdict on `raw` (see [`ValueCheck`]).
pub(crate) fn check_value(type_name: &str, constraints: Option<&J>, raw: &J) -> ValueCheck {
    let ty = ParamType::of(Some(type_name));
    if raw.is_null() {
        return ValueCheck::Unknown;
    }
    let refused = |why: String| ValueCheck::Refused {
        converting: true,
        why,
    };
    match parameter_value(ty, Some(raw), None) {
        Some(Ok(value)) => match constraints.and_then(|c| parameter_violation(type_name, c, &value)) {
            Some(why) => ValueCheck::Refused {
                converting: false,
                why,
            },
            None => ValueCheck::Accepted(value),
        },
        // NumberParam: Schema.str_to_num, Python's float(), which also
        // reads `nan` and `inf` (heatcap's numbers cannot hold them: they
        // are not known); BooleanParam: oslo's bool_from_string(strict=True);
        // the list and json conversions are not followed.
        Some(Err(_)) => match ty {
            ParamType::Number => {
                let text = python::str(raw).trim().to_ascii_lowercase();
                if matches!(text.trim_start_matches(['+', '-']), "nan" | "inf" | "infinity") {
                    ValueCheck::Unknown
                } else {
                    refused(format!(
                        "could not convert string to float: {}",
                        python::str_repr(&python::str(raw))
                    ))
                }
            }
            ParamType::Boolean => refused(format!(
                "Unrecognized value '{}', acceptable values are: '0', '1', 'f', 'false', 'n', 'no', 'off', 'on', 't', 'true', 'y', 'yes'",
                python::str(raw)
            )),
            _ => ValueCheck::Unknown,
        },
        None => ValueCheck::Unknown,
    }
}

/// Why Heat refuses `raw` (see [`check_value`]), in its words.
pub(crate) fn refusal(type_name: &str, constraints: Option<&J>, raw: &J) -> Option<String> {
    match check_value(type_name, constraints, raw) {
        ValueCheck::Refused { why, .. } => Some(why),
        ValueCheck::Accepted(_) | ValueCheck::Unknown => None,
    }
}

/// A value as the UI document shows it: the value, or a marker when Heat
/// would compute it and heatcap could not.
fn shown(v: &Outcome) -> J {
    match v {
        Ok(v) => v.clone(),
        Err(u) => {
            serde_json::json!({ "heatcap:Unevaluated": format!("{}: {}", u.function, u.reason) })
        }
    }
}

/// One parameter name across the composition.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
#[non_exhaustive]
pub struct ParameterInfo {
    /// Schema from the first stack that declares it.
    #[serde(rename = "type")]
    pub type_name: Option<String>,
    /// Its description, from the first declaring stack.
    pub description: Option<String>,
    /// Its label.
    pub label: Option<String>,
    /// Its default.
    pub default: Option<J>,
    /// Whether it is hidden (`hidden: true`, CFN `NoEcho`).
    pub hidden: bool,
    /// Its constraints, as written.
    pub constraints: Option<J>,
    /// Its tags.
    pub tags: Option<J>,
    /// Every stack that declares it.
    pub declared_by: Vec<String>,
    /// Absent when every declaring stack gives it the same type and
    /// constraints; otherwise each distinct declaration (type and
    /// constraints), in first-seen order, with the stacks that declare it
    /// so: a value is checked against each.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schemars(length(min = 2))]
    pub definitions: Vec<Definition>,
    /// Its value in each declaring stack that has one.
    pub values: Vec<Supplied>,
    /// The stacks where nothing supplies it: the user must.
    pub required_in: Vec<String>,
    /// The properties of Heat's own resources its value lands in, with
    /// what Heat requires of them.
    pub feeds: Vec<Feed>,
}

/// One way a parameter is declared (see [`ParameterInfo::definitions`]).
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
#[non_exhaustive]
pub struct Definition {
    /// The stacks whose template declares it so.
    pub stacks: Vec<String>,
    /// Its type as written.
    #[serde(rename = "type")]
    pub type_name: Option<String>,
    /// Its constraints, as written.
    pub constraints: Option<J>,
}

/// One stack of the composition.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
#[non_exhaustive]
pub struct StackNode {
    /// `root`, then resource names joined with `/` (`root/Compute/0`).
    pub id: String,
    /// The resource that creates it (absent for the root).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(rename = "type")]
    /// The resource type that creates it (the root's path for the root).
    pub type_name: String,
    /// The template it instantiates.
    pub template: String,
    /// The parameters its template declares.
    pub parameters: Vec<String>,
    /// Its template's `parameter_groups` (HOT), in order, as Heat's
    /// validate answer shows them (`ParameterGroups`): a list that is not
    /// Heat's shape is left out, as are items that are not mappings and
    /// names that are not strings. Absent when there is none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schemars(length(min = 1))]
    pub parameter_groups: Vec<ParameterGroup>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schemars(length(min = 1))]
    /// Its nested stacks.
    pub children: Vec<StackNode>,
}

/// One of a template's `parameter_groups`.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
#[non_exhaustive]
pub struct ParameterGroup {
    /// Its `label` (absent when none, or not a string).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// Its `description` (absent when none, or not a string).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The names its `parameters` list, in order.
    pub parameters: Vec<String>,
}

/// A template's `parameter_groups` as written, read as groups (see
/// [`StackNode::parameter_groups`]).
pub(crate) fn parameter_groups(written: Option<&J>) -> Vec<ParameterGroup> {
    let Some(J::Array(items)) = written else {
        return Vec::new();
    };
    let text =
        |g: &serde_json::Map<String, J>, k: &str| g.get(k).and_then(J::as_str).map(str::to_owned);
    items
        .iter()
        .filter_map(J::as_object)
        .map(|g| ParameterGroup {
            label: text(g, "label"),
            description: text(g, "description"),
            parameters: match g.get("parameters") {
                Some(J::Array(names)) => names
                    .iter()
                    .filter_map(J::as_str)
                    .map(str::to_owned)
                    .collect(),
                _ => Vec::new(),
            },
        })
        .collect()
}

impl StackNode {
    /// A root stack with nothing known about it.
    pub(crate) fn root(template: &str) -> StackNode {
        StackNode {
            id: "root".to_owned(),
            name: None,
            type_name: template.to_owned(),
            template: template.to_owned(),
            parameters: Vec::new(),
            parameter_groups: Vec::new(),
            children: Vec::new(),
        }
    }
}

/// The `parameters` command's result.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
#[non_exhaustive]
pub struct ParametersReport {
    /// The root template, as given.
    pub template: String,
    /// The environments, as given.
    pub environments: Vec<String>,
    #[serde(skip_serializing_if = "IndexMap::is_empty")]
    #[schemars(extend("minProperties" = 1))]
    /// The `--choose` selections.
    pub choices: IndexMap<String, String>,
    /// The stack tree.
    pub tree: StackNode,
    /// Every parameter by name, first-seen order.
    pub parameters: IndexMap<String, ParameterInfo>,
    /// Parameter names the user must still provide, in first-seen order.
    pub required: Vec<String>,
    /// Problems found on the way.
    pub diagnostics: Vec<crate::diag::Diagnostic>,
    /// Values Heat would compute that heatcap could not (an expression it
    /// does not evaluate), with where they are.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schemars(length(min = 1))]
    pub unevaluated: Vec<UnevaluatedValue>,
}

/// A value Heat would compute that heatcap could not.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
#[non_exhaustive]
pub struct UnevaluatedValue {
    /// The template and the place in it (`path: resources.r.properties.p`).
    pub at: String,
    /// The function heatcap did not evaluate.
    pub function: String,
    /// Why.
    pub reason: String,
}

/// The environments of a composition, for telling where a value is set.
#[derive(Clone, Copy)]
pub(crate) struct Origins<'c> {
    /// The merged environment.
    pub(crate) merged: &'c Merged,
    /// The environments' paths, in merge order.
    pub(crate) environments: &'c [String],
}

impl Origins<'_> {
    /// Where the environments write `name` in section `idx` (0:
    /// `parameters`, 1: `parameter_defaults`).
    fn environment_site(&self, idx: usize, name: &str) -> (String, Span) {
        self.merged.parameter_origins[idx]
            .get(name)
            .map(|o| {
                (
                    self.environments.get(o.env).cloned().unwrap_or_default(),
                    o.span,
                )
            })
            .unwrap_or_default()
    }
}

/// Where parameter `p` of the stack walked as `node` (template
/// `template`) takes its value, as Heat chooses it: the value passed
/// (`passed`: the environments' `parameters` at the root, `source`
/// [`Source::Parameters`]; the parent resource's property below,
/// [`Source::Property`]), else `parameter_defaults`, else its `default`.
/// The value as written and the file and key that set it; `None` when
/// nothing does.
pub(crate) fn value_source(
    origins: &Origins<'_>,
    node: &TreeNode,
    template: &str,
    p: &Parameter,
    source: Source,
    passed: &IndexMap<String, J>,
) -> Option<(Source, J, (String, Span))> {
    passed
        .get(&p.name)
        .map(|v| {
            let site = match (&node.passed_at, source) {
                (Some((from, keys)), Source::Property) => {
                    (from.clone(), keys.get(&p.name).copied().unwrap_or_default())
                }
                _ => origins.environment_site(0, &p.name),
            };
            (source, v.clone(), site)
        })
        .or_else(|| {
            origins.merged.parameter_defaults.get(&p.name).map(|v| {
                (
                    Source::ParameterDefaults,
                    v.clone(),
                    origins.environment_site(1, &p.name),
                )
            })
        })
        .or_else(|| {
            p.default().cloned().map(|v| {
                let site = (template.to_owned(), p.default_key().unwrap_or_default());
                (Source::Default, v, site)
            })
        })
}

struct Collector<'c> {
    catalog: &'c dyn Catalog,
    merged: &'c Merged,
    /// The environments' paths, in merge order.
    environments: &'c [String],
    out: IndexMap<String, ParameterInfo>,
}

/// Describes the parameters of the walked composition `root`, whose
/// environments (`merged`) have the paths `environments`.
pub(crate) fn collect(
    root: &TreeNode,
    merged: &Merged,
    environments: &[String],
    catalog: &dyn Catalog,
) -> (StackNode, IndexMap<String, ParameterInfo>) {
    let mut c = Collector {
        catalog,
        merged,
        environments,
        out: IndexMap::new(),
    };
    let tree = c.stack(root, "root".to_owned(), true);
    for info in c.out.values_mut() {
        if info.definitions.len() < 2 {
            info.definitions.clear();
        }
    }
    for (name, found) in feeds::by_parameter(root, catalog) {
        if let Some(info) = c.out.get_mut(&name) {
            info.feeds = found;
        }
    }
    (tree, c.out)
}

impl Collector<'_> {
    /// One stack: its parameters with the values its node received (the
    /// environments' at the root, the parent's evaluated properties below).
    fn stack(&mut self, node: &TreeNode, id: String, root: bool) -> StackNode {
        let path = node.template.clone().unwrap_or_default();
        let template = self.catalog.template("", &path).template;
        let mut names = Vec::new();
        let groups = parameter_groups(template.and_then(|t| t.parameter_groups.as_ref()));
        if let Some(t) = template {
            let source = if root {
                Source::Parameters
            } else {
                Source::Property
            };
            let passed: IndexMap<String, J> = node
                .values
                .iter()
                .map(|(k, v)| (k.clone(), shown(v)))
                .collect();
            for p in &t.parameters {
                names.push(p.name.clone());
                self.parameter(p, &id, &path, node, source, &passed);
            }
        }
        let mut children = Vec::new();
        for child in &node.children {
            let name = child.resource.clone().unwrap_or_default();
            let child_id = format!("{id}/{name}");
            match child.kind {
                NodeKind::Template if child.template.is_some() => {
                    children.push(self.stack(child, child_id, false));
                }
                NodeKind::Group => {
                    // A group or chain (a Heat type): its members' stacks.
                    let members = child
                        .children
                        .iter()
                        .filter(|m| m.template.is_some())
                        .map(|m| {
                            let member_id =
                                format!("{child_id}/{}", m.resource.clone().unwrap_or_default());
                            self.stack(m, member_id, false)
                        })
                        .collect();
                    children.push(StackNode {
                        id: child_id,
                        name: Some(name),
                        type_name: child.type_name.clone(),
                        template: String::new(),
                        parameters: Vec::new(),
                        parameter_groups: Vec::new(),
                        children: members,
                    });
                }
                _ => {}
            }
        }
        StackNode {
            id,
            name: node.resource.clone(),
            type_name: node.type_name.clone(),
            template: path,
            parameters: names,
            parameter_groups: groups,
            children,
        }
    }

    /// One parameter `p` of stack `stack` (template `template`, walked as
    /// `node`).
    fn parameter(
        &mut self,
        p: &Parameter,
        stack: &str,
        template: &str,
        node: &TreeNode,
        source: Source,
        passed: &IndexMap<String, J>,
    ) {
        let supplied = value_source(
            &Origins {
                merged: self.merged,
                environments: self.environments,
            },
            node,
            template,
            p,
            source,
            passed,
        );
        let info = self
            .out
            .entry(p.name.clone())
            .or_insert_with(|| ParameterInfo {
                type_name: p.type_.clone(),
                description: p.description().cloned(),
                label: p.label().cloned(),
                default: p.default().cloned(),
                hidden: p.hidden,
                constraints: p.constraints().cloned(),
                tags: p.tags().cloned(),
                declared_by: Vec::new(),
                definitions: Vec::new(),
                values: Vec::new(),
                required_in: Vec::new(),
                feeds: Vec::new(),
            });
        info.declared_by.push(stack.to_owned());
        let (type_name, constraints) = (p.type_.clone(), p.constraints().cloned());
        let same = |d: &Definition| d.type_name == type_name && d.constraints == constraints;
        if info.definitions.is_empty() {
            info.definitions.push(Definition {
                stacks: Vec::new(),
                type_name: info.type_name.clone(),
                constraints: info.constraints.clone(),
            });
        }
        match info.definitions.iter_mut().find(|d| same(d)) {
            Some(d) => d.stacks.push(stack.to_owned()),
            None => info.definitions.push(Definition {
                stacks: vec![stack.to_owned()],
                type_name,
                constraints,
            }),
        }
        match supplied {
            Some((source, value, (file, span))) => info.values.push(Supplied {
                stack: stack.to_owned(),
                file,
                span,
                invalid: (source != Source::Property)
                    .then(|| {
                        refusal(
                            p.type_.as_deref().unwrap_or("string"),
                            p.constraints(),
                            &value,
                        )
                    })
                    .flatten(),
                source,
                value,
            }),
            None => info.required_in.push(stack.to_owned()),
        }
    }
}

/// What switching one choice costs (`parameters --diff`).
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
#[non_exhaustive]
pub struct ChoiceDiff {
    #[serde(rename = "type")]
    /// The type whose choice changes.
    pub type_name: String,
    /// The template chosen before.
    pub from: String,
    /// The template chosen after.
    pub to: String,
    /// Parameters only the new choice's composition has.
    pub added: IndexMap<String, ParameterInfo>,
    /// Parameters only the old choice's composition had.
    pub removed: IndexMap<String, ParameterInfo>,
    /// Parameters in both whose schema (type, default, hidden, constraints)
    /// or need differs: name → [before, after].
    pub changed: IndexMap<String, [ParameterInfo; 2]>,
    /// Names the user must provide with the new choice but not the old.
    pub newly_required: Vec<String>,
    /// Names the user no longer has to provide.
    pub no_longer_required: Vec<String>,
}

/// Compares the parameters of two compositions that differ by one choice.
pub(crate) fn diff(
    type_name: &str,
    from: &str,
    to: &str,
    a: &IndexMap<String, ParameterInfo>,
    b: &IndexMap<String, ParameterInfo>,
) -> ChoiceDiff {
    let differs = |x: &ParameterInfo, y: &ParameterInfo| {
        x.type_name != y.type_name
            || x.default != y.default
            || x.hidden != y.hidden
            || x.constraints != y.constraints
            || x.required_in.is_empty() != y.required_in.is_empty()
    };
    let required = |m: &IndexMap<String, ParameterInfo>, n: &str| {
        m.get(n).is_some_and(|p| !p.required_in.is_empty())
    };
    ChoiceDiff {
        type_name: type_name.to_owned(),
        from: from.to_owned(),
        to: to.to_owned(),
        added: b
            .iter()
            .filter(|(n, _)| !a.contains_key(*n))
            .map(|(n, p)| (n.clone(), p.clone()))
            .collect(),
        removed: a
            .iter()
            .filter(|(n, _)| !b.contains_key(*n))
            .map(|(n, p)| (n.clone(), p.clone()))
            .collect(),
        changed: a
            .iter()
            .filter_map(|(n, x)| {
                b.get(n)
                    .filter(|y| differs(x, y))
                    .map(|y| (n.clone(), [x.clone(), y.clone()]))
            })
            .collect(),
        newly_required: b
            .keys()
            .filter(|n| required(b, n) && !required(a, n))
            .cloned()
            .collect(),
        no_longer_required: a
            .keys()
            .filter(|n| required(a, n) && !required(b, n))
            .cloned()
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn info(ty: &str, required: bool) -> ParameterInfo {
        ParameterInfo {
            type_name: Some(ty.to_owned()),
            description: None,
            label: None,
            default: None,
            hidden: false,
            constraints: None,
            tags: None,
            declared_by: vec!["root".into()],
            definitions: Vec::new(),
            values: Vec::new(),
            required_in: if required {
                vec!["root".into()]
            } else {
                Vec::new()
            },
            feeds: Vec::new(),
        }
    }

    #[test]
    fn parameter_groups_are_read_as_heat_shows_them() {
        let written = json!([
            {"label": "deprecated", "description": "Do not use.", "parameters": ["a", 5, "b"]},
            "not a group",
            {"parameters": "c"},
        ]);
        let groups = parameter_groups(Some(&written));
        assert_eq!(groups.len(), 2);
        assert_eq!(groups[0].label.as_deref(), Some("deprecated"));
        assert_eq!(groups[0].description.as_deref(), Some("Do not use."));
        assert_eq!(groups[0].parameters, ["a", "b"]);
        assert_eq!(groups[1].label, None);
        assert!(groups[1].parameters.is_empty());
        assert!(parameter_groups(Some(&json!({"a": 1}))).is_empty());
        assert!(parameter_groups(None).is_empty());
    }

    #[test]
    fn values_heat_does_not_read_as_given_are_not_known() {
        assert_eq!(check_value("number", None, &J::Null), ValueCheck::Unknown);
        assert_eq!(
            check_value("number", None, &json!("nan")),
            ValueCheck::Unknown
        );
        assert_eq!(
            check_value("number", None, &json!("7")),
            ValueCheck::Accepted(json!(7))
        );
        assert!(matches!(
            check_value("boolean", None, &json!(2)),
            ValueCheck::Refused {
                converting: true,
                ..
            }
        ));
        let range = json!([{"range": {"max": 1}}]);
        assert!(matches!(
            check_value("number", Some(&range), &json!(2)),
            ValueCheck::Refused {
                converting: false,
                ..
            }
        ));
    }

    #[test]
    fn refusals_are_heats_words() {
        let range = json!([{"range": {"min": 1, "max": 10}}]);
        assert_eq!(
            refusal("number", Some(&range), &json!(20)).as_deref(),
            Some("20 is out of range (min: 1, max: 10)")
        );
        assert_eq!(refusal("number", Some(&range), &json!("7")), None);
        assert_eq!(
            refusal("number", None, &json!("many")).as_deref(),
            Some("could not convert string to float: 'many'")
        );
        let allowed = json!([{"allowed_values": ["a", "b"], "description": "a or b"}]);
        assert_eq!(
            refusal("string", Some(&allowed), &json!("c")).as_deref(),
            Some("a or b")
        );
        let listed = json!([{"allowed_values": ["a", "b"]}]);
        assert_eq!(
            refusal("comma_delimited_list", Some(&listed), &json!("a,c")).as_deref(),
            Some("[\"a\", \"c\"] is not an allowed value [\"a\", \"b\"]")
        );
        assert_eq!(
            refusal("comma_delimited_list", Some(&listed), &json!(["a", "b"])),
            None
        );
    }

    #[test]
    fn diff_reports_added_removed_changed_and_need() {
        let a: IndexMap<_, _> = [
            ("Keep".to_owned(), info("string", false)),
            ("Gone".to_owned(), info("string", true)),
            ("Now".to_owned(), info("string", false)),
        ]
        .into();
        let b: IndexMap<_, _> = [
            ("Keep".to_owned(), info("string", false)),
            ("New".to_owned(), info("json", true)),
            ("Now".to_owned(), info("string", true)),
        ]
        .into();
        let d = diff("T", "a.yaml", "b.yaml", &a, &b);
        assert_eq!(d.added.keys().collect::<Vec<_>>(), ["New"]);
        assert_eq!(d.removed.keys().collect::<Vec<_>>(), ["Gone"]);
        assert_eq!(d.changed.keys().collect::<Vec<_>>(), ["Now"]);
        assert_eq!(d.newly_required, ["New", "Now"]);
        assert_eq!(d.no_longer_required, ["Gone"]);
    }
}
