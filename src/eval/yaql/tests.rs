//! heatcap's yaql against yaql's: every case of `tests/heat/yaql.json`
//! was run through Heat 27.0.1's `yaql` function
//! (`tools/heat-oracle/yaql_cases.py`). The cases are every distinct
//! expression of the 2018 and 2023 TripleO trees with realistic data
//! (and the data Heat saw when it validated them), and edge cases of the
//! language and its library.

use serde_json::Value as Json;

use super::{evaluate, parse, Error};

const SUITE: &str = include_str!("../../../tests/heat/yaql.json");

/// What heatcap gives for a case: a value, or the error as
/// `Class: message` (a parse error as Heat words it), or why it cannot.
fn run(case: &Json) -> Result<Json, Error> {
    let expression = case["expression"].as_str().unwrap_or_default();
    let data = case
        .get("data")
        .cloned()
        .unwrap_or_else(|| Json::Object(serde_json::Map::new()));
    let parsed = parse(expression).map_err(|e| match e {
        Error::Raised { message, .. } => Error::Raised {
            class: "StackValidationFailed".into(),
            message: format!("Bad expression {message}."),
        },
        e @ Error::Unsupported(_) => e,
    })?;
    evaluate(&parsed, &data)
}

/// Heat's answer and heatcap's agree: the same value (dict order
/// included), or the same exception and message (a message that shows an
/// object's address is compared by its class only), or, where Heat's
/// value is no JSON (a set), heatcap's refusal. A case marked
/// `"heatcap": "unsupported"` is one heatcap refuses on purpose; it must
/// still refuse it.
#[test]
fn agrees_with_heat() {
    let suite: Json = serde_json::from_str(SUITE).expect("the suite is JSON");
    let mut failures = Vec::new();
    let mut checked = 0;
    for case in suite["cases"].as_array().expect("cases") {
        checked += 1;
        let got = run(case);
        let heat = &case["heat"];
        let refused = case.get("heatcap").and_then(Json::as_str) == Some("unsupported");
        let ok = match (&got, heat.get("value"), heat.get("error")) {
            (Err(Error::Unsupported(_)), _, _) => refused || heat.get("python").is_some(),
            _ if refused => false,
            (Ok(v), Some(want), _) => {
                serde_json::to_string(v).ok() == serde_json::to_string(want).ok()
            }
            (Err(Error::Raised { class, message }), None, Some(Json::String(e))) => {
                let (heat_class, heat_message) = e.split_once(": ").unwrap_or((e, ""));
                class == heat_class && (message == heat_message || heat_message.contains(" at 0x"))
            }
            _ => false,
        };
        if !ok {
            failures.push(format!(
                "{}  data: {}\n    heat:    {heat}\n    heatcap: {got:?}",
                case["expression"],
                case.get("data").map_or("(none)".into(), Json::to_string)
            ));
        }
    }
    assert!(checked > 0);
    assert!(
        failures.is_empty(),
        "{} of {checked} cases differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Every function of Heat's yaql context has a body, but those heatcap
/// leaves unsupported on purpose: dates and times (no value heatcap
/// computes is one), yaqlized Python objects (none here), `def`,
/// `random` and `characters` (a set in hash order).
#[test]
fn the_library_is_covered() {
    let lib = super::engine::library();
    assert!(lib.ids().len() > 250, "{} functions", lib.ids().len());
    for id in lib.missing() {
        assert!(
            id.starts_with("date_time.")
                || id.starts_with("yaqlized.")
                || matches!(
                    id,
                    "specs.wrapper"
                        | "system.def_"
                        | "math.random_"
                        | "math.random__"
                        | "strings.characters"
                ),
            "{id} has no body"
        );
    }
}
