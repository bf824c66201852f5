//! The only module that knows the YAML crate: `unsafe-libyaml`, a
//! line-by-line Rust translation of libyaml 0.2.5, the C parser behind
//! Heat's `CSafeLoader`. It turns text into [`Event`]s with 1-based
//! positions; [`super::tree`] does the rest. docs/design.md records why
//! this crate was chosen (the safe port `libyaml-safer` panics on a block
//! scalar at the end of input, which PyYAML accepts).
//!
//! This is the crate's only `unsafe` code. Every pointer read here is one
//! libyaml has just filled in for the current event, read before
//! `yaml_event_delete` frees it; the parser is freed by [`ParserGuard`].
#![allow(unsafe_code)]

use std::ffi::CStr;

use compact_str::CompactString;
use std::mem::MaybeUninit;

use unsafe_libyaml as unsafe_libyaml_ffi;

use super::tree::{Event, Fatal};
use crate::diag::{codes, Pos, Span};

/// Owns an initialised libyaml parser and frees it on drop.
struct ParserGuard(Box<MaybeUninit<unsafe_libyaml_ffi::yaml_parser_t>>);

impl ParserGuard {
    fn ptr(&mut self) -> *mut unsafe_libyaml_ffi::yaml_parser_t {
        self.0.as_mut_ptr()
    }
}

impl Drop for ParserGuard {
    fn drop(&mut self) {
        // SAFETY: the parser was initialised in `events` before the guard
        // was made, and is deleted exactly once, here.
        unsafe { unsafe_libyaml_ffi::yaml_parser_delete(self.ptr()) }
    }
}

/// The events of `text`, produced as they are parsed, ending at the first
/// error (so a consumer that stops early never parses the rest).
pub(crate) fn events(text: &str) -> Events<'_> {
    let mut raw = Box::new(MaybeUninit::<unsafe_libyaml_ffi::yaml_parser_t>::uninit());
    // SAFETY: `raw` is valid, writable memory for a parser.
    if unsafe { unsafe_libyaml_ffi::yaml_parser_initialize(raw.as_mut_ptr()) }.fail {
        return Events {
            parser: None,
            text,
            done: false,
        };
    }
    let mut parser = ParserGuard(raw);
    // SAFETY: `Events` borrows `text` for as long as the parser lives (the
    // parser is dropped with it); libyaml only reads `text.len()` bytes.
    unsafe {
        unsafe_libyaml_ffi::yaml_parser_set_input_string(
            parser.ptr(),
            text.as_ptr(),
            text.len() as u64,
        );
    }
    Events {
        parser: Some(parser),
        text,
        done: false,
    }
}

/// The event stream of one text (see [`events`]).
pub(crate) struct Events<'a> {
    /// `None` when libyaml could not start.
    parser: Option<ParserGuard>,
    text: &'a str,
    done: bool,
}

impl Iterator for Events<'_> {
    type Item = Result<Event, Fatal>;

    fn next(&mut self) -> Option<Self::Item> {
        while !self.done {
            let Some(parser) = self.parser.as_mut() else {
                self.done = true;
                return Some(Err(Fatal::new(
                    codes::YAML_SYNTAX,
                    "cannot start the YAML parser",
                    None,
                )));
            };
            let mut event = MaybeUninit::<unsafe_libyaml_ffi::yaml_event_t>::uninit();
            // SAFETY: the parser is initialised; `event` is writable.
            if unsafe { unsafe_libyaml_ffi::yaml_parser_parse(parser.ptr(), event.as_mut_ptr()) }
                .fail
            {
                self.done = true;
                // SAFETY: after a failure libyaml has set the error fields.
                return Some(Err(unsafe { error(parser.ptr(), self.text) }));
            }
            // SAFETY: a successful parse filled in the event.
            let (converted, end) = unsafe { convert(event.as_mut_ptr()) };
            // SAFETY: the event was filled in and is freed once.
            unsafe { unsafe_libyaml_ffi::yaml_event_delete(event.as_mut_ptr()) };
            self.done = end;
            if converted.is_some() {
                return converted.map(Ok);
            }
        }
        None
    }
}

fn pos(m: unsafe_libyaml_ffi::yaml_mark_t) -> Pos {
    Pos {
        line: u32::try_from(m.line + 1).unwrap_or(u32::MAX),
        column: u32::try_from(m.column + 1).unwrap_or(u32::MAX),
    }
}

/// Copies a NUL-terminated libyaml string (anchor, tag), if any.
///
/// SAFETY: `p` is null or points to a NUL-terminated string.
unsafe fn opt_string(p: *const u8) -> Option<String> {
    if p.is_null() {
        None
    } else {
        Some(CStr::from_ptr(p.cast()).to_string_lossy().into_owned())
    }
}

/// The event as heatcap's [`Event`], and whether the stream ended.
///
/// SAFETY: `ev` was filled in by a successful `yaml_parser_parse`.
unsafe fn convert(ev: *const unsafe_libyaml_ffi::yaml_event_t) -> (Option<Event>, bool) {
    let ev = &*ev;
    let span = Span {
        start: pos(ev.start_mark),
        end: pos(ev.end_mark),
    };
    let data = &ev.data;
    let converted = match ev.type_ {
        unsafe_libyaml_ffi::YAML_STREAM_END_EVENT => return (None, true),
        unsafe_libyaml_ffi::YAML_DOCUMENT_START_EVENT => Some(Event::DocumentStart(span)),
        unsafe_libyaml_ffi::YAML_DOCUMENT_END_EVENT => Some(Event::DocumentEnd),
        unsafe_libyaml_ffi::YAML_ALIAS_EVENT => Some(Event::Alias {
            name: opt_string(data.alias.anchor).unwrap_or_default(),
            span,
        }),
        unsafe_libyaml_ffi::YAML_SCALAR_EVENT => {
            let s = &data.scalar;
            let bytes = std::slice::from_raw_parts(s.value, s.length as usize);
            Some(Event::Scalar {
                // Built where it is kept: most scalars (keys, names, types)
                // are short enough to be held inline, with no allocation.
                value: CompactString::from_utf8(bytes)
                    .unwrap_or_else(|_| String::from_utf8_lossy(bytes).into()),
                implicit: s.plain_implicit,
                tag: opt_string(s.tag),
                anchor: opt_string(s.anchor),
                span,
            })
        }
        unsafe_libyaml_ffi::YAML_SEQUENCE_START_EVENT => Some(Event::SequenceStart {
            tag: opt_string(data.sequence_start.tag),
            anchor: opt_string(data.sequence_start.anchor),
            span,
        }),
        unsafe_libyaml_ffi::YAML_MAPPING_START_EVENT => Some(Event::MappingStart {
            tag: opt_string(data.mapping_start.tag),
            anchor: opt_string(data.mapping_start.anchor),
            span,
        }),
        unsafe_libyaml_ffi::YAML_SEQUENCE_END_EVENT
        | unsafe_libyaml_ffi::YAML_MAPPING_END_EVENT => Some(Event::CollectionEnd(span)),
        _ => None,
    };
    (converted, false)
}

/// libyaml's problem and context, in heatcap's message style. Reader
/// errors (control characters) carry a byte offset instead of a mark, and
/// PyYAML names the character, so heatcap does both.
///
/// SAFETY: `p` is an initialised parser whose last call failed.
unsafe fn error(p: *const unsafe_libyaml_ffi::yaml_parser_t, text: &str) -> Fatal {
    let p = &*p;
    let mut problem = opt_string(p.problem.cast()).unwrap_or_else(|| "invalid YAML".to_owned());
    let reader_error =
        p.problem_mark.line == 0 && p.problem_mark.column == 0 && p.problem_offset > 0;
    let at = if reader_error {
        if let Ok(c) = u32::try_from(p.problem_value) {
            problem = format!("unacceptable character #x{c:04x}: {problem}");
        }
        offset_pos(
            text,
            usize::try_from(p.problem_offset).unwrap_or(usize::MAX),
        )
    } else {
        pos(p.problem_mark)
    };
    let message = match opt_string(p.context.cast()) {
        Some(context) => {
            let c = pos(p.context_mark);
            format!(
                "{problem} ({context} that starts at line {}, column {})",
                c.line, c.column
            )
        }
        None => problem,
    };
    Fatal::new(
        codes::YAML_SYNTAX,
        message,
        Some(Span { start: at, end: at }),
    )
}

/// The 1-based line and character column of a byte offset.
fn offset_pos(text: &str, offset: usize) -> Pos {
    let before = text.get(..offset.min(text.len())).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    Pos {
        line: u32::try_from(line).unwrap_or(u32::MAX),
        column: u32::try_from(column).unwrap_or(u32::MAX),
    }
}
