//! What stock Heat accepts (heat-semantics §6: heatcap is a pre-processing
//! layer): templates without `capabilities`, and one environment whose
//! list-valued entries are replaced by their resolved value, without
//! `requires`. The file-system side (which files, where) is the workspace's.

use serde_json::{Map, Value as J};

use crate::model::registry::{is_template_path, EntryValue};
use crate::model::Environment;
use crate::node::{Node, Value};
use crate::resolve::merge::{Entry, Merged};
use crate::resolve::registry::Registry;
use crate::resolve::{Implementation, StepKind};

/// Removes the top-level `key` section from a block-style document's text,
/// keeping every other line (comments and layout included). `None` when the
/// document is not a block mapping (JSON, flow style): re-serialize instead.
pub(crate) fn strip_section(text: &str, root: &Node, key: &str) -> Option<String> {
    let map = root.as_map()?;
    let (k, _) = map.entry(key)?;
    if k.span.start.column != 1 {
        return None;
    }
    let start = k.span.start.line as usize;
    let next = map
        .entries
        .iter()
        .map(|(other, _)| other.span.start.line as usize)
        .filter(|l| *l > start)
        .min();
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let end = next.unwrap_or(lines.len() + 1);
    let mut out = String::with_capacity(text.len());
    for (i, line) in lines.iter().enumerate() {
        let n = i + 1;
        if n < start || n >= end {
            out.push_str(line);
        }
    }
    Some(out)
}

/// The byte offset of a 1-based (line, column in characters) position.
fn offset(text: &str, pos: crate::diag::Pos) -> Option<usize> {
    let mut line_start = 0;
    for _ in 1..pos.line {
        line_start += text[line_start..].find('\n')? + 1;
    }
    let line = &text[line_start..];
    let col = usize::try_from(pos.column).ok()?.checked_sub(1)?;
    let within = line.char_indices().nth(col).map_or(line.len(), |(i, _)| i);
    Some(line_start + within)
}

/// The text with the node at `span` replaced by `value` (a plain scalar
/// when YAML reads it back as that string, else a double-quoted one). A
/// replaced block that ended a line keeps the line break.
pub(crate) fn replace_node(text: &str, span: crate::diag::Span, value: &str) -> Option<String> {
    let (a, b) = (offset(text, span.start)?, offset(text, span.end)?);
    if a > b || b > text.len() {
        return None;
    }
    let plain = !value.is_empty()
        && value
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_./:-".contains(c))
        && !value.starts_with(['-', ':'])
        && matches!(
            crate::node::scalar::resolve_plain(value.into()),
            Value::Str(ref r) if r == value
        );
    let scalar = if plain {
        value.to_owned()
    } else {
        serde_json::to_string(value).ok()?
    };
    let replaced = &text[a..b];
    let tail = if replaced.ends_with('\n') { "\n" } else { "" };
    Some(format!("{}{scalar}{tail}{}", &text[..a], &text[b..]))
}

/// The JSON form of a template without its top-level `capabilities`.
pub(crate) fn without_capabilities(root: &Node) -> J {
    let mut v = root.value.to_json();
    if let J::Object(m) = &mut v {
        m.shift_remove("capabilities");
    }
    v
}

/// Rewrites, in a template's JSON, every `type` value that is a template
/// path and every `get_file` argument, as python-heatclient does before
/// uploading (it makes them absolute URLs).
pub(crate) fn rewrite_template_paths(v: &mut J, rewrite: &dyn Fn(&str) -> String) {
    match v {
        J::Object(m) => {
            for (k, child) in m.iter_mut() {
                match child {
                    J::String(s) if (k == "type" && is_template_path(s)) || k == "get_file" => {
                        *s = rewrite(s);
                    }
                    _ => rewrite_template_paths(child, rewrite),
                }
            }
        }
        J::Array(items) => {
            for i in items {
                rewrite_template_paths(i, rewrite);
            }
        }
        _ => {}
    }
}

/// The single environment stock Heat is given: the merged registry with
/// every list replaced by its choice, template paths rewritten by `path`
/// (from the environment that named them), `requires` gone, and the other
/// sections merged later-wins (parameters key by key).
pub(crate) fn environment(
    envs: &[Environment],
    merged: &Merged,
    registry: &Registry<'_>,
    path: &dyn Fn(&str, &str) -> String,
) -> J {
    let mut reg = Map::new();
    let value_of = |key: &str, resource: Option<&str>, entry: &Entry| -> J {
        let from = envs[entry.origin.env].path.as_str();
        match (&entry.value, &entry.node.value) {
            (EntryValue::Template(_), Value::Str(s)) if is_template_path(s) => {
                J::String(path(from, s))
            }
            (EntryValue::Candidates(_), _) => {
                let r = registry.lookup(key, resource, None);
                let chosen = r.chain.iter().find_map(|s| match s.kind {
                    StepKind::Entry | StepKind::PerResource => {
                        s.selection.as_ref().and_then(|sel| sel.chosen.clone())
                    }
                    _ => None,
                });
                match (chosen, r.implementation) {
                    (Some(c), _) if is_template_path(&c) => J::String(path(from, &c)),
                    (Some(c), _) => J::String(c),
                    (None, Some(Implementation::Template(p) | Implementation::Plugin(p))) => {
                        J::String(p)
                    }
                    (None, None) => J::Null,
                }
            }
            (_, other) => other.to_json(),
        }
    };
    for key in registry.keys() {
        let entry = &merged.entries[&key];
        let k = if is_template_path(&key) {
            path(&envs[entry.origin.env].path, &key)
        } else {
            key.clone()
        };
        reg.insert(k, value_of(&key, None, entry));
    }
    if !merged.resources.is_empty() {
        let mut per = Map::new();
        for (name, entries) in &merged.resources {
            let mut m = Map::new();
            for (t, e) in entries {
                let v = if e.value == EntryValue::Data {
                    e.node.value.to_json()
                } else {
                    value_of(t, Some(name), e)
                };
                m.insert(t.clone(), v);
            }
            per.insert(name.clone(), J::Object(m));
        }
        reg.insert("resources".to_owned(), J::Object(per));
    }
    let mut out = Map::new();
    for (section, values) in [
        ("parameters", &merged.parameters),
        ("parameter_defaults", &merged.parameter_defaults),
    ] {
        if !values.is_empty() {
            out.insert(
                section.to_owned(),
                J::Object(values.iter().map(|(k, v)| (k.clone(), v.clone())).collect()),
            );
        }
    }
    for (section, v) in &merged.other_sections {
        out.insert(section.clone(), v.clone());
    }
    out.insert("resource_registry".to_owned(), J::Object(reg));
    J::Object(out)
}

/// What [`environment`] builds: the sections it may write, the registry
/// with its values chosen (a string, or `null` when nothing was chosen; an
/// entry that is not a path or a list, as written) and `resources` as
/// resource name -> type -> value.
pub(crate) fn environment_schema() -> schemars::Schema {
    schemars::json_schema!({
        "description": "A Heat environment: the merged registry with every list replaced by its choice and template paths as absolute `file://` URLs, `requires` gone, and the other sections merged.",
        "type": "object",
        "properties": {
            "parameters": {"type": "object", "description": "name -> value, as merged"},
            "parameter_defaults": {"type": "object", "description": "name -> value, as merged"},
            "event_sinks": {"description": "as written"},
            "encrypted_param_names": {"description": "as written"},
            "resource_registry": {
                "type": "object",
                "properties": {
                    "resources": {
                        "description": "resource name -> type -> value",
                        "type": "object",
                        "additionalProperties": {"type": "object"}
                    }
                },
                "additionalProperties": {
                    "description": "a template URL or a type name; `null` when nothing was chosen; another value as written"
                }
            }
        },
        "required": ["resource_registry"],
        "additionalProperties": false
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::{parse_text, ParseOptions};

    fn node(text: &str) -> Node {
        parse_text(text, "t.yaml", &ParseOptions::default())
            .root
            .unwrap()
    }

    #[test]
    fn strips_only_the_section_keeping_comments_and_layout() {
        let text = "heat_template_version: 2015-10-15\n# the roles\ncapabilities:\n  deployment: puppet\n  resource_type: [A,\n    B]\n\n# resources next\nresources: {}\n";
        let out = strip_section(text, &node(text), "capabilities").unwrap();
        assert_eq!(
            out,
            "heat_template_version: 2015-10-15\n# the roles\nresources: {}\n"
        );
        let last = "heat_template_version: 2015-10-15\ncapabilities:\n  a: 1";
        assert_eq!(
            strip_section(last, &node(last), "capabilities").unwrap(),
            "heat_template_version: 2015-10-15\n"
        );
    }

    #[test]
    fn flow_documents_are_not_stripped_textually() {
        let text = "{\"heat_template_version\": \"2015-10-15\", \"capabilities\": {\"a\": 1}}";
        assert!(strip_section(text, &node(text), "capabilities").is_none());
        assert_eq!(
            without_capabilities(&node(text)).to_string(),
            r#"{"heat_template_version":"2015-10-15"}"#
        );
    }

    #[test]
    fn template_paths_and_get_file_are_rewritten() {
        let mut v = serde_json::json!({"resources": {"a": {"type": "nested.yaml", "properties": {"config": {"get_file": "s.sh"}, "type": "not-a-path"}}, "b": {"type": "OS::Heat::None"}}});
        rewrite_template_paths(&mut v, &|p| format!("file:///x/{p}"));
        assert_eq!(v["resources"]["a"]["type"], "file:///x/nested.yaml");
        assert_eq!(
            v["resources"]["a"]["properties"]["config"]["get_file"],
            "file:///x/s.sh"
        );
        assert_eq!(v["resources"]["a"]["properties"]["type"], "not-a-path");
        assert_eq!(v["resources"]["b"]["type"], "OS::Heat::None");
    }
}
