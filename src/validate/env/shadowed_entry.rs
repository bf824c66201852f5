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
        for g in &top {
            let Some(glob) = type_glob(g) else { continue };
            for e in &top {
                if shadows(glob, e) {
                    out.push(finding(&cx.file.path, e, &cx.file.path, g));
                }
            }
        }
    }
}
