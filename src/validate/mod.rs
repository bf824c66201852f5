//! Stage 4c: validation. Rules are data plus a function: each lives in its
//! own file with its metadata (code, name, summary, source), and
//! [`registry::RULES`] lists them in code order. docs/rules.md is generated
//! from that table (a test fails when it is stale).

pub(crate) mod env;
pub(crate) mod hot;
pub(crate) mod onap;
pub(crate) mod registry;

use rayon::prelude::*;

use crate::diag::{Code, Diagnostic, Severity};
use crate::model::{Environment, FileRecord, Mapping, Node, Template};

/// A rule's metadata: its entry in the catalogue of codes.
pub(crate) use crate::diag::CodeInfo as RuleMeta;

/// What a rule sees: one loaded template, its tree and its view.
pub(crate) struct Context<'a> {
    pub file: &'a FileRecord,
    pub root: &'a Mapping,
    pub template: &'a Template,
    /// The types the environments given with `-e` map.
    pub mapped: &'a MappedTypes,
    /// What Heat's resource plugins say about the template, found once
    /// for all the rules that report it (`hot::plugin_schema`).
    schema: std::sync::OnceLock<Vec<hot::plugin_schema::Finding>>,
    /// Heat's function tables for the template's version.
    tables: std::sync::OnceLock<Option<hot::functions::Tables>>,
}

impl<'a> Context<'a> {
    /// The context of one template.
    pub(crate) fn new(
        file: &'a FileRecord,
        root: &'a Mapping,
        template: &'a Template,
        mapped: &'a MappedTypes,
    ) -> Context<'a> {
        Context {
            file,
            root,
            template,
            mapped,
            schema: std::sync::OnceLock::new(),
            tables: std::sync::OnceLock::new(),
        }
    }

    /// Heat's function tables for the template's version (`None` when it
    /// is unknown; computed on the first call).
    pub(crate) fn tables(&self) -> Option<&hot::functions::Tables> {
        self.tables
            .get_or_init(|| hot::functions::Tables::compute(self))
            .as_ref()
    }

    /// What Heat's resource plugins say about the template (computed on
    /// the first call).
    pub(crate) fn schema_findings(&self) -> &[hot::plugin_schema::Finding] {
        self.schema.get_or_init(|| hot::plugin_schema::check(self))
    }
}

/// The resource types the environments given with `-e` map: every key of
/// every entry (top level or under `resources:`) that maps a type to
/// something, and every glob. A resource of such a type is left to the
/// composition, which knows what the environments make of it; the rules on
/// Heat's own types check only what reaches Heat's global registry.
#[derive(Debug, Default)]
pub(crate) struct MappedTypes {
    /// The environments are composed with every template (`-e`), which
    /// reports the types nothing provides (E7004).
    pub composed: bool,
    exact: std::collections::HashSet<String>,
    prefixes: Vec<String>,
}

impl MappedTypes {
    /// The types `envs` map (not composed: see [`MappedTypes::composed`]).
    pub(crate) fn of<'e>(envs: impl IntoIterator<Item = &'e Environment>) -> MappedTypes {
        use crate::model::registry::EntryValue;
        let mut out = MappedTypes::default();
        for e in envs.into_iter().flat_map(|e| &e.entries) {
            match &e.value {
                EntryValue::Glob { prefix, .. } => out.prefixes.push(prefix.clone()),
                EntryValue::Template(_)
                | EntryValue::Alias(_)
                | EntryValue::Candidates(_)
                | EntryValue::Invalid(_) => {
                    out.exact.insert(e.key.clone());
                }
                EntryValue::Null | EntryValue::Data => {}
            }
        }
        out
    }

    /// True when an environment maps `type_name` (exactly or by a glob).
    pub(crate) fn maps(&self, type_name: &str) -> bool {
        self.exact.contains(type_name) || self.prefixes.iter().any(|p| type_name.starts_with(p))
    }
}

impl Context<'_> {
    /// A finding of `meta`'s code at the node `key_path` points to.
    pub(crate) fn finding(
        &self,
        meta: &RuleMeta,
        key_path: &[&str],
        message: impl Into<String>,
    ) -> Diagnostic {
        let path: Vec<String> = key_path.iter().map(|s| (*s).to_owned()).collect();
        let span = self.file.tree.as_ref().map(|t| t.span_of(&path));
        let mut d = Diagnostic::new(meta.code, self.file.path.clone(), message).with_key_path(path);
        if let Some(s) = span {
            d = d.at(s);
        }
        d
    }

    /// A finding at the key (not the value) of `section` in the root.
    pub(crate) fn key_finding(
        &self,
        meta: &RuleMeta,
        section: &str,
        message: impl Into<String>,
    ) -> Diagnostic {
        let mut d = Diagnostic::new(meta.code, self.file.path.clone(), message)
            .with_key_path(vec![section.to_owned()]);
        if let Some((k, _)) = self.root.entry(section) {
            d = d.at(k.span);
        }
        d
    }
}

/// Every argument of the intrinsic function `func` below `node` (a mapping
/// with that single key), in document order.
pub(crate) fn function_args<'a>(node: &'a Node, func: &str, out: &mut Vec<&'a Node>) {
    match &node.value {
        crate::model::Value::Map(m) => {
            if m.len() == 1 {
                if let Some((k, v)) = m.entries.first() {
                    if k.value.as_str() == Some(func) {
                        out.push(v);
                    }
                }
            }
            for (_, v) in &m.entries {
                function_args(v, func, out);
            }
        }
        crate::model::Value::Seq(items) => {
            for i in items {
                function_args(i, func, out);
            }
        }
        _ => {}
    }
}

/// The name a reference function's argument names: `X`, or the first item
/// of `[X, ...]`.
pub(crate) fn reference_name(arg: &Node) -> Option<(&str, crate::diag::Span)> {
    match &arg.value {
        crate::model::Value::Str(s) => Some((s, arg.span)),
        crate::model::Value::Seq(items) => items
            .first()
            .and_then(|n| n.value.as_str().map(|s| (s, n.span))),
        _ => None,
    }
}

/// One rule.
pub(crate) trait Rule: Sync {
    fn meta(&self) -> &'static RuleMeta;
    fn check(&self, cx: &Context<'_>, out: &mut Vec<Diagnostic>);
}

/// What an environment rule sees.
pub(crate) struct EnvContext<'a> {
    pub file: &'a FileRecord,
    pub env: &'a Environment,
    /// Path prefixes read from elsewhere (`--templates-root`).
    pub remap: &'a crate::walk::Remap,
    /// What the run has learnt of the disk (through the files read
    /// instead of the disk's: rendered outputs, buffers).
    pub disk: &'a crate::vfs::Disk,
}

/// One environment rule.
pub(crate) trait EnvRule: Sync {
    fn meta(&self) -> &'static RuleMeta;
    fn check(&self, cx: &EnvContext<'_>, out: &mut Vec<Diagnostic>);
}

/// Which rules run: code prefixes to select and to ignore.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct Selection {
    /// Run only codes starting with one of these prefixes (all when empty).
    pub select: Vec<String>,
    /// Skip codes starting with one of these prefixes.
    pub ignore: Vec<String>,
}

impl Selection {
    /// Keep the codes starting with one of `select` (all when empty) and
    /// none starting with one of `ignore`.
    pub fn new(select: Vec<String>, ignore: Vec<String>) -> Selection {
        Selection { select, ignore }
    }

    /// True when findings of `code` are kept.
    pub fn includes(&self, code: Code) -> bool {
        let selected =
            self.select.is_empty() || self.select.iter().any(|p| code.0.starts_with(p.as_str()));
        selected && !self.ignore.iter().any(|p| code.0.starts_with(p.as_str()))
    }
}

/// Runs the selected rules over one file (templates and environments);
/// `mapped` are the types the environments given map, `disk` what the run
/// has learnt of the disk.
pub(crate) fn check_file(
    file: &FileRecord,
    selection: &Selection,
    remap: &crate::walk::Remap,
    mapped: &MappedTypes,
    disk: &crate::vfs::Disk,
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    if let Some(env) = file.environment() {
        // What Heat refuses when it loads the file is the model's own.
        out.extend(
            env.problems
                .iter()
                .filter(|d| selection.includes(d.code))
                .cloned(),
        );
        let cx = EnvContext {
            file,
            env,
            remap,
            disk,
        };
        for rule in registry::ENV_RULES {
            if selection.includes(rule.meta().code) {
                rule.check(&cx, &mut out);
            }
        }
        out.sort_by_key(|d| d.span);
        return out;
    }
    let (Some(template), Some(root)) = (file.template(), file.tree.as_ref().and_then(Node::as_map))
    else {
        return out;
    };
    let cx = Context::new(file, root, template, mapped);
    for rule in registry::RULES {
        if selection.includes(rule.meta().code) {
            rule.check(&cx, &mut out);
        }
    }
    out.sort_by_key(|d| d.span);
    out
}

/// Which rule sets run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Profile {
    /// The HOT, CFN and environment rules.
    #[default]
    Hot,
    /// Those, plus the ONAP VNF requirements; a directory is one package.
    Onap,
}

/// Runs the selected rules over the files of one directory (one VNF
/// package under [`Profile::Onap`]): per file, in the order given, its load
/// diagnostics, then the findings in document order, and (under the ONAP
/// profile) what the file is in its package.
///
/// Under the ONAP profile every error counts against R-92635 (compliance
/// with the OpenStack Template Guide) and says so, ONAP findings carry their
/// rule's requirement IDs, and a HOT rule whose every replacing ONAP rule
/// runs on the file (W0010 by E8001; on HOT templates W2003 by E8005,
/// E2001 by E8007 and E8008) reports nothing there.
pub(crate) fn check_package(
    records: &[FileRecord],
    selection: &Selection,
    profile: Profile,
    overlay: &crate::vfs::FileOverlay,
) -> Vec<(Vec<Diagnostic>, Option<onap::ModuleKind>)> {
    let package = (profile == Profile::Onap).then(|| onap::Package::new(records));
    // A package is self-contained: its environments are what maps types.
    let mapped = MappedTypes::of(records.iter().filter_map(FileRecord::environment));
    let disk = crate::vfs::Disk::new(overlay);
    (0..records.len())
        .into_par_iter()
        .map(|i| {
            let record = &records[i];
            let mut found = record.diagnostics.clone();
            // A template of the package without a version key is read as
            // a HOT template anyway, so that Heat's refusal of it (E1001)
            // and its other findings count against R-92635 (issue 29).
            let versionless = package
                .as_ref()
                .and_then(|p| onap::versionless_template(&p.files[i]));
            let mut rules = check_file(
                versionless.as_ref().unwrap_or(record),
                selection,
                &crate::walk::Remap::default(),
                &mapped,
                &disk,
            );
            if let Some(package) = &package {
                for d in found.iter_mut().chain(rules.iter_mut()) {
                    if d.severity == Severity::Error {
                        d.requirements = vec![onap::OPENSTACK_COMPLIANCE];
                    }
                }
                let cx = package.context(i);
                let mut onap_found = Vec::new();
                for rule in registry::ONAP_RULES {
                    let meta = rule.meta();
                    if selection.includes(meta.code) {
                        let start = onap_found.len();
                        rule.check(&cx, &mut onap_found);
                        for d in &mut onap_found[start..] {
                            d.requirements = meta.requirements();
                        }
                    }
                }
                let replaced = onap::replaced_codes(&cx, selection);
                found.retain(|d| !replaced.contains(&d.code));
                rules.retain(|d| !replaced.contains(&d.code));
                rules.extend(onap_found);
                rules.sort_by_key(|d| d.span);
            }
            found.extend(rules);
            found.retain(|d| selection.includes(d.code));
            (found, package.as_ref().map(|p| p.files[i].kind))
        })
        .collect()
}
