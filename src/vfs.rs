//! Virtual files: text heatcap reads at a path instead of what the disk
//! holds there (a TripleO tree's rendered outputs, which exist only in
//! memory; an editor's unsaved buffers).
//!
//! A [`FileOverlay`] is a value, carried by the [`crate::LoadOptions`] of
//! one workspace (`LoadOptions::overlay`): there is no process-wide set of
//! files, so two workspaces in one process (`heatcap serve`'s requests, a
//! language server's editors) each see their own. Every stage that reads,
//! tests or resolves a path goes through its overlay's [`FileOverlay::read`],
//! [`FileOverlay::is_file`], [`FileOverlay::exists`] and
//! [`FileOverlay::canonicalize`], which answer from the mounted files first
//! and from the disk underneath otherwise (confinement, `LoadOptions::confine`,
//! is checked by the reader as for any file); the walk lists a directory's
//! virtual files beside its real ones ([`FileOverlay::files_below`]).
//! Files are keyed by their real path (the real directory they sit in,
//! joined with their name), so every way of naming one (relative,
//! absolute, through a link) finds it. An empty overlay costs nothing:
//! every call is the plain file-system call. Files given *instead of* the
//! disk (a request body's `files`) are [`crate::MemoryFiles`].

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The system's error numbers for "no such file or directory" and "is a
/// directory": a path a mounted tree lacks fails as on a checkout.
const ENOENT: i32 = 2;
const EISDIR: i32 = 21;

/// A file of a tree read at a git revision: its bytes, or only its size
/// when it is larger than any file heatcap reads (it is not read), or a
/// symbolic link to another file of the tree.
#[derive(Debug)]
pub(crate) enum TreeFile {
    Read(Vec<u8>),
    /// Its size in bytes, and the limit in characters it exceeds.
    Oversize(u64, usize),
    /// The path (relative to the tree's root) of the file of the tree it
    /// reads as.
    Link(String),
}

/// One virtual file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct VirtualFile {
    /// Its text.
    pub text: Arc<str>,
    /// Where it came from, as the user sees it (`overcloud.j2.yaml`), for
    /// a rendered file: a diagnostic in this file names it. `None` for a
    /// file given as it is (an editor's buffer).
    pub origin: Option<String>,
}

#[derive(Debug, Clone, Default)]
struct Inner {
    /// Real path → file.
    files: BTreeMap<PathBuf, Arc<VirtualFile>>,
    /// Real paths of sources whose outputs are mounted → the outputs'
    /// real paths.
    sources: BTreeMap<PathBuf, Vec<PathBuf>>,
    /// The trees rendered into it (real path), each with a key of the
    /// data it was rendered with: a workspace opened with this overlay
    /// (validate's composition) does not render them again.
    rendered: Vec<(PathBuf, String)>,
    /// Trees mounted *instead of* the disk (`--rev`): each real root with
    /// the revision it was read at. Below a root, the disk is not read: a
    /// path the tree lacks is missing.
    trees: Vec<(PathBuf, String)>,
    /// The real paths of the directories the mounted trees hold.
    dirs: std::collections::BTreeSet<PathBuf>,
    /// Files of the mounted trees left unread because they are larger
    /// than any file heatcap reads (real path → size in bytes, and the
    /// limit in characters): they are listed and exist, and reading one
    /// says it is too large.
    oversize: BTreeMap<PathBuf, (u64, usize)>,
}

/// Files read at their paths instead of the disk's, over the disk: a
/// workspace's rendered TripleO outputs, an editor's unsaved buffers.
/// Cheap to clone (shared); changed only through `&mut` (a clone being
/// changed copies first), so a workspace's files never change under it.
#[derive(Clone, Default)]
pub struct FileOverlay(Arc<Inner>);

impl std::fmt::Debug for FileOverlay {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FileOverlay")
            .field("files", &self.0.files.len())
            .field("rendered", &self.0.rendered)
            .finish()
    }
}

/// The real path a (maybe relative, maybe linked) path names: its real
/// directory joined with its name. `None` when the directory does not
/// exist.
fn key(path: &Path) -> Option<PathBuf> {
    let name = path.file_name()?;
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    Some(std::fs::canonicalize(dir).ok()?.join(name))
}

/// The real path `path` names when its directory may not exist on disk (a
/// directory only a revision holds): its nearest existing ancestor's real
/// path joined with the rest, `..` and `.` taken lexically.
fn lexical_key(path: &Path) -> Option<PathBuf> {
    let absolute = std::path::absolute(path).ok()?;
    let parts: Vec<std::path::Component<'_>> = absolute.components().collect();
    for at in (1..=parts.len()).rev() {
        let head: PathBuf = parts[..at].iter().collect();
        let Ok(mut real) = std::fs::canonicalize(&head) else {
            continue;
        };
        for c in &parts[at..] {
            match c {
                std::path::Component::ParentDir => {
                    real.pop();
                }
                std::path::Component::Normal(name) => real.push(name),
                _ => {}
            }
        }
        return Some(real);
    }
    None
}

impl FileOverlay {
    /// An overlay holding nothing: every path is the disk's.
    pub fn new() -> FileOverlay {
        FileOverlay::default()
    }

    /// Reads `text` at `path` instead of what the disk holds there (an
    /// editor's unsaved buffer), replacing any file mounted there.
    ///
    /// # Errors
    /// When `path`'s directory does not exist (a file is keyed by its real
    /// directory).
    pub fn insert(&mut self, path: &Path, text: &str) -> std::io::Result<()> {
        let k = key(path).ok_or_else(|| {
            std::io::Error::new(
                std::io::ErrorKind::NotFound,
                format!("`{}`: its directory does not exist", path.display()),
            )
        })?;
        self.mount(
            [(
                k,
                VirtualFile {
                    text: text.into(),
                    origin: None,
                },
            )],
            [],
        );
        Ok(())
    }

    /// Reads the disk's file at `path` again (an editor closed its
    /// buffer).
    pub fn remove(&mut self, path: &Path) {
        if let Some(k) = key(path) {
            if self.0.files.contains_key(&k) {
                Arc::make_mut(&mut self.0).files.remove(&k);
            }
        }
    }

    /// Whether anything is mounted.
    pub fn is_empty(&self) -> bool {
        self.0.files.is_empty() && self.0.oversize.is_empty()
    }

    /// How many files are mounted.
    pub fn len(&self) -> usize {
        self.0.files.len()
    }

    /// Mounts `files` (real path → file) rendered from `sources` (real
    /// path of each source → the real paths of its outputs), replacing any
    /// file mounted at the same path.
    pub(crate) fn mount(
        &mut self,
        files: impl IntoIterator<Item = (PathBuf, VirtualFile)>,
        sources: impl IntoIterator<Item = (PathBuf, Vec<PathBuf>)>,
    ) {
        let inner = Arc::make_mut(&mut self.0);
        for (path, file) in files {
            inner.files.insert(path, Arc::new(file));
        }
        for (source, outputs) in sources {
            inner.sources.insert(source, outputs);
        }
    }

    /// Whether the tree at `real` was rendered into this overlay with the
    /// data `with` stands for.
    pub(crate) fn has_rendered(&self, real: &Path, with: &str) -> bool {
        self.0
            .rendered
            .iter()
            .any(|(r, w)| r.as_path() == real && w == with)
    }

    /// Notes that the tree at `real` was rendered into it with the data
    /// `with` stands for.
    pub(crate) fn note_rendered(&mut self, real: PathBuf, with: String) {
        Arc::make_mut(&mut self.0).rendered.push((real, with));
    }

    /// Adds everything `other` holds (its files win over this one's at the
    /// same path, but for an editor's buffer: what the user is editing is
    /// read, not a render of the file).
    pub(crate) fn merge(&mut self, other: &FileOverlay) {
        if other.0.files.is_empty() && other.0.rendered.is_empty() && other.0.trees.is_empty() {
            return;
        }
        let inner = Arc::make_mut(&mut self.0);
        for (path, file) in &other.0.files {
            if inner.files.get(path).is_some_and(|f| f.origin.is_none())
                && !inner.trees.iter().any(|(root, _)| path.starts_with(root))
            {
                continue;
            }
            inner.files.insert(path.clone(), file.clone());
        }
        for (source, outputs) in &other.0.sources {
            inner.sources.insert(source.clone(), outputs.clone());
        }
        inner.rendered.extend(other.0.rendered.iter().cloned());
        inner.trees.extend(other.0.trees.iter().cloned());
        inner.dirs.extend(other.0.dirs.iter().cloned());
        inner
            .oversize
            .extend(other.0.oversize.iter().map(|(p, s)| (p.clone(), *s)));
    }

    /// Whether anything is mounted at or below `dir_real`.
    pub(crate) fn mounted_below(&self, dir_real: &Path) -> bool {
        let first = |keys: Option<&PathBuf>| keys.is_some_and(|p| p.starts_with(dir_real));
        first(
            self.0
                .files
                .range(dir_real.to_path_buf()..)
                .next()
                .map(|(p, _)| p),
        ) || first(
            self.0
                .oversize
                .range(dir_real.to_path_buf()..)
                .next()
                .map(|(p, _)| p),
        )
    }

    /// The virtual file at `path`, if one is mounted there.
    pub(crate) fn get(&self, path: &Path) -> Option<Arc<VirtualFile>> {
        if self.is_empty() {
            return None;
        }
        self.0.files.get(&self.key_of(path)?).cloned()
    }

    /// The key of `path`: its real directory joined with its name, or,
    /// with a tree mounted, the lexical answer where the directory is not
    /// on disk.
    fn key_of(&self, path: &Path) -> Option<PathBuf> {
        match key(path) {
            Some(k) => Some(k),
            None if !self.0.trees.is_empty() => lexical_key(path),
            None => None,
        }
    }

    /// Mounts the files of a tree read at revision `rev` (paths relative
    /// to `root`, a real directory) *instead of* the disk below `root`:
    /// a path below it that the tree lacks is missing, whatever the disk
    /// holds there.
    /// A file of the tree given as its size alone ([`TreeFile::Oversize`])
    /// was left unread: it is listed, and reading it says it is too large.
    pub(crate) fn mount_tree(&mut self, root: &Path, rev: &str, files: Vec<(String, TreeFile)>) {
        let inner = Arc::make_mut(&mut self.0);
        inner.dirs.insert(root.to_path_buf());
        let mut links = Vec::new();
        for (rel, file) in files {
            let path = root.join(&rel);
            let mut dir = path.parent();
            while let Some(d) = dir {
                if d == root || !inner.dirs.insert(d.to_path_buf()) {
                    break;
                }
                dir = d.parent();
            }
            let bytes = match file {
                TreeFile::Read(bytes) => bytes,
                TreeFile::Oversize(size, max_chars) => {
                    inner.oversize.insert(path, (size, max_chars));
                    continue;
                }
                TreeFile::Link(target) => {
                    links.push((path, root.join(target)));
                    continue;
                }
            };
            let text: Arc<str> = match String::from_utf8(bytes) {
                Ok(s) => s.into(),
                Err(e) => String::from_utf8_lossy(e.as_bytes()).into(),
            };
            inner
                .files
                .insert(path, Arc::new(VirtualFile { text, origin: None }));
        }
        // A link shares its target's text: however many links name a file,
        // its text is held once.
        for (path, target) in links {
            if let Some(file) = inner.files.get(&target).cloned() {
                inner.files.insert(path, file);
            } else if let Some(&unread) = inner.oversize.get(&target) {
                inner.oversize.insert(path, unread);
            }
        }
        inner.trees.push((root.to_path_buf(), rev.to_owned()));
    }

    /// The real path of `path` when it lies in a tree mounted instead of
    /// the disk (`--rev`), with the revision.
    pub(crate) fn in_tree(&self, path: &Path) -> Option<(PathBuf, &str)> {
        if self.0.trees.is_empty() {
            return None;
        }
        let k = self.key_of(path)?;
        let rev = self
            .0
            .trees
            .iter()
            .find(|(root, _)| k.starts_with(root))
            .map(|(_, rev)| rev.as_str())?;
        Some((k, rev))
    }

    /// The revision of the first tree mounted instead of the disk, if any.
    pub fn revision(&self) -> Option<&str> {
        self.0.trees.first().map(|(_, rev)| rev.as_str())
    }

    /// Whether `path` is a directory: in a mounted tree, one the tree
    /// holds; elsewhere the disk's (links followed).
    pub(crate) fn is_dir(&self, path: &Path) -> bool {
        match self.in_tree(path) {
            Some((k, _)) => self.0.dirs.contains(&k),
            None => path.is_dir(),
        }
    }

    /// The entries of a directory of a mounted tree (name, whether it is
    /// a directory), in name order; `None` outside the mounted trees or
    /// where the tree holds no such directory.
    pub(crate) fn tree_entries(&self, dir: &Path) -> Option<Vec<(String, bool)>> {
        let (k, _) = self.in_tree(dir)?;
        if !self.0.dirs.contains(&k) {
            return None;
        }
        let mut out = std::collections::BTreeMap::new();
        let below = |p: &Path| p.strip_prefix(&k).ok().map(Path::to_path_buf);
        for p in self
            .0
            .dirs
            .range(k.clone()..)
            .take_while(|p| p.starts_with(&k))
        {
            if let Some(rel) = below(p) {
                if rel.components().count() == 1 {
                    out.insert(rel.to_string_lossy().into_owned(), true);
                }
            }
        }
        let files = self.0.files.range(k.clone()..).map(|(p, _)| p);
        let unread = self.0.oversize.range(k.clone()..).map(|(p, _)| p);
        for p in files
            .take_while(|p| p.starts_with(&k))
            .chain(unread.take_while(|p| p.starts_with(&k)))
        {
            if let Some(rel) = below(p) {
                if rel.components().count() == 1 {
                    out.insert(rel.to_string_lossy().into_owned(), false);
                }
            }
        }
        Some(out.into_iter().collect())
    }

    /// The outputs mounted for the source at `path` (their real paths), if
    /// it is a rendered source.
    pub(crate) fn outputs_of(&self, path: &Path) -> Option<Vec<PathBuf>> {
        if self.0.sources.is_empty() {
            return None;
        }
        self.0.sources.get(&self.key_of(path)?).cloned()
    }

    /// The bytes at `path`: a virtual file's text, or the regular file's
    /// bytes (anything else is refused before it is opened).
    ///
    /// # Errors
    /// The disk's, or that the path is not a regular file.
    pub fn read(&self, path: &Path) -> std::io::Result<Vec<u8>> {
        if let Some(v) = self.get(path) {
            return Ok(v.text.as_bytes().to_vec());
        }
        if let Some(e) = self.missing_in_tree(path) {
            return Err(e);
        }
        let meta = std::fs::metadata(path)?;
        if !meta.is_file() {
            return Err(std::io::Error::other(
                "not a regular file (a FIFO, a device or a socket)",
            ));
        }
        std::fs::read(path)
    }

    /// Whether `path` is a virtual file or a regular file (links followed).
    pub fn is_file(&self, path: &Path) -> bool {
        if self.get(path).is_some() {
            return true;
        }
        match self.in_tree(path) {
            Some((k, _)) => self.0.oversize.contains_key(&k),
            None => std::fs::metadata(path).is_ok_and(|m| m.is_file()),
        }
    }

    /// Whether anything is at `path`, virtual or on disk.
    pub fn exists(&self, path: &Path) -> bool {
        if self.get(path).is_some() {
            return true;
        }
        match self.in_tree(path) {
            Some((k, _)) => self.0.dirs.contains(&k) || self.0.oversize.contains_key(&k),
            None => path.exists(),
        }
    }

    /// For a path in a mounted tree that is no file of it: the error the
    /// disk gives on a checkout of that revision (no such file, or a
    /// directory), in the system's words.
    ///
    /// A file of the tree left unread for its size fails as too large
    /// (`ErrorKind::FileTooLarge`), naming its size.
    pub(crate) fn missing_in_tree(&self, path: &Path) -> Option<std::io::Error> {
        let (k, rev) = self.in_tree(path)?;
        if self.0.files.contains_key(&k) {
            return None;
        }
        if let Some((size, max_chars)) = self.0.oversize.get(&k) {
            return Some(std::io::Error::new(
                std::io::ErrorKind::FileTooLarge,
                format!(
                    "the file is {size} bytes at revision `{rev}`, so more than {max_chars} \
                     characters (a character is at most 4 bytes), the limit; it was not read"
                ),
            ));
        }
        Some(if self.0.dirs.contains(&k) {
            std::io::Error::from_raw_os_error(EISDIR)
        } else {
            std::io::Error::from_raw_os_error(ENOENT)
        })
    }

    /// The real path of `path`: a virtual file's key, or the disk's answer.
    ///
    /// # Errors
    /// The disk's, when nothing is mounted there either.
    pub fn canonicalize(&self, path: impl AsRef<Path>) -> std::io::Result<PathBuf> {
        let path = path.as_ref();
        if let Some((k, _)) = self.in_tree(path) {
            return if self.0.files.contains_key(&k) || self.0.dirs.contains(&k) {
                Ok(k)
            } else {
                Err(std::io::Error::from_raw_os_error(ENOENT))
            };
        }
        std::fs::canonicalize(path).or_else(|e| match self.get(path) {
            Some(_) => key(path).ok_or(e),
            None => Err(e),
        })
    }

    /// Every virtual file below `dir_real` (a real directory), as its path
    /// relative to it, in path order.
    pub(crate) fn files_below(&self, dir_real: &Path) -> Vec<PathBuf> {
        let from = dir_real.to_path_buf();
        let files = self.0.files.range(from.clone()..).map(|(p, _)| p);
        let unread = self.0.oversize.range(from..).map(|(p, _)| p);
        let mut below: Vec<PathBuf> = files
            .take_while(|p| p.starts_with(dir_real))
            .chain(unread.take_while(|p| p.starts_with(dir_real)))
            .filter_map(|p| p.strip_prefix(dir_real).ok().map(Path::to_path_buf))
            .collect();
        if !self.0.oversize.is_empty() {
            below.sort();
        }
        below
    }

    /// Each diagnostic in a rendered file also names where the file came
    /// from, once: its message says so (every format shows it) and a
    /// related location points at the source.
    pub(crate) fn name_origins(&self, diagnostics: &mut [crate::diag::Diagnostic]) {
        if self.0.sources.is_empty() {
            return;
        }
        let mut cache: std::collections::HashMap<String, Option<String>> =
            std::collections::HashMap::new();
        for d in diagnostics {
            let origin = cache
                .entry(d.file.clone())
                .or_insert_with(|| self.get(Path::new(&d.file)).and_then(|v| v.origin.clone()))
                .clone();
            if let Some(origin) = origin {
                if !d.related.iter().any(|r| r.file == origin) {
                    d.message = format!("{} (rendered from `{origin}`)", d.message);
                    d.related.push(crate::diag::Related {
                        file: origin,
                        span: None,
                        message: format!(
                            "`{}` is rendered in memory from this Jinja source",
                            d.file
                        ),
                    });
                }
            }
        }
    }
}

/// What one run learns of the disk (through the overlay), each question
/// asked once: whether a path is a file, and the real path of each
/// directory. A command's files do not change while it runs; a longer-lived
/// caller (`heatcap serve`) makes one per request. Shared by the worker
/// threads.
#[derive(Debug, Default)]
pub(crate) struct Disk {
    /// The files read instead of the disk's.
    overlay: FileOverlay,
    /// Keyed by the paths' bytes (a `Path` hashes component by component):
    /// another spelling of a path is asked again.
    files: std::sync::Mutex<foldhash::HashMap<std::ffi::OsString, bool>>,
    dirs: std::sync::Mutex<foldhash::HashMap<std::ffi::OsString, Option<PathBuf>>>,
    /// Files the walk found under their own names, not through links
    /// ([`Disk::learn_plain`]).
    walked: foldhash::HashSet<std::ffi::OsString>,
}

fn locked<T>(m: &std::sync::Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl Disk {
    /// A run's cache over `overlay` and the disk.
    pub(crate) fn new(overlay: &FileOverlay) -> Disk {
        Disk {
            overlay: overlay.clone(),
            ..Disk::default()
        }
    }

    /// The files read instead of the disk's.
    pub(crate) fn overlay(&self) -> &FileOverlay {
        &self.overlay
    }

    /// Learns that each of `paths` is a file under its own name, not a
    /// symbolic link (the directory walk's entries said so,
    /// [`crate::walk::Entry::Plain`]): [`Disk::canonicalize`] then asks no
    /// `lstat` of them (one for each of `validate`'s 29,000 files, and of
    /// `index`'s 6,000 environments, on the benchmark's tree).
    pub(crate) fn learn_plain<P: AsRef<Path>>(&mut self, paths: impl IntoIterator<Item = P>) {
        self.walked
            .extend(paths.into_iter().map(|p| p.as_ref().as_os_str().to_owned()));
    }

    /// [`FileOverlay::is_file`], asked once per path.
    pub(crate) fn is_file(&self, path: &Path) -> bool {
        if let Some(&known) = locked(&self.files).get(path.as_os_str()) {
            return known;
        }
        let answer = self.overlay.is_file(path);
        locked(&self.files).insert(path.as_os_str().to_owned(), answer);
        answer
    }

    /// [`FileOverlay::canonicalize`], with the directory's part asked once per
    /// directory: a path whose last component is a name that is not a
    /// symbolic link (one `lstat`) is its real directory joined with that
    /// name, exactly as `realpath` finds it component by component.
    pub(crate) fn canonicalize(&self, path: &Path) -> std::io::Result<PathBuf> {
        if self.overlay.in_tree(path).is_some() {
            return self.overlay.canonicalize(path);
        }
        if let Some(name) = plain_name(path) {
            if self.walked.contains(path.as_os_str())
                || std::fs::symlink_metadata(path).is_ok_and(|m| !m.file_type().is_symlink())
            {
                let dir = match path.parent() {
                    Some(d) if !d.as_os_str().is_empty() => d,
                    _ => Path::new("."),
                };
                if let Some(real) = self.real_dir(dir) {
                    return Ok(real.join(name));
                }
            }
        }
        self.overlay.canonicalize(path)
    }

    /// The real path of the directory `dir` (`None` when there is none),
    /// once per run.
    pub(crate) fn real_dir(&self, dir: &Path) -> Option<PathBuf> {
        if let Some(known) = locked(&self.dirs).get(dir.as_os_str()) {
            return known.clone();
        }
        let answer = match self.overlay.in_tree(dir) {
            Some(_) => self.overlay.canonicalize(dir).ok(),
            None => std::fs::canonicalize(dir).ok(),
        };
        locked(&self.dirs).insert(dir.as_os_str().to_owned(), answer.clone());
        answer
    }
}

/// The last component of `path` when it is written as a plain name (not
/// `..`, `.`, a root, nor followed by `/` or `/.`, which would make `lstat`
/// follow a link).
fn plain_name(path: &Path) -> Option<&std::ffi::OsStr> {
    let name = path.file_name()?;
    let written = path
        .as_os_str()
        .as_encoded_bytes()
        .rsplit(|&b| b == b'/')
        .next()?;
    (written == name.as_encoded_bytes()).then_some(name)
}

/// [`join_real_known`], asking [`plain_dir`] itself (the tests' shorthand).
#[cfg(test)]
pub(crate) fn join_real(real_dir: &Path, target: &Path) -> PathBuf {
    join_real_known(real_dir, plain_dir(real_dir), target)
}

/// `target` (a relative path as written) read from the real directory
/// `real_dir`: its leading `..` taken off the directory (exact, since every
/// component of a real directory is a real directory), so that targets
/// written from different directories that reach one file give one path.
/// Other components are kept as written. `plain` is [`plain_dir`] of
/// `real_dir`, asked once by callers that join many targets to one
/// directory: then a target written plainly (leading `../` and `./`, then
/// names joined by single slashes), nearly every registry entry, is joined
/// as text, the same path byte for byte without taking either path apart.
pub(crate) fn join_real_known(real_dir: &Path, plain: bool, target: &Path) -> PathBuf {
    plain
        .then(|| target.to_str().and_then(|t| join_plain(real_dir, t)))
        .flatten()
        .unwrap_or_else(|| join_real_components(real_dir, target))
}

/// Whether `real_dir` is a clean absolute directory written as text (a
/// real one is, on unix), which [`join_plain`] joins to.
pub(crate) fn plain_dir(real_dir: &Path) -> bool {
    cfg!(unix)
        && real_dir.to_str().is_some_and(|dir| {
            dir == "/"
                || dir
                    .strip_prefix('/')
                    .is_some_and(|below| plain_names(below.as_bytes(), false))
        })
}

/// [`join_real_known`] of a target written plainly to a directory for which
/// [`plain_dir`] holds (asked once for the many targets of one file), as
/// text. `None` for a target not written plainly.
pub(crate) fn join_plain(real_dir: &Path, target: &str) -> Option<PathBuf> {
    let dir = real_dir.to_str()?;
    let mut rest = target;
    // A clean absolute directory: its parent is the text before its last
    // slash.
    let mut end = dir.len();
    loop {
        if let Some(after) = rest.strip_prefix("../") {
            let Some(slash) = dir[..end].rfind('/').filter(|_| end > 1) else {
                break;
            };
            end = slash.max(1);
            rest = after;
        } else if let Some(after) = rest.strip_prefix("./") {
            rest = after;
        } else {
            break;
        }
    }
    // Components would drop empty ones and `.`; a last `..` is a parent.
    if rest == ".." || !plain_names(rest.as_bytes(), true) {
        return None;
    }
    let mut read = String::with_capacity(end + 1 + rest.len());
    read.push_str(&dir[..end]);
    if end > 1 {
        read.push('/');
    }
    read.push_str(rest);
    Some(PathBuf::from(read))
}

/// Whether `path` is names joined by single slashes: no empty name, no
/// `.`, and `..` only when `parents`.
fn plain_names(path: &[u8], parents: bool) -> bool {
    let mut rest = path;
    loop {
        let end = memchr::memchr(b'/', rest).unwrap_or(rest.len());
        let name = &rest[..end];
        if name.is_empty() || name == b"." || (!parents && name == b"..") {
            return false;
        }
        if end == rest.len() {
            return true;
        }
        rest = &rest[end + 1..];
    }
}

fn join_real_components(real_dir: &Path, target: &Path) -> PathBuf {
    let mut read = real_dir.to_path_buf();
    let mut rest = target.components().peekable();
    while let Some(c) = rest.peek() {
        match c {
            std::path::Component::ParentDir if read.parent().is_some() => {
                read.pop();
            }
            std::path::Component::CurDir => {}
            _ => break,
        }
        rest.next();
    }
    read.extend(rest);
    read
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A rendering merged in replaces rendered files, never an editor's
    /// buffer at the same path.
    #[test]
    fn a_merged_rendering_keeps_an_editors_buffer() {
        let tmp = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(tmp.path()).unwrap();
        let (edited, other) = (root.join("overcloud.yaml"), root.join("post.yaml"));
        let mut overlay = FileOverlay::new();
        overlay.insert(&edited, "edited").unwrap();
        let rendered = |text: &str| VirtualFile {
            text: text.into(),
            origin: Some("x.j2.yaml".into()),
        };
        let mut part = FileOverlay::new();
        part.mount(
            [
                (edited.clone(), rendered("rendered")),
                (other.clone(), rendered("rendered")),
            ],
            [],
        );
        overlay.merge(&part);
        assert_eq!(&*overlay.get(&edited).unwrap().text, "edited");
        assert_eq!(&*overlay.get(&other).unwrap().text, "rendered");
        let mut again = FileOverlay::new();
        again.mount([(other.clone(), rendered("again"))], []);
        overlay.merge(&again);
        assert_eq!(&*overlay.get(&other).unwrap().text, "again");
    }

    /// The run's `Disk` answers as the plain calls do, through links to
    /// files and to directories, and for paths whose last component is not
    /// a plain name (where `lstat` would follow a link); each answer is
    /// kept, so a file made later is not seen by the same run.
    #[test]
    fn disk_answers_as_the_file_system_and_keeps_its_answers() {
        let tmp = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(tmp.path()).unwrap();
        std::fs::create_dir_all(root.join("real/sub")).unwrap();
        std::fs::write(root.join("real/sub/a.yaml"), "a").unwrap();
        std::os::unix::fs::symlink(root.join("real/sub"), root.join("linkdir")).unwrap();
        std::os::unix::fs::symlink(root.join("real/sub/a.yaml"), root.join("link.yaml")).unwrap();
        let disk = Disk::default();
        let cases = [
            "real/sub/a.yaml",
            "linkdir/a.yaml",
            "link.yaml",
            "linkdir",
            "linkdir/",
            "linkdir/.",
            "linkdir/..",
            "real/sub/../sub/a.yaml",
            "real/missing.yaml",
            "missing/a.yaml",
        ];
        for case in cases {
            let path = root.join(case);
            assert_eq!(
                disk.canonicalize(&path).ok(),
                std::fs::canonicalize(&path).ok(),
                "{case}"
            );
            assert_eq!(
                disk.is_file(&path),
                FileOverlay::default().is_file(&path),
                "{case}"
            );
        }
        assert_eq!(
            plain_name(Path::new("a/b.yaml")),
            Some(std::ffi::OsStr::new("b.yaml"))
        );
        for not_plain in ["a/b/", "a/b/.", "a/..", "/", ".."] {
            assert_eq!(plain_name(Path::new(not_plain)), None, "{not_plain}");
        }
        let later = root.join("real/later.yaml");
        assert!(!disk.is_file(&later));
        std::fs::write(&later, "b").unwrap();
        assert!(!disk.is_file(&later), "the run's answer is kept");
        assert!(Disk::default().is_file(&later));
    }

    /// A path learned as a file under its own name is joined to its
    /// directory's real path with no `lstat`: the answer for a link that was
    /// (wrongly) learned so shows it; an unlearned link is still followed.
    #[cfg(unix)]
    #[test]
    fn a_learned_plain_file_is_not_asked_of_the_disk() {
        let tmp = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(tmp.path()).unwrap();
        std::fs::create_dir_all(root.join("t")).unwrap();
        std::fs::write(root.join("c.yaml"), "c").unwrap();
        std::os::unix::fs::symlink(root.join("c.yaml"), root.join("t/link.yaml")).unwrap();
        std::os::unix::fs::symlink(root.join("c.yaml"), root.join("t/other.yaml")).unwrap();
        let mut disk = Disk::default();
        disk.learn_plain([root.join("t/link.yaml").as_path()]);
        assert_eq!(
            disk.canonicalize(&root.join("t/link.yaml")).ok(),
            Some(root.join("t/link.yaml"))
        );
        assert_eq!(
            disk.canonicalize(&root.join("t/other.yaml")).ok(),
            Some(root.join("c.yaml"))
        );
    }

    /// A tree mounted instead of the disk answers for paths below its
    /// root, whether or not their directories are on disk (`..` taken
    /// lexically), and nothing else of the disk there is seen.
    #[test]
    fn a_mounted_tree_answers_instead_of_the_disk() {
        let tmp = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(tmp.path()).unwrap();
        std::fs::create_dir_all(root.join("env")).unwrap();
        std::fs::write(root.join("env/disk-only.yaml"), "disk").unwrap();
        std::fs::write(root.join("outside.yaml"), "outside").unwrap();
        let repo = root.join("env");
        let mut tree = FileOverlay::new();
        tree.mount_tree(
            &repo,
            "v1",
            vec![
                ("a.yaml".into(), TreeFile::Read(b"a".to_vec())),
                ("gone/deep/b.yaml".into(), TreeFile::Read(b"b".to_vec())),
            ],
        );
        assert_eq!(tree.revision(), Some("v1"));
        assert_eq!(tree.read(&repo.join("a.yaml")).unwrap(), b"a");
        let through_parent = repo.join("gone/deep/../deep/b.yaml");
        assert_eq!(tree.read(&through_parent).unwrap(), b"b");
        assert_eq!(
            tree.canonicalize(&through_parent).unwrap(),
            repo.join("gone/deep/b.yaml")
        );
        assert!(tree.is_dir(&repo.join("gone")) && tree.exists(&repo.join("gone/deep")));
        assert!(!tree.is_file(&repo.join("disk-only.yaml")));
        assert_eq!(
            tree.read(&repo.join("disk-only.yaml")).unwrap_err().kind(),
            std::io::ErrorKind::NotFound
        );
        assert_eq!(
            tree.tree_entries(&repo).unwrap(),
            [("a.yaml".to_owned(), false), ("gone".to_owned(), true)]
        );
        // Outside the repository, the disk.
        assert_eq!(tree.read(&root.join("outside.yaml")).unwrap(), b"outside");
        // A render over it replaces the tree's file, as it would the disk's.
        let mut rendered = FileOverlay::new();
        rendered.mount(
            [(
                repo.join("a.yaml"),
                VirtualFile {
                    text: "rendered".into(),
                    origin: Some("a.j2.yaml".into()),
                },
            )],
            [],
        );
        tree.merge(&rendered);
        assert_eq!(tree.read(&repo.join("a.yaml")).unwrap(), b"rendered");
    }

    /// A file of a tree left unread for its size is listed and exists as
    /// a file; reading it fails as too large, naming its size, the
    /// revision and the limit. A link reads as its target, sharing its
    /// text (or its refusal).
    #[test]
    fn a_tree_file_too_large_to_read_is_listed_and_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let repo = std::fs::canonicalize(tmp.path()).unwrap();
        let mut tree = FileOverlay::new();
        tree.mount_tree(
            &repo,
            "v1",
            vec![
                ("a.yaml".into(), TreeFile::Read(b"a".to_vec())),
                ("big.yaml".into(), TreeFile::Oversize(9_000, 2_000)),
                ("to-a.yaml".into(), TreeFile::Link("a.yaml".into())),
                ("to-big.yaml".into(), TreeFile::Link("big.yaml".into())),
            ],
        );
        let big = repo.join("big.yaml");
        assert!(tree.is_file(&big) && tree.exists(&big) && tree.get(&big).is_none());
        assert_eq!(
            tree.tree_entries(&repo).unwrap(),
            ["a.yaml", "big.yaml", "to-a.yaml", "to-big.yaml"].map(|n| (n.to_owned(), false))
        );
        let (a, to_a) = (
            tree.get(&repo.join("a.yaml")),
            tree.get(&repo.join("to-a.yaml")),
        );
        assert!(Arc::ptr_eq(&a.unwrap().text, &to_a.unwrap().text));
        assert_eq!(
            tree.read(&repo.join("to-big.yaml")).unwrap_err().kind(),
            std::io::ErrorKind::FileTooLarge
        );
        let e = tree.read(&big).unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::FileTooLarge);
        assert_eq!(
            e.to_string(),
            "the file is 9000 bytes at revision `v1`, so more than 2000 characters \
             (a character is at most 4 bytes), the limit; it was not read"
        );
        // Merged into another overlay, it is still refused.
        let mut merged = FileOverlay::new();
        merged.merge(&tree);
        assert_eq!(
            merged.read(&big).unwrap_err().kind(),
            std::io::ErrorKind::FileTooLarge
        );
    }

    /// The plain-text join gives the component-wise join's path, byte for
    /// byte, or leaves the target to it.
    #[test]
    fn a_plain_target_joins_as_its_components_do() {
        for dir in ["/r/a/b", "/r", "/", "r", "", "/r//a", "/r/./a", "/r/a/"] {
            for target in [
                "x.yaml",
                "c/x.yaml",
                "../x.yaml",
                "../../c/x.yaml",
                "../../../../../x",
                "./../x.yaml",
                ".././x",
                "c/../x.yaml",
                "..",
                ".",
                "",
                "c/./x",
                "c//x",
                "c/",
                "c/.",
                "/abs.yaml",
                "../..",
            ] {
                let (dir, target) = (Path::new(dir), Path::new(target));
                let whole = join_real_components(dir, target);
                assert_eq!(
                    join_real(dir, target).as_os_str(),
                    whole.as_os_str(),
                    "{dir:?} {target:?}"
                );
                let as_text = plain_dir(dir)
                    .then(|| target.to_str().and_then(|t| join_plain(dir, t)))
                    .flatten();
                if let Some(plain) = as_text {
                    assert_eq!(plain.as_os_str(), whole.as_os_str(), "{dir:?} {target:?}");
                }
            }
        }
        for (dir, target) in [("/r/a", "../../c/x.yaml"), ("/", "../x"), ("/r", "../../x")] {
            assert!(plain_dir(Path::new(dir)));
            assert!(join_plain(Path::new(dir), target).is_some());
        }
    }

    #[test]
    fn leading_parents_are_taken_off_a_real_directory_only() {
        let dir = Path::new("/r/a/b");
        assert_eq!(
            join_real(dir, Path::new("../../c/x.yaml")),
            Path::new("/r/c/x.yaml")
        );
        assert_eq!(
            join_real(dir, Path::new("./../x.yaml")),
            Path::new("/r/a/x.yaml")
        );
        // Past the root, and inside the path, `..` stays as written.
        assert_eq!(
            join_real(Path::new("/"), Path::new("../x")),
            Path::new("/../x")
        );
        assert_eq!(
            join_real(dir, Path::new("c/../x.yaml")),
            Path::new("/r/a/b/c/../x.yaml")
        );
        assert_eq!(
            join_real(dir, Path::new("/abs.yaml")),
            Path::new("/abs.yaml")
        );
    }

    #[test]
    fn mounted_files_are_read_found_and_listed_by_any_name() {
        let dir = tempfile::tempdir().unwrap();
        let real = std::fs::canonicalize(dir.path()).unwrap();
        std::fs::create_dir(real.join("sub")).unwrap();
        std::fs::write(real.join("sub/disk.yaml"), "on disk").unwrap();
        let mut overlay = FileOverlay::new();
        overlay.mount(
            [(
                real.join("sub/virtual.yaml"),
                VirtualFile {
                    text: "in memory".into(),
                    origin: Some("sub/virtual.j2.yaml".into()),
                },
            )],
            [(
                real.join("sub/virtual.j2.yaml"),
                vec![real.join("sub/virtual.yaml")],
            )],
        );
        let by_other_name = real.join("sub/../sub/virtual.yaml");
        assert_eq!(overlay.read(&by_other_name).unwrap(), b"in memory");
        assert_eq!(
            overlay.read(&real.join("sub/disk.yaml")).unwrap(),
            b"on disk"
        );
        assert!(overlay.is_file(&by_other_name) && overlay.exists(&by_other_name));
        assert!(!overlay.is_file(&real.join("sub/none.yaml")));
        assert_eq!(
            overlay.canonicalize(&by_other_name).unwrap(),
            real.join("sub/virtual.yaml")
        );
        assert_eq!(
            overlay.files_below(&real),
            [PathBuf::from("sub/virtual.yaml")]
        );
        assert!(
            overlay.mounted_below(&real.join("sub")) && !overlay.mounted_below(&real.join("other"))
        );
        assert_eq!(
            overlay
                .outputs_of(&real.join("sub/virtual.j2.yaml"))
                .unwrap(),
            [real.join("sub/virtual.yaml")]
        );
        let shown = crate::walk::display(&by_other_name);
        let mut found = vec![crate::diag::Diagnostic::new(
            crate::diag::codes::DUPLICATE_KEY,
            shown,
            "duplicate key",
        )];
        overlay.name_origins(&mut found);
        assert!(found[0]
            .message
            .ends_with("(rendered from `sub/virtual.j2.yaml`)"));
        assert_eq!(found[0].related[0].file, "sub/virtual.j2.yaml");
    }

    #[test]
    fn overlays_are_independent_values() {
        let dir = tempfile::tempdir().unwrap();
        let real = std::fs::canonicalize(dir.path()).unwrap();
        std::fs::write(real.join("a.yaml"), "disk").unwrap();
        let mut one = FileOverlay::new();
        one.insert(&real.join("a.yaml"), "buffer one").unwrap();
        // A clone changed later copies first: `one` keeps its text.
        let mut two = one.clone();
        two.insert(&real.join("a.yaml"), "buffer two").unwrap();
        two.insert(&real.join("new.yaml"), "unsaved").unwrap();
        assert_eq!(one.read(&real.join("a.yaml")).unwrap(), b"buffer one");
        assert_eq!(two.read(&real.join("a.yaml")).unwrap(), b"buffer two");
        assert!(!one.exists(&real.join("new.yaml")) && two.is_file(&real.join("new.yaml")));
        assert_eq!(
            FileOverlay::new().read(&real.join("a.yaml")).unwrap(),
            b"disk"
        );
        // A buffer is no rendered file: nothing is said of its origin.
        let mut found = vec![crate::diag::Diagnostic::new(
            crate::diag::codes::DUPLICATE_KEY,
            crate::walk::display(&real.join("a.yaml")),
            "duplicate key",
        )];
        two.name_origins(&mut found);
        assert_eq!(found[0].message, "duplicate key");
        assert!(two.insert(&real.join("no/such/dir.yaml"), "x").is_err());
    }
}
