//! heatcap's offline custom constraints against Heat's own verdicts
//! (tests/heat/custom-constraints.json, recorded by
//! tools/heat-oracle/custom_constraints.py).

use serde_json::Value;

use super::{check, Verdict, CHECKED};
use crate::heat_schema::{self, needs_cloud};

/// The constraints checked only in part: heatcap may leave a value Heat
/// refuses unchecked, never one it accepts.
const IN_PART: [&str; 2] = ["timezone", "cron_expression"];

/// The offline constraints heatcap does not check, and why.
const NOT_CHECKED: [(&str, &str); 3] = [
    ("iso_8601", "no property of Heat 27.0.1 uses it"),
    (
        "test_constr",
        "TestConstraintDelay: client machinery, sleeps",
    ),
    (
        "nova.network",
        "TestConstraintDelay: client machinery, sleeps",
    ),
];

fn recording() -> Value {
    let doc: Value = serde_json::from_str(include_str!(
        "../../../../../tests/heat/custom-constraints.json"
    ))
    .unwrap();
    assert_eq!(doc["heat"], "27.0.1");
    doc
}

#[test]
fn agrees_with_heat_on_every_recorded_value() {
    let doc = recording();
    let recorded = doc["constraints"].as_object().unwrap();
    let mut problems = Vec::new();
    let mut cases = 0;
    for (name, _) in CHECKED {
        let list = recorded[name]
            .as_array()
            .unwrap_or_else(|| panic!("{name}"));
        let mut refused = 0;
        let mut found = 0;
        for case in list {
            let value = case[0].as_str().unwrap();
            let heat = case[1].as_str();
            let ours = check(name, value);
            cases += 1;
            refused += usize::from(heat.is_some());
            let ok = match (heat, &ours) {
                (None, Verdict::Accepts) => true,
                (_, Verdict::Unchecked) => IN_PART.contains(&name),
                (Some(h), Verdict::Refuses(m)) => {
                    found += 1;
                    h == m
                }
                _ => false,
            };
            if !ok {
                problems.push(format!("{name} {value:?}: Heat {heat:?}, heatcap {ours:?}"));
            }
        }
        if IN_PART.contains(&name) {
            // The part checked still finds some.
            assert!(found > 0, "{name}");
        } else {
            assert_eq!(found, refused, "{name}");
        }
    }
    assert!(
        problems.is_empty(),
        "{} of {cases}:\n{}",
        problems.len(),
        problems.join("\n")
    );
    assert!(cases > 2000, "{cases}");
}

#[test]
fn every_offline_constraint_is_checked_or_listed() {
    let heat = heat_schema::heat();
    let offline: Vec<&str> = heat
        .custom_constraints
        .iter()
        .filter(|(_, class)| !needs_cloud(class))
        .map(|(name, _)| name.as_str())
        .collect();
    let mut known: Vec<&str> = CHECKED
        .iter()
        .map(|(n, _)| *n)
        .chain(NOT_CHECKED.iter().map(|(n, _)| *n))
        .collect();
    known.sort_unstable();
    let mut offline = offline;
    offline.sort_unstable();
    assert_eq!(offline, known);
    for (name, _) in NOT_CHECKED {
        assert_eq!(check(name, "x"), Verdict::Unchecked);
    }
    let recorded = recording();
    for (name, _) in CHECKED {
        assert!(recorded["constraints"][name].is_array(), "{name}");
    }
}

#[test]
fn expiration_compares_with_now() {
    // 2001-01-01T00:00:00Z is 978307200 s after the epoch.
    let at = 978_307_200_000_000_i128;
    assert_eq!(super::time::expiration_at("2001-01-01T00:00:01Z", at), None);
    assert_eq!(
        super::time::expiration_at("2001-01-01T00:00:00Z", at).as_deref(),
        Some("Expiration 2001-01-01T00:00:00Z is invalid: Expiration time is out of date.")
    );
    assert_eq!(
        super::time::expiration_at("2001-01-01T01:00:00+01:00", at).as_deref(),
        Some("Expiration 2001-01-01T01:00:00+01:00 is invalid: Expiration time is out of date.")
    );
}
