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

/// The value written with `formatter`, then a newline.
fn write_with<T, F>(out: &mut dyn Write, value: &T, formatter: F) -> io::Result<()>
where
    T: Serialize + ?Sized,
    F: serde_json::ser::Formatter,
{
    let mut ser = serde_json::Serializer::with_formatter(&mut *out, formatter);
    value
        .serialize(&mut ser)
        .map_err(|e| match e.io_error_kind() {
            // Keep the kind, so a closed pipe is still recognised as one.
            Some(kind) => io::Error::from(kind),
            None => io::Error::other(e),
        })?;
    out.write_all(b"\n")
}

/// Each of `items` on one line as [`write_line`] writes it (without the
/// newline), rendered in parallel.
fn render_each<T: Serialize + Sync>(
    items: &[T],
) -> io::Result<Vec<Box<serde_json::value::RawValue>>> {
    use rayon::prelude::*;
    items
        .par_iter()
        .map(|item| {
            let mut buf = Vec::new();
            let mut ser = serde_json::Serializer::with_formatter(&mut buf, PythonStyle);
            item.serialize(&mut ser).map_err(io::Error::other)?;
            let text = String::from_utf8(buf).map_err(io::Error::other)?;
            serde_json::value::RawValue::from_string(text).map_err(io::Error::other)
        })
        .collect()
}

/// A large array of independent records (`index`'s files, `validate`'s
/// findings) serialized as the array of them, byte for byte, with the
/// records rendered in parallel a few thousand at a time: on one thread,
/// the JSON of 30,000 files was a twentieth of `index`'s time, and
/// holding every record's text at once would add it to the peak heap.
/// For [`write_line`]'s style only (the records are written as rendered).
pub(crate) struct ParallelSeq<'a, T>(pub &'a [T]);

/// How many records are rendered at a time (in unit tests, a few: the
/// report tests then cross chunks).
#[cfg(not(test))]
const CHUNK: usize = 4096;
#[cfg(test)]
const CHUNK: usize = 3;

impl<T: Serialize + Sync> Serialize for ParallelSeq<'_, T> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{Error, SerializeSeq};
        let mut seq = s.serialize_seq(Some(self.0.len()))?;
        for chunk in self.0.chunks(CHUNK) {
            for record in render_each(chunk).map_err(S::Error::custom)? {
                seq.serialize_element(&record)?;
            }
        }
        seq.end()
    }
}

/// The value on one line, then a newline.
pub(crate) fn write_line<T: Serialize + ?Sized>(out: &mut dyn Write, value: &T) -> io::Result<()> {
    write_with(out, value, PythonStyle)
}

/// Python's `json.dump(value, indent=2)` (what python-heatclient prints
/// with `-f json`): two-space indents, `", "`-free lines, every character
/// beyond ASCII escaped (`ensure_ascii`), then a newline.
pub(crate) fn write_indented<T: Serialize + ?Sized>(
    out: &mut dyn Write,
    value: &T,
) -> io::Result<()> {
    write_with(out, value, Indented::default())
}

/// serde_json's pretty printer with Python's escaping of non-ASCII text.
struct Indented<'a>(serde_json::ser::PrettyFormatter<'a>);

impl Default for Indented<'_> {
    fn default() -> Self {
        Indented(serde_json::ser::PrettyFormatter::with_indent(b"  "))
    }
}

macro_rules! delegate {
    ($($name:ident($($arg:ident: $ty:ty),*);)*) => {$(
        fn $name<W: ?Sized + Write>(&mut self, w: &mut W $(, $arg: $ty)*) -> io::Result<()> {
            self.0.$name(w $(, $arg)*)
        }
    )*};
}

impl Formatter for Indented<'_> {
    delegate! {
        begin_array();
        end_array();
        begin_array_value(first: bool);
        end_array_value();
        begin_object();
        end_object();
        begin_object_key(first: bool);
        begin_object_value();
        end_object_value();
    }

    fn write_string_fragment<W: ?Sized + Write>(
        &mut self,
        w: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        let mut start = 0;
        for (i, c) in fragment.char_indices() {
            if c.is_ascii() && c != '\x7f' {
                continue;
            }
            w.write_all(&fragment.as_bytes()[start..i])?;
            let mut units = [0u16; 2];
            for u in c.encode_utf16(&mut units) {
                write!(w, "\\u{u:04x}")?;
            }
            start = i + c.len_utf8();
        }
        w.write_all(&fragment.as_bytes()[start..])
    }
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

    /// `json.dump(v, indent=2)` prints exactly this (CPython 3.11).
    #[test]
    fn python_indent_2() {
        let v = serde_json::json!({"a": [1, 1.0, {}], "b": [], "c": "caf\u{e9} \u{1f600}\u{7f}\n", "d": null});
        let mut out = Vec::new();
        super::write_indented(&mut out, &v).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "{\n  \"a\": [\n    1,\n    1.0,\n    {}\n  ],\n  \"b\": [],\n  \"c\": \"caf\\u00e9 \\ud83d\\ude00\\u007f\\n\",\n  \"d\": null\n}\n"
        );
    }
}
