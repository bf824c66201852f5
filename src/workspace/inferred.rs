//! The choices a tree already offers (issue 17.2): a template that an
//! environment maps a type to is a candidate implementation of that type,
//! as if it declared `capabilities: {resource_type: [TYPE]}`. Paths are
//! located as every registry path is ([`catalog::locate_cached`]: relative
//! to the real directory of the environment, `--templates-root` applied).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::catalog;
use crate::index::{Inferred, Site};
use crate::model::registry::is_template_path;
use crate::model::FileRecord;
use crate::walk::{Remap, Walked};

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
    remap: &Remap,
) -> HashMap<usize, Inferred> {
    let by_path = walked.by_path();
    let mut dirs = HashMap::new();
    let mut at: HashMap<PathBuf, Option<usize>> = HashMap::new();
    let mut out: HashMap<usize, Inferred> = HashMap::new();
    for f in envs {
        let Some(env) = f.environment() else {
            continue;
        };
        for e in env.top() {
            // A key that is a path names a template, not a type; a key
            // ending `*` is a glob over types.
            if is_template_path(&e.key) || e.key.ends_with('*') {
                continue;
            }
            for (target, span) in e.templates() {
                let Some((read, _)) = catalog::locate_cached(&f.path, target, remap, &mut dirs)
                else {
                    continue;
                };
                let pos = *at
                    .entry(read)
                    .or_insert_with_key(|read| walked.position(read, &by_path));
                let Some(i) = pos else {
                    continue;
                };
                let site = Site {
                    environment: f.path.clone(),
                    line: span.start.line,
                };
                let sites = out.entry(i).or_default().entry(e.key.clone()).or_default();
                if !sites.contains(&site) {
                    sites.push(site);
                }
            }
        }
    }
    out
}
