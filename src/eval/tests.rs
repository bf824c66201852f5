//! The evaluator against Heat: the suites under `tests/heat/functions/`
//! were recorded by running Heat 27.0.1 (`tools/heat-oracle/functions.py`);
//! each case names the Heat unit test it ports (`test`, from
//! heat/tests/test_hot.py) where there is one. Below them, unit tests of
//! the Python helpers and of the edges the suites do not reach.

use serde_json::{json, Value};

use super::python;
use super::{
    evaluate, evaluate_condition, evaluate_condition_definition, evaluate_item, tables, Dialect,
    Outcome, Scope, Unevaluated,
};

/// The suites, by name.
const SUITES: [(&str, &str); 8] = [
    ("hot-2013-05-23", include_str!("../../tests/heat/functions/hot-2013-05-23.json")),
    ("hot-2015-04-30", include_str!("../../tests/heat/functions/hot-2015-04-30.json")),
    ("hot-2015-10-15", include_str!("../../tests/heat/functions/hot-2015-10-15.json")),
    ("hot-2016-10-14", include_str!("../../tests/heat/functions/hot-2016-10-14.json")),
    ("hot-2017-09-01", include_str!("../../tests/heat/functions/hot-2017-09-01.json")),
    ("hot-2021-04-16", include_str!("../../tests/heat/functions/hot-2021-04-16.json")),
    ("cfn", include_str!("../../tests/heat/functions/cfn.json")),
    ("heat-cfn", include_str!("../../tests/heat/functions/heat-cfn.json")),
];

/// A stack as Heat described it when recording a suite.
struct SuiteScope {
    dialect: Dialect,
    stack: Value,
    files: Value,
    mappings: Option<Value>,
}

impl SuiteScope {
    fn new(suite: &Value) -> SuiteScope {
        let stack = suite["stack"].clone();
        let dialect = match stack["dialect"].as_str().unwrap_or_default() {
            "cfn" => Dialect::Cfn,
            "heat-cfn" => Dialect::HeatCfn,
            hot => {
                let compact = hot.trim_start_matches("hot:");
                let date = tables::HOT_VERSIONS
                    .iter()
                    .find(|v| v.replace('-', "") == compact)
                    .copied()
                    .expect("a known HOT version");
                Dialect::Hot(date)
            }
        };
        SuiteScope {
            dialect,
            files: suite["files"].clone(),
            mappings: suite["template"].get("Mappings").cloned(),
            stack,
        }
    }
}

impl Scope for SuiteScope {
    fn dialect(&self) -> Dialect {
        self.dialect
    }
    fn parameter(&self, name: &str) -> Option<Value> {
        self.stack["parameters"].get(name).cloned()
    }
    fn has_resource(&self, name: &str) -> bool {
        self.stack["resources"].get(name).is_some()
    }
    fn condition(&self, name: &str) -> Option<Outcome> {
        let c = self.stack["conditions"].get(name)?;
        Some(match (c.get("value"), c.get("error")) {
            (Some(v), _) => Ok(v.clone()),
            (None, e) => Err(Unevaluated::new(
                "conditions",
                heat_message(e.and_then(Value::as_str).unwrap_or_default()),
            )),
        })
    }
    fn file(&self, name: &str) -> Option<String> {
        self.files.get(name).and_then(Value::as_str).map(str::to_owned)
    }
    fn resource_type(&self, name: &str) -> Option<String> {
        self.stack["resources"].get(name)?.as_str().map(str::to_owned)
    }
    fn mappings(&self) -> Option<&Value> {
        self.mappings.as_ref()
    }
}

/// Heat's message without the exception class.
fn heat_message(error: &str) -> &str {
    error.split_once(": ").map_or(error, |(_, m)| m)
}

/// Every case of every suite gives Heat's value, or fails with Heat's
/// message (heatcap's reason is the end of it: Heat prefixes some with a
/// path). Cases marked `"heatcap": "unevaluated"` are what heatcap
/// cannot compute offline.
#[test]
fn agrees_with_heat() {
    let mut failures = Vec::new();
    let mut checked = 0;
    for (name, text) in SUITES {
        let suite: Value = serde_json::from_str(text).expect("a suite is JSON");
        let scope = SuiteScope::new(&suite);
        for case in suite["cases"].as_array().expect("cases") {
            let snippet = &case["snippet"];
            let got: Result<Value, Unevaluated> = match case.get("condition").and_then(Value::as_str) {
                Some("ref") => evaluate_condition(snippet, &scope).map(Value::Bool),
                Some("definition") => {
                    evaluate_condition_definition("c", snippet, &scope).map(Value::Bool)
                }
                _ => evaluate(snippet, &scope),
            };
            checked += 1;
            let heat = &case["heat"];
            let marker = case.get("heatcap").and_then(Value::as_str);
            // Heat computes it, heatcap cannot (unless the name is no
            // function in this version: data then).
            let unevaluated = marker == Some("unevaluated") && heat.get("value") != Some(snippet);
            let same = |a: &Value, b: &Value| serde_json::to_string(a).ok() == serde_json::to_string(b).ok();
            let ok = match (&got, heat.get("value"), heat.get("error")) {
                (Err(_), _, _) if unevaluated => true,
                (Ok(v), Some(want), _) => !unevaluated && same(v, want),
                // Heat's message, or (`"message"`) a known difference in
                // the wording only.
                (Err(u), None, Some(Value::String(e))) => {
                    marker == Some("message") || heat_message(e).ends_with(&u.reason)
                }
                _ => false,
            };
            if !ok {
                failures.push(format!(
                    "{name}: {snippet}\n    heat:    {heat}\n    heatcap: {got:?}"
                ));
            }
        }
    }
    assert!(checked > 1500, "only {checked} cases");
    assert!(failures.is_empty(), "{} disagreements:\n{}", failures.len(), failures.join("\n"));
}
