//! Interface parameters: a parameter a provider template declares because
//! its parent passes it as a property is part of the template's interface,
//! not "unused" (W2003), even when the template never reads it. Heat
//! refuses a property the provider does not declare (E7007), so TripleO's
//! service templates all declare `ServiceNetMap`, `EndpointMap`, ... whether
//! or not they use them.
//!
//! Which templates receive which properties is found statically, across
//! every file checked (and the `-e` environments): a resource whose type is
//! a template path passes its properties to that template; a resource whose
//! type a registry entry of any environment maps to templates passes them to
//! each of those; group and chain members receive the member properties.
//! A chain or group whose member types are only known at deploy time (a
//! `get_param` list) passes its member properties to every template an
//! environment maps, since any of them may be a member.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use super::catalog::{Locator, Shown};
use crate::model::registry::is_template_path;
use crate::model::FileRecord;
use crate::validate::hot::plugin_schema::provider_property_violation;
use crate::vfs::Disk;
use crate::walk::{normalize, path_of, Remap};

/// What one file contributes: the properties its resources pass, by type,
/// and the templates its registry maps, by type.
#[derive(Debug, Default, Clone)]
pub(super) struct Contribution {
    /// The file (as shown).
    from: String,
    /// (type, property names) for each resource and each group/chain member.
    passes: Vec<(String, Vec<String>)>,
    /// Member properties of groups and chains whose members are not known.
    to_any_member: Vec<String>,
    /// (registry key, template as written) for each entry naming templates.
    maps: Vec<(String, String)>,
    /// Resources whose type is a template path: (name, type, properties
    /// passed, where the type is written), for E7007 without environments.
    pub(super) path_uses: Vec<PathUse>,
}

/// A resource whose type is a template path.
#[derive(Debug, Clone)]
pub(super) struct PathUse {
    pub(super) resource: String,
    pub(super) type_name: String,
    pub(super) properties: Vec<String>,
    /// The scalar literals among them (name, value), for E7015.
    pub(super) literals: Vec<(String, serde_json::Value)>,
    pub(super) span: crate::diag::Span,
}

impl Contribution {
    /// What `record` contributes (nothing, for files that are neither
    /// templates nor environments).
    pub(super) fn of(record: &FileRecord) -> Contribution {
        let mut c = Contribution {
            from: record.path.clone(),
            ..Contribution::default()
        };
        if let Some(t) = record.template() {
            for r in &t.resources {
                c.passes
                    .push((r.type_name.clone(), r.properties.keys().cloned().collect()));
                // A resource with a condition may be left out (Heat then
                // checks nothing of it): only unconditional ones are checked.
                // Nor one with an `external_id`: Heat adopts it, unchecked.
                let external = record
                    .tree
                    .as_ref()
                    .and_then(|t| t.as_map())
                    .and_then(|m| m.get("resources"))
                    .and_then(|n| n.as_map())
                    .and_then(|m| m.get(&r.name))
                    .and_then(|n| n.as_map())
                    .is_some_and(|b| b.get("external_id").is_some());
                if is_template_path(&r.type_name) && r.condition.is_none() && !external {
                    c.path_uses.push(PathUse {
                        resource: r.name.clone(),
                        type_name: r.type_name.clone(),
                        properties: r.properties.keys().cloned().collect(),
                        literals: r
                            .properties
                            .iter()
                            .filter(|(_, v)| !v.is_object() && !v.is_array() && !v.is_null())
                            .map(|(k, v)| (k.clone(), v.clone()))
                            .collect(),
                        span: r.span,
                    });
                }
                let members: Vec<String> = r.member_properties.keys().cloned().collect();
                if r.members.is_empty() {
                    c.to_any_member.extend(members);
                } else {
                    for m in &r.members {
                        c.passes.push((m.clone(), members.clone()));
                    }
                }
            }
        }
        if let Some(env) = record.environment() {
            for e in &env.entries {
                for (target, _) in e.templates() {
                    c.maps.push((e.key.clone(), target.to_owned()));
                }
            }
        }
        c
    }
}

/// The parameters each template receives from a parent.
#[derive(Debug, Default)]
/// (Keyed by identities' bytes: an identity is spelt one way, and a
/// `Path` hashes component by component.)
pub(super) struct Interface {
    passed: foldhash::HashMap<std::ffi::OsString, foldhash::HashSet<String>>,
    providers: foldhash::HashSet<std::ffi::OsString>,
    to_any_member: foldhash::HashSet<String>,
}

/// A file's identity: its real path, or its path without `.` and `..`.
fn identity(shown: &str, disk: &Disk) -> PathBuf {
    let path = path_of(shown);
    disk.canonicalize(&path)
        .unwrap_or_else(|_| PathBuf::from(normalize(&path)))
}

/// The identity of each of `unique` (distinct files), in parallel: every
/// one is a few file-system calls, fewer for a directory `disk` has seen.
pub(super) fn identities(unique: &[&str], disk: &Disk) -> foldhash::HashMap<String, PathBuf> {
    unique
        .par_iter()
        .map(|f| ((*f).to_owned(), identity(f, disk)))
        .collect()
}

/// Which templates each registry key maps to (by identity).
type Maps<'m> = foldhash::HashMap<&'m str, foldhash::HashSet<&'m std::ffi::OsStr>>;

/// Each item once. Gathered into a set on each worker, then merged: a tree
/// names a few templates (and files) many times, so each worker's set is
/// small and the merge is cheap, where one thread hashing every item was a
/// large part of a command's serial work (docs/performance.md, issue 30's
/// seventh pass).
pub(super) fn distinct<T: std::hash::Hash + Eq + Send>(
    items: impl ParallelIterator<Item = T>,
) -> foldhash::HashSet<T> {
    items
        .fold(foldhash::HashSet::default, |mut set, item| {
            set.insert(item);
            set
        })
        .reduce(foldhash::HashSet::default, union)
}

/// The union of two sets, the smaller added to the larger.
pub(super) fn union<T: std::hash::Hash + Eq>(
    a: foldhash::HashSet<T>,
    b: foldhash::HashSet<T>,
) -> foldhash::HashSet<T> {
    let (mut big, small) = if a.len() < b.len() { (b, a) } else { (a, b) };
    big.extend(small);
    big
}

/// Where one file's registry entries and template-path resources point
/// (as shown), found in the worker threads.
struct Located<'a> {
    /// (registry key, template shown) for each entry that locates.
    maps: Vec<(&'a str, String)>,
    /// (index into the file's `passes`, template shown) for each resource
    /// whose type is a template path that locates.
    uses: Vec<(usize, String)>,
}

impl Contribution {
    fn locate<'a>(&'a self, remap: &'a Remap, disk: &'a Disk, seen: &mut Shown) -> Located<'a> {
        let mut locator = Locator::new(&self.from, remap, disk.overlay()).on(disk);
        Located {
            maps: self
                .maps
                .iter()
                .filter_map(|(key, target)| {
                    locator
                        .locate_shown(target, seen)
                        .map(|shown| (key.as_str(), shown))
                })
                .collect(),
            uses: self
                .passes
                .iter()
                .enumerate()
                .filter(|(_, (ty, properties))| !properties.is_empty() && is_template_path(ty))
                .filter_map(|(i, (ty, _))| locator.locate_shown(ty, seen).map(|shown| (i, shown)))
                .collect(),
        }
    }
}

impl Interface {
    /// Gathers every file's contribution. Locating the targets and finding
    /// their identities (file-system calls) is done in parallel, each
    /// distinct target once; the rest is lookups.
    pub(super) fn new(all: &[Contribution], remap: &Remap, disk: &Disk) -> Interface {
        let located: Vec<Located> = all
            .par_iter()
            .map_init(Shown::default, |seen, c| c.locate(remap, disk, seen))
            .collect();
        // The targets shown, each once.
        let shown: Vec<&str> = distinct(located.par_iter().flat_map_iter(|l| {
            l.maps
                .iter()
                .map(|(_, shown)| shown.as_str())
                .chain(l.uses.iter().map(|(_, shown)| shown.as_str()))
        }))
        .into_iter()
        .collect();
        let ids = identities(&shown, disk);
        // Which templates each registry key maps to, and every template a
        // registry maps: on the workers, then merged.
        let (maps, providers): (Maps<'_>, foldhash::HashSet<&std::ffi::OsStr>) = located
            .par_iter()
            .fold(
                || (Maps::default(), foldhash::HashSet::default()),
                |(mut maps, mut providers), l| {
                    for (key, shown) in &l.maps {
                        let id = ids[shown].as_os_str();
                        providers.insert(id);
                        maps.entry(*key).or_default().insert(id);
                    }
                    (maps, providers)
                },
            )
            .reduce(
                || (Maps::default(), foldhash::HashSet::default()),
                |(mut a, pa), (b, pb): (Maps<'_>, _)| {
                    // A union of sets: the order they are merged in is
                    // not seen.
                    a.reserve(b.len());
                    let merged = b.into_iter().fold(a, |mut a, (key, ids)| {
                        a.entry(key).or_default().extend(ids);
                        a
                    });
                    (merged, union(pa, pb))
                },
            );
        let mut out = Interface {
            providers: providers
                .into_iter()
                .map(std::ffi::OsStr::to_owned)
                .collect(),
            ..Interface::default()
        };
        let mut passed: foldhash::HashMap<&std::ffi::OsStr, foldhash::HashSet<&str>> =
            foldhash::HashMap::default();
        for (c, l) in all.iter().zip(&located) {
            out.to_any_member.extend(c.to_any_member.iter().cloned());
            let mut uses = l.uses.iter().peekable();
            for (i, (type_name, properties)) in c.passes.iter().enumerate() {
                if properties.is_empty() {
                    continue;
                }
                let (direct, mapped) = if is_template_path(type_name) {
                    let located = uses.next_if(|(u, _)| *u == i);
                    (located.map(|(_, shown)| ids[shown].as_os_str()), None)
                } else {
                    (None, maps.get(type_name.as_str()))
                };
                for t in direct
                    .into_iter()
                    .chain(mapped.into_iter().flatten().copied())
                {
                    passed
                        .entry(t)
                        .or_default()
                        .extend(properties.iter().map(String::as_str));
                }
            }
        }
        out.passed = passed
            .into_iter()
            .map(|(t, names)| (t.to_owned(), names.into_iter().map(str::to_owned).collect()))
            .collect();
        drop(maps);
        // Freed on the workers that made them (one shown path per entry).
        located.into_par_iter().for_each(drop);
        out
    }

    /// True when a parent passes parameter `name` to the template whose
    /// identity is `id` (see [`identities`]).
    pub(super) fn passes(&self, id: &Path, name: &str) -> bool {
        self.passed
            .get(id.as_os_str())
            .is_some_and(|p| p.contains(name))
            || (self.providers.contains(id.as_os_str()) && self.to_any_member.contains(name))
    }
}

/// A template's parameters: name, type, constraints.
type Declared = Vec<(String, String, Option<serde_json::Value>)>;

/// What a template-path type's template offers the resources that use it:
/// the name it is shown by, its parameters (name, type, constraints), and
/// those it reads at validate without a default.
pub(super) struct PathTarget {
    shown: String,
    declared: Declared,
    reads: Vec<String>,
}

/// Every use of a template-path type in `all`, with the template it
/// names; each template located and loaded once, for both checks below.
pub(super) type PathUses<'a> = (
    Vec<(&'a Contribution, &'a PathUse, PathBuf)>,
    HashMap<PathBuf, PathTarget>,
);

/// The template-path uses of `all` and their templates (a missing or
/// broken template is left out: its own checks report it).
pub(super) fn path_targets<'a>(
    all: &'a [Contribution],
    opts: &crate::load::LoadOptions,
) -> PathUses<'a> {
    use crate::validate::hot::missing_value;
    let mut targets: Vec<(PathBuf, String)> = Vec::new();
    let mut seen: HashSet<PathBuf> = HashSet::new();
    let mut uses: Vec<(&Contribution, &PathUse, PathBuf)> = Vec::new();
    for c in all {
        let mut locator = Locator::new(&c.from, &opts.remap, &opts.overlay);
        for u in &c.path_uses {
            let Some((read, shown)) = locator.locate(&u.type_name) else {
                continue;
            };
            if seen.insert(read.clone()) {
                targets.push((read.clone(), shown));
            }
            uses.push((c, u, read));
        }
    }
    let sources: Vec<crate::walk::Source> = targets
        .into_iter()
        .map(|(read, shown)| crate::walk::Source::new(read, shown, true))
        .collect();
    let loaded: HashMap<PathBuf, PathTarget> = crate::load::load_all(&sources, opts, |l| {
        let record = FileRecord::from_loaded(l, true);
        record.template().map(|t| {
            let declared = t
                .parameters
                .iter()
                .map(|p| {
                    (
                        p.name.clone(),
                        p.type_.clone().unwrap_or_else(|| "string".to_owned()),
                        p.constraints().cloned(),
                    )
                })
                .collect();
            let mut reads: Vec<String> = Vec::new();
            if let Some(root) = record.tree.as_ref().and_then(|t| t.as_map()) {
                for (name, _, _) in missing_value::reads_at_validate(root, t.format) {
                    if !reads.iter().any(|n| n == name) {
                        reads.push(name.to_owned());
                    }
                }
            }
            PathTarget {
                shown: record.path.clone(),
                declared,
                reads,
            }
        })
    })
    .into_iter()
    .zip(&sources)
    .filter_map(|(target, s)| target.map(|t| (s.path.clone(), t)))
    .collect();
    (uses, loaded)
}

/// E7007 without environments: a resource whose type is a template path
/// passes a property that template does not declare. Heat's validate
/// refuses it ("Property error: resources.N.properties: Unknown Property
/// P"; tests/heat/path-type-unknown-property.json); with `-e` the
/// composition reports it instead. E7015: a literal value its parameter
/// refuses.
pub(super) fn path_type_properties((uses, targets): &PathUses<'_>) -> Vec<crate::diag::Diagnostic> {
    use crate::diag::{codes, Diagnostic};
    let mut out = Vec::new();
    for (c, u, read) in uses {
        let Some(PathTarget {
            shown,
            declared: params,
            ..
        }) = targets.get(read)
        else {
            continue;
        };
        for p in u
            .properties
            .iter()
            .filter(|p| !params.iter().any(|(n, _, _)| n == *p))
        {
            out.push(
                Diagnostic::new(
                    codes::UNKNOWN_PROPERTY,
                    &c.from,
                    format!(
                        "resource `{}` passes property `{p}`, which `{shown}` does not declare as a parameter (Heat: Unknown Property {p})",
                        u.resource
                    ),
                )
                .at(u.span),
            );
        }
        for (name, value) in &u.literals {
            let Some((_, ty, constraints)) = params.iter().find(|(n, _, _)| n == name) else {
                continue;
            };
            let Some(why) = provider_property_violation(ty, constraints.as_ref(), value) else {
                continue;
            };
            out.push(
                Diagnostic::new(
                    codes::INVALID_PROVIDER_PROPERTY,
                    &c.from,
                    format!(
                        "resource `{}` passes `{name}: {}`, which parameter `{name}` of `{shown}` refuses (Heat at create: Property error: resources.{}.properties.{name}: {why})",
                        u.resource,
                        crate::eval::python::json_dumps(value, false),
                        u.resource
                    ),
                )
                .at(u.span)
                .with_key_path(vec![
                    "resources".to_owned(),
                    u.resource.clone(),
                    "properties".to_owned(),
                    name.clone(),
                ]),
            );
        }
    }
    out
}

/// E2008 across files: a resource whose type is a template path and that
/// does not pass a parameter the template reads at validate with no
/// default. Heat validates the nested template with the parameters the
/// resource passes (any value, even a `get_param` of a parameter without
/// one), so validated alone the parent is refused too
/// (tests/heat/missing-value-verdicts.json, `nested-*.yaml`).
pub(super) fn nested_values_missing(
    (uses, targets): &PathUses<'_>,
) -> Vec<crate::diag::Diagnostic> {
    use crate::validate::hot::missing_value;
    let mut out = Vec::new();
    for (c, u, read) in uses {
        let Some(PathTarget {
            shown,
            reads: names,
            ..
        }) = targets.get(read)
        else {
            continue;
        };
        for name in names.iter().filter(|n| !u.properties.contains(n)) {
            out.push(missing_value::not_passed(
                &c.from,
                &u.resource,
                u.span,
                shown,
                name,
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Items repeated across many workers' pieces come out once each, the
    /// same set one thread makes; the union keeps both sides whichever is
    /// larger.
    #[test]
    fn distinct_items_are_the_set_one_thread_makes() {
        let items: Vec<String> = (0..5000).map(|i| format!("t{}", i % 37)).collect();
        let found = distinct(items.par_iter().with_max_len(16).map(String::as_str));
        let expected: foldhash::HashSet<&str> = items.iter().map(String::as_str).collect();
        assert_eq!(found, expected);
        assert_eq!(found.len(), 37);
        let small: foldhash::HashSet<u8> = [1, 2].into_iter().collect();
        let large: foldhash::HashSet<u8> = [2, 3, 4].into_iter().collect();
        let both: foldhash::HashSet<u8> = [1, 2, 3, 4].into_iter().collect();
        assert_eq!(union(small.clone(), large.clone()), both);
        assert_eq!(union(large, small), both);
    }
}
