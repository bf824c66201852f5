//! Heat's request-body rules (heat/common/wsgi.py, heat-api.md §1.3) and
//! query booleans (heat/common/param_utils.py), so that every client gets
//! the answer Heat would give it.

use axum::http::{header, HeaderMap};
use serde_json::{Map, Value};

use super::fault::Fault;

/// Heat's `max_json_body_size`.
pub(crate) const MAX_JSON_BODY: usize = 1_048_576;

/// The body as Heat's JSON deserializer reads it: `None` when Heat would
/// not parse it at all (empty, a content type other than JSON or plain
/// text, or not starting with `{`), else the object or Heat's 400.
pub(crate) fn json_body(
    headers: &HeaderMap,
    bytes: &[u8],
) -> Result<Option<Map<String, Value>>, Fault> {
    let content_type = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .map(|v| v.split(';').next().unwrap_or("").trim().to_owned())
        .unwrap_or_default();
    let json_type = content_type.is_empty()
        || content_type.starts_with("text/plain")
        || content_type == "JSON"
        || content_type == "application/json";
    if bytes.is_empty() || !json_type || !bytes.starts_with(b"{") {
        return Ok(None);
    }
    if bytes.len() > MAX_JSON_BODY {
        return Err(too_large(bytes.len()));
    }
    match serde_json::from_slice::<Value>(bytes) {
        Ok(Value::Object(m)) => Ok(Some(m)),
        Ok(_) => Err(Fault::bad_request("the body is not a JSON object")),
        Err(e) => Err(Fault::bad_request(e.to_string())),
    }
}

/// Heat's answer to a body over `max_json_body_size`.
pub(crate) fn too_large(len: usize) -> Fault {
    Fault::limit(&format!(
        "JSON body size ({len} bytes) exceeds maximum allowed size ({MAX_JSON_BODY} bytes)."
    ))
}

/// The 400 a controller gives when Heat passed it no body.
pub(crate) fn no_body() -> Fault {
    Fault::bad_request(
        "The server could not comply with the request since it is either malformed or otherwise incorrect.",
    )
}

/// A query boolean as Heat reads it: `true`/`false` in any case, else a
/// 400 `ValueError` (`Unrecognized value "x" for "name", acceptable
/// values are: true, false.`, which Heat's fault leaves out: a plain
/// Python exception is not "safe").
pub(crate) fn boolean(value: Option<&str>) -> Result<bool, Fault> {
    match value.map(str::to_ascii_lowercase).as_deref() {
        None | Some("false") => Ok(false),
        Some("true") => Ok(true),
        Some(_) => Err(Fault {
            status: axum::http::StatusCode::BAD_REQUEST,
            kind: "ValueError".to_owned(),
            message: None,
        }),
    }
}

/// A query string's pairs, in order (repeated keys kept).
pub(crate) fn query_pairs(query: Option<&str>) -> Vec<(String, String)> {
    query
        .map(|q| serde_urlencoded::from_str::<Vec<(String, String)>>(q).unwrap_or_default())
        .unwrap_or_default()
}

/// The last value of `key` (webob's `MultiDict.get`).
pub(crate) fn last<'a>(pairs: &'a [(String, String)], key: &str) -> Option<&'a str> {
    pairs
        .iter()
        .rev()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
}

/// Every value of `key`, in order.
pub(crate) fn all<'a>(pairs: &'a [(String, String)], key: &str) -> Vec<&'a str> {
    pairs
        .iter()
        .filter(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(ct: Option<&str>) -> HeaderMap {
        let mut h = HeaderMap::new();
        if let Some(ct) = ct {
            h.insert(header::CONTENT_TYPE, ct.parse().unwrap());
        }
        h
    }

    /// heat/common/wsgi.py `is_json_content_type` and `has_body`.
    #[test]
    fn parsed_only_as_heat_parses() {
        let b = br#"{"a": 1}"#;
        assert!(json_body(&headers(None), b).unwrap().is_some());
        assert!(json_body(&headers(Some("text/plain; charset=utf-8")), b)
            .unwrap()
            .is_some());
        assert!(json_body(&headers(Some("application/json")), b)
            .unwrap()
            .is_some());
        assert!(json_body(&headers(Some("application/xml")), b)
            .unwrap()
            .is_none());
        assert!(json_body(&headers(None), b" {}").unwrap().is_none());
        assert!(json_body(&headers(None), b"").unwrap().is_none());
        let bad = json_body(&headers(None), b"{nope").unwrap_err();
        assert_eq!(bad.status, 400);
    }

    #[test]
    fn oversized_is_request_limit_exceeded() {
        let mut big = b"{\"template\": \"".to_vec();
        big.resize(MAX_JSON_BODY + 10, b'x');
        let f = json_body(&headers(None), &big).unwrap_err();
        assert_eq!(f.kind, "RequestLimitExceeded");
        assert_eq!(
            f.message.unwrap(),
            format!("Request limit exceeded: JSON body size ({} bytes) exceeds maximum allowed size (1048576 bytes).", MAX_JSON_BODY + 10)
        );
    }

    /// heat/common/param_utils.py `extract_bool`.
    #[test]
    fn booleans() {
        assert!(boolean(Some("True")).unwrap());
        assert!(!boolean(Some("FALSE")).unwrap());
        assert!(!boolean(None).unwrap());
        assert_eq!(boolean(Some("yes")).unwrap_err().kind, "ValueError");
    }

    #[test]
    fn repeated_query_keys_keep_the_last() {
        let p = query_pairs(Some("name=a&name=OS%3A%3AHeat%3A%3A"));
        assert_eq!(last(&p, "name"), Some("OS::Heat::"));
        assert_eq!(all(&p, "name"), ["a", "OS::Heat::"]);
    }
}
