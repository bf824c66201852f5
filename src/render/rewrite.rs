//! Where a template's lists and dicts are born mutable: every
//! `{% set NAME = [...] %}` or `{% set NAME = {...} %}` (a literal, or an
//! expression starting with one) becomes `{% set NAME =
//! __heatcap_mutable(...) %}`, so the value is a [`super::pyobj::PyList`]
//! or [`super::pyobj::PyDict`] that `.append`, `.pop` and `.update` change
//! in place, as Python's would be.
//!
//! The text is read as Jinja2's lexer reads it (default delimiters;
//! comments, `{% raw %}` blocks, string literals and bracket nesting
//! inside tags are skipped as the lexer skips them), not matched by a
//! pattern: a `set` inside a comment, a raw block or a string is left
//! alone. Nothing is removed and only text inside one tag is inserted, so
//! line numbers are unchanged; [`Rewritten::original_offset`] maps a
//! position back for columns.

// A byte scanner reads best with the short names of its positions.
#![allow(clippy::many_single_char_names)]

/// The name of the function the rewritten text calls.
pub(crate) const MUTABLE_FN: &str = "__heatcap_mutable";

/// A rewritten template text.
#[derive(Debug, Clone)]
pub(crate) struct Rewritten {
    /// The text minijinja compiles.
    pub text: String,
    /// (offset in `text` where inserted text starts, its length), in order.
    inserted: Vec<(usize, usize)>,
}

impl Rewritten {
    /// The offset in the original text of `offset` in [`Rewritten::text`].
    pub(crate) fn original_offset(&self, offset: usize) -> usize {
        let mut shift = 0;
        for &(at, len) in &self.inserted {
            if offset >= at + len {
                shift += len;
            } else if offset >= at {
                return at - shift;
            } else {
                break;
            }
        }
        offset - shift
    }
}

/// Skips a string literal starting at `i` (a quote); returns the offset
/// after it (the end of the text when it does not close).
fn skip_string(b: &[u8], i: usize) -> usize {
    let q = b[i];
    let mut j = i + 1;
    while j < b.len() {
        match b[j] {
            b'\\' => j += 2,
            c if c == q => return j + 1,
            _ => j += 1,
        }
    }
    b.len()
}

/// From `i` inside a tag, the offset of its end marker (`-%}`, `%}`,
/// `-}}`, `}}` as `end` says) at bracket depth 0 outside strings; `None`
/// when the tag does not close.
fn tag_end(b: &[u8], mut i: usize, end: u8) -> Option<usize> {
    let mut depth = 0usize;
    while i < b.len() {
        match b[i] {
            b'"' | b'\'' => {
                i = skip_string(b, i);
                continue;
            }
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' => depth = depth.saturating_sub(1),
            b'}' if depth > 0 => depth -= 1,
            b'-' if depth == 0 && b.get(i + 1) == Some(&end) && b.get(i + 2) == Some(&b'}') => {
                return Some(i);
            }
            c if c == end && depth == 0 && b.get(i + 1) == Some(&b'}') => return Some(i),
            _ => {}
        }
        i += 1;
    }
    None
}

fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && b[i].is_ascii_whitespace() {
        i += 1;
    }
    i
}

fn ident(b: &[u8], i: usize) -> usize {
    let mut j = i;
    while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'_') {
        j += 1;
    }
    j
}

/// `text` with every list or dict assigned by `set` made mutable.
pub(crate) fn rewrite(text: &str) -> Rewritten {
    let b = text.as_bytes();
    let mut inserts: Vec<(usize, &'static str)> = Vec::new();
    let mut i = 0;
    while let Some(k) = memchr::memchr(b'{', &b[i..]) {
        let at = i + k;
        match b.get(at + 1) {
            Some(b'#') => {
                i = memchr::memmem::find(&b[at + 2..], b"#}").map_or(b.len(), |e| at + 2 + e + 2);
            }
            Some(b'{') => {
                i = tag_end(b, at + 2, b'}').map_or(b.len(), |e| e + 2);
            }
            Some(b'%') => {
                let mut j = at + 2;
                if matches!(b.get(j), Some(b'-' | b'+')) {
                    j += 1;
                }
                j = skip_ws(b, j);
                let word_end = ident(b, j);
                let word = &text[j..word_end];
                let Some(end) = tag_end(b, word_end, b'%') else {
                    break;
                };
                if word == "raw" {
                    i = find_endraw(b, end).unwrap_or(b.len());
                    continue;
                }
                if word == "set" {
                    if let Some(start) = set_literal(b, word_end, end) {
                        let mut stop = end;
                        while stop > start && b[stop - 1].is_ascii_whitespace() {
                            stop -= 1;
                        }
                        inserts.push((start, "__heatcap_mutable("));
                        inserts.push((stop, ")"));
                    }
                }
                i = end + 2;
            }
            _ => i = at + 1,
        }
    }
    let mut out = String::with_capacity(text.len() + inserts.len() * 10);
    let mut inserted = Vec::with_capacity(inserts.len());
    let mut from = 0;
    for (at, s) in inserts {
        out.push_str(&text[from..at]);
        inserted.push((out.len(), s.len()));
        out.push_str(s);
        from = at;
    }
    out.push_str(&text[from..]);
    Rewritten {
        text: out,
        inserted,
    }
}

/// In `{% set NAME = EXPR %}` (from after `set`), the start of EXPR when it
/// starts with `[` or `{`.
fn set_literal(b: &[u8], from: usize, end: usize) -> Option<usize> {
    let j = skip_ws(b, from);
    let name_end = ident(b, j);
    if name_end == j {
        return None;
    }
    let eq = skip_ws(b, name_end);
    if b.get(eq) != Some(&b'=') || b.get(eq + 1) == Some(&b'=') {
        return None;
    }
    let start = skip_ws(b, eq + 1);
    (start < end && matches!(b[start], b'[' | b'{')).then_some(start)
}

/// After a `{% raw %}` tag's end marker at `from`, the offset after the
/// matching `{% endraw %}` tag.
fn find_endraw(b: &[u8], from: usize) -> Option<usize> {
    let mut i = from;
    while let Some(k) = memchr::memmem::find(&b[i..], b"{%") {
        let at = i + k;
        let mut j = at + 2;
        if matches!(b.get(j), Some(b'-' | b'+')) {
            j += 1;
        }
        j = skip_ws(b, j);
        if b[j..].starts_with(b"endraw") {
            let end = tag_end(b, j + 6, b'%')?;
            return Some(end + 2);
        }
        i = at + 2;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_of_a_literal_is_wrapped() {
        let r = rewrite("a{%- set x = [roles[0]] -%}b{% set y={} %}{% set z = 'q' %}");
        assert_eq!(
            r.text,
            "a{%- set x = __heatcap_mutable([roles[0]]) -%}b{% set y=__heatcap_mutable({}) %}{% set z = 'q' %}"
        );
    }

    #[test]
    fn comments_raw_blocks_strings_and_other_tags_are_left_alone() {
        let src = "{# {% set x = [] %} #}{% raw %}{% set y = [] %}{% endraw %}{{ '{% set z = [] %}' }}{% if a == [] %}{% endif %}{{ {'a': {'b': 1}} }}{% set w = [1, '%}'] %}";
        let r = rewrite(src);
        assert_eq!(
            r.text,
            "{# {% set x = [] %} #}{% raw %}{% set y = [] %}{% endraw %}{{ '{% set z = [] %}' }}{% if a == [] %}{% endif %}{{ {'a': {'b': 1}} }}{% set w = __heatcap_mutable([1, '%}']) %}"
        );
    }

    #[test]
    fn offsets_map_back() {
        let src = "x\n{% set a = [] %}{{ q.r }}";
        let r = rewrite(src);
        let at = r.text.find("q.r").unwrap();
        assert_eq!(r.original_offset(at), src.find("q.r").unwrap());
        let inside = r.text.find("__heatcap").unwrap() + 3;
        assert_eq!(r.original_offset(inside), src.find("[]").unwrap());
    }
}
