//! Positions: heatcap's (1-based lines, 1-based columns in characters)
//! and the protocol's (0-based lines, 0-based columns in the negotiated
//! encoding's code units: UTF-16 by default, UTF-8 or UTF-32 when the
//! client offers them). And file paths as `file://` URIs.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::diag::{Pos, Span};

/// The unit of the protocol's columns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Encoding {
    /// UTF-8 code units (bytes).
    Utf8,
    /// UTF-16 code units (the protocol's default).
    Utf16,
    /// Unicode scalar values (heatcap's own columns).
    Utf32,
}

impl Encoding {
    /// The encoding to use among those a client offers (`None`: the
    /// client offered nothing, so UTF-16). heatcap's columns are
    /// characters, so UTF-32 needs no conversion and is preferred, then
    /// UTF-8.
    pub(crate) fn negotiate(offered: Option<&[String]>) -> Encoding {
        let offered = offered.unwrap_or_default();
        if offered.iter().any(|e| e == "utf-32") {
            Encoding::Utf32
        } else if offered.iter().any(|e| e == "utf-8") {
            Encoding::Utf8
        } else {
            Encoding::Utf16
        }
    }

    /// The protocol's name of the encoding.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Encoding::Utf8 => "utf-8",
            Encoding::Utf16 => "utf-16",
            Encoding::Utf32 => "utf-32",
        }
    }

    fn width(self, c: char) -> u32 {
        // A char's UTF-8 and UTF-16 lengths are at most 4 and 2.
        #[allow(clippy::cast_possible_truncation)]
        match self {
            Encoding::Utf8 => c.len_utf8() as u32,
            Encoding::Utf16 => c.len_utf16() as u32,
            Encoding::Utf32 => 1,
        }
    }
}

/// A text's lines, to convert positions in it.
pub(crate) struct Lines<'a> {
    lines: Vec<&'a str>,
    encoding: Encoding,
}

impl<'a> Lines<'a> {
    pub(crate) fn new(text: &'a str, encoding: Encoding) -> Lines<'a> {
        Lines {
            lines: text
                .split('\n')
                .map(|l| l.strip_suffix('\r').unwrap_or(l))
                .collect(),
            encoding,
        }
    }

    /// heatcap's position → the protocol's.
    pub(crate) fn to_lsp(&self, pos: Pos) -> lsp_types::Position {
        let line = pos.line.saturating_sub(1);
        let chars = pos.column.saturating_sub(1) as usize;
        let text = self.lines.get(line as usize).copied().unwrap_or("");
        let mut units = 0;
        let mut n = 0;
        for c in text.chars().take(chars) {
            units += self.encoding.width(c);
            n += 1;
        }
        // Past the end of the line (a span's end at a line break): as many
        // units as characters beyond.
        let beyond = u32::try_from(chars - n).unwrap_or(u32::MAX);
        lsp_types::Position::new(line, units.saturating_add(beyond))
    }

    /// The protocol's position → heatcap's (a column inside a character
    /// rounds down to it).
    pub(crate) fn to_heatcap(&self, pos: lsp_types::Position) -> Pos {
        let text = self.lines.get(pos.line as usize).copied().unwrap_or("");
        let mut units = 0;
        let mut column = 1;
        for c in text.chars() {
            let w = self.encoding.width(c);
            if units + w > pos.character {
                break;
            }
            units += w;
            column += 1;
        }
        Pos {
            line: pos.line + 1,
            column,
        }
    }

    /// heatcap's span → the protocol's range.
    pub(crate) fn range(&self, span: Span) -> lsp_types::Range {
        lsp_types::Range::new(self.to_lsp(span.start), self.to_lsp(span.end))
    }
}

/// The path of a `file://` URI (`None` for any other scheme).
pub(crate) fn path_of(uri: &str) -> Option<PathBuf> {
    let rest = uri.strip_prefix("file://")?;
    // `file://host/path`: only the local host.
    let rest = rest.strip_prefix("localhost").unwrap_or(rest);
    let bytes = rest.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).unwrap_or("");
            if let Ok(b) = u8::from_str_radix(hex, 16) {
                out.push(b);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8(out).ok().map(PathBuf::from)
}

/// The `file://` URI of an absolute path.
pub(crate) fn uri_of(path: &Path) -> String {
    let mut out = String::from("file://");
    for b in path.to_string_lossy().bytes() {
        if b.is_ascii_alphanumeric() || b"/-._~".contains(&b) {
            out.push(char::from(b));
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_convert_in_each_encoding() {
        // `é` is 2 UTF-8 bytes, 1 UTF-16 unit; `𝄞` 4 bytes, 2 units.
        let text = "a: é𝄞x\r\nb";
        let p = Pos { line: 1, column: 6 }; // the `x`
        assert_eq!(
            Lines::new(text, Encoding::Utf16).to_lsp(p),
            lsp_types::Position::new(0, 6)
        );
        assert_eq!(
            Lines::new(text, Encoding::Utf8).to_lsp(p),
            lsp_types::Position::new(0, 9)
        );
        assert_eq!(
            Lines::new(text, Encoding::Utf32).to_lsp(p),
            lsp_types::Position::new(0, 5)
        );
        for e in [Encoding::Utf8, Encoding::Utf16, Encoding::Utf32] {
            let l = Lines::new(text, e);
            assert_eq!(l.to_heatcap(l.to_lsp(p)), p, "{e:?}");
        }
        // Inside the surrogate pair: the character it is part of.
        let l = Lines::new(text, Encoding::Utf16);
        assert_eq!(
            l.to_heatcap(lsp_types::Position::new(0, 5)),
            Pos { line: 1, column: 5 }
        );
        // Past the end, and on a missing line: no panic.
        assert_eq!(
            l.to_lsp(Pos { line: 1, column: 9 }),
            lsp_types::Position::new(0, 9)
        );
        assert_eq!(
            l.to_lsp(Pos { line: 7, column: 3 }),
            lsp_types::Position::new(6, 2)
        );
        assert_eq!(
            l.to_heatcap(lsp_types::Position::new(9, 9)),
            Pos {
                line: 10,
                column: 1
            }
        );
    }

    #[test]
    fn encodings_are_negotiated() {
        assert_eq!(Encoding::negotiate(None), Encoding::Utf16);
        let offered = vec!["utf-16".to_owned(), "utf-8".to_owned()];
        assert_eq!(Encoding::negotiate(Some(&offered)), Encoding::Utf8);
        let offered = vec!["utf-8".to_owned(), "utf-32".to_owned()];
        assert_eq!(Encoding::negotiate(Some(&offered)), Encoding::Utf32);
    }

    #[test]
    fn uris_round_trip() {
        let p = Path::new("/tmp/a dir/é.yaml");
        let u = uri_of(p);
        assert_eq!(u, "file:///tmp/a%20dir/%C3%A9.yaml");
        assert_eq!(path_of(&u).unwrap(), p);
        assert_eq!(path_of("untitled:Untitled-1"), None);
        assert_eq!(path_of("file:///x%2"), Some(PathBuf::from("/x%2")));
    }
}
