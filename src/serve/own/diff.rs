//! `GET|POST /heatcap/v1/diff`: `heatcap diff` over HTTP, the bytes the
//! command prints for the same two sides (`format=json`, the default, or
//! `heat`).
//!
//! GET takes the served root's files in the query, as the command takes
//! them: the new side is `template`, `environment`..., `plan`, `choose`...;
//! the old side is the same unless `from_template`, `from_environment`...
//! (when given, in place of `environment`), `from_plan`, `from_choose`...
//! (when given, in place of `choose`). `from` and `to` name git revisions
//! of the repository the served root is in (read from git's objects, as
//! `heatcap diff --from REV --to REV`): the old side's files at `from`
//! (else at `to`), the new side's at `to` (else the disk's). Answers at a
//! revision are computed for each request (a branch moves).
//!
//! POST takes `{"from": SIDE, "to": SIDE}`, each side either Heat's
//! preview body (`template`, `files`, `environment`, `environment_files`,
//! `parameters`, `stack_name`: read as `POST /v1/{tenant}/stacks/preview`
//! reads it, nothing from disk) or `{"served": {...}}`: a served root's
//! `template`, `environments`, `plan` and `choose` as GET takes them, and
//! an `environment` of the request's own (a mapping or its text; the
//! composition page's generated environment: its picks and values),
//! merged last as if it were a file in the root. `"interface": false`
//! leaves the interface section out (the composition page shows the
//! resources alone, and sooner).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use indexmap::IndexMap;
use serde_json::{Map, Value};

use super::{
    body, choice, json_text, kept, load_options, read_plan, text, Answer, Asked, Root, Shared,
};
use crate::load::{LoadCache, LoadOptions, Touched};
use crate::product::preview::{HeatContext, Preview};
use crate::report::{self, Format, Look};
use crate::vfs::FileOverlay;
use crate::walk::display;
use crate::workspace::{HeatRequest, BODY_TEMPLATE};
use crate::Workspace;

use super::super::fault::{json_response, Fault};

/// The name a served side's own `environment` is read under, in its
/// root: the composition page's generated environment
/// (`heatcap-environment.yaml`), which it stands for.
pub(crate) const REQUEST_ENVIRONMENT: &str = "heatcap-environment.yaml";

/// One side of the update, as the request gives it.
#[derive(Debug)]
enum Side {
    /// Files of a served root: the root template as the CLI would be given
    /// it, the environments in merge order, the choices, and the request's
    /// own environment (its path in the root, its text) merged last.
    Served {
        template: String,
        environments: Vec<PathBuf>,
        choices: IndexMap<String, String>,
        own: Option<(PathBuf, String)>,
        /// The plan file its environments come from, if any.
        plan: Option<PathBuf>,
        /// Its files at a git revision, read instead of the disk's.
        files: Option<FileOverlay>,
    },
    /// Heat's preview body: its files alone.
    Body(HeatRequest),
}

impl Side {
    /// The side opened, with its create preview, its root stack named
    /// `name` (what the command's `preview_of` computes for a side).
    fn open(self, mut load: LoadOptions, depth: usize, name: &str) -> Opened {
        let (template, environments, choices) = match self {
            Side::Served {
                template,
                environments,
                choices,
                own,
                files,
                ..
            } => {
                if let Some(files) = files {
                    load.overlay = files;
                }
                if let Some((path, text)) = own {
                    // The path's directory is the root's: it exists.
                    let _ = load.overlay.insert(&path, &text);
                }
                (template, environments, choices)
            }
            Side::Body(request) => {
                let (memory, environments) = request.in_memory();
                load = memory;
                (BODY_TEMPLATE.to_owned(), environments, IndexMap::new())
            }
        };
        let workspace = Workspace::builder()
            .load_options(load)
            .environments(&environments)
            .roots(std::slice::from_ref(&template))
            .choices(choices)
            .max_nested_depth(depth)
            .open();
        let preview = workspace.preview(&template, name);
        Opened {
            workspace,
            root: template,
            preview,
        }
    }

    /// The stack name the side suggests: a served template's file name
    /// without its extension, a body's `stack_name`.
    fn name(&self, body: Option<&Map<String, Value>>) -> Option<String> {
        match self {
            Side::Served { template, .. } => Path::new(template)
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned()),
            Side::Body(_) => body
                .and_then(|b| b.get("stack_name"))
                .and_then(Value::as_str)
                .map(str::to_owned),
        }
    }
}

/// One side as the command opens it: its workspace (for the interface
/// section), its root template as given, and its create preview.
pub(crate) struct Opened {
    workspace: Workspace,
    root: String,
    preview: Preview,
}

/// Served sides (their workspaces and previews), kept while every file each was computed from
/// is unchanged: the composition page compares every pick and value with
/// the same deployed side, and a person goes back and forth between
/// picks. Heat's bodies are computed for each request.
#[derive(Default)]
pub(crate) struct Sides(Mutex<HashMap<String, (Touched, Arc<Opened>)>>);

/// Most sides kept (each holds its workspace); past it the store starts
/// again.
const MAX_SIDES: usize = 16;

impl Sides {
    fn lock(&self) -> MutexGuard<'_, HashMap<String, (Touched, Arc<Opened>)>> {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// `side` opened: the kept one while its files are unchanged, else
    /// opened with a load that notes the files it reads, and kept.
    fn open(
        &self,
        side: Side,
        cache: &LoadCache,
        mut load: LoadOptions,
        depth: usize,
        name: &str,
    ) -> Arc<Opened> {
        let plan = match &side {
            Side::Served { plan, .. } => plan.clone(),
            Side::Body(_) => return Arc::new(side.open(load, depth, name)),
        };
        let key = format!("{depth}\0{name}\0{side:?}");
        let found = self.lock().get(&key).cloned();
        if let Some((touched, preview)) = found {
            if touched.unchanged() {
                return preview;
            }
        }
        let (tracking, touched) = cache.tracking();
        if let Some(plan) = &plan {
            tracking.note(plan);
        }
        load.cache = Some(tracking);
        let opened = Arc::new(side.open(load, depth, name));
        let mut kept = self.lock();
        if kept.len() >= MAX_SIDES {
            kept.clear();
        }
        kept.insert(key, (touched, Arc::clone(&opened)));
        opened
    }
}

/// The answer's format: `heat` or not.
fn heat_format(asked: &Asked) -> Result<bool, Fault> {
    Ok(asked.format(&["json", "heat"])? == "heat")
}

/// The update from `old` to `new` as the command prints it (its interface
/// section without the info findings, as without `--all`; none when
/// `interface` is false).
fn answered(old: &Opened, new: &Opened, heat: bool, interface: bool) -> Result<String, Fault> {
    let mut d = Workspace::diff(&old.preview, &new.preview);
    if interface && !heat {
        d.interface = Workspace::interface(&old.workspace, &old.root, &new.workspace, &new.root)
            .without_info();
    }
    if heat {
        // `diff --format heat`'s context: the offline one, no clock.
        let mut cx = HeatContext::offline();
        cx.now = String::new();
        json_text(&Workspace::diff_heat_document(&d, &cx))
    } else {
        text(|out| report::render_diff(out, &d, Format::Json, Look::default()))
    }
}

/// `choose` values (`TYPE=PATH`, the path relative to `root`).
fn choices(root: &Root, raw: &[&str]) -> Result<IndexMap<String, String>, Fault> {
    let mut chosen = IndexMap::new();
    for c in raw {
        let (t, p) = choice(c)?;
        chosen.insert(t.to_owned(), display(&root.path(p)?));
    }
    Ok(chosen)
}

/// `GET /heatcap/v1/diff`: both sides from the served root (see the
/// module's documentation); kept whole while its files are unchanged.
pub(super) async fn get(State(shared): State<Shared>, asked: Asked) -> Answer {
    let heat = heat_format(&asked)?;
    let revisions = (
        asked.one("from").map(str::to_owned),
        asked.one("to").map(str::to_owned),
    );
    let root = asked.root()?.clone();
    let template = asked.template(&shared, true)?.unwrap_or_default();
    let environments = asked.environments(&shared)?;
    let chosen = choices(&root, &body::all(&asked.pairs, "choose"))?;
    // The old side: its plan's environments (else the new side's plan's),
    // the service's `-e`, its own environments (else the new side's).
    let from_plan = match asked.one("from_plan") {
        Some(rel) => Some(read_plan(&shared, root.path(rel)?).await?),
        None => None,
    };
    let from_envs = body::all(&asked.pairs, "from_environment");
    let mut from_environments: Vec<PathBuf> = from_plan
        .iter()
        .flat_map(|p| p.environments.iter().map(|e| PathBuf::from(&e.path)))
        .collect();
    if from_envs.is_empty() {
        from_environments.extend(environments.iter().cloned());
    } else {
        from_environments.extend(shared.config.environments.iter().cloned());
        for e in from_envs {
            from_environments.push(root.path(e)?);
        }
    }
    let from_template = match asked.one("from_template") {
        Some(rel) => display(&root.path(rel)?),
        None => from_plan
            .as_ref()
            .and_then(|p| p.template.as_ref().map(|(t, _)| t.clone()))
            .unwrap_or_else(|| template.clone()),
    };
    let from_raw = body::all(&asked.pairs, "from_choose");
    let from_chosen = if from_raw.is_empty() {
        chosen.clone()
    } else {
        choices(&root, &from_raw)?
    };
    let new = Side::Served {
        template,
        environments,
        choices: chosen,
        own: None,
        plan: None,
        files: None,
    };
    let old = Side::Served {
        template: from_template,
        environments: from_environments,
        choices: from_chosen,
        own: None,
        plan: None,
        files: None,
    };
    let name = match asked.one("stack_name") {
        Some(n) => n.to_owned(),
        None => new.name(None).unwrap_or_default(),
    };
    let depth = shared.config.max_nested_depth;
    if revisions.0.is_some() || revisions.1.is_some() {
        let sides = (old, new, name);
        return at_revisions(&shared, &root, revisions, sides, heat).await;
    }
    let mut read = asked.read.clone();
    if let Some(rel) = asked.one("from_plan") {
        read.push(root.path(rel)?);
    }
    kept(&shared, asked.key.clone(), read, move |load| {
        let also = load.clone();
        let (old, new) = rayon::join(
            || old.open(load, depth, &name),
            || new.open(also, depth, &name),
        );
        answered(&old, &new, heat, true)
    })
    .await
}

/// GET's answer with `from`/`to`: the old side's files at `from` (else at
/// `to`), the new side's at `to` (else the disk's), read from git's
/// objects for each request (a branch moves: nothing is kept).
async fn at_revisions(
    shared: &Shared,
    root: &Root,
    revisions: (Option<String>, Option<String>),
    sides: (Side, Side, String),
    heat: bool,
) -> Answer {
    let (mut old, mut new, name) = sides;
    let (real, load) = (root.real.clone(), load_options(shared));
    let max_chars = load.max_size;
    let depth = shared.config.max_nested_depth;
    let body = shared
        .blocking(move || {
            let at = |rev: &Option<String>| {
                rev.as_deref()
                    .map(|r| crate::git::tree_at(&real, r, max_chars))
                    .transpose()
                    .map_err(|e| Fault::bad_request(e.to_string()))
            };
            let to = at(&revisions.1)?;
            let from = match &revisions.0 {
                Some(_) => at(&revisions.0)?,
                None => to.clone(),
            };
            for (side, files) in [(&mut old, from), (&mut new, to)] {
                if let Side::Served { files: f, .. } = side {
                    *f = files;
                }
            }
            let also = load.clone();
            let (old, new) = rayon::join(
                || old.open(load, depth, &name),
                || new.open(also, depth, &name),
            );
            answered(&old, &new, heat, true)
        })
        .await??;
    Ok(json_response(StatusCode::OK, body))
}

/// `POST /heatcap/v1/diff`: `{"from": SIDE, "to": SIDE}` (see the
/// module's documentation); `format`, `stack_name` and `root` (the served
/// sides' root unless a side names its own) in the query.
pub(super) async fn post(
    State(shared): State<Shared>,
    asked: Asked,
    headers: HeaderMap,
    bytes: Bytes,
) -> Answer {
    let heat = heat_format(&asked)?;
    let data = body::json_body(&headers, &bytes)?.ok_or_else(body::no_body)?;
    let interface = match data.get("interface") {
        None | Some(Value::Null) => true,
        Some(Value::Bool(b)) => *b,
        Some(_) => return Err(Fault::bad_request("`interface` is true or false")),
    };
    let mut sides = Vec::new();
    for key in ["from", "to"] {
        let side = match data.get(key) {
            Some(Value::Object(m)) => m,
            Some(_) => {
                return Err(Fault::bad_request(format!(
                    "`{key}`: a side is an object (Heat's preview body, or {{\"served\": {{...}}}})"
                )))
            }
            None => return Err(Fault::bad_request(format!("`{key}` is required"))),
        };
        sides.push((side_of(&shared, &asked, side).await?, side));
    }
    let name = match asked.one("stack_name") {
        Some(n) => n.to_owned(),
        None => sides
            .iter()
            .rev()
            .find_map(|(s, b)| s.name(Some(b)))
            .ok_or_else(|| Fault::bad_request("No stack name specified"))?,
    };
    let mut sides = sides.into_iter().map(|(s, _)| s);
    let (Some(old), Some(new)) = (sides.next(), sides.next()) else {
        return Err(Fault::bad_request("`from` and `to` are required"));
    };
    let depth = shared.config.max_nested_depth;
    let load = load_options(&shared);
    let (answers, cache) = (Arc::clone(&shared.answers), shared.cache.clone());
    let body = shared
        .blocking(move || {
            let sides = &answers.1;
            let old = sides.open(old, &cache, load.clone(), depth, &name);
            let new = sides.open(new, &cache, load, depth, &name);
            answered(&old, &new, heat, interface)
        })
        .await??;
    Ok(json_response(StatusCode::OK, body))
}

/// One side of a POST body.
async fn side_of(shared: &Shared, asked: &Asked, side: &Map<String, Value>) -> Result<Side, Fault> {
    let Some(served) = side.get("served") else {
        return Ok(Side::Body(super::super::heat::instantiation(side)?));
    };
    let Value::Object(served) = served else {
        return Err(Fault::bad_request("`served` is an object"));
    };
    let string = |key: &str| -> Result<Option<&str>, Fault> {
        match served.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s)),
            Some(_) => Err(Fault::bad_request(format!("`served.{key}` is a string"))),
        }
    };
    let root = match string("root")? {
        Some(name) => shared.roots.pick(Some(name))?.clone(),
        None => asked.root()?.clone(),
    };
    let plan_file = string("plan")?.map(|rel| root.path(rel)).transpose()?;
    let plan = match &plan_file {
        Some(path) => Some(read_plan(shared, path.clone()).await?),
        None => None,
    };
    let mut environments: Vec<PathBuf> = match &plan {
        Some(p) => p
            .environments
            .iter()
            .map(|e| PathBuf::from(&e.path))
            .collect(),
        None => shared.config.plan_environments.clone(),
    };
    environments.extend(shared.config.environments.iter().cloned());
    match served.get("environments") {
        None | Some(Value::Null) => {}
        Some(Value::Array(list)) => {
            for e in list {
                let Value::String(rel) = e else {
                    return Err(Fault::bad_request(
                        "`served.environments` is a list of paths",
                    ));
                };
                environments.push(root.path(rel)?);
            }
        }
        Some(_) => {
            return Err(Fault::bad_request(
                "`served.environments` is a list of paths",
            ))
        }
    }
    let template = match string("template")? {
        Some(rel) => display(&root.path(rel)?),
        None => plan
            .as_ref()
            .and_then(|p| p.template.as_ref().map(|(t, _)| t.clone()))
            .or_else(|| shared.config.template.clone())
            .ok_or_else(|| Fault::bad_request("`served.template` is required"))?,
    };
    let mut chosen = IndexMap::new();
    match served.get("choose") {
        None | Some(Value::Null) => {}
        Some(Value::Object(m)) => {
            for (t, p) in m {
                match p {
                    Value::String(p) if !t.is_empty() && !p.is_empty() => {
                        chosen.insert(t.clone(), display(&root.path(p)?));
                    }
                    _ => return Err(Fault::bad_request("`served.choose` maps a type to a path")),
                }
            }
        }
        Some(_) => return Err(Fault::bad_request("`served.choose` maps a type to a path")),
    }
    let own = match served.get("environment") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(Value::Object(m)) => Some(crate::encode::json::to_string(&Value::Object(m.clone()))),
        Some(_) => {
            return Err(Fault::bad_request(
                "`served.environment` is a mapping or its text",
            ))
        }
    };
    let own = own.map(|text| (root.shown.join(REQUEST_ENVIRONMENT), text));
    if let Some((path, _)) = &own {
        environments.push(path.clone());
    }
    Ok(Side::Served {
        template,
        environments,
        choices: chosen,
        own,
        plan: plan_file,
        files: None,
    })
}
