//! What to say about what a position names (markdown).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::diag::Span;
use crate::heat_schema;
use crate::model::environment::Environment;
use crate::node::Node;
use crate::resolve::Implementation;

use super::super::Workspace;
use super::{is_environment, is_template_name, json_text, property_schema, Target};

/// The evaluated composition of the root template, as `heatcap
/// parameters` reports it (the same evaluation): where a nested
/// template's parameters get their values.
pub(crate) struct Composed {
    /// `parameters`' report of it.
    pub report: crate::product::parameters::ParametersReport,
}

impl Composed {
    /// Evaluates the composition of `root` with `environments`, the files
    /// read as `load` says, as `heatcap parameters -t ROOT -e ENV...` does.
    pub(crate) fn evaluate(
        load: crate::load::LoadOptions,
        environments: &[PathBuf],
        root: &Path,
    ) -> Composed {
        let shown = crate::walk::display(root);
        let ws = Workspace::builder()
            .load_options(load)
            .environments(environments)
            .roots(&[&shown])
            .open();
        let (report, _) = ws.parameters(&shown);
        Composed { report }
    }
}

/// Whether hovering `target` in `file` (parsed as `root`) asks for the
/// evaluated composition of the root template `template`: a parameter of
/// a template (the root's own too: its value is the one `parameters`
/// gives, after Heat's merge of the environments).
pub(crate) fn wants_composition(
    _file: &Path,
    root: &Node,
    target: &Target,
    template: Option<&Path>,
) -> bool {
    matches!(target, Target::Parameter(_)) && !is_environment(root) && template.is_some()
}

/// The same file, whatever the form of the paths.
fn same_file(a: &Path, b: &Path) -> bool {
    let norm = |p: &Path| {
        std::path::absolute(p)
            .map(|a| crate::walk::normalize(&a))
            .unwrap_or_default()
    };
    norm(a) == norm(b)
}

/// A stack of the composition, with its ancestors (nearest first).
fn stacks_of<'a>(
    node: &'a crate::product::parameters::StackNode,
    parents: &mut Vec<&'a crate::product::parameters::StackNode>,
    out: &mut Vec<(
        &'a crate::product::parameters::StackNode,
        Vec<&'a crate::product::parameters::StackNode>,
    )>,
) {
    out.push((node, parents.iter().rev().copied().collect()));
    parents.push(node);
    for c in &node.children {
        stacks_of(c, parents, out);
    }
    parents.pop();
}

/// The value `composed` gives parameter `name` of the template `file`
/// (not the root), and where it is set: one line of markdown.
fn nested_value(composed: &Composed, file: &Path, name: &str) -> Option<String> {
    use crate::product::parameters::Source;
    let report = &composed.report;
    let mut stacks = Vec::new();
    stacks_of(&report.tree, &mut Vec::new(), &mut stacks);
    let here: Vec<_> = stacks
        .iter()
        .filter(|(s, _)| !s.template.is_empty() && same_file(Path::new(&s.template), file))
        .collect();
    let (node, up) = here.first()?;
    let info = report.parameters.get(name)?;
    // Where the value is set is the core's answer (`parameters`' `file`
    // and `span` of the value), not worked out again here.
    let mut out = match info.values.iter().find(|v| v.stack == node.id) {
        Some(v) => {
            let value = json_text(&v.value);
            let at = if v.file.is_empty() {
                String::new()
            } else {
                format!(", set in `{}:{}`", v.file, v.span.start.line)
            };
            let how = match v.source {
                Source::Property => {
                    // A group's member gets it from the group's `resource_def`.
                    let resource = match up.first() {
                        Some(p) if p.template.is_empty() => p.name.as_deref(),
                        _ => node.name.as_deref(),
                    };
                    format!("property of resource `{}`", resource.unwrap_or_default())
                }
                Source::ParameterDefaults => "parameter_defaults".to_owned(),
                Source::Parameters => "parameters".to_owned(),
                Source::Default => "the default".to_owned(),
            };
            let stack = if up.is_empty() {
                String::new()
            } else {
                format!(", stack `{}`", node.id)
            };
            format!("**Effective value**: `{value}`{at} ({how}{stack})")
        }
        None if up.is_empty() => "**Effective value**: none (the user must provide it)".to_owned(),
        None => format!(
            "**Effective value**: none in stack `{}` (the user must provide it)",
            node.id
        ),
    };
    if here.len() > 1 {
        let _ = write!(
            out,
            "\n\nThe composition instantiates this template {} times; the first is shown.",
            here.len()
        );
    }
    Some(out)
}

/// Markdown about `target` in the document `file`; `composed` is the
/// evaluated composition of the root template, for a parameter of a
/// nested template.
pub(crate) fn hover(
    ws: Option<&Workspace>,
    composed: Option<&Composed>,
    file: &Path,
    root: &Node,
    target: &Target,
) -> Option<String> {
    match target {
        Target::Parameter(name) => {
            let nested = composed
                .filter(|_| !is_environment(root))
                .and_then(|c| nested_value(c, file, name));
            Some(parameter_hover(ws, root, name, nested))
        }
        Target::Type { name, resource } => Some(type_hover(ws, file, name, resource.as_deref())),
        Target::Property { resource, path } => property_hover(root, resource, path),
        Target::Attribute {
            resource,
            attribute,
        } => {
            let ty = resource_type(root, resource)?;
            let found = heat_schema::heat().lookup(&ty)?;
            let a = found.ty.attribute(attribute)?;
            Some(format!(
                "**{attribute}** (attribute of `{ty}`)\n\n{}",
                a.description.as_deref().unwrap_or("")
            ))
        }
        Target::Resource(name) => {
            let ty = resource_type(root, name).unwrap_or_default();
            Some(format!("resource **{name}**: `{ty}`"))
        }
        Target::File(path) => Some(format!("file `{path}`")),
    }
}

fn resource_type(root: &Node, name: &str) -> Option<String> {
    let r = root.as_map()?.get("resources")?.as_map()?.get(name)?;
    Some(r.as_map()?.get("type")?.as_str()?.to_owned())
}

/// Where an environment of `ws` sets parameter `name` last: (value,
/// environment, span of the key, section); `parameters` are the root
/// stack's only.
fn effective(
    ws: &Workspace,
    name: &str,
    root: bool,
) -> Option<(serde_json::Value, String, Option<Span>, &'static str)> {
    let envs: &[Environment] = ws.environments();
    let sections: &[(&str, usize)] = if root {
        &[("parameters", 0), ("parameter_defaults", 1)]
    } else {
        &[("parameter_defaults", 1)]
    };
    for &(section, idx) in sections {
        for env in envs.iter().rev() {
            let values = if idx == 0 {
                &env.parameters
            } else {
                &env.parameter_defaults
            };
            if let Some(v) = values.get(name) {
                let span = env.parameter_keys[idx].get(name).copied();
                return Some((v.clone(), env.path.clone(), span, section));
            }
        }
    }
    None
}

fn parameter_hover(
    ws: Option<&Workspace>,
    root: &Node,
    name: &str,
    nested: Option<String>,
) -> String {
    let mut out = format!("parameter **{name}**");
    let decl = root
        .as_map()
        .filter(|_| !is_environment(root))
        .and_then(|m| m.get("parameters"))
        .and_then(Node::as_map)
        .and_then(|m| m.get(name))
        .and_then(Node::as_map);
    if let Some(d) = decl {
        if let Some(t) = d.get("type").and_then(Node::as_str) {
            let _ = write!(out, ": `{t}`");
        }
        if let Some(desc) = d.get("description").and_then(Node::as_str) {
            let _ = write!(out, "\n\n{}", desc.trim());
        }
    }
    if let Some(nested) = nested {
        let _ = write!(out, "\n\n{nested}");
        return out;
    }
    let default = decl.and_then(|d| d.entry("default"));
    let set = ws.and_then(|ws| effective(ws, name, true));
    match (set, default) {
        (Some((value, env, span, section)), _) => {
            let line = span
                .map(|s| format!(":{}", s.start.line))
                .unwrap_or_default();
            let _ = write!(
                out,
                "\n\n**Effective value**: `{}`, set in `{env}{line}` ({section})",
                json_text(&value)
            );
        }
        (None, Some((k, v))) => {
            let _ = write!(
                out,
                "\n\n**Effective value**: `{}`, the default (line {})",
                json_text(&v.value.to_json()),
                k.span.start.line
            );
        }
        (None, None) => out.push_str("\n\n**Effective value**: none (the user must provide it)"),
    }
    out
}

fn type_hover(ws: Option<&Workspace>, file: &Path, name: &str, resource: Option<&str>) -> String {
    let mut out = format!("**{name}**");
    if let Some(found) = heat_schema::heat().lookup(name) {
        let ty = found.ty;
        let _ = write!(
            out,
            " (Heat {}, {})\n\n{}",
            heat_schema::heat().heat_version,
            ty.support_status.status.name(),
            ty.description.trim()
        );
        let required: Vec<&str> = ty.required_properties().collect();
        if !required.is_empty() {
            let _ = write!(out, "\n\nRequired properties: `{}`", required.join("`, `"));
        }
        return out;
    }
    if is_template_name(name) {
        out.push_str(": a provider template");
        return out;
    }
    let Some(ws) = ws else {
        out.push_str("\n\nNot one of Heat's types; name the environments (`.heatcap.yaml` `environments`) to see what they pick.");
        return out;
    };
    let shown = crate::walk::display(file);
    let found = ws.registry().lookup(name, resource, Some(&shown));
    match (&found.implementation, found.message()) {
        (Some(Implementation::Template(t)), _) => {
            let _ = write!(out, "\n\nThe environments pick `{t}`");
        }
        (Some(Implementation::Plugin(p)), _) => {
            let _ = write!(out, "\n\nThe environments pick Heat's `{p}`");
        }
        (None, Some(m)) => {
            let _ = write!(out, "\n\nNot resolved: {m}");
        }
        (None, None) => {}
    }
    if let Some(step) = found.chain.iter().rev().find(|s| s.environment.is_some()) {
        let line = step
            .span
            .map(|s| format!(":{}", s.start.line))
            .unwrap_or_default();
        let _ = write!(
            out,
            " (entry in `{}{line}`)",
            step.environment.as_deref().unwrap_or_default()
        );
    }
    let mut candidates = Vec::new();
    for env in ws.environments() {
        for e in env.entries.iter().filter(|e| e.key == name) {
            candidates.push(format!(
                "- `{}` in `{}:{}`",
                json_text(&e.node.value.to_json()),
                env.path,
                e.span.start.line
            ));
        }
    }
    if !candidates.is_empty() {
        out.push_str("\n\nEntries mapping it, in order (the last wins):\n");
        out.push_str(&candidates.join("\n"));
    }
    out
}

fn property_hover(root: &Node, resource: &str, path: &[String]) -> Option<String> {
    let ty = resource_type(root, resource)?;
    let found = heat_schema::heat().lookup(&ty)?;
    let schema = property_schema(found.ty.properties.get(path.first()?)?, &path[1..])?;
    let name = path.last()?;
    let mut out = format!(
        "**{name}** ({}{}) of `{ty}`",
        schema.kind.name(),
        if schema.required { ", required" } else { "" }
    );
    if let Some(d) = &schema.description {
        let _ = write!(out, "\n\n{}", d.trim());
    }
    if let Some(d) = &schema.default {
        let _ = write!(out, "\n\nDefault: `{}`", json_text(d));
    }
    for c in &schema.constraints {
        let _ = write!(
            out,
            "\n\nConstraint: `{}`",
            json_text(&serde_json::to_value(c).unwrap_or_default())
        );
    }
    out.push_str(if schema.update_allowed {
        "\n\nCan be updated in place."
    } else {
        "\n\nChanging it replaces the resource."
    });
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::super::tests::parse;
    use super::*;

    /// A nested template's parameter: the value `parameters` evaluates,
    /// and the parent's property that sets it.
    #[test]
    fn hover_follows_a_parameter_to_the_parents_property() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/lsp/compose");
        let composed = Composed::evaluate(
            crate::load::LoadOptions::default(),
            &[dir.join("env.yaml")],
            &dir.join("root.yaml"),
        );
        let app = dir.join("app.yaml");
        let text = std::fs::read_to_string(&app).unwrap();
        let root = parse(&text);
        let at_line = |needle: &str| {
            let text = std::fs::read_to_string(dir.join("root.yaml")).unwrap();
            1 + text
                .lines()
                .position(|l| l.trim_start().starts_with(needle))
                .unwrap()
        };
        let h = hover(
            None,
            Some(&composed),
            &app,
            &root,
            &Target::Parameter("size".into()),
        )
        .unwrap();
        assert!(
            h.contains(&format!("**Effective value**: `3`, set in `{}:{}` (property of resource `app`, stack `root/app`)", dir.join("root.yaml").display(), at_line("size:"))),
            "{h}"
        );
        // Evaluated: the parent passes its own parameter's default.
        let h = hover(
            None,
            Some(&composed),
            &app,
            &root,
            &Target::Parameter("flavor".into()),
        )
        .unwrap();
        assert!(
            h.contains(&format!(
                "`\"m1.small\"`, set in `{}:{}`",
                dir.join("root.yaml").display(),
                at_line("flavor: {get_param")
            )),
            "{h}"
        );
        assert!(wants_composition(
            &app,
            &root,
            &Target::Parameter("size".into()),
            Some(&dir.join("root.yaml"))
        ));
        assert!(!wants_composition(
            &app,
            &root,
            &Target::Parameter("size".into()),
            None
        ));
    }

    /// The root template's own parameter: the value `parameters` gives,
    /// after Heat's merge (a later environment's null is dropped, so the
    /// earlier file's value stays), and the line that sets it.
    #[test]
    fn hover_on_the_roots_parameter_is_parameters_answer() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/lsp/compose");
        let tmp = tempfile::tempdir().unwrap();
        let first = tmp.path().join("first.yaml");
        let later = tmp.path().join("later.yaml");
        std::fs::write(&first, "parameter_defaults:\n  flavor: m1.large\n").unwrap();
        std::fs::write(&later, "parameter_defaults:\n  flavor: null\n").unwrap();
        let root_path = dir.join("root.yaml");
        let composed = Composed::evaluate(
            crate::load::LoadOptions::default(),
            &[dir.join("env.yaml"), first.clone(), later],
            &root_path,
        );
        let root = parse(&std::fs::read_to_string(&root_path).unwrap());
        let target = Target::Parameter("flavor".into());
        assert!(wants_composition(
            &root_path,
            &root,
            &target,
            Some(&root_path)
        ));
        let h = hover(None, Some(&composed), &root_path, &root, &target).unwrap();
        assert!(
            h.contains(&format!(
                "**Effective value**: `\"m1.large\"`, set in `{}:2` (parameter_defaults)",
                first.display()
            )),
            "{h}"
        );
    }
}
