//! Virtual files: text heatcap reads at a path instead of what the disk
//! holds there (a TripleO tree's rendered outputs, which exist only in
//! memory; later, an editor's unsaved buffers).
//!
//! Every stage that reads, tests or resolves a path goes through this
//! module's [`read`], [`is_file`], [`exists`] and [`canonicalize`], which
//! answer from the mounted files first and from the disk otherwise; the
//! walk lists a directory's virtual files beside its real ones
//! ([`files_below`]). Files are keyed by their real path (the real
//! directory they sit in, joined with their name), so every way of naming
//! one (relative, absolute, through a link) finds it. The overlay is the
//! process's (one set of files, as the disk is one): a command mounts a
//! tree's renders once, before it walks; a language server would mount
//! and replace buffers as they change. With nothing mounted every call is
//! the plain file-system call.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, RwLock};

/// One virtual file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct VirtualFile {
    /// Its text.
    pub text: Arc<str>,
    /// Where it came from, as the user sees it (`overcloud.j2.yaml`):
    /// a diagnostic in this file names it.
    pub origin: String,
}

#[derive(Default)]
struct Overlay {
    /// Real path → file.
    files: BTreeMap<PathBuf, Arc<VirtualFile>>,
    /// Real paths of sources whose outputs are mounted → the outputs'
    /// real paths.
    sources: BTreeMap<PathBuf, Vec<PathBuf>>,
}

static ANY: AtomicBool = AtomicBool::new(false);
static OVERLAY: RwLock<Option<Overlay>> = RwLock::new(None);

fn with<T>(f: impl FnOnce(&Overlay) -> T) -> Option<T> {
    if !ANY.load(Ordering::Acquire) {
        return None;
    }
    let guard = OVERLAY
        .read()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    guard.as_ref().map(f)
}

/// Whether anything is mounted (one atomic load).
pub(crate) fn any() -> bool {
    ANY.load(Ordering::Acquire)
}

/// Mounts `files` (real path → file) rendered from `sources` (real path
/// of each source → the real paths of its outputs), replacing any file
/// mounted at the same path.
pub(crate) fn mount(
    files: impl IntoIterator<Item = (PathBuf, VirtualFile)>,
    sources: impl IntoIterator<Item = (PathBuf, Vec<PathBuf>)>,
) {
    let mut guard = OVERLAY
        .write()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let overlay = guard.get_or_insert_with(Overlay::default);
    for (path, file) in files {
        overlay.files.insert(path, Arc::new(file));
    }
    for (source, outputs) in sources {
        overlay.sources.insert(source, outputs);
    }
    ANY.store(!overlay.files.is_empty(), Ordering::Release);
}

/// Whether anything is mounted at or below `dir_real`.
pub(crate) fn mounted_below(dir_real: &Path) -> bool {
    with(|o| {
        o.files
            .range(dir_real.to_path_buf()..)
            .next()
            .is_some_and(|(p, _)| p.starts_with(dir_real))
    })
    .unwrap_or(false)
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

/// The virtual file at `path`, if one is mounted there.
pub(crate) fn get(path: &Path) -> Option<Arc<VirtualFile>> {
    if !ANY.load(Ordering::Acquire) {
        return None;
    }
    let k = key(path)?;
    with(|o| o.files.get(&k).cloned()).flatten()
}

/// The outputs mounted for the source at `path` (their real paths), if it
/// is a rendered source.
pub(crate) fn outputs_of(path: &Path) -> Option<Vec<PathBuf>> {
    if !ANY.load(Ordering::Acquire) {
        return None;
    }
    let k = key(path)?;
    with(|o| o.sources.get(&k).cloned()).flatten()
}

/// The bytes at `path`: a virtual file's text, or the regular file's
/// bytes (anything else is refused before it is opened).
pub(crate) fn read(path: &Path) -> std::io::Result<Vec<u8>> {
    if let Some(v) = get(path) {
        return Ok(v.text.as_bytes().to_vec());
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
pub(crate) fn is_file(path: &Path) -> bool {
    get(path).is_some() || std::fs::metadata(path).is_ok_and(|m| m.is_file())
}

/// Whether anything is at `path`, virtual or on disk.
pub(crate) fn exists(path: &Path) -> bool {
    get(path).is_some() || path.exists()
}

/// The real path of `path`: a virtual file's key, or the disk's answer.
pub(crate) fn canonicalize(path: impl AsRef<Path>) -> std::io::Result<PathBuf> {
    let path = path.as_ref();
    std::fs::canonicalize(path).or_else(|e| match get(path) {
        Some(_) => key(path).ok_or(e),
        None => Err(e),
    })
}

/// What one run learns of the disk (through the overlay), each question
/// asked once: whether a path is a file, and the real path of each
/// directory. A command's files do not change while it runs; a longer-lived
/// caller (`heatcap serve`) makes one per request. Shared by the worker
/// threads.
#[derive(Debug, Default)]
pub(crate) struct Disk {
    files: std::sync::Mutex<std::collections::HashMap<PathBuf, bool>>,
    dirs: std::sync::Mutex<std::collections::HashMap<PathBuf, Option<PathBuf>>>,
}

fn locked<T>(m: &std::sync::Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl Disk {
    /// [`is_file`], asked once per path.
    pub(crate) fn is_file(&self, path: &Path) -> bool {
        if let Some(&known) = locked(&self.files).get(path) {
            return known;
        }
        let answer = is_file(path);
        locked(&self.files).insert(path.to_path_buf(), answer);
        answer
    }

    /// [`canonicalize`], with the directory's part asked once per
    /// directory: a path whose last component is a name that is not a
    /// symbolic link (one `lstat`) is its real directory joined with that
    /// name, exactly as `realpath` finds it component by component.
    pub(crate) fn canonicalize(&self, path: &Path) -> std::io::Result<PathBuf> {
        if let Some(name) = plain_name(path) {
            if std::fs::symlink_metadata(path).is_ok_and(|m| !m.file_type().is_symlink()) {
                let dir = match path.parent() {
                    Some(d) if !d.as_os_str().is_empty() => d,
                    _ => Path::new("."),
                };
                if let Some(real) = self.real_dir(dir) {
                    return Ok(real.join(name));
                }
            }
        }
        canonicalize(path)
    }

    /// The real path of the directory `dir` (`None` when there is none),
    /// once per run.
    pub(crate) fn real_dir(&self, dir: &Path) -> Option<PathBuf> {
        if let Some(known) = locked(&self.dirs).get(dir) {
            return known.clone();
        }
        let answer = std::fs::canonicalize(dir).ok();
        locked(&self.dirs).insert(dir.to_path_buf(), answer.clone());
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

/// `target` (a relative path as written) read from the real directory
/// `real_dir`: its leading `..` taken off the directory (exact, since every
/// component of a real directory is a real directory), so that targets
/// written from different directories that reach one file give one path.
/// Other components are kept as written.
pub(crate) fn join_real(real_dir: &Path, target: &Path) -> PathBuf {
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

/// Every virtual file below `dir_real` (a real directory), as its path
/// relative to it, in path order.
pub(crate) fn files_below(dir_real: &Path) -> Vec<PathBuf> {
    with(|o| {
        o.files
            .range(dir_real.to_path_buf()..)
            .take_while(|(p, _)| p.starts_with(dir_real))
            .filter_map(|(p, _)| p.strip_prefix(dir_real).ok().map(Path::to_path_buf))
            .collect()
    })
    .unwrap_or_default()
}

/// Each diagnostic in a virtual file also names where the file came from,
/// once: its message says so (every format shows it) and a related
/// location points at the source.
pub(crate) fn name_origins(diagnostics: &mut [crate::diag::Diagnostic]) {
    if !ANY.load(Ordering::Acquire) {
        return;
    }
    let mut cache: std::collections::HashMap<String, Option<String>> =
        std::collections::HashMap::new();
    for d in diagnostics {
        let origin = cache
            .entry(d.file.clone())
            .or_insert_with(|| get(Path::new(&d.file)).map(|v| v.origin.clone()))
            .clone();
        if let Some(origin) = origin {
            if !d.related.iter().any(|r| r.file == origin) {
                d.message = format!("{} (rendered from `{origin}`)", d.message);
                d.related.push(crate::diag::Related {
                    file: origin,
                    span: None,
                    message: format!("`{}` is rendered in memory from this Jinja source", d.file),
                });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
            assert_eq!(disk.is_file(&path), is_file(&path), "{case}");
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
        mount(
            [(
                real.join("sub/virtual.yaml"),
                VirtualFile {
                    text: "in memory".into(),
                    origin: "sub/virtual.j2.yaml".into(),
                },
            )],
            [(
                real.join("sub/virtual.j2.yaml"),
                vec![real.join("sub/virtual.yaml")],
            )],
        );
        let by_other_name = real.join("sub/../sub/virtual.yaml");
        assert_eq!(read(&by_other_name).unwrap(), b"in memory");
        assert_eq!(read(&real.join("sub/disk.yaml")).unwrap(), b"on disk");
        assert!(is_file(&by_other_name) && exists(&by_other_name));
        assert!(!is_file(&real.join("sub/none.yaml")));
        assert_eq!(
            canonicalize(&by_other_name).unwrap(),
            real.join("sub/virtual.yaml")
        );
        assert_eq!(files_below(&real), [PathBuf::from("sub/virtual.yaml")]);
        assert!(mounted_below(&real.join("sub")) && !mounted_below(&real.join("other")));
        assert_eq!(
            outputs_of(&real.join("sub/virtual.j2.yaml")).unwrap(),
            [real.join("sub/virtual.yaml")]
        );
        let shown = crate::walk::display(&by_other_name);
        let mut found = vec![crate::diag::Diagnostic::new(
            crate::diag::codes::DUPLICATE_KEY,
            shown,
            "duplicate key",
        )];
        name_origins(&mut found);
        assert!(found[0]
            .message
            .ends_with("(rendered from `sub/virtual.j2.yaml`)"));
        assert_eq!(found[0].related[0].file, "sub/virtual.j2.yaml");
    }
}
