//! `heatcap lsp`: a language server over standard input and output, an
//! adapter beside the command line (docs/editors.md). Open buffers are
//! mounted over the disk ([`crate::vfs`]); each handler converts the
//! protocol's positions, asks the workspace's editor queries
//! ([`crate::workspace::editor`]) or `validate`, and converts back. No
//! question is answered here.
//!
//! One thread handles messages in order (`lsp-server`): findings of the
//! edited file are computed on every change (tens of milliseconds), those
//! of the composition on save, and on a thread of their own when typing
//! pauses (no change for [`Settings::pause`]; a change before that
//! postpones it, a change during the run makes its findings stale: they
//! are dropped and the check runs again). A handler that fails answers the
//! request with an error; the server goes on.

mod position;
mod transport;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender};

use lsp_server::{Connection, ErrorCode, Message, Notification, Request, Response};
use lsp_types as lt;
use serde_json::{json, Value as J};

use crate::diag::{Diagnostic, Severity};
use crate::load::{LoadOptions, ParseOptions};
use crate::validate::{Profile, Selection};
use crate::vfs::FileOverlay;
use crate::walk::WalkOptions;
use crate::workspace::{editor, validate, ValidateOptions, Workspace};
use position::{path_of, uri_of, Encoding, Lines};

/// What the server checks with, from the command line and `.heatcap.yaml`
/// (the client's `initializationOptions` may replace the environments and
/// the root template).
#[derive(Debug, Clone)]
#[non_exhaustive]
pub(crate) struct Settings {
    /// Environments compositions are checked with, and types resolved by.
    pub environments: Vec<PathBuf>,
    /// The root template whose composition is checked on every save
    /// (else the saved template itself, when environments are given).
    pub template: Option<PathBuf>,
    /// Which codes to report.
    pub selection: Selection,
    /// How long typing must pause before the composition is checked
    /// (`None`: on save only).
    pub pause: Option<Duration>,
}

/// The pause after the last change before the composition is checked
/// (`initializationOptions.compositionPause`, milliseconds).
pub(crate) const PAUSE: Duration = Duration::from_millis(500);

impl Default for Settings {
    fn default() -> Settings {
        Settings::new(Vec::new(), None, Selection::default())
    }
}

impl Settings {
    /// Settings with these environments and rule selection.
    pub(crate) fn new(
        environments: Vec<PathBuf>,
        template: Option<PathBuf>,
        selection: Selection,
    ) -> Settings {
        Settings {
            environments,
            template,
            selection,
            pause: Some(PAUSE),
        }
    }
}

/// One open buffer.
struct Document {
    path: PathBuf,
    text: String,
    version: i32,
}

struct Server {
    settings: Settings,
    encoding: Encoding,
    documents: HashMap<String, Document>,
    /// Findings of the last composition check, by file.
    composed: HashMap<PathBuf, Vec<Diagnostic>>,
    /// Files diagnostics were last published for with something in them.
    published: std::collections::HashSet<PathBuf>,
    /// The environments opened once, until a file is saved.
    workspace: Option<Workspace>,
    /// The evaluated composition of the root template (for hover), until
    /// a save.
    evaluated: Option<std::rc::Rc<editor::Composed>>,
    /// The project's templates registry entries may name, until a save.
    tree: Option<std::rc::Rc<editor::Tree>>,
    /// The open buffers, read instead of the disk's files.
    buffers: FileOverlay,
    outbox: Vec<Message>,
    /// The composition check typing waits for: when, and the buffer
    /// changed last (the root when no template is set).
    due: Option<(Instant, String)>,
    /// Counts changes and saves: a background check's findings are kept
    /// only if nothing changed while it ran.
    generation: u64,
    /// A background check is running.
    running: bool,
    /// The pause ended while a check ran: the buffer to check after it.
    again: Option<String>,
    /// Findings of background checks, with the generation they read.
    checked: (Sender<Checked>, Receiver<Checked>),
}

/// A background composition check's findings, and the generation of the
/// buffers it read (`None` when it failed).
type Checked = (u64, Option<HashMap<PathBuf, Vec<Diagnostic>>>);

/// Runs the server on standard input and `out` (standard output) until
/// the client says `exit`.
///
/// # Errors
/// When the connection breaks before `initialize` completes.
pub(crate) fn run(settings: Settings, out: &mut dyn std::io::Write) -> Result<(), String> {
    transport::stdio(out, move |connection| serve(&connection, settings))
}

/// The protocol on `connection` (the tests use an in-memory one).
fn serve(connection: &Connection, settings: Settings) -> Result<(), String> {
    let (id, params) = connection.initialize_start().map_err(|e| e.to_string())?;
    let init: lt::InitializeParams = serde_json::from_value(params).unwrap_or_default();
    let offered: Option<Vec<String>> = init
        .capabilities
        .general
        .as_ref()
        .and_then(|g| g.position_encodings.as_ref())
        .map(|v| v.iter().map(|e| e.as_str().to_owned()).collect());
    let encoding = Encoding::negotiate(offered.as_deref());
    let mut settings = settings;
    if let Some(o) = &init.initialization_options {
        apply_options(&mut settings, o);
    }
    let result = json!({
        "capabilities": capabilities(encoding),
        "serverInfo": {"name": "heatcap", "version": env!("CARGO_PKG_VERSION")},
    });
    connection
        .initialize_finish(id, result)
        .map_err(|e| e.to_string())?;
    let mut server = Server {
        settings,
        encoding,
        documents: HashMap::new(),
        composed: HashMap::new(),
        published: std::collections::HashSet::new(),
        workspace: None,
        evaluated: None,
        tree: None,
        buffers: FileOverlay::default(),
        outbox: Vec::new(),
        due: None,
        generation: 0,
        running: false,
        again: None,
        checked: crossbeam_channel::unbounded(),
    };
    loop {
        let timer = server
            .due
            .as_ref()
            .map_or_else(crossbeam_channel::never, |(at, _)| {
                crossbeam_channel::at(*at)
            });
        let checked = server.checked.1.clone();
        let message = crossbeam_channel::select! {
            recv(connection.receiver) -> m => match m {
                Ok(m) => m,
                Err(_) => break,
            },
            recv(checked) -> c => {
                if let Ok(c) = c {
                    server.checked_in_background(c);
                }
                if !server.flush(connection) {
                    return Ok(());
                }
                continue;
            },
            recv(timer) -> _ => {
                server.pause_ended();
                continue;
            },
        };
        match message {
            Message::Request(req) => {
                if connection
                    .handle_shutdown(&req)
                    .map_err(|e| e.to_string())?
                {
                    break;
                }
                let response = server.request(&req);
                server.outbox.push(Message::Response(response));
            }
            Message::Notification(n) => {
                if n.method == "exit" {
                    break;
                }
                server.notification(&n);
            }
            Message::Response(_) => {}
        }
        if !server.flush(connection) {
            return Ok(());
        }
    }
    Ok(())
}

/// `initializationOptions`: `environments` (paths), `template`, and
/// `compositionPause` (milliseconds, or `false` for on save only).
fn apply_options(settings: &mut Settings, o: &J) {
    match o.get("compositionPause") {
        Some(J::Bool(false)) => settings.pause = None,
        Some(v) => {
            if let Some(ms) = v.as_u64() {
                settings.pause = Some(Duration::from_millis(ms));
            }
        }
        None => {}
    }
    if let Some(envs) = o.get("environments").and_then(J::as_array) {
        settings.environments = envs
            .iter()
            .filter_map(J::as_str)
            .map(absolute_path)
            .collect();
    }
    if let Some(t) = o.get("template").and_then(J::as_str) {
        settings.template = Some(absolute_path(t));
    }
}

fn capabilities(encoding: Encoding) -> J {
    json!({
        "positionEncoding": encoding.name(),
        "textDocumentSync": {"openClose": true, "change": 1, "save": {"includeText": false}},
        "hoverProvider": true,
        "definitionProvider": true,
        "documentSymbolProvider": true,
        "completionProvider": {"triggerCharacters": [":", " ", "[", ","]},
        "codeActionProvider": {"codeActionKinds": ["quickfix"]},
    })
}

/// The parameters of a request, or an `InvalidParams` answer.
fn params<P: serde::de::DeserializeOwned>(req: &Request) -> Result<P, Box<Response>> {
    serde_json::from_value(req.params.clone()).map_err(|e| {
        Box::new(Response::new_err(
            req.id.clone(),
            ErrorCode::InvalidParams as i32,
            format!("invalid params for {}: {e}", req.method),
        ))
    })
}

impl Server {
    /// Sends what was queued; `false` when the client is gone.
    fn flush(&mut self, connection: &Connection) -> bool {
        self.outbox
            .drain(..)
            .all(|m| connection.sender.send(m).is_ok())
    }

    /// A change: the composition is checked when typing pauses (a
    /// change to an environment also reopens the environments for hover,
    /// definition and completion).
    fn changed(&mut self, uri: &str) {
        self.generation += 1;
        if self
            .documents
            .get(uri)
            .is_some_and(|d| is_environment_text(&d.text))
        {
            self.forget();
        }
        if let Some(pause) = self.settings.pause {
            if !self.settings.environments.is_empty() {
                self.due = Some((Instant::now() + pause, uri.to_owned()));
            }
        }
    }

    /// Typing paused: the composition is checked on a thread of its own
    /// (after the one running, if any).
    fn pause_ended(&mut self) {
        let Some((_, uri)) = self.due.take() else {
            return;
        };
        if self.running {
            self.again = Some(uri);
            return;
        }
        let Some(opts) = self.composition_options(Some(&uri)) else {
            return;
        };
        let generation = self.generation;
        let tx = self.checked.0.clone();
        self.running = true;
        std::thread::spawn(move || {
            let found = std::panic::catch_unwind(std::panic::AssertUnwindSafe(move || {
                composition_findings(&opts)
            }))
            .ok();
            let _ = tx.send((generation, found));
        });
    }

    /// A background check ended: its findings are published when nothing
    /// changed meanwhile; a check wanted meanwhile starts now.
    fn checked_in_background(&mut self, (generation, found): Checked) {
        self.running = false;
        if generation == self.generation {
            if let Some(found) = found {
                self.composed = found;
                self.publish_all();
            }
        }
        if let Some(uri) = self.again.take() {
            if self.due.is_none() {
                self.due = Some((Instant::now(), uri));
            }
        }
    }

    fn request(&mut self, req: &Request) -> Response {
        let id = req.id.clone();
        let method = req.method.clone();
        // A failing handler answers its request; the server goes on.
        let answer = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.answer(req)));
        match answer {
            Ok(r) => r,
            Err(_) => Response::new_err(
                id,
                ErrorCode::InternalError as i32,
                format!("heatcap failed to answer {method}"),
            ),
        }
    }

    fn answer(&mut self, req: &Request) -> Response {
        let ok = |v: J| Response::new_ok(req.id.clone(), v);
        match req.method.as_str() {
            "textDocument/hover" => match params::<lt::HoverParams>(req) {
                Ok(p) => ok(self.hover(&p.text_document_position_params)),
                Err(r) => *r,
            },
            "textDocument/definition" => match params::<lt::GotoDefinitionParams>(req) {
                Ok(p) => ok(self.definition(&p.text_document_position_params)),
                Err(r) => *r,
            },
            "textDocument/completion" => match params::<lt::CompletionParams>(req) {
                Ok(p) => ok(self.completion(&p.text_document_position)),
                Err(r) => *r,
            },
            "textDocument/documentSymbol" => match params::<lt::DocumentSymbolParams>(req) {
                Ok(p) => ok(self.symbols(p.text_document.uri.as_str())),
                Err(r) => *r,
            },
            "textDocument/codeAction" => match params::<lt::CodeActionParams>(req) {
                Ok(p) => ok(self.code_actions(&p)),
                Err(r) => *r,
            },
            _ => Response::new_err(
                req.id.clone(),
                ErrorCode::MethodNotFound as i32,
                format!("unknown method {}", req.method),
            ),
        }
    }

    fn notification(&mut self, n: &Notification) {
        let p = &n.params;
        let uri = p
            .pointer("/textDocument/uri")
            .and_then(J::as_str)
            .unwrap_or_default()
            .to_owned();
        let version = p
            .pointer("/textDocument/version")
            .and_then(J::as_i64)
            .and_then(|v| i32::try_from(v).ok())
            .unwrap_or(0);
        match n.method.as_str() {
            "textDocument/didOpen" => {
                let Some(text) = p.pointer("/textDocument/text").and_then(J::as_str) else {
                    return;
                };
                let Some(path) = path_of(&uri) else {
                    return;
                };
                self.open(uri.clone(), path, text.to_owned(), version);
                self.generation += 1;
                self.publish(&uri);
            }
            "textDocument/didChange" => {
                // Full sync: the last change holds the whole text.
                let text = p
                    .get("contentChanges")
                    .and_then(J::as_array)
                    .and_then(|c| c.last())
                    .and_then(|c| c.get("text"))
                    .and_then(J::as_str);
                if let (Some(text), Some(doc)) = (text, self.documents.get(&uri)) {
                    let path = doc.path.clone();
                    self.open(uri.clone(), path, text.to_owned(), version);
                    self.publish(&uri);
                    self.changed(&uri);
                }
            }
            "textDocument/didSave" => {
                // The save's check replaces any pending or running one.
                self.generation += 1;
                self.due = None;
                self.again = None;
                self.forget();
                self.tree = None;
                self.check_composition(Some(&uri));
                self.publish_all();
            }
            "textDocument/didClose" => {
                if let Some(doc) = self.documents.remove(&uri) {
                    self.generation += 1;
                    self.buffers.remove(&doc.path);
                    self.outbox.push(publish(&uri, Vec::new(), None));
                }
            }
            "workspace/didChangeConfiguration" => {
                if let Some(o) = p.get("settings").and_then(|s| s.get("heatcap")) {
                    apply_options(&mut self.settings, o);
                    self.forget();
                }
            }
            _ => {}
        }
    }

    /// Mounts a buffer over the disk.
    fn open(&mut self, uri: String, path: PathBuf, text: String, version: i32) {
        // A buffer whose directory does not exist is read from nowhere.
        let _ = self.buffers.insert(&path, &text);
        self.documents.insert(
            uri,
            Document {
                path,
                text,
                version,
            },
        );
    }

    /// How files are read: the buffers over the disk.
    fn load_options(&self) -> LoadOptions {
        LoadOptions {
            overlay: self.buffers.clone(),
            ..LoadOptions::default()
        }
    }

    fn workspace(&mut self) -> Option<&Workspace> {
        if self.settings.environments.is_empty() {
            return None;
        }
        if self.workspace.is_none() {
            self.workspace = Some(
                Workspace::builder()
                    .load_options(self.load_options())
                    .environments(&self.settings.environments)
                    .open(),
            );
        }
        self.workspace.as_ref()
    }

    /// Drops what was read from the environments (and evaluated with them).
    fn forget(&mut self) {
        self.workspace = None;
        self.evaluated = None;
    }

    /// The templates of the project `file` is in (kept until a save).
    fn tree(&mut self, file: &Path) -> std::rc::Rc<editor::Tree> {
        let dir = editor::project_dir(
            &self.buffers,
            file,
            self.settings.template.as_deref(),
            &self.settings.environments,
        );
        match &self.tree {
            Some(t) if t.dir == dir => t.clone(),
            _ => {
                let t = std::rc::Rc::new(editor::Tree::scan(&self.buffers, &dir));
                self.tree = Some(t.clone());
                t
            }
        }
    }

    /// `validate` of one file, as `heatcap validate FILE` checks it.
    fn file_findings(&self, path: &Path) -> Vec<Diagnostic> {
        let opts = ValidateOptions {
            walk: WalkOptions::new(vec![path.to_path_buf()]),
            load: self.load_options(),
            selection: self.settings.selection.clone(),
            profile: Profile::Hot,
            environments: Vec::new(),
            max_nested_depth: crate::resolve::compose::MAX_NESTED_DEPTH,
            inline_suppressions: true,
        };
        validate(&opts).findings
    }

    /// Checks the composition now (see [`Server::composition_options`]).
    fn check_composition(&mut self, uri: Option<&str>) {
        if let Some(opts) = self.composition_options(uri) {
            self.composed = composition_findings(&opts);
        }
    }

    /// How to check the composition: of the root template when one is
    /// set, else of the template `uri` (when environments are given),
    /// with the buffers over the disk.
    fn composition_options(&self, uri: Option<&str>) -> Option<ValidateOptions> {
        if self.settings.environments.is_empty() {
            return None;
        }
        let root = match (
            &self.settings.template,
            uri.and_then(|u| self.documents.get(u)),
        ) {
            (Some(t), _) => t.clone(),
            (None, Some(doc)) if !is_environment_text(&doc.text) => doc.path.clone(),
            _ => return None,
        };
        Some(ValidateOptions {
            walk: WalkOptions::new(vec![root]),
            load: self.load_options(),
            selection: self.settings.selection.clone(),
            profile: Profile::Hot,
            environments: self.settings.environments.clone(),
            max_nested_depth: crate::resolve::compose::MAX_NESTED_DEPTH,
            inline_suppressions: true,
        })
    }

    /// Publishes the findings of every open buffer and of every file the
    /// composition reports or reported.
    fn publish_all(&mut self) {
        let uris: Vec<String> = self.documents.keys().cloned().collect();
        for uri in &uris {
            self.publish(uri);
        }
        let open: std::collections::HashSet<PathBuf> =
            self.documents.values().map(|d| d.path.clone()).collect();
        let mut others: Vec<PathBuf> = self
            .composed
            .keys()
            .chain(self.published.iter())
            .filter(|p| !open.contains(*p))
            .cloned()
            .collect();
        others.sort();
        others.dedup();
        for path in others {
            let found = self.composed.get(&path).cloned().unwrap_or_default();
            let text = self
                .buffers
                .read(&path)
                .map(|b| String::from_utf8_lossy(&b).into_owned())
                .unwrap_or_default();
            self.send(&path, &text, &found, None);
        }
    }

    /// Publishes the findings of the open buffer `uri`: its own, and the
    /// composition's in it.
    fn publish(&mut self, uri: &str) {
        let Some(doc) = self.documents.get(uri) else {
            return;
        };
        let (path, text, version) = (doc.path.clone(), doc.text.clone(), doc.version);
        let mut found: Vec<Diagnostic> = self
            .file_findings(&path)
            .into_iter()
            .filter(|d| absolute(&d.file).is_some_and(|p| p == path))
            .collect();
        found.extend(self.composed.get(&path).cloned().unwrap_or_default());
        let found = crate::diag::dedup(found);
        self.send(&path, &text, &found, Some(version));
    }

    fn send(&mut self, path: &Path, text: &str, found: &[Diagnostic], version: Option<i32>) {
        let lines = Lines::new(text, self.encoding);
        let diagnostics: Vec<J> = found
            .iter()
            .map(|d| to_lsp(d, &lines, self.encoding, &self.buffers))
            .collect();
        if diagnostics.is_empty() {
            self.published.remove(path);
        } else {
            self.published.insert(path.to_path_buf());
        }
        self.outbox
            .push(publish(&uri_of(path), diagnostics, version));
    }

    /// The open buffer at `uri` (or the file on disk), its tree, and the
    /// position in heatcap's terms.
    fn at(
        &self,
        p: &lt::TextDocumentPositionParams,
    ) -> Option<(PathBuf, String, crate::diag::Pos)> {
        let uri = p.text_document.uri.as_str();
        let (path, text) = if let Some(d) = self.documents.get(uri) {
            (d.path.clone(), d.text.clone())
        } else {
            let path = path_of(uri)?;
            let text = String::from_utf8(self.buffers.read(&path).ok()?).ok()?;
            (path, text)
        };
        let pos = Lines::new(&text, self.encoding).to_heatcap(p.position);
        Some((path, text, pos))
    }

    fn target(
        &self,
        p: &lt::TextDocumentPositionParams,
    ) -> Option<(
        PathBuf,
        String,
        crate::node::Node,
        editor::Target,
        crate::diag::Span,
    )> {
        let (path, text, pos) = self.at(p)?;
        let root =
            crate::load::parse_text(&text, &path.to_string_lossy(), &ParseOptions::default())
                .root?;
        let cursor = editor::locate(&root, pos)?;
        let target = editor::target(&root, &cursor)?;
        Some((path, text, root, target, cursor.span))
    }

    fn hover(&mut self, p: &lt::TextDocumentPositionParams) -> J {
        let Some((path, text, root, target, span)) = self.target(p) else {
            return J::Null;
        };
        let encoding = self.encoding;
        let template = self.settings.template.clone();
        if editor::wants_composition(&path, &root, &target, template.as_deref())
            && self.evaluated.is_none()
        {
            if let Some(t) = template {
                self.evaluated = Some(std::rc::Rc::new(editor::Composed::evaluate(
                    self.load_options(),
                    &self.settings.environments,
                    &t,
                )));
            }
        }
        let composed = self.evaluated.clone();
        let ws = self.workspace();
        match editor::hover(ws, composed.as_deref(), &path, &root, &target) {
            Some(md) => json!({
                "contents": {"kind": "markdown", "value": md},
                "range": Lines::new(&text, encoding).range(span),
            }),
            None => J::Null,
        }
    }

    fn definition(&mut self, p: &lt::TextDocumentPositionParams) -> J {
        let Some((path, _, root, target, _)) = self.target(p) else {
            return J::Null;
        };
        let encoding = self.encoding;
        let files = self.buffers.clone();
        let ws = self.workspace();
        let places = editor::definition(&files, ws, &path, &root, &target);
        let locations: Vec<J> = places
            .into_iter()
            .filter_map(|place| {
                let file = std::path::absolute(&place.file).ok()?;
                let range = match place.span {
                    Some(s) => {
                        let text = self.buffers.read(&file).ok()?;
                        Lines::new(&String::from_utf8_lossy(&text), encoding).range(s)
                    }
                    None => lt::Range::default(),
                };
                Some(json!({"uri": uri_of(&file), "range": range}))
            })
            .collect();
        J::Array(locations)
    }

    fn completion(&mut self, p: &lt::TextDocumentPositionParams) -> J {
        let Some((path, text, pos)) = self.at(p) else {
            return J::Null;
        };
        let encoding = self.encoding;
        let prefix = editor::context(&text, pos).prefix;
        let files = self.buffers.clone();
        let tree = editor::wants_tree(&text, pos).then(|| self.tree(&path));
        let ws = self.workspace();
        let items = editor::completions(&files, ws, tree.as_deref(), &path, &text, pos);
        let lines = Lines::new(&text, encoding);
        let start = crate::diag::Pos {
            line: pos.line,
            column: pos.column - u32::try_from(prefix.chars().count()).unwrap_or(0),
        };
        let range = lines.range(crate::diag::Span { start, end: pos });
        let items: Vec<J> = items
            .into_iter()
            .map(|c| {
                json!({
                    "label": c.label,
                    "kind": completion_kind(c.kind),
                    "detail": c.detail.map_or_else(|| c.kind.to_owned(), |d| format!("{}: {d}", c.kind)),
                    "textEdit": {"range": range, "newText": c.label},
                    "filterText": c.label,
                })
            })
            .collect();
        json!({"isIncomplete": false, "items": items})
    }

    fn symbols(&self, uri: &str) -> J {
        let text = match self.documents.get(uri) {
            Some(d) => d.text.clone(),
            None => match path_of(uri).and_then(|p| self.buffers.read(&p).ok()) {
                Some(b) => String::from_utf8_lossy(&b).into_owned(),
                None => return J::Null,
            },
        };
        let Some(root) = crate::load::parse_text(&text, uri, &ParseOptions::default()).root else {
            return J::Array(Vec::new());
        };
        let lines = Lines::new(&text, self.encoding);
        J::Array(
            editor::symbols(&root)
                .iter()
                .map(|s| symbol(s, &lines))
                .collect(),
        )
    }

    fn code_actions(&self, p: &lt::CodeActionParams) -> J {
        let uri = p.text_document.uri.as_str();
        let Some(doc) = self.documents.get(uri) else {
            return J::Array(Vec::new());
        };
        let lines: Vec<&str> = doc.text.split('\n').collect();
        let mut actions = Vec::new();
        for d in &p.context.diagnostics {
            let code = match &d.code {
                Some(lt::NumberOrString::String(c)) => c.clone(),
                _ => continue,
            };
            if let Some(fix) = editor::suggestion(&d.message) {
                actions.push(json!({
                    "title": format!("Replace with `{fix}`"),
                    "kind": "quickfix",
                    "diagnostics": [d],
                    "isPreferred": true,
                    "edit": {"changes": {uri: [{"range": d.range, "newText": fix}]}},
                }));
            }
            // The directive alone on the line above covers the finding's line.
            let line = d.range.start.line;
            let text = lines.get(line as usize).copied().unwrap_or("");
            let indent: String = text.chars().take_while(|c| *c == ' ').collect();
            actions.push(json!({
                "title": format!("Suppress {code} on this line (# heatcap: ignore[{code}])"),
                "kind": "quickfix",
                "diagnostics": [d],
                "edit": {"changes": {uri: [{
                    "range": {"start": {"line": line, "character": 0}, "end": {"line": line, "character": 0}},
                    "newText": format!("{indent}# heatcap: ignore[{code}]\n"),
                }]}},
            }));
        }
        J::Array(actions)
    }
}

/// `validate -e ENV... ROOT`'s findings, by (absolute) file.
fn composition_findings(opts: &ValidateOptions) -> HashMap<PathBuf, Vec<Diagnostic>> {
    let mut found: HashMap<PathBuf, Vec<Diagnostic>> = HashMap::new();
    for d in validate(opts).findings {
        if let Some(path) = absolute(&d.file) {
            found.entry(path).or_default().push(d);
        }
    }
    found
}

fn is_environment_text(text: &str) -> bool {
    !text.lines().any(|l| {
        l.starts_with("heat_template_version")
            || l.starts_with("HeatTemplateFormatVersion")
            || l.starts_with("AWSTemplateFormatVersion")
    })
}

/// A path of the settings, relative to the working directory, made
/// absolute (as `heatcap lsp -e` makes them).
fn absolute_path(p: &str) -> PathBuf {
    std::path::absolute(p).unwrap_or_else(|_| PathBuf::from(p))
}

/// A finding's file as an absolute path (as shown: relative to the working
/// directory).
fn absolute(file: &str) -> Option<PathBuf> {
    let abs = std::path::absolute(file).ok()?;
    Some(PathBuf::from(crate::walk::normalize(&abs)))
}

fn publish(uri: &str, diagnostics: Vec<J>, version: Option<i32>) -> Message {
    let mut params = json!({"uri": uri});
    params["diagnostics"] = J::Array(diagnostics);
    if let Some(v) = version {
        params["version"] = json!(v);
    }
    Message::Notification(Notification::new(
        "textDocument/publishDiagnostics".to_owned(),
        params,
    ))
}

fn to_lsp(d: &Diagnostic, lines: &Lines<'_>, encoding: Encoding, files: &FileOverlay) -> J {
    let range = d.span.map_or_else(lt::Range::default, |s| lines.range(s));
    let severity = match d.severity {
        Severity::Error => 1,
        Severity::Warning => 2,
        Severity::Info => 3,
    };
    let related: Vec<J> = d
        .related
        .iter()
        .filter_map(|r| {
            let file = absolute(&r.file)?;
            let range = match r.span {
                Some(s) => {
                    let text = files.read(&file).ok()?;
                    Lines::new(&String::from_utf8_lossy(&text), encoding).range(s)
                }
                None => lt::Range::default(),
            };
            Some(json!({"location": {"uri": uri_of(&file), "range": range}, "message": r.message}))
        })
        .collect();
    let mut out = json!({
        "range": range,
        "severity": severity,
        "code": d.code.0,
        "source": "heatcap",
        "message": d.message,
    });
    if !related.is_empty() {
        out["relatedInformation"] = J::Array(related);
    }
    out
}

fn completion_kind(kind: &str) -> u32 {
    match kind {
        "property" | "parameter key" | "resource key" | "output key" => 10, // Property
        "allowed value" | "version" => 12,                                  // Value
        "function" => 3,                                                    // Function
        "resource type" | "registry type" => 7,                             // Class
        "parameter" | "resource" => 6,                                      // Variable
        "attribute" => 5,                                                   // Field
        "section" => 14,                                                    // Keyword
        "template" => 17,                                                   // File
        _ => 1,
    }
}

fn symbol(s: &editor::Symbol, lines: &Lines<'_>) -> J {
    let kind = match s.kind {
        "section" => 19,   // Namespace? (Object = 19)
        "parameter" => 13, // Variable
        "resource" => 23,  // Struct
        "output" => 8,     // Field
        "condition" => 17, // Boolean
        _ => 20,           // Key
    };
    let mut out = json!({
        "name": s.name,
        "kind": kind,
        "range": lines.range(s.span),
        "selectionRange": lines.range(s.key_span),
    });
    if let Some(d) = &s.detail {
        out["detail"] = json!(d);
    }
    if !s.children.is_empty() {
        out["children"] = J::Array(s.children.iter().map(|c| symbol(c, lines)).collect());
    }
    out
}

#[cfg(test)]
mod tests;
