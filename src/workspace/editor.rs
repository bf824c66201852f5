//! What an editor asks about one open file (`heatcap lsp`): what is at a
//! position, where it is defined, what to say about it, what may be typed
//! there, and the file's outline. The answers are plain data with
//! heatcap's positions (1-based lines, columns in characters); the
//! language server only converts them to the protocol's.
//!
//! Positions in a parsed tree come from [`locate`]; completion reads the
//! text around the cursor ([`context`]), because a half-typed buffer often
//! does not parse.

use crate::vfs::FileOverlay;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::diag::{Pos, Span};
use crate::heat_schema::{self, PropertySchema};
use crate::model::environment::Environment;
use crate::node::{Node, Value};
use crate::resolve::Implementation;

use super::Workspace;

/// What is at a position of a parsed document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Cursor {
    /// Keys (and list indices) from the root to the node.
    pub path: Vec<String>,
    /// The position is on the key of the last segment, not on its value.
    pub on_key: bool,
    /// The scalar's text, when the node is a scalar.
    pub text: Option<String>,
    /// Where the node (or key) is.
    pub span: Span,
}

fn contains(span: Span, pos: Pos) -> bool {
    span.start <= pos && pos <= span.end
}

/// The deepest key or scalar at `pos` in `root`.
pub(crate) fn locate(root: &Node, pos: Pos) -> Option<Cursor> {
    let mut path = Vec::new();
    let mut node = root;
    loop {
        match &node.value {
            Value::Map(m) => {
                let mut next = None;
                for (k, v) in &m.entries {
                    if contains(k.span, pos) {
                        path.push(k.value.key_text());
                        return Some(Cursor {
                            path,
                            on_key: true,
                            text: Some(k.value.key_text()),
                            span: k.span,
                        });
                    }
                    if contains(v.span, pos) && !matches!(v.value, Value::Null) {
                        next = Some((k.value.key_text(), v));
                    }
                }
                let (key, v) = next?;
                path.push(key);
                node = v;
            }
            Value::Seq(items) => {
                let (i, v) = items
                    .iter()
                    .enumerate()
                    .find(|(_, v)| contains(v.span, pos))?;
                path.push(i.to_string());
                node = v;
            }
            _ => {
                return Some(Cursor {
                    path,
                    on_key: false,
                    text: node.value.scalar_text(),
                    span: node.span,
                })
            }
        }
    }
}

/// What a position names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Target {
    /// A parameter (`get_param`, or its declaration).
    Parameter(String),
    /// A resource (`get_resource`, `get_attr`'s first item, `depends_on`,
    /// or its declaration).
    Resource(String),
    /// An attribute of a resource (`get_attr`'s second item).
    Attribute {
        /// The resource.
        resource: String,
        /// The attribute.
        attribute: String,
    },
    /// A file (`get_file`, a registry entry's template).
    File(String),
    /// A resource type (a resource's `type`, a registry key), with the
    /// resource where per-resource entries apply.
    Type {
        /// The type as written.
        name: String,
        /// The resource that has it.
        resource: Option<String>,
    },
    /// A property of a resource.
    Property {
        /// The resource.
        resource: String,
        /// Keys from the property down.
        path: Vec<String>,
    },
}

/// What `cursor` names in `root`.
pub(crate) fn target(root: &Node, cursor: &Cursor) -> Option<Target> {
    let p: Vec<&str> = cursor.path.iter().map(String::as_str).collect();
    let text = cursor.text.clone().unwrap_or_default();
    let env = is_environment(root);
    let last = |n: usize| p.len().checked_sub(n).map(|i| &p[i..]);
    if env {
        return match p.as_slice() {
            ["resource_registry", key] | ["resource_registry", "resources", _, key]
                if cursor.on_key =>
            {
                Some(Target::Type {
                    name: (*key).to_owned(),
                    resource: None,
                })
            }
            ["resource_registry", _] | ["resource_registry", "resources", _, _] => {
                Some(Target::File(text))
            }
            ["parameters" | "parameter_defaults", name] => {
                Some(Target::Parameter((*name).to_owned()))
            }
            _ => None,
        };
    }
    match p.as_slice() {
        ["parameters", name] if cursor.on_key => {
            return Some(Target::Parameter((*name).to_owned()))
        }
        ["resources", name] if cursor.on_key => return Some(Target::Resource((*name).to_owned())),
        ["resources", name, "type"] if !cursor.on_key => {
            return Some(Target::Type {
                name: text,
                resource: Some((*name).to_owned()),
            })
        }
        // A group's member definition (`OS::Heat::ResourceGroup`).
        ["resources", _, "properties", "resource_def", "type"] if !cursor.on_key => {
            return Some(Target::Type {
                name: text,
                resource: None,
            })
        }
        ["resources", _, "depends_on"] | ["resources", _, "depends_on", _] if !cursor.on_key => {
            return Some(Target::Resource(text))
        }
        ["resources", name, "properties", rest @ ..]
            if cursor.on_key && !rest.iter().any(|k| is_function(k)) =>
        {
            return Some(Target::Property {
                resource: (*name).to_owned(),
                path: rest.iter().map(|s| (*s).to_owned()).collect(),
            })
        }
        _ => {}
    }
    if cursor.on_key {
        return None;
    }
    if let Some([f] | [f, "0"]) = last(1).filter(|l| l.len() == 1).or(last(2)) {
        if let Some(t) = function_target(f, &text) {
            return Some(t);
        }
    }
    if let Some([.., "get_attr", "1"]) = last(2).map(|_| p.as_slice()) {
        let mut at = cursor.path.clone();
        at.pop();
        at.push("0".into());
        let resource = node_at(root, &at)?.as_str()?.to_owned();
        return Some(Target::Attribute {
            resource,
            attribute: text,
        });
    }
    None
}

fn function_target(f: &str, text: &str) -> Option<Target> {
    match f {
        "get_param" => Some(Target::Parameter(text.to_owned())),
        "get_resource" | "get_attr" => Some(Target::Resource(text.to_owned())),
        "get_file" => Some(Target::File(text.to_owned())),
        _ => None,
    }
}

fn is_function(key: &str) -> bool {
    crate::eval::tables::FUNCTIONS
        .iter()
        .any(|(f, _, _)| *f == key)
}

fn node_at<'a>(root: &'a Node, path: &[String]) -> Option<&'a Node> {
    let mut node = root;
    for k in path {
        node = match &node.value {
            Value::Map(m) => m.get(k)?,
            Value::Seq(items) => items.get(k.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    Some(node)
}

/// An environment file rather than a template (no `heat_template_version`).
pub(crate) fn is_environment(root: &Node) -> bool {
    root.as_map().is_some_and(|m| {
        !m.contains_key("heat_template_version")
            && !m.contains_key("HeatTemplateFormatVersion")
            && !m.contains_key("AWSTemplateFormatVersion")
    })
}

/// A place to go to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Place {
    /// The file.
    pub file: PathBuf,
    /// Where in it (`None`: its start).
    pub span: Option<Span>,
}

/// The directory paths in `file` are relative to.
fn dir_of(file: &Path) -> PathBuf {
    file.parent().map(Path::to_path_buf).unwrap_or_default()
}

/// Where `target` in the document `file` (parsed as `root`) is defined:
/// declarations in the same file, files relative to it, and for a type
/// the template the workspace's environments pick.
pub(crate) fn definition(
    files: &FileOverlay,
    ws: Option<&Workspace>,
    file: &Path,
    root: &Node,
    target: &Target,
) -> Vec<Place> {
    let here = |section: &str, name: &str| {
        root.as_map()
            .and_then(|m| m.get(section))
            .and_then(Node::as_map)
            .and_then(|m| m.entry(name))
            .map(|(k, _)| Place {
                file: file.to_path_buf(),
                span: Some(k.span),
            })
    };
    match target {
        Target::Parameter(name) if !is_environment(root) => {
            here("parameters", name).into_iter().collect()
        }
        Target::Resource(name) | Target::Attribute { resource: name, .. } => {
            here("resources", name).into_iter().collect()
        }
        Target::File(path) => file_place(files, file, path).into_iter().collect(),
        Target::Type { name, resource } => {
            if is_template_name(name) {
                return file_place(files, file, name).into_iter().collect();
            }
            let Some(ws) = ws else {
                return Vec::new();
            };
            let shown = crate::walk::display(file);
            let found = ws
                .registry()
                .lookup(name, resource.as_deref(), Some(&shown));
            match found.implementation {
                Some(Implementation::Template(t)) => vec![Place {
                    file: PathBuf::from(t),
                    span: None,
                }],
                _ => Vec::new(),
            }
        }
        _ => Vec::new(),
    }
}

fn is_template_name(name: &str) -> bool {
    !name.contains("::") && crate::model::registry::is_template_path(name)
}

fn file_place(files: &FileOverlay, from: &Path, path: &str) -> Option<Place> {
    if path.is_empty() || path.contains("://") {
        return None;
    }
    let p = dir_of(from).join(path);
    files.is_file(&p).then_some(Place {
        file: p,
        span: None,
    })
}

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

fn json_text(v: &serde_json::Value) -> String {
    crate::encode::json::to_string(v)
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

/// The schema at `rest` below `schema` (map fields by name, list items by
/// any index).
fn property_schema<'a>(schema: &'a PropertySchema, rest: &[String]) -> Option<&'a PropertySchema> {
    let mut s = schema;
    for k in rest {
        s = if k.parse::<usize>().is_ok() {
            s.item_schema()?
        } else {
            s.fields()
                .or_else(|| s.item_schema().and_then(PropertySchema::fields))?
                .get(k)?
        };
    }
    Some(s)
}

/// One entry of a file's outline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Symbol {
    /// Its name.
    pub name: String,
    /// What it is (`parameter`, `resource`, `output`, `section`, ...).
    pub kind: &'static str,
    /// A detail (a resource's type, a registry entry's target).
    pub detail: Option<String>,
    /// The whole entry (key to end of value).
    pub span: Span,
    /// Its key.
    pub key_span: Span,
    /// Entries inside it.
    pub children: Vec<Symbol>,
}

/// The outline of a parsed document: its sections, with the parameters,
/// resources, outputs and conditions (templates) or the registry entries
/// and parameters (environments) inside them.
pub(crate) fn symbols(root: &Node) -> Vec<Symbol> {
    let Some(m) = root.as_map() else {
        return Vec::new();
    };
    let entry = |k: &Node, v: &Node, kind: &'static str, detail: Option<String>| Symbol {
        name: k.value.key_text(),
        kind,
        detail,
        span: Span {
            start: k.span.start,
            end: v.span.end.max(k.span.end),
        },
        key_span: k.span,
        children: Vec::new(),
    };
    m.entries
        .iter()
        .map(|(k, v)| {
            let section = k.value.key_text();
            let kind = match section.as_str() {
                "parameters" | "parameter_defaults" => "parameter",
                "resources" => "resource",
                "outputs" => "output",
                "conditions" => "condition",
                "resource_registry" => "registry entry",
                _ => "",
            };
            let mut s = entry(k, v, "section", None);
            if !kind.is_empty() {
                if let Some(inner) = v.as_map() {
                    s.children = inner
                        .entries
                        .iter()
                        .map(|(ck, cv)| {
                            let detail = match kind {
                                "resource" => cv
                                    .as_map()
                                    .and_then(|r| r.get("type"))
                                    .and_then(|n| n.value.scalar_text()),
                                "parameter" if section == "parameters" && !is_environment(root) => {
                                    cv.as_map()
                                        .and_then(|r| r.get("type"))
                                        .and_then(|n| n.value.scalar_text())
                                }
                                _ => cv.value.scalar_text(),
                            };
                            entry(ck, cv, kind, detail)
                        })
                        .collect();
                }
            }
            s
        })
        .collect()
}

/// The text around a cursor, read without parsing (a half-typed buffer
/// often does not parse).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct Context {
    /// Keys of the enclosing block mappings, from the top (by indentation).
    pub path: Vec<String>,
    /// The key whose value is being typed (`type` in `type: OS::No`).
    pub key: Option<String>,
    /// The function whose argument is being typed, and the argument's
    /// index (`get_attr: [server, ` → `get_attr`, 1).
    pub function: Option<(String, usize)>,
    /// The word being typed.
    pub prefix: String,
}

fn indent_of(line: &str) -> usize {
    line.len() - line.trim_start_matches(' ').len()
}

/// A block line's key and the column it starts at (`  - name: x` →
/// (`name`, 4)).
fn line_key(line: &str) -> Option<(String, usize)> {
    let mut col = indent_of(line);
    let mut rest = &line[col..];
    while let Some(r) = rest.strip_prefix("- ") {
        let trimmed = r.trim_start_matches(' ');
        col += rest.len() - trimmed.len();
        rest = trimmed;
    }
    if rest.starts_with('#') || rest.starts_with('{') || rest.starts_with('[') {
        return None;
    }
    let end = rest
        .find(": ")
        .or_else(|| rest.ends_with(':').then(|| rest.len() - 1))?;
    let key = rest[..end].trim().trim_matches(['"', '\'']);
    (!key.is_empty()).then(|| (key.to_owned(), col))
}

/// The completion context at `pos` in `text`.
pub(crate) fn context(text: &str, pos: Pos) -> Context {
    let lines: Vec<&str> = text.lines().collect();
    let li = (pos.line as usize).saturating_sub(1);
    let line = lines.get(li).copied().unwrap_or("");
    let before: String = line
        .chars()
        .take((pos.column as usize).saturating_sub(1))
        .collect();
    let mut ctx = Context::default();
    // The word being typed.
    let word_start = before
        .rfind(|c: char| c.is_whitespace() || matches!(c, '[' | '{' | ',' | ':' | '"' | '\''))
        .map_or(0, |i| i + 1);
    // `::` belongs to a type name.
    let word_start = {
        let mut s = word_start;
        while s >= 2 && before[..s].ends_with("::") {
            s = before[..s - 2]
                .rfind(|c: char| c.is_whitespace() || matches!(c, '[' | '{' | ',' | '"' | '\''))
                .map_or(0, |i| i + 1);
        }
        s
    };
    before[word_start..].clone_into(&mut ctx.prefix);
    let head = &before[..word_start];
    // The innermost function call open on the line.
    for f in [
        "get_param",
        "get_resource",
        "get_attr",
        "get_file",
        "depends_on",
    ] {
        if let Some(i) = head.rfind(&format!("{f}:")) {
            let args = &head[i + f.len() + 1..];
            if !args.contains(['}', ']']) {
                let index = args.matches(',').count();
                ctx.function = Some((f.to_owned(), index));
            }
        }
    }
    // `key: ` on this line (its value is typed), else a key or an item
    // being typed: the column it starts at.
    let indent = if let Some((k, col)) = line_key(&before) {
        // Its enclosing keys are less indented than it (its siblings
        // are not).
        ctx.key = Some(k);
        col
    } else {
        let mut col = indent_of(&before);
        let mut rest = &before[col..];
        while let Some(r) = rest.strip_prefix("- ") {
            let t = r.trim_start_matches(' ');
            col += rest.len() - t.len();
            rest = t;
        }
        col
    };
    let mut limit = indent;
    for l in lines[..li.min(lines.len())].iter().rev() {
        if l.trim().is_empty() || l.trim_start().starts_with('#') {
            continue;
        }
        let i = indent_of(l);
        if let Some((k, col)) = line_key(l) {
            if col < limit {
                ctx.path.push(k);
                limit = col;
            }
        } else if i < limit {
            limit = i;
        }
        if limit == 0 {
            break;
        }
    }
    ctx.path.reverse();
    ctx
}

/// One proposal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Completion {
    /// What is inserted.
    pub label: String,
    /// What it is (`resource type`, `property`, `parameter`, ...).
    pub kind: &'static str,
    /// A one-line detail.
    pub detail: Option<String>,
}

fn item(label: impl Into<String>, kind: &'static str, detail: Option<String>) -> Completion {
    Completion {
        label: label.into(),
        kind,
        detail,
    }
}

/// The names declared in a top-level section of `text` (`parameters`,
/// `resources`), read by indentation.
fn section_names(text: &str, section: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut inside = false;
    let mut child = None;
    for l in text.lines() {
        if l.trim().is_empty() || l.trim_start().starts_with('#') {
            continue;
        }
        let i = indent_of(l);
        if i == 0 {
            inside = line_key(l).is_some_and(|(k, _)| k == section);
            continue;
        }
        if inside {
            let c = *child.get_or_insert(i);
            if i == c {
                if let Some((k, _)) = line_key(l) {
                    out.push(k);
                }
            }
        }
    }
    out
}

/// The `type:` of resource `name` in `text`, read by indentation.
fn text_resource_type(text: &str, name: &str) -> Option<String> {
    let mut inside = false;
    let mut at = None;
    for l in text.lines() {
        if l.trim().is_empty() || l.trim_start().starts_with('#') {
            continue;
        }
        let i = indent_of(l);
        if i == 0 {
            inside = line_key(l).is_some_and(|(k, _)| k == "resources");
            at = None;
            continue;
        }
        if !inside {
            continue;
        }
        match at {
            Some(r) if i > r => {
                let t = l.trim_start().trim_start_matches("- ");
                if let Some(v) = t.strip_prefix("type:") {
                    return Some(v.trim().trim_matches(['"', '\'']).to_owned());
                }
            }
            _ => {
                at = None;
                if let Some((k, _)) = line_key(l) {
                    if k == name {
                        at = Some(i);
                        if let Some(p) = l.find("type:") {
                            let v = l[p + 5..].split([',', '}']).next().unwrap_or("");
                            return Some(v.trim().trim_matches(['"', '\'']).to_owned());
                        }
                    }
                }
            }
        }
    }
    None
}

/// The template version `text` declares (its date).
fn version_of(text: &str) -> Option<&'static str> {
    text.lines().find_map(|l| {
        let v = l.strip_prefix("heat_template_version:")?;
        crate::model::template::hot_date(v.trim().trim_matches(['"', '\'']))
    })
}

const RESOURCE_KEYS: [&str; 8] = [
    "type",
    "properties",
    "metadata",
    "depends_on",
    "update_policy",
    "deletion_policy",
    "external_id",
    "condition",
];

#[allow(clippy::too_many_lines)] // one match over the places; each arm short
/// What may be typed at `pos` in the document `file` whose text is
/// `text`: types, properties and allowed values from Heat's schemas and
/// the workspace's registry, parameters and resources of the file,
/// attributes of a resource's type, functions of the file's version,
/// sections, and in an environment's registry its keys (types the
/// `tree`'s templates use, the registry's, Heat's) and targets (the
/// `tree`'s templates, Heat's types).
pub(crate) fn completions(
    files: &FileOverlay,
    ws: Option<&Workspace>,
    tree: Option<&Tree>,
    file: &Path,
    text: &str,
    pos: Pos,
) -> Vec<Completion> {
    let ctx = context(text, pos);
    let heat = heat_schema::heat();
    let env = !text.lines().any(|l| l.starts_with("heat_template_version"));
    let path: Vec<&str> = ctx.path.iter().map(String::as_str).collect();
    let mut out = Vec::new();
    if let Some((f, index)) = &ctx.function {
        match (f.as_str(), index) {
            ("get_param", 0) => {
                for p in section_names(text, "parameters") {
                    out.push(item(p, "parameter", None));
                }
            }
            ("get_resource" | "depends_on", _) | ("get_attr", 0) => {
                for r in section_names(text, "resources") {
                    let ty = text_resource_type(text, &r);
                    out.push(item(r, "resource", ty));
                }
            }
            ("get_attr", 1) => {
                let line = text
                    .lines()
                    .nth((pos.line as usize).saturating_sub(1))
                    .unwrap_or("");
                let resource = line
                    .split("get_attr:")
                    .nth(1)
                    .and_then(|a| a.trim_start().trim_start_matches('[').split(',').next())
                    .map(|r| r.trim().to_owned())
                    .unwrap_or_default();
                let ty = text_resource_type(text, &resource).unwrap_or_default();
                if let Some(found) = heat.lookup(&ty).map(|f| f.ty) {
                    for (a, s) in &found.attributes {
                        out.push(item(a.clone(), "attribute", s.description.clone()));
                    }
                }
            }
            _ => {}
        }
        return out;
    }
    if env {
        match (path.as_slice(), ctx.key.as_deref()) {
            ([], None) => {
                for s in crate::model::environment::ENVIRONMENT_SECTIONS {
                    out.push(item(s, "section", None));
                }
            }
            (["resource_registry"], None) => {
                out.push(item(
                    "resources",
                    "section",
                    Some("entries for one resource".into()),
                ));
                registry_keys(ws, tree, &mut out);
            }
            (["resource_registry", "resources"], None) => {
                if let Some(tree) = tree {
                    let mut names: Vec<&str> = tree
                        .templates
                        .iter()
                        .flat_map(|t| t.resources.iter().map(String::as_str))
                        .collect();
                    names.sort_unstable();
                    names.dedup();
                    for n in names {
                        out.push(item(n, "resource", None));
                    }
                }
            }
            (["resource_registry", "resources", _], None) => {
                for (k, d) in [
                    ("hooks", "breakpoints: pre-create, post-update, ..."),
                    ("restricted_actions", "update, replace"),
                ] {
                    out.push(item(k, "section", Some(d.to_owned())));
                }
                registry_keys(ws, tree, &mut out);
            }
            (["resource_registry", "resources", _], Some("hooks")) => {
                for h in crate::model::environment::HOOKS {
                    out.push(item(h, "allowed value", None));
                }
            }
            (["resource_registry", "resources", _], Some("restricted_actions")) => {
                for a in crate::model::environment::RESTRICTED {
                    out.push(item(a, "allowed value", None));
                }
            }
            (["resource_registry"] | ["resource_registry", "resources", _], Some(_)) => {
                registry_targets(file, tree, &mut out);
            }
            _ => {}
        }
        return out;
    }
    match (path.as_slice(), ctx.key.as_deref()) {
        ([], Some("heat_template_version")) => {
            for v in crate::model::template::HOT_VERSIONS {
                out.push(item(v, "version", None));
            }
        }
        ([], None) => {
            // The sections validate allows (E1002), for the file's version.
            let conditions = version_of(text).is_none_or(|v| v >= "2016-10-14");
            let sections = crate::validate::hot::unknown_section::HOT.iter();
            for s in sections.chain(conditions.then_some(&"conditions")) {
                out.push(item(*s, "section", None));
            }
        }
        (["resources", _], Some("type")) => type_items(ws, &mut out),
        (["resources", _], None) => {
            for k in RESOURCE_KEYS {
                out.push(item(k, "resource key", None));
            }
        }
        (["parameters", _], None) => {
            for k in [
                "type",
                "label",
                "description",
                "default",
                "hidden",
                "constraints",
                "immutable",
                "tags",
            ] {
                out.push(item(k, "parameter key", None));
            }
        }
        (["outputs", _], None) => {
            for k in ["description", "value", "condition"] {
                out.push(item(k, "output key", None));
            }
        }
        (["resources", r, "properties", rest @ ..], key) => {
            let ty = text_resource_type(text, r).unwrap_or_default();
            out.extend(property_items(files, ws, file, &ty, rest, key, text));
        }
        _ => {}
    }
    out
}

/// One template of the project's tree, as completion in an environment
/// needs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TreeTemplate {
    /// Its path, absolute.
    pub path: PathBuf,
    /// The names of its resources.
    pub resources: Vec<String>,
    /// The resource types it uses (names with `::`, Heat's or not).
    pub types: Vec<String>,
}

/// The templates (`*.yaml`, `*.yml` with a `heat_template_version`) of a
/// project's tree, read through the buffers: what registry entries of an
/// environment may map and point to.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Tree {
    /// The directory walked.
    pub dir: PathBuf,
    /// Its templates, in walk order.
    pub templates: Vec<TreeTemplate>,
}

impl Tree {
    /// Walks `dir` (hidden directories skipped).
    pub(crate) fn scan(files: &FileOverlay, dir: &Path) -> Tree {
        let walked = crate::walk::walk(
            &crate::walk::WalkOptions::new(vec![dir.to_path_buf()]).recursive(),
            files,
        );
        let mut templates = Vec::new();
        for source in &walked.sources {
            let yaml = source
                .path
                .extension()
                .is_some_and(|e| e == "yaml" || e == "yml");
            if !yaml || source.jinja {
                continue;
            }
            let Ok(bytes) = files.read(&source.path) else {
                continue;
            };
            let text = String::from_utf8_lossy(&bytes);
            if !text.lines().any(|l| l.starts_with("heat_template_version")) {
                continue;
            }
            let mut types: Vec<String> = text
                .lines()
                .filter_map(|l| {
                    let v = l
                        .trim_start()
                        .trim_start_matches("- ")
                        .strip_prefix("type:")?;
                    let v = v.trim().trim_matches(['"', '\'']);
                    v.contains("::").then(|| v.to_owned())
                })
                .collect();
            types.sort();
            types.dedup();
            templates.push(TreeTemplate {
                path: absolute_normal(&source.path),
                resources: section_names(&text, "resources"),
                types,
            });
        }
        Tree {
            dir: dir.to_path_buf(),
            templates,
        }
    }
}

/// Whether completing at `pos` in `text` lists the project's templates
/// (inside an environment's `resource_registry`).
pub(crate) fn wants_tree(text: &str, pos: Pos) -> bool {
    !text.lines().any(|l| l.starts_with("heat_template_version"))
        && context(text, pos).path.first().map(String::as_str) == Some("resource_registry")
}

/// The directory whose templates an environment `file`'s registry may
/// name: the root template's (`template`) when it holds the file, else
/// the nearest one above the file with a `.heatcap.yaml`, else the
/// highest directory of one of the `environments` that holds the file,
/// else the file's.
pub(crate) fn project_dir(
    files: &FileOverlay,
    file: &Path,
    template: Option<&Path>,
    environments: &[PathBuf],
) -> PathBuf {
    let here = dir_of(file);
    if let Some(top) = template.map(dir_of) {
        if here.starts_with(&top) {
            return top;
        }
    }
    if let Some(d) = here
        .ancestors()
        .find(|d| files.is_file(&d.join(".heatcap.yaml")))
    {
        return d.to_path_buf();
    }
    environments
        .iter()
        .map(|e| dir_of(e))
        .filter(|d| here.starts_with(d))
        .min_by_key(|d| d.components().count())
        .unwrap_or(here)
}

/// `path` absolute, without `.` and `..`.
fn absolute_normal(path: &Path) -> PathBuf {
    let abs = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    PathBuf::from(crate::walk::normalize(&abs))
}

/// `to` relative to the directory `from` (both absolute or both
/// relative), with `..` where needed: how a registry entry names a file.
fn relative(from: &Path, to: &Path) -> PathBuf {
    let from: Vec<_> = from.components().collect();
    let to: Vec<_> = to.components().collect();
    let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
    let mut out = PathBuf::new();
    for _ in common..from.len() {
        out.push("..");
    }
    for c in &to[common..] {
        out.push(c);
    }
    out
}

/// Keys of a registry: the types the tree's templates use (custom types
/// first), the environments' registry keys, and Heat's types (to alias
/// them).
fn registry_keys(ws: Option<&Workspace>, tree: Option<&Tree>, out: &mut Vec<Completion>) {
    let mut used: indexmap::IndexMap<&str, usize> = indexmap::IndexMap::new();
    for t in tree.iter().flat_map(|t| &t.templates) {
        for ty in &t.types {
            *used.entry(ty.as_str()).or_default() += 1;
        }
    }
    let heat = heat_schema::heat();
    used.sort_by(|a, _, b, _| (heat.lookup(a).is_some(), a).cmp(&(heat.lookup(b).is_some(), b)));
    let mut seen: std::collections::HashSet<String> = std::collections::HashSet::new();
    for (ty, n) in used {
        seen.insert(ty.to_owned());
        let s = if n == 1 { "" } else { "s" };
        let kind = if heat.lookup(ty).is_some() {
            "resource type"
        } else {
            "registry type"
        };
        out.push(item(ty, kind, Some(format!("used by {n} template{s}"))));
    }
    let mut types = Vec::new();
    type_items(ws, &mut types);
    out.extend(types.into_iter().filter(|c| !seen.contains(&c.label)));
}

/// Targets of a registry entry in the environment `file`: the tree's
/// templates relative to the environment's directory (as Heat resolves
/// them), `OS::Heat::None`, and Heat's types (an alias).
fn registry_targets(file: &Path, tree: Option<&Tree>, out: &mut Vec<Completion>) {
    let from = absolute_normal(&dir_of(file));
    let this = absolute_normal(file);
    for t in tree.iter().flat_map(|t| &t.templates) {
        if t.path != this {
            let rel = relative(&from, &t.path);
            out.push(item(rel.to_string_lossy(), "template", None));
        }
    }
    out.push(item(
        "OS::Heat::None",
        "resource type",
        Some("disables the resource".into()),
    ));
    for (name, ty) in heat_schema::heat().listed() {
        if name != "OS::Heat::None" {
            out.push(item(
                name,
                "resource type",
                Some(ty.support_status.status.name().to_owned()),
            ));
        }
    }
}

fn type_items(ws: Option<&Workspace>, out: &mut Vec<Completion>) {
    let heat = heat_schema::heat();
    for (name, ty) in heat.listed() {
        out.push(item(
            name,
            "resource type",
            Some(ty.support_status.status.name().to_owned()),
        ));
    }
    if let Some(ws) = ws {
        let mut seen = std::collections::HashSet::new();
        for env in ws.environments() {
            for e in &env.entries {
                if e.key.contains("::") && !e.key.contains('*') && seen.insert(e.key.clone()) {
                    out.push(item(
                        e.key.clone(),
                        "registry type",
                        Some(json_text(&e.node.value.to_json())),
                    ));
                }
            }
        }
    }
}

fn property_items(
    files: &FileOverlay,
    ws: Option<&Workspace>,
    file: &Path,
    ty: &str,
    rest: &[&str],
    key: Option<&str>,
    text: &str,
) -> Vec<Completion> {
    let mut out = Vec::new();
    let heat = heat_schema::heat();
    let version = version_of(text).unwrap_or("2013-05-23");
    let functions = || {
        crate::eval::tables::FUNCTIONS
            .iter()
            .filter(|(_, from, to)| *from != "0" && *from <= version && version <= *to)
            .map(|(f, _, _)| item(*f, "function", None))
            .collect::<Vec<_>>()
    };
    if let Some(found) = heat.lookup(ty) {
        let props = &found.ty.properties;
        let mut names: Vec<String> = rest.iter().map(|s| (*s).to_owned()).collect();
        if let Some(k) = key {
            names.push(k.to_owned());
        }
        let Some((first, tail)) = names.split_first() else {
            for (name, s) in props.iter().filter(|(_, s)| s.is_shown()) {
                out.push(item(name.clone(), "property", Some(property_detail(s))));
            }
            return out;
        };
        let Some(schema) = props.get(first).and_then(|s| property_schema(s, tail)) else {
            out.extend(functions());
            return out;
        };
        if key.is_some() {
            for c in &schema.constraints {
                if let heat_schema::ConstraintKind::AllowedValues(values) = c.kind() {
                    for v in values {
                        let label = v.as_str().map_or_else(|| json_text(v), str::to_owned);
                        out.push(item(label, "allowed value", None));
                    }
                }
            }
        } else if let Some(fields) = schema
            .fields()
            .or_else(|| schema.item_schema().and_then(PropertySchema::fields))
        {
            for (name, s) in fields {
                out.push(item(name.clone(), "property", Some(property_detail(s))));
            }
        }
        out.extend(functions());
        return out;
    }
    // A provider template: its parameters are the properties.
    if rest.is_empty() && key.is_none() {
        let template = if is_template_name(ty) {
            Some(dir_of(file).join(ty))
        } else {
            ws.and_then(|ws| {
                match ws
                    .registry()
                    .lookup(ty, None, Some(&crate::walk::display(file)))
                    .implementation
                {
                    Some(Implementation::Template(t)) => Some(PathBuf::from(t)),
                    _ => None,
                }
            })
        };
        if let Some(t) = template.and_then(|t| files.read(&t).ok()) {
            for p in section_names(&String::from_utf8_lossy(&t), "parameters") {
                out.push(item(p, "property", Some(format!("parameter of `{ty}`"))));
            }
        }
    } else {
        out.extend(functions());
    }
    out
}

fn property_detail(s: &PropertySchema) -> String {
    format!(
        "{}{}",
        s.kind.name(),
        if s.required { ", required" } else { "" }
    )
}

/// The replacement a did-you-mean finding (E3008, E3011, ...) proposes,
/// read from its message (`...; did you mean `X`?`).
pub(crate) fn suggestion(message: &str) -> Option<&str> {
    let rest = message.split("did you mean `").nth(1)?;
    rest.split('`').next().filter(|s| !s.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Node {
        crate::load::parse_text(text, "t.yaml", &crate::load::ParseOptions::default())
            .root
            .unwrap()
    }

    const T: &str = "heat_template_version: 2016-10-14
parameters:
  flavor:
    type: string
    default: m1.small
resources:
  server:
    type: OS::Nova::Server
    properties:
      flavor: {get_param: flavor}
      image: cirros
  port:
    type: OS::Neutron::Port
    depends_on: server
    properties:
      network: {get_attr: [server, first_address]}
outputs:
  ip:
    value: {get_resource: port}
";

    fn at(line: u32, column: u32) -> Pos {
        Pos { line, column }
    }

    #[test]
    fn locate_and_target_follow_references() {
        let root = parse(T);
        let c = locate(&root, at(10, 29)).unwrap();
        assert_eq!(
            c.path,
            ["resources", "server", "properties", "flavor", "get_param"]
        );
        assert_eq!(target(&root, &c), Some(Target::Parameter("flavor".into())));
        let c = locate(&root, at(14, 17)).unwrap();
        assert_eq!(target(&root, &c), Some(Target::Resource("server".into())));
        let c = locate(&root, at(16, 36)).unwrap();
        assert_eq!(
            target(&root, &c),
            Some(Target::Attribute {
                resource: "server".into(),
                attribute: "first_address".into()
            })
        );
        let c = locate(&root, at(8, 12)).unwrap();
        assert_eq!(
            target(&root, &c),
            Some(Target::Type {
                name: "OS::Nova::Server".into(),
                resource: Some("server".into())
            })
        );
        let c = locate(&root, at(11, 8)).unwrap();
        assert!(c.on_key);
        assert_eq!(
            target(&root, &c),
            Some(Target::Property {
                resource: "server".into(),
                path: vec!["image".into()]
            })
        );
        let c = locate(&root, at(19, 28)).unwrap();
        assert_eq!(target(&root, &c), Some(Target::Resource("port".into())));
    }

    #[test]
    fn a_group_members_type_is_a_type() {
        let root = parse("heat_template_version: 2016-10-14\nresources:\n  g:\n    type: OS::Heat::ResourceGroup\n    properties:\n      resource_def:\n        type: OS::TripleO::Controller\n");
        let c = locate(&root, at(7, 20)).unwrap();
        assert_eq!(
            target(&root, &c),
            Some(Target::Type {
                name: "OS::TripleO::Controller".into(),
                resource: None
            })
        );
        // Without environments a custom type goes nowhere, and says why.
        let t = target(&root, &c).unwrap();
        assert!(definition(
            &FileOverlay::default(),
            None,
            Path::new("t.yaml"),
            &root,
            &t
        )
        .is_empty());
        let h = hover(None, None, Path::new("t.yaml"), &root, &t).unwrap();
        assert!(h.contains("name the environments"), "{h}");
    }

    #[test]
    fn definition_and_hover_within_a_file() {
        let root = parse(T);
        let file = Path::new("t.yaml");
        let d = definition(
            &FileOverlay::default(),
            None,
            file,
            &root,
            &Target::Parameter("flavor".into()),
        );
        assert_eq!(d[0].span.unwrap().start, at(3, 3));
        let d = definition(
            &FileOverlay::default(),
            None,
            file,
            &root,
            &Target::Resource("port".into()),
        );
        assert_eq!(d[0].span.unwrap().start, at(12, 3));
        let h = hover(None, None, file, &root, &Target::Parameter("flavor".into())).unwrap();
        assert!(h.contains("`\"m1.small\"`, the default (line 5)"), "{h}");
        let h = hover(
            None,
            None,
            file,
            &root,
            &Target::Property {
                resource: "server".into(),
                path: vec!["flavor".into()],
            },
        )
        .unwrap();
        assert!(
            h.starts_with("**flavor** (string, required) of `OS::Nova::Server`"),
            "{h}"
        );
        let h = hover(
            None,
            None,
            file,
            &root,
            &Target::Type {
                name: "OS::Nova::Server".into(),
                resource: None,
            },
        )
        .unwrap();
        assert!(
            h.contains("Required properties: `flavor`, `image`")
                || h.contains("Required properties: `flavor`"),
            "{h}"
        );
    }

    #[test]
    fn context_reads_half_typed_text() {
        let text = "heat_template_version: 2016-10-14\nresources:\n  server:\n    type: OS::Nova::Server\n    properties:\n      fla\n";
        let c = context(text, at(6, 10));
        assert_eq!(c.path, ["resources", "server", "properties"]);
        assert_eq!(c.prefix, "fla");
        assert_eq!(c.key, None);
        let c = context("resources:\n  s:\n    type: OS::No", at(3, 17));
        assert_eq!(
            (c.path, c.key.as_deref(), c.prefix.as_str()),
            (
                vec!["resources".to_owned(), "s".to_owned()],
                Some("type"),
                "OS::No"
            )
        );
        // A value after a sibling: the sibling does not enclose it.
        let c = context(
            "resources:\n  s:\n    type: A::B\n    properties: {}\n    condition: ",
            at(5, 16),
        );
        assert_eq!(
            (c.path, c.key.as_deref()),
            (
                vec!["resources".to_owned(), "s".to_owned()],
                Some("condition")
            )
        );
        let c = context("x: {get_attr: [server, fi", at(1, 26));
        assert_eq!(c.function, Some(("get_attr".to_owned(), 1)));
        assert_eq!(c.prefix, "fi");
    }

    /// Top-level sections are the ones validate allows for the version
    /// (E1002): `conditions` from 2016-10-14, heatcap's `capabilities` in
    /// every version.
    #[test]
    fn sections_follow_the_template_version() {
        let sections = |version: &str| -> Vec<String> {
            let text = format!("heat_template_version: {version}\n\n");
            completions(
                &FileOverlay::default(),
                None,
                None,
                Path::new("t.yaml"),
                &text,
                at(2, 1),
            )
            .into_iter()
            .map(|c| c.label)
            .collect()
        };
        let old = sections("2015-04-30");
        assert!(old.contains(&"capabilities".to_owned()), "{old:?}");
        assert!(!old.contains(&"conditions".to_owned()), "{old:?}");
        let newton = sections("newton");
        assert!(newton.contains(&"conditions".to_owned()), "{newton:?}");
        assert_eq!(newton.len(), old.len() + 1);
    }

    #[test]
    fn completion_lists_properties_values_and_references() {
        let text = "heat_template_version: 2016-10-14\nparameters:\n  net: {type: string}\nresources:\n  server:\n    type: OS::Nova::Server\n    properties:\n      \n      flavor_update_policy: \n      networks: [{network: {get_param: \n  port:\n    type: OS::Neutron::Port\n    properties: {network: {get_attr: [server, \n";
        let file = Path::new("t.yaml");
        let labels = |line, col| -> Vec<String> {
            completions(
                &FileOverlay::default(),
                None,
                None,
                file,
                text,
                at(line, col),
            )
            .into_iter()
            .map(|c| c.label)
            .collect()
        };
        let props = labels(8, 7);
        assert!(
            props.contains(&"flavor".to_owned()) && props.contains(&"image".to_owned()),
            "{props:?}"
        );
        assert!(!props.contains(&"get_param".to_owned()));
        assert_eq!(
            labels(9, 29),
            [
                "RESIZE",
                "REPLACE",
                "get_param",
                "get_resource",
                "get_attr",
                "list_join",
                "str_replace",
                "resource_facade",
                "get_file",
                "repeat",
                "digest",
                "str_split",
                "map_merge",
                "yaql",
                "map_replace",
                "if"
            ]
        );
        assert_eq!(labels(10, 40), ["net"]);
        assert!(labels(13, 47).contains(&"first_address".to_owned()));
        assert!(labels(12, 11).contains(&"OS::Nova::Server".to_owned()));
    }

    /// In an environment's registry: keys are the types the project's
    /// templates use (then the registry's and Heat's), targets its
    /// templates relative to the environment (as Heat resolves them) and
    /// Heat's types; per-resource entries name the templates' resources.
    #[test]
    fn registry_keys_and_targets_come_from_the_project() {
        let dir = tempfile::tempdir().unwrap();
        let top = dir.path();
        std::fs::create_dir_all(top.join("environments")).unwrap();
        std::fs::create_dir_all(top.join("roles")).unwrap();
        std::fs::write(
            top.join("root.yaml"),
            "heat_template_version: 2016-10-14\nresources:\n  controller:\n    type: My::Controller\n  net: {type: OS::Neutron::Net}\n",
        )
        .unwrap();
        std::fs::write(
            top.join("roles/controller.yaml"),
            "heat_template_version: 2016-10-14\nresources:\n  server:\n    type: \"My::Server\"\n",
        )
        .unwrap();
        std::fs::write(top.join("roles/notes.yaml"), "just: yaml\n").unwrap();
        let env = top.join("environments/env.yaml");
        let files = FileOverlay::default();
        let root = top.join("root.yaml");
        let project = project_dir(&files, &env, Some(&root), &[]);
        assert_eq!(project, top);
        // Without a root template: the file's own directory.
        assert_eq!(
            project_dir(&files, &env, None, &[]),
            top.join("environments")
        );
        assert_eq!(
            project_dir(&files, &env, None, std::slice::from_ref(&root)),
            top
        );
        let tree = Tree::scan(&files, &project);
        assert_eq!(tree.templates.len(), 2, "{tree:?}");
        let labels = |text: &str, line, col| -> Vec<(String, &'static str)> {
            assert!(wants_tree(text, at(line, col)));
            completions(&files, None, Some(&tree), &env, text, at(line, col))
                .into_iter()
                .map(|c| (c.label, c.kind))
                .collect()
        };
        // The sections of an environment at its top level.
        let top: Vec<String> = completions(&files, None, Some(&tree), &env, "\n", at(1, 1))
            .into_iter()
            .map(|c| c.label)
            .collect();
        assert_eq!(top, crate::model::environment::ENVIRONMENT_SECTIONS);
        let keys = labels("resource_registry:\n  \n", 2, 3);
        assert_eq!(
            keys[..3],
            [
                ("resources".to_owned(), "section"),
                ("My::Controller".to_owned(), "registry type"),
                ("My::Server".to_owned(), "registry type")
            ]
        );
        assert!(keys.contains(&("OS::Nova::Server".to_owned(), "resource type")));
        let targets = labels("resource_registry:\n  My::Controller: \n", 2, 19);
        assert_eq!(
            targets[..3],
            [
                ("../roles/controller.yaml".to_owned(), "template"),
                ("../root.yaml".to_owned(), "template"),
                ("OS::Heat::None".to_owned(), "resource type")
            ]
        );
        assert!(targets.contains(&("OS::Nova::Server".to_owned(), "resource type")));
        let names = labels("resource_registry:\n  resources:\n    \n", 3, 5);
        assert_eq!(
            names,
            [
                ("controller".to_owned(), "resource"),
                ("net".to_owned(), "resource"),
                ("server".to_owned(), "resource")
            ]
        );
        let inside = labels(
            "resource_registry:\n  resources:\n    server:\n      \n",
            4,
            7,
        );
        assert_eq!(inside[0].0, "hooks");
        assert!(inside.contains(&("My::Server".to_owned(), "registry type")));
        let hooks = labels(
            "resource_registry:\n  resources:\n    server:\n      hooks: \n",
            4,
            14,
        );
        assert_eq!(hooks.len(), 6);
        assert!(!wants_tree(
            "heat_template_version: 2016-10-14\nresource_registry:\n  \n",
            at(3, 3)
        ));
    }

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

    #[test]
    fn symbols_outline_sections() {
        let root = parse(T);
        let s = symbols(&root);
        let resources = s.iter().find(|s| s.name == "resources").unwrap();
        assert_eq!(resources.children[0].name, "server");
        assert_eq!(
            resources.children[0].detail.as_deref(),
            Some("OS::Nova::Server")
        );
        assert_eq!(resources.children[0].key_span.start, at(7, 3));
    }

    #[test]
    fn suggestions_are_read_from_messages() {
        assert_eq!(
            suggestion("`flavr` is not a property of `OS::Nova::Server`; did you mean `flavor`?"),
            Some("flavor")
        );
        assert_eq!(suggestion("no hint"), None);
    }
}
