//! Heat's second YAML stage: PyYAML 6.0's pure-Python `SafeLoader`
//! scanner, parser and reader (`yaml/scanner.py`, `parser.py`,
//! `reader.py`), ported to Rust.
//!
//! Heat's `template_format.simple_parse`, `environment_format.parse` and
//! python-heatclient's `template_format.parse` load with libyaml
//! (`CSafeLoader`) first and, when that raises `yaml.YAMLError`, load again
//! with `yaml.SafeLoader`. The two scanners disagree on a few inputs (a
//! colon right after a flow key, `{a:[1]}`, is the one real trees meet);
//! this module gives what the second loader reads, as the same [`Event`]s
//! [`super::yaml`] produces, so [`super::tree`] builds the tree unchanged.
//!
//! The port follows the Python code function by function (names kept), so
//! the two can be read side by side; error texts are PyYAML's. It works on
//! characters (PyYAML reads a `str`), with the `'\0'` sentinel PyYAML's
//! reader appends.

use std::collections::VecDeque;

use super::tree::{Event, Fatal};
use crate::diag::{codes, Pos, Span};

/// The events of `text` as PyYAML's pure-Python parser produces them, up to
/// and including the first error.
pub(crate) fn events(text: &str) -> std::vec::IntoIter<Result<Event, Fatal>> {
    let mut out = Vec::new();
    if let Err(e) = check_printable(text) {
        out.push(Err(e));
        return out.into_iter();
    }
    let mut parser = Parser::new(text);
    loop {
        match parser.next_event() {
            Ok(Some(ev)) => {
                if let Some(ev) = ev.into_event() {
                    out.push(Ok(ev));
                }
            }
            Ok(None) => break,
            Err(e) => {
                out.push(Err(e.into_fatal()));
                break;
            }
        }
    }
    out.into_iter()
}

/// PyYAML's `Reader.check_printable` (run on the whole `str` before
/// scanning): `[^\x09\x0A\x0D\x20-\x7E\x85\xA0-\uD7FF\uE000-\uFFFD\U00010000-\U0010ffff]`.
fn check_printable(text: &str) -> Result<(), Fatal> {
    let bad = |c: char| {
        let c = u32::from(c);
        !(matches!(c, 0x09 | 0x0A | 0x0D | 0x85)
            || (0x20..=0x7E).contains(&c)
            || (0xA0..=0xD7FF).contains(&c)
            || (0xE000..=0xFFFD).contains(&c)
            || (0x10000..=0x0010_FFFF).contains(&c))
    };
    let Some((offset, c)) = text.char_indices().find(|&(_, c)| bad(c)) else {
        return Ok(());
    };
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    let at = Pos {
        line: u32::try_from(line).unwrap_or(u32::MAX),
        column: u32::try_from(column).unwrap_or(u32::MAX),
    };
    Err(Fatal::new(
        codes::YAML_SYNTAX,
        format!(
            "unacceptable character #x{:04x}: special characters are not allowed",
            u32::from(c)
        ),
        Some(Span { start: at, end: at }),
    ))
}

/// A position: character index, 0-based line and column (PyYAML's `Mark`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Mark {
    index: usize,
    line: usize,
    column: usize,
}

impl Mark {
    fn pos(self) -> Pos {
        Pos {
            line: u32::try_from(self.line + 1).unwrap_or(u32::MAX),
            column: u32::try_from(self.column + 1).unwrap_or(u32::MAX),
        }
    }
}

fn span(start: Mark, end: Mark) -> Span {
    Span {
        start: start.pos(),
        end: end.pos(),
    }
}

/// PyYAML's `MarkedYAMLError` (scanner and parser errors).
#[derive(Debug)]
struct YamlError {
    context: Option<String>,
    context_mark: Option<Mark>,
    problem: String,
    problem_mark: Mark,
}

impl YamlError {
    fn new(
        context: Option<&str>,
        context_mark: Option<Mark>,
        problem: impl Into<String>,
        problem_mark: Mark,
    ) -> Self {
        YamlError {
            context: context.map(str::to_owned),
            context_mark,
            problem: problem.into(),
            problem_mark,
        }
    }

    /// In heatcap's message style, the one [`super::yaml`] gives libyaml's
    /// errors: the problem, then the context and where it starts.
    fn into_fatal(self) -> Fatal {
        let message = match (self.context, self.context_mark) {
            (Some(context), Some(m)) => {
                let p = m.pos();
                format!(
                    "{} ({context} that starts at line {}, column {})",
                    self.problem, p.line, p.column
                )
            }
            (Some(context), None) => format!("{} ({context})", self.problem),
            (None, _) => self.problem,
        };
        let at = self.problem_mark.pos();
        Fatal::new(
            codes::YAML_SYNTAX,
            message,
            Some(Span { start: at, end: at }),
        )
    }
}

type Res<T> = Result<T, YamlError>;

/// Python's `repr()` of one character, as PyYAML's messages show it.
fn py_repr(c: char) -> String {
    let body = match c {
        '\'' => return "\"'\"".to_owned(),
        '\\' => "\\\\".to_owned(),
        '\t' => "\\t".to_owned(),
        '\n' => "\\n".to_owned(),
        '\r' => "\\r".to_owned(),
        c if u32::from(c) < 0x20 || (0x7F..0xA1).contains(&u32::from(c)) => {
            format!("\\x{:02x}", u32::from(c))
        }
        c if c.is_whitespace() || c == '\u{ad}' || c == '\u{feff}' => {
            let n = u32::from(c);
            if n <= 0xFFFF {
                format!("\\u{n:04x}")
            } else {
                format!("\\U{n:08x}")
            }
        }
        c => c.to_string(),
    };
    format!("'{body}'")
}

const BREAKZ: &str = "\0\r\n\u{85}\u{2028}\u{2029}";
const BLANKZ: &str = "\0 \t\r\n\u{85}\u{2028}\u{2029}";
const BREAKS: &str = "\r\n\u{85}\u{2028}\u{2029}";

fn is_word(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '-' || c == '_'
}

// ---------------------------------------------------------------- tokens

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    StreamStart,
    StreamEnd,
    Directive {
        name: String,
        /// `%YAML` (major, minor) or `%TAG` (handle, prefix).
        yaml: Option<(u64, u64)>,
        tag: Option<(String, String)>,
    },
    DocumentStart,
    DocumentEnd,
    BlockSequenceStart,
    BlockMappingStart,
    BlockEnd,
    FlowSequenceStart,
    FlowMappingStart,
    FlowSequenceEnd,
    FlowMappingEnd,
    Key,
    Value,
    BlockEntry,
    FlowEntry,
    Alias(String),
    Anchor(String),
    /// (handle, suffix); a verbatim tag has no handle.
    Tag(Option<String>, String),
    Scalar {
        value: String,
        plain: bool,
    },
}

impl Tok {
    /// PyYAML's `Token.id`.
    fn id(&self) -> &'static str {
        match self {
            Tok::StreamStart => "<stream start>",
            Tok::StreamEnd => "<stream end>",
            Tok::Directive { .. } => "<directive>",
            Tok::DocumentStart => "<document start>",
            Tok::DocumentEnd => "<document end>",
            Tok::BlockSequenceStart => "<block sequence start>",
            Tok::BlockMappingStart => "<block mapping start>",
            Tok::BlockEnd => "<block end>",
            Tok::FlowSequenceStart => "[",
            Tok::FlowMappingStart => "{",
            Tok::FlowSequenceEnd => "]",
            Tok::FlowMappingEnd => "}",
            Tok::Key => "?",
            Tok::Value => ":",
            Tok::BlockEntry => "-",
            Tok::FlowEntry => ",",
            Tok::Alias(_) => "<alias>",
            Tok::Anchor(_) => "<anchor>",
            Tok::Tag(..) => "<tag>",
            Tok::Scalar { .. } => "<scalar>",
        }
    }
}

#[derive(Debug, Clone)]
struct Token {
    kind: Tok,
    start: Mark,
    end: Mark,
}

#[derive(Debug, Clone, Copy)]
struct SimpleKey {
    token_number: usize,
    required: bool,
    index: usize,
    line: usize,
    mark: Mark,
    column: usize,
}

// ---------------------------------------------------------------- scanner

struct Scanner {
    /// The text's characters and the `'\0'` sentinel.
    buf: Vec<char>,
    pointer: usize,
    line: usize,
    column: usize,
    done: bool,
    /// PyYAML's `flow_level`: a stray `]` takes it below zero, which
    /// Python's truth test counts as flow context too.
    flow_level: isize,
    tokens: VecDeque<Token>,
    tokens_taken: usize,
    indent: isize,
    indents: Vec<isize>,
    allow_simple_key: bool,
    /// By flow level, in insertion order (a Python dict).
    possible_simple_keys: Vec<(isize, SimpleKey)>,
}

impl Scanner {
    fn new(text: &str) -> Self {
        let mut buf: Vec<char> = text.chars().collect();
        buf.push('\0');
        let mut s = Scanner {
            buf,
            pointer: 0,
            line: 0,
            column: 0,
            done: false,
            flow_level: 0,
            tokens: VecDeque::new(),
            tokens_taken: 0,
            indent: -1,
            indents: Vec::new(),
            allow_simple_key: true,
            possible_simple_keys: Vec::new(),
        };
        let mark = s.mark();
        s.tokens.push_back(Token {
            kind: Tok::StreamStart,
            start: mark,
            end: mark,
        });
        s
    }

    // Reader.

    fn peek(&self, i: usize) -> char {
        self.buf.get(self.pointer + i).copied().unwrap_or('\0')
    }

    fn ch(&self) -> char {
        self.peek(0)
    }

    fn prefix(&self, n: usize) -> String {
        let end = (self.pointer + n).min(self.buf.len());
        self.buf[self.pointer..end].iter().collect()
    }

    fn forward(&mut self, n: usize) {
        for _ in 0..n {
            let Some(&ch) = self.buf.get(self.pointer) else {
                return;
            };
            self.pointer += 1;
            if matches!(ch, '\n' | '\u{85}' | '\u{2028}' | '\u{2029}')
                || (ch == '\r' && self.ch() != '\n')
            {
                self.line += 1;
                self.column = 0;
            } else if ch != '\u{feff}' {
                self.column += 1;
            }
        }
    }

    fn mark(&self) -> Mark {
        Mark {
            index: self.pointer,
            line: self.line,
            column: self.column,
        }
    }

    fn col(&self) -> isize {
        isize::try_from(self.column).unwrap_or(isize::MAX)
    }

    fn push(&mut self, kind: Tok, start: Mark, end: Mark) {
        self.tokens.push_back(Token { kind, start, end });
    }

    fn is_at_separator(&self) -> bool {
        let p = self.prefix(3);
        (p == "---" || p == "...") && BLANKZ.contains(self.peek(3))
    }

    // Public methods.

    fn fill(&mut self) -> Res<()> {
        while self.need_more_tokens()? {
            self.fetch_more_tokens()?;
        }
        Ok(())
    }

    fn peek_token(&mut self) -> Res<Option<&Token>> {
        self.fill()?;
        Ok(self.tokens.front())
    }

    fn check(&mut self, f: impl Fn(&Tok) -> bool) -> Res<bool> {
        Ok(self.peek_token()?.is_some_and(|t| f(&t.kind)))
    }

    fn get_token(&mut self) -> Res<Option<Token>> {
        self.fill()?;
        let t = self.tokens.pop_front();
        if t.is_some() {
            self.tokens_taken += 1;
        }
        Ok(t)
    }

    // Private methods.

    fn need_more_tokens(&mut self) -> Res<bool> {
        if self.done {
            return Ok(false);
        }
        if self.tokens.is_empty() {
            return Ok(true);
        }
        self.stale_possible_simple_keys()?;
        Ok(self.next_possible_simple_key() == Some(self.tokens_taken))
    }

    fn fetch_more_tokens(&mut self) -> Res<()> {
        self.scan_to_next_token();
        self.stale_possible_simple_keys()?;
        self.unwind_indent(self.col());
        let ch = self.ch();
        match ch {
            '\0' => return self.fetch_stream_end(),
            '%' if self.column == 0 => return self.fetch_directive(),
            '-' if self.column == 0 && self.prefix(3) == "---" && BLANKZ.contains(self.peek(3)) => {
                return self.fetch_document_indicator(Tok::DocumentStart)
            }
            '.' if self.column == 0 && self.prefix(3) == "..." && BLANKZ.contains(self.peek(3)) => {
                return self.fetch_document_indicator(Tok::DocumentEnd)
            }
            '[' => return self.fetch_flow_collection_start(Tok::FlowSequenceStart),
            '{' => return self.fetch_flow_collection_start(Tok::FlowMappingStart),
            ']' => return self.fetch_flow_collection_end(Tok::FlowSequenceEnd),
            '}' => return self.fetch_flow_collection_end(Tok::FlowMappingEnd),
            ',' => return self.fetch_flow_entry(),
            _ => {}
        }
        if ch == '-' && BLANKZ.contains(self.peek(1)) {
            return self.fetch_block_entry();
        }
        if ch == '?' && (self.flow_level != 0 || BLANKZ.contains(self.peek(1))) {
            return self.fetch_key();
        }
        if ch == ':' && (self.flow_level != 0 || BLANKZ.contains(self.peek(1))) {
            return self.fetch_value();
        }
        match ch {
            '*' => return self.fetch_anchor(true),
            '&' => return self.fetch_anchor(false),
            '!' => return self.fetch_tag(),
            '|' | '>' if self.flow_level == 0 => return self.fetch_block_scalar(ch == '>'),
            '\'' | '"' => return self.fetch_flow_scalar(ch == '"'),
            _ => {}
        }
        if self.check_plain() {
            return self.fetch_plain();
        }
        Err(YamlError::new(
            Some("while scanning for the next token"),
            None,
            format!(
                "found character {} that cannot start any token",
                py_repr(ch)
            ),
            self.mark(),
        ))
    }

    // Simple keys treatment.

    fn next_possible_simple_key(&self) -> Option<usize> {
        self.possible_simple_keys
            .iter()
            .map(|(_, k)| k.token_number)
            .min()
    }

    fn stale_possible_simple_keys(&mut self) -> Res<()> {
        let mut i = 0;
        while i < self.possible_simple_keys.len() {
            let key = self.possible_simple_keys[i].1;
            if key.line != self.line || self.pointer - key.index > 1024 {
                if key.required {
                    return Err(YamlError::new(
                        Some("while scanning a simple key"),
                        Some(key.mark),
                        "could not find expected ':'",
                        self.mark(),
                    ));
                }
                self.possible_simple_keys.remove(i);
            } else {
                i += 1;
            }
        }
        Ok(())
    }

    fn save_possible_simple_key(&mut self) -> Res<()> {
        let required = self.flow_level == 0 && self.indent == self.col();
        if self.allow_simple_key {
            self.remove_possible_simple_key()?;
            let token_number = self.tokens_taken + self.tokens.len();
            let key = SimpleKey {
                token_number,
                required,
                index: self.pointer,
                line: self.line,
                column: self.column,
                mark: self.mark(),
            };
            self.possible_simple_keys.push((self.flow_level, key));
        }
        Ok(())
    }

    fn remove_possible_simple_key(&mut self) -> Res<()> {
        if let Some(i) = self
            .possible_simple_keys
            .iter()
            .position(|(l, _)| *l == self.flow_level)
        {
            let key = self.possible_simple_keys[i].1;
            if key.required {
                return Err(YamlError::new(
                    Some("while scanning a simple key"),
                    Some(key.mark),
                    "could not find expected ':'",
                    self.mark(),
                ));
            }
            self.possible_simple_keys.remove(i);
        }
        Ok(())
    }

    // Indentation functions.

    fn unwind_indent(&mut self, column: isize) {
        if self.flow_level != 0 {
            return;
        }
        while self.indent > column {
            let mark = self.mark();
            self.indent = self.indents.pop().unwrap_or(-1);
            self.push(Tok::BlockEnd, mark, mark);
        }
    }

    fn add_indent(&mut self, column: isize) -> bool {
        if self.indent < column {
            self.indents.push(self.indent);
            self.indent = column;
            true
        } else {
            false
        }
    }

    // Fetchers.

    fn fetch_stream_end(&mut self) -> Res<()> {
        self.unwind_indent(-1);
        self.remove_possible_simple_key()?;
        self.allow_simple_key = false;
        self.possible_simple_keys.clear();
        let mark = self.mark();
        self.push(Tok::StreamEnd, mark, mark);
        self.done = true;
        Ok(())
    }

    fn fetch_directive(&mut self) -> Res<()> {
        self.unwind_indent(-1);
        self.remove_possible_simple_key()?;
        self.allow_simple_key = false;
        let token = self.scan_directive()?;
        self.tokens.push_back(token);
        Ok(())
    }

    fn fetch_document_indicator(&mut self, kind: Tok) -> Res<()> {
        self.unwind_indent(-1);
        self.remove_possible_simple_key()?;
        self.allow_simple_key = false;
        let start = self.mark();
        self.forward(3);
        let end = self.mark();
        self.push(kind, start, end);
        Ok(())
    }

    fn fetch_flow_collection_start(&mut self, kind: Tok) -> Res<()> {
        self.save_possible_simple_key()?;
        self.flow_level += 1;
        self.allow_simple_key = true;
        let start = self.mark();
        self.forward(1);
        let end = self.mark();
        self.push(kind, start, end);
        Ok(())
    }

    fn fetch_flow_collection_end(&mut self, kind: Tok) -> Res<()> {
        self.remove_possible_simple_key()?;
        self.flow_level -= 1;
        self.allow_simple_key = false;
        let start = self.mark();
        self.forward(1);
        let end = self.mark();
        self.push(kind, start, end);
        Ok(())
    }

    fn fetch_flow_entry(&mut self) -> Res<()> {
        self.allow_simple_key = true;
        self.remove_possible_simple_key()?;
        let start = self.mark();
        self.forward(1);
        let end = self.mark();
        self.push(Tok::FlowEntry, start, end);
        Ok(())
    }

    fn fetch_block_entry(&mut self) -> Res<()> {
        if self.flow_level == 0 {
            if !self.allow_simple_key {
                return Err(YamlError::new(
                    None,
                    None,
                    "sequence entries are not allowed here",
                    self.mark(),
                ));
            }
            if self.add_indent(self.col()) {
                let mark = self.mark();
                self.push(Tok::BlockSequenceStart, mark, mark);
            }
        }
        self.allow_simple_key = true;
        self.remove_possible_simple_key()?;
        let start = self.mark();
        self.forward(1);
        let end = self.mark();
        self.push(Tok::BlockEntry, start, end);
        Ok(())
    }

    fn fetch_key(&mut self) -> Res<()> {
        if self.flow_level == 0 {
            if !self.allow_simple_key {
                return Err(YamlError::new(
                    None,
                    None,
                    "mapping keys are not allowed here",
                    self.mark(),
                ));
            }
            if self.add_indent(self.col()) {
                let mark = self.mark();
                self.push(Tok::BlockMappingStart, mark, mark);
            }
        }
        self.allow_simple_key = self.flow_level == 0;
        self.remove_possible_simple_key()?;
        let start = self.mark();
        self.forward(1);
        let end = self.mark();
        self.push(Tok::Key, start, end);
        Ok(())
    }

    fn fetch_value(&mut self) -> Res<()> {
        if let Some(i) = self
            .possible_simple_keys
            .iter()
            .position(|(l, _)| *l == self.flow_level)
        {
            let key = self.possible_simple_keys.remove(i).1;
            // Python's `list.insert` appends past the end; so does this.
            let at = key
                .token_number
                .saturating_sub(self.tokens_taken)
                .min(self.tokens.len());
            self.tokens.insert(
                at,
                Token {
                    kind: Tok::Key,
                    start: key.mark,
                    end: key.mark,
                },
            );
            if self.flow_level == 0
                && self.add_indent(isize::try_from(key.column).unwrap_or(isize::MAX))
            {
                self.tokens.insert(
                    at,
                    Token {
                        kind: Tok::BlockMappingStart,
                        start: key.mark,
                        end: key.mark,
                    },
                );
            }
            self.allow_simple_key = false;
        } else {
            if self.flow_level == 0 {
                if !self.allow_simple_key {
                    return Err(YamlError::new(
                        None,
                        None,
                        "mapping values are not allowed here",
                        self.mark(),
                    ));
                }
                if self.add_indent(self.col()) {
                    let mark = self.mark();
                    self.push(Tok::BlockMappingStart, mark, mark);
                }
            }
            self.allow_simple_key = self.flow_level == 0;
            self.remove_possible_simple_key()?;
        }
        let start = self.mark();
        self.forward(1);
        let end = self.mark();
        self.push(Tok::Value, start, end);
        Ok(())
    }

    fn fetch_anchor(&mut self, alias: bool) -> Res<()> {
        self.save_possible_simple_key()?;
        self.allow_simple_key = false;
        let token = self.scan_anchor(alias)?;
        self.tokens.push_back(token);
        Ok(())
    }

    fn fetch_tag(&mut self) -> Res<()> {
        self.save_possible_simple_key()?;
        self.allow_simple_key = false;
        let token = self.scan_tag()?;
        self.tokens.push_back(token);
        Ok(())
    }

    fn fetch_block_scalar(&mut self, folded: bool) -> Res<()> {
        self.allow_simple_key = true;
        self.remove_possible_simple_key()?;
        let token = self.scan_block_scalar(folded)?;
        self.tokens.push_back(token);
        Ok(())
    }

    fn fetch_flow_scalar(&mut self, double: bool) -> Res<()> {
        self.save_possible_simple_key()?;
        self.allow_simple_key = false;
        let token = self.scan_flow_scalar(double)?;
        self.tokens.push_back(token);
        Ok(())
    }

    fn fetch_plain(&mut self) -> Res<()> {
        self.save_possible_simple_key()?;
        self.allow_simple_key = false;
        let token = self.scan_plain();
        self.tokens.push_back(token);
        Ok(())
    }

    // Checkers.

    fn check_plain(&self) -> bool {
        let ch = self.ch();
        !"\0 \t\r\n\u{85}\u{2028}\u{2029}-?:,[]{}#&*!|>'\"%@`".contains(ch)
            || (!BLANKZ.contains(self.peek(1))
                && (ch == '-' || (self.flow_level == 0 && (ch == '?' || ch == ':'))))
    }

    // Scanners.

    fn scan_to_next_token(&mut self) {
        if self.pointer == 0 && self.ch() == '\u{feff}' {
            self.forward(1);
        }
        loop {
            while self.ch() == ' ' {
                self.forward(1);
            }
            if self.ch() == '#' {
                while !BREAKZ.contains(self.ch()) {
                    self.forward(1);
                }
            }
            if self.scan_line_break().is_empty() {
                break;
            }
            if self.flow_level == 0 {
                self.allow_simple_key = true;
            }
        }
    }

    fn scan_directive(&mut self) -> Res<Token> {
        let start = self.mark();
        self.forward(1);
        let name = self.scan_directive_name(start)?;
        let (mut yaml, mut tag) = (None, None);
        let end;
        if name == "YAML" {
            yaml = Some(self.scan_yaml_directive_value(start)?);
            end = self.mark();
        } else if name == "TAG" {
            tag = Some(self.scan_tag_directive_value(start)?);
            end = self.mark();
        } else {
            end = self.mark();
            while !BREAKZ.contains(self.ch()) {
                self.forward(1);
            }
        }
        self.scan_directive_ignored_line(start)?;
        Ok(Token {
            kind: Tok::Directive { name, yaml, tag },
            start,
            end,
        })
    }

    fn directive_error(&self, start: Mark, problem: String) -> YamlError {
        YamlError::new(
            Some("while scanning a directive"),
            Some(start),
            problem,
            self.mark(),
        )
    }

    fn scan_directive_name(&mut self, start: Mark) -> Res<String> {
        let mut length = 0;
        while is_word(self.peek(length)) {
            length += 1;
        }
        if length == 0 {
            return Err(self.directive_error(
                start,
                format!(
                    "expected alphabetic or numeric character, but found {}",
                    py_repr(self.peek(length))
                ),
            ));
        }
        let value = self.prefix(length);
        self.forward(length);
        let ch = self.ch();
        if !"\0 \r\n\u{85}\u{2028}\u{2029}".contains(ch) {
            return Err(self.directive_error(
                start,
                format!(
                    "expected alphabetic or numeric character, but found {}",
                    py_repr(ch)
                ),
            ));
        }
        Ok(value)
    }

    fn scan_yaml_directive_value(&mut self, start: Mark) -> Res<(u64, u64)> {
        while self.ch() == ' ' {
            self.forward(1);
        }
        let major = self.scan_yaml_directive_number(start)?;
        if self.ch() != '.' {
            return Err(self.directive_error(
                start,
                format!("expected a digit or '.', but found {}", py_repr(self.ch())),
            ));
        }
        self.forward(1);
        let minor = self.scan_yaml_directive_number(start)?;
        if !"\0 \r\n\u{85}\u{2028}\u{2029}".contains(self.ch()) {
            return Err(self.directive_error(
                start,
                format!("expected a digit or ' ', but found {}", py_repr(self.ch())),
            ));
        }
        Ok((major, minor))
    }

    fn scan_yaml_directive_number(&mut self, start: Mark) -> Res<u64> {
        let ch = self.ch();
        if !ch.is_ascii_digit() {
            return Err(self.directive_error(
                start,
                format!("expected a digit, but found {}", py_repr(ch)),
            ));
        }
        let mut length = 0;
        while self.peek(length).is_ascii_digit() {
            length += 1;
        }
        let value = self.prefix(length).parse::<u64>().unwrap_or(u64::MAX);
        self.forward(length);
        Ok(value)
    }

    fn scan_tag_directive_value(&mut self, start: Mark) -> Res<(String, String)> {
        while self.ch() == ' ' {
            self.forward(1);
        }
        let handle = self.scan_tag_handle("directive", start)?;
        if self.ch() != ' ' {
            return Err(self.directive_error(
                start,
                format!("expected ' ', but found {}", py_repr(self.ch())),
            ));
        }
        while self.ch() == ' ' {
            self.forward(1);
        }
        let prefix = self.scan_tag_uri("directive", start)?;
        if !"\0 \r\n\u{85}\u{2028}\u{2029}".contains(self.ch()) {
            return Err(self.directive_error(
                start,
                format!("expected ' ', but found {}", py_repr(self.ch())),
            ));
        }
        Ok((handle, prefix))
    }

    fn scan_directive_ignored_line(&mut self, start: Mark) -> Res<()> {
        while self.ch() == ' ' {
            self.forward(1);
        }
        if self.ch() == '#' {
            while !BREAKZ.contains(self.ch()) {
                self.forward(1);
            }
        }
        let ch = self.ch();
        if !BREAKZ.contains(ch) {
            return Err(self.directive_error(
                start,
                format!(
                    "expected a comment or a line break, but found {}",
                    py_repr(ch)
                ),
            ));
        }
        self.scan_line_break();
        Ok(())
    }

    fn scan_anchor(&mut self, alias: bool) -> Res<Token> {
        let start = self.mark();
        let name = if alias { "alias" } else { "anchor" };
        self.forward(1);
        let mut length = 0;
        while is_word(self.peek(length)) {
            length += 1;
        }
        let err = |s: &Self, ch: char| {
            YamlError::new(
                Some(&format!("while scanning an {name}")),
                Some(start),
                format!(
                    "expected alphabetic or numeric character, but found {}",
                    py_repr(ch)
                ),
                s.mark(),
            )
        };
        if length == 0 {
            return Err(err(self, self.peek(0)));
        }
        let value = self.prefix(length);
        self.forward(length);
        let ch = self.ch();
        if !"\0 \t\r\n\u{85}\u{2028}\u{2029}?:,]}%@`".contains(ch) {
            return Err(err(self, ch));
        }
        let end = self.mark();
        let kind = if alias {
            Tok::Alias(value)
        } else {
            Tok::Anchor(value)
        };
        Ok(Token { kind, start, end })
    }

    fn scan_tag(&mut self) -> Res<Token> {
        let start = self.mark();
        let mut ch = self.peek(1);
        let (handle, suffix);
        if ch == '<' {
            handle = None;
            self.forward(2);
            suffix = self.scan_tag_uri("tag", start)?;
            if self.ch() != '>' {
                return Err(YamlError::new(
                    Some("while parsing a tag"),
                    Some(start),
                    format!("expected '>', but found {}", py_repr(self.ch())),
                    self.mark(),
                ));
            }
            self.forward(1);
        } else if BLANKZ.contains(ch) {
            handle = None;
            suffix = "!".to_owned();
            self.forward(1);
        } else {
            let mut length = 1;
            let mut use_handle = false;
            while !"\0 \r\n\u{85}\u{2028}\u{2029}".contains(ch) {
                if ch == '!' {
                    use_handle = true;
                    break;
                }
                length += 1;
                ch = self.peek(length);
            }
            if use_handle {
                handle = Some(self.scan_tag_handle("tag", start)?);
            } else {
                handle = Some("!".to_owned());
                self.forward(1);
            }
            suffix = self.scan_tag_uri("tag", start)?;
        }
        let ch = self.ch();
        if !"\0 \r\n\u{85}\u{2028}\u{2029}".contains(ch) {
            return Err(YamlError::new(
                Some("while scanning a tag"),
                Some(start),
                format!("expected ' ', but found {}", py_repr(ch)),
                self.mark(),
            ));
        }
        let end = self.mark();
        Ok(Token {
            kind: Tok::Tag(handle, suffix),
            start,
            end,
        })
    }

    fn scan_block_scalar(&mut self, folded: bool) -> Res<Token> {
        let mut chunks = String::new();
        let start = self.mark();
        self.forward(1);
        let (chomping, increment) = self.scan_block_scalar_indicators(start)?;
        self.scan_block_scalar_ignored_line(start)?;
        let min_indent = (self.indent + 1).max(1);
        let (mut breaks, indent, mut end);
        if let Some(increment) = increment {
            indent = min_indent + increment - 1;
            (breaks, end) = self.scan_block_scalar_breaks(indent);
        } else {
            let max_indent;
            (breaks, max_indent, end) = self.scan_block_scalar_indentation();
            indent = min_indent.max(max_indent);
        }
        let mut line_break = String::new();
        while self.col() == indent && self.ch() != '\0' {
            chunks.push_str(&breaks);
            let leading_non_space = !" \t".contains(self.ch());
            let mut length = 0;
            while !BREAKZ.contains(self.peek(length)) {
                length += 1;
            }
            chunks.push_str(&self.prefix(length));
            self.forward(length);
            line_break = self.scan_line_break();
            (breaks, end) = self.scan_block_scalar_breaks(indent);
            if self.col() == indent && self.ch() != '\0' {
                if folded && line_break == "\n" && leading_non_space && !" \t".contains(self.ch()) {
                    if breaks.is_empty() {
                        chunks.push(' ');
                    }
                } else {
                    chunks.push_str(&line_break);
                }
            } else {
                break;
            }
        }
        if chomping != Some(false) {
            chunks.push_str(&line_break);
        }
        if chomping == Some(true) {
            chunks.push_str(&breaks);
        }
        Ok(Token {
            kind: Tok::Scalar {
                value: chunks,
                plain: false,
            },
            start,
            end,
        })
    }

    fn scan_block_scalar_indicators(&mut self, start: Mark) -> Res<(Option<bool>, Option<isize>)> {
        let err = |s: &Self, problem: String| {
            YamlError::new(
                Some("while scanning a block scalar"),
                Some(start),
                problem,
                s.mark(),
            )
        };
        let zero = "expected indentation indicator in the range 1-9, but found 0";
        let mut chomping = None;
        let mut increment = None;
        let ch = self.ch();
        if ch == '+' || ch == '-' {
            chomping = Some(ch == '+');
            self.forward(1);
            if let Some(d) = self.ch().to_digit(10) {
                if d == 0 {
                    return Err(err(self, zero.to_owned()));
                }
                increment = Some(isize::try_from(d).unwrap_or(1));
                self.forward(1);
            }
        } else if let Some(d) = ch.to_digit(10) {
            if d == 0 {
                return Err(err(self, zero.to_owned()));
            }
            increment = Some(isize::try_from(d).unwrap_or(1));
            self.forward(1);
            let ch = self.ch();
            if ch == '+' || ch == '-' {
                chomping = Some(ch == '+');
                self.forward(1);
            }
        }
        let ch = self.ch();
        if !"\0 \r\n\u{85}\u{2028}\u{2029}".contains(ch) {
            return Err(err(
                self,
                format!(
                    "expected chomping or indentation indicators, but found {}",
                    py_repr(ch)
                ),
            ));
        }
        Ok((chomping, increment))
    }

    fn scan_block_scalar_ignored_line(&mut self, start: Mark) -> Res<()> {
        while self.ch() == ' ' {
            self.forward(1);
        }
        if self.ch() == '#' {
            while !BREAKZ.contains(self.ch()) {
                self.forward(1);
            }
        }
        let ch = self.ch();
        if !BREAKZ.contains(ch) {
            return Err(YamlError::new(
                Some("while scanning a block scalar"),
                Some(start),
                format!(
                    "expected a comment or a line break, but found {}",
                    py_repr(ch)
                ),
                self.mark(),
            ));
        }
        self.scan_line_break();
        Ok(())
    }

    fn scan_block_scalar_indentation(&mut self) -> (String, isize, Mark) {
        let mut chunks = String::new();
        let mut max_indent = 0;
        let mut end = self.mark();
        while " \r\n\u{85}\u{2028}\u{2029}".contains(self.ch()) && self.ch() != '\0' {
            if self.ch() == ' ' {
                self.forward(1);
                max_indent = max_indent.max(self.col());
            } else {
                chunks.push_str(&self.scan_line_break());
                end = self.mark();
            }
        }
        (chunks, max_indent, end)
    }

    fn scan_block_scalar_breaks(&mut self, indent: isize) -> (String, Mark) {
        let mut chunks = String::new();
        let mut end = self.mark();
        while self.col() < indent && self.ch() == ' ' {
            self.forward(1);
        }
        while BREAKS.contains(self.ch()) {
            chunks.push_str(&self.scan_line_break());
            end = self.mark();
            while self.col() < indent && self.ch() == ' ' {
                self.forward(1);
            }
        }
        (chunks, end)
    }

    fn scan_flow_scalar(&mut self, double: bool) -> Res<Token> {
        let mut chunks = String::new();
        let start = self.mark();
        let quote = self.ch();
        self.forward(1);
        self.scan_flow_scalar_non_spaces(double, start, &mut chunks)?;
        while self.ch() != quote {
            self.scan_flow_scalar_spaces(double, start, &mut chunks)?;
            self.scan_flow_scalar_non_spaces(double, start, &mut chunks)?;
        }
        self.forward(1);
        let end = self.mark();
        Ok(Token {
            kind: Tok::Scalar {
                value: chunks,
                plain: false,
            },
            start,
            end,
        })
    }

    fn scan_flow_scalar_non_spaces(
        &mut self,
        double: bool,
        start: Mark,
        chunks: &mut String,
    ) -> Res<()> {
        loop {
            let mut length = 0;
            while !"'\"\\\0 \t\r\n\u{85}\u{2028}\u{2029}".contains(self.peek(length)) {
                length += 1;
            }
            if length > 0 {
                chunks.push_str(&self.prefix(length));
                self.forward(length);
            }
            let ch = self.ch();
            if !double && ch == '\'' && self.peek(1) == '\'' {
                chunks.push('\'');
                self.forward(2);
            } else if (double && ch == '\'') || (!double && (ch == '"' || ch == '\\')) {
                chunks.push(ch);
                self.forward(1);
            } else if double && ch == '\\' {
                self.forward(1);
                let ch = self.ch();
                if let Some(r) = escape_replacement(ch) {
                    chunks.push(r);
                    self.forward(1);
                } else if let Some(length) = match ch {
                    'x' => Some(2),
                    'u' => Some(4),
                    'U' => Some(8),
                    _ => None,
                } {
                    self.forward(1);
                    for k in 0..length {
                        if !self.peek(k).is_ascii_hexdigit() {
                            return Err(YamlError::new(
                                Some("while scanning a double-quoted scalar"),
                                Some(start),
                                format!(
                                    "expected escape sequence of {length} hexadecimal numbers, but found {}",
                                    py_repr(self.peek(k))
                                ),
                                self.mark(),
                            ));
                        }
                    }
                    let code = u32::from_str_radix(&self.prefix(length), 16).unwrap_or(0);
                    self.forward(length);
                    chunks.push(self.escaped_char(code, ch, start)?);
                } else if BREAKS.contains(ch) && ch != '\0' {
                    self.scan_line_break();
                    self.scan_flow_scalar_breaks(start, chunks)?;
                } else {
                    return Err(YamlError::new(
                        Some("while scanning a double-quoted scalar"),
                        Some(start),
                        format!("found unknown escape character {}", py_repr(ch)),
                        self.mark(),
                    ));
                }
            } else {
                return Ok(());
            }
        }
    }

    /// The character of a `\x`, `\u` or `\U` escape. Python's `chr()`
    /// makes a surrogate of `\ud83d`; the client's JSON round trip joins a
    /// high surrogate and the low one escaped right after it into one
    /// character (`"\ud83d\ude00"` is U+1F600 by the time Heat reads it),
    /// so they are joined here. A lone surrogate, which a Rust string cannot
    /// hold, and a code past U+10FFFF (Python's `ValueError`) are errors.
    fn escaped_char(&mut self, code: u32, escape: char, start: Mark) -> Res<char> {
        if (0xD800..0xDC00).contains(&code) && self.ch() == '\\' {
            let n = match self.peek(1) {
                'u' => 4,
                'U' => 8,
                _ => 0,
            };
            let digits: String = (0..n).map(|k| self.peek(2 + k)).collect();
            if n > 0 && digits.chars().all(|c| c.is_ascii_hexdigit()) {
                let low = u32::from_str_radix(&digits, 16).unwrap_or(0);
                if (0xDC00..0xE000).contains(&low) {
                    self.forward(2 + n);
                    let joined = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
                    if let Some(c) = char::from_u32(joined) {
                        return Ok(c);
                    }
                }
            }
        }
        char::from_u32(code).ok_or_else(|| {
            let problem = if code > 0x0010_FFFF {
                "chr() arg not in range(0x110000)".to_owned()
            } else {
                format!("escape \\{escape} gives a lone surrogate (#x{code:x}), which heatcap cannot hold")
            };
            YamlError::new(
                Some("while scanning a double-quoted scalar"),
                Some(start),
                problem,
                self.mark(),
            )
        })
    }

    fn scan_flow_scalar_spaces(
        &mut self,
        _double: bool,
        start: Mark,
        chunks: &mut String,
    ) -> Res<()> {
        let mut length = 0;
        while " \t".contains(self.peek(length)) {
            length += 1;
        }
        let whitespaces = self.prefix(length);
        self.forward(length);
        let ch = self.ch();
        if ch == '\0' {
            return Err(YamlError::new(
                Some("while scanning a quoted scalar"),
                Some(start),
                "found unexpected end of stream",
                self.mark(),
            ));
        } else if BREAKS.contains(ch) {
            let line_break = self.scan_line_break();
            let mut breaks = String::new();
            self.scan_flow_scalar_breaks(start, &mut breaks)?;
            if line_break != "\n" {
                chunks.push_str(&line_break);
            } else if breaks.is_empty() {
                chunks.push(' ');
            }
            chunks.push_str(&breaks);
        } else {
            chunks.push_str(&whitespaces);
        }
        Ok(())
    }

    fn scan_flow_scalar_breaks(&mut self, start: Mark, chunks: &mut String) -> Res<()> {
        loop {
            if self.is_at_separator() {
                return Err(YamlError::new(
                    Some("while scanning a quoted scalar"),
                    Some(start),
                    "found unexpected document separator",
                    self.mark(),
                ));
            }
            while " \t".contains(self.ch()) {
                self.forward(1);
            }
            if BREAKS.contains(self.ch()) && self.ch() != '\0' {
                chunks.push_str(&self.scan_line_break());
            } else {
                return Ok(());
            }
        }
    }

    fn scan_plain(&mut self) -> Token {
        let mut chunks = String::new();
        let start = self.mark();
        let mut end = start;
        let indent = self.indent + 1;
        let mut spaces = String::new();
        loop {
            let mut length = 0;
            if self.ch() == '#' {
                break;
            }
            loop {
                let ch = self.peek(length);
                let next = self.peek(length + 1);
                if BLANKZ.contains(ch)
                    || (ch == ':'
                        && (BLANKZ.contains(next)
                            || (self.flow_level != 0 && ",[]{}".contains(next))))
                    || (self.flow_level != 0 && ",?[]{}".contains(ch))
                {
                    break;
                }
                length += 1;
            }
            if length == 0 {
                break;
            }
            self.allow_simple_key = false;
            chunks.push_str(&spaces);
            chunks.push_str(&self.prefix(length));
            self.forward(length);
            end = self.mark();
            match self.scan_plain_spaces() {
                Some(s) if !s.is_empty() => spaces = s,
                _ => break,
            }
            if self.ch() == '#' || (self.flow_level == 0 && self.col() < indent) {
                break;
            }
        }
        Token {
            kind: Tok::Scalar {
                value: chunks,
                plain: true,
            },
            start,
            end,
        }
    }

    /// `None` where PyYAML's returns `None` (a document separator follows).
    fn scan_plain_spaces(&mut self) -> Option<String> {
        let mut chunks = String::new();
        let mut length = 0;
        while self.peek(length) == ' ' {
            length += 1;
        }
        let whitespaces = self.prefix(length);
        self.forward(length);
        let ch = self.ch();
        if BREAKS.contains(ch) && ch != '\0' {
            let line_break = self.scan_line_break();
            self.allow_simple_key = true;
            if self.is_at_separator() {
                return None;
            }
            let mut breaks = String::new();
            while " \r\n\u{85}\u{2028}\u{2029}".contains(self.ch()) && self.ch() != '\0' {
                if self.ch() == ' ' {
                    self.forward(1);
                } else {
                    breaks.push_str(&self.scan_line_break());
                    if self.is_at_separator() {
                        return None;
                    }
                }
            }
            if line_break != "\n" {
                chunks.push_str(&line_break);
            } else if breaks.is_empty() {
                chunks.push(' ');
            }
            chunks.push_str(&breaks);
        } else if !whitespaces.is_empty() {
            chunks.push_str(&whitespaces);
        }
        Some(chunks)
    }

    fn scan_tag_handle(&mut self, name: &str, start: Mark) -> Res<String> {
        let err = |s: &Self, ch: char| {
            YamlError::new(
                Some(&format!("while scanning a {name}")),
                Some(start),
                format!("expected '!', but found {}", py_repr(ch)),
                s.mark(),
            )
        };
        let ch = self.ch();
        if ch != '!' {
            return Err(err(self, ch));
        }
        let mut length = 1;
        let mut ch = self.peek(length);
        if ch != ' ' {
            while is_word(ch) {
                length += 1;
                ch = self.peek(length);
            }
            if ch != '!' {
                self.forward(length);
                return Err(err(self, ch));
            }
            length += 1;
        }
        let value = self.prefix(length);
        self.forward(length);
        Ok(value)
    }

    fn scan_tag_uri(&mut self, name: &str, start: Mark) -> Res<String> {
        let mut chunks = String::new();
        let mut length = 0;
        let mut ch = self.peek(length);
        while ch.is_ascii_alphanumeric() || "-;/?:@&=+$,_.!~*'()[]%".contains(ch) {
            if ch == '%' {
                chunks.push_str(&self.prefix(length));
                self.forward(length);
                length = 0;
                chunks.push_str(&self.scan_uri_escapes(name, start)?);
            } else {
                length += 1;
            }
            ch = self.peek(length);
        }
        if length > 0 {
            chunks.push_str(&self.prefix(length));
            self.forward(length);
        }
        if chunks.is_empty() {
            return Err(YamlError::new(
                Some(&format!("while parsing a {name}")),
                Some(start),
                format!("expected URI, but found {}", py_repr(ch)),
                self.mark(),
            ));
        }
        Ok(chunks)
    }

    fn scan_uri_escapes(&mut self, name: &str, start: Mark) -> Res<String> {
        let mut codes = Vec::new();
        let mark = self.mark();
        while self.ch() == '%' {
            self.forward(1);
            for k in 0..2 {
                if !self.peek(k).is_ascii_hexdigit() {
                    return Err(YamlError::new(
                        Some(&format!("while scanning a {name}")),
                        Some(start),
                        format!(
                            "expected URI escape sequence of 2 hexadecimal numbers, but found {}",
                            py_repr(self.peek(k))
                        ),
                        self.mark(),
                    ));
                }
            }
            codes.push(u8::from_str_radix(&self.prefix(2), 16).unwrap_or(0));
            self.forward(2);
        }
        String::from_utf8(codes).map_err(|_| {
            YamlError::new(
                Some(&format!("while scanning a {name}")),
                Some(start),
                "'utf-8' codec can't decode the escaped bytes",
                mark,
            )
        })
    }

    fn scan_line_break(&mut self) -> String {
        let ch = self.ch();
        if ch == '\r' || ch == '\n' || ch == '\u{85}' {
            if ch == '\r' && self.peek(1) == '\n' {
                self.forward(2);
            } else {
                self.forward(1);
            }
            "\n".to_owned()
        } else if ch == '\u{2028}' || ch == '\u{2029}' {
            self.forward(1);
            ch.to_string()
        } else {
            String::new()
        }
    }
}

fn escape_replacement(ch: char) -> Option<char> {
    Some(match ch {
        '0' => '\0',
        'a' => '\x07',
        'b' => '\x08',
        't' | '\t' => '\t',
        'n' => '\n',
        'v' => '\x0B',
        'f' => '\x0C',
        'r' => '\r',
        'e' => '\x1B',
        ' ' => ' ',
        '"' => '"',
        '\\' => '\\',
        '/' => '/',
        'N' => '\u{85}',
        '_' => '\u{A0}',
        'L' => '\u{2028}',
        'P' => '\u{2029}',
        _ => return None,
    })
}

// ---------------------------------------------------------------- parser

/// PyYAML's events, as far as heatcap needs them.
#[derive(Debug)]
enum PyEvent {
    StreamStart,
    StreamEnd,
    DocumentStart(Mark, Mark),
    DocumentEnd,
    Alias(String, Mark, Mark),
    Scalar {
        anchor: Option<String>,
        tag: Option<String>,
        plain_implicit: bool,
        value: String,
        start: Mark,
        end: Mark,
    },
    SequenceStart {
        anchor: Option<String>,
        tag: Option<String>,
        start: Mark,
        end: Mark,
    },
    MappingStart {
        anchor: Option<String>,
        tag: Option<String>,
        start: Mark,
        end: Mark,
    },
    CollectionEnd(Mark, Mark),
}

impl PyEvent {
    fn into_event(self) -> Option<Event> {
        Some(match self {
            PyEvent::StreamStart | PyEvent::StreamEnd => return None,
            PyEvent::DocumentStart(s, e) => Event::DocumentStart(span(s, e)),
            PyEvent::DocumentEnd => Event::DocumentEnd,
            PyEvent::Alias(name, s, e) => Event::Alias {
                name,
                span: span(s, e),
            },
            PyEvent::Scalar {
                anchor,
                tag,
                plain_implicit,
                value,
                start,
                end,
            } => Event::Scalar {
                value: value.into(),
                implicit: plain_implicit,
                tag,
                anchor,
                span: span(start, end),
            },
            PyEvent::SequenceStart {
                anchor,
                tag,
                start,
                end,
            } => Event::SequenceStart {
                tag,
                anchor,
                span: span(start, end),
            },
            PyEvent::MappingStart {
                anchor,
                tag,
                start,
                end,
            } => Event::MappingStart {
                tag,
                anchor,
                span: span(start, end),
            },
            PyEvent::CollectionEnd(s, e) => Event::CollectionEnd(span(s, e)),
        })
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    StreamStart,
    ImplicitDocumentStart,
    DocumentStart,
    DocumentEnd,
    DocumentContent,
    BlockNode,
    BlockSequenceFirstEntry,
    BlockSequenceEntry,
    IndentlessSequenceEntry,
    BlockMappingFirstKey,
    BlockMappingKey,
    BlockMappingValue,
    FlowSequenceFirstEntry,
    FlowSequenceEntry,
    FlowSequenceEntryMappingKey,
    FlowSequenceEntryMappingValue,
    FlowSequenceEntryMappingEnd,
    FlowMappingFirstKey,
    FlowMappingKey,
    FlowMappingValue,
    FlowMappingEmptyValue,
}

struct Parser {
    scanner: Scanner,
    tag_handles: Vec<(String, String)>,
    states: Vec<State>,
    marks: Vec<Mark>,
    state: Option<State>,
}

fn default_tags() -> Vec<(String, String)> {
    vec![
        ("!".to_owned(), "!".to_owned()),
        ("!!".to_owned(), "tag:yaml.org,2002:".to_owned()),
    ]
}

impl Parser {
    fn new(text: &str) -> Self {
        Parser {
            scanner: Scanner::new(text),
            tag_handles: Vec::new(),
            states: Vec::new(),
            marks: Vec::new(),
            state: Some(State::StreamStart),
        }
    }

    fn next_event(&mut self) -> Res<Option<PyEvent>> {
        let Some(state) = self.state else {
            return Ok(None);
        };
        self.run(state).map(Some)
    }

    fn pop_state(&mut self) {
        self.state = self.states.pop();
    }

    /// The next token, which the caller has already checked exists (the
    /// scanner ends every stream with STREAM-END and never runs past it).
    fn take(&mut self) -> Res<Token> {
        match self.scanner.get_token()? {
            Some(t) => Ok(t),
            None => Err(YamlError::new(
                None,
                None,
                "unexpected end of the token stream",
                self.scanner.mark(),
            )),
        }
    }

    fn peek(&mut self) -> Res<Token> {
        match self.scanner.peek_token()? {
            Some(t) => Ok(t.clone()),
            None => Err(YamlError::new(
                None,
                None,
                "unexpected end of the token stream",
                self.scanner.mark(),
            )),
        }
    }

    fn check(&mut self, f: impl Fn(&Tok) -> bool) -> Res<bool> {
        self.scanner.check(f)
    }

    fn run(&mut self, state: State) -> Res<PyEvent> {
        match state {
            State::StreamStart => {
                self.take()?;
                self.state = Some(State::ImplicitDocumentStart);
                Ok(PyEvent::StreamStart)
            }
            State::ImplicitDocumentStart => self.parse_implicit_document_start(),
            State::DocumentStart => self.parse_document_start(),
            State::DocumentEnd => self.parse_document_end(),
            State::DocumentContent => self.parse_document_content(),
            State::BlockNode => self.parse_node(true, false),
            State::BlockSequenceFirstEntry => {
                self.first_mark()?;
                self.parse_block_sequence_entry()
            }
            State::BlockSequenceEntry => self.parse_block_sequence_entry(),
            State::IndentlessSequenceEntry => self.parse_indentless_sequence_entry(),
            State::BlockMappingFirstKey => {
                self.first_mark()?;
                self.parse_block_mapping_key()
            }
            State::BlockMappingKey => self.parse_block_mapping_key(),
            State::BlockMappingValue => self.parse_block_mapping_value(),
            State::FlowSequenceFirstEntry => {
                self.first_mark()?;
                self.parse_flow_sequence_entry(true)
            }
            State::FlowSequenceEntry => self.parse_flow_sequence_entry(false),
            State::FlowSequenceEntryMappingKey => self.parse_flow_sequence_entry_mapping_key(),
            State::FlowSequenceEntryMappingValue => self.parse_flow_sequence_entry_mapping_value(),
            State::FlowSequenceEntryMappingEnd => {
                self.state = Some(State::FlowSequenceEntry);
                let token = self.peek()?;
                Ok(PyEvent::CollectionEnd(token.start, token.start))
            }
            State::FlowMappingFirstKey => {
                self.first_mark()?;
                self.parse_flow_mapping_key(true)
            }
            State::FlowMappingKey => self.parse_flow_mapping_key(false),
            State::FlowMappingValue => self.parse_flow_mapping_value(),
            State::FlowMappingEmptyValue => {
                self.state = Some(State::FlowMappingKey);
                let token = self.peek()?;
                Ok(empty_scalar(token.start))
            }
        }
    }

    /// The `*_first_*` states: the collection's opening token, whose mark
    /// error messages name.
    fn first_mark(&mut self) -> Res<()> {
        let token = self.take()?;
        self.marks.push(token.start);
        Ok(())
    }

    fn parse_implicit_document_start(&mut self) -> Res<PyEvent> {
        if self.check(|t| {
            matches!(
                t,
                Tok::Directive { .. } | Tok::DocumentStart | Tok::StreamEnd
            )
        })? {
            return self.parse_document_start();
        }
        self.tag_handles = default_tags();
        let token = self.peek()?;
        self.states.push(State::DocumentEnd);
        self.state = Some(State::BlockNode);
        Ok(PyEvent::DocumentStart(token.start, token.start))
    }

    fn parse_document_end(&mut self) -> Res<PyEvent> {
        if self.check(|t| matches!(t, Tok::DocumentEnd))? {
            self.take()?;
        }
        self.state = Some(State::DocumentStart);
        Ok(PyEvent::DocumentEnd)
    }

    fn parse_document_content(&mut self) -> Res<PyEvent> {
        if self.check(|t| {
            matches!(
                t,
                Tok::Directive { .. } | Tok::DocumentStart | Tok::DocumentEnd | Tok::StreamEnd
            )
        })? {
            let mark = self.peek()?.start;
            self.pop_state();
            return Ok(empty_scalar(mark));
        }
        self.parse_node(true, false)
    }

    fn parse_flow_sequence_entry_mapping_key(&mut self) -> Res<PyEvent> {
        let token = self.take()?;
        if self.check(|t| matches!(t, Tok::Value | Tok::FlowEntry | Tok::FlowSequenceEnd))? {
            self.state = Some(State::FlowSequenceEntryMappingValue);
            return Ok(empty_scalar(token.end));
        }
        self.states.push(State::FlowSequenceEntryMappingValue);
        self.parse_node(false, false)
    }

    fn parse_flow_sequence_entry_mapping_value(&mut self) -> Res<PyEvent> {
        if self.check(|t| matches!(t, Tok::Value))? {
            let token = self.take()?;
            if self.check(|t| matches!(t, Tok::FlowEntry | Tok::FlowSequenceEnd))? {
                self.state = Some(State::FlowSequenceEntryMappingEnd);
                return Ok(empty_scalar(token.end));
            }
            self.states.push(State::FlowSequenceEntryMappingEnd);
            return self.parse_node(false, false);
        }
        self.state = Some(State::FlowSequenceEntryMappingEnd);
        let token = self.peek()?;
        Ok(empty_scalar(token.start))
    }

    fn parse_flow_mapping_value(&mut self) -> Res<PyEvent> {
        if self.check(|t| matches!(t, Tok::Value))? {
            let token = self.take()?;
            if self.check(|t| matches!(t, Tok::FlowEntry | Tok::FlowMappingEnd))? {
                self.state = Some(State::FlowMappingKey);
                return Ok(empty_scalar(token.end));
            }
            self.states.push(State::FlowMappingKey);
            return self.parse_node(false, false);
        }
        self.state = Some(State::FlowMappingKey);
        let token = self.peek()?;
        Ok(empty_scalar(token.start))
    }

    fn parse_document_start(&mut self) -> Res<PyEvent> {
        while self.check(|t| matches!(t, Tok::DocumentEnd))? {
            self.take()?;
        }
        if self.check(|t| matches!(t, Tok::StreamEnd))? {
            let token = self.take()?;
            self.state = None;
            let _ = token;
            return Ok(PyEvent::StreamEnd);
        }
        let start = self.peek()?.start;
        self.process_directives()?;
        let token = self.peek()?;
        if !matches!(token.kind, Tok::DocumentStart) {
            return Err(YamlError::new(
                None,
                None,
                format!(
                    "expected '<document start>', but found '{}'",
                    token.kind.id()
                ),
                token.start,
            ));
        }
        let token = self.take()?;
        self.states.push(State::DocumentEnd);
        self.state = Some(State::DocumentContent);
        Ok(PyEvent::DocumentStart(start, token.end))
    }

    fn process_directives(&mut self) -> Res<()> {
        let mut yaml_version: Option<(u64, u64)> = None;
        self.tag_handles.clear();
        while self.check(|t| matches!(t, Tok::Directive { .. }))? {
            let token = self.take()?;
            let Tok::Directive { name, yaml, tag } = token.kind else {
                continue;
            };
            if name == "YAML" {
                if yaml_version.is_some() {
                    return Err(YamlError::new(
                        None,
                        None,
                        "found duplicate YAML directive",
                        token.start,
                    ));
                }
                let (major, minor) = yaml.unwrap_or((1, 1));
                if major != 1 {
                    return Err(YamlError::new(
                        None,
                        None,
                        "found incompatible YAML document (version 1.* is required)",
                        token.start,
                    ));
                }
                yaml_version = Some((major, minor));
            } else if name == "TAG" {
                if let Some((handle, prefix)) = tag {
                    if self.tag_handles.iter().any(|(h, _)| *h == handle) {
                        return Err(YamlError::new(
                            None,
                            None,
                            format!("duplicate tag handle '{handle}'"),
                            token.start,
                        ));
                    }
                    self.tag_handles.push((handle, prefix));
                }
            }
        }
        for (h, p) in default_tags() {
            if !self.tag_handles.iter().any(|(x, _)| *x == h) {
                self.tag_handles.push((h, p));
            }
        }
        Ok(())
    }

    fn parse_node(&mut self, block: bool, indentless_sequence: bool) -> Res<PyEvent> {
        if self.check(|t| matches!(t, Tok::Alias(_)))? {
            let token = self.take()?;
            self.pop_state();
            let Tok::Alias(name) = token.kind else {
                unreachable!("checked above")
            };
            return Ok(PyEvent::Alias(name, token.start, token.end));
        }
        let props = self.node_properties()?;
        self.node_content(block, indentless_sequence, props)
    }

    /// A node's anchor and tag (in either order), its tag resolved through
    /// the document's handles, and the marks they span.
    fn node_properties(&mut self) -> Res<Props> {
        let mut anchor = None;
        let mut tag: Option<(Option<String>, String)> = None;
        let (mut start, mut end, mut tag_mark) = (None, None, None);
        if self.check(|t| matches!(t, Tok::Anchor(_)))? {
            let token = self.take()?;
            start = Some(token.start);
            end = Some(token.end);
            if let Tok::Anchor(a) = token.kind {
                anchor = Some(a);
            }
            if self.check(|t| matches!(t, Tok::Tag(..)))? {
                let token = self.take()?;
                tag_mark = Some(token.start);
                end = Some(token.end);
                if let Tok::Tag(h, s) = token.kind {
                    tag = Some((h, s));
                }
            }
        } else if self.check(|t| matches!(t, Tok::Tag(..)))? {
            let token = self.take()?;
            start = Some(token.start);
            tag_mark = Some(token.start);
            end = Some(token.end);
            if let Tok::Tag(h, s) = token.kind {
                tag = Some((h, s));
            }
            if self.check(|t| matches!(t, Tok::Anchor(_)))? {
                let token = self.take()?;
                end = Some(token.end);
                if let Tok::Anchor(a) = token.kind {
                    anchor = Some(a);
                }
            }
        }
        let tag = match tag {
            Some((Some(handle), suffix)) => {
                let Some((_, prefix)) = self.tag_handles.iter().find(|(h, _)| *h == handle) else {
                    return Err(YamlError::new(
                        Some("while parsing a node"),
                        start,
                        format!("found undefined tag handle '{handle}'"),
                        tag_mark.unwrap_or_else(|| self.scanner.mark()),
                    ));
                };
                Some(format!("{prefix}{suffix}"))
            }
            Some((None, suffix)) => Some(suffix),
            None => None,
        };
        let (start, end) = if let (Some(s), Some(e)) = (start, end) {
            (s, e)
        } else {
            let m = self.peek()?.start;
            (m, m)
        };
        Ok(Props {
            anchor,
            tag,
            start,
            end,
        })
    }

    fn node_content(
        &mut self,
        block: bool,
        indentless_sequence: bool,
        props: Props,
    ) -> Res<PyEvent> {
        let Props {
            anchor,
            tag,
            start,
            mut end,
        } = props;
        let implicit = tag.is_none() || tag.as_deref() == Some("!");
        let token = self.peek()?;
        if indentless_sequence && matches!(token.kind, Tok::BlockEntry) {
            end = token.end;
            self.state = Some(State::IndentlessSequenceEntry);
            return Ok(PyEvent::SequenceStart {
                anchor,
                tag,
                start,
                end,
            });
        }
        match token.kind {
            Tok::Scalar { .. } => {
                let token = self.take()?;
                let Tok::Scalar { value, plain } = token.kind else {
                    unreachable!("peeked a scalar")
                };
                let plain_implicit = (plain && tag.is_none()) || tag.as_deref() == Some("!");
                self.pop_state();
                Ok(PyEvent::Scalar {
                    anchor,
                    tag,
                    plain_implicit,
                    value,
                    start,
                    end: token.end,
                })
            }
            Tok::FlowSequenceStart => {
                self.state = Some(State::FlowSequenceFirstEntry);
                Ok(PyEvent::SequenceStart {
                    anchor,
                    tag,
                    start,
                    end: token.end,
                })
            }
            Tok::FlowMappingStart => {
                self.state = Some(State::FlowMappingFirstKey);
                Ok(PyEvent::MappingStart {
                    anchor,
                    tag,
                    start,
                    end: token.end,
                })
            }
            Tok::BlockSequenceStart if block => {
                self.state = Some(State::BlockSequenceFirstEntry);
                Ok(PyEvent::SequenceStart {
                    anchor,
                    tag,
                    start,
                    end: token.start,
                })
            }
            Tok::BlockMappingStart if block => {
                self.state = Some(State::BlockMappingFirstKey);
                Ok(PyEvent::MappingStart {
                    anchor,
                    tag,
                    start,
                    end: token.start,
                })
            }
            _ if anchor.is_some() || tag.is_some() => {
                self.pop_state();
                Ok(PyEvent::Scalar {
                    anchor,
                    tag,
                    plain_implicit: implicit,
                    value: String::new(),
                    start,
                    end,
                })
            }
            _ => Err(YamlError::new(
                Some(if block {
                    "while parsing a block node"
                } else {
                    "while parsing a flow node"
                }),
                Some(start),
                format!("expected the node content, but found '{}'", token.kind.id()),
                token.start,
            )),
        }
    }

    fn last_mark(&self) -> Option<Mark> {
        self.marks.last().copied()
    }

    fn parse_block_sequence_entry(&mut self) -> Res<PyEvent> {
        if self.check(|t| matches!(t, Tok::BlockEntry))? {
            let token = self.take()?;
            if self.check(|t| matches!(t, Tok::BlockEntry | Tok::BlockEnd))? {
                self.state = Some(State::BlockSequenceEntry);
                return Ok(empty_scalar(token.end));
            }
            self.states.push(State::BlockSequenceEntry);
            return self.parse_node(true, false);
        }
        let token = self.peek()?;
        if !matches!(token.kind, Tok::BlockEnd) {
            return Err(YamlError::new(
                Some("while parsing a block collection"),
                self.last_mark(),
                format!("expected <block end>, but found '{}'", token.kind.id()),
                token.start,
            ));
        }
        let token = self.take()?;
        self.pop_state();
        self.marks.pop();
        Ok(PyEvent::CollectionEnd(token.start, token.end))
    }

    fn parse_indentless_sequence_entry(&mut self) -> Res<PyEvent> {
        if self.check(|t| matches!(t, Tok::BlockEntry))? {
            let token = self.take()?;
            if self
                .check(|t| matches!(t, Tok::BlockEntry | Tok::Key | Tok::Value | Tok::BlockEnd))?
            {
                self.state = Some(State::IndentlessSequenceEntry);
                return Ok(empty_scalar(token.end));
            }
            self.states.push(State::IndentlessSequenceEntry);
            return self.parse_node(true, false);
        }
        let token = self.peek()?;
        self.pop_state();
        Ok(PyEvent::CollectionEnd(token.start, token.start))
    }

    fn parse_block_mapping_key(&mut self) -> Res<PyEvent> {
        if self.check(|t| matches!(t, Tok::Key))? {
            let token = self.take()?;
            if self.check(|t| matches!(t, Tok::Key | Tok::Value | Tok::BlockEnd))? {
                self.state = Some(State::BlockMappingValue);
                return Ok(empty_scalar(token.end));
            }
            self.states.push(State::BlockMappingValue);
            return self.parse_node(true, true);
        }
        let token = self.peek()?;
        if !matches!(token.kind, Tok::BlockEnd) {
            return Err(YamlError::new(
                Some("while parsing a block mapping"),
                self.last_mark(),
                format!("expected <block end>, but found '{}'", token.kind.id()),
                token.start,
            ));
        }
        let token = self.take()?;
        self.pop_state();
        self.marks.pop();
        Ok(PyEvent::CollectionEnd(token.start, token.end))
    }

    fn parse_block_mapping_value(&mut self) -> Res<PyEvent> {
        if self.check(|t| matches!(t, Tok::Value))? {
            let token = self.take()?;
            if self.check(|t| matches!(t, Tok::Key | Tok::Value | Tok::BlockEnd))? {
                self.state = Some(State::BlockMappingKey);
                return Ok(empty_scalar(token.end));
            }
            self.states.push(State::BlockMappingKey);
            return self.parse_node(true, true);
        }
        self.state = Some(State::BlockMappingKey);
        let token = self.peek()?;
        Ok(empty_scalar(token.start))
    }

    fn parse_flow_sequence_entry(&mut self, first: bool) -> Res<PyEvent> {
        if !self.check(|t| matches!(t, Tok::FlowSequenceEnd))? {
            if !first {
                if self.check(|t| matches!(t, Tok::FlowEntry))? {
                    self.take()?;
                } else {
                    let token = self.peek()?;
                    return Err(YamlError::new(
                        Some("while parsing a flow sequence"),
                        self.last_mark(),
                        format!("expected ',' or ']', but got '{}'", token.kind.id()),
                        token.start,
                    ));
                }
            }
            let token = self.peek()?;
            if matches!(token.kind, Tok::Key) {
                self.state = Some(State::FlowSequenceEntryMappingKey);
                return Ok(PyEvent::MappingStart {
                    anchor: None,
                    tag: None,
                    start: token.start,
                    end: token.end,
                });
            } else if !matches!(token.kind, Tok::FlowSequenceEnd) {
                self.states.push(State::FlowSequenceEntry);
                return self.parse_node(false, false);
            }
        }
        let token = self.take()?;
        self.pop_state();
        self.marks.pop();
        Ok(PyEvent::CollectionEnd(token.start, token.end))
    }

    fn parse_flow_mapping_key(&mut self, first: bool) -> Res<PyEvent> {
        if !self.check(|t| matches!(t, Tok::FlowMappingEnd))? {
            if !first {
                if self.check(|t| matches!(t, Tok::FlowEntry))? {
                    self.take()?;
                } else {
                    let token = self.peek()?;
                    return Err(YamlError::new(
                        Some("while parsing a flow mapping"),
                        self.last_mark(),
                        format!("expected ',' or '}}', but got '{}'", token.kind.id()),
                        token.start,
                    ));
                }
            }
            if self.check(|t| matches!(t, Tok::Key))? {
                let token = self.take()?;
                if self.check(|t| matches!(t, Tok::Value | Tok::FlowEntry | Tok::FlowMappingEnd))? {
                    self.state = Some(State::FlowMappingValue);
                    return Ok(empty_scalar(token.end));
                }
                self.states.push(State::FlowMappingValue);
                return self.parse_node(false, false);
            } else if !self.check(|t| matches!(t, Tok::FlowMappingEnd))? {
                self.states.push(State::FlowMappingEmptyValue);
                return self.parse_node(false, false);
            }
        }
        let token = self.take()?;
        self.pop_state();
        self.marks.pop();
        Ok(PyEvent::CollectionEnd(token.start, token.end))
    }
}

/// A node's properties ([`Parser::node_properties`]).
struct Props {
    anchor: Option<String>,
    tag: Option<String>,
    start: Mark,
    end: Mark,
}

/// PyYAML's `process_empty_scalar`.
fn empty_scalar(mark: Mark) -> PyEvent {
    PyEvent::Scalar {
        anchor: None,
        tag: None,
        plain_implicit: true,
        value: String::new(),
        start: mark,
        end: mark,
    }
}

#[cfg(test)]
mod tests;

// ------------------------------------------------------------ timestamps

/// A timestamp's parts, as PyYAML's `SafeConstructor.timestamp_regexp`
/// reads them.
#[derive(Debug, PartialEq, Eq)]
struct Timestamp {
    year: u32,
    month: u32,
    day: u32,
    /// Both of month and day written with two digits.
    two_digit_date: bool,
    /// (hour, minute, second, microseconds, offset in minutes if any)
    time: Option<(u32, u32, u32, u32, Option<i64>)>,
}

fn digits(s: &[u8], at: &mut usize, min: usize, max: usize) -> Option<u32> {
    let start = *at;
    while *at < s.len() && *at - start < max && s[*at].is_ascii_digit() {
        *at += 1;
    }
    if *at - start < min {
        return None;
    }
    std::str::from_utf8(&s[start..*at]).ok()?.parse().ok()
}

/// `^YYYY-M?M-D?D(?:(?:[Tt]|[ \t]+)H?H:MM:SS(?:\.F*)?(?:[ \t]*(?:Z|[-+]H?H(?::MM)?))?)?$`
fn parse_timestamp(text: &str) -> Option<Timestamp> {
    let s = text.as_bytes();
    let mut at = 0;
    let expect = |at: &mut usize, c: u8| {
        if s.get(*at) == Some(&c) {
            *at += 1;
            true
        } else {
            false
        }
    };
    let year = digits(s, &mut at, 4, 4)?;
    if !expect(&mut at, b'-') {
        return None;
    }
    let m0 = at;
    let month = digits(s, &mut at, 1, 2)?;
    let month_two = at - m0 == 2;
    if !expect(&mut at, b'-') {
        return None;
    }
    let d0 = at;
    let day = digits(s, &mut at, 1, 2)?;
    let two_digit_date = month_two && at - d0 == 2;
    let mut ts = Timestamp {
        year,
        month,
        day,
        two_digit_date,
        time: None,
    };
    if at == s.len() {
        return Some(ts);
    }
    if matches!(s[at], b'T' | b't') {
        at += 1;
    } else {
        let w = at;
        while at < s.len() && matches!(s[at], b' ' | b'\t') {
            at += 1;
        }
        if at == w {
            return None;
        }
    }
    let hour = digits(s, &mut at, 1, 2)?;
    if !expect(&mut at, b':') {
        return None;
    }
    let minute = digits(s, &mut at, 2, 2)?;
    if !expect(&mut at, b':') {
        return None;
    }
    let second = digits(s, &mut at, 2, 2)?;
    let mut micros = 0;
    if expect(&mut at, b'.') {
        let f0 = at;
        while at < s.len() && s[at].is_ascii_digit() {
            at += 1;
        }
        let mut frac: String = text[f0..at].chars().take(6).collect();
        if !frac.is_empty() {
            while frac.len() < 6 {
                frac.push('0');
            }
            micros = frac.parse().unwrap_or(0);
        }
    }
    let mut offset = None;
    let ws = at;
    while at < s.len() && matches!(s[at], b' ' | b'\t') {
        at += 1;
    }
    match s.get(at) {
        // Blanks only before an offset.
        None if at != ws => return None,
        None => {}
        Some(b'Z') => {
            at += 1;
            offset = Some(0);
        }
        Some(&sign @ (b'-' | b'+')) => {
            at += 1;
            let h = i64::from(digits(s, &mut at, 1, 2)?);
            let mut m = 0;
            if expect(&mut at, b':') {
                m = i64::from(digits(s, &mut at, 2, 2)?);
            }
            let total = h * 60 + m;
            offset = Some(if sign == b'-' { -total } else { total });
        }
        Some(_) => return None,
    }
    if at != s.len() {
        return None;
    }
    ts.time = Some((hour, minute, second, micros, offset));
    Some(ts)
}

/// Whether PyYAML's implicit resolver tags this plain text a timestamp.
pub(crate) fn is_implicit_timestamp(text: &str) -> bool {
    parse_timestamp(text).is_some_and(|t| t.time.is_some() || t.two_digit_date)
}

fn days_in_month(year: u32, month: u32) -> u32 {
    match month {
        4 | 6 | 9 | 11 => 30,
        2 if (year.is_multiple_of(4) && !year.is_multiple_of(100)) || year.is_multiple_of(400) => {
            29
        }
        2 => 28,
        _ => 31,
    }
}

/// Python's `repr()` of a `timedelta` of `seconds`.
fn timedelta_repr(seconds: i64) -> String {
    let days = seconds.div_euclid(86_400);
    let secs = seconds.rem_euclid(86_400);
    match (days, secs) {
        (0, 0) => "datetime.timedelta(0)".to_owned(),
        (0, s) => format!("datetime.timedelta(seconds={s})"),
        (d, 0) => format!("datetime.timedelta(days={d})"),
        (d, s) => format!("datetime.timedelta(days={d}, seconds={s})"),
    }
}

/// What Heat sees of a timestamp that PyYAML's plain `SafeConstructor`
/// made a Python `date` or `datetime`: python-heatclient sends every
/// template and environment it parsed as JSON, and oslo.serialization's
/// `to_primitive` writes a date as `%Y-%m-%d` and a datetime as
/// `%Y-%m-%dT%H:%M:%S.%f` (wall-clock time, the offset dropped; the year
/// not zero-padded). Recorded from Heat: tests/heat/fallback-timestamps.json.
/// `Err` is the `ValueError` Python raises for an impossible date or time;
/// `None`, text the constructor's pattern does not match.
pub(crate) fn timestamp_text(text: &str) -> Option<Result<String, String>> {
    let t = parse_timestamp(text)?;
    Some(timestamp_value(&t))
}

fn timestamp_value(t: &Timestamp) -> Result<String, String> {
    if let Some((_, _, _, _, Some(offset))) = t.time {
        if offset.abs() >= 24 * 60 {
            return Err(format!(
                "offset must be a timedelta strictly between -timedelta(hours=24) and timedelta(hours=24), not {}.",
                timedelta_repr(offset * 60)
            ));
        }
    }
    if !(1..=9999).contains(&t.year) {
        return Err(format!("year {} is out of range", t.year));
    }
    if !(1..=12).contains(&t.month) {
        return Err("month must be in 1..12".to_owned());
    }
    if t.day < 1 || t.day > days_in_month(t.year, t.month) {
        return Err("day is out of range for month".to_owned());
    }
    let date = format!("{}-{:02}-{:02}", t.year, t.month, t.day);
    let Some((hour, minute, second, micros, _)) = t.time else {
        return Ok(date);
    };
    if hour > 23 {
        return Err("hour must be in 0..23".to_owned());
    }
    if minute > 59 {
        return Err("minute must be in 0..59".to_owned());
    }
    if second > 59 {
        return Err("second must be in 0..59".to_owned());
    }
    Ok(format!(
        "{date}T{hour:02}:{minute:02}:{second:02}.{micros:06}"
    ))
}
