//! The composition page (issue 19): plain HTML and JavaScript modules in
//! `src/serve/page/`, embedded in the binary with `include_str!` (no
//! dependency, embedded in debug builds too), a client of heatcap's own
//! JSON routes and nothing else.
//!
//! `GET /` is the page for a browser (its `Accept` names `text/html`) and
//! Heat's versions document for every other client, so that openstacksdk's
//! discovery is unchanged; the page is also at `/heatcap/page/`, whatever
//! the `Accept`. Its routes of its own: `POST /heatcap/v1/check` says what
//! Heat makes of values a person types, in Heat's words, and `GET
//! /heatcap/v1/catalogue` is `heatcap catalogue` (step 2's topics and
//! groups).

use axum::body::Bytes;
use axum::extract::Path as UrlPath;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use serde_json::{json, Value};

use super::body::{json_body, no_body};
use super::fault::{json_response, Fault};
use super::Shared;
use crate::product::parameters::{check_value, ValueCheck};

/// The page's files: name, content type, text.
const ASSETS: &[(&str, &str, &str)] = &[
    (
        "index.html",
        "text/html; charset=utf-8",
        include_str!("page/index.html"),
    ),
    (
        "style.css",
        "text/css; charset=utf-8",
        include_str!("page/style.css"),
    ),
    (
        "app.js",
        "text/javascript; charset=utf-8",
        include_str!("page/app.js"),
    ),
    (
        "model.js",
        "text/javascript; charset=utf-8",
        include_str!("page/model.js"),
    ),
    (
        "api.js",
        "text/javascript; charset=utf-8",
        include_str!("page/api.js"),
    ),
    (
        "update.js",
        "text/javascript; charset=utf-8",
        include_str!("page/update.js"),
    ),
    (
        "params.js",
        "text/javascript; charset=utf-8",
        include_str!("page/params.js"),
    ),
];

/// The page's routes (merged at the top level of the router).
pub(crate) fn router() -> Router<Shared> {
    Router::new()
        .route("/", get(root))
        .route("/heatcap/page", get(index))
        .route("/heatcap/page/", get(index))
        .route("/heatcap/page/{file}", get(asset))
        .route("/heatcap/v1/check", post(check))
}

/// Whether the client asks for HTML (a browser), by its `Accept`.
fn wants_html(headers: &HeaderMap) -> bool {
    headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|a| {
            a.split(',')
                .any(|m| m.split(';').next().unwrap_or("").trim() == "text/html")
        })
}

/// `GET /`: the page for a browser, else Heat's versions document.
async fn root(headers: HeaderMap) -> Response {
    if wants_html(&headers) {
        served("index.html")
    } else {
        super::heat::versions(headers).await
    }
}

async fn index() -> Response {
    served("index.html")
}

async fn asset(UrlPath(file): UrlPath<String>) -> Response {
    served(&file)
}

/// One embedded file, with a policy that lets only the service's own
/// scripts, styles and requests run; 404 for any other name.
fn served(name: &str) -> Response {
    let Some((_, kind, text)) = ASSETS.iter().find(|(n, _, _)| *n == name) else {
        return Fault::not_found("NotFound", "The resource could not be found.").into_response();
    };
    let mut r = (StatusCode::OK, *text).into_response();
    let h = r.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static(kind));
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static("default-src 'self'; img-src 'self' data:"),
    );
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    r
}

/// `POST /heatcap/v1/check`: `{"values": [{"name", "type", "constraints",
/// "definitions", "value"}]}` (type and constraints as
/// `/heatcap/v1/parameters` gives them; `definitions`, a parameter's
/// declarations as its `definitions` lists them, each with `stacks` and
/// `nested`) → `{"verdicts": [{"name", "accepted", "value"?, "error"?,
/// "definitions"?}]}`: Heat's verdict on each value when it creates the
/// stack (`Parameter.validate`), in Heat's words, against the item's own
/// type and each of its definitions. `accepted` is `null` when heatcap
/// does not know (no value, a conversion it does not follow).
async fn check(headers: HeaderMap, bytes: Bytes) -> Result<Response, Fault> {
    let Some(data) = json_body(&headers, &bytes)? else {
        return Err(no_body());
    };
    let Some(Value::Array(values)) = data.get("values") else {
        return Err(Fault::bad_request("`values` (a list) is required"));
    };
    let verdicts = values
        .iter()
        .map(verdict)
        .collect::<Result<Vec<_>, Fault>>()?;
    let body = crate::encode::json::to_string(&json!({ "verdicts": verdicts }));
    Ok(json_response(StatusCode::OK, body))
}

/// The constraints of an item or a definition: `None` when absent or
/// null; a 400 unless a list of objects.
fn constraints_of<'v>(
    item: &'v serde_json::Map<String, Value>,
    name: &str,
) -> Result<Option<&'v Value>, Fault> {
    let constraints = item.get("constraints").filter(|c| !c.is_null());
    let listed = |c: &Value| c.as_array().is_some_and(|l| l.iter().all(Value::is_object));
    if constraints.is_some_and(|c| !listed(c)) {
        return Err(Fault::bad_request(format!(
            "`{name}`: `constraints` is a list of objects, as the parameters answer gives it"
        )));
    }
    Ok(constraints)
}

/// Heat's verdict on `raw` for one declaration: the root stack's value
/// (`nested` false), or a nested stack's, which Heat takes as the
/// parameter's default and checks against the constraints only, not the
/// type (`_validate_default`; tests/heat/env-value-verdicts.json): a value
/// of the wrong type fails only where a resource uses it, which is not
/// known here.
fn judged(type_name: &str, constraints: Option<&Value>, raw: &Value, nested: bool) -> Value {
    match check_value(type_name, constraints, raw) {
        ValueCheck::Accepted(v) => json!({"accepted": true, "value": v}),
        ValueCheck::Refused {
            converting: true, ..
        } if nested => json!({"accepted": null}),
        ValueCheck::Refused { why, .. } => json!({"accepted": false, "error": why}),
        ValueCheck::Unknown => json!({"accepted": null}),
    }
}

/// One of an item's `definitions`: `{"stacks"?, "type", "constraints"?,
/// "nested"?}`, judged, `stacks` echoed.
fn definition(d: &Value, name: &str, raw: &Value) -> Result<Value, Fault> {
    let Some(d) = d.as_object() else {
        return Err(Fault::bad_request(format!(
            "`{name}`: each of `definitions` is an object"
        )));
    };
    let Some(type_name) = d.get("type").and_then(Value::as_str) else {
        return Err(Fault::bad_request(format!(
            "`{name}`: each definition has a `type` (a Heat parameter type)"
        )));
    };
    let nested = match d.get("nested") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => {
            return Err(Fault::bad_request(format!(
                "`{name}`: `nested` is a boolean"
            )))
        }
    };
    let stacks = match d.get("stacks") {
        None => None,
        Some(s @ Value::Array(l)) if l.iter().all(Value::is_string) => Some(s.clone()),
        Some(_) => {
            return Err(Fault::bad_request(format!(
                "`{name}`: `stacks` is a list of stack ids"
            )))
        }
    };
    let mut out = judged(type_name, constraints_of(d, name)?, raw, nested);
    if let (Some(s), Some(o)) = (stacks, out.as_object_mut()) {
        o.insert("stacks".to_owned(), s);
    }
    Ok(out)
}

/// The verdict on one item; a 400 for anything the OpenAPI document does
/// not allow. With `definitions`, the item's verdict is theirs together
/// (and its own type's, when given): refused when one refuses (the first
/// refusal's words), accepted when all accept (the first's value), else
/// not known.
fn verdict(item: &Value) -> Result<Value, Fault> {
    let Some(item) = item.as_object() else {
        return Err(Fault::bad_request("each of `values` is an object"));
    };
    let name = match item.get("name") {
        None => "",
        Some(Value::String(n)) => n.as_str(),
        Some(_) => return Err(Fault::bad_request("`name` is a string")),
    };
    let definitions = match item.get("definitions") {
        None => None,
        Some(Value::Array(list)) => Some(list),
        Some(_) => {
            return Err(Fault::bad_request(format!(
                "`{name}`: `definitions` is a list"
            )))
        }
    };
    let type_name = match item.get("type") {
        None => None,
        Some(Value::String(t)) => Some(t.as_str()),
        Some(_) => {
            return Err(Fault::bad_request(format!(
                "`{name}`: `type` is a Heat parameter type (a string)"
            )))
        }
    };
    if type_name.is_none() && definitions.is_none() {
        return Err(Fault::bad_request(format!(
            "`{name}`: `type` (a Heat parameter type) is required"
        )));
    }
    let raw = item.get("value").cloned().unwrap_or(Value::Null);
    let mut judged_all = Vec::new();
    if let Some(t) = type_name {
        judged_all.push(judged(t, constraints_of(item, name)?, &raw, false));
    }
    let each = definitions
        .map(|list| {
            list.iter()
                .map(|d| definition(d, name, &raw))
                .collect::<Result<Vec<_>, Fault>>()
        })
        .transpose()?;
    judged_all.extend(each.iter().flatten().cloned());
    let refused = judged_all.iter().find(|v| v["accepted"] == false);
    let mut out = match refused {
        Some(r) => json!({"name": name, "accepted": false, "error": r["error"]}),
        None if !judged_all.is_empty() && judged_all.iter().all(|v| v["accepted"] == true) => {
            json!({"name": name, "accepted": true, "value": judged_all[0]["value"]})
        }
        None => json!({"name": name, "accepted": null}),
    };
    if let (Some(each), Some(o)) = (each, out.as_object_mut()) {
        o.insert("definitions".to_owned(), Value::Array(each));
    }
    Ok(out)
}

/// The page's route in the OpenAPI document.
pub(crate) fn openapi_paths() -> Vec<(String, Value)> {
    let constraints = json!({"type": ["array", "null"], "items": {"type": "object"}, "description": "Its constraints, as /heatcap/v1/parameters gives them."});
    let definition = json!({
        "type": "object",
        "required": ["type"],
        "properties": {
            "stacks": {"type": "array", "items": {"type": "string"}, "description": "The stacks that declare it so (echoed in its verdict)."},
            "type": {"type": "string", "description": "The declaration's Heat type."},
            "constraints": constraints,
            "nested": {"type": ["boolean", "null"], "description": "The value reaches nested stacks (their default, from parameter_defaults), which Heat checks against the constraints only, not the type: a value of the wrong type is then not known (null), as Heat refuses it only where a resource uses it. False or absent: the root stack's value."}
        }
    });
    let item = json!({
        "type": "object",
        "anyOf": [{"required": ["type"]}, {"required": ["definitions"]}],
        "properties": {
            "name": {"type": "string", "description": "The parameter's name (echoed)."},
            "type": {"type": "string", "description": "Its Heat type (string, number, comma_delimited_list, json, boolean)."},
            "constraints": constraints,
            "definitions": {"type": "array", "items": definition, "description": "Each declaration to check the value against (a parameter declared differently in several nested stacks: its definitions in the parameters answer)."},
            "value": {"description": "The value, as an environment's parameter_defaults would hold it."}
        }
    });
    let judged = json!({
        "type": "object",
        "required": ["accepted"],
        "properties": {
            "stacks": {"type": "array", "items": {"type": "string"}},
            "accepted": {"type": ["boolean", "null"], "description": "null: not known (no value, or a conversion heatcap does not follow)."},
            "value": {"description": "The value as get_param gives it (accepted only)."},
            "error": {"type": "string", "description": "Why Heat refuses it, in Heat's words (refused only)."}
        }
    });
    let verdict = json!({
        "type": "object",
        "required": ["name", "accepted"],
        "properties": {
            "name": {"type": "string"},
            "accepted": {"type": ["boolean", "null"], "description": "Against the item's type and every definition: false when one refuses it, true when all accept it, null otherwise (not known: no value, or a conversion heatcap does not follow)."},
            "value": {"description": "The value as get_param gives it (accepted only: the first's)."},
            "error": {"type": "string", "description": "Why Heat refuses it, in Heat's words (refused only: the first refusal)."},
            "definitions": {"type": "array", "items": judged, "description": "With definitions: each one's verdict, in order."}
        }
    });
    let fault = json!({
        "description": "A malformed request.",
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Fault"}}}
    });
    vec![(
        "/heatcap/v1/check".to_owned(),
        json!({"post": {
            "summary": "Heat's verdict on values typed for parameters (the composition page checks each field with it).",
            "operationId": "check",
            "requestBody": {"required": true, "content": {"application/json": {"schema": {
                "type": "object",
                "required": ["values"],
                "properties": {"values": {"type": "array", "items": item}}
            }}}},
            "responses": {
                "200": {"description": "One verdict per value, in order.", "content": {"application/json": {"schema": {
                    "type": "object",
                    "required": ["verdicts"],
                    "properties": {"verdicts": {"type": "array", "items": verdict}}
                }}}},
                "400": fault
            }
        }}),
    )]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A parameter declared differently in several stacks: the value is
    /// judged against each declaration, the refusals in Heat's words with
    /// the stacks that refuse it; a nested stack's default is checked
    /// against the constraints only (tests/heat/env-value-verdicts.json).
    #[test]
    fn verdicts_against_every_definition() {
        let v = verdict(&json!({"name": "Count", "value": 0, "definitions": [
            {"stacks": ["root"], "type": "number", "constraints": [{"range": {"min": 1}}]},
            {"stacks": ["root/A"], "type": "number", "nested": true},
            {"stacks": ["root/B"], "type": "number", "constraints": [{"range": {"min": 2}}], "nested": true},
        ]}))
        .unwrap();
        assert_eq!(v["accepted"], false);
        assert_eq!(v["error"], "0 is out of range (min: 1, max: None)");
        assert_eq!(
            v["definitions"],
            json!([
                {"stacks": ["root"], "accepted": false, "error": "0 is out of range (min: 1, max: None)"},
                {"stacks": ["root/A"], "accepted": true, "value": 0},
                {"stacks": ["root/B"], "accepted": false, "error": "0 is out of range (min: 2, max: None)"},
            ])
        );
        // The wrong type: refused at the root, not known in a nested stack.
        let v = verdict(&json!({"name": "Count", "value": "x", "definitions": [
            {"stacks": ["root/A"], "type": "number", "nested": true},
        ]}))
        .unwrap();
        assert!(v["accepted"].is_null());
        let v = verdict(
            &json!({"name": "Count", "value": "x", "type": "string", "definitions": [
                {"stacks": ["root"], "type": "number"},
            ]}),
        )
        .unwrap();
        assert_eq!(v["error"], "could not convert string to float: 'x'");
        // All accept: the first's value; no definition reached: not known.
        let v = verdict(&json!({"name": "N", "value": "3", "definitions": [
            {"type": "number"}, {"type": "string"},
        ]}))
        .unwrap();
        assert_eq!(
            (v["accepted"].clone(), v["value"].clone()),
            (json!(true), json!(3))
        );
        let v = verdict(&json!({"name": "N", "value": "3", "definitions": []})).unwrap();
        assert!(v["accepted"].is_null());
        // Without definitions the answer has none (the earlier shape).
        let v = verdict(&json!({"name": "N", "type": "number", "value": "3"})).unwrap();
        assert!(v.get("definitions").is_none());
    }

    /// Every file in `src/serve/page/` is served, and nothing else is.
    #[test]
    fn every_page_file_is_embedded() {
        let mut on_disk: Vec<String> = std::fs::read_dir("src/serve/page")
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        on_disk.sort();
        let mut embedded: Vec<String> = ASSETS.iter().map(|(n, _, _)| (*n).to_owned()).collect();
        embedded.sort();
        assert_eq!(on_disk, embedded);
    }

    #[test]
    fn html_only_for_browsers() {
        let mut h = HeaderMap::new();
        assert!(!wants_html(&h));
        h.insert(header::ACCEPT, HeaderValue::from_static("*/*"));
        assert!(!wants_html(&h));
        h.insert(header::ACCEPT, HeaderValue::from_static("application/json"));
        assert!(!wants_html(&h));
        h.insert(
            header::ACCEPT,
            HeaderValue::from_static(
                "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
            ),
        );
        assert!(wants_html(&h));
    }

    /// Heat's words, as `parameters` reports them for a value
    /// (tests/heat/env-value-verdicts.json records Heat's own).
    #[test]
    fn verdicts_in_heats_words() {
        let v = verdict(&json!({"name": "Count", "type": "number",
            "constraints": [{"range": {"min": 1}}], "value": 0}))
        .unwrap();
        assert_eq!(v["accepted"], false);
        assert_eq!(v["error"], "0 is out of range (min: 1, max: None)");
        let v = verdict(&json!({"name": "Count", "type": "number", "value": "x"})).unwrap();
        assert_eq!(v["error"], "could not convert string to float: 'x'");
        let v = verdict(&json!({"name": "Count", "type": "number", "value": "3"})).unwrap();
        assert_eq!(
            (v["accepted"].clone(), v["value"].clone()),
            (json!(true), json!(3))
        );
        let v = verdict(&json!({"name": "S", "type": "string", "value": null})).unwrap();
        assert!(v["accepted"].is_null());
        assert!(verdict(&json!({"name": "S"})).is_err());
        assert!(verdict(&json!({"name": "S", "type": "string", "constraints": {}})).is_err());
        assert!(verdict(&json!({"name": "S", "type": "string", "constraints": [1]})).is_err());
        assert!(verdict(&json!({"name": 5, "type": "string"})).is_err());
        assert!(verdict(&json!(["S"])).is_err());
        assert!(verdict(&json!({"name": "S", "definitions": {}})).is_err());
        assert!(verdict(&json!({"name": "S", "definitions": null})).is_err());
        assert!(verdict(&json!({"name": "S", "type": 5, "definitions": []})).is_err());
        assert!(verdict(&json!({"name": "S", "definitions": [{"stacks": ["root"]}]})).is_err());
        assert!(
            verdict(&json!({"name": "S", "definitions": [{"type": "string", "nested": 1}]}))
                .is_err()
        );
        assert!(
            verdict(&json!({"name": "S", "definitions": [{"type": "string", "stacks": [1]}]}))
                .is_err()
        );
        // Constraints Heat would refuse to load are no reason to fail.
        for odd in [
            json!({"range": "x"}),
            json!({"length": {"min": "a"}}),
            json!({"allowed_pattern": "("}),
            json!({"allowed_values": 5}),
            json!({"modulo": {}}),
            json!({}),
        ] {
            for t in [
                "string",
                "number",
                "json",
                "comma_delimited_list",
                "boolean",
                "x",
            ] {
                let item = json!({"type": t, "constraints": [odd.clone()], "value": "1"});
                assert!(verdict(&item).is_ok(), "{item}");
            }
        }
    }
}
