//! The file-system side of `export`: the files python-heatclient would
//! upload for the composition (heat-semantics §2.12: the root template,
//! every file the environments' registries name, and, in every template
//! fetched, every `type` that is a template path and every `get_file`,
//! recursively), where they go, and how they are written. A file is
//! copied byte for byte unless heatcap's own additions must go: a
//! template's `capabilities`, an environment's `requires` and its
//! list-valued entries (replaced by the chosen candidate). Those are
//! edited in the text, so comments and layout stay.

use std::collections::VecDeque;
use std::path::{Path, PathBuf};

use indexmap::IndexMap;

use super::catalog::locate;
use super::references::template_references;
use super::Workspace;
use crate::diag::{codes, Diagnostic, Severity, Span};
use crate::encode::json;
use crate::load::{parse_text, ParseOptions};
use crate::model::registry::EntryValue;
use crate::model::Environment;
use crate::node::Node;
use crate::product::export as transform;
use crate::resolve::registry::Registry;
use crate::resolve::{Catalog, Implementation, StepKind};
use crate::vfs::FileOverlay;
use crate::walk::{display, Remap};

/// What to write for one file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ExportFile {
    /// A template: written without `capabilities`.
    Template,
    /// An environment given with `-e`: written without `requires`, its
    /// candidate lists replaced by the chosen candidate.
    Environment,
    /// Any other file (a `get_file` target): copied as it is.
    Raw,
}

/// A planned export: the files (by real path, with how they are shown and
/// the text to write), and the errors that refuse it.
#[non_exhaustive]
pub struct Export {
    /// Real path → (path as shown, what it is, the text to write).
    pub files: IndexMap<PathBuf, (String, ExportFile, String)>,
    /// The environments' real paths, in the order Heat merges them.
    pub environments: Vec<PathBuf>,
    /// Every diagnostic; an error refuses the export.
    pub diagnostics: Vec<Diagnostic>,
    /// The deepest directory holding every file.
    pub base: PathBuf,
    /// The merged environment with template paths as `file://` URLs (the
    /// API body's `environment`, which Heat ignores beside
    /// `environment_files`).
    pub api_environment: serde_json::Value,
    /// The root template as given.
    pub root: String,
    /// Path prefixes read from elsewhere (`--templates-root`).
    remap: Remap,
    /// Files read instead of the disk's (rendered outputs).
    overlay: FileOverlay,
    /// The URL python-heatclient on the deployment host sends for a file
    /// reached through a remapped path (the path as written), by real path.
    urls: std::collections::HashMap<PathBuf, String>,
}

/// Plans the export of the composition of `root`.
pub(super) fn plan(ws: &Workspace, root: &str, allow_outside: bool) -> Export {
    let mut diagnostics = ws.environment_diagnostics();
    let empty = |diagnostics| Export {
        files: IndexMap::new(),
        environments: Vec::new(),
        diagnostics,
        base: PathBuf::new(),
        api_environment: serde_json::Value::Null,
        root: root.to_owned(),
        remap: ws.load.remap.clone(),
        overlay: ws.load.overlay.clone(),
        urls: std::collections::HashMap::new(),
    };
    if ws.environment_broken() {
        return empty(diagnostics);
    }
    let registry = ws.registry();
    diagnostics.extend(registry.missing_targets());
    let composition = ws.compose(root);
    diagnostics.extend(composition.diagnostics.iter().cloned());
    // Every registry entry must resolve too: Heat's client fetches them all.
    for r in registry.lookup_all() {
        diagnostics.extend(r.diagnostic(ws.last_environment()));
    }
    let found = ws.catalog.template("", root);
    if found.template.is_none() {
        let why = found
            .problem
            .unwrap_or_else(|| "it is not a template".to_owned());
        diagnostics.push(Diagnostic::new(
            codes::EXPORT_FILE,
            root,
            format!("the root template cannot be loaded: {why}"),
        ));
        return empty(diagnostics);
    }
    // The environments as exported: what the client reads is what they
    // name once edited (a list's other candidates are not uploaded).
    let edited_envs = edited_environments(ws, &registry, &mut diagnostics);
    let models: Vec<Environment> = edited_envs.iter().map(|e| e.3.clone()).collect();
    // The confinement: the root template's directory and the
    // environments' (real paths; a link out of them is outside).
    let mut allowed: Vec<PathBuf> = Vec::new();
    for p in std::iter::once(root).chain(ws.environments.iter().map(|e| {
        crate::load::plan::split_part(Path::new(&e.path)).map_or(e.path.as_str(), |(plan, _)| plan)
    })) {
        if let Some(dir) = ws
            .load
            .overlay
            .canonicalize(crate::walk::path_of(p))
            .ok()
            .and_then(|r| r.parent().map(Path::to_path_buf))
        {
            allowed.push(dir);
        }
    }
    let confine = (!allow_outside).then_some(allowed.as_slice());
    let remap = &ws.load.remap;
    let overlay = &ws.load.overlay;
    let mut urls = std::collections::HashMap::new();
    let paths = Paths { remap, overlay };
    let mut files = client_files(root, &models, confine, paths, &mut urls, &mut diagnostics);
    let mut environments = Vec::new();
    for (real, shown, edited, _) in edited_envs {
        files.insert(real.clone(), (shown, ExportFile::Environment, edited));
        environments.push(real);
    }
    let base = common_dir(files.keys());
    let api_environment =
        transform::environment(&ws.environments, &ws.merged, &registry, &|from, target| {
            client_url(from, target, paths).unwrap_or_else(|| target.to_owned())
        });
    Export {
        files,
        environments,
        diagnostics,
        base,
        api_environment,
        root: root.to_owned(),
        remap: remap.clone(),
        overlay: overlay.clone(),
        urls,
    }
}

/// An exported environment: its real path, as shown, its text, its model.
type Edited = (PathBuf, String, String, Environment);

/// The environments as exported (requires and lists edited out), each
/// with its model read again from the edited text.
fn edited_environments(
    ws: &Workspace,
    registry: &Registry<'_>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<Edited> {
    let mut edited_envs = Vec::new();
    for env in &ws.environments {
        if let Some((real, text)) = plan_part(&env.path, &ws.load) {
            // A part of a plan: written beside the plan, as JSON.
            let parsed = parse_text(&text, &env.path, &ParseOptions::default());
            let Some(model) = parsed
                .root
                .as_ref()
                .and_then(Node::as_map)
                .map(|m| Environment::from_node(&env.path, m))
            else {
                continue;
            };
            let edited = edited_environment(&text, &model, registry);
            let parsed = parse_text(&edited, &env.path, &ParseOptions::default());
            let model = parsed
                .root
                .as_ref()
                .and_then(Node::as_map)
                .map_or(model, |m| Environment::from_node(&env.path, m));
            edited_envs.push((real, env.path.clone(), edited, model));
            continue;
        }
        let Ok(real) = ws
            .load
            .overlay
            .canonicalize(crate::walk::path_of(&env.path))
        else {
            continue;
        };
        match ws
            .load
            .overlay
            .read(&real)
            .map(|b| String::from_utf8_lossy(&b).into_owned())
        {
            Ok(text) => {
                let edited = edited_environment(&text, env, registry);
                let parsed = parse_text(&edited, &env.path, &ParseOptions::default());
                let model = parsed
                    .root
                    .as_ref()
                    .and_then(Node::as_map)
                    .map_or_else(|| env.clone(), |m| Environment::from_node(&env.path, m));
                edited_envs.push((real, env.path.clone(), edited, model));
            }
            Err(e) => diagnostics.push(Diagnostic::new(
                codes::EXPORT_FILE,
                &env.path,
                crate::walk::io_message(&e),
            )),
        }
    }
    edited_envs
}

/// A part of a plan (`PLAN#parameter_defaults`, see `load::plan`): where
/// the export writes it (beside the plan's real path) and its text, the
/// JSON of the environment it stands for.
fn plan_part(path: &str, opts: &crate::load::LoadOptions) -> Option<(PathBuf, String)> {
    let (plan, part) = crate::load::plan::split_part(Path::new(path))?;
    if opts.overlay.exists(Path::new(path)) {
        return None;
    }
    let real_plan = opts.overlay.canonicalize(crate::walk::path_of(plan)).ok()?;
    let source = crate::walk::Source::new(PathBuf::from(path), path.to_owned(), true);
    let root = crate::load::load_one(&source, opts).root?;
    let text = json::to_string(&root.value.to_json()) + "\n";
    Some((crate::load::plan::part_file(&real_plan, part), text))
}

/// A file the client reads: the file that names it, the name, whether it
/// is the root template, and where the name is written.
type Named = (String, String, bool, Option<Span>);

/// The crawl's first files: the root template, and every template the
/// environments' registries name (unless `base_url` moves them).
fn crawl_start(root: &str, envs: &[Environment]) -> VecDeque<Named> {
    let mut queue: VecDeque<Named> = VecDeque::new();
    queue.push_back((String::new(), root.to_owned(), true, None));
    for env in envs {
        if env.top().any(|e| e.key == "base_url") {
            continue;
        }
        for e in &env.entries {
            for (target, span) in e.client_files() {
                queue.push_back((env.path.clone(), target.to_owned(), false, Some(span)));
            }
        }
    }
    queue
}

/// The files python-heatclient reads for `root` and the environments, by
/// real path, with the text to write (environments are added by the
/// caller). A file it cannot read is a diagnostic (E7005).
fn client_files(
    root: &str,
    envs: &[Environment],
    confine: Option<&[PathBuf]>,
    paths: Paths<'_>,
    urls: &mut std::collections::HashMap<PathBuf, String>,
    diagnostics: &mut Vec<Diagnostic>,
) -> IndexMap<PathBuf, (String, ExportFile, String)> {
    let Paths { remap, overlay } = paths;
    let mut files = IndexMap::new();
    let mut queue = crawl_start(root, envs);
    while let Some((from, target, is_root, span)) = queue.pop_front() {
        let at = |d: Diagnostic| match span {
            Some(s) => d.at(s),
            None => d,
        };
        let Some((path, shown)) = locate(&from, &target, remap, overlay) else {
            continue;
        };
        let Ok(real) = overlay.canonicalize(&path) else {
            // A missing template or get_file target is reported where it is
            // used (E7001, E7006); anything else the client reads, here.
            let reported = diagnostics
                .iter()
                .any(|d| d.severity == Severity::Error && d.message.contains(&target));
            if !is_root && !reported {
                diagnostics.push(at(Diagnostic::new(
                    codes::EXPORT_FILE,
                    if from.is_empty() { &target } else { &from },
                    format!("`{target}` cannot be read: python-heatclient would fail to upload it"),
                )));
            }
            continue;
        };
        let location = client_location(&path, &real, overlay);
        if files.contains_key(&location) {
            continue;
        }
        if let Some(named) = remapped_url(&target, remap) {
            urls.insert(location.clone(), named);
        }
        if let Some(allowed) = confine {
            if !allowed.iter().any(|dir| real.starts_with(dir)) {
                diagnostics.push(at(Diagnostic::new(
                    codes::OUTSIDE_TREE,
                    if from.is_empty() { &target } else { &from },
                    format!(
                        "`{target}` is `{}`, outside the template's and the environments' directories; export reads nothing there (--allow-outside reads it)",
                        display(&real)
                    ),
                )));
                continue;
            }
        }
        let text = match overlay.read(&real) {
            Ok(bytes) => match String::from_utf8(bytes) {
                Ok(t) => t,
                Err(e) => {
                    // Binary: the client base64-encodes it; copy as is.
                    let raw = e.into_bytes();
                    files.insert(
                        location,
                        (
                            shown,
                            ExportFile::Raw,
                            String::from_utf8_lossy(&raw).into_owned(),
                        ),
                    );
                    continue;
                }
            },
            Err(e) => {
                diagnostics.push(Diagnostic::new(
                    codes::EXPORT_FILE,
                    &shown,
                    crate::walk::io_message(&e),
                ));
                continue;
            }
        };
        let chars = text.chars().count();
        if chars > crate::load::DEFAULT_MAX_SIZE {
            diagnostics.push(Diagnostic::new(
                codes::UPLOAD_TOO_LARGE,
                &shown,
                format!(
                    "{chars} characters, over Heat's max_template_size ({}): Heat refuses every request that uploads it",
                    crate::load::DEFAULT_MAX_SIZE
                ),
            ));
        }
        let parsed = parse_text(&text, &shown, &ParseOptions::default());
        match parsed.root.as_ref().filter(|r| is_template(r)) {
            Some(tree) => {
                for (t, span) in template_references(tree) {
                    queue.push_back((shown.clone(), t, false, Some(span)));
                }
                let content = without_capabilities(&text, tree);
                files.insert(location, (shown, ExportFile::Template, content));
            }
            None => {
                files.insert(location, (shown, ExportFile::Raw, text));
            }
        }
    }
    files
}

/// Where python-heatclient finds a file (its URL): the real directory of
/// the name, and the name itself, even when that name is a link.
fn client_location(path: &Path, real: &Path, overlay: &FileOverlay) -> PathBuf {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    overlay
        .canonicalize(dir)
        .ok()
        .zip(path.file_name())
        .map_or_else(|| real.to_path_buf(), |(d, name)| d.join(name))
}

/// A document python-heatclient takes for a template (a version key).
fn is_template(root: &Node) -> bool {
    root.as_map().is_some_and(|m| {
        [
            "heat_template_version",
            "AWSTemplateFormatVersion",
            "HeatTemplateFormatVersion",
        ]
        .iter()
        .any(|k| m.contains_key(k))
    })
}

/// A template's text without its top-level `capabilities` (the text as it
/// is when it has none).
fn without_capabilities(text: &str, tree: &Node) -> String {
    if !tree
        .as_map()
        .is_some_and(|m| m.contains_key("capabilities"))
    {
        return text.to_owned();
    }
    transform::strip_section(text, tree, "capabilities")
        .unwrap_or_else(|| json::to_string(&transform::without_capabilities(tree)) + "\n")
}

/// An environment's text without `requires`, each candidate list replaced
/// by the candidate chosen, everything else as written.
fn edited_environment(text: &str, env: &Environment, registry: &Registry<'_>) -> String {
    let mut edits: Vec<(crate::diag::Span, String)> = Vec::new();
    for e in &env.entries {
        let EntryValue::Candidates(cs) = &e.value else {
            continue;
        };
        let r = registry.lookup(&e.key, e.resource(), None);
        let chosen = r.chain.iter().find_map(|s| match s.kind {
            StepKind::Entry | StepKind::PerResource => {
                s.selection.as_ref().and_then(|sel| sel.chosen.clone())
            }
            _ => None,
        });
        let chosen = chosen.or(match r.implementation {
            Some(Implementation::Plugin(p)) => Some(p),
            _ => None,
        });
        let Some(chosen) = chosen else { continue };
        // A block list ends at its last item; a flow list at its bracket.
        let starts_flow = env_text_at(text, e.node.span.start) == Some('[');
        let mut span = e.node.span;
        if !starts_flow {
            if let Some(last) = cs.last() {
                span.end = last.span.end;
            }
        }
        edits.push((span, chosen));
    }
    // Apply from the end, so earlier positions stay valid.
    edits.sort_by_key(|e| std::cmp::Reverse(e.0.start));
    let mut out = text.to_owned();
    for (span, value) in edits {
        if let Some(t) = transform::replace_node(&out, span, &value) {
            out = t;
        }
    }
    let parsed = parse_text(&out, &env.path, &ParseOptions::default());
    match parsed.root {
        Some(root) if root.as_map().is_some_and(|m| m.contains_key("requires")) => {
            transform::strip_section(&out, &root, "requires").unwrap_or(out)
        }
        _ => out,
    }
}

/// The character at a position of the text.
fn env_text_at(text: &str, pos: crate::diag::Pos) -> Option<char> {
    let line = text
        .lines()
        .nth(usize::try_from(pos.line).ok()?.checked_sub(1)?)?;
    line.chars()
        .nth(usize::try_from(pos.column).ok()?.checked_sub(1)?)
}

impl Export {
    /// True when an error refuses the export (nothing is written).
    pub fn refused(&self) -> bool {
        self.diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error)
    }

    /// The environments' paths in the exported tree, in the order to give
    /// them (`-e`) to Heat.
    pub fn environment_paths(&self) -> Vec<String> {
        self.environments
            .iter()
            .map(|e| display(e.strip_prefix(&self.base).unwrap_or(e)))
            .collect()
    }

    /// python-heatclient's stack-create body: `template`, `files`,
    /// `environment`, `environment_files`, with paths as `file://` URLs
    /// (`heatcap schema export-heat-api` describes it).
    pub fn heat_api_body(&self) -> serde_json::Value {
        let url = |real: &Path| {
            self.urls
                .get(real)
                .cloned()
                .unwrap_or_else(|| format!("file://{}", display(real)))
        };
        let mut body_files = serde_json::Map::new();
        let mut template = serde_json::Value::Null;
        let paths = Paths {
            remap: &self.remap,
            overlay: &self.overlay,
        };
        let root_real = self
            .overlay
            .canonicalize(crate::walk::path_of(&self.root))
            .unwrap_or_else(|_| crate::walk::path_of(&self.root));
        for (real, (shown, kind, text)) in &self.files {
            match kind {
                ExportFile::Template => {
                    let Some(tree) = parse_text(text, shown, &ParseOptions::default()).root else {
                        continue;
                    };
                    let mut v = tree.value.to_json();
                    transform::rewrite_template_paths(&mut v, &|p| {
                        client_url(shown, p, paths).unwrap_or_else(|| p.to_owned())
                    });
                    if *real == root_real {
                        template = v;
                    } else {
                        body_files
                            .insert(url(real), serde_json::Value::String(json::to_string(&v)));
                    }
                }
                ExportFile::Environment => {
                    let sent =
                        client_environment(text, shown, paths).unwrap_or_else(|| text.clone());
                    body_files.insert(url(real), serde_json::Value::String(sent));
                }
                ExportFile::Raw => {
                    body_files.insert(url(real), serde_json::Value::String(text.clone()));
                }
            }
        }
        let env_urls: Vec<String> = self.environments.iter().map(|e| url(e)).collect();
        serde_json::json!({
            "template": template,
            "files": body_files,
            "environment": self.api_environment.clone(),
            "environment_files": env_urls,
        })
    }

    /// Writes the exported tree into `dir` (which must be empty unless
    /// `force`); returns the paths written, relative to `dir`. The tree is
    /// written into a fresh directory beside `dir` and moved into place, so
    /// a failed write leaves `dir` as it was. With `force` into a directory
    /// that holds files, every path is checked before anything is moved
    /// (a file where a directory is needed, or a directory where a file
    /// goes, refuses the write), and a move that still fails undoes the
    /// ones before it. No symbolic link is ever followed when writing: one
    /// in the way, of a file or of a directory, is moved aside and replaced
    /// (what it points to is not touched); a link at `dir` itself is
    /// refused.
    pub fn write_tree(&self, dir: &Path, force: bool) -> Result<Vec<String>, String> {
        write_staged(dir, force, ".heatcap-export-", &self.staged())
    }

    /// Each file of the tree, relative to [`Export::base`], and what it
    /// holds.
    fn staged(&self) -> Vec<(PathBuf, Staged)> {
        self.files
            .iter()
            .map(|(real, (_, kind, text))| {
                let rel = real.strip_prefix(&self.base).unwrap_or(real).to_path_buf();
                let content = match kind {
                    // A file copied unchanged keeps its bytes exactly.
                    ExportFile::Raw if self.overlay.get(real).is_none() => {
                        Staged::Copy(real.clone())
                    }
                    _ => Staged::Text(text.clone()),
                };
                (rel, content)
            })
            .collect()
    }

    /// The tree [`Export::write_tree`] writes, as a POSIX tar archive
    /// (each file as `write_tree` writes it, mode 0644, time 0, in the
    /// order the tree lists them: the same composition gives the same
    /// bytes).
    pub fn write_tarball(&self, out: impl std::io::Write) -> std::io::Result<()> {
        let mut archive = tar::Builder::new(out);
        for (rel, content) in self.staged() {
            let bytes = match content {
                Staged::Copy(real) => std::fs::read(real)?,
                Staged::Text(text) => text.into_bytes(),
                Staged::Dir => continue,
            };
            let mut header = tar::Header::new_ustar();
            header.set_size(bytes.len() as u64);
            header.set_mode(0o644);
            header.set_mtime(0);
            header.set_entry_type(tar::EntryType::Regular);
            archive.append_data(&mut header, &rel, bytes.as_slice())?;
        }
        archive.into_inner()?.flush()
    }
}

/// What one file of a staged tree holds.
#[derive(Debug, Clone)]
pub(crate) enum Staged {
    /// The bytes (and permissions) of this file, copied.
    Copy(PathBuf),
    /// This text.
    Text(String),
    /// An empty directory.
    Dir,
}

/// Writes `entries` (paths relative to `dir`) into `dir`, which must be
/// empty unless `force`; returns the paths written (directories left
/// out). The tree is written into a fresh directory beside `dir` (named
/// `prefix`...) and moved into place, so a failed write leaves `dir` as
/// it was. With `force` into a directory that holds files, every path is
/// checked before anything is moved, and a move that still fails undoes
/// the ones before it (see [`Export::write_tree`]); no symbolic link is
/// ever followed when writing (one in the way of a file is moved aside and
/// replaced; one in the way of an empty directory refuses the write).
pub(crate) fn write_staged(
    dir: &Path,
    force: bool,
    prefix: &str,
    entries: &[(PathBuf, Staged)],
) -> Result<Vec<String>, String> {
    let io = |p: &Path, e: std::io::Error| {
        format!(
            "cannot write `{}`: {}",
            display(p),
            crate::walk::io_message(&e)
        )
    };
    if std::fs::symlink_metadata(dir).is_ok_and(|m| m.file_type().is_symlink()) {
        return Err(format!(
            "`{}` is a symbolic link; give the directory itself",
            display(dir)
        ));
    }
    let empty = std::fs::read_dir(dir).map_or(true, |mut d| d.next().is_none());
    if dir.exists() && !empty && !force {
        return Err(format!(
            "`{}` is not empty; use --force to write into it",
            display(dir)
        ));
    }
    let parent = match dir.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    std::fs::create_dir_all(&parent).map_err(|e| io(&parent, e))?;
    let staging = tempfile::Builder::new()
        .prefix(prefix)
        .tempdir_in(&parent)
        .map_err(|e| io(&parent, e))?;
    let mut written = Vec::new();
    for (rel, content) in entries {
        let target = staging.path().join(rel);
        if let Staged::Dir = content {
            std::fs::create_dir_all(&target).map_err(|e| io(&target, e))?;
            continue;
        }
        if let Some(p) = target.parent() {
            std::fs::create_dir_all(p).map_err(|e| io(p, e))?;
        }
        match content {
            Staged::Copy(real) => {
                std::fs::copy(real, &target).map_err(|e| io(&target, e))?;
            }
            Staged::Text(text) => std::fs::write(&target, text).map_err(|e| io(&target, e))?,
            Staged::Dir => {}
        }
        written.push(display(rel));
    }
    if !dir.exists() || empty {
        if dir.exists() {
            std::fs::remove_dir(dir).map_err(|e| io(dir, e))?;
        }
        let staged = staging.keep();
        std::fs::rename(&staged, dir).map_err(|e| io(dir, e))?;
        return Ok(written);
    }
    // --force into a directory that holds files: check every path first
    // (the empty directories' too), then move each file in, undoing every
    // step when one fails.
    for (rel, content) in entries {
        if let Staged::Dir = content {
            dir_path_clear(dir, rel)?;
        }
    }
    move_in(dir, &written, staging.path())?;
    for (rel, content) in entries {
        if let Staged::Dir = content {
            let target = dir.join(rel);
            std::fs::create_dir_all(&target).map_err(|e| io(&target, e))?;
        }
    }
    Ok(written)
}

/// Refuses, before anything is moved, an empty directory `rel` to create
/// below `dir` where a symbolic link or a file stands on its way (a link
/// would make it land elsewhere).
fn dir_path_clear(dir: &Path, rel: &Path) -> Result<(), String> {
    let mut at = dir.to_path_buf();
    for c in rel.components() {
        at.push(c);
        let why = match std::fs::symlink_metadata(&at) {
            Ok(m) if m.file_type().is_symlink() => "is a symbolic link",
            Ok(m) if !m.is_dir() => "is not a directory",
            _ => continue,
        };
        return Err(format!(
            "cannot write `{}`: `{}` {why}; nothing was written",
            display(&dir.join(rel)),
            display(&at)
        ));
    }
    Ok(())
}

/// Moves the files `written`, staged under `staged`, into `dir`, which
/// holds files: every path checked first ([`plan_moves`]), then each file
/// moved in, and every step undone when one fails (what was replaced is
/// kept under `staged` until then).
fn move_in(dir: &Path, written: &[String], staged: &Path) -> Result<(), String> {
    let steps = plan_moves(dir, written)?;
    let aside = staged.join(".replaced");
    let mut done: Vec<Done> = Vec::new();
    for (rel, step) in written.iter().zip(&steps) {
        if let Err(e) = apply_move(dir, rel, step, staged, &aside, &mut done) {
            return Err(match undo(done) {
                Ok(()) => format!("{e}; `{}` is as it was", display(dir)),
                Err(u) => format!("{e}; undoing what was written failed: {u}"),
            });
        }
    }
    Ok(())
}

/// What writing one file into a directory that holds files needs, checked
/// before anything is touched.
#[derive(Debug, Default)]
struct Move {
    /// Directories to create (missing), outermost first.
    create: Vec<PathBuf>,
    /// Symbolic links in the way (of a directory or of the file), moved
    /// aside so a real directory or the file takes their place; what they
    /// point to is never touched.
    links: Vec<PathBuf>,
    /// The file already there, moved aside before the new one is moved in.
    replaces: bool,
}

/// One step done, to undo when a later one fails.
enum Done {
    Created(PathBuf),
    MovedAside { from: PathBuf, to: PathBuf },
    Placed(PathBuf),
}

/// Checks every path the files `written` (relative to `dir`) take: each
/// directory on the way is a directory, a missing one (created), or a
/// symbolic link (replaced by a directory); the file itself is not a
/// directory. Nothing is changed.
fn plan_moves(dir: &Path, written: &[String]) -> Result<Vec<Move>, String> {
    let mut planned: std::collections::HashSet<PathBuf> = std::collections::HashSet::new();
    let mut out = Vec::new();
    for rel in written {
        let target = dir.join(rel);
        let refuse = |at: &Path, why: &str| {
            format!(
                "cannot write `{}`: `{}` {why}; nothing was written",
                display(&target),
                display(at)
            )
        };
        let mut step = Move::default();
        let parts: Vec<_> = Path::new(rel).components().collect();
        let mut at = dir.to_path_buf();
        // Below a directory still to be made, nothing exists yet (and what
        // a link in the way points to is never looked at).
        let mut fresh = false;
        for (i, c) in parts.iter().enumerate() {
            at.push(c);
            let last = i + 1 == parts.len();
            if planned.contains(&at) {
                fresh = true;
                continue;
            }
            if fresh {
                if !last {
                    step.create.push(at.clone());
                    planned.insert(at.clone());
                }
                continue;
            }
            match std::fs::symlink_metadata(&at) {
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                    if !last {
                        step.create.push(at.clone());
                        planned.insert(at.clone());
                        fresh = true;
                    }
                }
                Err(e) => return Err(refuse(&at, &crate::walk::io_message(&e))),
                Ok(m) if m.file_type().is_symlink() => {
                    step.links.push(at.clone());
                    if !last {
                        step.create.push(at.clone());
                        planned.insert(at.clone());
                        fresh = true;
                    }
                }
                Ok(m) if m.is_dir() && last => return Err(refuse(&at, "is a directory")),
                Ok(m) if m.is_dir() => {}
                Ok(_) if last => step.replaces = true,
                Ok(_) => return Err(refuse(&at, "is not a directory")),
            }
        }
        out.push(step);
    }
    Ok(out)
}

/// Moves the staged file `rel` into `dir` as `step` says, recording each
/// change in `done`; what it replaces goes under `aside`.
fn apply_move(
    dir: &Path,
    rel: &str,
    step: &Move,
    staged: &Path,
    aside: &Path,
    done: &mut Vec<Done>,
) -> Result<(), String> {
    let io = |p: &Path, e: std::io::Error| {
        format!(
            "cannot write `{}`: {}",
            display(p),
            crate::walk::io_message(&e)
        )
    };
    let target = dir.join(rel);
    let put_aside = |from: &Path, done: &mut Vec<Done>| -> Result<(), String> {
        std::fs::create_dir_all(aside).map_err(|e| io(aside, e))?;
        let to = aside.join(done.len().to_string());
        std::fs::rename(from, &to).map_err(|e| io(from, e))?;
        done.push(Done::MovedAside {
            from: from.to_path_buf(),
            to,
        });
        Ok(())
    };
    for link in &step.links {
        put_aside(link, done)?;
        if step.create.contains(link) {
            std::fs::create_dir(link).map_err(|e| io(link, e))?;
            done.push(Done::Created(link.clone()));
        }
    }
    for d in step.create.iter().filter(|d| !step.links.contains(d)) {
        std::fs::create_dir(d).map_err(|e| io(d, e))?;
        done.push(Done::Created(d.clone()));
    }
    if step.replaces {
        put_aside(&target, done)?;
    }
    std::fs::rename(staged.join(rel), &target).map_err(|e| io(&target, e))?;
    done.push(Done::Placed(target));
    Ok(())
}

/// Undoes `done`, last step first: the files moved in removed, the
/// directories created removed, what was moved aside moved back.
fn undo(done: Vec<Done>) -> Result<(), String> {
    let mut failed = Vec::new();
    for step in done.into_iter().rev() {
        let (path, result) = match step {
            Done::Placed(p) => {
                let r = std::fs::remove_file(&p);
                (p, r)
            }
            Done::Created(p) => {
                let r = std::fs::remove_dir(&p);
                (p, r)
            }
            Done::MovedAside { from, to } => {
                let r = std::fs::rename(&to, &from);
                (from, r)
            }
        };
        if let Err(e) = result {
            failed.push(format!(
                "`{}`: {}",
                display(&path),
                crate::walk::io_message(&e)
            ));
        }
    }
    if failed.is_empty() {
        Ok(())
    } else {
        Err(failed.join(", "))
    }
}

/// A remapped absolute path as python-heatclient on the deployment host
/// names it: `file://` and the path as written.
fn remapped_url(target: &str, remap: &Remap) -> Option<String> {
    let plain = target.strip_prefix("file://").unwrap_or(target);
    (plain.starts_with('/') && remap.apply(plain) != plain).then(|| format!("file://{plain}"))
}

/// An environment file as python-heatclient puts it in the request's
/// `files` (`process_environment_and_files`): the parsed document with its
/// registry's template paths made absolute URLs
/// (`resolve_environment_urls`: every string value but a type name, with
/// `::`, `base_url`, `hooks` and `restricted_actions`, at the top and in
/// each resource's map), as JSON. Heat reads the registry from these
/// files, so a relative path left in one is a template it cannot fetch.
/// `None` when the text is not a mapping (sent as it is), or when a
/// `base_url` moves the paths elsewhere (also sent as it is).
fn client_environment(text: &str, shown: &str, paths: Paths<'_>) -> Option<String> {
    let root = parse_text(text, shown, &ParseOptions::default()).root?;
    let mut env = root.value.to_json();
    let skip = |key: &str, value: &str| {
        matches!(key, "base_url" | "hooks" | "restricted_actions") || value.contains("::")
    };
    let resolve = |map: &mut serde_json::Map<String, serde_json::Value>| {
        for (key, value) in map.iter_mut() {
            if let serde_json::Value::String(target) = value {
                if !skip(key, target) {
                    if let Some(u) = client_url(shown, target, paths) {
                        *target = u;
                    }
                }
            }
        }
    };
    let registry = env.as_object_mut()?.get_mut("resource_registry");
    if let Some(serde_json::Value::Object(rr)) = registry {
        if rr.contains_key("base_url") {
            return None;
        }
        resolve(rr);
        if let Some(serde_json::Value::Object(per)) = rr.get_mut("resources") {
            for res in per.values_mut() {
                if let serde_json::Value::Object(m) = res {
                    if m.contains_key("base_url") {
                        return None;
                    }
                    resolve(m);
                }
            }
        }
    }
    Some(json::to_string(&env))
}

/// The URL python-heatclient sends for `target` named from `from`: the
/// real path's, or a remapped path as written.
fn client_url(from: &str, target: &str, paths: Paths<'_>) -> Option<String> {
    remapped_url(target, paths.remap)
        .or_else(|| real_of(from, target, paths).map(|r| format!("file://{}", display(&r))))
}

/// The real path `target` names from `from`, when it exists.
fn real_of(from: &str, target: &str, paths: Paths<'_>) -> Option<PathBuf> {
    let (p, _) = locate(from, target, paths.remap, paths.overlay)?;
    paths.overlay.canonicalize(p).ok()
}

/// How paths are read: remapped prefixes, then the overlay over the disk.
#[derive(Clone, Copy)]
struct Paths<'a> {
    remap: &'a Remap,
    overlay: &'a FileOverlay,
}

/// The deepest directory containing every file.
fn common_dir<'a>(paths: impl Iterator<Item = &'a PathBuf>) -> PathBuf {
    let mut common: Option<PathBuf> = None;
    for p in paths {
        let dir = p.parent().unwrap_or(Path::new("/")).to_path_buf();
        common = Some(match common {
            None => dir,
            Some(c) => {
                let mut acc = PathBuf::new();
                for (x, y) in c.components().zip(dir.components()) {
                    if x != y {
                        break;
                    }
                    acc.push(x);
                }
                acc
            }
        });
    }
    common.unwrap_or_default()
}

/// What [`Export::heat_api_body`] builds.
pub(crate) fn heat_api_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({
        "type": "object",
        "properties": {
            "template": {
                "description": "the root template as JSON, template paths as `file://` URLs",
                "type": "object"
            },
            "files": {
                "description": "`file://` URL -> the file's text (a nested template as JSON text, paths rewritten)",
                "type": "object",
                "propertyNames": {"pattern": "^file://"},
                "additionalProperties": {"type": "string"}
            },
            "environment": transform::environment_schema(),
            "environment_files": {
                "description": "the environments' URLs, in the order Heat merges them",
                "type": "array",
                "items": {"type": "string", "pattern": "^file://"}
            }
        },
        "required": ["template", "files", "environment", "environment_files"],
        "additionalProperties": false
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn staged_empty_directory_behind_a_link_refuses_before_anything_moves() {
        // `write_staged` (render's, shared with `heatcap render`) with
        // --force into a directory that holds files: an empty directory
        // whose way is a symbolic link is refused before any file moves,
        // so `dir` stays as it was; without the link, files and the empty
        // directory are written.
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("out");
        let elsewhere = tmp.path().join("elsewhere");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::create_dir_all(&elsewhere).unwrap();
        std::fs::write(dir.join("a.yaml"), "old").unwrap();
        std::os::unix::fs::symlink(&elsewhere, dir.join("link")).unwrap();
        let entries = vec![
            (PathBuf::from("a.yaml"), Staged::Text("new".into())),
            (PathBuf::from("link/empty"), Staged::Dir),
        ];
        let err = write_staged(&dir, true, ".t-", &entries).unwrap_err();
        assert!(
            err.contains("is a symbolic link; nothing was written"),
            "{err}"
        );
        assert_eq!(std::fs::read_to_string(dir.join("a.yaml")).unwrap(), "old");
        assert!(!elsewhere.join("empty").exists());
        std::fs::remove_file(dir.join("link")).unwrap();
        let written = write_staged(&dir, true, ".t-", &entries).unwrap();
        assert_eq!(written, ["a.yaml"]);
        assert_eq!(std::fs::read_to_string(dir.join("a.yaml")).unwrap(), "new");
        assert!(dir.join("link/empty").is_dir());
    }

    #[test]
    fn a_move_that_fails_undoes_the_ones_before_it() {
        let tmp = tempfile::tempdir().unwrap();
        let (dir, staged, elsewhere) = (
            tmp.path().join("out"),
            tmp.path().join("staged"),
            tmp.path().join("elsewhere"),
        );
        for d in [&dir, &staged, &elsewhere] {
            std::fs::create_dir_all(d).unwrap();
        }
        std::fs::write(dir.join("a.yaml"), "old").unwrap();
        std::fs::write(elsewhere.join("keep"), "theirs").unwrap();
        std::os::unix::fs::symlink(&elsewhere, dir.join("sub")).unwrap();
        std::fs::write(staged.join("a.yaml"), "new").unwrap();
        std::fs::create_dir_all(staged.join("sub")).unwrap();
        std::fs::write(staged.join("sub/b.yaml"), "new").unwrap();
        // `c.yaml` passes the checks but was never staged: its move fails
        // after `a.yaml` replaced a file and `sub` replaced a link.
        let written = ["a.yaml", "sub/b.yaml", "c.yaml"].map(String::from);
        let err = move_in(&dir, &written, &staged).unwrap_err();
        assert!(
            err.contains("c.yaml") && err.ends_with("is as it was"),
            "{err}"
        );
        assert_eq!(std::fs::read_to_string(dir.join("a.yaml")).unwrap(), "old");
        assert_eq!(std::fs::read_link(dir.join("sub")).unwrap(), elsewhere);
        assert!(!dir.join("c.yaml").exists());
        let mut left: Vec<_> = std::fs::read_dir(&elsewhere)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        left.sort();
        assert_eq!(left, ["keep"]);
        let mut names: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        names.sort();
        assert_eq!(names, ["a.yaml", "sub"]);
    }

    #[test]
    fn a_template_without_capabilities_is_kept_whole() {
        let text = "heat_template_version: 2016-10-14\nresources:\n  a: {type: x.yaml}\n";
        let tree = parse_text(text, "t.yaml", &ParseOptions::default())
            .root
            .unwrap();
        assert_eq!(without_capabilities(text, &tree), text);
    }
}
