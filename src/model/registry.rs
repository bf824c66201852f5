//! One `resource_registry` entry, classified once, with its positions: the
//! model every stage reads (index, resolve, options, export, validate), so
//! that the same entry gives the same answer everywhere.
//!
//! Classification follows Heat's `ResourceInfo.__new__` (heat-semantics
//! §2.3), first match wins:
//! 1. `hooks`, `restricted_actions` and `base_url` keys hold data;
//! 2. a key ending `.yaml` or `.template` is a template (the key is the path);
//! 3. a value that is not a string is unusable (Heat crashes), except
//!    heatcap's candidate lists, `null` (a deletion) and, under
//!    `resources: NAME:`, the maps Heat applies to nested stacks;
//! 4. a value ending `.yaml` or `.template` is a template;
//! 5. a key ending `*` is a glob;
//! 6. anything else is an alias to another type.
//!
//! Heat's suffix tests are case-sensitive, so `foo.yml` and `foo.YAML` are
//! type names to Heat, never templates. python-heatclient is looser: it
//! uploads every registry value without `::`, whatever its extension
//! ([`RegistryEntry::client_files`]).

use schemars::JsonSchema;
use serde::Serialize;

use crate::diag::Span;
use crate::node::{Node, Value};

/// A template path as Heat tells one from a type name: the value ends in
/// `.yaml` or `.template` (a case-sensitive suffix test, heat-semantics
/// §2.3: `.yml` and `.YAML` are type names).
// Heat's test is case-sensitive on purpose: `.YAML` is not a template.
#[allow(clippy::case_sensitive_file_extension_comparisons)]
pub(crate) fn is_template_path(s: &str) -> bool {
    s.ends_with(".yaml") || s.ends_with(".template")
}

/// Registry keys that hold data, not type mappings.
pub(crate) fn is_data_key(key: &str) -> bool {
    matches!(key, "hooks" | "restricted_actions" | "base_url")
}

/// An environment's registry entry that maps a type to a template: the
/// template is then a candidate implementation of the type, as if it
/// declared `capabilities: {resource_type: [TYPE]}` (an inferred one).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
#[non_exhaustive]
pub struct Site {
    /// The environment file, as the user gave its path.
    pub environment: String,
    /// The line of the entry (of the candidate, in a list).
    pub line: u32,
}

impl std::fmt::Display for Site {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.environment, self.line)
    }
}

/// Where an entry sits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Scope {
    /// `resource_registry: {TYPE: ...}`.
    Top,
    /// `resource_registry: {resources: {NAME: {TYPE: ...}}}`.
    Resource(String),
}

/// One candidate of a list-valued entry, as written.
#[derive(Debug, Clone, PartialEq)]
pub struct Candidate {
    pub name: String,
    pub span: Span,
}

/// What an entry's value is, to Heat (and to heatcap's list form).
#[derive(Debug, Clone, PartialEq)]
pub enum EntryValue {
    /// A provider template (the key when it is a path, else the value).
    Template(String),
    /// An alias to another type.
    Alias(String),
    /// A prefix glob (`OS::X::*`): types starting with `prefix` become
    /// `value` (with its own trailing `*` replaced by the rest of the type).
    Glob { prefix: String, value: String },
    /// heatcap's candidate list, decided by `requires`.
    Candidates(Vec<Candidate>),
    /// `null`: deletes the entry (Heat applies it in the first file only).
    Null,
    /// Data, not a type mapping: hooks, restricted actions, `base_url`, and
    /// a per-resource map for a nested stack's resources.
    Data,
    /// A value Heat cannot use: what it is (`a mapping`, `an integer`, ...).
    Invalid(&'static str),
}

impl EntryValue {
    /// The templates Heat may instantiate through a value (as written):
    /// its template, or the candidates that are template paths.
    pub fn template_names(&self) -> Vec<&str> {
        match self {
            EntryValue::Template(p) => vec![p.as_str()],
            EntryValue::Candidates(cs) => cs
                .iter()
                .map(|c| c.name.as_str())
                .filter(|n| is_template_path(n))
                .collect(),
            _ => Vec::new(),
        }
    }
}

/// One registry entry of one environment file.
#[derive(Debug, Clone, PartialEq)]
pub struct RegistryEntry {
    pub scope: Scope,
    pub key: String,
    /// The key's position.
    pub span: Span,
    pub value: EntryValue,
    /// The value as written (for output and for positions inside it).
    pub node: Node,
}

/// Classifies one `key: value` of scope `scope`.
pub(crate) fn classify(scope: &Scope, key: &str, value: &Node) -> EntryValue {
    if is_data_key(key) {
        return EntryValue::Data;
    }
    if is_template_path(key) {
        return EntryValue::Template(key.to_owned());
    }
    match &value.value {
        Value::Str(v) if is_template_path(v) => EntryValue::Template(v.as_str().to_owned()),
        Value::Str(v) => match key.strip_suffix('*') {
            Some(prefix) => EntryValue::Glob {
                prefix: prefix.to_owned(),
                value: v.as_str().to_owned(),
            },
            None => EntryValue::Alias(v.as_str().to_owned()),
        },
        Value::Seq(items) => {
            let names: Option<Vec<Candidate>> = items
                .iter()
                .map(|i| {
                    i.value.as_str().map(|s| Candidate {
                        name: s.to_owned(),
                        span: i.span,
                    })
                })
                .collect();
            names.map_or(
                EntryValue::Invalid("a list with non-string items"),
                EntryValue::Candidates,
            )
        }
        Value::Null => EntryValue::Null,
        Value::Map(_) if matches!(scope, Scope::Resource(_)) => EntryValue::Data,
        Value::Map(_) => EntryValue::Invalid("a mapping"),
        other => EntryValue::Invalid(other.kind_name()),
    }
}

impl RegistryEntry {
    /// The entry for `key: value` in `scope`.
    pub fn new(scope: Scope, key: &Node, value: &Node) -> RegistryEntry {
        let text = key.value.key_text();
        RegistryEntry {
            value: classify(&scope, &text, value),
            scope,
            key: text,
            span: key.span,
            node: value.clone(),
        }
    }

    /// The resource name of a per-resource entry.
    pub fn resource(&self) -> Option<&str> {
        match &self.scope {
            Scope::Resource(n) => Some(n),
            Scope::Top => None,
        }
    }

    /// True for entries that map a type (not data, not a deletion).
    pub fn is_mapping(&self) -> bool {
        !matches!(self.value, EntryValue::Data | EntryValue::Null)
    }

    /// The templates Heat may instantiate through this entry (as written,
    /// relative to the environment file): its template, or the candidates
    /// that are template paths. The one answer every command gives to
    /// "which templates does this registry name".
    pub fn templates(&self) -> Vec<(&str, Span)> {
        match &self.value {
            EntryValue::Template(p) => vec![(p.as_str(), self.value_span())],
            EntryValue::Candidates(cs) => cs
                .iter()
                .filter(|c| is_template_path(&c.name))
                .map(|c| (c.name.as_str(), c.span))
                .collect(),
            _ => Vec::new(),
        }
    }

    /// The local files python-heatclient reads for this entry before it
    /// calls Heat (heat-semantics §2.12): every string value without `::`,
    /// whatever its extension, and each such candidate. `file://` URLs
    /// are reduced to their path; other URLs are remote and left out.
    pub fn client_files(&self) -> impl Iterator<Item = (&str, Span)> {
        let items: &[Node] = if matches!(self.value, EntryValue::Data) || is_data_key(&self.key) {
            &[]
        } else {
            match &self.node.value {
                Value::Seq(items) => items,
                _ => std::slice::from_ref(&self.node),
            }
        };
        items
            .iter()
            .filter_map(|n| Some((local_file(n.value.as_str()?)?, n.span)))
    }

    /// For a per-resource map (entries for the resources of the nested
    /// stack this resource creates, applied by drill-down, heat-semantics
    /// §3.4): those entries, each under its resource name.
    pub fn nested(&self) -> Vec<RegistryEntry> {
        if self.value != EntryValue::Data || is_data_key(&self.key) {
            return Vec::new();
        }
        let Some(map) = self.node.as_map() else {
            return Vec::new();
        };
        let scope = Scope::Resource(self.key.clone());
        map.entries
            .iter()
            .map(|(k, v)| RegistryEntry::new(scope.clone(), k, v))
            .collect()
    }

    /// Where the value is written.
    pub fn value_span(&self) -> Span {
        if is_template_path(&self.key) {
            self.span
        } else {
            self.node.span
        }
    }
}

/// The local file a registry value names, if it names one (the client's
/// test: a non-empty string without `::`; `file://` reduced to its path).
pub(crate) fn local_file(value: &str) -> Option<&str> {
    if value.contains("::") || value.is_empty() {
        return None;
    }
    match value.split_once("://") {
        Some(("file", rest)) => Some(rest),
        Some(_) => None,
        None => Some(value),
    }
}

/// Every entry of a `resource_registry` mapping, in file order: top-level
/// keys, and in place of `resources:` each resource's entries.
pub(crate) fn entries(registry: &crate::node::Mapping) -> Vec<RegistryEntry> {
    // At its size: an entry is large, and a growing vector copies them.
    let per_resource = |v: &Node| -> usize {
        v.as_map().map_or(0, |per| {
            per.entries
                .iter()
                .map(|(_, body)| body.as_map().map_or(0, crate::node::Mapping::len))
                .sum()
        })
    };
    let size = registry
        .entries
        .iter()
        .map(|(k, v)| match k.value.as_str() {
            Some("resources") if v.as_map().is_some() => per_resource(v),
            _ => 1,
        })
        .sum();
    let mut out = Vec::with_capacity(size);
    for (k, v) in &registry.entries {
        if k.value.as_str() == Some("resources") {
            if let Some(per) = v.as_map() {
                for (name, body) in &per.entries {
                    let scope = Scope::Resource(name.value.key_text());
                    for (t, tv) in body.as_map().map_or(&[][..], |m| m.entries.as_slice()) {
                        out.push(RegistryEntry::new(scope.clone(), t, tv));
                    }
                }
                continue;
            }
        }
        out.push(RegistryEntry::new(Scope::Top, k, v));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::{parse_text, ParseOptions};

    fn registry(text: &str) -> Vec<RegistryEntry> {
        let root = parse_text(text, "e.yaml", &ParseOptions::default())
            .root
            .unwrap();
        entries(root.as_map().unwrap())
    }

    #[test]
    fn classification_follows_heat_order() {
        let es = registry(
            "a.yaml: whatever\nOS::T: t.yaml\nOS::Y: y.yml\nOS::G::*: OS::H::*\nOS::L: [a.yaml, OS::Heat::None]\nOS::N: null\nOS::M: {x: y.yaml}\nOS::I: 3\nhooks: pre-create\nresources:\n  r:\n    OS::T: r.yaml\n    nested: {OS::T: n.yaml}\n",
        );
        let values: Vec<(&str, &EntryValue)> =
            es.iter().map(|e| (e.key.as_str(), &e.value)).collect();
        assert_eq!(
            values[0],
            ("a.yaml", &EntryValue::Template("a.yaml".into()))
        );
        assert_eq!(values[1].1, &EntryValue::Template("t.yaml".into()));
        assert_eq!(values[2].1, &EntryValue::Alias("y.yml".into()));
        assert_eq!(
            values[3].1,
            &EntryValue::Glob {
                prefix: "OS::G::".into(),
                value: "OS::H::*".into()
            }
        );
        assert!(matches!(values[4].1, EntryValue::Candidates(c) if c.len() == 2));
        assert_eq!(values[5].1, &EntryValue::Null);
        assert_eq!(values[6].1, &EntryValue::Invalid("a mapping"));
        assert_eq!(values[7].1, &EntryValue::Invalid("an integer"));
        assert_eq!(values[8].1, &EntryValue::Data);
        assert_eq!(es[9].scope, Scope::Resource("r".into()));
        assert_eq!(es[9].value, EntryValue::Template("r.yaml".into()));
        // Under a resource, a map is for the nested stack's resources.
        assert_eq!(es[10].value, EntryValue::Data);
    }

    #[test]
    fn heat_templates_and_client_files_differ_only_by_extension_rule() {
        let es = registry("OS::A: foo.yml\nOS::B: [b.yaml, c.yml, OS::Heat::None]\nOS::C: file:///x/c.yaml\nOS::D: http://h/d.yaml\n");
        let heat: Vec<Vec<&str>> = es
            .iter()
            .map(|e| e.templates().into_iter().map(|(p, _)| p).collect())
            .collect();
        assert_eq!(
            heat,
            [
                vec![],
                vec!["b.yaml"],
                vec!["file:///x/c.yaml"],
                vec!["http://h/d.yaml"]
            ]
        );
        let client: Vec<Vec<&str>> = es
            .iter()
            .map(|e| e.client_files().map(|(p, _)| p).collect())
            .collect();
        assert_eq!(
            client,
            [
                vec!["foo.yml"],
                vec!["b.yaml", "c.yml"],
                vec!["/x/c.yaml"],
                vec![]
            ]
        );
    }
}
