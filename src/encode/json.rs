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
    serialize_with(out, value, formatter)?;
    out.write_all(b"\n")
}

/// The value written with `formatter`. (Generic over the writer: a record
/// rendered into a `Vec` writes each fragment without a dynamic call,
/// which was a third of the rendering.)
fn serialize_with<W, T, F>(out: &mut W, value: &T, formatter: F) -> io::Result<()>
where
    W: Write + ?Sized,
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
        })
}

/// A JSON object written field by field in [`write_line`]'s style, for
/// documents with a large array of independent records (`index`'s files,
/// `validate`'s findings): [`Object::records`] renders the records in
/// parallel a few thousand at a time and writes each chunk's bytes as they
/// are (on one thread, the JSON of 30,000 files was a twentieth of
/// `index`'s time, and holding every record's text at once would add it to
/// the peak heap). The caller writes the fields in the order serde would
/// (the report tests compare the bytes with serde's whole document).
pub(crate) struct Object<'w> {
    out: &'w mut dyn Write,
    first: bool,
}

/// How many items [`write_rendered`] renders at a time (in unit tests, a
/// few: the report tests then cross chunks).
#[cfg(not(test))]
const CHUNK: usize = 4096;
#[cfg(test)]
const CHUNK: usize = 3;
/// How many items are rendered into one buffer (in unit tests, fewer than
/// a chunk's).
#[cfg(not(test))]
const GROUP: usize = 64;
#[cfg(test)]
const GROUP: usize = 2;

impl<'w> Object<'w> {
    pub(crate) fn new(out: &'w mut dyn Write) -> Object<'w> {
        Object { out, first: true }
    }

    fn key(&mut self, key: &str) -> io::Result<()> {
        self.out.write_all(if self.first { b"{" } else { b", " })?;
        self.first = false;
        write_compact(self.out, key)?;
        self.out.write_all(b": ")
    }

    /// `"key": value`.
    pub(crate) fn field<T: Serialize + ?Sized>(&mut self, key: &str, value: &T) -> io::Result<()> {
        self.key(key)?;
        write_compact(self.out, value)
    }

    /// `"key": [record, ...]`, the records rendered in parallel.
    pub(crate) fn records<T: Record>(&mut self, key: &str, items: &[T]) -> io::Result<()> {
        self.key(key)?;
        self.out.write_all(b"[")?;
        write_rendered(self.out, items, b", ", |buf, _, group| {
            for (i, item) in group.iter().enumerate() {
                if i > 0 {
                    buf.extend_from_slice(b", ");
                }
                item.write_json(buf)?;
            }
            Ok(())
        })?;
        self.out.write_all(b"]")
    }

    /// Closes the object and ends the line.
    pub(crate) fn end(self) -> io::Result<()> {
        self.out
            .write_all(if self.first { b"{}\n" } else { b"}\n" })
    }
}

/// Writes `items` rendered in parallel, a few thousand at a time: `render`
/// writes a group of a few dozen (and the index of its first) into one
/// buffer, and the buffers are written in order with `between` between
/// them. (On one thread, the JSON of 30,000 files was a twentieth of
/// `index`'s time; holding every item's text at once would add it to the
/// peak heap.)
pub(crate) fn write_rendered<T: Sync>(
    out: &mut dyn Write,
    items: &[T],
    between: &[u8],
    render: impl Fn(&mut Vec<u8>, usize, &[T]) -> io::Result<()> + Sync,
) -> io::Result<()> {
    use rayon::prelude::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    let last = AtomicUsize::new(0);
    for (n, chunk) in items.chunks(CHUNK).enumerate() {
        // A few items to a buffer: one write, and one allocation, for each
        // group rather than each item.
        let rendered = chunk
            .par_chunks(GROUP)
            .enumerate()
            .map(|(g, group)| {
                // Sized as the last group rendered was (a buffer growing
                // from nothing copies itself a dozen times), within
                // reason: one huge item says little of the rest.
                let mut buf = Vec::with_capacity(last.load(Ordering::Relaxed).min(1 << 18));
                render(&mut buf, n * CHUNK + g * GROUP, group)?;
                last.store(buf.len() + buf.len() / 8, Ordering::Relaxed);
                Ok(buf)
            })
            .collect::<io::Result<Vec<Vec<u8>>>>()?;
        for (i, group) in rendered.iter().enumerate() {
            if n > 0 || i > 0 {
                out.write_all(between)?;
            }
            out.write_all(group)?;
        }
    }
    Ok(())
}

/// JSON Lines of records: each record on its own line, rendered in
/// parallel as [`Object::records`] renders them (the bytes of
/// [`write_line`] for each record in turn).
pub(crate) fn write_record_lines<T: Record>(out: &mut dyn Write, items: &[T]) -> io::Result<()> {
    write_rendered(out, items, b"", |buf, _, group| {
        for item in group {
            item.write_json(buf)?;
            buf.push(b'\n');
        }
        Ok(())
    })
}

/// A record of a large array [`Object::records`] writes: as serde writes
/// it, in [`write_line`]'s style, unless the type writes itself faster
/// (the same bytes: a finding of `validate`'s, see
/// [`crate::diag::Diagnostic`]).
pub(crate) trait Record: Serialize + Sync {
    /// Appends the record's JSON to `buf`.
    fn write_json(&self, buf: &mut Vec<u8>) -> io::Result<()> {
        write_compact(buf, self)
    }
}

/// A string's JSON, as serde writes it (quoted; `"`, `\` and control
/// characters escaped; other text as it is): most strings need no escape
/// and are copied whole.
pub(crate) fn write_str(buf: &mut Vec<u8>, s: &str) -> io::Result<()> {
    // Every byte tested (no early exit), which the compiler vectorises.
    let escapes = s.bytes().fold(0u8, |n, b| {
        n | u8::from(b < 0x20 || b == b'"' || b == b'\\')
    });
    let plain = escapes == 0;
    if plain {
        buf.reserve(s.len() + 2);
        buf.push(b'"');
        buf.extend_from_slice(s.as_bytes());
        buf.push(b'"');
        Ok(())
    } else {
        write_compact(buf, s)
    }
}

/// `[item, ...]` in [`write_line`]'s style, each item written by `item`.
pub(crate) fn write_list<T>(
    buf: &mut Vec<u8>,
    items: impl IntoIterator<Item = T>,
    mut item: impl FnMut(&mut Vec<u8>, T) -> io::Result<()>,
) -> io::Result<()> {
    buf.push(b'[');
    for (i, x) in items.into_iter().enumerate() {
        if i > 0 {
            buf.extend_from_slice(b", ");
        }
        item(buf, x)?;
    }
    buf.push(b']');
    Ok(())
}

/// `{"key": value, ...}` in [`write_line`]'s style, each value written
/// by `value`.
pub(crate) fn write_object<K: AsRef<str>, V>(
    buf: &mut Vec<u8>,
    pairs: impl IntoIterator<Item = (K, V)>,
    mut value: impl FnMut(&mut Vec<u8>, V) -> io::Result<()>,
) -> io::Result<()> {
    buf.push(b'{');
    for (i, (k, v)) in pairs.into_iter().enumerate() {
        if i > 0 {
            buf.extend_from_slice(b", ");
        }
        write_str(buf, k.as_ref())?;
        buf.extend_from_slice(b": ");
        value(buf, v)?;
    }
    buf.push(b'}');
    Ok(())
}

/// The value in [`write_line`]'s style, without the newline.
pub(crate) fn write_compact<W: Write + ?Sized, T: Serialize + ?Sized>(
    out: &mut W,
    value: &T,
) -> io::Result<()> {
    serialize_with(out, value, PythonStyle)
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
    impl super::Record for serde_json::Value {}

    /// JSON Lines rendered in parallel are each record's line written in
    /// turn: none, one, records across groups and chunks.
    #[test]
    fn record_lines_are_each_records_line_in_turn() {
        let records: Vec<serde_json::Value> = (0..7)
            .map(|i| serde_json::json!({"n": i, "text": "a \"q\" é\n"}))
            .collect();
        for n in [0, 1, 3, 7] {
            let mut out = Vec::new();
            super::write_record_lines(&mut out, &records[..n]).unwrap();
            let mut in_turn = Vec::new();
            for r in &records[..n] {
                super::write_line(&mut in_turn, r).unwrap();
            }
            assert_eq!(
                String::from_utf8(out).unwrap(),
                String::from_utf8(in_turn).unwrap()
            );
        }
    }

    /// An object written field by field is serde's, byte for byte: no
    /// fields, no records, records across chunks, text that needs escaping.
    #[test]
    fn an_object_written_by_fields_is_serdes() {
        let mut out = Vec::new();
        super::Object::new(&mut out).end().unwrap();
        assert_eq!(out, b"{}\n");
        let records: Vec<serde_json::Value> = (0..7)
            .map(|i| serde_json::json!({"n": i, "text": "a \"q\" é\n"}))
            .collect();
        for n in [0, 1, 3, 7] {
            let mut out = Vec::new();
            let mut o = super::Object::new(&mut out);
            o.field("a \"key\"", &1).unwrap();
            o.records("records", &records[..n]).unwrap();
            o.field("after", &[true]).unwrap();
            o.end().unwrap();
            let mut whole = Vec::new();
            let v = serde_json::json!({"a \"key\"": 1, "records": &records[..n], "after": [true]});
            super::write_line(&mut whole, &v).unwrap();
            assert_eq!(
                String::from_utf8(out).unwrap(),
                String::from_utf8(whole).unwrap()
            );
        }
    }

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
