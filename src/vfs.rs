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

/// Mounts an editor's unsaved buffer at `path` (a file whose directory
/// exists), replacing what is mounted there; findings in it name no
/// origin. False when the directory does not exist.
pub(crate) fn mount_buffer(path: &Path, text: &str) -> bool {
    let Some(k) = key(path) else {
        return false;
    };
    let file = VirtualFile {
        text: text.into(),
        origin: String::new(),
    };
    mount([(k, file)], []);
    true
}

/// Removes the buffer mounted at `path` (the disk's file is read again).
pub(crate) fn unmount(path: &Path) {
    let Some(k) = key(path) else {
        return;
    };
    let mut guard = OVERLAY
        .write()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(overlay) = guard.as_mut() {
        overlay.files.remove(&k);
        ANY.store(!overlay.files.is_empty(), Ordering::Release);
    }
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
        // A buffer (no origin) is the file itself.
        if let Some(origin) = origin.filter(|o| !o.is_empty()) {
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
        // A buffer wins over the disk, names no origin, and unmounted the
        // disk is read again.
        let disk = real.join("sub/disk.yaml");
        assert!(mount_buffer(&disk, "unsaved"));
        assert_eq!(read(&disk).unwrap(), b"unsaved");
        let mut found = vec![crate::diag::Diagnostic::new(
            crate::diag::codes::DUPLICATE_KEY,
            crate::walk::display(&disk),
            "duplicate key",
        )];
        name_origins(&mut found);
        assert_eq!(found[0].message, "duplicate key");
        unmount(&disk);
        assert_eq!(read(&disk).unwrap(), b"on disk");
        assert!(!mount_buffer(&real.join("none/x.yaml"), "t"));
    }
}
