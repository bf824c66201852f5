//! Stage 2: read and parse files as Heat does, in parallel.
//!
//! Every problem is a [`Diagnostic`] on the file's [`Loaded`] record; no file
//! stops the run. Limits keep hostile input cheap: the size is checked
//! before reading, nesting depth and alias expansion while building.

pub(crate) mod classify;
pub(crate) mod plan;
mod pyyaml;
pub(crate) mod suppress;
pub(crate) mod tree;
mod yaml;

use std::collections::HashMap;
use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};

use rayon::prelude::*;
use serde::Serialize;

use crate::diag::{codes, Diagnostic, Span};
use crate::node::Node;
use crate::walk::Source;
pub use classify::FileKind;
use tree::{Dialect, Fatal, TreeLimits};

/// Heat's default `max_template_size`, in characters.
pub const DEFAULT_MAX_SIZE: usize = 524_288;
/// Deeper documents are refused (PyYAML fails near Python's recursion limit).
pub(crate) const MAX_DEPTH: usize = 256;
/// Nodes that aliases may add to one document.
pub(crate) const MAX_ALIAS_NODES: usize = 100_000;

/// Options for turning text into a tree.
#[derive(Debug, Clone, Copy)]
pub struct ParseOptions {
    /// Deepest nesting accepted.
    pub max_depth: usize,
    /// Nodes aliases may add to one document.
    pub max_alias_nodes: usize,
}

impl Default for ParseOptions {
    fn default() -> Self {
        ParseOptions {
            max_depth: MAX_DEPTH,
            max_alias_nodes: MAX_ALIAS_NODES,
        }
    }
}

/// Options for loading files.
#[derive(Debug, Clone)]
pub struct LoadOptions {
    /// Largest file accepted, in characters (Heat counts characters).
    pub max_size: usize,
    /// How text becomes a tree.
    pub parse: ParseOptions,
    /// Skip (without parsing) files whose bytes contain none of these
    /// words (empty: parse every file).
    pub prefilter: Vec<&'static str>,
    /// Path prefixes read from elsewhere (`--templates-root`).
    pub remap: crate::walk::Remap,
    /// The bytes the path `-` stands for: the command line's standard
    /// input, read once. Without them, reading `-` is a read error (E0001).
    pub stdin: Option<&'static [u8]>,
    /// Files given in memory (a request's `files`): when set, every path
    /// is read from them and nothing from disk.
    pub memory: Option<crate::walk::MemoryFiles>,
    /// When set, only files whose real path (links resolved) lies under
    /// one of these directories are read; any other is refused (E0001),
    /// so nothing a file names can make heatcap read elsewhere.
    pub confine: Option<std::sync::Arc<[PathBuf]>>,
    /// Files already parsed, kept across workspaces (`heatcap serve`):
    /// a file on disk is read and parsed again only when its size or
    /// modification time changed.
    pub cache: Option<LoadCache>,
    /// The data TripleO trees' Jinja sources are rendered with.
    pub render: RenderOptions,
    /// Files read instead of the disk's at their paths, over the disk:
    /// the TripleO trees' rendered outputs (a workspace renders into its
    /// own copy when it opens), an editor's unsaved buffers. Empty by
    /// default: every path is the disk's.
    pub overlay: crate::vfs::FileOverlay,
}

/// Where a TripleO tree's rendering data comes from (`--roles-data`,
/// `--network-data`); `None` is the tree's script's default, relative to
/// the tree.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RenderOptions {
    /// The roles file.
    pub roles_data: Option<std::path::PathBuf>,
    /// The network data file.
    pub network_data: Option<std::path::PathBuf>,
}

impl RenderOptions {
    /// Whether either file was given (`--roles-data`, `--network-data`):
    /// heatcap then answers for its render with them, even where a tree's
    /// rendered files on disk differ.
    pub(crate) fn explicit(&self) -> bool {
        self.roles_data.is_some() || self.network_data.is_some()
    }
}

/// What identifies a file's content without reading it: its length,
/// modification time and inode.
pub(crate) type Stamp = (u64, Option<std::time::SystemTime>, u64);

/// (path, how it is shown, prefilter, index view only) → the stamp it
/// was read at, and what was loaded.
type CacheMap = HashMap<(PathBuf, String, Vec<&'static str>, bool), (Stamp, Loaded)>;

/// A TripleO tree rendered: the stamps of every file and directory it was
/// rendered from, the outputs (an overlay of their own) and what rendering
/// found.
type RenderedEntry = (
    Vec<(PathBuf, Option<Stamp>)>,
    crate::vfs::FileOverlay,
    Vec<Diagnostic>,
);

/// (real path of the tree, the data it is rendered with) → its rendering.
type RenderedMap = HashMap<(PathBuf, String), RenderedEntry>;

/// Loaded files by (path, how it is shown, prefilter), with the stamp
/// they were read at, and rendered TripleO trees with the stamps of their
/// inputs. Shared by clones; a clone made by [`LoadCache::tracking`] also
/// notes every file it is asked for.
#[derive(Debug, Clone, Default)]
pub struct LoadCache {
    files: std::sync::Arc<std::sync::Mutex<CacheMap>>,
    rendered: std::sync::Arc<std::sync::Mutex<RenderedMap>>,
    touched: Option<Touched>,
}

/// The files one computation asked for (read, or found missing), each
/// with its stamp then: an answer computed from them is still the answer
/// while [`Touched::unchanged`] holds.
#[derive(Debug, Clone, Default)]
pub struct Touched(std::sync::Arc<std::sync::Mutex<Noted>>);

/// Each file asked for, with its stamp then (`None`: missing).
type Noted = Vec<(PathBuf, Option<Stamp>)>;

impl Touched {
    /// True when every file noted has the stamp it had (a missing one is
    /// still missing).
    pub fn unchanged(&self) -> bool {
        let noted = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone();
        noted.iter().all(|(p, then)| stamp(p) == *then)
    }

    /// How many files were noted.
    pub fn len(&self) -> usize {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .len()
    }

    /// Whether none was.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl LoadCache {
    /// How many files it holds.
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The same cache, noting the files asked for through it.
    pub fn tracking(&self) -> (LoadCache, Touched) {
        let touched = Touched::default();
        (
            LoadCache {
                files: self.files.clone(),
                rendered: self.rendered.clone(),
                touched: Some(touched.clone()),
            },
            touched,
        )
    }

    /// The rendering of the tree `key` names, kept while none of `inputs`
    /// (every file and directory it is rendered from) changed, else made
    /// by `render` and kept. Every input is noted as read.
    pub(crate) fn rendered(
        &self,
        key: (PathBuf, String),
        inputs: &[PathBuf],
        render: impl FnOnce() -> (crate::vfs::FileOverlay, Vec<Diagnostic>),
    ) -> (crate::vfs::FileOverlay, Vec<Diagnostic>) {
        let now: Vec<(PathBuf, Option<Stamp>)> =
            inputs.iter().map(|p| (p.clone(), self.note(p))).collect();
        let lock = || {
            self.rendered
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
        };
        if let Some((then, overlay, found)) = lock().get(&key) {
            if *then == now {
                return (overlay.clone(), found.clone());
            }
        }
        // Rendered without the lock: another request may render the same
        // tree meanwhile; either result is the tree as it is.
        let (overlay, found) = render();
        lock().insert(key, (now, overlay.clone(), found.clone()));
        (overlay, found)
    }

    /// Notes that the file at `path` was asked for, as it is now.
    pub(crate) fn note(&self, path: &Path) -> Option<Stamp> {
        let now = stamp(path);
        if let Some(t) = &self.touched {
            t.0.lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .push((path.to_path_buf(), now));
        }
        now
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, CacheMap> {
        self.files
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

fn stamp(path: &Path) -> Option<Stamp> {
    let m = std::fs::metadata(path).ok()?;
    #[cfg(unix)]
    let inode = std::os::unix::fs::MetadataExt::ino(&m);
    #[cfg(not(unix))]
    let inode = 0;
    Some((m.len(), m.modified().ok(), inode))
}

impl LoadOptions {
    /// Whether TripleO trees are rendered and mounted in the overlay
    /// before reading ([`crate::vfs`]). Not for files given in memory
    /// (nothing is read from disk). Under confinement (`heatcap serve`)
    /// only trees inside the allowed directories are looked for and
    /// rendered; with a cache, a tree is rendered again when one of its
    /// files or directories changed.
    pub(crate) fn renders(&self) -> bool {
        self.memory.is_none()
    }
}

impl Default for LoadOptions {
    fn default() -> Self {
        LoadOptions {
            max_size: DEFAULT_MAX_SIZE,
            parse: ParseOptions::default(),
            prefilter: Vec::new(),
            remap: crate::walk::Remap::default(),
            stdin: None,
            render: RenderOptions::default(),
            memory: None,
            confine: None,
            cache: None,
            overlay: crate::vfs::FileOverlay::default(),
        }
    }
}

/// What became of a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum Status {
    /// Loaded and classified (it may still carry warnings).
    Ok,
    /// Not parsed (Jinja source, or no chance of matching the query).
    Skipped,
    /// Could not be read or parsed; see its diagnostics.
    Error,
}

/// One loaded file.
#[derive(Debug, Clone)]
pub struct Loaded {
    pub source: Source,
    pub status: Status,
    /// Set when the file parsed.
    pub kind: Option<FileKind>,
    /// Why a file is `Other` or `Skipped`.
    pub reason: Option<&'static str>,
    pub root: Option<Node>,
    pub diagnostics: Vec<Diagnostic>,
    /// Bytes read (for throughput figures).
    pub bytes: u64,
    /// Its `# heatcap:` suppression comments (`validate` applies them).
    pub(crate) directives: Vec<suppress::Directive>,
}

/// The result of parsing one text.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Parsed {
    /// The document, when it parses.
    pub root: Option<Node>,
    /// Every problem found, with positions.
    pub diagnostics: Vec<Diagnostic>,
}

/// Loads every source in parallel; the result keeps the sources' order.
/// `f` runs on each loaded file in the worker, so a caller that keeps only
/// an extract of each file never holds all the trees at once.
pub(crate) fn load_all<T, F>(sources: &[Source], opts: &LoadOptions, f: F) -> Vec<T>
where
    T: Send,
    F: Fn(Loaded) -> T + Sync,
{
    sources
        .par_iter()
        .with_max_len(LOAD_BATCH)
        .map(|s| f(load_one(s, opts)))
        .collect()
}

/// Walks `walk` and loads every file it lists, in the walk's order, as
/// [`load_all`] does (with `index_only`, as [`load_all_for_index`]): each
/// file the walk finds on disk is read while the walk goes on, a few at a
/// time, by the other workers (on 2 threads, the walk alone was a
/// twentieth of `index`'s time, with a core idle). A file read so and then
/// left out of the list (a second name for a file) is dropped; a file
/// listed without being found so (a root named as a file, a file mounted
/// in the overlay) is read after the walk.
pub(crate) fn walk_and_load<T, F>(
    walk: &crate::walk::WalkOptions,
    opts: &LoadOptions,
    index_only: bool,
    f: F,
) -> (crate::walk::Walked, Vec<T>)
where
    T: Send,
    F: Fn(Loaded) -> T + Sync,
{
    // Batch k holds the files numbered from k * LOAD_BATCH on.
    let batches: std::sync::Mutex<Vec<(usize, Vec<Option<T>>)>> = std::sync::Mutex::new(Vec::new());
    let mut walked = rayon::scope(|scope| {
        let (batches, f) = (&batches, &f);
        let send = |k: usize, batch: Vec<Source>| {
            scope.spawn(move |_| {
                let done: Vec<Option<T>> = batch
                    .iter()
                    .map(|s| Some(f(load_one_as(s, opts, index_only))))
                    .collect();
                drop(batch);
                batches
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .push((k, done));
            });
        };
        let (mut batch, mut k) = (Vec::with_capacity(LOAD_BATCH), 0);
        let walked = crate::walk::walk_streaming(walk, &opts.overlay, &mut |n, s| {
            debug_assert_eq!(n, k * LOAD_BATCH + batch.len());
            batch.push(s.clone());
            if batch.len() == LOAD_BATCH {
                send(
                    k,
                    std::mem::replace(&mut batch, Vec::with_capacity(LOAD_BATCH)),
                );
                k += 1;
            }
        });
        if !batch.is_empty() {
            send(k, batch);
        }
        walked
    });
    let mut batches = batches
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    batches.sort_unstable_by_key(|(k, _)| *k);
    let mut slots: Vec<Vec<Option<T>>> = Vec::new();
    for (k, done) in batches {
        slots.resize_with(k, Vec::new);
        slots.push(done);
    }
    // Each listed file's early result, by the number it was found under.
    let mut loaded: Vec<Option<T>> = std::mem::take(&mut walked.streamed)
        .into_iter()
        .map(|n| {
            let n = n?;
            slots
                .get_mut(n / LOAD_BATCH)?
                .get_mut(n % LOAD_BATCH)?
                .take()
        })
        .collect();
    // Files listed without being read so: read now.
    let missing: Vec<usize> = (0..loaded.len()).filter(|&i| loaded[i].is_none()).collect();
    let read: Vec<T> = missing
        .par_iter()
        .with_max_len(LOAD_BATCH)
        .map(|&i| f(load_one_as(&walked.sources[i], opts, index_only)))
        .collect();
    for (i, t) in missing.into_iter().zip(read) {
        loaded[i] = Some(t);
    }
    // At its size: `flatten` cannot tell it, and growing the vector
    // copied every record again, on the main thread.
    let mut records = Vec::with_capacity(loaded.len());
    records.extend(loaded.into_iter().flatten());
    (walked, records)
}

/// The most files one worker loads without offering the rest to the
/// others. Rayon splits a slice only a few times unless a piece is
/// stolen, so the last piece of a large tree (thousands of files) was left
/// to one worker while the others waited: on 2 threads, a twentieth of
/// `index`'s time.
const LOAD_BATCH: usize = 8;

/// [`load_all`] for the index's view of each file
/// ([`crate::model::FileRecord::from_loaded_slim`]): each tree holds only
/// what that view reads (see [`TreeLimits::index_only`]).
pub(crate) fn load_all_for_index<T, F>(sources: &[Source], opts: &LoadOptions, f: F) -> Vec<T>
where
    T: Send,
    F: Fn(Loaded) -> T + Sync,
{
    sources
        .par_iter()
        .with_max_len(LOAD_BATCH)
        .map(|s| f(load_one_as(s, opts, true)))
        .collect()
}

/// The outputs of a rendered source, shown beside it (`a.yaml, b.yaml`;
/// the first few and a count).
fn rendered_names(source: &Source, outputs: &[std::path::PathBuf]) -> String {
    let dir = std::path::Path::new(&source.display)
        .parent()
        .map(crate::walk::display)
        .unwrap_or_default();
    let names: Vec<String> = outputs
        .iter()
        .filter_map(|o| o.file_name())
        .map(|n| {
            let n = n.to_string_lossy();
            if dir.is_empty() {
                n.into_owned()
            } else {
                format!("{dir}/{n}")
            }
        })
        .collect();
    match names.len() {
        0 => "nothing (every output failed or is excluded)".to_owned(),
        1..=3 => names.join(", "),
        n => format!("{}, ... ({n} files)", names[..3].join(", ")),
    }
}

/// Reads, parses and classifies one file (from the cache when it has the
/// file as it is now on disk).
pub(crate) fn load_one(source: &Source, opts: &LoadOptions) -> Loaded {
    load_one_as(source, opts, false)
}

/// [`load_one`]; with `index_only`, the tree holds only what the index's
/// view reads (kept apart from whole trees in the cache).
fn load_one_as(source: &Source, opts: &LoadOptions, index_only: bool) -> Loaded {
    let Some(cache) = &opts.cache else {
        return load_fresh(source, opts, index_only);
    };
    // A rendered file has no disk stamp to check the cache against.
    let cacheable = opts.memory.is_none()
        && !crate::walk::is_stdin(&source.path)
        && opts.overlay.get(&source.path).is_none();
    if !cacheable {
        return load_fresh(source, opts, index_only);
    }
    let Some(now) = cache.note(&source.path) else {
        return load_fresh(source, opts, index_only);
    };
    let key = (
        source.path.clone(),
        source.display.clone(),
        opts.prefilter.clone(),
        index_only,
    );
    if let Some((then, loaded)) = cache.lock().get(&key) {
        if *then == now && loaded.source == *source {
            return loaded.clone();
        }
    }
    let loaded = load_fresh(source, opts, index_only);
    cache.lock().insert(key, (now, loaded.clone()));
    loaded
}

/// A Jinja source (`*.j2.yaml`): skipped, saying what became of it.
fn jinja_source(mut loaded: Loaded, source: &Source, overlay: &crate::vfs::FileOverlay) -> Loaded {
    let file = source.display.as_str();
    loaded.status = Status::Skipped;
    loaded.reason = Some("a Jinja source, rendered before Heat sees it");
    let rendered = overlay.outputs_of(&source.path);
    // A tree rendered on disk with other data is read from disk
    // (`crate::workspace` mounts only the outputs the disk agrees with).
    let on_disk = rendered
        .as_ref()
        .is_some_and(|outs| outs.iter().any(|o| overlay.get(o).is_none()));
    loaded.diagnostics.push(match (rendered, source.explicit) {
        (Some(outputs), true) if on_disk => Diagnostic::new(
            codes::JINJA_SOURCE,
            file,
            format!(
                "a Jinja source, which Heat cannot read; the tree is rendered on disk: give the rendered file instead ({})",
                rendered_names(source, &outputs)
            ),
        ),
        (Some(outputs), false) if on_disk => {
            loaded.reason = Some("a Jinja source, rendered on disk: its outputs there are read instead");
            Diagnostic::new(
                codes::JINJA_SKIPPED,
                file,
                format!("jinja template source rendered on disk into {}: the files on disk are read", rendered_names(source, &outputs)),
            )
        }
        (Some(outputs), true) => Diagnostic::new(
            codes::JINJA_SOURCE,
            file,
            format!(
                "a Jinja source, which Heat cannot read; heatcap rendered it: give the rendered file instead ({})",
                rendered_names(source, &outputs)
            ),
        ),
        (Some(outputs), false) => {
            loaded.reason = Some("a Jinja source, rendered in memory: its outputs are read instead");
            Diagnostic::new(
                codes::JINJA_SKIPPED,
                file,
                format!("jinja template source rendered in memory into {}", rendered_names(source, &outputs)),
            )
        }
        // Named explicitly, the user meant Heat to read it: that fails.
        (None, true) => Diagnostic::new(
            codes::JINJA_SOURCE,
            file,
            "a Jinja source, which Heat cannot read, in a tree heatcap cannot render (no roles file: give --roles-data): render the tree first (TripleO: tools/process-templates.py) and use the rendered file",
        ),
        (None, false) => Diagnostic::new(
            codes::JINJA_SKIPPED,
            file,
            "jinja template source skipped; run heatcap on the rendered output",
        ),
    });
    loaded
}

/// Reads, parses and classifies one file.
fn load_fresh(source: &Source, opts: &LoadOptions, index_only: bool) -> Loaded {
    let mut loaded = Loaded {
        source: source.clone(),
        status: Status::Error,
        kind: None,
        reason: None,
        root: None,
        diagnostics: Vec::new(),
        bytes: 0,
        directives: Vec::new(),
    };
    if source.jinja {
        return jinja_source(loaded, source, &opts.overlay);
    }
    let file = source.display.as_str();
    if let Some((plan_path, part)) = plan_part(&source.path, &opts.overlay) {
        return load_plan_part(loaded, plan_path, part, opts);
    }
    let read = if let Some(memory) = &opts.memory {
        memory_bytes(source, memory, opts.max_size).map(Got::Bytes)
    } else if crate::walk::is_stdin(&source.path) {
        stdin_bytes(source, opts).map(Got::Bytes)
    } else if let Some(problem) = outside(&source.path, opts.confine.as_deref(), &opts.overlay) {
        Err(Box::new(Diagnostic::new(codes::READ_ERROR, file, problem)))
    } else if let Some(v) = opts.overlay.get(&source.path) {
        // A file mounted in the overlay is parsed where it is held: a
        // lookup, not a copy.
        Ok(Got::Mounted(v.text.clone()))
    } else if let Some(e) = opts.overlay.missing_in_tree(&source.path) {
        // A file a git revision's tree lacks is missing, whatever the
        // disk has.
        Err(read_error(source, &e))
    } else {
        read_disk(source, opts.max_size).map(Got::Bytes)
    };
    let read = match read {
        Ok(r) => r,
        Err(d) => {
            loaded.diagnostics.push(*d);
            return loaded;
        }
    };
    let bytes = match &read {
        Got::Bytes(b) => b.as_slice(),
        Got::Mounted(t) => t.as_bytes(),
    };
    loaded.bytes = bytes.len() as u64;
    if !opts.prefilter.is_empty()
        && !opts
            .prefilter
            .iter()
            .any(|w| memchr::memmem::find(bytes, w.as_bytes()).is_some())
    {
        loaded.status = Status::Skipped;
        loaded.reason =
            Some("none of the words the query needs is in the text, so it cannot match");
        return loaded;
    }
    let text = match read {
        Got::Mounted(t) if !t.starts_with('\u{feff}') => Text::Mounted(t),
        Got::Mounted(t) => Text::Owned(t[3..].to_owned()),
        Got::Bytes(bytes) => match decode(bytes, file) {
            Ok(t) => Text::Owned(t),
            Err(d) => {
                loaded.diagnostics.push(*d);
                return loaded;
            }
        },
    };
    // Characters are at most bytes: count them only when it can matter.
    if text.len() > opts.max_size && text.chars().count() > opts.max_size {
        loaded
            .diagnostics
            .push(too_large(file, text.chars().count(), opts.max_size));
        return loaded;
    }
    // Suppression comments are placed by the whole tree (a `#` inside a
    // string is not one): a file that may have them is built whole.
    let marked = suppress::has_mark(&text);
    let parsed = parse_text_as(&text, file, &opts.parse, index_only && !marked);
    loaded.diagnostics = parsed.diagnostics;
    opts.overlay.name_origins(&mut loaded.diagnostics);
    if marked {
        loaded.directives = suppress::scan(&text, parsed.root.as_ref());
    }
    if let Some(root) = parsed.root {
        let (kind, reason) = classify::classify(&root);
        loaded.status = Status::Ok;
        loaded.kind = Some(kind);
        loaded.reason = reason;
        loaded.root = Some(root);
    }
    loaded
}

/// What a file's read gave: bytes from the disk (or memory, or standard
/// input), or the text of a file mounted in the overlay.
enum Got {
    Bytes(Vec<u8>),
    Mounted(std::sync::Arc<str>),
}

/// A file's text: decoded from its bytes, or a mounted file's, shared.
enum Text {
    Owned(String),
    Mounted(std::sync::Arc<str>),
}

impl std::ops::Deref for Text {
    type Target = str;
    fn deref(&self) -> &str {
        match self {
            Text::Owned(s) => s,
            Text::Mounted(s) => s,
        }
    }
}

/// A path naming a part of a plan (`PLAN#parameter_defaults`), when no
/// file has that name.
fn plan_part<'p>(
    path: &'p std::path::Path,
    overlay: &crate::vfs::FileOverlay,
) -> Option<(&'p str, &'p str)> {
    let found = plan::split_part(path)?;
    (!overlay.exists(path)).then_some(found)
}

/// Loads a part of a plan ([`plan`]): the plan file is read and parsed
/// (its problems are the part's, at their places in the plan), and the
/// part is the environment document built from it.
fn load_plan_part(mut loaded: Loaded, plan_path: &str, part: &str, opts: &LoadOptions) -> Loaded {
    let plan_source = Source::new(crate::walk::path_of(plan_path), plan_path.to_owned(), true);
    let bytes = match read_limited(&plan_source, opts.max_size, &opts.overlay) {
        Ok(b) => b,
        Err(d) => {
            loaded.diagnostics.push(*d);
            return loaded;
        }
    };
    loaded.bytes = bytes.len() as u64;
    let text = match decode(bytes, plan_path) {
        Ok(t) => t,
        Err(d) => {
            loaded.diagnostics.push(*d);
            return loaded;
        }
    };
    let parsed = parse_text(&text, plan_path, &opts.parse);
    loaded.diagnostics = parsed.diagnostics;
    let Some(root) = parsed.root else {
        return loaded;
    };
    // The problems building the part are the plan's own, reported once
    // with it (`--plan`); the part is what tripleo-common went on with.
    let (doc, _) = plan::part(plan_path, &root, part);
    let Some(doc) = doc else {
        loaded.diagnostics.push(Diagnostic::new(
            codes::PLAN_INVALID,
            loaded.source.display.clone(),
            format!("`{plan_path}` has no `{part}` environment"),
        ));
        return loaded;
    };
    let (kind, reason) = classify::classify(&doc);
    loaded.status = Status::Ok;
    loaded.kind = Some(kind);
    loaded.reason = reason;
    loaded.root = Some(doc);
    loaded
}

/// Why `path` may not be read under `confine` (outside every allowed
/// directory once links are resolved), or `None` when it may.
pub(crate) fn outside(
    path: &Path,
    confine: Option<&[PathBuf]>,
    overlay: &crate::vfs::FileOverlay,
) -> Option<String> {
    let allowed = confine?;
    // Through the overlay: a rendered file's real path is its real
    // directory joined with its name.
    match overlay.canonicalize(path) {
        Ok(real) if allowed.iter().any(|d| real.starts_with(d)) => None,
        // A missing file is reported as missing by the read itself,
        // unless its directory already leads elsewhere.
        Err(_)
            if path
                .parent()
                .and_then(|d| {
                    std::fs::canonicalize(if d.as_os_str().is_empty() {
                        Path::new(".")
                    } else {
                        d
                    })
                    .ok()
                })
                .is_none_or(|d| allowed.iter().any(|a| d.starts_with(a))) =>
        {
            None
        }
        _ => Some("outside the directories heatcap serves: not read".to_owned()),
    }
}

fn read_limited(
    source: &Source,
    max_chars: usize,
    overlay: &crate::vfs::FileOverlay,
) -> Result<Vec<u8>, Box<Diagnostic>> {
    if let Some(v) = overlay.get(&source.path) {
        return Ok(v.text.as_bytes().to_vec());
    }
    // A file a git revision's tree lacks is missing, whatever the disk has.
    if let Some(e) = overlay.missing_in_tree(&source.path) {
        return Err(read_error(source, &e));
    }
    read_disk(source, max_chars)
}

/// The diagnostic of a failed read of `source`.
fn read_error(source: &Source, e: &std::io::Error) -> Box<Diagnostic> {
    let code = match e.kind() {
        std::io::ErrorKind::NotFound => codes::NOT_FOUND,
        // A file of a revision's tree left unread for its size.
        std::io::ErrorKind::FileTooLarge => codes::TOO_LARGE,
        _ => codes::READ_ERROR,
    };
    Box::new(Diagnostic::new(
        code,
        source.display.as_str(),
        crate::walk::path_io_message(&source.path, e),
    ))
}

/// `source` opened for reading, or `None` when it is not a regular file.
/// Never opens what is not one: a FIFO blocks in `open()`, a device may do
/// anything. A file the directory walk found regular is opened without a
/// `stat` first (its directory entry said what it is), with `O_NONBLOCK`
/// so that a FIFO put there since cannot block (the caller's `fstat`
/// refuses it); any other path is `stat`ed first.
fn open_regular(source: &Source) -> std::io::Result<Option<File>> {
    #[cfg(unix)]
    if source.entry != crate::walk::Entry::Unseen {
        use std::os::unix::fs::OpenOptionsExt;
        return std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NONBLOCK)
            .open(&source.path)
            .map(Some);
    }
    if !std::fs::metadata(&source.path)?.is_file() {
        return Ok(None);
    }
    File::open(&source.path).map(Some)
}

/// [`read_limited`] from the disk.
fn read_disk(source: &Source, max_chars: usize) -> Result<Vec<u8>, Box<Diagnostic>> {
    let file = source.display.as_str();
    let err = |e: &std::io::Error| read_error(source, e);
    let f = open_regular(source).map_err(|e| err(&e))?;
    let Some(f) = f else {
        return Err(Box::new(crate::walk::not_regular(file.to_owned())));
    };
    let meta = f.metadata().map_err(|e| err(&e))?;
    if !meta.is_file() {
        return Err(Box::new(crate::walk::not_regular(file.to_owned())));
    }
    let len = meta.len();
    // A character is at most 4 bytes: beyond that, it cannot fit.
    let ceiling = (max_chars as u64).saturating_mul(4);
    if len > ceiling {
        return Err(Box::new(Diagnostic::new(
            codes::TOO_LARGE,
            file,
            format!("the file is {len} bytes, so more than {max_chars} characters (a character is at most 4 bytes), the limit"),
        )));
    }
    let mut buf = Vec::with_capacity(usize::try_from(len).unwrap_or(0));
    f.take(ceiling + 1)
        .read_to_end(&mut buf)
        .map_err(|e| err(&e))?;
    Ok(buf)
}

/// A file given in memory, within the size limit; missing is not found.
fn memory_bytes(
    source: &Source,
    memory: &crate::walk::MemoryFiles,
    max_chars: usize,
) -> Result<Vec<u8>, Box<Diagnostic>> {
    let file = source.display.as_str();
    let Some(bytes) = memory.get(&source.path) else {
        return Err(Box::new(Diagnostic::new(
            codes::NOT_FOUND,
            file,
            "not among the files given with the request",
        )));
    };
    let ceiling = (max_chars as u64).saturating_mul(4);
    if bytes.len() as u64 > ceiling {
        return Err(Box::new(Diagnostic::new(
            codes::TOO_LARGE,
            file,
            format!("the file is {} bytes, so more than {max_chars} characters (a character is at most 4 bytes), the limit", bytes.len()),
        )));
    }
    Ok(bytes.to_vec())
}

/// Standard input's bytes, within the size limit.
fn stdin_bytes(source: &Source, opts: &LoadOptions) -> Result<Vec<u8>, Box<Diagnostic>> {
    let file = source.display.as_str();
    let Some(bytes) = opts.stdin else {
        return Err(Box::new(Diagnostic::new(
            codes::READ_ERROR,
            file,
            "standard input was not read (heatcap reads it where a command is given `-`)",
        )));
    };
    let ceiling = (opts.max_size as u64).saturating_mul(4);
    if bytes.len() as u64 > ceiling {
        return Err(Box::new(Diagnostic::new(
            codes::TOO_LARGE,
            file,
            format!("standard input holds more than {ceiling} bytes, so more than {} characters (a character is at most 4 bytes), the limit", opts.max_size),
        )));
    }
    Ok(bytes.to_vec())
}

fn too_large(file: &str, chars: usize, max: usize) -> Diagnostic {
    Diagnostic::new(
        codes::TOO_LARGE,
        file,
        format!("template size ({chars} characters) exceeds the maximum allowed size ({max} characters)"),
    )
}

/// UTF-8 text (a UTF-8 byte order mark is dropped), or where it is not.
fn decode(bytes: Vec<u8>, file: &str) -> Result<String, Box<Diagnostic>> {
    match String::from_utf8(bytes) {
        Ok(mut s) => {
            if s.starts_with('\u{feff}') {
                s.drain(..3);
            }
            Ok(s)
        }
        Err(e) => {
            let bytes = e.as_bytes();
            let at = e.utf8_error().valid_up_to();
            let before = String::from_utf8_lossy(&bytes[..at]);
            let line = before.matches('\n').count() + 1;
            let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
            Err(Box::new(
                Diagnostic::new(
                    codes::NOT_UTF8,
                    file,
                    format!("the file is not UTF-8 text (byte 0x{:02x})", bytes[at]),
                )
                .at(Span::point(line as u32, col as u32)),
            ))
        }
    }
}

/// Parses one text the way Heat's client does: JSON when the first
/// non-blank character is `{` (falling back to YAML as Heat's server does),
/// YAML 1.1 otherwise, in Heat's two stages: libyaml, and where libyaml
/// refuses, PyYAML's pure-Python SafeLoader (`src/load/pyyaml.rs`, with W0009).
pub fn parse_text(text: &str, file: &str, opts: &ParseOptions) -> Parsed {
    parse_text_as(text, file, opts, false)
}

/// [`parse_text`]; with `index_only`, the values the index's view never
/// reads are dropped as they are built (see [`TreeLimits::index_only`]).
pub(crate) fn parse_text_as(
    text: &str,
    file: &str,
    opts: &ParseOptions,
    index_only: bool,
) -> Parsed {
    let limits = TreeLimits {
        max_depth: opts.max_depth,
        max_alias_nodes: opts.max_alias_nodes,
        index_only,
    };
    let mut diagnostics = Vec::new();
    if let Some(span) = flow_depth_over(text, opts.max_depth) {
        let message = format!("the document nests deeper than {} levels", opts.max_depth);
        diagnostics.push(Diagnostic::new(codes::TOO_DEEP, file, message).at(span));
        return Parsed {
            root: None,
            diagnostics,
        };
    }
    let json_like = text.trim_start().starts_with('{');
    let mut json_error = None;
    if json_like {
        if let Err(e) = json_check(text) {
            json_error = Some(e);
        } else {
            let built = tree::build(
                yaml::events(text),
                Dialect::Json,
                limits,
                file,
                &mut diagnostics,
            );
            if let Ok(root) = built {
                return Parsed {
                    root: Some(root),
                    diagnostics,
                };
            }
            // Valid JSON that libyaml refuses (rare): no positions.
            diagnostics.clear();
            return Parsed {
                root: json_fallback(text),
                diagnostics,
            };
        }
    }
    let first = tree::build(
        yaml::events(text),
        Dialect::Yaml11,
        limits,
        file,
        &mut diagnostics,
    );
    let refused = match first {
        Ok(root) => {
            return Parsed {
                root: Some(root),
                diagnostics,
            }
        }
        Err(fatal) => fatal,
    };
    // Heat's and python-heatclient's second stage: any `YAMLError` from
    // the C loader, and they load again with PyYAML's pure-Python
    // `SafeLoader` (heatcap's own bounds are not YAML errors).
    let second = if matches!(refused.code, codes::TOO_DEEP | codes::ALIAS_EXPANSION) {
        Err(refused.clone())
    } else {
        diagnostics.clear();
        tree::build(
            pyyaml::events(text),
            Dialect::Yaml11Fallback,
            limits,
            file,
            &mut diagnostics,
        )
    };
    match second {
        Ok(root) => {
            let mut d = Diagnostic::new(
                codes::FALLBACK_YAML,
                file,
                format!(
                    "libyaml refuses this file ({}): Heat reads it only by retrying with PyYAML's pure-Python SafeLoader, and tools that read YAML with libyaml refuse it",
                    refused.message
                ),
            );
            if let Some(span) = refused.span {
                d = d.at(span);
            }
            diagnostics.insert(0, d);
            Parsed {
                root: Some(root),
                diagnostics,
            }
        }
        Err(fatal) => {
            let fatal = json_error.unwrap_or(fatal);
            let mut d = Diagnostic::new(fatal.code, file, fatal.message);
            if let Some(span) = fatal.span {
                d = d.at(span);
            }
            diagnostics.push(d);
            Parsed {
                root: None,
                diagnostics,
            }
        }
    }
}

/// Where flow brackets (`[`, `{`) first nest deeper than `max`, outside
/// quotes and comments. libyaml's scanner is quadratic in flow depth (it
/// re-checks every open level per token), so deep nesting is refused before
/// it reaches the parser. Block nesting needs indentation, which the size
/// limit bounds.
fn flow_depth_over(text: &str, max: usize) -> Option<Span> {
    #[derive(PartialEq)]
    enum State {
        Plain,
        Single,
        Double,
        Comment,
    }
    // The number of opening brackets bounds the depth: found with memchr,
    // it settles most files.
    memchr::memchr2_iter(b'[', b'{', text.as_bytes()).nth(max)?;
    // The running depth ignoring quotes is a closer upper bound: usually
    // it settles the rest in one more pass.
    let mut upper = 0usize;
    let mut deepest = 0usize;
    for b in text.bytes() {
        match b {
            b'[' | b'{' => {
                upper += 1;
                deepest = deepest.max(upper);
            }
            b']' | b'}' => upper = upper.saturating_sub(1),
            _ => {}
        }
    }
    if deepest <= max {
        return None;
    }
    let mut state = State::Plain;
    let (mut depth, mut line, mut col) = (0usize, 1u32, 0u32);
    let mut prev = b'\n';
    let mut escaped = false;
    for &b in text.as_bytes() {
        if b == b'\n' {
            line += 1;
            col = 0;
        } else if b & 0xC0 != 0x80 {
            col += 1;
        }
        let token_start = prev.is_ascii_whitespace() || matches!(prev, b'[' | b'{' | b',' | b':');
        match state {
            State::Plain => match b {
                b'[' | b'{' => {
                    depth += 1;
                    if depth > max {
                        return Some(Span::point(line, col));
                    }
                }
                b']' | b'}' => depth = depth.saturating_sub(1),
                b'\'' if token_start => state = State::Single,
                b'"' if token_start => state = State::Double,
                b'#' if token_start => state = State::Comment,
                _ => {}
            },
            State::Single if b == b'\'' => state = State::Plain,
            State::Double if b == b'"' && !escaped => state = State::Plain,
            State::Comment if b == b'\n' => state = State::Plain,
            _ => {}
        }
        escaped = state == State::Double && b == b'\\' && !escaped;
        prev = b;
    }
    None
}

/// Validates JSON syntax (Python's `json` accepts `NaN` and `Infinity`, so
/// those are let through to the tree builder).
fn json_check(text: &str) -> Result<(), Fatal> {
    match serde_json::from_str::<serde::de::IgnoredAny>(text) {
        Ok(_) => Ok(()),
        Err(_) if text.contains("NaN") || text.contains("Infinity") => Ok(()),
        Err(e) => Err(Fatal::new(
            codes::JSON_SYNTAX,
            format!("invalid JSON: {}", strip_position(&e.to_string())),
            Some(Span::point(
                e.line() as u32,
                char_column(text, e.line(), e.column()) as u32,
            )),
        )),
    }
}

/// serde_json counts columns in bytes; heatcap (like libyaml) counts
/// characters. The 1-based character column of the 1-based byte `column`
/// of `line`.
fn char_column(text: &str, line: usize, column: usize) -> usize {
    let Some(l) = text.split('\n').nth(line.saturating_sub(1)) else {
        return column;
    };
    let mut end = column.saturating_sub(1).min(l.len());
    while !l.is_char_boundary(end) {
        end -= 1;
    }
    l[..end].chars().count() + 1
}

fn strip_position(msg: &str) -> &str {
    msg.find(" at line ").map_or(msg, |i| &msg[..i])
}

fn json_fallback(text: &str) -> Option<Node> {
    let value: serde_json::Value = serde_json::from_str(text).ok()?;
    Some(crate::node::from_json(&value, Span::point(1, 1)))
}

#[cfg(test)]
mod tests;

/// Runs only the YAML parser over `text` and counts its events: the
/// "bare parse" baseline of the benchmarks. Not part of the API.
#[doc(hidden)]
pub(crate) fn bench_parse_events(text: &str) -> usize {
    yaml::events(text).flatten().count()
}

/// Every file under `dir`, in a sorted walk (see [`crate::bench_files`]).
pub(crate) fn bench_files(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    walkdir::WalkDir::new(dir)
        .sort_by_file_name()
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(walkdir::DirEntry::into_path)
        .collect()
}

/// The bare parse of every file under `dir` (see [`crate::bench_bare_parse`]).
pub(crate) fn bench_bare_parse(dir: &std::path::Path) -> usize {
    use rayon::prelude::*;
    bench_files(dir)
        .par_iter()
        .map(|p| bench_parse_events(&std::fs::read_to_string(p).unwrap_or_default()))
        .sum()
}

/// The tree the second stage alone makes of `text` (see
/// [`crate::second_stage_tree`]), as JSON, or its error.
pub(crate) fn second_stage_tree(text: &str) -> Result<serde_json::Value, String> {
    let limits = TreeLimits {
        max_depth: ParseOptions::default().max_depth,
        max_alias_nodes: ParseOptions::default().max_alias_nodes,
        index_only: false,
    };
    tree::build(
        pyyaml::events(text),
        Dialect::Yaml11Fallback,
        limits,
        "second-stage.yaml",
        &mut Vec::new(),
    )
    .map(|root| root.value.to_json())
    .map_err(|f| f.message)
}
