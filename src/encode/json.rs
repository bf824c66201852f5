//! JSON in the spacing Python's `json.dumps` uses by default
//! (`{"a": [1, 2]}`), so the outputs in capabilities.md §3 come out byte for
//! byte, on one line, ready for `jq` and for HTTP bodies.

use std::io::{self, Write};

use serde::Serialize;
use serde_json::ser::Formatter;

/// `", "` between items and `": "` after keys.
struct PythonStyle;

impl Formatter for PythonStyle {
    fn begin_array_value<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        if first {
            Ok(())
        } else {
            w.write_all(b", ")
        }
    }

    fn begin_object_key<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        if first {
            Ok(())
        } else {
            w.write_all(b", ")
        }
    }

    fn begin_object_value<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        w.write_all(b": ")
    }
}

/// The value on one line, then a newline.
pub(crate) fn write_line<T: Serialize + ?Sized>(out: &mut dyn Write, value: &T) -> io::Result<()> {
    let mut ser = serde_json::Serializer::with_formatter(&mut *out, PythonStyle);
    value
        .serialize(&mut ser)
        .map_err(|e| match e.io_error_kind() {
            // Keep the kind, so a closed pipe is still recognised as one.
            Some(kind) => io::Error::from(kind),
            None => io::Error::other(e),
        })?;
    out.write_all(b"\n")
}

/// The value as a string in the same style.
///
/// # Panics
/// Never: writing JSON to memory cannot fail for heatcap's own values.
pub(crate) fn to_string<T: Serialize + ?Sized>(value: &T) -> String {
    let mut buf = Vec::new();
    write_line(&mut buf, value).expect("writing to a Vec cannot fail");
    buf.pop();
    String::from_utf8(buf).expect("serde_json writes UTF-8")
}

#[cfg(test)]
mod tests {
    #[test]
    fn python_spacing() {
        let v = serde_json::json!({"deployment": ["puppet", "docker"], "n": {"a": 1}});
        assert_eq!(
            super::to_string(&v),
            r#"{"deployment": ["puppet", "docker"], "n": {"a": 1}}"#
        );
    }
}
