//! Heat's fault document (heat/api/middleware/fault.py): every error the
//! service answers, with Heat's status code and webob's title and
//! explanation for it, never plain text.

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::{json, Value};

/// One error answer: the HTTP status, the exception class Heat would name,
/// and the message (absent where Heat sends none: plain Python
/// exceptions, which its middleware does not treat as safe).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Fault {
    pub status: StatusCode,
    pub kind: String,
    pub message: Option<String>,
}

impl Fault {
    pub(crate) fn new(status: StatusCode, kind: &str, message: impl Into<String>) -> Fault {
        Fault {
            status,
            kind: kind.to_owned(),
            message: Some(message.into()),
        }
    }

    /// 400 with the controller's `HTTPBadRequest`.
    pub(crate) fn bad_request(message: impl Into<String>) -> Fault {
        Fault::new(StatusCode::BAD_REQUEST, "HTTPBadRequest", message)
    }

    /// 400 `RequestLimitExceeded` ("Request limit exceeded: ...").
    pub(crate) fn limit(message: &str) -> Fault {
        Fault::new(
            StatusCode::BAD_REQUEST,
            "RequestLimitExceeded",
            format!("Request limit exceeded: {message}"),
        )
    }

    /// 403 for a path that leaves the served roots.
    pub(crate) fn forbidden(message: impl Into<String>) -> Fault {
        Fault::new(StatusCode::FORBIDDEN, "Forbidden", message)
    }

    /// 404 `EntityNotFound` or `NotFound`.
    pub(crate) fn not_found(kind: &str, message: impl Into<String>) -> Fault {
        Fault::new(StatusCode::NOT_FOUND, kind, message)
    }

    /// 500: what Heat answers for anything it does not map.
    pub(crate) fn internal(kind: &str, message: impl Into<String>) -> Fault {
        Fault::new(StatusCode::INTERNAL_SERVER_ERROR, kind, message)
    }

    /// The document, in Heat's key order.
    pub(crate) fn document(&self) -> Value {
        let (title, explanation) = texts(self.status);
        let mut error = json!({"type": self.kind, "traceback": null});
        if let (Some(m), Value::Object(e)) = (&self.message, &mut error) {
            e.insert("message".to_owned(), Value::String(m.clone()));
        }
        json!({
            "code": self.status.as_u16(),
            "title": title,
            "explanation": explanation,
            "error": error,
        })
    }
}

/// webob's title and explanation for a status (whitespace normalised).
fn texts(status: StatusCode) -> (&'static str, &'static str) {
    match status.as_u16() {
        400 => ("Bad Request", "The server could not comply with the request since it is either malformed or otherwise incorrect."),
        403 => ("Forbidden", "Access was denied to this resource."),
        404 => ("Not Found", "The resource could not be found."),
        405 => ("Method Not Allowed", "The method specified is not allowed for this resource."),
        503 => ("Service Unavailable", "The server is currently unavailable. Please try again at a later time."),
        _ => ("Internal Server Error", "The server has either erred or is incapable of performing the requested operation."),
    }
}

impl IntoResponse for Fault {
    fn into_response(self) -> Response {
        let body = crate::encode::json::to_string(&self.document());
        json_response(self.status, body)
    }
}

/// A JSON answer (Heat's responses are always `application/json`).
pub(crate) fn json_response(status: StatusCode, body: String) -> Response {
    let mut r = (status, body).into_response();
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    /// heat/tests/test_fault_middleware.py: code, title, explanation and
    /// error (type, traceback, message), in that order.
    #[test]
    fn heat_shape_and_order() {
        let f = Fault::not_found(
            "EntityNotFound",
            "The Resource Type (X) could not be found.",
        );
        assert_eq!(
            crate::encode::json::to_string(&f.document()),
            r#"{"code": 404, "title": "Not Found", "explanation": "The resource could not be found.", "error": {"type": "EntityNotFound", "traceback": null, "message": "The Resource Type (X) could not be found."}}"#
        );
    }

    #[test]
    fn unsafe_exceptions_carry_no_message() {
        let f = Fault {
            status: StatusCode::BAD_REQUEST,
            kind: "ValueError".into(),
            message: None,
        };
        assert!(f.document()["error"].get("message").is_none());
        assert_eq!(f.document()["code"], 400);
    }
}
