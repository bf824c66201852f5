//! VNF packages for the ONAP profile: each directory is one package, and
//! the files of a directory the user did not name are loaded as context.

use std::path::Path;

use rayon::prelude::*;

use super::validate::Checked;
use crate::load;
use crate::model::FileRecord;
use crate::validate::{check_package, Profile, Selection};
use crate::walk::Source;

/// The ONAP profile: each directory's files loaded together and checked as
/// one package (packages in parallel); results in walk order. Trees are
/// held only while their package is checked. A package is the whole directory even when only some of its
/// files are named: the others (`.yaml`, `.yml`, `.env`) are loaded as
/// context, so pairing and cross-file rules see them, but not reported.
pub(super) fn by_package(
    sources: &[Source],
    opts: &load::LoadOptions,
    selection: &Selection,
) -> Vec<Checked> {
    let mut packages: indexmap::IndexMap<&Path, Vec<(usize, &Source)>> = indexmap::IndexMap::new();
    for (i, s) in sources.iter().enumerate() {
        let dir = s.path.parent().unwrap_or(Path::new(""));
        packages.entry(dir).or_default().push((i, s));
    }
    let packages: Vec<(&Path, Vec<(usize, &Source)>)> = packages.into_iter().collect();
    let mut out: Vec<(usize, Checked)> = packages
        .par_iter()
        .flat_map_iter(|(dir, members)| {
            let mut group: Vec<Source> = members.iter().map(|(_, s)| (*s).clone()).collect();
            group.extend(siblings(dir, &group));
            let records = load::load_all(&group, opts, |l| FileRecord::from_loaded(l, true));
            let found = check_package(&records, selection, Profile::Onap, &opts.overlay);
            members
                .iter()
                .zip(&records)
                .zip(found)
                .map(|(((i, _), record), (mut found, module))| {
                    // What python-heatclient cannot read fails the package
                    // too (E7001, E7006), as without the profile.
                    found.extend(
                        super::references::unreadable(record, &opts.remap, &opts.overlay)
                            .into_iter()
                            .filter(|d| selection.includes(d.code)),
                    );
                    let mut c = Checked::new(record, found);
                    c.module = module;
                    (*i, c)
                })
                .collect::<Vec<_>>()
        })
        .collect();
    out.sort_by_key(|(i, _)| *i);
    out.into_iter().map(|(_, c)| c).collect()
}

/// The package files of `dir` that `named` does not hold, in name order.
fn siblings(dir: &Path, named: &[Source]) -> Vec<Source> {
    let Some(first) = named.first() else {
        return Vec::new();
    };
    let shown_dir = crate::walk::path_of(&first.display)
        .parent()
        .unwrap_or(Path::new(""))
        .to_path_buf();
    let have: std::collections::HashSet<&std::ffi::OsStr> =
        named.iter().filter_map(|s| s.path.file_name()).collect();
    let listing = std::fs::read_dir(if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    });
    let mut found: Vec<std::ffi::OsString> = listing
        .into_iter()
        .flatten()
        .flatten()
        // A symbolic link to a file counts, as it does in the walk.
        .filter(|e| std::fs::metadata(e.path()).is_ok_and(|m| m.is_file()))
        .map(|e| e.file_name())
        .filter(|n| {
            let p = Path::new(n);
            let ext = p
                .extension()
                .map(|e| e.to_string_lossy().to_ascii_lowercase());
            let name = n.to_string_lossy();
            !name.starts_with('.')
                && !name.ends_with(".j2.yaml")
                && matches!(ext.as_deref(), Some("yaml" | "yml" | "env"))
                && !have.contains(&n.as_os_str())
        })
        .collect();
    found.sort();
    found
        .into_iter()
        .map(|n| Source {
            display: crate::walk::display(&shown_dir.join(&n)),
            path: dir.join(&n),
            explicit: false,
            jinja: false,
            entry: crate::walk::Entry::Unseen,
        })
        .collect()
}
