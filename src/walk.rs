//! Stage 1: roots and globs → a sorted list of [`Source`]s.
//!
//! The walk is sequential and sorted; loading is parallel, and starts on
//! each file as the walk finds it ([`walk_streaming`]). Paths are
//! kept as the user gave them: a root as typed, joined with the part below it.

#[cfg(not(unix))]
use std::collections::HashSet;
use std::path::{Component, Path, PathBuf};

use globset::GlobSet;
use walkdir::WalkDir;

use crate::diag::{codes, Diagnostic};

pub(crate) use crate::diag::codes::DIRECTORY_SKIPPED;

/// How standard input is shown: the path [`STDIN_PATH`] stands for it.
pub(crate) const STDIN: &str = "<stdin>";
/// The path that names standard input (`-`, as in most tools; `./-` is a
/// file named `-`). Its bytes come from [`crate::LoadOptions::stdin`].
pub(crate) const STDIN_PATH: &str = "-";

/// Whether `path` names standard input.
pub(crate) fn is_stdin(path: &Path) -> bool {
    path.as_os_str() == STDIN_PATH
}

/// Files Heat reads, by default.
pub const DEFAULT_INCLUDE: [&str; 4] = ["*.yaml", "*.yml", "*.json", "*.template"];

/// Compiles glob patterns; the error names the flag they came from.
pub(crate) fn globs(patterns: &[String], flag: &str) -> Result<GlobSet, String> {
    let mut b = globset::GlobSetBuilder::new();
    for p in patterns {
        let g = globset::Glob::new(p)
            .map_err(|e| format!("invalid {flag} glob `{p}`: {}", e.kind()))?;
        b.add(g);
    }
    b.build().map_err(|e| format!("invalid {flag} globs: {e}"))
}

/// The default include globs, compiled.
///
/// # Panics
/// Never: the default globs are constants that compile.
pub fn default_include() -> GlobSet {
    let patterns: Vec<String> = DEFAULT_INCLUDE.iter().map(|s| (*s).to_owned()).collect();
    globs(&patterns, "--include").expect("the default globs compile")
}

/// What to walk.
#[derive(Debug, Clone)]
pub struct WalkOptions {
    /// Files and directories, in the order given.
    pub roots: Vec<PathBuf>,
    /// Walk directories recursively.
    pub recursive: bool,
    /// Files found in directories must match one of these...
    pub include: GlobSet,
    /// ...and none of these (directories matching it are not entered).
    pub exclude: GlobSet,
    /// Enter directories whose name starts with a dot.
    pub hidden: bool,
    /// When set, `include` matches a file's path relative to this
    /// directory (absolute: a configuration file's), for files below it;
    /// otherwise, and for files elsewhere, the path below the walked root.
    pub include_base: Option<PathBuf>,
    /// The same for `exclude`.
    pub exclude_base: Option<PathBuf>,
}

impl WalkOptions {
    /// Walk `roots` (directories only with [`WalkOptions::recursive`]),
    /// reading the files Heat reads by default (`*.yaml`, `*.yml`,
    /// `*.json`, `*.template`), hidden directories skipped.
    pub fn new(roots: Vec<PathBuf>) -> WalkOptions {
        WalkOptions {
            roots,
            recursive: false,
            include: default_include(),
            exclude: GlobSet::empty(),
            hidden: false,
            include_base: None,
            exclude_base: None,
        }
    }

    /// The same, walking directories recursively.
    #[must_use]
    pub fn recursive(mut self) -> WalkOptions {
        self.recursive = true;
        self
    }

    /// The same, reading files that match these globs instead.
    pub fn include(mut self, patterns: &[&str]) -> Result<WalkOptions, String> {
        let patterns: Vec<String> = patterns.iter().map(|p| (*p).to_owned()).collect();
        self.include = globs(&patterns, "--include")?;
        Ok(self)
    }
}

/// Path prefixes read from somewhere else (`--templates-root FROM=TO`):
/// TripleO environments name `/usr/share/openstack-tripleo-heat-templates/…`,
/// where the templates are installed on a deployment host; on a checkout,
/// that prefix maps to the checkout. A path that is `FROM` or starts with
/// `FROM/` is read at `TO` plus the rest; the first matching pair wins.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Remap(Vec<(String, String)>);

impl Remap {
    /// The pairs, in order.
    pub fn new(pairs: Vec<(String, String)>) -> Remap {
        let trim = |s: String| {
            if s.len() > 1 {
                s.trim_end_matches('/').to_owned()
            } else {
                s
            }
        };
        Remap(pairs.into_iter().map(|(f, t)| (trim(f), trim(t))).collect())
    }

    /// Parses `FROM=TO`.
    pub fn parse_pair(spec: &str) -> Result<(String, String), String> {
        match spec.split_once('=') {
            Some((from, to)) if !from.is_empty() && !to.is_empty() => {
                Ok((from.to_owned(), to.to_owned()))
            }
            _ => Err(format!(
                "`{spec}` is not FROM=TO (a path prefix and where to read it instead)"
            )),
        }
    }

    /// True when there is nothing to remap.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// `path` with its prefix remapped, or as it is.
    pub fn apply<'a>(&self, path: &'a str) -> std::borrow::Cow<'a, str> {
        for (from, to) in &self.0 {
            if path == from {
                return std::borrow::Cow::Owned(to.clone());
            }
            if let Some(rest) = path.strip_prefix(from.as_str()) {
                if let Some(rest) = rest.strip_prefix('/') {
                    return std::borrow::Cow::Owned(format!("{to}/{rest}"));
                }
            }
        }
        std::borrow::Cow::Borrowed(path)
    }

    /// [`Remap::apply`] for a path given on the command line.
    pub fn apply_path(&self, path: &Path) -> PathBuf {
        if self.is_empty() {
            return path.to_path_buf();
        }
        let shown = display(path);
        match self.apply(&shown) {
            std::borrow::Cow::Owned(s) => path_of(&s),
            std::borrow::Cow::Borrowed(_) => path.to_path_buf(),
        }
    }
}

/// Files given in memory rather than on disk: a request body's `files`,
/// keyed as the client keyed them (`file:///abs/path`, or a plain name).
/// A load or catalog that has them reads every path from them and nothing
/// from disk: a path they lack is a missing file.
#[derive(Debug, Clone, Default)]
pub struct MemoryFiles(std::sync::Arc<std::collections::HashMap<String, (String, Vec<u8>)>>);

impl MemoryFiles {
    /// The set, from (key as sent, content) pairs; `file://` keys are read
    /// as their path.
    pub fn new<I: IntoIterator<Item = (String, Vec<u8>)>>(files: I) -> MemoryFiles {
        let map = files
            .into_iter()
            .map(|(key, bytes)| {
                (
                    Self::path_key(Path::new(strip_file_scheme(&key))),
                    (key, bytes),
                )
            })
            .collect();
        MemoryFiles(std::sync::Arc::new(map))
    }

    fn path_key(path: &Path) -> String {
        normalize(path)
    }

    /// The content of the file at `path`.
    pub(crate) fn get(&self, path: &Path) -> Option<&[u8]> {
        self.0.get(&Self::path_key(path)).map(|(_, b)| b.as_slice())
    }

    /// The key the client sent for the file at `path`.
    pub(crate) fn key_of(&self, path: &Path) -> Option<&str> {
        self.0.get(&Self::path_key(path)).map(|(k, _)| k.as_str())
    }

    /// Whether the set holds a file at `path`.
    pub(crate) fn contains(&self, path: &Path) -> bool {
        self.0.contains_key(&Self::path_key(path))
    }
}

/// `file:///x` → `/x`; anything else as it is.
pub(crate) fn strip_file_scheme(target: &str) -> &str {
    target.strip_prefix("file://").unwrap_or(target)
}

/// One file to load.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Source {
    /// The path as the user gave it (root as typed + relative part).
    pub display: String,
    /// The path to open.
    pub path: PathBuf,
    /// Named on the command line rather than found in a directory.
    pub explicit: bool,
    /// A Jinja source (`*.j2.yaml`): skipped, not parsed.
    pub jinja: bool,
    /// What the directory walk's entry said of it.
    pub(crate) entry: Entry,
}

/// What the directory walk's entry said of a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Entry {
    /// Not found by the walk (named on the command line, or made): what it
    /// is is asked of the disk.
    Unseen,
    /// A regular file reached through a symbolic link to it: opened without
    /// a `stat` first.
    Linked,
    /// A regular file under its own name: opened without a `stat` first,
    /// and its real path is its directory's joined with its name, with no
    /// `lstat` ([`crate::vfs::Disk::learn_plain`]).
    Plain,
}

/// The walk's result: files in order, and what could not be walked.
#[derive(Debug, Default)]
pub(crate) struct Walked {
    pub sources: Vec<Source>,
    pub diagnostics: Vec<Diagnostic>,
    /// Beside each of `sources`: the number [`walk_streaming`] told it
    /// under, when it did.
    pub streamed: Vec<Option<usize>>,
    seen: Dedup,
    /// The files read instead of the disk's (rendered outputs, buffers).
    overlay: crate::vfs::FileOverlay,
}

impl Walked {
    /// Adds one file an environment names (`from`, at `at`), unless it is
    /// already listed. A missing file becomes a diagnostic at the place
    /// that names it.
    pub(crate) fn add_named_file(
        &mut self,
        path: PathBuf,
        display: String,
        from: &str,
        at: crate::diag::Span,
    ) {
        if self.overlay.get(&path).is_some() {
            if self.seen.first_virtual(&path, &self.overlay) {
                self.list(source(path, display, true), None);
            }
            return;
        }
        if let Some(e) = self.overlay.missing_in_tree(&path) {
            let msg = format!("`{display}`, named here: {}", io_message(&e));
            self.diagnostics
                .push(Diagnostic::new(codes::NOT_FOUND, from, msg).at(at));
            return;
        }
        match std::fs::metadata(&path) {
            Ok(meta) if meta.is_file() => {
                if self.seen.first(&path, ino_of(&meta)) {
                    self.list(source(path, display, true), None);
                }
            }
            Ok(_) => self.diagnostics.push(
                Diagnostic::new(
                    codes::NOT_REGULAR,
                    from,
                    format!("`{display}`, named here, is not a regular file (a FIFO, a device or a socket); it is not opened"),
                )
                .at(at),
            ),
            Err(e) => {
                let code = if e.kind() == std::io::ErrorKind::NotFound {
                    codes::NOT_FOUND
                } else {
                    codes::READ_ERROR
                };
                let msg = format!("`{display}`, named here: {}", path_io_message(&path, &e));
                self.diagnostics
                    .push(Diagnostic::new(code, from, msg).at(at));
            }
        }
    }
}

impl Walked {
    /// Lists one more file.
    fn list(&mut self, file: Source, streamed: Option<usize>) {
        self.sources.push(file);
        self.streamed.push(streamed);
    }

    /// The files the walk read instead of the disk's.
    pub(crate) fn overlay(&self) -> &crate::vfs::FileOverlay {
        &self.overlay
    }

    /// The listed files the walk found under their own names
    /// ([`Entry::Plain`]).
    pub(crate) fn plain_files(&self) -> impl Iterator<Item = &Path> {
        self.sources
            .iter()
            .filter(|s| s.entry == Entry::Plain)
            .map(|s| s.path.as_path())
    }

    /// Which listed file `path` is (the same file, by device and inode, as
    /// the walk tells files apart), as an index into `sources`. `by_path`
    /// is [`Walked::by_path`], built once by the caller.
    pub(crate) fn position(&self, path: &Path, by_path: &ByPath<'_>) -> Option<usize> {
        if self.overlay.get(path).is_some() {
            // A virtual file: by its real path, as it was listed.
            let key = self.overlay.canonicalize(path).ok()?;
            let listed = self.seen.virtual_files.get(&key)?;
            return by_path.get(listed);
        }
        // Listed under this very path: no need to ask the disk.
        if let Some(i) = by_path.get(path) {
            return Some(i);
        }
        let meta = std::fs::metadata(path).ok()?;
        if !meta.is_file() {
            return None;
        }
        self.seen.listed(path, &meta).and_then(|p| by_path.get(p))
    }

    /// Each listed file's path, to its index in `sources`.
    pub(crate) fn by_path(&self) -> ByPath<'_> {
        ByPath(
            self.sources
                .iter()
                .enumerate()
                .map(|(i, s)| (s.path.as_os_str(), i))
                .collect(),
        )
    }
}

/// Each listed file's path, spelt as listed, to its index in
/// [`Walked::sources`] ([`Walked::by_path`]). Keyed by the path's bytes: a
/// `Path` hashes component by component, which was most of the cost, and
/// another spelling of a listed file (`a//b`) is still found, by its inode,
/// in [`Walked::position`].
pub(crate) struct ByPath<'a>(foldhash::HashMap<&'a std::ffi::OsStr, usize>);

impl ByPath<'_> {
    /// The index of the file listed under exactly this path.
    pub(crate) fn get(&self, path: &Path) -> Option<usize> {
        self.0.get(path.as_os_str()).copied()
    }
}

/// Walks the roots in the order given; each directory in sorted order.
pub(crate) fn walk(opts: &WalkOptions, overlay: &crate::vfs::FileOverlay) -> Walked {
    walk_streaming(opts, overlay, &mut |_, _| {})
}

/// [`walk`], telling `found` of each file a directory walk finds on disk
/// as it is found, numbered from 0, so that a caller can start reading it
/// at once. Such a file is listed as `found` was told of it, with its
/// number in [`Walked::streamed`], unless it is left out later (a file
/// reached by a link and by its own name, or listed already); files named
/// as roots, and files mounted in the overlay, are not told of.
pub(crate) fn walk_streaming(
    opts: &WalkOptions,
    overlay: &crate::vfs::FileOverlay,
    found: &mut dyn FnMut(usize, &Source),
) -> Walked {
    let mut numbered = 0;
    let mut found = |file: &Source| {
        found(numbered, file);
        numbered += 1;
        numbered - 1
    };
    let mut out = Walked {
        overlay: overlay.clone(),
        ..Walked::default()
    };
    let mut seen = std::mem::take(&mut out.seen);
    let mut stdin_listed = false;
    for root in &opts.roots {
        let shown = display(root);
        if is_stdin(root) {
            // Read once, whatever the number of times it is named.
            if !std::mem::replace(&mut stdin_listed, true) {
                out.list(source(root.clone(), shown, true), None);
            }
            continue;
        }
        if overlay.get(root).is_some() {
            if seen.first_virtual(root, overlay) {
                out.list(source(root.clone(), shown, true), None);
            }
            continue;
        }
        if overlay.in_tree(root).is_some() {
            if !overlay.is_dir(root) {
                let e = std::io::Error::from_raw_os_error(2);
                out.diagnostics
                    .push(Diagnostic::new(codes::NOT_FOUND, shown, io_message(&e)));
            } else if opts.recursive {
                walk_tree(root, opts, overlay, &mut seen, &mut out);
            } else {
                out.diagnostics.push(Diagnostic::new(
                    DIRECTORY_SKIPPED,
                    shown,
                    "is a directory; use -r to search it",
                ));
            }
            continue;
        }
        let meta = match std::fs::metadata(root) {
            Ok(m) => m,
            Err(e) => {
                let code = if e.kind() == std::io::ErrorKind::NotFound {
                    codes::NOT_FOUND
                } else {
                    codes::READ_ERROR
                };
                out.diagnostics
                    .push(Diagnostic::new(code, shown, path_io_message(root, &e)));
                continue;
            }
        };
        if meta.is_file() {
            if seen.first(root, ino_of(&meta)) {
                out.list(source(root.clone(), shown, true), None);
            }
            continue;
        }
        if !meta.is_dir() {
            out.diagnostics.push(not_regular(shown));
            continue;
        }
        if !opts.recursive {
            out.diagnostics.push(Diagnostic::new(
                DIRECTORY_SKIPPED,
                shown,
                "is a directory; use -r to search it",
            ));
            continue;
        }
        walk_dir(root, opts, overlay, &mut seen, &mut out, &mut found);
    }
    out.seen = seen;
    out
}

/// The path of `root` below `base`, when `base` is set and holds it: what
/// a glob anchored at `base` is matched against, joined with the path below
/// the root.
fn anchor(root: &Path, base: Option<&Path>) -> Option<PathBuf> {
    let real = std::fs::canonicalize(root).ok()?;
    real.strip_prefix(base?).ok().map(Path::to_path_buf)
}

/// What a glob matches: the path below the root, or below its anchor.
fn anchored<'a>(prefix: Option<&Path>, rel: &'a Path) -> std::borrow::Cow<'a, Path> {
    match prefix {
        Some(p) => std::borrow::Cow::Owned(p.join(rel)),
        None => std::borrow::Cow::Borrowed(rel),
    }
}

fn walk_dir(
    root: &Path,
    opts: &WalkOptions,
    overlay: &crate::vfs::FileOverlay,
    seen: &mut Dedup,
    out: &mut Walked,
    found: &mut dyn FnMut(&Source) -> usize,
) {
    let first_of_root = out.sources.len();
    let include_at = anchor(root, opts.include_base.as_deref());
    let exclude_at = anchor(root, opts.exclude_base.as_deref());
    let excluded = |rel: &Path| opts.exclude.is_match(anchored(exclude_at.as_deref(), rel));
    let walker = WalkDir::new(root)
        .follow_links(true)
        // A directory's entries share its path up to their names, so their
        // paths' bytes sort as their names do (`sort_by_file_name` takes
        // each path apart per comparison: a third of the walk).
        .sort_by(|a, b| a.path().as_os_str().cmp(b.path().as_os_str()))
        .into_iter()
        .filter_entry(|e| {
            if e.depth() == 0 || !e.file_type().is_dir() {
                return true;
            }
            let name = e.file_name().to_string_lossy();
            let rel = below(e.path(), root);
            (opts.hidden || !name.starts_with('.')) && !excluded(rel)
        });
    let mut files: Vec<(Source, u64, bool, usize)> = Vec::new();
    for entry in walker {
        let entry = match entry {
            Ok(e) => e,
            Err(e) => {
                let path = e.path().map_or_else(|| display(root), display);
                let d = if e.loop_ancestor().is_some() {
                    Diagnostic::new(
                        codes::SYMLINK_LOOP,
                        path,
                        "symbolic link loop; not followed",
                    )
                } else {
                    let msg = match (e.io_error(), e.path()) {
                        (Some(io), Some(p)) => path_io_message(p, io),
                        (Some(io), None) => io_message(io),
                        _ => e.to_string(),
                    };
                    Diagnostic::new(codes::READ_ERROR, path, msg)
                };
                out.diagnostics.push(d);
                continue;
            }
        };
        let kind = entry.file_type();
        if kind.is_dir() {
            continue;
        }
        let rel = below(entry.path(), root);
        if !opts.include.is_match(anchored(include_at.as_deref(), rel)) || excluded(rel) {
            continue;
        }
        if !kind.is_file() {
            // A FIFO or device named like a template: said, never opened.
            out.diagnostics.push(not_regular(display(entry.path())));
            continue;
        }
        let link = entry.path_is_symlink();
        let ino = entry_ino(&entry);
        let path = entry.into_path();
        let shown = display(&path);
        let mut file = source(path, shown, false);
        file.entry = if link { Entry::Linked } else { Entry::Plain };
        let number = found(&file);
        files.push((file, ino, link, number));
    }
    let virtual_files = virtual_files_below(root, opts, overlay, &|rel| {
        opts.include.is_match(anchored(include_at.as_deref(), rel)) && !excluded(rel)
    });
    // A file reached both by a link and by its own name is listed under its
    // own name (the first link only when no other name reaches it).
    let mut own_name: foldhash::HashSet<u64> = foldhash::HashSet::default();
    for (_, ino, link, _) in &files {
        if !link {
            own_name.insert(*ino);
        }
    }
    for (file, ino, link, number) in files {
        if cfg!(unix) && link && own_name.contains(&ino) {
            continue;
        }
        if seen.first(&file.path, ino) {
            out.list(file, Some(number));
        }
    }
    if !virtual_files.is_empty() {
        add_virtual(root, first_of_root, virtual_files, overlay, seen, out);
    }
}

/// The part of `path`, found by walking `root`, below `root` (`path` itself
/// when it is not below). The walk joined it to `root` as written, so it
/// is the text after `root`'s, without taking either apart.
fn below<'a>(path: &'a Path, root: &Path) -> &'a Path {
    let (p, r) = (
        path.as_os_str().as_encoded_bytes(),
        root.as_os_str().as_encoded_bytes(),
    );
    match p.strip_prefix(r) {
        Some(rest) if cfg!(unix) && (r.ends_with(b"/") || rest.first() == Some(&b'/')) => {
            let rest = rest.strip_prefix(b"/").unwrap_or(rest);
            match std::str::from_utf8(rest) {
                Ok(text) => Path::new(text),
                Err(_) => path.strip_prefix(root).unwrap_or(path),
            }
        }
        _ => path.strip_prefix(root).unwrap_or(path),
    }
}

/// Walks a directory of a tree mounted instead of the disk (`--rev`): its
/// files, in the order the disk's walk lists them, with the same globs
/// (a directory an exclude glob matches is not entered).
fn walk_tree(
    root: &Path,
    opts: &WalkOptions,
    overlay: &crate::vfs::FileOverlay,
    seen: &mut Dedup,
    out: &mut Walked,
) {
    let first_of_root = out.sources.len();
    let include_at = anchor(root, opts.include_base.as_deref());
    let exclude_at = anchor(root, opts.exclude_base.as_deref());
    let excluded = |rel: &Path| opts.exclude.is_match(anchored(exclude_at.as_deref(), rel));
    let rels = virtual_files_below(root, opts, overlay, &|rel| {
        opts.include.is_match(anchored(include_at.as_deref(), rel))
            && !excluded(rel)
            && !rel
                .ancestors()
                .skip(1)
                .any(|a| !a.as_os_str().is_empty() && excluded(a))
    });
    add_virtual(root, first_of_root, rels, overlay, seen, out);
}

/// The virtual files (`crate::vfs`) below `root` the walk takes (not
/// hidden unless `--hidden`, matching the globs), as paths below `root`.
fn virtual_files_below(
    root: &Path,
    opts: &WalkOptions,
    overlay: &crate::vfs::FileOverlay,
    wanted: &dyn Fn(&Path) -> bool,
) -> Vec<PathBuf> {
    if overlay.is_empty() {
        return Vec::new();
    }
    let Ok(real) = overlay.canonicalize(root) else {
        return Vec::new();
    };
    if !overlay.mounted_below(&real) {
        return Vec::new();
    }
    overlay
        .files_below(&real)
        .into_iter()
        .filter(|rel| {
            let parent_hidden = rel.parent().is_some_and(|p| {
                p.components()
                    .any(|c| c.as_os_str().to_string_lossy().starts_with('.'))
            });
            (opts.hidden || !parent_hidden) && wanted(rel)
        })
        .collect()
}

/// Adds the virtual files below `root` to the walk's sources, in the
/// walk's order (path order, as the sorted walk lists a directory); a
/// real file at the same path is already listed and is read through the
/// overlay.
fn add_virtual(
    root: &Path,
    start: usize,
    rels: Vec<PathBuf>,
    overlay: &crate::vfs::FileOverlay,
    seen: &mut Dedup,
    out: &mut Walked,
) {
    let listed: std::collections::HashSet<PathBuf> = out.sources[start..]
        .iter()
        .map(|s| s.path.clone())
        .collect();
    for rel in rels {
        let path = root.join(&rel);
        // A file the disk has too is listed already: as it was seen,
        // so that an overlapping root does not list it again.
        let first = seen.first_virtual(&path, overlay);
        if listed.contains(&path) || !first {
            continue;
        }
        let shown = display(&path);
        out.list(source(path, shown, false), None);
    }
    // In path order, each file with its number.
    let mut files: Vec<(Source, Option<usize>)> = out
        .sources
        .drain(start..)
        .zip(out.streamed.drain(start..))
        .collect();
    files.sort_by(|a, b| a.0.path.cmp(&b.0.path));
    for (file, streamed) in files {
        out.list(file, streamed);
    }
}

/// E0017 for a path that is not a regular file.
pub(crate) fn not_regular(shown: String) -> Diagnostic {
    Diagnostic::new(
        codes::NOT_REGULAR,
        shown,
        "is not a regular file (a FIFO, a device or a socket); it is not opened",
    )
}

/// The bytes of a regular file on disk; anything else is refused before
/// it is opened (a FIFO would block, a device never end). Reading through
/// a workspace's overlay is [`crate::vfs::FileOverlay::read`].
pub(crate) fn read_regular(path: &Path) -> std::io::Result<Vec<u8>> {
    crate::vfs::FileOverlay::default().read(path)
}

impl Source {
    /// A file to load, shown as `display`; a Jinja source (`*.j2.*`) is
    /// marked as one.
    pub(crate) fn new(path: PathBuf, display: String, explicit: bool) -> Source {
        source(path, display, explicit)
    }
}

fn source(path: PathBuf, display: String, explicit: bool) -> Source {
    let jinja = path
        .file_name()
        .map(|n| n.to_string_lossy())
        .is_some_and(|n| n.contains(".j2."));
    Source {
        display,
        path,
        explicit,
        jinja,
        entry: Entry::Unseen,
    }
}

/// A path as heatcap shows it, in every output format: forward slashes on
/// every platform; a name (path component) that holds a control character
/// or bytes that are not UTF-8, or that starts with `$'`, is written in
/// Bash's ANSI-C quoting (`$'new\nline.yaml'`, `$'caf\xe9.yaml'`), which a
/// shell turns back into the name and [`path_of`] reverses. Every other
/// name is shown as it is. Standard input (`-`) is shown `<stdin>`, so a
/// name that is `<stdin>` is quoted (`$'<stdin>'`).
pub(crate) fn display(path: &Path) -> String {
    if is_stdin(path) {
        return STDIN.to_owned();
    }
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let bytes = path.as_os_str().as_bytes();
        match std::str::from_utf8(bytes) {
            Ok(s) if !needs_quoting(s) => s.to_owned(),
            _ => bytes
                .split(|b| *b == b'/')
                .map(quote_name)
                .collect::<Vec<_>>()
                .join("/"),
        }
    }
    #[cfg(not(unix))]
    {
        let s = path.to_string_lossy();
        let s = s.replace('\\', "/");
        s.split('/')
            .map(|n| quote_name(n.as_bytes()))
            .collect::<Vec<_>>()
            .join("/")
    }
}

fn needs_quoting(name: &str) -> bool {
    // Printable ASCII without `$` or `<` (nearly every path) in one pass.
    if name
        .bytes()
        .all(|b| (0x20..0x7f).contains(&b) && b != b'$' && b != b'<')
    {
        return false;
    }
    name.chars().any(char::is_control) || name.contains("$'") || name.split('/').any(|n| n == STDIN)
}

/// One name, quoted when it must be.
fn quote_name(name: &[u8]) -> String {
    match std::str::from_utf8(name) {
        Ok(s) if !s.chars().any(char::is_control) && !s.starts_with("$'") && s != STDIN => {
            s.to_owned()
        }
        _ => {
            use std::fmt::Write;
            let mut out = String::from("$'");
            for chunk in name.utf8_chunks() {
                for c in chunk.valid().chars() {
                    match c {
                        '\n' => out.push_str("\\n"),
                        '\t' => out.push_str("\\t"),
                        '\r' => out.push_str("\\r"),
                        '\\' => out.push_str("\\\\"),
                        '\'' => out.push_str("\\'"),
                        c if c.is_control() => {
                            for b in c.encode_utf8(&mut [0; 4]).bytes() {
                                let _ = write!(out, "\\x{b:02x}");
                            }
                        }
                        c => out.push(c),
                    }
                }
                for b in chunk.invalid() {
                    let _ = write!(out, "\\x{b:02x}");
                }
            }
            out.push('\'');
            out
        }
    }
}

/// The path a [`display`]ed path names: quoted names are unquoted.
pub(crate) fn path_of(shown: &str) -> PathBuf {
    if shown == STDIN {
        return PathBuf::from(STDIN_PATH);
    }
    if !shown.contains("$'") {
        return PathBuf::from(shown);
    }
    let names: Vec<Vec<u8>> = shown
        .split('/')
        .map(|n| {
            n.strip_prefix("$'")
                .and_then(|q| q.strip_suffix('\''))
                .and_then(unquote)
                .unwrap_or_else(|| n.as_bytes().to_vec())
        })
        .collect();
    let bytes = names.join(&b'/');
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStringExt;
        PathBuf::from(std::ffi::OsString::from_vec(bytes))
    }
    #[cfg(not(unix))]
    {
        PathBuf::from(String::from_utf8_lossy(&bytes).into_owned())
    }
}

/// A [`display`]ed path as a URI reference (SARIF's `uri`): the path's
/// bytes, with every byte but the unreserved ones and `/` percent-encoded
/// (RFC 3986 §2.1), so that names with spaces, newlines or bytes that are
/// not UTF-8 stay exact.
pub(crate) fn uri_path(shown: &str) -> String {
    use std::fmt::Write;
    let path = path_of(shown);
    #[cfg(unix)]
    let bytes = {
        use std::os::unix::ffi::OsStrExt;
        path.as_os_str().as_bytes().to_vec()
    };
    #[cfg(not(unix))]
    let bytes = path.to_string_lossy().replace('\\', "/").into_bytes();
    let mut out = String::with_capacity(bytes.len());
    for b in bytes {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            out.push(char::from(b));
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

/// The bytes of an ANSI-C quoted name (without `$'` and `'`); `None` when
/// it is not one [`quote_name`] writes.
fn unquote(q: &str) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    let mut chars = q.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
            continue;
        }
        match chars.next()? {
            'n' => out.push(b'\n'),
            't' => out.push(b'\t'),
            'r' => out.push(b'\r'),
            '\\' => out.push(b'\\'),
            '\'' => out.push(b'\''),
            'x' => {
                let hex: String = chars.by_ref().take(2).collect();
                out.push(u8::from_str_radix(&hex, 16).ok()?);
            }
            _ => return None,
        }
    }
    Some(out)
}

/// Removes `.` and `name/..` from a path, as text.
pub(crate) fn normalize(path: &Path) -> String {
    // Most paths are text that needs no quoting: their names are taken as
    // text (the same answer, without building a path per component).
    if let Some(text) = path.to_str().filter(|t| !needs_quoting(t)) {
        return normalize_text(text);
    }
    normalize_components(path)
}

/// [`normalize`] of a path that is text needing no quoting, written into
/// one string: the names kept so far are `out[base..]`, joined by `/`, and
/// `..` takes off the last of them (found by searching back for its `/`).
fn normalize_text(text: &str) -> String {
    let absolute = text.starts_with('/');
    let mut out = String::with_capacity(text.len() + 1);
    if absolute {
        out.push('/');
    }
    let base = out.len();
    // The names between slashes, found byte by byte (`split('/')` searched
    // for each slash anew: most names are short).
    let bytes = text.as_bytes();
    let mut start = 0;
    while start <= bytes.len() {
        let end = bytes[start..]
            .iter()
            .position(|&b| b == b'/')
            .map_or(bytes.len(), |i| start + i);
        let name = &text[start..end];
        start = end + 1;
        match name {
            "" | "." => {}
            ".." => {
                let last_start = out[base..].rfind('/').map_or(base, |i| base + i + 1);
                if out.len() > base && &out[last_start..] != ".." {
                    out.truncate(last_start.saturating_sub(1).max(base));
                } else if out.len() > base || !absolute {
                    if out.len() > base {
                        out.push('/');
                    }
                    out.push_str("..");
                }
            }
            _ => {
                if out.len() > base {
                    out.push('/');
                }
                out.push_str(name);
            }
        }
    }
    if out == STDIN_PATH {
        return STDIN.to_owned();
    }
    out
}

/// [`normalize`] of any path, component by component.
fn normalize_components(path: &Path) -> String {
    let mut parts: Vec<Component<'_>> = Vec::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => match parts.last() {
                Some(Component::Normal(_)) => {
                    parts.pop();
                }
                Some(Component::RootDir | Component::Prefix(_)) => {}
                _ => parts.push(c),
            },
            other => parts.push(other),
        }
    }
    let p: PathBuf = parts.iter().collect();
    display(&p)
}

/// An I/O error's message without Rust's " (os error N)" suffix.
pub(crate) fn io_message(e: &std::io::Error) -> String {
    let s = e.to_string();
    if e.raw_os_error().is_none() && e.get_ref().is_some() {
        // heatcap's own words (a revision's file too large), as written:
        // they may name a revision or a path, whose case matters.
        return s;
    }
    match s.find(" (os error") {
        Some(i) => s[..i].to_lowercase(),
        None => s.to_lowercase(),
    }
}

/// [`io_message`] for an error met opening `path`: a symbolic link that
/// dangles or loops is said to be one, since the system's words ("no such
/// file or directory") name a file the user can see.
pub(crate) fn path_io_message(path: &Path, e: &std::io::Error) -> String {
    let is_link = std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
    if !is_link {
        return io_message(e);
    }
    match (e.kind(), std::fs::read_link(path)) {
        (std::io::ErrorKind::NotFound, Ok(to)) => format!(
            "a dangling symbolic link: its target `{}` does not exist",
            display(&to)
        ),
        _ if link_loops(path) => {
            "a symbolic link loop (too many levels of symbolic links)".to_owned()
        }
        _ => io_message(e),
    }
}

/// True when following the link at `path` comes back to a link already
/// followed.
fn link_loops(path: &Path) -> bool {
    let mut seen: Vec<PathBuf> = Vec::new();
    let mut at = path.to_path_buf();
    while let Ok(to) = std::fs::read_link(&at) {
        if seen.contains(&at) {
            return true;
        }
        seen.push(at.clone());
        at = at.parent().unwrap_or(Path::new("")).join(to);
        if seen.len() > 64 {
            return true;
        }
    }
    false
}

/// Lists each file once, however it is reached (two spellings of a root,
/// a symbolic link, overlapping roots). On Unix by inode number, which the
/// directory walk already has: a stat is spent only when two paths share
/// an inode number, to compare their devices.
#[derive(Debug, Default)]
struct Dedup {
    /// Virtual files (`crate::vfs`): real path → the path it was first
    /// seen under.
    virtual_files: std::collections::HashMap<PathBuf, PathBuf>,
    /// Inode number → the first path listed with it (on Unix)...
    #[cfg(unix)]
    by_ino: foldhash::HashMap<u64, PathBuf>,
    /// ...and the others (files of other devices with the same number).
    #[cfg(unix)]
    more_by_ino: foldhash::HashMap<u64, Vec<PathBuf>>,
    /// Real path → the path it was listed under.
    #[cfg(not(unix))]
    by_path: std::collections::HashMap<PathBuf, PathBuf>,
}

impl Dedup {
    /// True the first time a virtual file is seen.
    fn first_virtual(&mut self, path: &Path, overlay: &crate::vfs::FileOverlay) -> bool {
        let key = overlay
            .canonicalize(path)
            .unwrap_or_else(|_| path.to_path_buf());
        match self.virtual_files.entry(key) {
            std::collections::hash_map::Entry::Occupied(_) => false,
            std::collections::hash_map::Entry::Vacant(v) => {
                v.insert(path.to_path_buf());
                true
            }
        }
    }

    /// True the first time a file is seen.
    #[cfg(unix)]
    fn first(&mut self, path: &Path, ino: u64) -> bool {
        use std::os::unix::fs::MetadataExt;
        let Some(first) = self.by_ino.get(&ino) else {
            self.by_ino.insert(ino, path.to_path_buf());
            return true;
        };
        let dev = |p: &Path| std::fs::metadata(p).ok().map(|m| m.dev());
        let this = dev(path);
        let more = self.more_by_ino.entry(ino).or_default();
        if this.is_some()
            && std::iter::once(first)
                .chain(more.iter())
                .any(|p| dev(p) == this)
        {
            return false;
        }
        more.push(path.to_path_buf());
        true
    }

    /// The listed path of the file `meta` describes, if any.
    #[cfg(unix)]
    fn listed(&self, _path: &Path, meta: &std::fs::Metadata) -> Option<&PathBuf> {
        use std::os::unix::fs::MetadataExt;
        let first = self.by_ino.get(&meta.ino())?;
        let Some(more) = self.more_by_ino.get(&meta.ino()) else {
            // One file with this inode: the same file unless on another device.
            let dev = std::fs::metadata(first).ok()?.dev();
            return (dev == meta.dev()).then_some(first);
        };
        std::iter::once(first)
            .chain(more)
            .find(|p| std::fs::metadata(p).is_ok_and(|m| m.dev() == meta.dev()))
    }

    #[cfg(not(unix))]
    fn listed(&self, path: &Path, _meta: &std::fs::Metadata) -> Option<&PathBuf> {
        let real = std::fs::canonicalize(path).ok()?;
        self.by_path.get(&real)
    }

    #[cfg(not(unix))]
    fn first(&mut self, path: &Path, _ino: u64) -> bool {
        let real = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        match self.by_path.entry(real) {
            std::collections::hash_map::Entry::Occupied(_) => false,
            std::collections::hash_map::Entry::Vacant(v) => {
                v.insert(path.to_path_buf());
                true
            }
        }
    }
}

#[cfg(unix)]
fn ino_of(meta: &std::fs::Metadata) -> u64 {
    std::os::unix::fs::MetadataExt::ino(meta)
}

#[cfg(not(unix))]
fn ino_of(_meta: &std::fs::Metadata) -> u64 {
    0
}

#[cfg(unix)]
fn entry_ino(entry: &walkdir::DirEntry) -> u64 {
    // From readdir, or from the target's metadata for a followed link.
    walkdir::DirEntryExt::ino(entry)
}

#[cfg(not(unix))]
fn entry_ino(_entry: &walkdir::DirEntry) -> u64 {
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The text fast path of `normalize` answers as the component walk.
    #[test]
    fn normalize_as_text_equals_the_component_walk() {
        for case in [
            "",
            ".",
            "..",
            "-",
            "./-",
            "/",
            "//",
            "/..",
            "/../a",
            "a/b/../../..",
            "../../a/./b//c/",
            "a/b/../../../../c",
            "./a/../b",
            "/tmp/x/d1/s2/../../d3/s0/t3.yaml",
            "a/<stdin>/b",
            "a/$'x'/b",
            "a/b/./.",
            "../x/../../y",
            "a/..",
            "/a/..",
            "a/../..",
            "/a/b/../c/./../../..",
            "x/../-",
            "../-",
            "ab/../cd/ef/..//g",
        ] {
            assert_eq!(
                normalize(Path::new(case)),
                normalize_components(Path::new(case)),
                "{case}"
            );
        }
    }

    use globset::{Glob, GlobSetBuilder};

    #[cfg(unix)]
    #[test]
    fn odd_names_are_quoted_and_unquoted() {
        use std::os::unix::ffi::OsStrExt;
        let cases: [(&[u8], &str); 10] = [
            (b"plain/name.yaml", "plain/name.yaml"),
            (b"new\nline.yaml", r"$'new\nline.yaml'"),
            (b"d\xff/caf\xc3\xa9.yaml", r"$'d\xff'/café.yaml"),
            (b"a/t\tb'c\\d.yaml", r"a/$'t\tb\'c\\d.yaml'"),
            (b"$'x'.yaml", r"$'$\'x\'.yaml'"),
            (b"esc\x1b.yaml", r"$'esc\x1b.yaml'"),
            // `-` is standard input; a file named `<stdin>` is quoted.
            (b"-", "<stdin>"),
            (b"./-", "./-"),
            (b"<stdin>", "$'<stdin>'"),
            (b"d/<stdin>", "d/$'<stdin>'"),
        ];
        for (bytes, shown) in cases {
            let path = Path::new(std::ffi::OsStr::from_bytes(bytes));
            assert_eq!(display(path), shown);
            assert_eq!(path_of(shown), path, "{shown}");
        }
        assert_eq!(uri_path(r"$'d\xff'/a b.yaml"), "d%FF/a%20b.yaml");
        // Text that is not what quote_name writes is a plain name.
        assert_eq!(path_of(r"$'bad\q'"), Path::new(r"$'bad\q'"));
    }

    #[test]
    fn remap_replaces_whole_leading_components() {
        let r = Remap::new(vec![(
            "/usr/share/openstack-tripleo-heat-templates/".to_owned(),
            ".".to_owned(),
        )]);
        let t = "/usr/share/openstack-tripleo-heat-templates";
        assert_eq!(
            r.apply(&format!("{t}/network/ports/vip.yaml")),
            "./network/ports/vip.yaml"
        );
        assert_eq!(r.apply(t), ".");
        assert_eq!(
            r.apply(&format!("{t}-other/x.yaml")),
            format!("{t}-other/x.yaml")
        );
        assert_eq!(r.apply("relative/x.yaml"), "relative/x.yaml");
        assert_eq!(
            Remap::parse_pair("/a=b"),
            Ok(("/a".to_owned(), "b".to_owned()))
        );
        assert!(Remap::parse_pair("/a").is_err());
        assert!(Remap::parse_pair("=b").is_err());
    }

    #[cfg(unix)]
    #[test]
    fn a_file_reached_by_a_link_is_listed_under_its_own_name() {
        let dir = tempfile::tempdir().unwrap();
        let (tree, outside) = (dir.path().join("tree"), dir.path().join("outside.yaml"));
        std::fs::create_dir(&tree).unwrap();
        std::fs::write(tree.join("overcloud.yaml"), "a: 1\n").unwrap();
        std::fs::write(&outside, "b: 1\n").unwrap();
        // `overcloud-link.yaml` sorts before `overcloud.yaml`.
        std::os::unix::fs::symlink("overcloud.yaml", tree.join("overcloud-link.yaml")).unwrap();
        std::os::unix::fs::symlink(&outside, tree.join("elsewhere.yaml")).unwrap();
        let walked = walk(
            &WalkOptions::new(vec![tree.clone()]).recursive(),
            &crate::vfs::FileOverlay::new(),
        );
        let names: Vec<&str> = walked
            .sources
            .iter()
            .map(|s| s.path.file_name().unwrap().to_str().unwrap())
            .collect();
        assert_eq!(names, ["elsewhere.yaml", "overcloud.yaml"]);
    }

    /// The part below a walked root is what `strip_prefix` gives, however
    /// the root is written.
    #[test]
    fn the_part_below_a_root_is_strip_prefixs() {
        for (root, name) in [
            ("tree", "d0/x.yaml"),
            ("tree/", "x.yaml"),
            ("tree//", "x.yaml"),
            ("./tree", "a/b/x.yaml"),
            (".", "x.yaml"),
            ("a/./b", "x.yaml"),
            ("/abs/tree", "x.yaml"),
            ("/", "x.yaml"),
            ("tree", ""),
        ] {
            let root = Path::new(root);
            let path = if name.is_empty() {
                root.to_path_buf()
            } else {
                root.join(name)
            };
            assert_eq!(
                below(&path, root).as_os_str(),
                path.strip_prefix(root).unwrap().as_os_str(),
                "{root:?} {path:?}"
            );
        }
        assert_eq!(
            below(Path::new("else/x"), Path::new("tree")),
            Path::new("else/x")
        );
    }

    #[test]
    fn normalizes_registry_paths_for_display() {
        assert_eq!(
            normalize(Path::new("environments/../puppet/c.yaml")),
            "puppet/c.yaml"
        );
        assert_eq!(normalize(Path::new("./a/./b.yaml")), "a/b.yaml");
        assert_eq!(normalize(Path::new("../x.yaml")), "../x.yaml");
        assert_eq!(normalize(Path::new("/a/../../x.yaml")), "/x.yaml");
    }

    fn set(globs: &[&str]) -> GlobSet {
        let mut b = GlobSetBuilder::new();
        for g in globs {
            b.add(Glob::new(g).unwrap());
        }
        b.build().unwrap()
    }

    fn opts(roots: Vec<PathBuf>, recursive: bool) -> WalkOptions {
        WalkOptions {
            roots,
            recursive,
            include: set(&["**/*.yaml", "*.yaml"]),
            exclude: set(&[]),
            hidden: false,
            include_base: None,
            exclude_base: None,
        }
    }

    /// The walk tells a file under its own name (one through a linked
    /// directory too) from a link to a file; a `Disk` that learned its
    /// plain files answers for every listed file as the file system does.
    #[cfg(unix)]
    #[test]
    fn plain_files_are_those_not_reached_through_a_link_to_them() {
        let tmp = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(tmp.path()).unwrap();
        std::fs::create_dir_all(root.join("t/real/sub")).unwrap();
        std::fs::write(root.join("t/real/sub/a.yaml"), "a: 1\n").unwrap();
        std::fs::write(root.join("t/b.yaml"), "b: 1\n").unwrap();
        std::os::unix::fs::symlink(root.join("t/real/sub"), root.join("t/linkdir")).unwrap();
        // A link to a file outside the tree is listed as itself (one to a
        // file of the tree is listed under that file's own name).
        std::fs::create_dir_all(root.join("outside")).unwrap();
        std::fs::write(root.join("outside/c.yaml"), "c: 1\n").unwrap();
        std::os::unix::fs::symlink(root.join("outside/c.yaml"), root.join("t/link.yaml")).unwrap();
        let walked = walk(
            &opts(vec![root.join("t")], true),
            &crate::vfs::FileOverlay::default(),
        );
        let entries: Vec<(PathBuf, Entry)> = walked
            .sources
            .iter()
            .map(|s| (s.path.strip_prefix(&root).unwrap().to_path_buf(), s.entry))
            .collect();
        assert_eq!(
            entries,
            [
                (PathBuf::from("t/b.yaml"), Entry::Plain),
                (PathBuf::from("t/link.yaml"), Entry::Linked),
                (PathBuf::from("t/linkdir/a.yaml"), Entry::Plain),
            ]
        );
        let plain: Vec<&Path> = walked.plain_files().collect();
        assert_eq!(
            plain,
            [root.join("t/b.yaml"), root.join("t/linkdir/a.yaml")]
        );
        let mut disk = crate::vfs::Disk::default();
        disk.learn_plain(walked.plain_files());
        for s in &walked.sources {
            assert_eq!(
                disk.canonicalize(&s.path).ok(),
                std::fs::canonicalize(&s.path).ok(),
                "{}",
                s.display
            );
        }
    }

    #[test]
    fn sorted_deduplicated_and_hidden_pruned() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        for f in [
            "b.yaml",
            "a.yaml",
            "sub/c.yaml",
            ".git/x.yaml",
            "notes.txt",
            "t.j2.yaml",
        ] {
            let p = d.join(f);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, "x: 1\n").unwrap();
        }
        let w = walk(
            &opts(vec![d.join("a.yaml"), d.to_path_buf()], true),
            &crate::vfs::FileOverlay::new(),
        );
        let names: Vec<_> = w
            .sources
            .iter()
            .map(|s| {
                s.path
                    .strip_prefix(d)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned()
            })
            .collect();
        assert_eq!(names, ["a.yaml", "b.yaml", "sub/c.yaml", "t.j2.yaml"]);
        assert!(w.sources[0].explicit && !w.sources[1].explicit);
        assert!(w.sources[3].jinja);
        assert!(w.diagnostics.is_empty());
    }

    #[test]
    fn anchored_globs_match_below_their_base() {
        let dir = tempfile::tempdir().unwrap();
        let d = std::fs::canonicalize(dir.path()).unwrap();
        for f in ["sub/a.yaml", "sub/vendor/x.yaml", "vendor/y.yaml"] {
            let p = d.join(f);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, "x: 1\n").unwrap();
        }
        let names = |o: &WalkOptions| -> Vec<String> {
            walk(o, &crate::vfs::FileOverlay::new())
                .sources
                .iter()
                .map(|s| {
                    s.path
                        .strip_prefix(&d)
                        .unwrap()
                        .to_string_lossy()
                        .into_owned()
                })
                .collect()
        };
        let mut o = opts(vec![d.join("sub")], true);
        o.exclude = set(&["sub/vendor/**"]);
        // Below the root, `vendor/x.yaml` does not match `sub/vendor/**`...
        assert_eq!(names(&o), ["sub/a.yaml", "sub/vendor/x.yaml"]);
        // ...below the base it does.
        o.exclude_base = Some(d.clone());
        assert_eq!(names(&o), ["sub/a.yaml"]);
        // Include too; a root outside the base matches below the root.
        let mut o = opts(vec![d.join("sub"), d.join("vendor")], true);
        o.include = set(&["sub/a.yaml", "y.yaml"]);
        o.include_base = Some(d.clone());
        assert_eq!(names(&o), ["sub/a.yaml"]);
        o.include_base = Some(d.join("vendor"));
        assert_eq!(names(&o), ["vendor/y.yaml"]);
    }

    #[test]
    fn directories_need_recursion_and_missing_roots_are_reported() {
        let dir = tempfile::tempdir().unwrap();
        let w = walk(
            &opts(
                vec![dir.path().to_path_buf(), dir.path().join("nope")],
                false,
            ),
            &crate::vfs::FileOverlay::new(),
        );
        assert!(w.sources.is_empty());
        let got: Vec<_> = w.diagnostics.iter().map(|d| d.code.0).collect();
        assert_eq!(got, ["W0016", "E0014"]);
    }

    #[cfg(unix)]
    #[test]
    fn files_reached_twice_are_listed_once() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        std::fs::create_dir(d.join("sub")).unwrap();
        std::fs::write(d.join("sub/a.yaml"), "x: 1\n").unwrap();
        std::os::unix::fs::symlink(d.join("sub/a.yaml"), d.join("link.yaml")).unwrap();
        std::os::unix::fs::symlink(d.join("sub"), d.join("sublink")).unwrap();
        // The tree, an overlapping root, and the file itself.
        let w = walk(
            &opts(
                vec![d.to_path_buf(), d.join("sub"), d.join("sub/a.yaml")],
                true,
            ),
            &crate::vfs::FileOverlay::new(),
        );
        let names: Vec<_> = w
            .sources
            .iter()
            .map(|s| {
                s.path
                    .strip_prefix(d)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned()
            })
            .collect();
        assert_eq!(names, ["sub/a.yaml"], "its own name wins over a link");
    }

    #[cfg(unix)]
    #[test]
    fn symlink_loops_are_reported_not_followed() {
        let dir = tempfile::tempdir().unwrap();
        let sub = dir.path().join("sub");
        std::fs::create_dir(&sub).unwrap();
        std::fs::write(sub.join("a.yaml"), "x: 1\n").unwrap();
        std::os::unix::fs::symlink(dir.path(), sub.join("loop")).unwrap();
        let w = walk(
            &opts(vec![dir.path().to_path_buf()], true),
            &crate::vfs::FileOverlay::new(),
        );
        assert_eq!(w.sources.len(), 1);
        assert_eq!(w.diagnostics.len(), 1);
        assert_eq!(w.diagnostics[0].code, codes::SYMLINK_LOOP);
    }
}
