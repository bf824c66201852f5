//! Heat's `resource_registry` lookup (heat-semantics §2.3–2.9), plus
//! heatcap's list-valued entries.
//!
//! - Classification (§2.3), first match wins: a key ending `.yaml` or
//!   `.template` is a template (the key is the path); a value that is not a
//!   string is unusable (Heat crashes; heatcap's lists are the exception); a
//!   value ending `.yaml`/`.template` is a template; a key ending `*` is a
//!   glob; anything else is an alias to another type.
//! - Lookup (§2.4): candidates are the per-resource entry
//!   (`resources/NAME/TYPE`), the exact key, and every glob whose prefix
//!   starts the type (and whose value is not the type itself); they are
//!   sorted longer path first, then by plain string comparison of the paths,
//!   so a matching glob beats an exact key (`*` sorts before letters) and
//!   the broadest glob wins. A candidate that fails (an alias to a type that
//!   does not exist) falls through to the next. User entries come before
//!   Heat's global registry (its plugins and its shipped default.yaml).
//! - Deliberate difference (§2.9): Heat copies a per-resource alias into the
//!   top level after first use, so other resources' lookups depend on order;
//!   heatcap does not.

use indexmap::IndexMap;

use super::choose::choose;
use super::merge::{Entry, Merged};
use super::plugins::{is_plugin, DEFAULT_GLOBAL_ENVIRONMENT};
use super::{Catalog, Implementation, Resolution, ResolveError, Step, StepKind, Unresolved};
use crate::model::registry::{is_template_path, EntryValue, RegistryEntry, Scope};
use crate::model::Environment;

/// A registry entry's key path: `[TYPE]` or `[resources, NAME, TYPE]`.
pub(crate) type KeyPath = Vec<String>;

/// The effective registry of one stack (the root, or a nested stack with
/// its child-environment rules applied).
#[derive(Clone)]
pub struct Registry<'a> {
    envs: &'a [Environment],
    merged: &'a Merged,
    catalog: &'a dyn Catalog,
    /// Top-level entries after null deletions, in order.
    top: IndexMap<String, &'a Entry>,
    /// Per-resource entries: resource name → type key → entry.
    resources: IndexMap<String, IndexMap<String, Entry>>,
    /// A UI's selections (`--choose TYPE=PATH`): type → template path as
    /// given (relative to the working directory). They win over the
    /// environments, as an entry written into the user registry would.
    choices: IndexMap<String, String>,
    /// Glob keys by their prefix (built once, shared by child registries;
    /// a key no longer in `top` is skipped), so a lookup costs the length
    /// of the type, not the size of the registry.
    globs: std::rc::Rc<std::collections::HashMap<String, Vec<String>>>,
    /// The top-level keys child environments removed, in order (for
    /// telling a real cycle from a template used again lower down).
    removed: Vec<String>,
}

impl<'a> Registry<'a> {
    /// The root stack's registry: the merged entries, with nulls applied
    /// as deletions (a glob null deletes every earlier entry it matches).
    pub fn new(
        envs: &'a [Environment],
        merged: &'a Merged,
        catalog: &'a dyn Catalog,
    ) -> Registry<'a> {
        let mut top: IndexMap<String, &'a Entry> = IndexMap::new();
        for (key, entry) in &merged.entries {
            if entry.value == EntryValue::Null {
                match key.strip_suffix('*') {
                    Some(prefix) => top.retain(|k, _| !k.starts_with(prefix)),
                    None => {
                        top.shift_remove(key);
                    }
                }
                continue;
            }
            top.insert(key.clone(), entry);
        }
        let resources = merged.resources.clone();
        Registry {
            envs,
            merged,
            catalog,
            top,
            resources,
            choices: IndexMap::new(),
            removed: Vec::new(),
            globs: std::rc::Rc::new(std::collections::HashMap::new()),
        }
        .with_glob_index()
    }

    fn with_glob_index(mut self) -> Self {
        let mut globs: std::collections::HashMap<String, Vec<String>> =
            std::collections::HashMap::new();
        for (key, e) in &self.top {
            if let EntryValue::Glob { prefix, .. } = &e.value {
                globs.entry(prefix.clone()).or_default().push(key.clone());
            }
        }
        self.globs = std::rc::Rc::new(globs);
        self
    }

    /// What makes two stacks' registries differ: the entries removed on the
    /// way down, and the per-resource entries in force. A template met again
    /// with the same state is a cycle; with a smaller registry it is not.
    pub fn state(&self) -> String {
        let mut removed = self.removed.clone();
        removed.sort();
        let resources: Vec<String> = self
            .resources
            .iter()
            .map(|(n, m)| format!("{n}={:?}", m.keys().collect::<Vec<_>>()))
            .collect();
        format!("{removed:?}|{resources:?}")
    }

    /// The environments' `parameters`, merged (the root stack's values).
    pub fn root_parameters(&self) -> &IndexMap<String, serde_json::Value> {
        &self.merged.parameters
    }

    /// The environments' `parameter_defaults`, merged (every stack's).
    pub fn parameter_defaults(&self) -> &IndexMap<String, serde_json::Value> {
        &self.merged.parameter_defaults
    }

    /// The names the environments' `parameter_defaults` set, merged.
    pub fn parameter_default_names(&self) -> Vec<String> {
        self.merged.parameter_defaults.keys().cloned().collect()
    }

    /// The same registry with a UI's selections applied.
    #[must_use]
    pub fn with_choices(mut self, choices: IndexMap<String, String>) -> Registry<'a> {
        self.choices = choices;
        self
    }

    /// The registry a nested stack created by resource `name` sees
    /// (heat-semantics §3.4): the top-level entry that produced it is
    /// removed (so a template may use the type it implements; a
    /// per-resource entry is dropped with the drill-down below), and the
    /// per-resource entries under every key matching `name` (fnmatch, in
    /// order, the exact name last so that it wins) become the child's.
    #[must_use]
    pub fn child(&self, name: &str, producing: Option<&KeyPath>) -> Registry<'a> {
        let mut child = self.clone();
        if let Some([t]) = producing.map(Vec::as_slice) {
            child.removed.push(t.clone());
            child.top.shift_remove(t);
            child.choices.shift_remove(t);
        }
        let mut contents: IndexMap<String, &Entry> = IndexMap::new();
        let exact = self.resources.get(name);
        for (pattern, entries) in &self.resources {
            if pattern != name && fnmatch(pattern, name) {
                contents.extend(entries.iter().map(|(k, e)| (k.clone(), e)));
            }
        }
        if let Some(entries) = exact {
            contents.extend(entries.iter().map(|(k, e)| (k.clone(), e)));
        }
        child.resources = contents
            .into_iter()
            .filter_map(|(inner, e)| {
                let map = e.node.as_map()?;
                let scope = Scope::Resource(inner.clone());
                let entries = map
                    .entries
                    .iter()
                    .map(|(k, v)| {
                        let entry = RegistryEntry::new(scope.clone(), k, v);
                        (entry.key.clone(), Entry::from_model(&entry, e.origin.env))
                    })
                    .collect();
                Some((inner, entries))
            })
            .collect();
        child
    }

    /// Heat's `get_rsrc_restricted_actions(name)` (heat/engine/environment.py
    /// L377): the actions (`update`, `replace`) this stack's registry
    /// restricts for resource `name`, every `resources:` key matching it
    /// (fnmatch) contributing, with where the first is written
    /// (`env.yaml:LINE`); `None` when none is.
    pub(crate) fn restricted_actions(&self, name: &str) -> Option<(Vec<String>, String)> {
        let mut actions: Vec<String> = Vec::new();
        let mut site: Option<String> = None;
        for (pattern, entries) in &self.resources {
            if pattern != name && !fnmatch(pattern, name) {
                continue;
            }
            let Some(e) = entries.get("restricted_actions") else {
                continue;
            };
            let given = match e.node.value.to_json() {
                serde_json::Value::String(a) => vec![a],
                serde_json::Value::Array(items) => items
                    .iter()
                    .filter_map(|i| i.as_str().map(str::to_owned))
                    .collect(),
                _ => Vec::new(),
            };
            for a in given {
                if !actions.contains(&a) {
                    actions.push(a);
                }
            }
            site.get_or_insert_with(|| {
                let env = self
                    .envs
                    .get(e.origin.env)
                    .map_or("", |env| env.path.as_str());
                format!("{env}:{}", e.origin.span.start.line)
            });
        }
        (!actions.is_empty()).then(|| (actions, site.unwrap_or_default()))
    }

    /// Registry entries whose template does not exist or is not a template:
    /// python-heatclient fetches every template the registry names, so each
    /// is an error even when no resource uses it (heat-semantics §2.12).
    pub fn missing_targets(&self) -> Vec<crate::diag::Diagnostic> {
        self.missing_target_entries()
            .into_iter()
            .map(|(d, _)| d)
            .collect()
    }

    /// [`Self::missing_targets`], each with whether the file is absent (not
    /// a readable file at all, rather than a file that is not a template).
    pub fn missing_target_entries(&self) -> Vec<(crate::diag::Diagnostic, bool)> {
        let top = self.top.values().copied();
        let per = self.resources.values().flat_map(IndexMap::values);
        top.chain(per)
            .filter_map(|e| {
                let EntryValue::Template(target) = &e.value else {
                    return None;
                };
                let from = self.env_path(e);
                let found = self.catalog.template(from, target);
                let problem = found.problem?;
                let absent = self.catalog.file_problem(from, target).is_some();
                let d = crate::diag::Diagnostic::new(
                    super::compose::MISSING_TEMPLATE,
                    from,
                    format!(
                        "registry entry `{}` names `{}`: {problem}",
                        e.key, found.display
                    ),
                )
                .at(e.origin.span);
                Some((d, absent))
            })
            .collect()
    }

    /// Every top-level key, in merged order (for resolving the registry itself).
    pub fn keys(&self) -> Vec<String> {
        self.top.keys().cloned().collect()
    }

    /// Every entry looked up: the top-level keys, then the per-resource
    /// (name, type) pairs.
    pub fn lookup_all(&self) -> Vec<super::Resolution> {
        // A glob key maps types to types; Heat never looks the key itself up
        // (`OS::Networking::*: OS::Neutron::*` is Heat's own example).
        let top = self
            .keys()
            .into_iter()
            .filter(|k| !matches!(self.top[k].value, EntryValue::Glob { .. }))
            .map(|k| self.lookup(&k, None, None));
        let per = self
            .resource_keys()
            .into_iter()
            .map(|(n, t)| self.lookup(&t, Some(&n), None));
        top.chain(per).collect()
    }

    /// Every per-resource (name, type) pair. Nested maps (entries for the
    /// resources of a nested stack, applied by drill-down) and hooks are
    /// not type mappings.
    pub fn resource_keys(&self) -> Vec<(String, String)> {
        self.resources
            .iter()
            .flat_map(|(n, m)| {
                m.iter()
                    .filter(|(t, e)| {
                        e.value != EntryValue::Data
                            && !matches!(t.as_str(), "hooks" | "restricted_actions")
                    })
                    .map(move |(t, _)| (n.clone(), t.clone()))
            })
            .collect()
    }

    /// Looks up `type_name` for resource `resource` as Heat would. `from`
    /// is the template that uses the type, for types that are paths.
    pub fn lookup(
        &self,
        type_name: &str,
        resource: Option<&str>,
        from: Option<&str>,
    ) -> Resolution {
        let mut chain = Vec::new();
        let mut visiting = Vec::new();
        let result = self.find(type_name, resource, from, &mut chain, &mut visiting);
        let (implementation, error) = match result {
            Ok(i) => (Some(i), None),
            // Heat names the type originally asked for (§2.7).
            Err(ResolveError::NotFound { .. }) => (
                None,
                Some(ResolveError::NotFound {
                    type_name: type_name.to_owned(),
                }),
            ),
            Err(e) => (None, Some(e)),
        };
        Resolution {
            type_name: type_name.to_owned(),
            resource: resource.map(str::to_owned),
            implementation,
            chain,
            error,
        }
    }

    fn env_path(&self, entry: &Entry) -> &'a str {
        &self.envs[entry.origin.env].path
    }

    fn step(&self, kind: StepKind, entry: &Entry) -> Step {
        Step {
            kind,
            environment: Some(self.env_path(entry).to_owned()),
            key: entry.key.clone(),
            value: entry.node.value.to_json(),
            span: Some(entry.origin.span),
            selection: None,
            reason: None,
        }
    }

    fn find(
        &self,
        t: &str,
        resource: Option<&str>,
        from: Option<&str>,
        chain: &mut Vec<Step>,
        visiting: &mut Vec<String>,
    ) -> Result<Implementation, ResolveError> {
        if visiting.iter().any(|v| v == t) {
            let mut types = visiting.clone();
            types.push(t.to_owned());
            return Err(ResolveError::AliasLoop { types });
        }
        visiting.push(t.to_owned());
        let result = self.find_inner(t, resource, from, chain, visiting);
        visiting.pop();
        result
    }

    /// The user registry's candidates for `t`, in Heat's order: longer key
    /// path first, then plain string comparison of the paths (§2.4).
    fn candidates(&self, t: &str, resource: Option<&str>) -> Vec<(StepKind, &Entry)> {
        let mut found: Vec<(KeyPath, StepKind, &Entry)> = Vec::new();
        if let Some(name) = resource {
            if let Some(e) = self.resources.get(name).and_then(|m| m.get(t)) {
                found.push((
                    vec!["resources".into(), name.into(), t.into()],
                    StepKind::PerResource,
                    e,
                ));
            }
        }
        if let Some(e) = self.top.get(t) {
            found.push((vec![t.to_owned()], StepKind::Entry, e));
        }
        // Every glob whose prefix starts the type: look each prefix of the
        // type up.
        let ends = t
            .char_indices()
            .map(|(i, _)| i)
            .chain(std::iter::once(t.len()));
        for end in ends {
            for key in self.globs.get(&t[..end]).into_iter().flatten() {
                let Some(e) = self.top.get(key) else { continue };
                if let EntryValue::Glob { value, .. } = &e.value {
                    if key != t && t != value {
                        found.push((vec![key.clone()], StepKind::Glob, e));
                    }
                }
            }
        }
        found.sort_by(|a, b| b.0.len().cmp(&a.0.len()).then_with(|| a.0.cmp(&b.0)));
        found.into_iter().map(|(_, k, e)| (k, e)).collect()
    }

    fn find_inner(
        &self,
        t: &str,
        resource: Option<&str>,
        from: Option<&str>,
        chain: &mut Vec<Step>,
        visiting: &mut Vec<String>,
    ) -> Result<Implementation, ResolveError> {
        if let Some(path) = self.choices.get(t) {
            chain.push(Step {
                kind: StepKind::Chosen,
                environment: None,
                key: t.to_owned(),
                value: serde_json::Value::String(path.clone()),
                span: None,
                selection: None,
                reason: None,
            });
            return Ok(Implementation::Template(
                self.catalog.template("", path).display,
            ));
        }
        if self.removed.iter().any(|r| r == t) {
            if let Some(entry) = self.merged.entries.get(t) {
                chain.push(self.step(StepKind::Removed, entry));
            }
        }
        let candidates = self.candidates(t, resource);
        for (kind, entry) in candidates {
            let mut step = self.step(kind.clone(), entry);
            let from_env = self.env_path(entry);
            let target: Result<Implementation, ResolveError> = match &entry.value {
                EntryValue::Template(p) => {
                    chain.push(step);
                    return Ok(Implementation::Template(
                        self.catalog.template(from_env, p).display,
                    ));
                }
                EntryValue::Alias(v) => {
                    chain.push(step);
                    self.find(v, resource, None, chain, visiting)
                }
                EntryValue::Glob { prefix, value } => {
                    let rewritten = match value.strip_suffix('*') {
                        Some(vp) => format!("{vp}{}", &t[prefix.len()..]),
                        None => value.to_owned(),
                    };
                    step.reason = Some(format!("`{t}` becomes `{rewritten}`"));
                    chain.push(step);
                    self.find(&rewritten, resource, None, chain, visiting)
                }
                EntryValue::Candidates(cs) => {
                    let names: Vec<String> = cs.iter().map(|c| c.name.clone()).collect();
                    return self.decide(t, resource, &names, &kind, entry, step, chain, visiting);
                }
                EntryValue::Invalid(found) => {
                    chain.push(step);
                    return Err(ResolveError::InvalidValue {
                        type_name: t.to_owned(),
                        environment: from_env.to_owned(),
                        found: (*found).to_owned(),
                    });
                }
                EntryValue::Data | EntryValue::Null => continue,
            };
            match target {
                Err(ResolveError::NotFound { .. }) => {
                    // Heat falls through to the next candidate.
                    chain.push(Step {
                        kind: StepKind::FellThrough,
                        environment: Some(from_env.to_owned()),
                        key: entry.key.clone(),
                        value: entry.node.value.to_json(),
                        span: Some(entry.origin.span),
                        selection: None,
                        reason: Some(
                            "its target could not be found; trying the next entry".to_owned(),
                        ),
                    });
                }
                other => return other,
            }
        }
        self.global(t, from, chain, visiting)
    }

    /// A list-valued entry: choose by `requires`, then look up the choice.
    #[allow(clippy::too_many_arguments)]
    fn decide(
        &self,
        t: &str,
        resource: Option<&str>,
        names: &[String],
        kind: &StepKind,
        entry: &Entry,
        mut step: Step,
        chain: &mut Vec<Step>,
        visiting: &mut Vec<String>,
    ) -> Result<Implementation, ResolveError> {
        let from_env = self.env_path(entry);
        let selection = choose(t, names, from_env, &self.merged.requires, self.catalog);
        let chosen = selection.chosen.clone();
        step.selection = Some(selection.clone());
        chain.push(step);
        let Some(chosen) = chosen else {
            let entry_name = match kind {
                StepKind::PerResource => format!("resources/{}/{t}", resource.unwrap_or_default()),
                _ => entry.key.clone(),
            };
            let matching = selection.candidates.iter().filter(|c| c.matches).count();
            let detail = Box::new(Unresolved {
                type_name: t.to_owned(),
                environment: from_env.to_owned(),
                entry: entry_name,
                span: Some(entry.origin.span),
                selection,
            });
            return Err(if matching == 0 {
                ResolveError::NoMatch(detail)
            } else {
                ResolveError::Ambiguous(detail)
            });
        };
        if is_template_path(&chosen) {
            return Ok(Implementation::Template(
                self.catalog.template(from_env, &chosen).display,
            ));
        }
        self.find(&chosen, resource, None, chain, visiting)
    }

    /// Heat's global registry: a path used as a type, the shipped
    /// default.yaml, and the built-in plugins.
    fn global(
        &self,
        t: &str,
        from: Option<&str>,
        chain: &mut Vec<Step>,
        visiting: &mut Vec<String>,
    ) -> Result<Implementation, ResolveError> {
        let plain = |kind: StepKind, key: &str, value: &str| Step {
            kind,
            environment: None,
            key: key.to_owned(),
            value: serde_json::Value::String(value.to_owned()),
            span: None,
            selection: None,
            reason: None,
        };
        if is_template_path(t) {
            let display = match from {
                Some(f) => self.catalog.template(f, t).display,
                None => t.to_owned(),
            };
            chain.push(plain(StepKind::Path, t, t));
            return Ok(Implementation::Template(display));
        }
        if is_plugin(t) {
            chain.push(plain(StepKind::Plugin, t, t));
            return Ok(Implementation::Plugin(t.to_owned()));
        }
        for (key, value) in DEFAULT_GLOBAL_ENVIRONMENT {
            let rewritten = match key.strip_suffix('*') {
                Some(prefix) if t.starts_with(prefix) && t != *value => {
                    match value.strip_suffix('*') {
                        Some(vp) => format!("{vp}{}", &t[prefix.len()..]),
                        None => (*value).to_owned(),
                    }
                }
                None if *key == t => (*value).to_owned(),
                _ => continue,
            };
            chain.push(plain(StepKind::GlobalEntry, key, value));
            if is_template_path(&rewritten) {
                return Ok(Implementation::Template(rewritten));
            }
            return self.find(&rewritten, None, None, chain, visiting);
        }
        Err(ResolveError::NotFound {
            type_name: t.to_owned(),
        })
    }
}

/// Python's `fnmatch` for resource names (`*`, `?`, `[...]`).
fn fnmatch(pattern: &str, name: &str) -> bool {
    globset::GlobBuilder::new(pattern)
        .literal_separator(false)
        .build()
        .is_ok_and(|g| g.compile_matcher().is_match(name))
}
