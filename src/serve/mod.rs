//! `heatcap serve`: the same questions as the command line, over HTTP.
//!
//! An adapter beside `cli`: handlers read the request, call the
//! [`Workspace`](crate::Workspace) (or the embedded Heat data) as the
//! command does, and render with the same `report` code, so every answer
//! is the CLI's. Heat's own API lives under `/v1/{tenant_id}/` ([`heat`]);
//! heatcap's answers under `/heatcap/v1/` ([`own`]), a path Heat's routes
//! cannot take. `/` is the versions document for JSON clients and the
//! composition page for browsers ([`page`]).
//!
//! Limits: Heat's 1 MiB body limit (answered as Heat does, 400
//! `RequestLimitExceeded`), a time limit per request, a bounded number of
//! computations at once (each runs on tokio's blocking pool), a header
//! read timeout for slow clients (hyper's, with tokio's timer), panics
//! answered as Heat's 500 fault document, and graceful shutdown on SIGINT
//! and SIGTERM (requests in flight finish; new connections are refused).

mod body;
pub(crate) mod fault;
mod heat;
mod openapi;
mod own;
mod page;

use std::io::Write as _;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use tokio::sync::Semaphore;

use fault::Fault;

/// What the service serves and its limits.
#[derive(Debug, Clone)]
pub(crate) struct Config {
    /// Where to listen (loopback unless the user allowed otherwise).
    pub(crate) listen: SocketAddr,
    /// The directories heatcap's own answers read (paths in requests are
    /// relative to one of them).
    pub(crate) roots: Vec<PathBuf>,
    /// `--plan`'s environments (tripleo-common's list): every heatcap
    /// answer starts from them, unless the request names a plan of its own.
    pub(crate) plan_environments: Vec<PathBuf>,
    /// Environment files every heatcap answer takes after the plan's
    /// (`-e`).
    pub(crate) environments: Vec<PathBuf>,
    /// `--plan`: the plan file (its directory is read as a root is).
    pub(crate) plan: Option<PathBuf>,
    /// The plan's root template: the composing routes' when a request
    /// names none.
    pub(crate) template: Option<String>,
    /// Heat's `max_nested_stack_depth`.
    pub(crate) max_nested_depth: usize,
    /// Longest time one request may take.
    pub(crate) request_timeout: Duration,
    /// Longest time a client may take to send its request's headers.
    pub(crate) header_timeout: Duration,
    /// Most computations at once; more requests wait their turn.
    pub(crate) concurrency: usize,
}

impl Config {
    /// Defaults: Heat's port on loopback, 60 s per request (Heat's RPC
    /// timeout), 30 s for headers, one computation per core.
    pub(crate) fn new(listen: SocketAddr) -> Config {
        Config {
            listen,
            roots: Vec::new(),
            plan_environments: Vec::new(),
            environments: Vec::new(),
            plan: None,
            template: None,
            max_nested_depth: crate::resolve::compose::MAX_NESTED_DEPTH,
            request_timeout: Duration::from_mins(1),
            header_timeout: Duration::from_secs(30),
            concurrency: std::thread::available_parallelism().map_or(2, std::num::NonZero::get),
        }
    }
}

/// What every handler shares.
#[derive(Clone)]
pub(crate) struct Shared {
    pub(crate) config: Arc<Config>,
    permits: Arc<Semaphore>,
    pub(crate) roots: Arc<own::Roots>,
    /// Files parsed once and kept; a change on disk is seen by the next
    /// request (size, modification time or inode differ).
    pub(crate) cache: crate::load::LoadCache,
    /// Whole answers, kept while their files are unchanged.
    pub(crate) answers: Arc<own::Answers>,
}

impl Shared {
    /// Runs `f` on the blocking pool once a permit is free; a panic is
    /// Heat's 500 fault, never a dropped connection.
    pub(crate) async fn blocking<T, F>(&self, f: F) -> Result<T, Fault>
    where
        T: Send + 'static,
        F: FnOnce() -> T + Send + 'static,
    {
        let permit = self
            .permits
            .clone()
            .acquire_owned()
            .await
            .map_err(|_| Fault::internal("ShuttingDown", "the service is stopping"))?;
        let joined = tokio::task::spawn_blocking(move || {
            let _permit = permit;
            f()
        })
        .await;
        joined.map_err(|e| {
            if e.is_panic() {
                Fault::internal(
                    "InternalError",
                    "heatcap failed on this request (a bug: please report it)",
                )
            } else {
                Fault::internal("InternalError", "the request was cancelled")
            }
        })
    }
}

/// The routes: Heat's API, heatcap's own, the versions document.
pub(crate) fn router(shared: Shared) -> Router {
    // OPTIONS and HEAD on these are answered before routing
    // (`heat_before_routing`).
    let heat_api = Router::new()
        .route("/validate", post(heat::validate))
        .route("/resource_types", get(heat::resource_types))
        .route("/resource_types/{type_name}", get(heat::resource_type))
        .route(
            "/resource_types/{type_name}/template",
            get(heat::resource_type_template),
        )
        .route("/template_versions", get(heat::template_versions))
        .route(
            "/template_versions/{version}/functions",
            get(heat::template_functions),
        )
        .route("/build_info", get(heat::build_info))
        .route(
            "/stacks/preview",
            post(heat::stack_preview)
                .get(heat::no_such_stack)
                .put(heat::no_such_stack)
                .patch(heat::no_such_stack)
                .delete(heat::no_such_stack),
        );
    let routes = Router::new()
        .route("/versions", get(heat::versions))
        .route("/v1", get(heat::versions))
        .route("/v1/", get(heat::versions))
        .route("/v1/{tenant_id}", get(heat::versions))
        .nest("/v1/{tenant_id}", heat_api)
        .nest("/heatcap/v1", own::router())
        .merge(page::router());
    layered(routes, shared)
}

/// The fallbacks and the layers every route goes through: limits, panics
/// caught, one log line.
///
/// `log` (with `Allow` and the answers before routing) wraps the whole
/// router, not each route as `Router::layer` does: a route's 405 gets its
/// `Allow` from the router after that route's own layers have run.
fn layered(routes: Router<Shared>, shared: Shared) -> Router {
    let inner = routes
        .fallback(not_found)
        .method_not_allowed_fallback(not_allowed)
        .layer(middleware::from_fn_with_state(shared.clone(), limits))
        .with_state(shared);
    Router::new()
        .fallback_service(inner)
        .layer(middleware::from_fn(log))
}

/// The methods of the Heat route `path` answers, as Heat's `Allow`
/// lists them (heat/api/openstack/v1/__init__.py `connect`).
fn heat_methods(path: &str) -> Option<&'static str> {
    let rest = path.strip_prefix("/v1/")?;
    let (_tenant, route) = rest.split_once('/')?;
    let parts: Vec<&str> = route.split('/').collect();
    match parts.as_slice() {
        ["validate"] | ["stacks", "preview"] => Some("POST"),
        ["resource_types" | "template_versions" | "build_info"]
        | ["resource_types", _]
        | ["resource_types", _, "template"]
        | ["template_versions", _, "functions"] => Some("GET"),
        _ => None,
    }
}

/// Heat's answers that come before routing (tests/heat/methods.json,
/// recorded from Heat 27's own pipeline): on one of its routes, OPTIONS is
/// 204 with `Allow` and no body (heat/common/wsgi.py
/// `DefaultMethodController.options`) and HEAD is the 405 fault, since
/// Heat's router takes only the methods each route names (`connect` sends
/// HEAD to `reject`); `/` and `/versions` answer the versions document to
/// every method (Heat's versions app never looks at it), GET and HEAD
/// through the routes (a browser gets the page at `/`).
fn heat_before_routing(request: &Request) -> Option<Response> {
    let method = request.method();
    let path = request.uri().path();
    if matches!(path, "/" | "/versions")
        && method != axum::http::Method::GET
        && method != axum::http::Method::HEAD
    {
        return Some(heat::versions_of(request.headers()));
    }
    let methods = heat_methods(path)?;
    if method == axum::http::Method::OPTIONS {
        return Some(
            (
                StatusCode::NO_CONTENT,
                [(axum::http::header::ALLOW, methods)],
            )
                .into_response(),
        );
    }
    if method == axum::http::Method::HEAD {
        let mut answer = method_not_allowed().into_response();
        answer.headers_mut().insert(
            axum::http::header::ALLOW,
            axum::http::HeaderValue::from_static(methods),
        );
        return Some(answer);
    }
    None
}

/// `Allow` as each route's own convention has it, once routed: Heat's list
/// on Heat's routes (the router's would add HEAD, which Heat refuses); on
/// heatcap's own routes and the page, OPTIONS is answered as Heat answers
/// it on its routes, 204 with the methods the route takes (GET routes take
/// HEAD too: the GET's status and headers, no body, as HTTP has it).
///
/// Heat's own 405 fault carries no `Allow` (its fault middleware builds a
/// new response from the exception and drops the header); heatcap keeps
/// it, as HTTP requires of a 405 (RFC 9110 §15.5.6), and no client reads
/// its absence.
fn allow_after_routing(method: &axum::http::Method, path: &str, mut answer: Response) -> Response {
    if answer.status() != StatusCode::METHOD_NOT_ALLOWED {
        return answer;
    }
    if let Some(methods) = heat_methods(path) {
        answer.headers_mut().insert(
            axum::http::header::ALLOW,
            axum::http::HeaderValue::from_static(methods),
        );
        return answer;
    }
    if method == axum::http::Method::OPTIONS {
        if let Some(allow) = answer.headers().get(axum::http::header::ALLOW).cloned() {
            return (StatusCode::NO_CONTENT, [(axum::http::header::ALLOW, allow)]).into_response();
        }
    }
    answer
}

async fn not_found() -> Fault {
    Fault::not_found("NotFound", "The resource could not be found.")
}

async fn not_allowed() -> Fault {
    method_not_allowed()
}

fn method_not_allowed() -> Fault {
    Fault::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "HTTPMethodNotAllowed",
        "The method specified is not allowed for this resource.",
    )
}

/// The request body limit (Heat's, answered as Heat answers it) and the
/// time limit.
async fn limits(State(shared): State<Shared>, request: Request, next: Next) -> Response {
    let declared = request
        .headers()
        .get(axum::http::header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<usize>().ok());
    if let Some(len) = declared.filter(|l| *l > body::MAX_JSON_BODY) {
        return body::too_large(len).into_response();
    }
    let (parts, b) = request.into_parts();
    let limit = shared.config.request_timeout;
    let answer = tokio::time::timeout(limit, async move {
        // A body sent without a length is read up to the limit.
        let bytes = match axum::body::to_bytes(b, body::MAX_JSON_BODY + 1).await {
            Ok(bytes) if bytes.len() > body::MAX_JSON_BODY => {
                return body::too_large(bytes.len()).into_response()
            }
            Ok(bytes) => bytes,
            Err(_) => return body::too_large(body::MAX_JSON_BODY + 1).into_response(),
        };
        caught(next.run(Request::from_parts(parts, axum::body::Body::from(bytes)))).await
    })
    .await;
    answer.unwrap_or_else(|_| {
        Fault::internal(
            "Timeout",
            format!(
                "the request took longer than {} s, the service's limit",
                limit.as_secs()
            ),
        )
        .into_response()
    })
}

/// The handler run as its own task, so that a panic in it (outside the
/// blocking pool, which [`Shared::blocking`] guards) is Heat's 500 fault
/// document, never a dropped connection; the task is stopped when the
/// request is given up (its time limit).
async fn caught(handler: impl std::future::Future<Output = Response> + Send + 'static) -> Response {
    struct Abort(tokio::task::AbortHandle);
    impl Drop for Abort {
        fn drop(&mut self) {
            self.0.abort();
        }
    }
    let task = tokio::spawn(handler);
    let _abort = Abort(task.abort_handle());
    match task.await {
        Ok(response) => response,
        Err(_) => Fault::internal(
            "InternalError",
            "heatcap failed on this request (a bug: please report it)",
        )
        .into_response(),
    }
}

/// One line per request on standard error: method, path, status, time.
async fn log(request: Request, next: Next) -> Response {
    let started = Instant::now();
    let method = request.method().clone();
    let path = request.uri().path().to_owned();
    let response = match heat_before_routing(&request) {
        Some(answer) => answer,
        None => allow_after_routing(&method, &path, next.run(request).await),
    };
    let line = format!(
        "{method} {path} {} {:.1}ms\n",
        response.status().as_u16(),
        started.elapsed().as_secs_f64() * 1000.0
    );
    let _ = std::io::stderr().lock().write_all(line.as_bytes());
    response
}

/// Serves until SIGINT or SIGTERM, then lets requests in flight finish.
/// `ready` is told the address actually bound (port 0 picks one).
pub(crate) fn run(config: Config, ready: impl FnOnce(SocketAddr)) -> std::io::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(serve(config, ready))
}

async fn serve(config: Config, ready: impl FnOnce(SocketAddr)) -> std::io::Result<()> {
    let listener = tokio::net::TcpListener::bind(config.listen).await?;
    ready(listener.local_addr()?);
    let header_timeout = config.header_timeout;
    let shared = Shared {
        permits: Arc::new(Semaphore::new(config.concurrency.max(1))),
        roots: Arc::new(own::Roots::new(&config.roots)),
        cache: crate::load::LoadCache::default(),
        answers: Arc::new(own::Answers::default()),
        config: Arc::new(config),
    };
    let app = router(shared);
    let graceful = hyper_util::server::graceful::GracefulShutdown::new();
    let mut stop = std::pin::pin!(shutdown_signal());
    loop {
        tokio::select! {
            accepted = listener.accept() => {
                let Ok((stream, _)) = accepted else { continue };
                let service = hyper_util::service::TowerToHyperService::new(app.clone());
                let connection = hyper::server::conn::http1::Builder::new()
                    .timer(TokioTimer::new())
                    .header_read_timeout(header_timeout)
                    .serve_connection(TokioIo::new(stream), service);
                let watched = graceful.watch(connection);
                tokio::spawn(async move {
                    let _ = watched.await;
                });
            }
            () = &mut stop => break,
        }
    }
    drop(listener);
    let _ = std::io::stderr()
        .lock()
        .write_all(b"heatcap serve: stopping; waiting for requests in flight\n");
    graceful.shutdown().await;
    let _ = TokioExecutor::new();
    Ok(())
}

/// SIGINT (Ctrl-C) or, on Unix, SIGTERM.
async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = term => {},
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Read, Write};

    async fn in_handler() -> Response {
        panic!("a bug in a handler")
    }
    async fn on_the_pool(State(shared): State<Shared>) -> Result<Response, Fault> {
        shared
            .blocking(|| -> Response { panic!("a bug in a computation") })
            .await
    }

    /// A panic in a handler, in the async part or on the blocking pool,
    /// answers Heat's 500 fault document; the server goes on answering.
    /// (The panicking routes exist only in this test.)
    #[test]
    fn a_panic_is_heats_500_fault() {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()
            .unwrap();
        let config = Config::new("127.0.0.1:0".parse().unwrap());
        let shared = Shared {
            permits: Arc::new(Semaphore::new(2)),
            roots: Arc::new(own::Roots::new(&[])),
            cache: crate::load::LoadCache::default(),
            answers: Arc::new(own::Answers::default()),
            config: Arc::new(config),
        };
        let routes = Router::new()
            .route("/panics", get(in_handler))
            .route("/pool-panics", get(on_the_pool))
            .route("/v1/{tenant_id}/build_info", get(heat::build_info));
        let app = layered(routes, shared);
        let listener = runtime
            .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
            .unwrap();
        let addr = listener.local_addr().unwrap();
        runtime.spawn(async move { axum::serve(listener, app).await });
        let get = |path: &str| {
            let mut s = std::net::TcpStream::connect(addr).unwrap();
            write!(
                s,
                "GET {path} HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n"
            )
            .unwrap();
            let mut text = String::new();
            s.read_to_string(&mut text).unwrap();
            text
        };
        for path in ["/panics", "/pool-panics"] {
            let answer = get(path);
            assert!(answer.starts_with("HTTP/1.1 500"), "{answer}");
            assert!(
                answer.contains("content-type: application/json"),
                "{answer}"
            );
            let body = answer.split("\r\n\r\n").nth(1).unwrap();
            let fault: serde_json::Value = serde_json::from_str(body).unwrap();
            assert_eq!(fault["code"], 500);
            assert_eq!(fault["title"], "Internal Server Error");
            assert_eq!(fault["error"]["type"], "InternalError");
        }
        assert!(get("/v1/t/build_info").starts_with("HTTP/1.1 200"));
    }
}
