//! E7014 (`validate -e`): the values the environments give parameters,
//! against each parameter's type and constraints, as Heat checks them when
//! it creates the stack (`Parameter.validate` with `validate_value`; its
//! `template validate` checks no value). At the root a value comes from
//! the environments' `parameters` or `parameter_defaults`; in a nested
//! stack from `parameter_defaults` when the parent passes no property of
//! that name (Heat makes it the nested parameter's default, so its words
//! are "Invalid default"). Recorded: tests/heat/env-value-verdicts.json.

use indexmap::IndexMap;
use serde_json::Value as J;

use crate::diag::{codes, Diagnostic, Span};
use crate::eval::python;
use crate::model::{Environment, Template};
use crate::product::feeds::{by_parameter, PropertyConstraint};
use crate::product::parameters::{check_value, ValueCheck};
use crate::resolve::compose::TreeNode;
use crate::resolve::merge::Merged;
use crate::resolve::Catalog;
use crate::validate::hot::plugin_schema::property_violation;

/// Where an environment value is written, and which section.
struct Source<'e> {
    env: &'e str,
    span: Span,
    section: &'static str,
}

/// The environment that gave the merged value of `name` in `section` (0:
/// `parameters`, 1: `parameter_defaults`): the last one whose value is the
/// merged one (a later file's name no template declares is dropped by the
/// merge, as Heat drops it).
fn source<'e>(
    envs: &'e [Environment],
    section: usize,
    name: &str,
    merged: &J,
) -> Option<Source<'e>> {
    envs.iter().rev().find_map(|e| {
        let values = if section == 0 {
            &e.parameters
        } else {
            &e.parameter_defaults
        };
        (values.get(name) == Some(merged)).then(|| Source {
            env: e.path.as_str(),
            span: e.parameter_keys[section]
                .get(name)
                .copied()
                .unwrap_or_default(),
            section: if section == 0 {
                "parameters"
            } else {
                "parameter_defaults"
            },
        })
    })
}

/// A value the environments give a parameter that the parameter accepts:
/// what it is, as `get_param` gives it, and where it is written.
struct Accepted<'e> {
    raw: J,
    value: J,
    source: Source<'e>,
}

/// E7014 for every stack of a composition tree (`root`: its root node):
/// values the parameters refuse, then values they accept that a native
/// property they feed refuses.
pub(super) fn check(
    root: &TreeNode,
    envs: &[Environment],
    merged: &Merged,
    catalog: &dyn Catalog,
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let mut accepted: IndexMap<String, Option<Accepted<'_>>> = IndexMap::new();
    walk(root, "", envs, merged, catalog, &mut accepted, &mut out);
    let feeds = by_parameter(root, catalog);
    for (name, found) in accepted {
        // A name whose value differs between stacks (root `parameters`
        // over `parameter_defaults`) is left alone: its feeds are merged.
        let (Some(a), Some(feeds)) = (found, feeds.get(&name)) else {
            continue;
        };
        for f in feeds {
            let constraints = J::Array(
                f.constraints
                    .iter()
                    .filter(|c| !matches!(c, PropertyConstraint::Custom { .. }))
                    .filter_map(|c| serde_json::to_value(c).ok())
                    .collect(),
            );
            let Some(why) = property_violation(&f.property_type, &constraints, &a.value) else {
                continue;
            };
            let mut ids = f.resource.split('/').skip(1);
            let heat = match (ids.next(), ids.next()) {
                (Some(res), None) => format!(
                    "Property error: resources.{res}.properties.{}: {why}",
                    f.property
                ),
                _ => format!("Property error: {}: {why}", f.property),
            };
            out.push(
                Diagnostic::new(
                    codes::INVALID_PARAMETER_VALUE,
                    a.source.env,
                    format!(
                        "{}.{name}: {} does not fit property `{}` of `{}` {} (in `{}`), which parameter `{name}` feeds (Heat at create: {heat})",
                        a.source.section,
                        python::json_dumps(&a.raw, false),
                        f.property,
                        f.type_name,
                        f.resource,
                        f.template,
                    ),
                )
                .at(a.source.span),
            );
        }
    }
    out
}

fn walk<'e>(
    node: &TreeNode,
    stack: &str,
    envs: &'e [Environment],
    merged: &Merged,
    catalog: &dyn Catalog,
    accepted: &mut IndexMap<String, Option<Accepted<'e>>>,
    out: &mut Vec<Diagnostic>,
) {
    if let Some(path) = &node.template {
        if let Some(t) = catalog.template("", path).template {
            stack_values(node, stack, path, t, envs, merged, accepted, out);
        }
    }
    for c in &node.children {
        let name = c.resource.as_deref().unwrap_or("?");
        let here = if stack.is_empty() {
            format!("resources.{name}")
        } else {
            format!("{stack}.resources.{name}")
        };
        walk(c, &here, envs, merged, catalog, accepted, out);
    }
}

#[allow(clippy::too_many_arguments)]
fn stack_values<'e>(
    node: &TreeNode,
    stack: &str,
    path: &str,
    t: &Template,
    envs: &'e [Environment],
    merged: &Merged,
    accepted: &mut IndexMap<String, Option<Accepted<'e>>>,
    out: &mut Vec<Diagnostic>,
) {
    let root = node.depth == 0;
    for p in &t.parameters {
        let given: Option<(usize, &J)> = if root {
            merged
                .parameters
                .get(&p.name)
                .map(|v| (0, v))
                .or_else(|| merged.parameter_defaults.get(&p.name).map(|v| (1, v)))
        } else if node.values.contains_key(&p.name) {
            None
        } else {
            merged.parameter_defaults.get(&p.name).map(|v| (1, v))
        };
        // A null value is no value to Heat ("not given").
        let Some((section, raw)) = given.filter(|(_, v)| !v.is_null()) else {
            continue;
        };
        let type_name = p.type_.as_deref().unwrap_or("string");
        let Some(src) = source(envs, section, &p.name, raw) else {
            continue;
        };
        let why = match check_value(type_name, p.constraints(), raw) {
            ValueCheck::Accepted(value) => {
                let same = |a: &Accepted<'_>| a.raw == *raw;
                accepted
                    .entry(p.name.clone())
                    .and_modify(|seen| {
                        if !seen.as_ref().is_some_and(same) {
                            *seen = None;
                        }
                    })
                    .or_insert(Some(Accepted {
                        raw: raw.clone(),
                        value,
                        source: src,
                    }));
                continue;
            }
            ValueCheck::Unknown => continue,
            // In a nested stack Heat checks a default from
            // `parameter_defaults` against the constraints only, not the
            // type (`_validate_default`): a value of the wrong type fails
            // only where a resource uses it.
            ValueCheck::Refused {
                converting: true, ..
            } if !root => continue,
            ValueCheck::Refused { why, .. } => why,
        };
        let heat = if root {
            format!("Parameter '{}' is invalid: {why}", p.name)
        } else {
            format!(
                "Parameter '{}' is invalid: Invalid default {} ({why})",
                p.name,
                python::str(raw)
            )
        };
        let whose = if root {
            format!("`{path}`")
        } else {
            format!("`{path}` (nested stack {stack})")
        };
        out.push(
            Diagnostic::new(
                codes::INVALID_PARAMETER_VALUE,
                src.env,
                format!(
                    "{}.{}: {} does not fit parameter `{}` of {whose} (Heat at create: {heat})",
                    src.section,
                    p.name,
                    python::json_dumps(raw, false),
                    p.name
                ),
            )
            .at(src.span),
        );
    }
}
