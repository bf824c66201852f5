//! Heat's YAML dialect, checked against PyYAML: for every snippet in
//! fixtures/yaml-dialect/, heatcap must accept exactly what Heat's loader
//! accepts, with the same values. Heat's loader is two stages
//! (heat/common/template_format.py `simple_parse`, environment_format.py,
//! heatclient's template_format.py): CSafeLoader (libyaml) with Heat's str
//! and timestamp constructors, and where that raises a YAML error, PyYAML's
//! pure-Python SafeLoader. expected.json was written by PyYAML 6.0.3
//! (`tools/pyyaml_diff.py --record fixtures/yaml-dialect`): Heat's answer
//! as `value` or `error`, and each stage's own answer under `csafe` and
//! `safe` (the `fb_*` snippets are the ones only the second stage reads;
//! the other scanner differences are recorded beside them). This test
//! needs no Python; src/load/pyyaml/tests.rs checks the second stage alone
//! against `safe`.

use std::fs;

use heatcap::{parse_text, ParseOptions};

#[test]
fn loader_agrees_with_pyyaml_on_every_snippet() {
    let dir = "fixtures/yaml-dialect";
    let expected: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(format!("{dir}/expected.json")).unwrap()).unwrap();
    let expected = expected.as_object().unwrap();
    let mut checked = 0;
    let mut fallbacks = 0;
    let mut failures = Vec::new();
    for (name, want) in expected {
        let bytes = fs::read(format!("{dir}/{name}")).unwrap();
        let mut text = String::from_utf8(bytes).unwrap();
        if text.starts_with('\u{feff}') {
            text.remove(0);
        }
        let parsed = parse_text(&text, name, &ParseOptions::default());
        let error = parsed
            .diagnostics
            .iter()
            .find(|d| d.code.0.starts_with('E'));
        let got = match (&parsed.root, error) {
            (Some(root), None) => serde_json::json!({ "value": root.value.to_json() }),
            _ => serde_json::json!({ "error": error.map(ToString::to_string) }),
        };
        let agree = match (want.get("value"), got.get("value")) {
            (Some(w), Some(g)) => w == g,
            (None, None) => true,
            _ => false,
        };
        if !agree {
            failures.push(format!("{name}: pyyaml {want}, heatcap {got}"));
        }
        // W0009 exactly where libyaml refuses and the second stage reads.
        let only_second =
            want["csafe"].get("error").is_some() && want["safe"].get("value").is_some();
        let warned = parsed.diagnostics.iter().any(|d| d.code.0 == "W0009");
        if only_second != warned {
            failures.push(format!(
                "{name}: fallback warning {warned}, expected {only_second}"
            ));
        }
        // Where both stages refuse in the scanner or parser, the message is
        // the second stage's (PyYAML's first line; heatcap quotes names with
        // backticks). Constructor errors keep heatcap's own words.
        if let (Some(w), Some(e)) = (want.get("error").and_then(|e| e.as_str()), error) {
            let shown = e.message.replace('`', "'");
            if want["csafe"].get("error").is_some()
                && (w.starts_with("while scanning")
                    || w.starts_with("while parsing")
                    || w.starts_with("found ")
                    || w.contains("must be"))
                && !shown.contains(w)
            {
                failures.push(format!(
                    "{name}: PyYAML says `{w}`, heatcap `{}`",
                    e.message
                ));
            }
        }
        fallbacks += usize::from(only_second);
        checked += 1;
    }
    assert!(checked >= 70, "only {checked} snippets");
    assert!(
        fallbacks >= 9,
        "only {fallbacks} snippets need the second stage"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
