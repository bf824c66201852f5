//! Heat's own API, offline, under `/v1/{tenant_id}/` (heat-api.md): each
//! handler reads the request as Heat's WSGI layer reads it, asks the same
//! code the CLI asks (`parameters --format heat`, `resource-type ...
//! --format heat`) and answers Heat's body, or Heat's fault document.

use axum::body::Bytes;
use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use serde_json::{Map, Value};

use super::body::{self, json_body};
use super::fault::{json_response, Fault};
use super::Shared;
use crate::heat_schema::api::{self, ListFilter, Refusal, TemplateType};
use crate::heat_schema::{self, versions, Status};
use crate::product::preview::{heat_clock, HeatContext};
use crate::workspace::{error_class, validate_request, HeatRequest, BODY_TEMPLATE};

/// 200 with a JSON value, encoded as the CLI encodes it.
pub(crate) fn ok(value: &Value) -> Response {
    json_response(StatusCode::OK, crate::encode::json::to_string(value))
}

/// Heat's versions document (300 Multiple Choices), with this server's
/// address as `application_url`.
pub(crate) async fn versions(headers: HeaderMap) -> Response {
    versions_of(&headers)
}

/// The versions document for a request with these headers.
pub(crate) fn versions_of(headers: &HeaderMap) -> Response {
    let host = headers
        .get(axum::http::header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("localhost");
    let doc = serde_json::json!({"versions": [{
        "id": "v1.0",
        "status": "CURRENT",
        "links": [{"rel": "self", "href": format!("http://{host}/v1/")}],
    }]});
    json_response(
        StatusCode::MULTIPLE_CHOICES,
        crate::encode::json::to_string(&doc),
    )
}

/// `GET /v1/{tenant}/build_info`.
pub(crate) async fn build_info() -> Response {
    let revision = format!("heatcap {}", env!("CARGO_PKG_VERSION"));
    ok(&serde_json::json!({"api": {"revision": revision}, "engine": {"revision": revision}}))
}

/// `POST /v1/{tenant}/validate`.
pub(crate) async fn validate(
    State(shared): State<Shared>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
    bytes: Bytes,
) -> Result<Response, Fault> {
    let pairs = body::query_pairs(query.as_deref());
    let show_nested = body::boolean(body::last(&pairs, "show_nested"))?;
    let ignore_errors: Option<Vec<&str>> =
        body::last(&pairs, "ignore_errors").map(|s| s.split(',').collect());
    let Some(data) = json_body(&headers, &bytes)? else {
        return Err(body::no_body());
    };
    let request = instantiation(&data)?;
    if let Some(codes) = ignore_errors {
        check_ignorable(&codes)?;
    }
    let depth = shared.config.max_nested_depth;
    let doc = shared
        .blocking(move || validate_request(&request, show_nested, depth))
        .await?;
    match doc.get("Error").and_then(Value::as_str) {
        Some(message) => Err(Fault::new(
            StatusCode::BAD_REQUEST,
            error_class(message),
            message,
        )),
        None => Ok(ok(&doc)),
    }
}

/// `POST /v1/{tenant}/stacks/preview`: Heat's create preview of the
/// body's stack (heat/api/openstack/v1/stacks.py `preview`), as
/// `openstack stack create --dry-run` sends it: the composition from the
/// body alone, as validate reads it ([`instantiation`]), the root stack
/// named by its `stack_name`; the document `preview --format heat` prints
/// for it, in this request's context (the path's project, this server's
/// address in `links`). Heat's refusals, in Heat's order: the API's
/// checks of `timeout_mins`, `tags` and `converge`, no `stack_name`, no
/// template; then the engine's: the template's version, the stack's
/// name, `disable_rollback`, then what the preview itself refuses (a
/// parameter without a value, a validation error), each a 400 fault
/// with Heat's class and message.
pub(crate) async fn stack_preview(
    State(shared): State<Shared>,
    Path(tenant): Path<String>,
    headers: HeaderMap,
    bytes: Bytes,
) -> Result<Response, Fault> {
    let Some(data) = json_body(&headers, &bytes)? else {
        return Err(body::no_body());
    };
    let args = PreviewArgs::of(&data)?;
    let name = data
        .get("stack_name")
        .cloned()
        .ok_or_else(|| Fault::bad_request("No stack name specified"))?;
    let request = instantiation(&data)?;
    let depth = shared.config.max_nested_depth;
    let stack_name = match &name {
        Value::String(s) => s.clone(),
        _ => String::new(),
    };
    let preview = shared
        .blocking(move || {
            let (load, environments) = request.in_memory();
            let ws = crate::Workspace::builder()
                .load_options(load)
                .environments(&environments)
                .roots(&[BODY_TEMPLATE])
                .max_nested_depth(depth)
                .open();
            ws.preview(BODY_TEMPLATE, &stack_name)
        })
        .await?;
    let refusal = preview.heat_error.as_deref().map(preview_fault);
    // The engine parses the template (its version) before it makes the
    // stack, whose name it checks first.
    if let Some(f) = refusal
        .as_ref()
        .filter(|f| f.kind == "InvalidTemplateVersion")
    {
        return Err(f.clone());
    }
    check_stack_name(&name)?;
    args.check_disable_rollback()?;
    if let Some(f) = refusal {
        return Err(f);
    }
    let host = headers
        .get(axum::http::header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("localhost");
    let cx = HeatContext::new(
        &tenant,
        "heatcap",
        &format!("http://{host}/v1"),
        &heat_clock(),
    );
    let mut doc = crate::Workspace::preview_heat_document(&preview, &cx);
    args.apply(&mut doc);
    Ok(ok(&doc))
}

/// The other methods on `/v1/{tenant}/stacks/preview`: Heat's router sends
/// them to `stack_lookup` (`/stacks/{stack_name}`), which looks for a
/// stack named `preview`; heatcap has no stacks (tests/heat/methods.json).
pub(crate) async fn no_such_stack() -> Fault {
    Fault::not_found("EntityNotFound", "The Stack (preview) could not be found.")
}

/// A refusal of the preview (`Class: message`, as
/// [`crate::Preview::heat_error`] holds it) as Heat's fault: each class a
/// preview raises maps to 400 (heat/api/middleware/fault.py).
fn preview_fault(error: &str) -> Fault {
    match error.split_once(": ") {
        Some((class, message)) if !class.contains(' ') => {
            Fault::new(StatusCode::BAD_REQUEST, class, message)
        }
        _ => Fault::new(StatusCode::BAD_REQUEST, "StackValidationFailed", error),
    }
}

/// heat/engine/stack.py `_validate_stack_name`: a string, a letter then
/// letters, digits, `_`, `.` or `-`, 255 characters at most.
fn check_stack_name(name: &Value) -> Result<(), Fault> {
    let refused = |message: String| {
        Err(Fault::new(
            StatusCode::BAD_REQUEST,
            "StackValidationFailed",
            message,
        ))
    };
    let Value::String(s) = name else {
        return refused(format!(
            "Invalid stack name {}, must be a string",
            python_value(name)
        ));
    };
    let mut chars = s.chars();
    let first = chars.next().is_some_and(|c| c.is_ascii_alphabetic());
    let rest = chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'));
    if first && rest && s.chars().count() <= 255 {
        return Ok(());
    }
    refused(format!(
        "Invalid stack name {s} must contain only alphanumeric or \"_-.\" characters, must start with alpha and must be 255 characters or less."
    ))
}

/// A JSON value as Python's `str` writes it (`None`, `True`, `5`, a
/// list or mapping as JSON text).
fn python_value(v: &Value) -> String {
    match v {
        Value::Null => "None".to_owned(),
        Value::Bool(true) => "True".to_owned(),
        Value::Bool(false) => "False".to_owned(),
        other => crate::encode::json::to_string(other),
    }
}

/// The stack's own arguments of a preview request (Heat's `args`: the
/// body's keys that are not the template's): what Heat checks of them and
/// what its preview shows.
struct PreviewArgs {
    timeout_mins: Option<i64>,
    tags: Option<Vec<String>>,
    disable_rollback: Option<Value>,
}

impl PreviewArgs {
    /// The API's checks (stacks.py `prepare_args`): `timeout_mins` an
    /// integer (`param_utils.extract_int`), `tags` a comma-separated text
    /// of tags of 80 characters at most, no `converge`.
    fn of(data: &Map<String, Value>) -> Result<PreviewArgs, Fault> {
        let timeout_mins = match data.get("timeout_mins") {
            None | Some(Value::Null) => None,
            Some(v) => Some(extract_int("timeout_mins", v)?),
        };
        let tags = match data.get("tags") {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) => {
                let tags: Vec<String> = s.split(',').map(str::to_owned).collect();
                if let Some(t) = tags.iter().find(|t| t.chars().count() > 80) {
                    return Err(Fault::bad_request(format!(
                        "Invalid tag, \"{t}\" is longer than 80 characters"
                    )));
                }
                Some(tags)
            }
            // Heat's API fails here (a 500 `AttributeError`: it splits the
            // value at commas); heatcap refuses it as the engine would.
            Some(other) => {
                return Err(Fault::bad_request(format!(
                    "Invalid tags, not a comma-separated text: {}",
                    python_value(other)
                )))
            }
        };
        if data.contains_key("converge") {
            return Err(Fault::bad_request(
                "converge flag only supported in stack update (or update preview) request.",
            ));
        }
        Ok(PreviewArgs {
            timeout_mins,
            tags,
            disable_rollback: data.get("disable_rollback").cloned(),
        })
    }

    /// The engine's check of `disable_rollback` (`param_utils.extract_bool`:
    /// `true` or `false` in any case, else a `ValueError`, whose message
    /// Heat's fault leaves out).
    fn check_disable_rollback(&self) -> Result<(), Fault> {
        match &self.disable_rollback {
            None | Some(Value::Bool(_)) => Ok(()),
            Some(v) if boolean_text(v).is_some() => Ok(()),
            Some(_) => Err(Fault {
                status: StatusCode::BAD_REQUEST,
                kind: "ValueError".to_owned(),
                message: None,
            }),
        }
    }

    /// The preview's `timeout_mins` (a positive one), `tags` and
    /// `disable_rollback`, as the engine's `extract_args` keeps them.
    fn apply(&self, doc: &mut Value) {
        let Some(stack) = doc.get_mut("stack").and_then(Value::as_object_mut) else {
            return;
        };
        if let Some(t) = self.timeout_mins.filter(|t| *t > 0) {
            stack.insert("timeout_mins".to_owned(), Value::from(t));
        }
        if let Some(tags) = &self.tags {
            stack.insert("tags".to_owned(), Value::from(tags.clone()));
        }
        if let Some(b) = self.disable_rollback.as_ref().and_then(boolean_text) {
            stack.insert("disable_rollback".to_owned(), Value::Bool(b));
        }
    }
}

/// `true`/`false` (a JSON boolean, or a text in any case), as
/// `extract_bool` takes it.
fn boolean_text(v: &Value) -> Option<bool> {
    match v {
        Value::Bool(b) => Some(*b),
        Value::String(s) => match s.to_ascii_lowercase().as_str() {
            "true" => Some(true),
            "false" => Some(false),
            _ => None,
        },
        _ => None,
    }
}

/// heat/common/param_utils.py `extract_int` (zero allowed, negative
/// not), a 400 with its message.
fn extract_int(name: &str, v: &Value) -> Result<i64, Fault> {
    let parsed = match v {
        Value::Number(n) => n.as_i64(),
        // oslo's `is_int_like`: the text is the integer's own (no sign,
        // space or leading zero).
        Value::String(s) => s.parse::<i64>().ok().filter(|n| n.to_string() == *s),
        _ => None,
    };
    let Some(n) = parsed else {
        return Err(Fault::bad_request(format!(
            "Only integer is acceptable by '{name}'."
        )));
    };
    if n < 0 {
        return Err(Fault::bad_request(format!(
            "Value '{}' is invalid for '{name}' which only accepts non-negative integer.",
            match v {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            }
        )));
    }
    Ok(n)
}

/// The error codes Heat lets `ignore_errors` name
/// (heat/common/exception.py `ERROR_CODE_MAP`): a service not available
/// for a resource type, which heatcap (offline, every service absent)
/// never reports, so a valid list changes no answer.
const IGNORABLE_CODES: &[&str] = &["99001"];

/// Heat 27's check of `ignore_errors` (heat/engine/service.py
/// `validate_template`: the API splits the value at commas, and any code
/// not in `ERROR_CODE_MAP` is a 400 `Invalid codes in ignore_errors :
/// [...]`, Python's list of them; an empty value is the code `''`).
fn check_ignorable(codes: &[&str]) -> Result<(), Fault> {
    let mut invalid: Vec<&str> = Vec::new();
    for c in codes {
        if !IGNORABLE_CODES.contains(c) && !invalid.contains(c) {
            invalid.push(c);
        }
    }
    if invalid.is_empty() {
        return Ok(());
    }
    let listed: Vec<String> = invalid.iter().map(|c| python_str(c)).collect();
    Err(Fault::bad_request(format!(
        "Invalid codes in ignore_errors : [{}]",
        listed.join(", ")
    )))
}

/// Python's `repr` of a string (single quotes unless it holds one and no
/// double quote; backslashes and the quote escaped).
fn python_str(s: &str) -> String {
    let quote = if s.contains('\'') && !s.contains('"') {
        '"'
    } else {
        '\''
    };
    let mut out = String::from(quote);
    for ch in s.chars() {
        match ch {
            '\\' => out.push_str("\\\\"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c => out.push(c),
        }
    }
    out.push(quote);
    out
}

/// Heat's `InstantiationData` (heat/api/openstack/v1/stacks.py): the
/// template (`template` wins over `template_url`, which is not fetched
/// offline), `files`, the environment (ignored when `environment_files`
/// is non-empty) with `parameters` merged into it, `environment_files`.
pub(crate) fn instantiation(data: &Map<String, Value>) -> Result<HeatRequest, Fault> {
    let template = match data.get("template") {
        Some(Value::Object(m)) => {
            let text = crate::encode::json::to_string(&Value::Object(m.clone()));
            if text.len() > MAX_TEMPLATE_SIZE {
                return Err(Fault::limit(&format!(
                    "Template size ({} bytes) exceeds maximum allowed size ({MAX_TEMPLATE_SIZE} bytes).",
                    text.len()
                )));
            }
            text
        }
        Some(Value::String(s)) => s.clone(),
        Some(Value::Null) | None => {
            if data.get("template").is_none() && data.contains_key("template_url") {
                return Err(Fault::bad_request(
                    "Could not retrieve template: heatcap serve fetches no URL (send the template in the body)",
                ));
            }
            return Err(Fault::bad_request("No template specified"));
        }
        Some(other) => {
            return Err(Fault::bad_request(format!(
                "Template not in valid format: the template is a {}, not a mapping or text",
                json_kind(other)
            )))
        }
    };
    if data.get("files_container").is_some_and(|v| !v.is_null()) {
        return Err(Fault::bad_request(
            "files_container: heatcap serve reads no Swift container (send the files in `files`)",
        ));
    }
    let files: Vec<(String, String)> = match data.get("files") {
        Some(Value::Object(m)) => m
            .iter()
            .map(|(k, v)| {
                let text = match v {
                    Value::String(s) => s.clone(),
                    other => crate::encode::json::to_string(other),
                };
                (k.clone(), text)
            })
            .collect(),
        _ => Vec::new(),
    };
    let environment_files: Vec<String> = match data.get("environment_files") {
        Some(Value::Array(items)) => items
            .iter()
            .filter_map(|v| v.as_str().map(str::to_owned))
            .collect(),
        _ => Vec::new(),
    };
    let mut env: Map<String, Value> = Map::new();
    if environment_files.is_empty() {
        match data.get("environment") {
            Some(Value::Object(m)) => env.clone_from(m),
            Some(Value::String(s)) if !s.trim().is_empty() => {
                // Parsed by heatcap's loader, as a file: keep the text, and
                // merge parameters only when it is a JSON object.
                match serde_json::from_str::<Value>(s) {
                    Ok(Value::Object(m)) => env = m,
                    _ => {
                        return Ok(HeatRequest::new(
                            template,
                            files,
                            Some(s.clone()),
                            environment_files,
                        ))
                    }
                }
            }
            _ => {}
        }
    }
    if let Some(Value::Object(params)) = data.get("parameters") {
        if !params.is_empty() {
            let slot = env
                .entry("parameters".to_owned())
                .or_insert_with(|| Value::Object(Map::new()));
            if let Value::Object(p) = slot {
                p.extend(params.iter().map(|(k, v)| (k.clone(), v.clone())));
            }
        }
    }
    let environment =
        (!env.is_empty()).then(|| crate::encode::json::to_string(&Value::Object(env)));
    Ok(HeatRequest::new(
        template,
        files,
        environment,
        environment_files,
    ))
}

/// Heat's `max_template_size`.
const MAX_TEMPLATE_SIZE: usize = 524_288;

fn json_kind(v: &Value) -> &'static str {
    match v {
        Value::Array(_) => "list",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        _ => "value",
    }
}

/// `GET /v1/{tenant}/resource_types`: `name` (a regular expression matched
/// at the start; an invalid one lists nothing, as in Heat), `version`,
/// `support_status`, `with_description`.
pub(crate) async fn resource_types(RawQuery(query): RawQuery) -> Result<Response, Fault> {
    let pairs = body::query_pairs(query.as_deref());
    let with_description = body::boolean(body::last(&pairs, "with_description"))?;
    let mut filter = ListFilter::default();
    if let Some(name) = body::last(&pairs, "name") {
        match regex::Regex::new(&format!("^(?:{name})")) {
            Ok(re) => filter.name = Some(re),
            Err(_) => return Ok(ok(&serde_json::json!({"resource_types": []}))),
        }
    }
    if let Some(status) = body::last(&pairs, "support_status") {
        filter.support_status = Some(Status::from_name(status).ok_or_else(|| {
            Fault::new(
                StatusCode::BAD_REQUEST,
                "Invalid",
                "Data supplied was not valid: Invalid support status and should be one of ('UNKNOWN', 'SUPPORTED', 'DEPRECATED', 'UNSUPPORTED', 'HIDDEN')",
            )
        })?);
    }
    if let Some(version) = body::last(&pairs, "version") {
        filter.version = Some(version.to_owned());
    }
    let heat = heat_schema::heat();
    Ok(ok(&api::list_document(heat, &filter, with_description)))
}

fn unknown_type(name: &str) -> Fault {
    Fault::not_found(
        "EntityNotFound",
        format!("The Resource Type ({name}) could not be found."),
    )
}

fn refusal(name: &str, r: &Refusal) -> Fault {
    match r {
        Refusal::Hidden => Fault::new(
            StatusCode::BAD_REQUEST,
            "NotSupported",
            format!("{name} is not supported."),
        ),
        Refusal::NoParameterType { property } => Fault::internal(
            "KeyError",
            format!("{name}: property {property} has type `any`, which no template parameter type takes"),
        ),
    }
}

/// `GET /v1/{tenant}/resource_types/{type}` (Heat's API never passes
/// `with_description` here: heat-api.md §7.1).
pub(crate) async fn resource_type(
    Path((_, name)): Path<(String, String)>,
) -> Result<Response, Fault> {
    let heat = heat_schema::heat();
    let found = heat.lookup(&name).ok_or_else(|| unknown_type(&name))?;
    let doc = api::schema_document(found, false).map_err(|r| refusal(&name, &r))?;
    Ok(ok(&doc))
}

/// `GET /v1/{tenant}/resource_types/{type}/template?template_type=cfn|hot`.
pub(crate) async fn resource_type_template(
    Path((_, name)): Path<(String, String)>,
    RawQuery(query): RawQuery,
) -> Result<Response, Fault> {
    let pairs = body::query_pairs(query.as_deref());
    let dialect = match body::last(&pairs, "template_type").unwrap_or("cfn") {
        "cfn" => TemplateType::Cfn,
        "hot" => TemplateType::Hot,
        other => {
            return Err(Fault::bad_request(format!(
                "Template type is not supported: Invalid template type \"{other}\", valid types are: cfn, hot."
            )))
        }
    };
    let heat = heat_schema::heat();
    let found = heat.lookup(&name).ok_or_else(|| unknown_type(&name))?;
    let doc = api::template_document(found, dialect).map_err(|r| refusal(&name, &r))?;
    Ok(ok(&doc))
}

/// `GET /v1/{tenant}/template_versions`.
pub(crate) async fn template_versions() -> Response {
    ok(&versions::list_document())
}

/// `GET /v1/{tenant}/template_versions/{version}/functions`.
pub(crate) async fn template_functions(
    Path((_, version)): Path<(String, String)>,
    RawQuery(query): RawQuery,
) -> Result<Response, Fault> {
    let pairs = body::query_pairs(query.as_deref());
    let with_condition = body::boolean(body::last(&pairs, "with_condition_func"))?;
    versions::functions_document(&version, with_condition)
        .map(|d| ok(&d))
        .ok_or_else(|| {
            Fault::not_found(
                "NotFound",
                format!("Template with version {version} not found"),
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// heat/engine/service.py `validate_template`: codes outside
    /// `ERROR_CODE_MAP` (only 99001) are refused, listed as Python lists
    /// them; an empty value is the code `''`.
    #[test]
    fn ignore_errors_as_heat_checks_it() {
        assert!(check_ignorable(&["99001"]).is_ok());
        assert!(check_ignorable(&["99001", "99001"]).is_ok());
        let f = check_ignorable(&["99001", "E1", "it's", "E1"]).unwrap_err();
        assert_eq!(f.status, 400);
        assert_eq!(f.kind, "HTTPBadRequest");
        assert_eq!(
            f.message.unwrap(),
            "Invalid codes in ignore_errors : ['E1', \"it's\"]"
        );
        let empty = check_ignorable(&[""]).unwrap_err();
        assert_eq!(
            empty.message.unwrap(),
            "Invalid codes in ignore_errors : ['']"
        );
    }
}
