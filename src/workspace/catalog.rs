//! The file-system [`Catalog`]: templates named by environments and by
//! other templates, loaded in parallel, level by level, before resolution
//! starts, so that resolution itself is a pure function of loaded data.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use crate::load::{self, LoadOptions};
use crate::model::registry::{is_template_path, RegistryEntry};
use crate::model::{Environment, FileRecord};
use crate::resolve::merge::Merged;
use crate::resolve::{Catalog, TemplateRef};
use crate::vfs::FileOverlay;
use crate::walk::{is_stdin, normalize, path_of, MemoryFiles, Remap, Source, STDIN, STDIN_PATH};

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
    /// Files given in memory: read from them only, never from disk.
    memory: Option<MemoryFiles>,
    /// Directories reads are confined to (`LoadOptions::confine`).
    confine: Option<std::sync::Arc<[PathBuf]>>,
    /// Notes the files `get_file` reads (`LoadOptions::cache`).
    cache: Option<load::LoadCache>,
    /// Files read instead of the disk's (`LoadOptions::overlay`).
    overlay: FileOverlay,
}

/// Where `target` points from the file `from` (as the user gave it; `""`
/// for the working directory): the real path to read and the path to show.
/// Heat's client resolves against the real (symlink-free) directory.
pub(crate) fn locate(
    from: &str,
    target: &str,
    remap: &Remap,
    overlay: &FileOverlay,
) -> Option<(PathBuf, String)> {
    Locator::new(from, remap, overlay).locate(target)
}

/// What [`locate`] learns of a file it resolves from (its real directory),
/// kept by callers that locate many targets of many files.
pub(crate) type FromDir = Base;

/// [`locate`], keeping what it learns of each `from` file in `dirs`.
pub(crate) fn locate_cached(
    from: &str,
    target: &str,
    remap: &Remap,
    overlay: &FileOverlay,
    dirs: &mut HashMap<String, FromDir>,
) -> Option<(PathBuf, String)> {
    let mut locator = Locator::new(from, remap, overlay);
    locator.base = dirs.get(from).cloned();
    let found = locator.locate(target);
    if let Some(base) = locator.base {
        dirs.entry(from.to_owned()).or_insert(base);
    }
    found
}

/// The real path of `path`: symlinks resolved on disk (a rendered
/// file's through the overlay, [`crate::vfs`]), or, for files given in
/// memory, the path without `.` and `..`.
fn real(path: &Path, memory: Option<&MemoryFiles>, overlay: &FileOverlay) -> Option<PathBuf> {
    match memory {
        Some(_) => Some(PathBuf::from(normalize(path))),
        None => overlay.canonicalize(path).ok(),
    }
}

/// [`locate`], among files given in memory when `memory` is set (paths
/// are then taken as written: there are no links to follow).
fn locate_in(
    from: &str,
    target: &str,
    remap: &Remap,
    memory: Option<&MemoryFiles>,
    overlay: &FileOverlay,
) -> Option<(PathBuf, String)> {
    Locator::new_in(from, remap, memory, overlay).locate(target)
}

/// [`locate`] for many targets named by one file: the file's real
/// directory (two file-system calls) is found once, on the first target
/// that needs it.
pub(crate) struct Locator<'a> {
    from: &'a str,
    remap: &'a Remap,
    memory: Option<&'a MemoryFiles>,
    overlay: &'a FileOverlay,
    base: Option<Base>,
    /// What the run has learnt of the disk, when the caller keeps it.
    disk: Option<&'a crate::vfs::Disk>,
}

/// The targets joined to one real directory (see
/// [`Locator::locate_read`]): what a join depends on is the directory
/// and the target as written, remapped.
#[derive(Debug, Default)]
pub(crate) struct Joined {
    dir: Option<PathBuf>,
    read: foldhash::HashMap<String, PathBuf>,
}

/// The paths shown for the targets of the files of one directory (see
/// [`Locator::locate_shown`]): what the path shown depends on is the
/// directory it is shown from, whether the file was named with a leading
/// `./`, and the target as written.
#[derive(Debug, Default)]
pub(crate) struct Shown {
    /// The file served last.
    from: String,
    /// The directory its targets are shown from, and whether it was named
    /// with `./`; `None` for a file whose targets are each made anew.
    dir: Option<(PathBuf, bool)>,
    /// Each target as written, and as shown from `dir`.
    paths: foldhash::HashMap<String, String>,
}

/// Where a file's references are resolved: its real directory, and whether
/// the directory it is shown in is a link elsewhere.
#[derive(Debug, Clone)]
pub(crate) struct Base {
    real_dir: PathBuf,
    /// [`crate::vfs::plain_dir`] of `real_dir`.
    plain: bool,
    linked_away: bool,
}

impl Base {
    /// The base of the file `from` (not empty, not standard input).
    fn of(
        from: &str,
        memory: Option<&MemoryFiles>,
        overlay: &FileOverlay,
        disk: Option<&crate::vfs::Disk>,
    ) -> Base {
        let from_path = &path_of(from);
        let shown_dir = from_path.parent().unwrap_or(Path::new(""));
        let real_path = match (memory, disk) {
            (None, Some(disk)) => disk.canonicalize(from_path).ok(),
            _ => real(from_path, memory, overlay),
        };
        let real_dir = real_path
            .and_then(|p| p.parent().map(Path::to_path_buf))
            .unwrap_or_else(|| shown_dir.to_path_buf());
        // A linked file elsewhere: show where the target really is, since
        // that is where it is read from and how other paths reach it.
        // Files in memory have no links.
        let dir = if shown_dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            shown_dir
        };
        let linked_away = memory.is_none()
            && match disk {
                Some(disk) => disk.real_dir(dir),
                None => overlay.canonicalize(dir).ok(),
            }
            .is_some_and(|d| d != real_dir);
        Base {
            plain: crate::vfs::plain_dir(&real_dir),
            real_dir,
            linked_away,
        }
    }

    /// Where `target` (as written, remapped) is read: joined to the real
    /// directory as text when both are written plainly, as
    /// [`crate::vfs::join_real_known`] joins them otherwise.
    fn join_read(&self, target: &str) -> PathBuf {
        // `$'...'` names a path that is not text (see `path_of`).
        let as_text = self.plain && !target.contains("$'");
        if as_text {
            if let Some(read) = crate::vfs::join_plain(&self.real_dir, target) {
                return read;
            }
        }
        // A target already tried as text is not tried again.
        crate::vfs::join_real_known(&self.real_dir, self.plain && !as_text, &path_of(target))
    }
}

/// The path a target names on this machine: itself, or what follows
/// `file://`; `None` for any other scheme (`http://`: not read). (A `:` is
/// rare in a target: most need no search for `://`.)
fn local_path(target: &str) -> Option<&str> {
    match memchr::memchr(b':', target.as_bytes()).and_then(|_| target.split_once("://")) {
        Some(("file", rest)) => Some(rest),
        Some(_) => None,
        None => Some(target),
    }
}

impl<'a> Locator<'a> {
    /// References of the file `from`, with the `remap` prefixes.
    pub(crate) fn new(from: &'a str, remap: &'a Remap, overlay: &'a FileOverlay) -> Locator<'a> {
        Locator::new_in(from, remap, None, overlay)
    }

    /// [`Locator::new`], among files given in memory when `memory` is set.
    fn new_in(
        from: &'a str,
        remap: &'a Remap,
        memory: Option<&'a MemoryFiles>,
        overlay: &'a FileOverlay,
    ) -> Locator<'a> {
        Locator {
            from,
            remap,
            memory,
            overlay,
            base: None,
            disk: None,
        }
    }

    /// Asks the file-system questions of `disk` (each once per run).
    pub(crate) fn on(self, disk: &'a crate::vfs::Disk) -> Locator<'a> {
        Locator {
            disk: Some(disk),
            ..self
        }
    }

    /// Where `target` points: see [`locate`].
    pub(crate) fn locate(&mut self, target: &str) -> Option<(PathBuf, String)> {
        self.locate_as(target, true)
            .map(|(read, shown)| (read, shown.unwrap_or_default()))
    }

    /// [`locate_read`] for this locator's file: the real path only (the
    /// path as shown is not made), leading `..` taken off the real
    /// directory. (What [`Locator::locate_as`] does, without the path
    /// joined whole and then taken apart: inference asks this of every
    /// registry entry of every environment walked.)
    ///
    /// Each target is joined to a real directory once for the files of that
    /// directory that `seen` serves in turn (the environments of one
    /// directory name the same templates: the join was most of inference's
    /// time).
    pub(crate) fn locate_read(&mut self, target: &str, seen: &mut Joined) -> Option<PathBuf> {
        let target = local_path(target)?;
        if self.from.is_empty() && is_stdin(&path_of(target)) {
            return Some(PathBuf::from(STDIN_PATH));
        }
        let remapped = self.remap.apply(target);
        // A remapped path is read where `--templates-root` says, relative
        // to the working directory; so is a path standard input names.
        if matches!(remapped, std::borrow::Cow::Owned(_))
            || self.from.is_empty()
            || (self.base.is_none() && is_stdin(&path_of(self.from)))
        {
            return Some(path_of(&remapped));
        }
        let (from, memory, overlay, disk) = (self.from, self.memory, self.overlay, self.disk);
        let base = self
            .base
            .get_or_insert_with(|| Base::of(from, memory, overlay, disk));
        // Compared as bytes: `Path`'s `==` walks both paths' components.
        if seen.dir.as_ref().map(|d| d.as_os_str()) != Some(base.real_dir.as_os_str()) {
            seen.dir = Some(base.real_dir.clone());
            seen.read.clear();
        }
        if let Some(read) = seen.read.get(&*remapped) {
            return Some(read.clone());
        }
        let read = base.join_read(&remapped);
        seen.read.insert(remapped.into_owned(), read.clone());
        Some(read)
    }

    /// How `target` is shown ([`Locator::locate`]'s second path), without
    /// the path it is read from. Each target is shown from one directory
    /// once for the files of that directory that `seen` serves in turn (the
    /// environments of one directory name the same templates: making their
    /// paths was most of the time `validate` spent on unused parameters).
    pub(crate) fn locate_shown(&mut self, written: &str, seen: &mut Shown) -> Option<String> {
        let target = local_path(written)?;
        let remapped = self.remap.apply(target);
        if seen.from != self.from {
            self.serve(seen);
        }
        let (Some((dir, dot)), std::borrow::Cow::Borrowed(target)) = (&seen.dir, &remapped) else {
            // Files given on the command line or standard input, and
            // remapped paths: each made anew (rare).
            return self.locate(written).map(|(_, shown)| shown);
        };
        if let Some(shown) = seen.paths.get(*target) {
            return Some(shown.clone());
        }
        let shown = shown_path(dir, *dot, &path_of(target));
        seen.paths.insert((*target).to_owned(), shown.clone());
        Some(shown)
    }

    /// `seen` made to serve this locator's file: the directory its targets
    /// are shown from, and the paths shown from it kept when the last file
    /// was shown from the same.
    fn serve(&mut self, seen: &mut Shown) {
        self.from.clone_into(&mut seen.from);
        let from_path = &path_of(self.from);
        if self.from.is_empty() || is_stdin(from_path) {
            seen.dir = None;
            seen.paths.clear();
            return;
        }
        let (from, memory, overlay, disk) = (self.from, self.memory, self.overlay, self.disk);
        let base = self
            .base
            .get_or_insert_with(|| Base::of(from, memory, overlay, disk));
        let shown_base = if base.linked_away {
            base.real_dir.as_path()
        } else {
            from_path.parent().unwrap_or(Path::new(""))
        };
        let dot = from.starts_with("./");
        // Compared as bytes: `Path`'s `==` walks both paths' components.
        let same_dir = seen
            .dir
            .as_ref()
            .is_some_and(|(d, f)| *f == dot && d.as_os_str() == shown_base.as_os_str());
        if !same_dir {
            seen.dir = Some((shown_base.to_path_buf(), dot));
            seen.paths.clear();
        }
    }

    /// Where `target` is read, and, when `with_shown`, how it is shown.
    fn locate_as(&mut self, target: &str, with_shown: bool) -> Option<(PathBuf, Option<String>)> {
        let target = local_path(target)?;
        if self.from.is_empty() && is_stdin(&path_of(target)) {
            return Some((PathBuf::from(STDIN_PATH), Some(STDIN.to_owned())));
        }
        let remapped = self.remap.apply(target);
        // A remapped path is read where `--templates-root` says, relative to
        // the working directory, whoever names it.
        let from = if matches!(remapped, std::borrow::Cow::Owned(_)) {
            ""
        } else {
            self.from
        };
        let target = &*remapped;
        let from_path = &path_of(from);
        // Standard input has no directory: its references are relative to the
        // working directory, as those given on the command line are.
        let from_stdin = is_stdin(from_path);
        let shown_dir = from_path.parent().unwrap_or(Path::new(""));
        let memory = self.memory;
        let overlay = self.overlay;
        let (real_dir, linked_away) = if from.is_empty() || from_stdin {
            (Path::new(""), false)
        } else {
            let disk = self.disk;
            let base = self
                .base
                .get_or_insert_with(|| Base::of(from, memory, overlay, disk));
            (base.real_dir.as_path(), base.linked_away)
        };
        let target = &path_of(target);
        let read = real_dir.join(target);
        if !with_shown {
            return Some((read, None));
        }
        let shown_base = if linked_away { real_dir } else { shown_dir };
        let shown = shown_path(shown_base, from.starts_with("./"), target);
        Some((read, Some(shown)))
    }
}

/// `target` as shown from the directory `shown_base`, with a leading `./`
/// when the file that names it was named so (`dot`) and it stays inside.
fn shown_path(shown_base: &Path, dot: bool, target: &Path) -> String {
    let shown = normalize(&shown_base.join(target));
    if dot && !shown.starts_with('/') && !shown.starts_with("../") {
        format!("./{shown}")
    } else {
        shown
    }
}

fn key(path: &Path, memory: Option<&MemoryFiles>, overlay: &FileOverlay) -> PathBuf {
    real(path, memory, overlay).unwrap_or_else(|| PathBuf::from(normalize(path)))
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
            memory: opts.memory.clone(),
            confine: opts.confine.clone(),
            cache: opts.cache.clone(),
            overlay: opts.overlay.clone(),
            ..FsCatalog::default()
        };
        let mem = opts.memory.as_ref();
        let overlay = &opts.overlay;
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
                frontier.extend(locate_in(from, target, &opts.remap, mem, overlay));
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
                    frontier.extend(locate_in(from, target, &opts.remap, mem, overlay));
                }
                nested.extend(n.nested());
            }
        }
        while !frontier.is_empty() {
            let mut sources: Vec<(PathBuf, Source)> = Vec::new();
            let mut pending: HashSet<PathBuf> = HashSet::new();
            for (path, shown) in frontier.drain(..) {
                let k = key(&path, mem, overlay);
                if cat.files.contains_key(&k) || !pending.insert(k.clone()) {
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
                                frontier.extend(locate_in(
                                    &record.path,
                                    ty,
                                    &opts.remap,
                                    mem,
                                    overlay,
                                ));
                            }
                        }
                    }
                }
                cat.files.insert(k, record);
            }
        }
        cat
    }

    /// Whether a file exists at `path` (among the files given in memory,
    /// when there are).
    /// The text of the file `target` names from `from`, as read (with the
    /// path shown); `None` when it cannot be read.
    pub(crate) fn text(&self, from: &str, target: &str) -> Option<(String, String)> {
        let (path, shown) = self.locate(from, target)?;
        if let (Some(c), None) = (&self.cache, &self.memory) {
            c.note(&path);
        }
        let bytes = match &self.memory {
            Some(memory) => memory.get(&path)?.to_vec(),
            None if load::outside(&path, self.confine.as_deref(), &self.overlay).is_some() => {
                return None
            }
            None => self.overlay.read(&path).ok()?,
        };
        Some((String::from_utf8(bytes).ok()?, shown))
    }

    pub(crate) fn exists(&self, path: &Path) -> bool {
        match &self.memory {
            Some(m) => m.contains(path),
            None => self.overlay.exists(path),
        }
    }

    /// [`locate`], among the files in memory when there are.
    fn locate(&self, from: &str, target: &str) -> Option<(PathBuf, String)> {
        locate_in(
            from,
            target,
            &self.remap,
            self.memory.as_ref(),
            &self.overlay,
        )
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
            .or_insert_with(|| {
                self.locate(from, target)
                    .map(|(p, shown)| (key(&p, self.memory.as_ref(), &self.overlay), shown))
            })
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
        let (path, _) = self.locate(from, target)?;
        if let Some(memory) = &self.memory {
            // The key the client sent, which is what Heat looks up.
            return Some(
                memory
                    .key_of(&path)
                    .map_or_else(|| format!("file://{}", normalize(&path)), str::to_owned),
            );
        }
        let real = self.overlay.canonicalize(path).ok()?;
        Some(format!("file://{}", crate::walk::display(&real)))
    }

    fn file(&self, from: &str, target: &str) -> Option<String> {
        let (text, shown) = self.text(from, target)?;
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
        let Some((path, _)) = self.locate(from, target) else {
            return Some("remote URLs are not fetched".to_owned());
        };
        if let Some(memory) = &self.memory {
            return (!memory.contains(&path))
                .then(|| "not among the files given with the request".to_owned());
        }
        if let Some(problem) = load::outside(&path, self.confine.as_deref(), &self.overlay) {
            return Some(problem);
        }
        if let Some(c) = &self.cache {
            c.note(&path);
        }
        if self.overlay.get(&path).is_some() {
            return None;
        }
        if let Some(e) = self.overlay.missing_in_tree(&path) {
            return Some(crate::walk::path_io_message(&path, &e));
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
            None if self.exists(&path) => TemplateRef {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A target names a local path as written or after `file://`; any
    /// other scheme names nothing read; a colon alone is a name.
    #[test]
    fn a_local_path_is_the_target_or_after_file_scheme() {
        assert_eq!(local_path("a/b.yaml"), Some("a/b.yaml"));
        assert_eq!(local_path("file:///r/b.yaml"), Some("/r/b.yaml"));
        assert_eq!(local_path("http://h/b.yaml"), None);
        assert_eq!(local_path("https://h/b.yaml"), None);
        assert_eq!(local_path("c:x.yaml"), Some("c:x.yaml"));
        assert_eq!(local_path("a:/b.yaml"), Some("a:/b.yaml"));
        assert_eq!(local_path(""), Some(""));
    }

    /// A base joins a target as text exactly as `join_real` joins its
    /// path: plain and unclean directories, parents, dots, and a `$'...'`
    /// name that stands for other bytes.
    #[test]
    fn a_base_joins_as_join_real_does() {
        for dir in ["/r/a/b", "/", "/r//a", "r/a", ""] {
            let real_dir = PathBuf::from(dir);
            let base = Base {
                plain: crate::vfs::plain_dir(&real_dir),
                real_dir,
                linked_away: false,
            };
            for target in [
                "x.yaml",
                "../c/x.yaml",
                "./../../x",
                "c/../x",
                "c//x",
                "..",
                "$'\\x41.yaml'",
                "../$'\\xff'/x.yaml",
            ] {
                assert_eq!(
                    base.join_read(target),
                    crate::vfs::join_real(&base.real_dir, &path_of(target)),
                    "{dir:?} {target:?}"
                );
            }
        }
        assert!(crate::vfs::plain_dir(Path::new("/r/a/b")));
        assert!(!crate::vfs::plain_dir(Path::new("/r//a")));
    }

    #[test]
    fn a_locator_resolves_a_rendered_file_through_the_overlay() {
        // A file that exists only in the overlay (rendered) under a linked
        // directory: its references resolve against its real directory,
        // as a file on disk there would.
        let dir = tempfile::tempdir().unwrap();
        let real = std::fs::canonicalize(dir.path()).unwrap().join("real");
        std::fs::create_dir_all(&real).unwrap();
        std::os::unix::fs::symlink(&real, dir.path().join("link")).unwrap();
        let mut overlay = FileOverlay::new();
        overlay.mount(
            [(
                real.join("rendered.yaml"),
                crate::vfs::VirtualFile {
                    text: "heat_template_version: 2016-10-14\n".into(),
                    origin: Some("rendered.j2.yaml".into()),
                },
            )],
            [],
        );
        let from = dir.path().join("link/rendered.yaml");
        let from = from.to_str().unwrap();
        let remap = Remap::default();
        let (to_read, shown) = Locator::new(from, &remap, &overlay)
            .locate("x.yaml")
            .unwrap();
        assert_eq!(to_read, real.join("x.yaml"));
        assert_eq!(shown, normalize(&dir.path().join("link/x.yaml")));
        assert_eq!(
            key(Path::new(from), None, &overlay),
            real.join("rendered.yaml")
        );
    }

    #[test]
    fn one_locator_answers_each_target_as_a_fresh_one_would() {
        // A file in a linked directory: its targets are read from the real
        // directory and shown from the link; a remapped target from the working
        // directory; a URL not at all. Asked in turns of one Locator (its
        // directory found once), each answer is the first one's.
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real");
        std::fs::create_dir_all(&real).unwrap();
        std::fs::write(real.join("a.yaml"), "heat_template_version: 2016-10-14\n").unwrap();
        std::os::unix::fs::symlink(&real, dir.path().join("link")).unwrap();
        let from = dir.path().join("link/a.yaml");
        let from = from.to_str().unwrap();
        let remap = Remap::new(vec![("/tht".to_owned(), "moved".to_owned())]);
        let real_dir = std::fs::canonicalize(&real).unwrap();
        let shown = |p: &Path| normalize(p);
        let expected = [
            (
                "x.yaml",
                Some((
                    real_dir.join("x.yaml"),
                    shown(&dir.path().join("link/x.yaml")),
                )),
            ),
            (
                "/tht/y.yaml",
                Some((PathBuf::from("moved/y.yaml"), "moved/y.yaml".to_owned())),
            ),
            (
                "file://../z.yaml",
                Some((
                    real_dir.join("../z.yaml"),
                    shown(&dir.path().join("link/../z.yaml")),
                )),
            ),
            ("https://example.com/t.yaml", None),
        ];
        let overlay = FileOverlay::new();
        let mut locator = Locator::new(from, &remap, &overlay);
        for _ in 0..2 {
            for (target, want) in &expected {
                assert_eq!(&locator.locate(target), want, "{target}");
                assert_eq!(&locate(from, target, &remap, &overlay), want, "{target}");
            }
        }
    }

    /// Targets of every kind: relative, leaving the directory, with `.` and
    /// `..` inside, remapped (`/tht` to `moved`), `file://`, remote.
    const TARGETS: [&str; 6] = [
        "x.yaml",
        "../y.yaml",
        "./z/../w.yaml",
        "/tht/q.yaml",
        "file://x.yaml",
        "https://example.com/t.yaml",
    ];

    /// Environments in two directories (`real`, `other`), a link to
    /// `real` (`link`), and in `other` a link to an environment of `real`
    /// (`f.yaml`).
    fn linked_environments(dir: &Path) {
        for d in ["real", "other"] {
            std::fs::create_dir_all(dir.join(d)).unwrap();
        }
        for f in ["real/e1.yaml", "real/e2.yaml", "other/e3.yaml"] {
            std::fs::write(dir.join(f), "parameter_defaults: {}\n").unwrap();
        }
        std::os::unix::fs::symlink(dir.join("real"), dir.join("link")).unwrap();
        std::os::unix::fs::symlink("../real/e1.yaml", dir.join("other/f.yaml")).unwrap();
    }

    /// Files of several directories asked in turn with one `Joined` (as a
    /// worker of inference asks them): each answer is the one a fresh
    /// `Joined` gives, and a file's answers are those of its real
    /// directory, whether it is shown through a linked directory or is a
    /// link itself.
    #[test]
    fn joined_targets_are_those_of_each_real_directory() {
        let dir = tempfile::tempdir().unwrap();
        linked_environments(dir.path());
        let remap = Remap::new(vec![("/tht".to_owned(), "moved".to_owned())]);
        let overlay = FileOverlay::new();
        let targets = TARGETS;
        let real = std::fs::canonicalize(dir.path().join("real")).unwrap();
        let other = std::fs::canonicalize(dir.path().join("other")).unwrap();
        let mut joined = Joined::default();
        for (file, real_dir) in [
            ("real/e1.yaml", &real),
            ("other/e3.yaml", &other),
            ("link/e2.yaml", &real),
            ("other/f.yaml", &real),
            ("real/e2.yaml", &real),
        ] {
            let from = dir.path().join(file);
            let from = from.to_str().unwrap();
            let mut shared = Locator::new(from, &remap, &overlay);
            let mut fresh = Locator::new(from, &remap, &overlay);
            for target in targets {
                let answer = shared.locate_read(target, &mut joined);
                assert_eq!(
                    answer,
                    fresh.locate_read(target, &mut Joined::default()),
                    "{file}: {target}"
                );
                if target == "x.yaml" {
                    assert_eq!(answer, Some(real_dir.join("x.yaml")), "{file}");
                }
            }
        }
    }

    /// Files of several directories, named with and without `./`, asked in
    /// turn with one `Shown` (as a worker of `validate`'s unused-parameter
    /// check asks them): each answer is the path [`Locator::locate`]
    /// shows, and the paths a file shows are those of the directory it is
    /// shown from (the link's, or the real one's for a file that is a link
    /// elsewhere).
    #[test]
    fn shown_targets_are_those_locate_shows() {
        // Under the working directory, so that `./` names stay inside it.
        let cwd = std::env::current_dir().unwrap();
        let dir = tempfile::tempdir_in(&cwd).unwrap();
        linked_environments(dir.path());
        let remap = Remap::new(vec![("/tht".to_owned(), "moved".to_owned())]);
        let overlay = FileOverlay::new();
        // And standard input's name, which only a file given on the
        // command line reads.
        let targets: Vec<&str> = TARGETS.iter().chain(&["-"]).copied().collect();
        let relative = |p: &Path| format!("./{}", p.strip_prefix(&cwd).unwrap().display());
        let mut seen = Shown::default();
        let mut files: Vec<String> = Vec::new();
        for file in [
            "real/e1.yaml",
            "real/e2.yaml",
            "other/e3.yaml",
            "link/e2.yaml",
            "other/f.yaml",
            "real/e1.yaml",
        ] {
            files.push(dir.path().join(file).to_str().unwrap().to_owned());
            files.push(relative(&dir.path().join(file)));
        }
        files.extend([String::new(), "-".to_owned()]);
        for from in &files {
            let mut shared = Locator::new(from, &remap, &overlay);
            let mut fresh = Locator::new(from, &remap, &overlay);
            for &target in &targets {
                assert_eq!(
                    shared.locate_shown(target, &mut seen),
                    fresh.locate(target).map(|(_, shown)| shown),
                    "{from}: {target}"
                );
            }
        }
        // The link elsewhere shows its targets beside the file it points at.
        let from = dir.path().join("other/f.yaml");
        let from = from.to_str().unwrap();
        let shown = Locator::new(from, &remap, &overlay).locate_shown("x.yaml", &mut seen);
        let real = std::fs::canonicalize(dir.path().join("real")).unwrap();
        assert_eq!(shown, Some(normalize(&real.join("x.yaml"))));
    }
}
