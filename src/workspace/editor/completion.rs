//! What may be typed at a position: read from the text around the cursor
//! (a half-typed buffer often does not parse), Heat's schemas, the
//! workspace's registry and, in an environment's registry, the project's
//! templates.

use crate::vfs::FileOverlay;
use std::path::{Path, PathBuf};

use crate::diag::Pos;
use crate::heat_schema::{self, PropertySchema};
use crate::resolve::Implementation;

use super::super::Workspace;
use super::{dir_of, is_template_name, json_text, property_schema};

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

#[cfg(test)]
mod tests {
    use super::super::tests::at;
    use super::*;

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
}
