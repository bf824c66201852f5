use super::*;

/// The events of `text` in a compact form: `+MAP`, `-`, `=plain`, `'quoted`.
fn compact(text: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    for ev in events(text) {
        match ev.map_err(|f| {
            let at = f.span.map(|s| (s.start.line, s.start.column));
            format!("{at:?} {}", f.message)
        })? {
            Event::DocumentStart(_) | Event::DocumentEnd => {}
            Event::Scalar {
                value,
                implicit,
                tag,
                ..
            } => out.push(match (implicit, tag) {
                (true, _) => format!("={value}"),
                (false, Some(t)) => format!("<{t}>{value}"),
                (false, None) => format!("'{value}"),
            }),
            Event::SequenceStart { .. } => out.push("+SEQ".into()),
            Event::MappingStart { .. } => out.push("+MAP".into()),
            Event::CollectionEnd(_) => out.push("-".into()),
            Event::Alias { name, .. } => out.push(format!("*{name}")),
        }
    }
    Ok(out)
}

fn ok(text: &str) -> String {
    compact(text)
        .unwrap_or_else(|e| panic!("{text:?}: {e}"))
        .join(" ")
}

fn err(text: &str) -> String {
    match compact(text) {
        Ok(evs) => panic!("{text:?} parsed: {evs:?}"),
        Err(e) => e,
    }
}

#[test]
fn flow_key_colon_without_space() {
    assert_eq!(
        ok("HOSTNAME: {get_attr:[Controller, name]}\n"),
        "+MAP =HOSTNAME +MAP =get_attr +SEQ =Controller =name - - -"
    );
    assert_eq!(ok("{a:b}"), "+MAP =a:b = -");
    assert_eq!(ok("[a:1, b: 2]"), "+SEQ =a:1 +MAP =b =2 - -");
}

#[test]
fn block_documents() {
    assert_eq!(
        ok("a: 1\nb:\n  - x\n  - 'y'\nc: |\n  l1\n  l2\n"),
        "+MAP =a =1 =b +SEQ =x 'y - =c 'l1\nl2\n -"
    );
    assert_eq!(ok("- a\n- b: c\n  d: e\n"), "+SEQ =a +MAP =b =c =d =e - -");
    assert_eq!(ok("k:\n- a\n- b\n"), "+MAP =k +SEQ =a =b - -");
    assert_eq!(ok(""), "");
    assert_eq!(ok("&x a: *x\n"), "+MAP =a *x -");
    assert_eq!(ok("a: !!str 1\n"), "+MAP =a <tag:yaml.org,2002:str>1 -");
    assert_eq!(ok("a: \"x\\ty\\u00e9\"\n"), "+MAP =a 'x\ty\u{e9} -");
    assert_eq!(
        ok("a: >-\n  one\n  two\n\n  three\n"),
        "+MAP =a 'one two\nthree -"
    );
    assert_eq!(ok("a: plain\n  continued\n"), "+MAP =a =plain continued -");
}

#[test]
fn errors_are_pyyaml_s() {
    assert_eq!(
        err("a: [1, 2\n"),
        "Some((2, 1)) expected ',' or ']', but got '<stream end>' (while parsing a flow sequence that starts at line 1, column 4)"
    );
    assert_eq!(
        err("a: b: c\n"),
        "Some((1, 5)) mapping values are not allowed here"
    );
    assert_eq!(
        err("a:\n\tb: 1\n"),
        "Some((2, 1)) found character '\\t' that cannot start any token (while scanning for the next token)"
    );
    assert_eq!(
        err("a: \"\\q\"\n"),
        "Some((1, 6)) found unknown escape character 'q' (while scanning a double-quoted scalar that starts at line 1, column 4)"
    );
    assert_eq!(
        err("a: \u{1}\n"),
        "Some((1, 4)) unacceptable character #x0001: special characters are not allowed"
    );
}

#[test]
fn timestamps_as_the_client_sends_them() {
    assert_eq!(timestamp_text("2016-10-14"), Some(Ok("2016-10-14".into())));
    assert_eq!(timestamp_text("0999-01-02"), Some(Ok("999-01-02".into())));
    assert_eq!(
        timestamp_text("2001-12-14t21:59:43.10-05:00"),
        Some(Ok("2001-12-14T21:59:43.100000".into()))
    );
    assert_eq!(
        timestamp_text("2001-1-2 3:04:05"),
        Some(Ok("2001-01-02T03:04:05.000000".into()))
    );
    assert_eq!(
        timestamp_text("2001-12-14 21:59:43.1234567"),
        Some(Ok("2001-12-14T21:59:43.123456".into()))
    );
    assert_eq!(
        timestamp_text("2016-13-01"),
        Some(Err("month must be in 1..12".into()))
    );
    assert_eq!(
        timestamp_text("2016-02-30"),
        Some(Err("day is out of range for month".into()))
    );
    assert_eq!(
        timestamp_text("2001-01-02 10:00:00 +25"),
        Some(Err("offset must be a timedelta strictly between -timedelta(hours=24) and timedelta(hours=24), not datetime.timedelta(days=1, seconds=3600).".into()))
    );
    assert!(is_implicit_timestamp("2016-10-14"));
    assert!(!is_implicit_timestamp("2016-1-14"));
    assert!(is_implicit_timestamp("2016-1-14 1:00:00"));
    assert!(!is_implicit_timestamp("2016-10-14 "));
    assert_eq!(timestamp_text("2016-10-14x"), None);
}

/// The second stage alone against PyYAML's `SafeLoader` alone, on every
/// dialect snippet (fixtures/yaml-dialect/expected.json, `safe`: recorded
/// by `tools/pyyaml_diff.py --record`), whatever libyaml makes of them.
#[test]
fn second_stage_alone_is_pyyaml_s_safe_loader_on_every_snippet() {
    use crate::load::tree::{build, Dialect, TreeLimits};
    let dir = "fixtures/yaml-dialect";
    let expected: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(format!("{dir}/expected.json")).unwrap())
            .unwrap();
    let mut failures = Vec::new();
    let mut checked = 0;
    for (name, want) in expected.as_object().unwrap() {
        let text = std::fs::read_to_string(format!("{dir}/{name}")).unwrap();
        let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
        let limits = TreeLimits {
            max_depth: 256,
            max_alias_nodes: 100_000,
            index_only: false,
        };
        let built = build(
            events(text),
            Dialect::Yaml11Fallback,
            limits,
            name,
            &mut Vec::new(),
        );
        let want = &want["safe"];
        match (built, want.get("value")) {
            (Ok(root), Some(v)) if root.value.to_json() == *v => {}
            (Err(_), None) => {}
            (got, _) => failures.push(format!("{name}: SafeLoader {want}, heatcap {got:?}")),
        }
        checked += 1;
    }
    assert!(checked >= 70, "{checked}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn escaped_surrogates_are_joined_as_the_client_s_json_joins_them() {
    // Recorded: fixtures/yaml-dialect/fb_escape_surrogate_pair.yaml.
    assert_eq!(ok("a: \"\\ud83d\\ude00\"\n"), "+MAP =a '\u{1F600} -");
    // A lone surrogate (Heat keeps it) is heatcap's documented limit.
    assert!(err("a: \"\\ud800\"\n").contains("lone surrogate"));
    assert!(err("a: \"\\U00110000\"\n").contains("chr() arg not in range(0x110000)"));
}
