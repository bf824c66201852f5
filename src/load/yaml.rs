//! The only module that knows the YAML crate: `libyaml-safer`, a safe Rust
//! port of libyaml 0.2.5, the parser behind Heat's `CSafeLoader`. It turns
//! text into [`Event`]s with 1-based positions; [`super::tree`] does the
//! rest. See docs/design.md for why this crate was chosen.

use libyaml_safer::{EventData, Mark, Parser};

use super::tree::{Event, Fatal};
use crate::diag::{codes, Pos, Span};

/// The events of `text`, ending at the first error.
pub(crate) fn events(text: &str) -> impl Iterator<Item = Result<Event, Fatal>> + '_ {
    let mut input = text.as_bytes();
    let mut parser = Parser::new();
    let mut done = false;
    let mut events = Vec::new();
    // The parser borrows `input` mutably, so it is driven to the end here;
    // events are small, and the tree builder stops at the first error.
    parser.set_input_string(&mut input);
    while !done {
        match parser.parse() {
            Ok(ev) => {
                let span = Span {
                    start: pos(ev.start_mark),
                    end: pos(ev.end_mark),
                };
                let converted = match ev.data {
                    EventData::StreamStart { .. } => None,
                    EventData::StreamEnd => {
                        done = true;
                        None
                    }
                    EventData::DocumentStart { .. } => Some(Event::DocumentStart(span)),
                    EventData::DocumentEnd { .. } => Some(Event::DocumentEnd),
                    EventData::Alias { anchor } => Some(Event::Alias { name: anchor, span }),
                    EventData::Scalar {
                        anchor,
                        tag,
                        value,
                        plain_implicit,
                        ..
                    } => Some(Event::Scalar {
                        value,
                        implicit: plain_implicit,
                        tag,
                        anchor,
                        span,
                    }),
                    EventData::SequenceStart { anchor, tag, .. } => {
                        Some(Event::SequenceStart { tag, anchor, span })
                    }
                    EventData::MappingStart { anchor, tag, .. } => {
                        Some(Event::MappingStart { tag, anchor, span })
                    }
                    EventData::SequenceEnd | EventData::MappingEnd => {
                        Some(Event::CollectionEnd(span))
                    }
                };
                if let Some(e) = converted {
                    events.push(Ok(e));
                }
            }
            Err(e) => {
                events.push(Err(error(&e)));
                done = true;
            }
        }
    }
    events.into_iter()
}

fn pos(m: Mark) -> Pos {
    Pos {
        line: u32::try_from(m.line + 1).unwrap_or(u32::MAX),
        column: u32::try_from(m.column + 1).unwrap_or(u32::MAX),
    }
}

/// libyaml's problem and context, in heatcap's message style.
fn error(e: &libyaml_safer::Error) -> Fatal {
    let mut message = e.problem().to_owned();
    if let (Some(context), Some(at)) = (e.context(), e.context_mark()) {
        let at = pos(at);
        message = format!(
            "{message} ({context} that starts at line {}, column {})",
            at.line, at.column
        );
    }
    let span = e.problem_mark().map(|m| {
        let p = pos(m);
        Span { start: p, end: p }
    });
    Fatal::new(codes::YAML_SYNTAX, message, span)
}
