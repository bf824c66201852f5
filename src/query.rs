//! Stage 5: the questions the introspection commands ask of the index,
//! answered as plain result structs that renderers turn into output.

use indexmap::IndexMap;
use schemars::JsonSchema;
use serde::Serialize;

use crate::diag::Diagnostic;
use crate::index::{Index, Inferred, Site};
use crate::load::{FileKind, Status};
use crate::model::capability::{CapValue, Requirement};
use crate::model::Template;
use crate::model::{Content, Corpus};

/// One `-c KEY=VALUE` condition.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Condition {
    /// The capability key.
    pub key: String,
    /// The value as typed.
    pub value: String,
    /// What it asks for (the text, and what YAML reads it as).
    pub requirement: Requirement,
}

impl Condition {
    /// Parses `KEY=VALUE` (the value may contain `=`; the key may not be empty).
    pub fn parse(text: &str) -> Option<Condition> {
        let (key, value) = text.split_once('=')?;
        let key = key.trim();
        if key.is_empty() {
            return None;
        }
        Some(Condition {
            key: key.to_owned(),
            value: value.to_owned(),
            requirement: Requirement::from_cli(value),
        })
    }

    /// A template meets the condition when its capability `key` provides the value.
    /// `resource_type` is matched against the declared types.
    pub fn matches(&self, t: &Template) -> bool {
        t.capabilities
            .as_ref()
            .and_then(|c| c.get(&self.key))
            .is_some_and(|v: &CapValue| v.meets(&self.requirement))
    }

    /// A `resource_type` condition met by a type the template implements
    /// by inference.
    fn met_by_inferred(&self, inferred: &Inferred) -> bool {
        self.key == "resource_type"
            && inferred
                .keys()
                .any(|ty| self.requirement.any_of.iter().any(|v| v == ty))
    }
}

/// A template that matched every condition.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
#[non_exhaustive]
pub struct Match<'a> {
    /// The template, as the user gave its path.
    pub path: &'a str,
    /// Its declared capabilities (`{}` when it declares none and matched
    /// by inference).
    pub capabilities: &'a IndexMap<String, CapValue>,
    /// The types asked for (`-c resource_type=T`) that environments map to
    /// this template, with the entries that do: each makes the template a
    /// candidate as if it declared the type (absent when none).
    #[serde(skip_serializing_if = "IndexMap::is_empty")]
    pub inferred: Inferred,
}

fn no_capabilities() -> &'static IndexMap<String, CapValue> {
    static EMPTY: std::sync::OnceLock<IndexMap<String, CapValue>> = std::sync::OnceLock::new();
    EMPTY.get_or_init(IndexMap::new)
}

/// `capabilities-find`: templates whose capabilities meet every condition,
/// in order. A `resource_type` condition is also met by a type the
/// template implements by inference (the index's `inferred`).
pub(crate) fn find<'a>(index: &Index<'a>, conditions: &[Condition]) -> Vec<Match<'a>> {
    let none = Inferred::new();
    index
        .templates
        .iter()
        .enumerate()
        .filter_map(|(i, t)| {
            let inferred = index.inferred.get(i).unwrap_or(&none);
            let all = conditions
                .iter()
                .all(|c| c.matches(t) || c.met_by_inferred(inferred));
            if !all || (t.capabilities.is_none() && inferred.is_empty()) {
                return None;
            }
            let asked: Inferred = inferred
                .iter()
                .filter(|(ty, _)| {
                    conditions.iter().any(|c| {
                        c.key == "resource_type" && c.requirement.any_of.iter().any(|v| v == *ty)
                    })
                })
                .map(|(ty, sites)| (ty.clone(), sites.clone()))
                .collect();
            Some(Match {
                path: &t.path,
                capabilities: t.capabilities.as_ref().unwrap_or_else(|| no_capabilities()),
                inferred: asked,
            })
        })
        .collect()
}

/// `template-capabilities`: key → every value offered (first-seen order,
/// `resource_type` excluded), as capabilities.md §3 prints it.
pub(crate) fn summary(index: &Index<'_>) -> IndexMap<String, Vec<serde_json::Value>> {
    index
        .by_key
        .iter()
        .map(|(k, values)| {
            (
                k.clone(),
                values.values().map(|e| e.value.clone()).collect(),
            )
        })
        .collect()
}

/// One template implementing a type, and why.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
#[non_exhaustive]
pub struct TypeImplementation {
    /// The template, as the user gave its path.
    pub template: String,
    /// Its `capabilities.resource_type` names the type.
    pub declared: bool,
    /// The environments' entries that map the type to it (empty when
    /// none: then it is declared).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub inferred_from: Vec<Site>,
}

/// `template-capabilities --by-type`: type → templates declaring it or
/// implementing it by inference.
pub(crate) fn by_type(index: &Index<'_>) -> IndexMap<String, Vec<TypeImplementation>> {
    index
        .by_type
        .iter()
        .map(|(ty, ts)| {
            (
                ty.clone(),
                ts.iter()
                    .map(|&i| {
                        let t = index.templates[i];
                        TypeImplementation {
                            template: t.path.clone(),
                            declared: t.implements(ty),
                            inferred_from: index
                                .inferred
                                .get(i)
                                .and_then(|m| m.get(ty))
                                .cloned()
                                .unwrap_or_default(),
                        }
                    })
                    .collect(),
            )
        })
        .collect()
}

/// `index`: every file with its status, kind and typed view.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
#[non_exhaustive]
pub struct IndexDocument<'a> {
    /// The shape's version; bumped only on an incompatible change.
    #[schemars(range(min = 1, max = 1))]
    pub heatcap_index: u32,
    /// Counts by kind and status.
    pub summary: IndexSummary,
    /// Every file, in walk order.
    pub files: Vec<FileEntry<'a>>,
    /// Problems found while walking (missing roots, unreadable directories).
    pub walk_diagnostics: &'a [Diagnostic],
}

/// Counts over the files of an index.
#[derive(Debug, Default, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
#[non_exhaustive]
pub struct IndexSummary {
    /// Files read.
    pub files: usize,
    /// Templates among them.
    pub templates: usize,
    /// Environments among them.
    pub environments: usize,
    /// Other files.
    pub other: usize,
    /// Files skipped.
    pub skipped: usize,
    /// Files that could not be read or parsed.
    pub errors: usize,
}

/// One file of the index document.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
#[non_exhaustive]
pub struct FileEntry<'a> {
    /// The file, as the user gave its path.
    pub path: &'a str,
    /// Whether it loaded.
    pub status: Status,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// What it is (absent unless parsed).
    pub kind: Option<FileKind>,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// Why it is not a Heat file.
    pub reason: Option<&'a str>,
    #[serde(flatten)]
    #[schemars(schema_with = "content_schema")]
    /// Its typed view.
    pub content: &'a Content,
    /// A template's types that environments of the index map to it (type →
    /// the entries): it implements them by inference, as if it declared
    /// them in `capabilities.resource_type` (absent when none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub inferred_resource_type: Option<&'a Inferred>,
    /// Its problems.
    pub diagnostics: &'a [Diagnostic],
}

/// The fields `content` adds to a file entry: a template's for the
/// template kinds, an environment's for `environment`, none otherwise
/// (`Content::None` flattens to nothing).
fn content_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
    let template = generator.subschema_for::<Template>();
    let environment = generator.subschema_for::<crate::model::Environment>();
    schemars::json_schema!({
        "if": {"properties": {"kind": {"enum": ["hot-template", "cfn-template"]}}, "required": ["kind"]},
        "then": template,
        "else": {
            "if": {"properties": {"kind": {"const": "environment"}}, "required": ["kind"]},
            "then": environment
        }
    })
}

/// Builds the `index` document from a corpus; `inferred` holds, per file
/// index, the types the file implements by inference.
pub(crate) fn index_document<'a>(
    corpus: &'a Corpus,
    inferred: &'a std::collections::HashMap<usize, Inferred>,
) -> IndexDocument<'a> {
    let mut summary = IndexSummary::default();
    let files = corpus
        .files
        .iter()
        .enumerate()
        .map(|(i, f)| {
            summary.files += 1;
            match (f.status, f.kind) {
                (Status::Error, _) => summary.errors += 1,
                (Status::Skipped, _) => summary.skipped += 1,
                (Status::Ok, Some(k)) if k.is_template() => summary.templates += 1,
                (Status::Ok, Some(FileKind::Environment)) => summary.environments += 1,
                (Status::Ok, _) => summary.other += 1,
            }
            FileEntry {
                path: &f.path,
                status: f.status,
                kind: f.kind,
                reason: f.reason,
                content: &f.content,
                inferred_resource_type: inferred.get(&i).filter(|m| !m.is_empty()),
                diagnostics: &f.diagnostics,
            }
        })
        .collect();
    IndexDocument {
        heatcap_index: 1,
        summary,
        files,
        walk_diagnostics: &corpus.walk_diagnostics,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::template::Format;

    fn template(path: &str, caps: &str) -> Template {
        let text = format!("heat_template_version: 2015-10-15\ncapabilities: {caps}\n");
        let parsed = crate::load::parse_text(&text, path, &crate::load::ParseOptions::default());
        let root = parsed.root.unwrap();
        let mut out = Vec::new();
        Template::from_node(path, Format::Hot, root.as_map().unwrap(), &mut out)
    }

    #[test]
    fn spec_example() {
        let p = template(
            "puppet/controller.yaml",
            "{deployment: puppet, resource_type: OS::TripleO::Controller}",
        );
        let d = template(
            "docker/controller.yaml",
            "{deployment: docker, resource_type: OS::TripleO::Controller}",
        );
        let ix = Index::from_templates([&p, &d]);
        let cond = Condition::parse("resource_type=OS::TripleO::Controller").unwrap();
        let found: Vec<_> = find(&ix, &[cond]).iter().map(|m| m.path).collect();
        assert_eq!(found, ["puppet/controller.yaml", "docker/controller.yaml"]);
        assert_eq!(
            serde_json::to_string(&summary(&ix)).unwrap(),
            r#"{"deployment":["puppet","docker"]}"#
        );
        let types = by_type(&ix);
        let paths: Vec<_> = types["OS::TripleO::Controller"]
            .iter()
            .map(|i| (i.template.as_str(), i.declared))
            .collect();
        assert_eq!(
            paths,
            [
                ("puppet/controller.yaml", true),
                ("docker/controller.yaml", true)
            ]
        );
    }

    #[test]
    fn conditions_are_anded_and_values_deduplicated_by_text() {
        let a = template("a.yaml", "{api: 2, tls: true, services: [nova, neutron]}");
        let b = template("b.yaml", "{api: '2', tls: false, extra: {nested: x}}");
        let ix = Index::from_templates([&a, &b]);
        let c = |s: &str| Condition::parse(s).unwrap();
        let paths = |cs: &[Condition]| find(&ix, cs).iter().map(|m| m.path).collect::<Vec<_>>();
        assert_eq!(paths(&[c("api=2")]), ["a.yaml", "b.yaml"]);
        assert_eq!(paths(&[c("api=2"), c("tls=yes")]), ["a.yaml"]);
        assert_eq!(paths(&[c("services=neutron")]), ["a.yaml"]);
        assert!(paths(&[c("extra={nested: x}")]).is_empty());
        assert_eq!(
            serde_json::to_string(&summary(&ix)).unwrap(),
            r#"{"api":[2],"tls":[true,false],"services":["nova","neutron"],"extra":[{"nested":"x"}]}"#
        );
    }

    #[test]
    fn inferred_types_match_resource_type_conditions_only() {
        let declared = template("d.yaml", "{deployment: puppet, resource_type: OS::A}");
        let plain = {
            let parsed = crate::load::parse_text(
                "heat_template_version: 2015-10-15\n",
                "p.yaml",
                &crate::load::ParseOptions::default(),
            );
            let mut out = Vec::new();
            Template::from_node(
                "p.yaml",
                Format::Hot,
                parsed.root.unwrap().as_map().unwrap(),
                &mut out,
            )
        };
        let site = Site {
            environment: "env.yaml".into(),
            line: 3,
        };
        let mut inferred = Inferred::new();
        inferred.insert("OS::A".into(), vec![site.clone()]);
        inferred.insert("OS::B".into(), vec![site.clone()]);
        let ix = Index::from_parts([(&declared, Inferred::new()), (&plain, inferred)]);
        let c = |s: &str| Condition::parse(s).unwrap();
        let found = find(&ix, &[c("resource_type=OS::A")]);
        let paths: Vec<_> = found.iter().map(|m| m.path).collect();
        assert_eq!(paths, ["d.yaml", "p.yaml"]);
        // Only the type asked for is reported, with where it came from.
        assert_eq!(found[1].inferred.keys().collect::<Vec<_>>(), ["OS::A"]);
        assert_eq!(found[1].inferred["OS::A"], [site]);
        assert!(found[1].capabilities.is_empty());
        assert!(found[0].inferred.is_empty());
        // Other keys read declarations only.
        let paths: Vec<_> = find(&ix, &[c("deployment=puppet")])
            .iter()
            .map(|m| m.path)
            .collect();
        assert_eq!(paths, ["d.yaml"]);
        assert!(find(&ix, &[c("resource_type=OS::B"), c("deployment=puppet")]).is_empty());
        let types = by_type(&ix);
        let a: Vec<_> = types["OS::A"]
            .iter()
            .map(|i| (i.template.as_str(), i.declared, i.inferred_from.len()))
            .collect();
        assert_eq!(a, [("d.yaml", true, 0), ("p.yaml", false, 1)]);
        assert_eq!(types.keys().collect::<Vec<_>>(), ["OS::A", "OS::B"]);
    }

    #[test]
    fn condition_syntax() {
        assert!(Condition::parse("novalue").is_none());
        assert!(Condition::parse("=x").is_none());
        let c = Condition::parse("k=a=b").unwrap();
        assert_eq!((c.key.as_str(), c.value.as_str()), ("k", "a=b"));
    }
}
