//! W6011 `ShadowedEntry`.
//!
//! Its catalogue entry (`META`) says what it checks, why, and gives an
//! example; `docs/rules.md` and `heatcap rules` print it.

use crate::diag::{Code, Diagnostic, Related};
use crate::model::registry::{EntryValue, RegistryEntry};
use crate::validate::{EnvContext, EnvRule, RuleMeta};

pub(crate) struct ShadowedEntry;

static META: RuleMeta = RuleMeta {
    code: Code("W6011"),
    name: "ShadowedEntry",
    summary: "an exact registry key is matched by a glob key, which Heat tries first",
    what: "No exact `resource_registry` key is matched by a glob key of the same registry (`OS::Nova::*: X::*` beside `OS::Nova::Server: my_server.yaml`).",
    why: "Heat tries the matching globs before the exact key, so the exact entry is used only if the glob's target turns out not to exist. The exact key wins only when the glob's prefix is the whole type (`OS::Nova::Server*`).",
    example: "`OS::TripleO::*: OS::Heat::None` above `OS::TripleO::Controller: controller.yaml`.",
    source: "heat-semantics §2.4 (a matching glob beats an exact key)",
};

/// A glob entry that maps types to types (`OS::Nova::*: X::*`): its prefix
/// and its target. `None` for other entries (a `*` elsewhere is literal, a
/// glob mapped to a template never matches, a null glob deletes).
pub(crate) fn type_glob(entry: &RegistryEntry) -> Option<(&str, &str)> {
    match &entry.value {
        EntryValue::Glob { prefix, value } if !prefix.contains('*') => Some((prefix, value)),
        _ => None,
    }
}

/// True when the glob (`prefix*` mapped to `target`) matches the exact
/// entry `exact` first. Heat's glob never matches its own target (no
/// self-recursion), a glob whose prefix is the whole type loses to the exact
/// key, and a null exact key is a deletion, not an entry.
pub(crate) fn shadows(glob: (&str, &str), exact: &RegistryEntry) -> bool {
    let (prefix, target) = glob;
    let key = exact.key.as_str();
    !key.contains('*')
        && key.starts_with(prefix)
        && key != prefix
        && key != target
        && exact.is_mapping()
}

/// Every (exact, glob) pair of `entries` where the glob shadows the exact
/// entry, by index, in the order of the exact entries. Globs are found by
/// the prefixes of each key, so the cost grows with the entries, not with
/// their square.
pub(crate) fn shadowed_pairs(entries: &[&RegistryEntry]) -> Vec<(usize, usize)> {
    let mut globs: foldhash::HashMap<&str, Vec<usize>> = foldhash::HashMap::default();
    for (i, e) in entries.iter().enumerate() {
        if let Some((prefix, _)) = type_glob(e) {
            globs.entry(prefix).or_default().push(i);
        }
    }
    let mut out = Vec::new();
    // Most registries have no glob: no prefix of any key need be asked.
    if globs.is_empty() {
        return out;
    }
    for (i, e) in entries.iter().enumerate() {
        let key = e.key.as_str();
        let ends = key
            .char_indices()
            .map(|(j, _)| j)
            .chain(std::iter::once(key.len()));
        for end in ends {
            for &g in globs.get(&key[..end]).into_iter().flatten() {
                if let Some(glob) = type_glob(entries[g]) {
                    if shadows(glob, e) {
                        out.push((i, g));
                    }
                }
            }
        }
    }
    out
}

/// The finding for an exact entry `exact` (in `file`) shadowed by the
/// glob entry `glob` (in `glob_file`).
pub(crate) fn finding(
    file: &str,
    exact: &RegistryEntry,
    glob_file: &str,
    glob: &RegistryEntry,
) -> Diagnostic {
    Diagnostic::new(
        META.code,
        file,
        format!(
            "`{}` is shadowed by the glob `{}`, which Heat tries first",
            exact.key, glob.key
        ),
    )
    .at(exact.span)
    .with_related(Related {
        file: glob_file.to_owned(),
        span: Some(glob.span),
        message: format!("the glob `{}`", glob.key),
    })
}

impl EnvRule for ShadowedEntry {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, cx: &EnvContext<'_>, out: &mut Vec<Diagnostic>) {
        let top: Vec<&RegistryEntry> = cx.env.top().collect();
        let mut pairs = shadowed_pairs(&top);
        // Reported glob by glob, as before: in the order of the globs.
        pairs.sort_by_key(|(e, g)| (*g, *e));
        for (e, g) in pairs {
            out.push(finding(&cx.file.path, top[e], &cx.file.path, top[g]));
        }
    }
}
