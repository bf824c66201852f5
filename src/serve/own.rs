//! heatcap's own answers under `/heatcap/v1/` (a path Heat's API cannot
//! take): the commands' JSON outputs over the served roots. Every path in
//! a request is relative to a root (`root=NAME`, the first root when
//! absent); `..`, absolute paths, URLs and links out of a root are
//! refused before anything is read, and the loader itself refuses any file
//! outside the roots that a template or an environment names.

use std::path::{Component, Path, PathBuf};

use axum::body::Bytes;
use axum::extract::{FromRequestParts, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use indexmap::IndexMap;

use super::body::{self, all, last};
use super::fault::{json_response, Fault};
use super::Shared;
use crate::load::plan::Plan;
use crate::load::LoadOptions;
use crate::query::Condition;
use crate::report::{self, Format, Look};
use crate::walk::{display, WalkOptions};
use crate::workspace::{
    heat_resource_tree, open_plan, plan_parameter_defaults, plan_requirements,
    validate as run_validate, ValidateOptions, WorkspaceBuilder, BODY_TEMPLATE,
};
use crate::Workspace;

mod diff;

/// The served directories, each with a name requests use.
#[derive(Debug, Default)]
pub(crate) struct Roots {
    list: Vec<Root>,
}

#[derive(Debug, Clone)]
pub(crate) struct Root {
    /// The directory's name (made unique).
    pub name: String,
    /// As given on the command line (paths in answers start with it).
    pub shown: PathBuf,
    /// Its real path (links resolved).
    pub real: PathBuf,
}

impl Roots {
    pub(crate) fn new(dirs: &[PathBuf]) -> Roots {
        let mut list: Vec<Root> = Vec::new();
        for d in dirs {
            let real = std::fs::canonicalize(d).unwrap_or_else(|_| d.clone());
            let base = real
                .file_name()
                .map_or_else(|| "root".to_owned(), |n| n.to_string_lossy().into_owned());
            let mut name = base.clone();
            let mut n = 2;
            while list.iter().any(|r| r.name == name) {
                name = format!("{base}-{n}");
                n += 1;
            }
            list.push(Root {
                name,
                shown: d.clone(),
                real,
            });
        }
        Roots { list }
    }

    /// The real paths, which the loader confines reads to.
    pub(crate) fn real_paths(&self) -> Vec<PathBuf> {
        self.list.iter().map(|r| r.real.clone()).collect()
    }

    pub(crate) fn pick(&self, name: Option<&str>) -> Result<&Root, Fault> {
        match name {
            None => self.list.first().ok_or_else(|| {
                Fault::not_found(
                    "NotFound",
                    "no root is served (start heatcap serve with --root DIR)",
                )
            }),
            Some(n) => self.list.iter().find(|r| r.name == n).ok_or_else(|| {
                Fault::not_found("NotFound", format!("no served root is named `{n}`"))
            }),
        }
    }
}

impl Root {
    /// `rel` inside this root, as the CLI would be given it (the root as
    /// given, joined with `rel`); refused when it could leave the root.
    pub(crate) fn path(&self, rel: &str) -> Result<PathBuf, Fault> {
        confined(&self.shown, &self.real, rel)
    }
}

/// `rel` joined to `shown`, refused (400 for a URL, 403 for anything that
/// leaves the root: absolute, `..`, a link whose target is outside).
fn confined(shown: &Path, root_real: &Path, rel: &str) -> Result<PathBuf, Fault> {
    if rel.contains("://") {
        return Err(Fault::bad_request(format!(
            "`{rel}`: a URL; give a path relative to the served root"
        )));
    }
    let p = Path::new(rel);
    let leaves = p.is_absolute()
        || rel.starts_with('~')
        || p.components()
            .any(|c| !matches!(c, Component::Normal(_) | Component::CurDir));
    if rel.is_empty() || leaves || rel.contains('\0') {
        return Err(Fault::forbidden(format!(
            "`{rel}`: paths are relative to the served root and stay inside it"
        )));
    }
    let joined = shown.join(p);
    if let Ok(target) = std::fs::canonicalize(&joined) {
        if !target.starts_with(root_real) {
            return Err(Fault::forbidden(format!(
                "`{rel}` leads outside the served root"
            )));
        }
    }
    Ok(joined)
}

pub(crate) fn router() -> Router<Shared> {
    Router::new()
        .route("/roots", get(roots))
        .route("/index", get(index))
        .route("/capabilities/find", get(find))
        .route("/capabilities/summary", get(summary))
        .route("/options", get(options))
        .route("/resolve", get(resolve).post(resolve))
        .route("/parameters", get(parameters).post(parameters))
        .route("/validate", get(validate))
        .route("/export", get(export))
        .route("/preview", get(preview))
        .route("/diff", get(diff::get).post(diff::post))
        .route("/catalogue", get(catalogue))
        .route("/plans", get(plans))
        .route("/openapi.json", get(openapi))
}

/// The query, the root it names and its relative paths made real: the
/// extractor every handler starts from (a bad query is its fault).
struct Asked {
    pairs: Vec<(String, String)>,
    /// The root named (or the first), or why there is none: a fault only
    /// for the routes that read the roots.
    root: Result<Root, Fault>,
    /// The request's path and query: the key a kept answer is stored under.
    key: String,
    /// The request's `plan` (relative to the root) read as `--plan` reads
    /// it, or why it cannot be used: in place of `serve --plan`'s.
    plan: Option<Result<Plan, Fault>>,
    /// The plan file read, which a kept answer depends on too.
    read: Vec<PathBuf>,
}

impl FromRequestParts<Shared> for Asked {
    type Rejection = Fault;

    async fn from_request_parts(parts: &mut Parts, shared: &Shared) -> Result<Asked, Fault> {
        let query = parts.uri.query();
        let pairs = body::query_pairs(query);
        let root = shared.roots.pick(last(&pairs, "root")).cloned();
        let key = format!("{}?{}", parts.uri.path(), query.unwrap_or_default());
        let (plan, read) = match last(&pairs, "plan") {
            None => (None, Vec::new()),
            Some(rel) => match root
                .as_ref()
                .map_err(Clone::clone)
                .and_then(|r| r.path(rel))
            {
                Ok(path) => (Some(read_plan(shared, path.clone()).await), vec![path]),
                Err(fault) => (Some(Err(fault)), Vec::new()),
            },
        };
        Ok(Asked {
            pairs,
            root,
            key,
            plan,
            read,
        })
    }
}

/// The plan at `path` as `--plan` reads it (its environments, its
/// template); a 404 when there is no such file, a 400 naming the first
/// error when tripleo-common could not deploy it (as `serve --plan`
/// refuses to serve it).
async fn read_plan(shared: &Shared, path: PathBuf) -> Result<Plan, Fault> {
    let load = load_options(shared);
    shared
        .blocking(move || {
            if !path.is_file() {
                return Err(Fault::not_found(
                    "NotFound",
                    format!("no plan `{}` in the served root", display(&path)),
                ));
            }
            let plan = open_plan(&path, &load);
            let requirements = plan_requirements(&plan, &load);
            let error = plan
                .diagnostics
                .iter()
                .chain(&requirements)
                .find(|d| d.severity == crate::diag::Severity::Error);
            match error {
                Some(e) => Err(Fault::bad_request(format!(
                    "the plan `{}` has errors: {e}",
                    display(&path)
                ))),
                None => Ok(plan),
            }
        })
        .await?
}

impl Asked {
    fn root(&self) -> Result<&Root, Fault> {
        self.root.as_ref().map_err(Clone::clone)
    }

    fn one(&self, key: &str) -> Option<&str> {
        last(&self.pairs, key)
    }

    fn required(&self, key: &str) -> Result<PathBuf, Fault> {
        let rel = self
            .one(key)
            .ok_or_else(|| Fault::bad_request(format!("`{key}` is required")))?;
        self.root()?.path(rel)
    }

    /// The request's plan, when it names one.
    fn plan(&self) -> Result<Option<&Plan>, Fault> {
        self.plan
            .as_ref()
            .map(|p| p.as_ref().map_err(Clone::clone))
            .transpose()
    }

    /// The root template: the query's `template` (relative to the root),
    /// else the request's plan's, else `serve --plan`'s; a 400 when
    /// `required` and there is none.
    fn template(&self, shared: &Shared, required: bool) -> Result<Option<String>, Fault> {
        if self.one("template").is_some() {
            return Ok(Some(display(&self.required("template")?)));
        }
        let planned = match self.plan()? {
            Some(plan) => plan.template.as_ref().map(|(t, _)| t.clone()),
            None => shared.config.template.clone(),
        };
        match planned {
            Some(t) => Ok(Some(t)),
            None if required => Err(Fault::bad_request("`template` is required")),
            None => Ok(None),
        }
    }

    fn paths(&self, key: &str) -> Result<Vec<PathBuf>, Fault> {
        all(&self.pairs, key)
            .into_iter()
            .map(|r| self.root()?.path(r))
            .collect()
    }

    /// The walk's roots: the paths asked, else the root itself.
    fn walked(&self) -> Result<Vec<PathBuf>, Fault> {
        let paths = self.paths("path")?;
        Ok(if paths.is_empty() {
            vec![self.root()?.shown.clone()]
        } else {
            paths
        })
    }

    fn flag(&self, key: &str) -> Result<bool, Fault> {
        body::boolean(self.one(key))
    }

    /// `format`, one of `allowed` (the first when absent).
    fn format<'a>(&self, allowed: &[&'a str]) -> Result<&'a str, Fault> {
        match self.one("format") {
            None => Ok(allowed[0]),
            Some(f) => allowed.iter().copied().find(|a| *a == f).ok_or_else(|| {
                Fault::bad_request(format!("format `{f}`: {}", allowed.join(" or ")))
            }),
        }
    }

    /// The plan's environments (the request's plan, else `serve
    /// --plan`'s), the service's `-e` ones, then the request's: `--plan
    /// PLAN -e ENV...`.
    fn environments(&self, shared: &Shared) -> Result<Vec<PathBuf>, Fault> {
        let mut envs = match self.plan()? {
            Some(plan) => plan
                .environments
                .iter()
                .map(|e| PathBuf::from(&e.path))
                .collect(),
            None => shared.config.plan_environments.clone(),
        };
        envs.extend(shared.config.environments.iter().cloned());
        envs.extend(self.paths("environment")?);
        Ok(envs)
    }

    fn walk(&self) -> Result<WalkOptions, Fault> {
        let w = WalkOptions::new(self.walked()?);
        Ok(if self.flag("recursive")? {
            w.recursive()
        } else {
            w
        })
    }
}

/// Reads confined to the served roots (and the service's environments'
/// directories, which the operator chose).
pub(crate) fn load_options(shared: &Shared) -> LoadOptions {
    let mut allowed = shared.roots.real_paths();
    // The plan's directory, which the operator chose.
    allowed.extend(
        shared
            .config
            .plan
            .iter()
            .filter_map(|p| std::fs::canonicalize(p).ok())
            .filter_map(|p| p.parent().map(Path::to_path_buf)),
    );
    let environments = shared
        .config
        .plan_environments
        .iter()
        .chain(&shared.config.environments);
    allowed.extend(environments.filter_map(|e| {
        std::fs::canonicalize(e)
            .ok()
            .and_then(|p| p.parent().map(Path::to_path_buf))
    }));
    LoadOptions {
        confine: Some(allowed.into()),
        cache: Some(shared.cache.clone()),
        ..LoadOptions::default()
    }
}

/// A renderer's bytes as text.
fn text(f: impl FnOnce(&mut Vec<u8>) -> std::io::Result<()>) -> Result<String, Fault> {
    let mut out = Vec::new();
    f(&mut out).map_err(|e| Fault::internal("IOError", e.to_string()))?;
    String::from_utf8(out).map_err(|e| Fault::internal("UnicodeError", e.to_string()))
}

/// A JSON value as text (Python's spacing, as the CLI writes it).
fn json_text(value: &impl serde::Serialize) -> Result<String, Fault> {
    text(|out| report::json::write_line(out, value))
}

/// The answer `f` computes (with reads confined to the roots), on the
/// blocking pool, as a 200 JSON answer: every handler's last step.
async fn computed<F>(shared: &Shared, f: F) -> Answer
where
    F: FnOnce(LoadOptions) -> Result<String, Fault> + Send + 'static,
{
    let load = load_options(shared);
    let body = shared.blocking(move || f(load)).await??;
    Ok(json_response(StatusCode::OK, body))
}

/// One kept answer: the files it was computed from, and its body.
type Kept = (crate::load::Touched, String);

/// Answers kept while every file they were computed from is unchanged on
/// disk (the routes that walk no directory: a new file in a directory is
/// seen only by a walk).
#[derive(Default)]
pub(crate) struct Answers(
    std::sync::Mutex<std::collections::HashMap<String, Kept>>,
    diff::Sides,
);

/// Most answers kept; past it the store starts again.
const MAX_ANSWERS: usize = 256;

impl Answers {
    fn lock(&self) -> std::sync::MutexGuard<'_, std::collections::HashMap<String, Kept>> {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// The answer to `key` (the request's path and query): the kept one when
/// no file it was computed from changed, else computed by `f` with a load
/// that notes the files it reads, and kept.
async fn kept<F>(shared: &Shared, key: String, read: Vec<PathBuf>, f: F) -> Answer
where
    F: FnOnce(LoadOptions) -> Result<String, Fault> + Send + 'static,
{
    let found = shared.answers.lock().get(&key).cloned();
    if let Some((touched, body)) = found {
        let still = shared.blocking(move || touched.unchanged()).await?;
        if still {
            return Ok(json_response(StatusCode::OK, body));
        }
    }
    let (cache, touched) = shared.cache.tracking();
    for file in &read {
        cache.note(file);
    }
    let mut load = load_options(shared);
    load.cache = Some(cache);
    let body = shared.blocking(move || f(load)).await??;
    let mut answers = shared.answers.lock();
    if answers.len() >= MAX_ANSWERS {
        answers.clear();
    }
    answers.insert(key, (touched, body.clone()));
    Ok(json_response(StatusCode::OK, body))
}

type Answer = Result<Response, Fault>;

async fn roots(State(shared): State<Shared>) -> Answer {
    let list: Vec<serde_json::Value> = shared
        .roots
        .list
        .iter()
        .map(|r| serde_json::json!({"name": r.name, "path": display(&r.shown)}))
        .collect();
    let body = json_text(&serde_json::json!({ "roots": list }))?;
    Ok(json_response(StatusCode::OK, body))
}

/// `index [PATH]... [-r] [--declared-only]`.
async fn index(State(shared): State<Shared>, asked: Asked) -> Answer {
    let walk = asked.walk()?;
    let declared_only = asked.flag("declared_only")?;
    computed(&shared, move |load| {
        let ws = Workspace::builder()
            .declared_only(declared_only)
            .load_options(load)
            .walk(walk)
            .open();
        text(|out| report::render_index(out, &ws.index(), Format::Json, Look::default()))
    })
    .await
}

/// `capabilities-find -c KEY=VALUE... [PATH]... [-r] [--declared-only]`.
async fn find(State(shared): State<Shared>, asked: Asked) -> Answer {
    let conditions: Vec<Condition> = all(&asked.pairs, "c")
        .into_iter()
        .map(|c| {
            Condition::parse(c)
                .ok_or_else(|| Fault::bad_request(format!("c takes KEY=VALUE, got `{c}`")))
        })
        .collect::<Result<_, _>>()?;
    let walk = asked.walk()?;
    let declared_only = asked.flag("declared_only")?;
    computed(&shared, move |load| {
        let ws = Workspace::builder()
            .declared_only_for(declared_only, &conditions)
            .load_options(load)
            .walk(walk)
            .prefilter("capabilities")
            .open();
        let matches = ws.find(&conditions);
        text(|out| report::render_find(out, &matches, Format::Json, Look::default()))
    })
    .await
}

/// `template-capabilities [PATH]... [-e ENV]... [-r] [--by-type]
/// [--declared-only]`.
async fn summary(State(shared): State<Shared>, asked: Asked) -> Answer {
    let walk = asked.walk()?;
    let envs = asked.environments(&shared)?;
    let by_type = asked.flag("by_type")?;
    let declared_only = asked.flag("declared_only")?;
    computed(&shared, move |load| {
        let ws = Workspace::builder()
            .declared_only(declared_only)
            .load_options(load)
            .walk(walk)
            .environments(&envs)
            .registry_templates()
            .open();
        if by_type {
            text(|out| report::render_by_type(out, &ws.by_type(), Format::Json, Look::default()))
        } else {
            text(|out| report::render_summary(out, &ws.summary(), Format::Json, Look::default()))
        }
    })
    .await
}

/// `options -e ENV... [--templates DIR]... [--declared-only]`: kept whole
/// while its files are unchanged when it walks no directory (no
/// `templates`), as `parameters` and `resolve` are.
async fn options(State(shared): State<Shared>, asked: Asked) -> Answer {
    let envs = asked.environments(&shared)?;
    let dirs = asked.paths("templates")?;
    let declared_only = asked.flag("declared_only")?;
    let walks = !dirs.is_empty();
    let f = move |load| {
        let ws = Workspace::builder()
            .declared_only(declared_only)
            .load_options(load)
            .environments(&envs)
            .open();
        let offered = ws.options(&dirs);
        text(|out| report::render_options(out, &offered, Format::Json, Look::default()))
    };
    if walks {
        computed(&shared, f).await
    } else {
        kept(&shared, asked.key, asked.read, f).await
    }
}

/// The composition a composing route answers about: the served roots'
/// files (the query's `template` and `environment`s), or a request body.
struct Composed {
    load: LoadOptions,
    environments: Vec<PathBuf>,
    root: Option<String>,
}

impl Composed {
    fn builder(&self, depth: usize) -> WorkspaceBuilder {
        Workspace::builder()
            .load_options(self.load.clone())
            .environments(&self.environments)
            .roots(self.root.as_slice())
            .max_nested_depth(depth)
    }
}

/// Where a composing route's files come from.
enum Source {
    /// The served roots: the environments, and the root template as the
    /// CLI would be given it.
    Served(Vec<PathBuf>, Option<String>),
    /// A POST body as Heat's validate takes it (`template`, `files`,
    /// `environment`, `environment_files`, `parameters`): the template is
    /// read as `<template>`, every other file by its `files` key, and
    /// nothing from disk.
    Body(Composed),
}

impl Source {
    /// GET: the served roots (`template` required or not); POST: the body.
    fn of(
        shared: &Shared,
        asked: &Asked,
        method: &Method,
        headers: &HeaderMap,
        bytes: &[u8],
        template_required: bool,
    ) -> Result<Source, Fault> {
        if method == Method::POST {
            let data = body::json_body(headers, bytes)?.ok_or_else(body::no_body)?;
            let (load, environments) = super::heat::instantiation(&data)?.in_memory();
            return Ok(Source::Body(Composed {
                load,
                environments,
                root: Some(BODY_TEMPLATE.to_owned()),
            }));
        }
        let root = asked.template(shared, template_required)?;
        Ok(Source::Served(asked.environments(shared)?, root))
    }

    /// A path the query names (`choose=TYPE=PATH`): relative to the root,
    /// or a `files` key of the body.
    fn path(&self, asked: &Asked, p: &str) -> Result<String, Fault> {
        match self {
            Source::Served(..) => Ok(display(&asked.root()?.path(p)?)),
            Source::Body(_) => Ok(p.to_owned()),
        }
    }

    /// The answer `f` computes: kept while the served files are unchanged,
    /// or computed from the body.
    async fn answer<F>(self, shared: &Shared, asked: Asked, f: F) -> Answer
    where
        F: FnOnce(Composed) -> Result<String, Fault> + Send + 'static,
    {
        match self {
            Source::Served(environments, root) => {
                kept(shared, asked.key, asked.read, move |load| {
                    f(Composed {
                        load,
                        environments,
                        root,
                    })
                })
                .await
            }
            Source::Body(composed) => {
                let body = shared.blocking(move || f(composed)).await??;
                Ok(json_response(StatusCode::OK, body))
            }
        }
    }
}

/// `resolve [-t TEMPLATE] -e ENV... [--type T [--resource R]] [--all]`;
/// POST: over the body's template and environments.
async fn resolve(
    State(shared): State<Shared>,
    method: Method,
    asked: Asked,
    headers: HeaderMap,
    bytes: Bytes,
) -> Answer {
    let source = Source::of(&shared, &asked, &method, &headers, &bytes, false)?;
    let type_name = asked.one("type").map(str::to_owned);
    let resource = asked.one("resource").map(str::to_owned);
    let show_all = asked.flag("all")? || type_name.is_some();
    let depth = shared.config.max_nested_depth;
    source
        .answer(&shared, asked, move |c| {
            let ws = c.builder(depth).open();
            let resolved = ws.resolve(c.root.as_deref(), type_name.as_deref(), resource.as_deref());
            text(|out| {
                report::render_resolve(out, &resolved, Format::Json, show_all, Look::default())
            })
        })
        .await
}

/// One `choose` of a query: `TYPE=PATH`, both parts given.
fn choice(c: &str) -> Result<(&str, &str), Fault> {
    c.split_once('=')
        .filter(|(t, p)| !t.is_empty() && !p.is_empty())
        .ok_or_else(|| Fault::bad_request(format!("choose takes TYPE=PATH, got `{c}`")))
}

/// `parameters -t TEMPLATE -e ENV... [--choose TYPE=PATH]... [--format
/// json|heat|heat-resource-tree]`; POST: over the body's template and
/// environments (`choose` names a `files` key).
async fn parameters(
    State(shared): State<Shared>,
    method: Method,
    asked: Asked,
    headers: HeaderMap,
    bytes: Bytes,
) -> Answer {
    let source = Source::of(&shared, &asked, &method, &headers, &bytes, true)?;
    let mut choices = IndexMap::new();
    for c in all(&asked.pairs, "choose") {
        let (t, p) = choice(c)?;
        choices.insert(t.to_owned(), source.path(&asked, p)?);
    }
    let format = asked.format(&["json", "heat", "heat-resource-tree"])?;
    let depth = shared.config.max_nested_depth;
    // `heat-resource-tree`'s `environment_parameters`: the served plan's
    // own `parameter_defaults`, read with the answer's files.
    let plan = match &source {
        Source::Served(..) => shared.config.plan.clone(),
        Source::Body(_) => None,
    };
    source
        .answer(&shared, asked, move |c| {
            let root = c.root.clone().unwrap_or_default();
            let ws = c.builder(depth).choices(choices).open();
            let (described, doc) = ws.parameters(&root);
            match format {
                "heat" => json_text(&doc),
                "heat-resource-tree" => {
                    let own = plan.map(|p| plan_parameter_defaults(&p, &c.load));
                    json_text(&heat_resource_tree(&doc, own.as_ref()))
                }
                _ => text(|out| {
                    report::render_parameters(out, &described, Format::Json, Look::default())
                }),
            }
        })
        .await
}

/// `preview -t TEMPLATE -e ENV... [--plan P] [--choose TYPE=PATH]...
/// [--stack-name NAME] --format json|heat`: the bytes the command prints
/// (`heat`: in its context, `HeatContext::offline`; Heat's refusal is
/// its `{"Error": ...}` document, as the command prints it). Computed for
/// each request, never kept whole: `heat`'s `creation_time` is the clock
/// when asked.
async fn preview(State(shared): State<Shared>, asked: Asked) -> Answer {
    let envs = asked.environments(&shared)?;
    let root = asked.template(&shared, true)?.unwrap_or_default();
    let mut choices = IndexMap::new();
    for c in all(&asked.pairs, "choose") {
        let (t, p) = choice(c)?;
        choices.insert(t.to_owned(), display(&asked.root()?.path(p)?));
    }
    let heat = asked.format(&["json", "heat"])? == "heat";
    let name = asked.one("stack_name").map_or_else(
        || {
            Path::new(&root)
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default()
        },
        str::to_owned,
    );
    let depth = shared.config.max_nested_depth;
    computed(&shared, move |load| {
        let ws = Workspace::builder()
            .load_options(load)
            .environments(&envs)
            .roots(std::slice::from_ref(&root))
            .choices(choices)
            .max_nested_depth(depth)
            .open();
        let p = ws.preview(&root, &name);
        if heat {
            let cx = crate::product::preview::HeatContext::offline();
            json_text(&Workspace::preview_heat_document(&p, &cx))
        } else {
            text(|out| report::render_preview(out, &p, Format::Json, Look::default()))
        }
    })
    .await
}

/// `validate [PATH]... [-e ENV]... [-r] [--format json|sarif]`.
async fn validate(State(shared): State<Shared>, asked: Asked) -> Answer {
    let format = match asked.format(&["json", "sarif"])? {
        "sarif" => Format::Sarif,
        _ => Format::Json,
    };
    let walk = asked.walk()?;
    let envs = asked.environments(&shared)?;
    let depth = shared.config.max_nested_depth;
    computed(&shared, move |load| {
        let validated = run_validate(&ValidateOptions {
            walk,
            load,
            selection: crate::validate::Selection::default(),
            profile: crate::validate::Profile::Hot,
            environments: envs,
            max_nested_depth: depth,
            inline_suppressions: true,
        });
        text(|out| {
            report::render_validate(
                out,
                &validated,
                format,
                &crate::catalogue(),
                Look::default(),
                &report::Sources::new(),
            )
        })
    })
    .await
}

/// `export -t TEMPLATE -e ENV... --format heat-api`: the stack-create
/// body, or a 400 with the errors that refuse it; `format=tarball`: the
/// tree `export --out DIR` writes, as a tar archive.
async fn export(State(shared): State<Shared>, asked: Asked) -> Answer {
    let envs = asked.environments(&shared)?;
    let root = asked.template(&shared, true)?.unwrap_or_default();
    let tarball = asked.format(&["heat-api", "tarball"])? == "tarball";
    let depth = shared.config.max_nested_depth;
    let load = load_options(&shared);
    let exported = shared
        .blocking(move || {
            let ws = Workspace::builder()
                .load_options(load)
                .environments(&envs)
                .roots(&[&root])
                .max_nested_depth(depth)
                .open();
            let plan = ws.export(&root, false);
            if plan.refused() {
                let first = plan
                    .diagnostics
                    .iter()
                    .find(|d| d.severity == crate::diag::Severity::Error)
                    .map_or_else(|| "the export is refused".to_owned(), ToString::to_string);
                return Err(Fault::bad_request(first));
            }
            if tarball {
                let mut bytes = Vec::new();
                plan.write_tarball(&mut bytes)
                    .map_err(|e| Fault::internal("IOError", e.to_string()))?;
                Ok(Exported::Tarball(bytes))
            } else {
                json_text(&plan.heat_api_body()).map(Exported::Body)
            }
        })
        .await??;
    Ok(match exported {
        Exported::Body(body) => json_response(StatusCode::OK, body),
        Exported::Tarball(bytes) => (
            [(axum::http::header::CONTENT_TYPE, "application/x-tar")],
            bytes,
        )
            .into_response(),
    })
}

/// `catalogue ROOT [--plan PLAN] -e ENV... --format json` (the
/// composition page's step 2): the root's `capabilities-map.yaml` with
/// each environment's title, group, `requires` and whether it is enabled
/// (by the plan, the request's or else `serve --plan`'s, then the
/// service's `-e` files and the request's), the enabled ones checked
/// against `requires` and ordered.
async fn catalogue(State(shared): State<Shared>, asked: Asked) -> Answer {
    let root = asked.root()?.clone();
    let plan = asked.plan()?.cloned();
    let served = if asked.plan.is_none() {
        shared.config.plan.clone()
    } else {
        None
    };
    let mut envs = shared.config.environments.clone();
    envs.extend(asked.paths("environment")?);
    computed(&shared, move |load| {
        let plan = plan.or_else(|| served.map(|p| open_plan(&p, &load)));
        let found = crate::workspace::catalogue(&root.shown, plan.as_ref(), &envs, &load);
        text(|out| report::render_catalogue(out, &found, Format::Json, Look::default()))
    })
    .await
}

/// `GET /heatcap/v1/plans?root=`: the plan environments in the root (the
/// files with tripleo-common's plan shape), each as `--plan` reads it:
/// its template, its environments in tripleo-common's order (files, and
/// the parts of the plan, `PLAN#parameter_defaults`), its findings.
async fn plans(State(shared): State<Shared>, asked: Asked) -> Answer {
    let root = asked.root()?.clone();
    computed(&shared, move |load| {
        let found = crate::workspace::plans_in(&root.shown, &load);
        let list: Vec<serde_json::Value> = found
            .iter()
            .map(|p| {
                serde_json::json!({
                    "path": p.path,
                    "name": p.name,
                    "description": p.description,
                    "template": p.template.as_ref().map(|(t, _)| t),
                    "environments": p.environments.iter().map(|e| serde_json::json!({
                        "path": e.path,
                        "file": e.written.is_some(),
                    })).collect::<Vec<_>>(),
                    "diagnostics": p.diagnostics,
                })
            })
            .collect();
        json_text(&serde_json::json!({ "plans": list }))
    })
    .await
}

/// What `export` answers.
enum Exported {
    Body(String),
    Tarball(Vec<u8>),
}

/// The OpenAPI document of these endpoints.
async fn openapi() -> Response {
    json_response(StatusCode::OK, super::openapi::document())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn confinement() {
        let shown = Path::new("fixtures/spec");
        let real = std::fs::canonicalize(shown).unwrap();
        assert!(confined(shown, &real, "environment.yaml").is_ok());
        for bad in ["../x.yaml", "/etc/passwd", "a/../../x", "~/x", ""] {
            assert_eq!(
                confined(shown, &real, bad).unwrap_err().status,
                403,
                "{bad}"
            );
        }
        assert_eq!(
            confined(shown, &real, "file:///etc/passwd")
                .unwrap_err()
                .status,
            400
        );
    }
}
