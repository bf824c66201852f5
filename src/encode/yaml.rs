//! YAML output through libyaml's own emitter (the `libyaml-safer` port).
//! Strings that YAML 1.1 would read back as something else (`yes`, `2`,
//! `0755`, `~`) are quoted, so the output loads back to the same data.

use std::io::{self, Write};

use libyaml_safer::{Emitter, Event, MappingStyle, ScalarStyle, SequenceStyle};

use crate::node::scalar::resolve_plain;
use crate::node::Value;

/// Writes `value` as one YAML document.
pub(crate) fn write(out: &mut dyn Write, value: &serde_json::Value) -> io::Result<()> {
    emit(out, value, &Style::HEATCAP)
}

/// Writes `value` as PyYAML's `yaml.safe_dump(value,
/// default_flow_style=False)` does (what python-heatclient prints): keys
/// sorted, lines folded at 80 columns, anything but ASCII escaped. PyYAML's
/// emitter is a port of libyaml's, which emits here.
pub(crate) fn write_pyyaml(out: &mut dyn Write, value: &serde_json::Value) -> io::Result<()> {
    emit(out, value, &Style::PYYAML)
}

/// How a document is emitted.
struct Style {
    sort_keys: bool,
    unicode: bool,
    /// Fold long scalars at this column; -1 never.
    width: i32,
}

impl Style {
    /// heatcap's own YAML: keys in their order, whole lines, UTF-8.
    const HEATCAP: Style = Style {
        sort_keys: false,
        unicode: true,
        width: -1,
    };
    /// `yaml.safe_dump`'s defaults.
    const PYYAML: Style = Style {
        sort_keys: true,
        unicode: false,
        width: 80,
    };
}

fn emit(out: &mut dyn Write, value: &serde_json::Value, style: &Style) -> io::Result<()> {
    let mut buf = Vec::new();
    {
        let mut em = Emitter::new();
        em.set_output_string(&mut buf);
        em.set_unicode(style.unicode);
        em.set_width(style.width);
        let mut events = vec![
            Event::stream_start(libyaml_safer::Encoding::Utf8),
            Event::document_start(None, &[], true),
        ];
        push(value, style.sort_keys, &mut events);
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

fn push(value: &serde_json::Value, sort_keys: bool, events: &mut Vec<Event>) {
    use serde_json::Value as J;
    let plain = |text: &str| Event::scalar(None, None, text, true, false, ScalarStyle::Plain);
    match value {
        J::Null => events.push(plain("null")),
        J::Bool(b) => events.push(plain(if *b { "true" } else { "false" })),
        J::Number(n) => events.push(plain(&n.to_string())),
        J::String(s) => {
            // Plain only when YAML 1.1 reads it back as the same string, in
            // Heat's dialect and in plain PyYAML (which reads dates).
            let reads_back = matches!(resolve_plain(s.as_str().into()), Value::Str(ref r) if r == s)
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
                push(i, sort_keys, events);
            }
            events.push(Event::sequence_end());
        }
        J::Object(map) => {
            events.push(Event::mapping_start(None, None, true, MappingStyle::Block));
            let mut entries: Vec<_> = map.iter().collect();
            if sort_keys {
                // Python sorts str keys by code point, as Rust sorts UTF-8.
                entries.sort_by(|a, b| a.0.cmp(b.0));
            }
            for (k, v) in entries {
                push(&J::String(k.clone()), sort_keys, events);
                push(v, sort_keys, events);
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

    /// What `yaml.safe_dump(v, default_flow_style=False)` prints for the
    /// same value (PyYAML 6.0.3): sorted keys, a long string folded at 80
    /// columns, non-ASCII escaped, dates and numbers quoted.
    #[test]
    fn pyyaml_safe_dump() {
        let v = serde_json::json!({
            "z": [1, 1.0, true, null, {"b": 1, "a": "2016-10-14"}],
            "a": "a long description that goes on and on beyond the eightieth column, so PyYAML folds it",
            "m": "caf\u{e9}",
            "e": [],
        });
        let mut out = Vec::new();
        super::write_pyyaml(&mut out, &v).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "a: a long description that goes on and on beyond the eightieth column, so PyYAML folds\n  it\ne: []\nm: \"caf\\xE9\"\nz:\n- 1\n- 1.0\n- true\n- null\n- a: '2016-10-14'\n  b: 1\n"
        );
    }
}
