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
use crate::workspace::{error_class, validate_request, HeatRequest};

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
