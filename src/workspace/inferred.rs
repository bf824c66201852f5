//! The choices a tree already offers (issue 17.2): a template that an
//! environment maps a type to is a candidate implementation of that type,
//! as if it declared `capabilities: {resource_type: [TYPE]}`. Paths are
//! located as every registry path is ([`catalog::Locator`]: relative
//! to the real directory of the environment, `--templates-root` applied).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::catalog;
use crate::index::{Inferred, Site};
use crate::model::registry::{is_template_path, EntryValue};
use crate::model::FileRecord;
use crate::product::options::{Mapping, Offer, Offers};
use crate::walk::{ByPath, Remap, Walked};

/// Where TripleO installs its templates, and where its environments name
/// them (`/usr/share/openstack-tripleo-heat-templates/network/ports/vip.yaml`).
pub(crate) const THT_PREFIX: &str = "/usr/share/openstack-tripleo-heat-templates";

/// The remap inference locates with: `remap` when the user gave one, else
/// TripleO's install prefix read in `root` (the first directory walked), as
/// tripleo-plans.md §5 counts a tree's choices: an environment of a
/// checkout that names `/usr/share/openstack-tripleo-heat-templates/X`
/// means the checkout's `X`.
pub(crate) fn remap_for(remap: &Remap, root: Option<&Path>) -> Remap {
    match root {
        Some(root) if remap.is_empty() => {
            Remap::new(vec![(THT_PREFIX.to_owned(), crate::walk::display(root))])
        }
        _ => remap.clone(),
    }
}

/// Per walked file (index into `walked.sources`): the types the
/// environments `envs` map to it, each with the entries that do, in the
/// order found. Only top-level entries count (a per-resource entry maps
/// one resource, not the type), and only walked files are candidates.
pub(crate) fn infer(
    envs: &[&FileRecord],
    walked: &Walked,
    by_path: &ByPath<'_>,
    remap: &Remap,
) -> HashMap<usize, Inferred> {
    use rayon::prelude::*;
    // Each environment's targets are located in parallel (its real
    // directory found once); then each distinct target is found among the
    // walked files once. Each directory's real path is asked of the disk
    // once, and a target is joined to it once for the environments of that
    // directory one worker takes in turn (a tree has many environments in
    // one directory, naming the same templates).
    // Only the environments' real paths are asked of it.
    let mut disk = crate::vfs::Disk::new(walked.overlay());
    disk.learn_plain(
        envs.iter()
            .filter(|f| f.environment().is_some())
            .map(|f| crate::walk::path_of(&f.path))
            .filter(|p| {
                by_path
                    .get(p)
                    .is_some_and(|i| walked.sources[i].entry == crate::walk::Entry::Plain)
            }),
    );
    let located: Vec<Vec<(&str, PathBuf, u32)>> = envs
        .par_iter()
        .with_max_len(8)
        .map_init(catalog::Joined::default, |joined, f| {
            let Some(env) = f.environment() else {
                return Vec::new();
            };
            let mut locator = catalog::Locator::new(&f.path, remap, walked.overlay()).on(&disk);
            let mut found = Vec::with_capacity(env.entries.len());
            for e in env.top() {
                // A key that is a path names a template, not a type; a key
                // ending `*` is a glob over types.
                if is_template_path(&e.key) || e.key.ends_with('*') {
                    continue;
                }
                for (target, span) in e.templates() {
                    if let Some(read) = locator.locate_read(target, joined) {
                        found.push((e.key.as_str(), read, span.start.line));
                    }
                }
            }
            found
        })
        .collect();
    // Each distinct target is found among the walked files once, in
    // parallel (a target not listed under its own path asks the disk).
    let targets = super::interface::distinct(
        located
            .par_iter()
            .with_max_len(64)
            .flat_map_iter(|found| found.iter().map(|(_, read, _)| read.as_os_str())),
    );
    let at: foldhash::HashMap<std::ffi::OsString, usize> = targets
        .into_par_iter()
        .filter_map(|read| Some((read.to_owned(), walked.position(Path::new(read), by_path)?)))
        .collect();
    // Each environment's entries that name a walked file, on the workers
    // (which also free the located paths).
    let hits: Vec<Vec<(usize, &str, u32)>> = located
        .into_par_iter()
        .with_max_len(64)
        .map(|found| {
            found
                .into_iter()
                .filter_map(|(key, read, line)| Some((*at.get(read.as_os_str())?, key, line)))
                .collect()
        })
        .collect();
    let mut out: HashMap<usize, Inferred> = HashMap::new();
    for (f, found) in envs.iter().zip(hits) {
        for (i, key, line) in found {
            let site = Site {
                environment: f.path.clone(),
                line,
            };
            let sites = out.entry(i).or_default().entry(key.to_owned()).or_default();
            if !sites.contains(&site) {
                sites.push(site);
            }
        }
    }
    out
}

/// What every environment maps each type to, for `options`: the given
/// environments (`-e`, in order) first, then those found in the walked
/// directories that are not given, in walk order, which is the order
/// [`Conflict`](crate::product::options::Conflict) assumes for them. A
/// template target is looked up among the walked files, then in the
/// catalog (what the given environments reach).
pub(crate) fn offers<'a>(
    given: &'a [FileRecord],
    walked: &Walked,
    dir_files: &'a [FileRecord],
    catalog: &'a dyn crate::resolve::Catalog,
    remap: &Remap,
) -> Offers<'a> {
    let by_path = walked.by_path();
    let given_at: Vec<Option<usize>> = given
        .iter()
        .map(|f| walked.position(&crate::walk::path_of(&f.path), &by_path))
        .collect();
    let mut envs: Vec<(&FileRecord, bool)> = given.iter().map(|f| (f, true)).collect();
    envs.extend(
        dir_files
            .iter()
            .enumerate()
            .filter(|(i, _)| !given_at.contains(&Some(*i)))
            .map(|(_, f)| (f, false)),
    );
    let mut targets = Targets {
        walked,
        by_path: &by_path,
        dir_files,
        catalog,
        remap,
        dirs: HashMap::new(),
    };
    let mut out = Offers::new();
    for (position, (f, is_given)) in envs.into_iter().enumerate() {
        let Some(env) = f.environment() else {
            continue;
        };
        for e in env.top() {
            if is_template_path(&e.key) || e.key.ends_with('*') {
                continue;
            }
            let names: Vec<(&str, crate::diag::Span)> = match &e.value {
                EntryValue::Template(p) => vec![(p.as_str(), e.value_span())],
                EntryValue::Alias(a) => vec![(a.as_str(), e.value_span())],
                EntryValue::Candidates(cs) => {
                    cs.iter().map(|c| (c.name.as_str(), c.span)).collect()
                }
                _ => continue,
            };
            let type_offers = out.entry(e.key.clone()).or_default();
            let mut keys = Vec::new();
            let mut shown = Vec::new();
            for (name, span) in names {
                let Some((key, offer)) = targets.offer(&f.path, name) else {
                    continue;
                };
                let site = Site {
                    environment: f.path.clone(),
                    line: span.start.line,
                };
                shown.push(offer.path.clone().unwrap_or_else(|| name.to_owned()));
                let o = type_offers.offers.entry(key.clone()).or_insert(offer);
                if !o.sites.contains(&site) {
                    o.sites.push(site);
                }
                keys.push(key);
            }
            type_offers.mappings.push(Mapping {
                environment: f.path.clone(),
                position,
                given: is_given,
                target: keys.join("\n"),
                shown: if matches!(e.value, EntryValue::Candidates(_)) {
                    format!("[{}]", shown.join(", "))
                } else {
                    shown.join("")
                },
            });
        }
    }
    out
}

/// Locates and identifies what environments map types to (for [`offers`]).
struct Targets<'w, 'a> {
    walked: &'w Walked,
    by_path: &'w ByPath<'w>,
    dir_files: &'a [FileRecord],
    catalog: &'a dyn crate::resolve::Catalog,
    remap: &'w Remap,
    dirs: HashMap<String, catalog::FromDir>,
}

impl<'a> Targets<'_, 'a> {
    /// The offer for `name` as written in `from`, and its key (the real
    /// path of a template, `type:NAME` for a type); `None` for a remote URL.
    fn offer(&mut self, from: &str, name: &str) -> Option<(String, Offer<'a>)> {
        let mut offer = Offer {
            name: name.to_owned(),
            path: None,
            template: None,
            problem: None,
            sites: Vec::new(),
        };
        if !is_template_path(name) {
            return Some((format!("type:{name}"), offer));
        }
        let overlay = self.walked.overlay();
        let (read, shown) =
            catalog::locate_cached(from, name, self.remap, overlay, &mut self.dirs)?;
        let key = overlay.canonicalize(&read).map_or_else(
            |_| crate::walk::normalize(&read),
            |p| crate::walk::display(&p),
        );
        offer.path = Some(shown);
        if let Some(i) = self.walked.position(&read, self.by_path) {
            let f = &self.dir_files[i];
            offer.template = f.template();
            offer.problem = f.template().is_none().then(|| f.not_template_reason());
        } else {
            let found = self.catalog.template(from, name);
            offer.template = found.template;
            // A file outside the directories, not loaded: offered as it is.
            offer.problem = found.problem.filter(|p| p != "it was not loaded");
        }
        Some((key, offer))
    }
}
