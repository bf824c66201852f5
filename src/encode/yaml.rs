//! YAML output through libyaml's own emitter (the `libyaml-safer` port).
//! Strings that YAML 1.1 would read back as something else (`yes`, `2`,
//! `0755`, `~`) are quoted, so the output loads back to the same data.

use std::io::{self, Write};

use libyaml_safer::{Emitter, Event, MappingStyle, ScalarStyle, SequenceStyle};

use crate::node::scalar::resolve_plain;
use crate::node::Value;

/// Writes `value` as one YAML document.
pub(crate) fn write(out: &mut dyn Write, value: &serde_json::Value) -> io::Result<()> {
    let mut buf = Vec::new();
    {
        let mut em = Emitter::new();
        em.set_output_string(&mut buf);
        em.set_unicode(true);
        em.set_width(-1);
        let mut events = vec![
            Event::stream_start(libyaml_safer::Encoding::Utf8),
            Event::document_start(None, &[], true),
        ];
        push(value, &mut events);
        events.push(Event::document_end(true));
        events.push(Event::stream_end());
        for e in events {
            em.emit(e).map_err(|e| io::Error::other(e.to_string()))?;
        }
    }
    out.write_all(&buf)
}

/// YAML 1.1 timestamps start `YYYY-M-D` (plain PyYAML makes them dates).
fn looks_like_timestamp(s: &str) -> bool {
    let b = s.as_bytes();
    let digits =
        |r: std::ops::Range<usize>| b.get(r).is_some_and(|d| d.iter().all(u8::is_ascii_digit));
    if !(digits(0..4) && b.get(4) == Some(&b'-')) {
        return false;
    }
    let rest = &s[5..];
    let mut parts = rest.splitn(3, '-');
    let month = parts.next().unwrap_or("");
    let day: String = parts
        .next()
        .unwrap_or("")
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    (1..=2).contains(&month.len())
        && month.bytes().all(|c| c.is_ascii_digit())
        && (1..=2).contains(&day.len())
}

fn push(value: &serde_json::Value, events: &mut Vec<Event>) {
    use serde_json::Value as J;
    let plain = |text: &str| Event::scalar(None, None, text, true, false, ScalarStyle::Plain);
    match value {
        J::Null => events.push(plain("null")),
        J::Bool(b) => events.push(plain(if *b { "true" } else { "false" })),
        J::Number(n) => events.push(plain(&n.to_string())),
        J::String(s) => {
            // Plain only when YAML 1.1 reads it back as the same string, in
            // Heat's dialect and in plain PyYAML (which reads dates).
            let reads_back = matches!(resolve_plain(s.clone()), Value::Str(ref r) if r == s)
                && !looks_like_timestamp(s);
            events.push(Event::scalar(
                None,
                None,
                s,
                reads_back,
                true,
                ScalarStyle::Any,
            ));
        }
        J::Array(items) => {
            events.push(Event::sequence_start(
                None,
                None,
                true,
                SequenceStyle::Block,
            ));
            for i in items {
                push(i, events);
            }
            events.push(Event::sequence_end());
        }
        J::Object(map) => {
            events.push(Event::mapping_start(None, None, true, MappingStyle::Block));
            for (k, v) in map {
                push(&J::String(k.clone()), events);
                push(v, events);
            }
            events.push(Event::mapping_end());
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::load::{parse_text, ParseOptions};

    #[test]
    fn round_trips_through_the_loader() {
        let v = serde_json::json!({"a": ["yes", "2", "0755", "~", "", "plain text", 2, true, null], "b": {"c": "2015-10-15"}});
        assert!(super::looks_like_timestamp("2015-10-15"));
        assert!(super::looks_like_timestamp("2015-4-3T10:00"));
        assert!(!super::looks_like_timestamp("2015-10"));
        assert!(!super::looks_like_timestamp("OS::Heat::None"));
        let mut out = Vec::new();
        super::write(&mut out, &v).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("c: '2015-10-15'"), "{text}");
        let parsed = parse_text(&text, "x.yaml", &ParseOptions::default());
        assert_eq!(parsed.root.unwrap().value.to_json(), v, "{text}");
    }
}
