//! The file-system [`Catalog`]: templates named by environments and by
//! other templates, loaded in parallel, level by level, before resolution
//! starts, so that resolution itself is a pure function of loaded data.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::load::{self, LoadOptions};
use crate::model::registry::{is_template_path, RegistryEntry};
use crate::model::{Environment, FileRecord};
use crate::resolve::merge::Merged;
use crate::resolve::{Catalog, TemplateRef};
use crate::walk::{is_stdin, normalize, path_of, Remap, Source, STDIN, STDIN_PATH};

/// Where a (from, target) pair points: the real path key and the display.
type Located = Option<(PathBuf, String)>;

/// Templates by real path, with how each was shown to the user.
#[derive(Default)]
pub struct FsCatalog {
    files: HashMap<PathBuf, FileRecord>,
    /// (from, target) → (real path key, display): lookups repeat the same
    /// pairs, and each costs file-system calls.
    located: std::sync::Mutex<HashMap<(String, String), Located>>,
    /// Path prefixes read from elsewhere.
    remap: Remap,
}

/// Where `target` points from the file `from` (as the user gave it; `""`
/// for the working directory): the real path to read and the path to show.
/// Heat's client resolves against the real (symlink-free) directory.
pub(crate) fn locate(from: &str, target: &str, remap: &Remap) -> Option<(PathBuf, String)> {
    let target = match target.split_once("://") {
        Some(("file", rest)) => rest,
        Some(_) => return None,
        None => target,
    };
    if from.is_empty() && is_stdin(&path_of(target)) {
        return Some((PathBuf::from(STDIN_PATH), STDIN.to_owned()));
    }
    let remapped = remap.apply(target);
    // A remapped path is read where `--templates-root` says, relative to
    // the working directory, whoever names it.
    let from = if matches!(remapped, std::borrow::Cow::Owned(_)) {
        ""
    } else {
        from
    };
    let target = &*remapped;
    let from_path = &path_of(from);
    // Standard input has no directory: its references are relative to the
    // working directory, as those given on the command line are.
    let from_stdin = is_stdin(from_path);
    let shown_dir = from_path.parent().unwrap_or(Path::new(""));
    let real_dir = if from.is_empty() || from_stdin {
        PathBuf::new()
    } else {
        crate::vfs::canonicalize(from_path)
            .ok()
            .and_then(|p| p.parent().map(Path::to_path_buf))
            .unwrap_or_else(|| shown_dir.to_path_buf())
    };
    let target = &path_of(target);
    let read = real_dir.join(target);
    // A linked file elsewhere: show where the target really is, since
    // that is where it is read from and how other paths reach it.
    let linked_away = !from.is_empty()
        && !from_stdin
        && crate::vfs::canonicalize(if shown_dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            shown_dir
        })
        .is_ok_and(|d| d != real_dir);
    let shown_base = if linked_away {
        real_dir.as_path()
    } else {
        shown_dir
    };
    let mut shown = normalize(&shown_base.join(target));
    if from.starts_with("./") && !shown.starts_with('/') && !shown.starts_with("../") {
        shown = format!("./{shown}");
    }
    Some((read, shown))
}

fn key(path: &Path) -> PathBuf {
    crate::vfs::canonicalize(path).unwrap_or_else(|_| PathBuf::from(normalize(path)))
}

impl FsCatalog {
    /// Loads the `roots` (the root template, chosen templates), every
    /// template the merged registry names, and,
    /// transitively, every template those use by path.
    pub fn preload(
        roots: &[&str],
        envs: &[Environment],
        merged: &Merged,
        opts: &LoadOptions,
    ) -> FsCatalog {
        let mut cat = FsCatalog {
            remap: opts.remap.clone(),
            ..FsCatalog::default()
        };
        let mut frontier: Vec<(PathBuf, String)> = Vec::new();
        for r in roots {
            frontier.push((path_of(r), (*r).to_owned()));
        }
        let entries = merged
            .entries
            .values()
            .chain(merged.resources.values().flat_map(|m| m.values()));
        for e in entries {
            let from = &envs[e.origin.env].path;
            for target in e.value.template_names() {
                frontier.extend(locate(from, target, &opts.remap));
            }
            // Entries for a nested stack's resources, at any depth.
            let mut nested: Vec<RegistryEntry> = Vec::new();
            if let Some(map) = e.node.as_map() {
                let scope = crate::model::registry::Scope::Resource(e.key.clone());
                if e.value == crate::model::registry::EntryValue::Data {
                    nested.extend(
                        map.entries
                            .iter()
                            .map(|(k, v)| RegistryEntry::new(scope.clone(), k, v)),
                    );
                }
            }
            while let Some(n) = nested.pop() {
                for (target, _) in n.templates() {
                    frontier.extend(locate(from, target, &opts.remap));
                }
                nested.extend(n.nested());
            }
        }
        while !frontier.is_empty() {
            let mut sources = Vec::new();
            for (path, shown) in frontier.drain(..) {
                let k = key(&path);
                if cat.files.contains_key(&k)
                    || sources.iter().any(|(kk, _): &(PathBuf, Source)| *kk == k)
                {
                    continue;
                }
                sources.push((k, Source::new(path, shown, true)));
            }
            let only: Vec<Source> = sources.iter().map(|(_, s)| s.clone()).collect();
            let loaded = load::load_all(&only, opts, |l| FileRecord::from_loaded(l, false));
            for ((k, _), record) in sources.into_iter().zip(loaded) {
                if let Some(t) = record.template() {
                    for r in &t.resources {
                        for ty in std::iter::once(&r.type_name).chain(&r.members) {
                            if is_template_path(ty) {
                                frontier.extend(locate(&record.path, ty, &opts.remap));
                            }
                        }
                    }
                }
                cat.files.insert(k, record);
            }
        }
        cat
    }

    /// Every loaded file, for reporting their diagnostics.
    pub fn records(&self) -> impl Iterator<Item = &FileRecord> {
        self.files.values()
    }
}

impl FsCatalog {
    /// [`locate`] plus the key, cached.
    fn located(&self, from: &str, target: &str) -> Option<(PathBuf, String)> {
        let k = (from.to_owned(), target.to_owned());
        let mut cache = self
            .located
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        cache
            .entry(k)
            .or_insert_with(|| locate(from, target, &self.remap).map(|(p, shown)| (key(&p), shown)))
            .clone()
    }
}

impl Catalog for FsCatalog {
    fn url(&self, from: &str, target: &str) -> Option<String> {
        if target.contains("://") {
            return Some(target.to_owned());
        }
        // A remapped path is sent as the client on the deployment host
        // sends it: the path as written.
        let plain = target.strip_prefix("file://").unwrap_or(target);
        if plain.starts_with('/') && self.remap.apply(plain) != plain {
            return Some(format!("file://{plain}"));
        }
        let (path, _) = locate(from, target, &self.remap)?;
        let real = crate::vfs::canonicalize(path).ok()?;
        Some(format!("file://{}", crate::walk::display(&real)))
    }

    fn file(&self, from: &str, target: &str) -> Option<String> {
        let (path, shown) = locate(from, target, &self.remap)?;
        let text = String::from_utf8(crate::walk::read_regular(&path).ok()?).ok()?;
        // python-heatclient uploads a file that parses as a template as
        // that template's JSON (heat-semantics §2.12).
        let parsed = load::parse_text(&text, &shown, &load::ParseOptions::default());
        let is_template = parsed
            .root
            .as_ref()
            .and_then(crate::node::Node::as_map)
            .is_some_and(|m| {
                [
                    "heat_template_version",
                    "AWSTemplateFormatVersion",
                    "HeatTemplateFormatVersion",
                ]
                .iter()
                .any(|k| m.contains_key(k))
            });
        Some(match parsed.root {
            Some(root) if is_template => crate::encode::json::to_string(&root.value.to_json()),
            _ => text,
        })
    }

    fn file_problem(&self, from: &str, target: &str) -> Option<String> {
        let Some((path, _)) = locate(from, target, &self.remap) else {
            return Some("remote URLs are not fetched".to_owned());
        };
        if crate::vfs::get(&path).is_some() {
            return None;
        }
        match std::fs::metadata(&path) {
            Ok(m) if m.is_file() => None,
            Ok(_) => Some("it is not a file".to_owned()),
            Err(e) => Some(crate::walk::path_io_message(&path, &e)),
        }
    }

    fn template(&self, from: &str, target: &str) -> TemplateRef<'_> {
        let Some((path, shown)) = self.located(from, target) else {
            return TemplateRef {
                display: target.to_owned(),
                template: None,
                problem: Some("remote URLs are not fetched".to_owned()),
            };
        };
        match self.files.get(&path) {
            Some(record) => TemplateRef {
                display: shown,
                template: record.template(),
                problem: record.template().is_none().then(|| match record.status {
                    load::Status::Error | load::Status::Skipped => record
                        .diagnostics
                        .first()
                        .map_or_else(|| "it cannot be read".to_owned(), |d| d.message.clone()),
                    _ => record.not_template_reason(),
                }),
            },
            None if crate::vfs::exists(&path) => TemplateRef {
                display: shown,
                template: None,
                problem: Some("it was not loaded".to_owned()),
            },
            None => TemplateRef {
                display: shown,
                template: None,
                problem: Some("no such file".to_owned()),
            },
        }
    }
}
