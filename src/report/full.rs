//! `validate --format full`: each finding as rustc and ruff show one, with
//! annotate-snippets: the title (`error[E2001]: message`), the place
//! (`--> path:line:col`), the source lines of its span with a marker under
//! it, and its related places.

use std::collections::BTreeMap;
use std::io::{self, Write};

use annotate_snippets::renderer::DecorStyle;
use annotate_snippets::{AnnotationKind, Element, Group, Level, Origin, Renderer, Snippet};

use super::look::{code_style, Look};
use crate::diag::{Diagnostic, Pos, Severity, Span};

/// The text of each file a finding names, by the path as shown. A file
/// missing here (unreadable, or read from a stream) is shown by its place
/// alone.
pub(crate) type Sources = BTreeMap<String, String>;

/// Every finding, one block each, a blank line between them.
pub(crate) fn write_full(
    out: &mut dyn Write,
    findings: &[Diagnostic],
    sources: &Sources,
    look: Look,
) -> io::Result<()> {
    let renderer = renderer(look);
    for d in findings {
        let excerpts = Excerpts::new(d, sources);
        let report = [group(d, &excerpts)];
        writeln!(out, "{}\n", renderer.render(&report))?;
    }
    Ok(())
}

fn renderer(look: Look) -> Renderer {
    let r = if look.color {
        Renderer::styled()
            .error(code_style(Severity::Error))
            .warning(code_style(Severity::Warning))
            .info(code_style(Severity::Info))
    } else {
        Renderer::plain()
    };
    // Source lines are never cut to a terminal's width: a finding's line
    // is shown whole, as in the plain format.
    r.decor_style(DecorStyle::Ascii).term_width(usize::MAX / 2)
}

fn level(severity: Severity) -> Level<'static> {
    match severity {
        Severity::Error => Level::ERROR,
        Severity::Warning => Level::WARNING,
        Severity::Info => Level::INFO,
    }
}

/// The lines a finding and its related places point at, cut from their
/// files once so the renderer borrows them.
struct Excerpts {
    primary: Option<Excerpt>,
    related: Vec<Option<Excerpt>>,
}

impl Excerpts {
    fn new(d: &Diagnostic, sources: &Sources) -> Excerpts {
        let cut =
            |file: &str, span: Option<Span>| span.and_then(|s| Excerpt::cut(sources.get(file)?, s));
        Excerpts {
            primary: cut(&d.file, d.span),
            related: d.related.iter().map(|r| cut(&r.file, r.span)).collect(),
        }
    }
}

fn group<'a>(d: &'a Diagnostic, x: &'a Excerpts) -> Group<'a> {
    let mut title = d.message.clone();
    if !d.requirements.is_empty() {
        title = format!("{title} (ONAP {})", d.requirements.join(", "));
    }
    let place: Element<'a> = match &x.primary {
        Some(e) => e.snippet(&d.file, AnnotationKind::Primary, None).into(),
        None => origin(&d.file, d.span).into(),
    };
    let mut g = level(d.severity)
        .primary_title(title)
        .id(d.code.0)
        .element(place);
    for (r, excerpt) in d.related.iter().zip(&x.related) {
        g = match excerpt {
            Some(e) => g.element(e.snippet(&r.file, AnnotationKind::Context, Some(&r.message))),
            None => g.element(Level::NOTE.message(match r.span {
                Some(s) => format!(
                    "{}:{}:{}: {}",
                    r.file, s.start.line, s.start.column, r.message
                ),
                None => format!("{}: {}", r.file, r.message),
            })),
        };
    }
    g
}

/// `--> path:line:col` (or `--> path`) for a finding without source lines.
fn origin(file: &str, span: Option<Span>) -> Origin<'_> {
    match span {
        Some(s) => Origin::path(file)
            .line(s.start.line as usize)
            .char_column(s.start.column as usize),
        None => Origin::path(file),
    }
}

/// The whole lines a span covers, and the span as byte offsets in them.
#[derive(Debug, PartialEq, Eq)]
struct Excerpt {
    /// Those lines, `\n` between them (no `\r`, no final newline).
    text: String,
    /// The number of the first.
    first_line: usize,
    /// The span within `text`.
    range: std::ops::Range<usize>,
}

impl Excerpt {
    /// The lines of `span` in `source`, or `None` when the span starts past
    /// the end of the file (it changed since it was read).
    fn cut(source: &str, span: Span) -> Option<Excerpt> {
        let source = source.strip_prefix('\u{feff}').unwrap_or(source);
        let first = span.start.line.max(1) as usize;
        let last = (span.end.line as usize).max(first);
        let lines: Vec<&str> = source
            .split('\n')
            .skip(first - 1)
            .take(last - first + 1)
            .map(|l| l.strip_suffix('\r').unwrap_or(l))
            .collect();
        if lines.is_empty() || (first > 1 && source.split('\n').count() < first) {
            return None;
        }
        let mut text = lines.join("\n");
        let start = offset(&lines, span.start, first);
        // The end is exclusive; a node's span runs on over the line breaks
        // and blank lines after it, which are left out.
        let mut end = offset(&lines, span.end, first).max(start);
        while end > start + 1 && text[..end].ends_with(char::is_whitespace) {
            end -= text[..end].chars().next_back().map_or(1, char::len_utf8);
        }
        // Only the lines up to the end.
        if let Some(cut) = text[end..].find('\n') {
            text.truncate(end + cut);
        }
        Some(Excerpt {
            text,
            first_line: first,
            range: start..end,
        })
    }

    fn snippet<'a>(
        &'a self,
        file: &'a str,
        kind: AnnotationKind,
        label: Option<&'a str>,
    ) -> Snippet<'a, annotate_snippets::Annotation<'a>> {
        Snippet::source(self.text.as_str())
            .line_start(self.first_line)
            .path(file)
            .annotation(kind.span(self.range.clone()).label(label))
    }
}

/// The byte offset of `pos` (1-based line and character column) within the
/// lines cut from line `first`; a column past the end of its line is its end.
fn offset(lines: &[&str], pos: Pos, first: usize) -> usize {
    let index = (pos.line as usize)
        .saturating_sub(first)
        .min(lines.len() - 1);
    let before: usize = lines[..index].iter().map(|l| l.len() + 1).sum();
    let line = lines[index];
    let column = (pos.column as usize).saturating_sub(1);
    before
        + line
            .char_indices()
            .nth(column)
            .map_or(line.len(), |(i, _)| i)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::codes;
    use std::fmt::Write as _;

    fn span(l1: u32, c1: u32, l2: u32, c2: u32) -> Span {
        Span {
            start: Pos {
                line: l1,
                column: c1,
            },
            end: Pos {
                line: l2,
                column: c2,
            },
        }
    }

    #[test]
    fn excerpts_count_columns_in_characters() {
        let src = "a: 1\nnamé: \tvalue\nc: 3\n";
        let e = Excerpt::cut(src, span(2, 8, 2, 13)).unwrap();
        assert_eq!(e.text, "namé: \tvalue");
        assert_eq!(e.first_line, 2);
        assert_eq!(&e.text[e.range.clone()], "value");
    }

    #[test]
    fn excerpts_of_several_lines_end_at_their_last_character() {
        let src = "a:\r\n  b: 1\r\n  c: 2\r\nd: 3\r\n";
        let e = Excerpt::cut(src, span(1, 1, 4, 1)).unwrap();
        assert_eq!(e.text, "a:\n  b: 1\n  c: 2");
        assert_eq!(&e.text[e.range.clone()], "a:\n  b: 1\n  c: 2");
        // Blank lines at the end of a span are left out.
        let e = Excerpt::cut("a:\n  - b\n\n\nc: 1\n", span(2, 3, 5, 1)).unwrap();
        assert_eq!(e.text, "  - b");
        assert_eq!(&e.text[e.range.clone()], "- b");
    }

    #[test]
    fn excerpts_past_the_end_of_the_file_are_none() {
        assert_eq!(Excerpt::cut("a: 1\n", span(9, 1, 9, 2)), None);
        // A column past the end of its line is its end.
        let e = Excerpt::cut("a: 1", span(1, 40, 1, 41)).unwrap();
        assert_eq!(e.range, 4..4);
    }

    fn render(d: Diagnostic, file: &str, text: &str) -> String {
        let mut sources = Sources::new();
        sources.insert(file.to_owned(), text.to_owned());
        let mut out = Vec::new();
        write_full(&mut out, &[d], &sources, Look::default()).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn a_long_span_is_folded() {
        let mut text = String::from("resources:\n  big:\n    properties:\n");
        for i in 0..60 {
            let _ = writeln!(text, "      k{i}: {i}");
        }
        let d = Diagnostic::new(codes::DUPLICATE_KEY, "big.yaml", "long").at(span(2, 3, 64, 1));
        let s = render(d, "big.yaml", &text);
        assert!(s.contains("2 | /   big:"), "{s}");
        assert!(s.contains("k59: 59"), "{s}");
        assert!(s.lines().count() < 16, "{s}");
    }

    #[test]
    fn control_characters_in_the_source_are_not_printed() {
        let d = Diagnostic::new(codes::DUPLICATE_KEY, "a.yaml", "bad").at(span(1, 4, 1, 5));
        let s = render(d, "a.yaml", "a: \u{1b}[31mred\n");
        assert!(!s.contains('\u{1b}'), "{s:?}");
    }

    #[test]
    fn a_finding_without_a_source_shows_its_place() {
        let d = Diagnostic::new(codes::YAML_SYNTAX, "gone.yaml", "broken").at(span(3, 2, 3, 4));
        let mut out = Vec::new();
        write_full(&mut out, &[d], &Sources::new(), Look::default()).unwrap();
        let s = String::from_utf8(out).unwrap();
        assert!(s.contains("error[E0004]: broken"), "{s}");
        assert!(s.contains("--> gone.yaml:3:2"), "{s}");
    }
}
