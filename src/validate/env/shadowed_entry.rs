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
/// the prefixes of each key that are as long as some glob's prefix, so the
/// cost grows with the entries, not with their square (nor with the length
/// of each key: hashing every prefix of every key of `validate`'s
/// 30,000-file benchmark was a tenth of the time its rules took).
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
    // The lengths of the globs' prefixes, shortest first: the prefixes of
    // a key asked, in the order they end.
    let mut lengths: Vec<usize> = globs.keys().map(|p| p.len()).collect();
    lengths.sort_unstable();
    lengths.dedup();
    for (i, e) in entries.iter().enumerate() {
        let key = e.key.as_str();
        for &end in lengths.iter().take_while(|&&end| end <= key.len()) {
            let Some(prefix) = key.get(..end) else {
                continue;
            };
            for &g in globs.get(prefix).into_iter().flatten() {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Span;
    use crate::model::registry::Scope;
    use crate::node::{Node, Value};

    /// Found by the globs' prefix lengths, the pairs are those of every
    /// (exact, glob) pair asked in turn: globs of every length (the empty
    /// prefix, one that is a whole key, one that ends inside a character
    /// of another key), nested globs, a glob onto its own target.
    #[test]
    fn the_pairs_are_those_of_every_pair_asked() {
        let node = |s: &str| Node::new(Value::Str(s.to_owned().into()), Span::point(1, 1));
        let registry = [
            ("OS::Nova::*", "X::Nova::*"),
            ("OS::*", "Y::*"),
            ("OS::Nova::Server", "server.yaml"),
            ("OS::Nova::Server*", "Z::Server*"),
            ("OS::Neutron::Port", "port.yaml"),
            ("X::Nova::Thing", "thing.yaml"),
            ("Ü::Typ", "typ.yaml"),
            ("Ü*", "V*"),
            ("Y::Other", "OS::Heat::None"),
            ("*", "Q::*"),
            ("OS::Nova::Server::Big", "big.yaml"),
            ("OS", "os.yaml"),
        ];
        let entries: Vec<RegistryEntry> = registry
            .iter()
            .map(|(k, v)| RegistryEntry::new(Scope::Top, &node(k), &node(v)))
            .collect();
        let refs: Vec<&RegistryEntry> = entries.iter().collect();
        let mut every = Vec::new();
        for (i, e) in refs.iter().enumerate() {
            let mut globs: Vec<(usize, usize)> = refs
                .iter()
                .enumerate()
                .filter_map(|(g, glob)| type_glob(glob).map(|glob| (glob.0.len(), g, glob)))
                .filter(|(_, _, glob)| shadows(*glob, e))
                .map(|(len, g, _)| (len, g))
                .collect();
            // In the order the prefixes end, then as the globs come.
            globs.sort_unstable();
            every.extend(globs.into_iter().map(|(_, g)| (i, g)));
        }
        assert!(every.len() >= 8, "{every:?}");
        assert_eq!(shadowed_pairs(&refs), every);
    }
}
