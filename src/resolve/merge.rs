//! Merging environment files in order, as `openstack stack create -e a -e b`
//! does (heat-semantics §2.11–2.12): python-heatclient resolves each file's
//! relative paths against that file's directory, then the server merges the
//! files: `resource_registry` by a shallow, one-level update that skips
//! later nulls, a later `resources:` replacing the earlier one; heatcap's
//! `requires` merges key by key, later winning (capabilities.md §2).
//!
//! The input is the environment model ([`Environment`]): its entries are
//! classified once, when the file is loaded.

use indexmap::IndexMap;
use serde_json::Value as J;

use crate::diag::{codes, Diagnostic, Span};
use crate::model::capability::{CapValue, Requirement};
use crate::model::registry::{EntryValue, RegistryEntry, Scope};
use crate::model::Environment;

/// Where an entry came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Origin {
    /// Index into the environment list.
    pub env: usize,
    /// The entry's key.
    pub span: Span,
}

/// One `resource_registry` entry after merging: the environment's entry
/// (read through [`std::ops::Deref`]) and where it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub entry: RegistryEntry,
    pub origin: Origin,
}

impl Entry {
    /// The merged form of one environment's entry.
    pub fn from_model(e: &RegistryEntry, env: usize) -> Entry {
        Entry {
            entry: e.clone(),
            origin: Origin { env, span: e.span },
        }
    }
}

impl std::ops::Deref for Entry {
    type Target = RegistryEntry;

    fn deref(&self) -> &RegistryEntry {
        &self.entry
    }
}

/// The merged environment.
#[derive(Debug, Clone, Default)]
pub struct Merged {
    /// Top-level entries, `resources` excluded, in first-seen order.
    pub entries: IndexMap<String, Entry>,
    /// `resources`: resource name → entries, from the last file that had it.
    pub resources: IndexMap<String, IndexMap<String, Entry>>,
    /// `requires`, merged key by key.
    pub requires: IndexMap<String, (Requirement, CapValue, Origin)>,
    /// `parameters`, merged key by key, later winning.
    pub parameters: IndexMap<String, J>,
    /// `parameter_defaults`, merged key by key, later winning.
    pub parameter_defaults: IndexMap<String, J>,
    /// Where each merged value of `parameters` (`[0]`) and
    /// `parameter_defaults` (`[1]`) is written: the environment that gave
    /// it and its key.
    pub parameter_origins: [IndexMap<String, Origin>; 2],
    /// `event_sinks` and `encrypted_param_names`: the last file's that is
    /// not null.
    pub other_sections: IndexMap<String, J>,
    /// The environments' own problems (heat-semantics §2.1, §2.3), then
    /// the merge's (W6001, W6002).
    pub diagnostics: Vec<Diagnostic>,
}

impl Merged {
    /// Heat's server-side merge of `parameters` and `parameter_defaults`
    /// (heat/common/environment_util.py `merge_parameters`, heat-semantics
    /// §2.11): the first file that sets a section is taken whole; from then
    /// on a later file's key is kept only if some uploaded template declares
    /// a parameter of that name (`schemata`) and its value is not null. So
    /// a later file's unknown names are dropped silently, as Heat drops them.
    pub fn apply_parameter_schemata(
        &mut self,
        envs: &[Environment],
        schemata: &std::collections::HashSet<String>,
    ) {
        let merged = |idx: usize| {
            let mut out: IndexMap<String, J> = IndexMap::new();
            let mut origins: IndexMap<String, Origin> = IndexMap::new();
            for (i, env) in envs.iter().enumerate() {
                let new = if idx == 0 {
                    &env.parameters
                } else {
                    &env.parameter_defaults
                };
                let first = out.is_empty();
                for (k, v) in new {
                    if first || (schemata.contains(k) && !v.is_null()) {
                        out.insert(k.clone(), v.clone());
                        origins.insert(k.clone(), origin(env, i, idx, k));
                    }
                }
            }
            (out, origins)
        };
        let (parameters, from_parameters) = merged(0);
        let (defaults, from_defaults) = merged(1);
        self.parameters = parameters;
        self.parameter_defaults = defaults;
        self.parameter_origins = [from_parameters, from_defaults];
    }
}

/// Where environment `env` (number `i`) writes `name` in `parameters`
/// (`idx` 0) or `parameter_defaults` (1).
fn origin(env: &Environment, i: usize, idx: usize, name: &str) -> Origin {
    Origin {
        env: i,
        span: env.parameter_keys[idx]
            .get(name)
            .copied()
            .unwrap_or_default(),
    }
}

/// Merges the environments in order.
pub(crate) fn merge(envs: &[Environment]) -> Merged {
    let mut m = Merged::default();
    let mut registry_seen = false;
    let mut resources_from: Option<usize> = None;
    for (i, env) in envs.iter().enumerate() {
        m.diagnostics.extend(env.problems.iter().cloned());
        for (k, r) in &env.requires {
            if let Some(req) = &r.requirement {
                let origin = Origin {
                    env: i,
                    span: r.span,
                };
                m.requires
                    .insert(k.clone(), (req.clone(), r.value.clone(), origin));
            }
        }
        m.parameters
            .extend(env.parameters.iter().map(|(k, v)| (k.clone(), v.clone())));
        m.parameter_defaults.extend(
            env.parameter_defaults
                .iter()
                .map(|(k, v)| (k.clone(), v.clone())),
        );
        for (idx, names) in [&env.parameters, &env.parameter_defaults]
            .into_iter()
            .enumerate()
        {
            for k in names.keys() {
                m.parameter_origins[idx].insert(k.clone(), origin(env, i, idx, k));
            }
        }
        m.other_sections.extend(
            env.other_sections
                .iter()
                .map(|(k, v)| (k.clone(), v.clone())),
        );
        // Heat skips a falsy section, and takes the first non-empty one whole.
        if !env.has_registry {
            continue;
        }
        let first = !registry_seen;
        registry_seen = true;
        if let Some(span) = env.resources_key {
            if let Some(prev) = resources_from {
                m.diagnostics.push(
                    Diagnostic::new(
                        codes::RESOURCES_REPLACED,
                        &env.path,
                        format!(
                            "this `resources` section replaces the one from `{}` (Heat does not merge them)",
                            envs[prev].path
                        ),
                    )
                    .at(span),
                );
            }
            resources_from = Some(i);
            m.resources = IndexMap::new();
        }
        for e in &env.entries {
            match &e.scope {
                Scope::Resource(name) => {
                    m.resources
                        .entry(name.clone())
                        .or_default()
                        .insert(e.key.clone(), Entry::from_model(e, i));
                }
                // A `resources:` that is not a mapping is ignored.
                Scope::Top if e.key == "resources" => {}
                Scope::Top if e.value == EntryValue::Null && !first => {
                    m.diagnostics.push(
                        Diagnostic::new(
                            codes::LATER_NULL_IGNORED,
                            &env.path,
                            format!("`{}: null` in a later environment does not undo the mapping (Heat ignores it)", e.key),
                        )
                        .at(e.span),
                    );
                }
                Scope::Top => {
                    m.entries.insert(e.key.clone(), Entry::from_model(e, i));
                }
            }
        }
    }
    m
}
