//! The ONAP profile (`validate --profile onap`): the statically checkable
//! requirements of the ONAP VNF requirements, section 5.2.2 (Heat
//! Orchestration Template format and environment files).
//!
//! A directory is one VNF package. Its files are told apart as ONAP's
//! validation scripts tell them apart ([`ModuleKind`]): `.env` files are
//! environments; a `.yaml`/`.yml` file another template of the package names
//! as a resource type (directly or as a `ResourceGroup`'s `resource_def`) is
//! nested; of the rest, a name ending in `_volume` is a volume module, a name
//! with a `base` word (`base_x`, `x_base`, `x_base_y`, `base`) a base module,
//! anything else an incremental module. Cross-file rules (unique resource
//! IDs, every module has its environment file) see the whole [`Package`].

pub(crate) mod duplicate_key;
pub(crate) mod empty_resources;
pub(crate) mod environment_resource_registry;
pub(crate) mod environment_without_parameters;
pub(crate) mod metadata_not_map;
pub(crate) mod missing_description;
pub(crate) mod missing_environment_file;
pub(crate) mod missing_template_version;
pub(crate) mod module_without_resources;
pub(crate) mod nested_get_param;
pub(crate) mod nested_parameter_constraints;
pub(crate) mod orphan_environment_file;
pub(crate) mod parameter_default;
pub(crate) mod parameter_name;
pub(crate) mod parameter_type;
pub(crate) mod parameter_without_description;
pub(crate) mod parameter_without_type;
pub(crate) mod port_on_many_servers;
pub(crate) mod remote_resource_type;
pub(crate) mod repeated_resource_id;
pub(crate) mod resource_id_characters;
pub(crate) mod template_without_parameters;
pub(crate) mod unprovided_resource_type;
pub(crate) mod unused_parameter;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use crate::diag::{codes, Code, Diagnostic, Span};
use crate::model::{FileRecord, Mapping, Node};
use crate::validate::RuleMeta;
use crate::walk::normalize;

/// The requirement every template failing Heat's own rules breaks: "MUST be
/// compliant with the OpenStack Template Guide".
pub(crate) const OPENSTACK_COMPLIANCE: &str = "R-92635";

pub(crate) use crate::model::package::ModuleKind;

/// One file of a package.
pub(crate) struct PackageFile<'a> {
    pub record: &'a FileRecord,
    pub kind: ModuleKind,
    /// The file name without its extension.
    pub stem: String,
}

/// One VNF package: the files of one directory, classified.
pub(crate) struct Package<'a> {
    pub files: Vec<PackageFile<'a>>,
    /// Every resource ID of the package's templates, with the files (by
    /// index) and key spans that declare it.
    pub resource_ids: BTreeMap<String, Vec<(usize, Span)>>,
    /// The stems of the package's `.env` files.
    pub env_stems: BTreeSet<String>,
    /// The kind of each YAML template, by stem (the first of a stem wins).
    pub template_stems: BTreeMap<String, ModuleKind>,
}

/// What an ONAP rule sees: one file of a package, and the package.
pub(crate) struct OnapContext<'a> {
    pub index: usize,
    pub file: &'a FileRecord,
    /// The document's top-level mapping, when it parsed to one.
    pub root: Option<&'a Mapping>,
    pub kind: ModuleKind,
    pub package: &'a Package<'a>,
}

impl<'a> OnapContext<'a> {
    /// A finding at `span`, or at the start of the document.
    pub(crate) fn finding(
        &self,
        meta: &RuleMeta,
        span: Option<Span>,
        message: impl Into<String>,
    ) -> Diagnostic {
        Diagnostic::new(meta.code, self.file.path.clone(), message)
            .at(span.unwrap_or_else(|| self.document_start()))
    }

    /// Where file-level findings point: the document's first node.
    pub(crate) fn document_start(&self) -> Span {
        self.file.tree.as_ref().map_or(Span::point(1, 1), |t| {
            Span::point(t.span.start.line, t.span.start.column)
        })
    }

    /// The entries of a template's `parameters` (none for other files).
    pub(crate) fn parameters(&self) -> &'a [(Node, Node)] {
        self.template_section("parameters")
    }

    /// The entries of a template's `resources` (none for other files).
    pub(crate) fn resources(&self) -> &'a [(Node, Node)] {
        self.template_section("resources")
    }

    /// Each resource's id with its `type` node and, for a
    /// `ResourceGroup`, its `resource_def`'s `type` node (the types ONAP's
    /// rules on types read).
    pub(crate) fn resource_types(&self) -> Vec<(String, &'a Node)> {
        let mut out = Vec::new();
        for (key, body) in self.resources() {
            let Some(body) = body.as_map() else { continue };
            let member = body
                .get("properties")
                .and_then(Node::as_map)
                .and_then(|p| p.get("resource_def"))
                .and_then(Node::as_map)
                .and_then(|d| d.get("type"));
            for t in body.get("type").into_iter().chain(member) {
                out.push((key.value.key_text(), t));
            }
        }
        out
    }

    fn template_section(&self, name: &str) -> &'a [(Node, Node)] {
        if !self.kind.is_template() {
            return &[];
        }
        self.root
            .and_then(|r| r.get(name))
            .and_then(Node::as_map)
            .map_or(&[], |m| m.entries.as_slice())
    }

    /// True when the file parsed but has no top-level `name` (an empty
    /// document, or one that is not a mapping, has no sections).
    pub(crate) fn lacks_section(&self, name: &str) -> bool {
        self.file.tree.is_some() && !self.root.is_some_and(|r| r.contains_key(name))
    }

    /// A top-level section's mapping, with its key.
    pub(crate) fn section(&self, name: &str) -> Option<&(Node, Node)> {
        self.root?.entry(name)
    }
}

/// One ONAP rule.
pub(crate) trait OnapRule: Sync {
    fn meta(&self) -> &'static RuleMeta;
    fn check(&self, cx: &OnapContext<'_>, out: &mut Vec<Diagnostic>);

    /// Codes of HOT-profile rules this rule replaces: on the files the ONAP
    /// profile checks, their findings give way to this rule's, which check
    /// the same thing with ONAP's severity and exemptions.
    fn replaces(&self) -> &'static [Code] {
        &[]
    }
}

/// The HOT-profile codes that give way on this file: those every ONAP
/// rule replacing them is selected for, where those rules read the file
/// (duplicate keys in any template or environment; the rest in HOT
/// templates, since the ONAP rules read HOT sections only).
pub(crate) fn replaced_codes(
    cx: &OnapContext<'_>,
    selection: &crate::validate::Selection,
) -> Vec<Code> {
    let rules = crate::validate::registry::ONAP_RULES;
    // HOT templates, and the versionless ones read as such.
    let hot = cx.root.is_some_and(|r| {
        r.contains_key("heat_template_version")
            || (crate::load::classify::has_template_section(r)
                && !crate::load::classify::CFN_VERSION_KEYS
                    .iter()
                    .any(|k| r.contains_key(k)))
    });
    let applies = cx.kind == ModuleKind::Environment || cx.kind.is_template();
    let mut out: Vec<Code> = Vec::new();
    for code in rules.iter().flat_map(|r| r.replaces().iter().copied()) {
        let all_selected = rules
            .iter()
            .filter(|r| r.replaces().contains(&code))
            .all(|r| selection.includes(r.meta().code));
        let reads = applies && (code == codes::DUPLICATE_KEY || hot);
        if all_selected && reads && !out.contains(&code) {
            out.push(code);
        }
    }
    out
}

fn extension(path: &str) -> String {
    Path::new(path)
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default()
}

fn stem(path: &str) -> String {
    Path::new(path)
        .file_stem()
        .map(|e| e.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// A base module's name (ONAP: `base`, `base_x`, `x_base`, `x_base_y`).
fn is_base_name(stem: &str) -> bool {
    let s = stem.to_ascii_lowercase();
    !s.ends_with("_volume")
        && (s == "base" || s.starts_with("base_") || s.ends_with("_base") || s.contains("_base_"))
}

/// The template files a template names as nested: resource types ending in
/// `.yaml`/`.yml`, and `OS::Heat::ResourceGroup` definitions' types.
pub(crate) fn nested_references(root: &Mapping) -> Vec<&str> {
    let mut out = Vec::new();
    let Some(resources) = root.get("resources").and_then(Node::as_map) else {
        return out;
    };
    // Case-sensitive, as ONAP's validator compares.
    let is_file = |t: &str| {
        Path::new(t)
            .extension()
            .is_some_and(|e| e == "yaml" || e == "yml")
    };
    for (_, body) in &resources.entries {
        let Some(body) = body.as_map() else { continue };
        match body.get("type").and_then(Node::as_str) {
            Some("OS::Heat::ResourceGroup") => {
                if let Some(t) = body
                    .get("properties")
                    .and_then(Node::as_map)
                    .and_then(|p| p.get("resource_def"))
                    .and_then(Node::as_map)
                    .and_then(|d| d.get("type"))
                    .and_then(Node::as_str)
                    .filter(|t| is_file(t))
                {
                    out.push(t);
                }
            }
            Some(t) if is_file(t) => out.push(t),
            _ => {}
        }
    }
    out
}

impl<'a> Package<'a> {
    /// Classifies the files of one directory.
    pub(crate) fn new(records: &'a [FileRecord]) -> Package<'a> {
        let roots: Vec<Option<&Mapping>> = records
            .iter()
            .map(|r| r.tree.as_ref().and_then(Node::as_map))
            .collect();
        let yaml = |r: &FileRecord| matches!(extension(&r.path).as_str(), "yaml" | "yml");
        let mut nested: BTreeSet<String> = BTreeSet::new();
        for (r, root) in records.iter().zip(&roots) {
            let (Some(root), true) = (root, yaml(r)) else {
                continue;
            };
            let dir = Path::new(&r.path).parent().unwrap_or(Path::new(""));
            let me = normalize(Path::new(&r.path));
            for t in nested_references(root) {
                let target = normalize(&dir.join(t));
                if target != me {
                    nested.insert(target);
                }
            }
        }
        let mut files = Vec::with_capacity(records.len());
        let mut resource_ids: BTreeMap<String, Vec<(usize, Span)>> = BTreeMap::new();
        let mut env_stems = BTreeSet::new();
        let mut template_stems = BTreeMap::new();
        for (i, (r, root)) in records.iter().zip(&roots).enumerate() {
            let stem = stem(&r.path);
            let kind = if extension(&r.path) == "env" {
                env_stems.insert(stem.clone());
                ModuleKind::Environment
            } else if !yaml(r) {
                ModuleKind::Other
            } else if nested.contains(&normalize(Path::new(&r.path))) {
                ModuleKind::Nested
            } else if stem.ends_with("_volume") {
                ModuleKind::Volume
            } else if is_base_name(&stem) {
                ModuleKind::Base
            } else {
                ModuleKind::Incremental
            };
            if kind.is_template() {
                template_stems.entry(stem.clone()).or_insert(kind);
                if let Some(res) = root.and_then(|m| m.get("resources")).and_then(Node::as_map) {
                    for (k, _) in &res.entries {
                        resource_ids
                            .entry(k.value.key_text())
                            .or_default()
                            .push((i, k.span));
                    }
                }
            }
            files.push(PackageFile {
                record: r,
                kind,
                stem,
            });
        }
        Package {
            files,
            resource_ids,
            env_stems,
            template_stems,
        }
    }

    /// The context for the file at `index`.
    pub(crate) fn context(&'a self, index: usize) -> OnapContext<'a> {
        let f = &self.files[index];
        OnapContext {
            index,
            file: f.record,
            root: f.record.tree.as_ref().and_then(Node::as_map),
            kind: f.kind,
            package: self,
        }
    }
}

/// A YAML template of the package that has template sections but no
/// version key (so it loaded as neither a template nor an environment),
/// read as a HOT template: ONAP's scripts check such a file like any other
/// (`test_03_all_referenced_resources_exists`, `test_05_all_get_param_have_defined_parameter`)
/// and Heat refuses it ("Template format version not found."), which
/// E1001 reports. `None` for every other file.
pub(crate) fn versionless_template(file: &PackageFile<'_>) -> Option<FileRecord> {
    let record = file.record;
    if !file.kind.is_template()
        || record.kind != Some(crate::load::classify::FileKind::Other)
        || !matches!(record.content, crate::model::Content::None)
    {
        return None;
    }
    let root = record.tree.as_ref()?.as_map()?;
    if !crate::load::classify::has_template_section(root) {
        return None;
    }
    let mut copy = record.clone();
    // Problems in its `capabilities` are the template's findings once it
    // has a version; the refusal comes first.
    copy.content = crate::model::Content::Template(Box::new(crate::model::Template::from_node(
        &record.path,
        crate::model::Format::Hot,
        root,
        &mut Vec::new(),
    )));
    Some(copy)
}

/// Only ASCII letters, digits and `_` (ONAP's names), and not empty.
pub(crate) fn is_word(name: &str) -> bool {
    !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// Every `{get_param: ARG}` below `node`: the argument and the key's span.
pub(crate) fn get_params<'a>(node: &'a Node, out: &mut Vec<(&'a Node, Span)>) {
    match &node.value {
        crate::model::Value::Map(m) => {
            if let [(k, v)] = m.entries.as_slice() {
                if k.value.as_str() == Some("get_param") {
                    out.push((v, k.span));
                }
            }
            for (_, v) in &m.entries {
                get_params(v, out);
            }
        }
        crate::model::Value::Seq(items) => {
            for i in items {
                get_params(i, out);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::{load_one, LoadOptions};
    use crate::walk::Source;

    fn package_of(files: &[(&str, &str)]) -> (tempfile::TempDir, Vec<FileRecord>) {
        let dir = tempfile::tempdir().unwrap();
        let records = files
            .iter()
            .map(|(name, text)| {
                let path = dir.path().join(name);
                std::fs::write(&path, text).unwrap();
                let source = Source {
                    display: path.display().to_string(),
                    path,
                    explicit: false,
                    jinja: false,
                    entry: crate::walk::Entry::Unseen,
                };
                FileRecord::from_loaded(load_one(&source, &LoadOptions::default()), true)
            })
            .collect();
        (dir, records)
    }

    #[test]
    fn module_kinds_as_onap_tells_them() {
        let module = "heat_template_version: 2016-10-14\nresources:\n  g:\n    type: OS::Heat::ResourceGroup\n    properties:\n      resource_def: {type: member.yaml}\n  s: {type: ./sub.yml}\n";
        let plain = "heat_template_version: 2016-10-14\nresources: {}\n";
        let (_dir, records) = package_of(&[
            ("base_vnf.yaml", plain),
            ("module_1.yaml", module),
            ("member.yaml", plain),
            ("sub.yml", plain),
            ("db_volume.yaml", plain),
            ("base_volume.yaml", plain),
            ("module_1.env", "parameters: {}\n"),
            ("notes.json", "{}"),
        ]);
        let package = Package::new(&records);
        let kinds: Vec<ModuleKind> = package.files.iter().map(|f| f.kind).collect();
        assert_eq!(
            kinds,
            [
                ModuleKind::Base,
                ModuleKind::Incremental,
                ModuleKind::Nested,
                ModuleKind::Nested,
                ModuleKind::Volume,
                ModuleKind::Volume,
                ModuleKind::Environment,
                ModuleKind::Other,
            ]
        );
        assert!(package.env_stems.contains("module_1"));
        assert_eq!(package.resource_ids["g"].len(), 1);
    }

    #[test]
    fn a_template_nesting_itself_is_not_nested() {
        let me = "heat_template_version: 2016-10-14\nresources:\n  again: {type: module_1.yaml}\n";
        let (_dir, records) = package_of(&[("module_1.yaml", me)]);
        assert_eq!(
            Package::new(&records).files[0].kind,
            ModuleKind::Incremental
        );
    }

    #[test]
    fn base_names_as_onap_reads_them() {
        for s in ["base", "base_vnf", "vnf_base", "my_base_module", "BASE_x"] {
            assert!(is_base_name(s), "{s}");
        }
        for s in [
            "baseline",
            "vnf_database",
            "module_1",
            "base_volume",
            "x_base_volume",
        ] {
            assert!(!is_base_name(s), "{s}");
        }
    }
}
