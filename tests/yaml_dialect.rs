//! Heat's YAML dialect, checked against PyYAML: for every snippet in
//! fixtures/yaml-dialect/, heatcap must accept exactly what Heat's loader
//! (CSafeLoader + Heat's str/timestamp constructors, heat-semantics §1.2)
//! accepts, with the same values. expected.json was written by that loader
//! (tools/pyyaml_diff.py); this test needs no Python.

use std::fs;

use heatcap::{parse_text, ParseOptions};

#[test]
fn loader_agrees_with_pyyaml_on_every_snippet() {
    let dir = "fixtures/yaml-dialect";
    let expected: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(format!("{dir}/expected.json")).unwrap()).unwrap();
    let expected = expected.as_object().unwrap();
    let mut checked = 0;
    let mut failures = Vec::new();
    for (name, want) in expected {
        let bytes = fs::read(format!("{dir}/{name}")).unwrap();
        let mut text = String::from_utf8(bytes).unwrap();
        if text.starts_with('\u{feff}') {
            text.remove(0);
        }
        let parsed = parse_text(&text, name, &ParseOptions::default());
        let got = match &parsed.root {
            Some(root) => serde_json::json!({ "value": root.value.to_json() }),
            None => {
                serde_json::json!({ "error": parsed.diagnostics.last().map(ToString::to_string) })
            }
        };
        let agree = match (want.get("value"), got.get("value")) {
            (Some(w), Some(g)) => w == g,
            (None, None) => true,
            _ => false,
        };
        if !agree {
            failures.push(format!("{name}: pyyaml {want}, heatcap {got}"));
        }
        checked += 1;
    }
    assert!(checked >= 40, "only {checked} snippets");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
