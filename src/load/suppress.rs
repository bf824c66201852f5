//! Inline suppressions: `# heatcap: ignore[CODE, ...]` and
//! `# heatcap: ignore-file[CODE, ...]` comments, read from the text (the
//! parser drops comments).
//!
//! A `#` starts a comment, as in YAML, at the start of a line or after a
//! space or tab, and never inside a scalar. When the file parses, "inside
//! a scalar" is decided by the parser's own positions: every scalar node's
//! span (quoted scalars, block scalars `|` and `>`, keys) is left out, but
//! the header line of a block scalar may end in a comment. When it does
//! not parse, a lexical approximation is used: quotes that open a scalar
//! (at the start of a line, or after `: `, `- `, `? `, `[`, `{`, `,`, a
//! tag or an anchor) are followed across lines; block scalars are not
//! recognised.
//!
//! The directive may also follow another comment on the same line
//! (`# noqa # heatcap: ignore[W2003]`). A line directive after content
//! applies to its own line; one alone on its line applies to the next line
//! that is not itself a comment line (so directives may be stacked). This
//! module only reads them; `validate` applies them.

use crate::diag::Pos;
use crate::node::{Node, Value};

/// What a directive covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Scope {
    /// Findings that start on this line (1-based).
    Line(u32),
    /// Every finding of the file.
    File,
}

/// One `# heatcap:` comment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Directive {
    /// Where its `#` is.
    pub at: Pos,
    /// What it covers.
    pub scope: Scope,
    /// The codes it names that have the shape of a code (`E3004`), in order.
    pub codes: Vec<String>,
    /// What is wrong with it (not a known directive, no brackets, an item
    /// that is not a code). When the directive itself cannot be read,
    /// `codes` is empty.
    pub problems: Vec<String>,
}

/// What every suppression comment holds: a text without it has none.
const MARK: &[u8] = b"heatcap:";

/// Whether `text` holds [`MARK`], so may hold suppression comments.
pub(crate) fn has_mark(text: &str) -> bool {
    memchr::memmem::find(text.as_bytes(), MARK).is_some()
}

/// Every `# heatcap:` directive of `text`, in order. `tree` is the parsed
/// document when there is one (its scalar spans decide what is a comment).
pub(crate) fn scan(text: &str, tree: Option<&Node>) -> Vec<Directive> {
    if !has_mark(text) {
        return Vec::new();
    }
    let lines: Vec<&str> = text
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect();
    let starts = match tree {
        Some(root) => comment_starts_by_tree(&lines, root),
        None => comment_starts_lexical(&lines),
    };
    let mut out = Vec::new();
    for (i, start) in starts.iter().enumerate() {
        let Some(byte) = *start else { continue };
        let line = lines[i];
        let comment = &line[byte..];
        let Some((offset, body)) = directive_text(comment) else {
            continue;
        };
        let column = line[..byte + offset].chars().count() + 1;
        let own_line = line[..byte].trim().is_empty();
        let target = if own_line {
            // The next line that is not a comment line.
            let mut j = i + 1;
            while j < lines.len() && starts[j].is_some_and(|b| lines[j][..b].trim().is_empty()) {
                j += 1;
            }
            j + 1
        } else {
            i + 1
        };
        let at = Pos {
            line: (i + 1) as u32,
            column: column as u32,
        };
        out.push(parse(body, at, target as u32));
    }
    out
}

/// Within a comment (starting with `#`), the `#` that starts a `heatcap:`
/// directive (its byte offset) and the text after `heatcap:`.
fn directive_text(comment: &str) -> Option<(usize, &str)> {
    comment.match_indices('#').find_map(|(i, _)| {
        comment[i + 1..]
            .trim_start_matches([' ', '\t'])
            .strip_prefix("heatcap:")
            .map(|body| (i, body))
    })
}

/// Reads what follows `heatcap:`.
fn parse(body: &str, at: Pos, target: u32) -> Directive {
    let body = body.trim_start();
    let mut d = Directive {
        at,
        scope: Scope::Line(target),
        codes: Vec::new(),
        problems: Vec::new(),
    };
    let (scope, rest) = if let Some(rest) = body.strip_prefix("ignore-file") {
        (Scope::File, rest)
    } else if let Some(rest) = body.strip_prefix("ignore") {
        (Scope::Line(target), rest)
    } else {
        let word: String = body.chars().take_while(|c| !c.is_whitespace()).collect();
        d.problems.push(format!(
            "unknown directive `heatcap: {word}`: expected `ignore[CODE, ...]` or `ignore-file[CODE, ...]`"
        ));
        return d;
    };
    d.scope = scope;
    let name = if scope == Scope::File {
        "ignore-file"
    } else {
        "ignore"
    };
    let Some(list) = rest.trim_start().strip_prefix('[') else {
        d.problems.push(format!(
            "`{name}` needs the codes it suppresses in brackets: `{name}[CODE, ...]`"
        ));
        return d;
    };
    let Some(end) = list.find(']') else {
        d.problems.push(format!("`{name}[` is not closed with `]`"));
        return d;
    };
    for item in list[..end]
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
    {
        if is_code(item) {
            d.codes.push(item.to_owned());
        } else {
            d.problems.push(format!(
                "`{item}` is not a code (a letter E, W or I and four digits)"
            ));
        }
    }
    if d.codes.is_empty() && d.problems.is_empty() {
        d.problems.push(format!("`{name}[]` names no code"));
    }
    d
}

/// `E3004`: a severity letter and four digits.
fn is_code(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 5 && matches!(b[0], b'E' | b'W' | b'I') && b[1..].iter().all(u8::is_ascii_digit)
}

/// Byte offsets of each `#` that can start a comment: at the start of the
/// line or after a space or tab.
fn hashes(line: &str) -> impl Iterator<Item = usize> + '_ {
    line.match_indices('#')
        .map(|(i, _)| i)
        .filter(move |&i| i == 0 || matches!(line.as_bytes()[i - 1], b' ' | b'\t'))
}

/// Where each line's comment starts (a byte offset), the parser's scalar
/// spans deciding which `#` are inside a scalar.
fn comment_starts_by_tree(lines: &[&str], root: &Node) -> Vec<Option<usize>> {
    let mut spans = Vec::new();
    scalar_spans(root, &mut spans);
    spans.sort_unstable_by_key(|s| s.0);
    lines
        .iter()
        .enumerate()
        .map(|(i, line)| {
            hashes(line).find(|&b| {
                let pos = Pos {
                    line: (i + 1) as u32,
                    column: (line[..b].chars().count() + 1) as u32,
                };
                !inside_scalar(&spans, pos, lines)
            })
        })
        .collect()
}

/// The start and end of every scalar of the tree (keys included).
fn scalar_spans(node: &Node, out: &mut Vec<(Pos, Pos)>) {
    match &node.value {
        Value::Seq(items) => items.iter().for_each(|n| scalar_spans(n, out)),
        Value::Map(m) => {
            for (k, v) in &m.entries {
                scalar_spans(k, out);
                scalar_spans(v, out);
            }
        }
        _ => out.push((node.span.start, node.span.end)),
    }
}

/// True when `pos` falls within a scalar, except on the header line of a
/// block scalar (`key: |  # a comment`). Scalars do not overlap, so the
/// only candidate is the last one starting at or before `pos`.
fn inside_scalar(spans: &[(Pos, Pos)], pos: Pos, lines: &[&str]) -> bool {
    let n = spans.partition_point(|s| s.0 <= pos);
    let Some(&(start, end)) = n.checked_sub(1).and_then(|i| spans.get(i)) else {
        return false;
    };
    if pos >= end {
        return false;
    }
    if start.line == pos.line {
        let first = (start.line as usize)
            .checked_sub(1)
            .and_then(|i| lines.get(i))
            .zip((start.column as usize).checked_sub(1))
            .and_then(|(l, c)| l.chars().nth(c));
        if matches!(first, Some('|' | '>')) {
            return false;
        }
    }
    true
}

/// Where each line's comment starts, without a tree: quotes that open a
/// scalar are followed (across lines); block scalars are not recognised.
fn comment_starts_lexical(lines: &[&str]) -> Vec<Option<usize>> {
    #[derive(Clone, Copy, PartialEq)]
    enum Quote {
        None,
        Single,
        Double,
    }
    let mut quote = Quote::None;
    let mut out = Vec::with_capacity(lines.len());
    for line in lines {
        let mut found = None;
        // The last character read, the last one that is not blank, and the
        // first character of the last word (a tag `!` or an anchor `&`).
        let (mut prev, mut prev_solid, mut word_first): (Option<char>, Option<char>, Option<char>) =
            (None, None, None);
        let mut escaped = false;
        let mut chars = line.char_indices().peekable();
        while let Some((i, c)) = chars.next() {
            match quote {
                Quote::Double => {
                    if escaped {
                        escaped = false;
                    } else if c == '\\' {
                        escaped = true;
                    } else if c == '"' {
                        quote = Quote::None;
                    }
                }
                Quote::Single => {
                    if c == '\'' {
                        if chars.peek().is_some_and(|&(_, n)| n == '\'') {
                            chars.next();
                        } else {
                            quote = Quote::None;
                        }
                    }
                }
                Quote::None => {
                    let after_blank = prev.is_none_or(|p| p == ' ' || p == '\t');
                    if c == '#' && after_blank {
                        found = Some(i);
                        break;
                    }
                    if (c == '"' || c == '\'') && opens_scalar(prev_solid, word_first, after_blank)
                    {
                        quote = if c == '"' {
                            Quote::Double
                        } else {
                            Quote::Single
                        };
                    }
                }
            }
            if c != ' ' && c != '\t' {
                if prev.is_none_or(|p| p == ' ' || p == '\t') {
                    word_first = Some(c);
                }
                prev_solid = Some(c);
            }
            prev = Some(c);
        }
        out.push(found);
    }
    out
}

/// Whether a quote opens a quoted scalar, given what precedes it on the
/// line: nothing, a flow indicator, or (after a blank) a mapping value,
/// sequence entry or key indicator, a tag or an anchor. Elsewhere it is a
/// character of a plain scalar (`it's`, `say 'hi'`).
fn opens_scalar(prev_solid: Option<char>, word_first: Option<char>, after_blank: bool) -> bool {
    match prev_solid {
        None | Some('[' | '{' | ',') => true,
        Some(':' | '-' | '?') => after_blank,
        Some(_) => after_blank && matches!(word_first, Some('!' | '&')),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::{parse_text, ParseOptions};

    fn both(text: &str) -> [Vec<Directive>; 2] {
        let tree = parse_text(text, "t.yaml", &ParseOptions::default()).root;
        assert!(tree.is_some(), "the test text parses");
        [scan(text, tree.as_ref()), scan(text, None)]
    }

    fn brief(d: &Directive) -> (u32, u32, Scope, Vec<&str>) {
        (
            d.at.line,
            d.at.column,
            d.scope,
            d.codes.iter().map(String::as_str).collect(),
        )
    }

    #[test]
    fn trailing_comment_covers_its_line() {
        for found in both("a: 1  # heatcap: ignore[E3004]\nb: 2\n") {
            assert_eq!(
                found.iter().map(brief).collect::<Vec<_>>(),
                vec![(1, 7, Scope::Line(1), vec!["E3004"])]
            );
        }
    }

    #[test]
    fn own_line_comment_covers_the_next_line_skipping_comments() {
        let text = "a: 1\n  # heatcap: ignore[E3004, W2003]\n# heatcap: ignore[E1001]\nb: 2\n\n# heatcap: ignore[E1002]\n\nc: 3\n";
        for found in both(text) {
            assert_eq!(
                found.iter().map(brief).collect::<Vec<_>>(),
                vec![
                    (2, 3, Scope::Line(4), vec!["E3004", "W2003"]),
                    (3, 1, Scope::Line(4), vec!["E1001"]),
                    // A blank line is not skipped.
                    (6, 1, Scope::Line(7), vec!["E1002"]),
                ]
            );
        }
    }

    #[test]
    fn file_directive_and_comment_before_it() {
        for found in both("# noqa # heatcap: ignore-file[W2003]\na: 1\n") {
            assert_eq!(
                found.iter().map(brief).collect::<Vec<_>>(),
                vec![(1, 8, Scope::File, vec!["W2003"])]
            );
        }
    }

    #[test]
    fn hash_inside_quotes_or_words_is_not_a_comment() {
        let text = concat!(
            "a: \"x # heatcap: ignore[E0001]\"\n",
            "b: 'it''s # heatcap: ignore[E0002]'\n",
            "c: x#heatcap:ignore[E0003]\n",
            "d: it's # heatcap: ignore[E0004]\n",
            "e: \"one\n  # heatcap: ignore[E0005]\n  two\"\n",
            "f: ['#', \"# heatcap: ignore[E0006]\"] # heatcap: ignore[E0007]\n",
            "g: !!str '# heatcap: ignore[E0008]'\n",
        );
        for found in both(text) {
            assert_eq!(
                found.iter().map(brief).collect::<Vec<_>>(),
                vec![
                    (4, 9, Scope::Line(4), vec!["E0004"]),
                    (8, 38, Scope::Line(8), vec!["E0007"]),
                ]
            );
        }
    }

    #[test]
    fn block_scalars_hold_text_not_comments_when_the_file_parses() {
        let text = concat!(
            "script: |  # heatcap: ignore[E0001]\n",
            "  #!/bin/sh\n",
            "  # heatcap: ignore[E0002]\n",
            "  echo\n",
            "# heatcap: ignore[E0003]\n",
            "next: >-\n",
            "    # heatcap: ignore[E0004]\n",
            "after: 1\n",
        );
        let tree = parse_text(text, "t.yaml", &ParseOptions::default()).root;
        let found = scan(text, tree.as_ref());
        assert_eq!(
            found.iter().map(brief).collect::<Vec<_>>(),
            vec![
                (1, 12, Scope::Line(1), vec!["E0001"]),
                (5, 1, Scope::Line(6), vec!["E0003"]),
            ]
        );
    }

    #[test]
    fn broken_directives_say_why() {
        let text = concat!(
            "# heatcap: ignore\n",
            "# heatcap: ignore[E3004\n",
            "# heatcap: ignore[]\n",
            "# heatcap: ignore[E3004, foo, e1]\n",
            "# heatcap: silence[E3004]\n",
            "# heatcap: ignore-files[W2003]\n",
            "a: 1\n",
        );
        let found = &both(text)[0];
        let problems: Vec<(Vec<&str>, Vec<&str>)> = found
            .iter()
            .map(|d| {
                (
                    d.codes.iter().map(String::as_str).collect(),
                    d.problems.iter().map(String::as_str).collect(),
                )
            })
            .collect();
        assert_eq!(
            problems,
            vec![
                (vec![], vec!["`ignore` needs the codes it suppresses in brackets: `ignore[CODE, ...]`"]),
                (vec![], vec!["`ignore[` is not closed with `]`"]),
                (vec![], vec!["`ignore[]` names no code"]),
                (
                    vec!["E3004"],
                    vec![
                        "`foo` is not a code (a letter E, W or I and four digits)",
                        "`e1` is not a code (a letter E, W or I and four digits)"
                    ]
                ),
                (
                    vec![],
                    vec!["unknown directive `heatcap: silence[E3004]`: expected `ignore[CODE, ...]` or `ignore-file[CODE, ...]`"]
                ),
                (
                    vec![],
                    vec!["`ignore-file` needs the codes it suppresses in brackets: `ignore-file[CODE, ...]`"]
                ),
            ]
        );
    }

    #[test]
    fn prose_mentioning_heatcap_is_not_a_directive() {
        for found in both("# resolved by heatcap: see docs\na: 'heatcap: x'\n") {
            assert!(found.is_empty(), "{found:?}");
        }
    }

    #[test]
    fn unparsed_text_uses_the_lexical_rule() {
        // Unbalanced: does not parse, but the comment is still found, and
        // the quoted `#` is still text.
        let text = "a: [1, 2\nb: \"# x\" # heatcap: ignore-file[E0004]\n";
        assert!(parse_text(text, "t.yaml", &ParseOptions::default())
            .root
            .is_none());
        let found = scan(text, None);
        assert_eq!(
            found.iter().map(brief).collect::<Vec<_>>(),
            vec![(2, 10, Scope::File, vec!["E0004"])]
        );
    }

    #[test]
    fn columns_count_characters_and_crlf_is_a_line_end() {
        for found in both("é: \"ü\" # heatcap: ignore[W2003]\r\nb: 1\r\n") {
            assert_eq!(
                found.iter().map(brief).collect::<Vec<_>>(),
                vec![(1, 8, Scope::Line(1), vec!["W2003"])]
            );
        }
    }
}
