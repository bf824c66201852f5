//! The evaluator against Heat: the suites under `tests/heat/functions/`
//! were recorded by running Heat 27.0.1 (`tools/heat-oracle/functions.py`);
//! each case names the Heat unit test it ports (`test`, from
//! heat/tests/test_hot.py) where there is one. Below them, unit tests of
//! the Python helpers and of the edges the suites do not reach.

use serde_json::{json, Value};

use super::python;
use super::{
    evaluate, evaluate_condition, evaluate_condition_definition, evaluate_item, Dialect, Outcome,
    Scope, Unevaluated,
};

/// The suites, by name.
const SUITES: [(&str, &str); 8] = [
    (
        "hot-2013-05-23",
        include_str!("../../tests/heat/functions/hot-2013-05-23.json"),
    ),
    (
        "hot-2015-04-30",
        include_str!("../../tests/heat/functions/hot-2015-04-30.json"),
    ),
    (
        "hot-2015-10-15",
        include_str!("../../tests/heat/functions/hot-2015-10-15.json"),
    ),
    (
        "hot-2016-10-14",
        include_str!("../../tests/heat/functions/hot-2016-10-14.json"),
    ),
    (
        "hot-2017-09-01",
        include_str!("../../tests/heat/functions/hot-2017-09-01.json"),
    ),
    (
        "hot-2021-04-16",
        include_str!("../../tests/heat/functions/hot-2021-04-16.json"),
    ),
    ("cfn", include_str!("../../tests/heat/functions/cfn.json")),
    (
        "heat-cfn",
        include_str!("../../tests/heat/functions/heat-cfn.json"),
    ),
];

/// A stack as Heat described it when recording a suite.
struct SuiteScope {
    dialect: Dialect,
    stack: Value,
    files: Value,
    mappings: Option<Value>,
    /// The template's parameters section (declared, maybe without value).
    declared: Value,
}

impl SuiteScope {
    fn new(suite: &Value) -> SuiteScope {
        let stack = suite["stack"].clone();
        let dialect = match stack["dialect"].as_str().unwrap_or_default() {
            "cfn" => Dialect::Cfn,
            "heat-cfn" => Dialect::HeatCfn,
            hot => {
                let compact = hot.trim_start_matches("hot:");
                let date = crate::model::template::HOT_VERSIONS
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
            declared: suite["template"]
                .get("parameters")
                .or_else(|| suite["template"].get("Parameters"))
                .cloned()
                .unwrap_or_default(),
            stack,
        }
    }
}

impl Scope for SuiteScope {
    fn dialect(&self) -> Dialect {
        self.dialect
    }
    fn parameter(&self, name: &str) -> Option<Outcome> {
        match self.stack["parameters"].get(name) {
            Some(v) => Some(Ok(v.clone())),
            None => self.declared.get(name).map(|_| {
                Err(Unevaluated::heat_error(
                    "get_param",
                    format!("The Parameter ({name}) was not provided."),
                ))
            }),
        }
    }
    fn has_resource(&self, name: &str) -> bool {
        self.stack["resources"].get(name).is_some()
    }
    fn condition(&self, name: &str) -> Option<Outcome> {
        let c = self.stack["conditions"].get(name)?;
        Some(match (c.get("value"), c.get("error")) {
            (Some(v), _) => Ok(v.clone()),
            (None, e) => Err(Unevaluated::heat_error(
                "conditions",
                heat_message(e.and_then(Value::as_str).unwrap_or_default()),
            )),
        })
    }
    fn file(&self, name: &str) -> Option<String> {
        self.files
            .get(name)
            .and_then(Value::as_str)
            .map(str::to_owned)
    }
    fn resource_type(&self, name: &str) -> Option<String> {
        self.stack["resources"]
            .get(name)?
            .as_str()
            .map(str::to_owned)
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
            let got: Result<Value, Unevaluated> =
                match case.get("condition").and_then(Value::as_str) {
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
            let same = |a: &Value, b: &Value| {
                serde_json::to_string(a).ok() == serde_json::to_string(b).ok()
            };
            let ok = match (&got, heat.get("value"), heat.get("error")) {
                // Where Heat fails before reaching what heatcap cannot
                // compute, heatcap fails the same way.
                (Err(u), None, Some(Value::String(e)))
                    if u.heat_error && heat_message(e).ends_with(&u.reason) =>
                {
                    true
                }
                (Err(u), _, _) if unevaluated => !u.heat_error,
                (Ok(v), Some(want), _) => !unevaluated && same(v, want),
                // Whether an attribute is in the resource type's schema is
                // beyond heatcap: it answers null where Heat refuses.
                (Ok(Value::Null), None, Some(Value::String(e))) => {
                    e.contains("The Referenced Attribute (")
                }
                // Heat's message, or (`"message"`) a known difference in
                // the wording only.
                (Err(u), None, Some(Value::String(e))) => {
                    u.heat_error
                        && (marker == Some("message") || heat_message(e).ends_with(&u.reason))
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
    assert!(
        failures.is_empty(),
        "{} disagreements:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// A small stack for the unit tests below.
struct TestScope {
    dialect: Dialect,
    parameters: Value,
    resources: Vec<(&'static str, Option<&'static str>)>,
}

impl TestScope {
    fn hot(date: &'static str) -> TestScope {
        TestScope {
            dialect: Dialect::Hot(date),
            parameters: json!({"s": "abc", "l": ["x", "y"], "OS::stack_name": "dummy"}),
            resources: vec![("server", None), ("port", Some("OS::Neutron::Port"))],
        }
    }
}

impl Scope for TestScope {
    fn dialect(&self) -> Dialect {
        self.dialect
    }
    fn parameter(&self, name: &str) -> Option<Outcome> {
        self.parameters.get(name).cloned().map(Ok)
    }
    fn has_resource(&self, name: &str) -> bool {
        self.resources.iter().any(|(n, _)| *n == name)
    }
    fn condition(&self, name: &str) -> Option<Outcome> {
        match name {
            "yes" => Some(Ok(Value::Bool(true))),
            "no" => Some(Ok(Value::Bool(false))),
            _ => None,
        }
    }
    fn file(&self, name: &str) -> Option<String> {
        (name == "f").then(|| "content".to_owned())
    }
    fn resource_type(&self, name: &str) -> Option<String> {
        self.resources
            .iter()
            .find(|(n, _)| *n == name)
            .and_then(|(_, t)| t.map(str::to_owned))
    }
}

#[test]
fn float_repr_is_pythons() {
    // Expected values printed by Python 3.11's repr().
    for (f, want) in [
        (0.0, "0.0"),
        (-0.0, "-0.0"),
        (1.0, "1.0"),
        (1e16, "1e+16"),
        (1e15, "1000000000000000.0"),
        (123_456_789_012_345_678.0, "1.2345678901234568e+17"),
        (0.0001, "0.0001"),
        (0.00001, "1e-05"),
        (1.797_693_134_862_315_7e308, "1.7976931348623157e+308"),
        (5e-324, "5e-324"),
        (1.0 / 3.0, "0.3333333333333333"),
        (9_999_999_999_999_998.0, "9999999999999998.0"),
        (-8_551_274_266.649_145, "-8551274266.649145"),
        (-3.523_344_703_336_752_3e-16, "-3.5233447033367523e-16"),
        (-1.509_616_217_149_720_6e27, "-1.5096162171497206e+27"),
        (12345.678, "12345.678"),
    ] {
        assert_eq!(python::float_repr(f), want, "{f}");
    }
}

#[test]
fn repr_and_json_are_pythons() {
    // Expected values printed by Python 3.11 (repr, json.dumps).
    for (s, repr, json) in [
        ("a'b", r#""a'b""#, r#""a'b""#),
        ("a\"b", r#"'a"b'"#, r#""a\"b""#),
        ("a'\"b", r#"'a\'"b'"#, r#""a'\"b""#),
        ("tab\tnl\nbs\\", r"'tab\tnl\nbs\\'", r#""tab\tnl\nbs\\""#),
        (
            "\u{0}\u{1f}\u{7f}",
            r"'\x00\x1f\x7f'",
            r#""\u0000\u001f\u007f""#,
        ),
        ("é€😀", "'é€😀'", r#""\u00e9\u20ac\ud83d\ude00""#),
        (
            "\u{a0}\u{200b}\u{2028}",
            r"'\xa0\u200b\u2028'",
            r#""\u00a0\u200b\u2028""#,
        ),
    ] {
        assert_eq!(python::str_repr(s), repr);
        assert_eq!(python::json_dumps(&json!(s), true), json);
    }
    let v = json!({"b": [1, 1.0, null, true], "a": {"é": "x"}});
    assert_eq!(
        python::json_dumps(&v, true),
        r#"{"a": {"\u00e9": "x"}, "b": [1, 1.0, null, true]}"#
    );
    assert_eq!(
        python::repr(&v),
        "{'b': [1, 1.0, None, True], 'a': {'é': 'x'}}"
    );
    assert_eq!(python::str(&json!(true)), "True");
    assert_eq!(python::str(&json!(null)), "None");
}

#[test]
fn quote_and_int_are_pythons() {
    // Expected values printed by Python 3.11's urllib.parse and int().
    let s = "a b/c:d@é~_.-";
    assert_eq!(python::quote(s, ""), "a%20b%2Fc%3Ad%40%C3%A9~_.-");
    assert_eq!(python::quote(s, ":"), "a%20b%2Fc:d%40%C3%A9~_.-");
    assert_eq!(python::quote(s, "/"), "a%20b/c%3Ad%40%C3%A9~_.-");
    assert_eq!(python::quote_plus(s), "a+b%2Fc%3Ad%40%C3%A9~_.-");
    for (text, want) in [
        (" 1 ", Some(1)),
        ("+5", Some(5)),
        ("-0", Some(0)),
        ("1_000", Some(1000)),
        ("1__0", None),
        ("_1", None),
        ("1_", None),
        ("", None),
        (" ", None),
        ("0x10", None),
        ("12a", None),
        ("\u{2002}1\u{2002}", Some(1)),
        ("\u{1c}7\u{1f}", None),
        ("\u{663}", Some(3)),
        (" \u{661}_\u{662} ", Some(12)),
        ("\u{ff11}0", Some(10)),
        ("\u{1d7ce}", Some(0)),
        ("\u{b2}", None),
    ] {
        assert_eq!(python::int_of_str(text), want, "{text:?}");
    }
    assert!(python::eq(
        &json!([1, {"a": 1.0}]),
        &json!([true, {"a": 1}])
    ));
    assert!(!python::eq(&json!("1"), &json!(1)));
    assert!(!python::eq(
        &json!(9_007_199_254_740_993_i64),
        &json!(9_007_199_254_740_992.0)
    ));
}

/// HOT 2021-04-16's nullable `if`: the item disappears from maps and
/// lists, and a whole snippet that is elided is `None` (heat/tests
/// test_hot.py test_if_nullable).
#[test]
fn a_two_argument_if_elides_its_item() {
    let scope = TestScope::hot("2021-04-16");
    let snippet = json!({"if": ["no", "x"]});
    assert_eq!(evaluate_item(&snippet, &scope), Ok(None));
    assert_eq!(evaluate(&snippet, &scope), Ok(Value::Null));
    assert_eq!(
        evaluate(
            &json!({"a": {"if": ["no", 1]}, "b": [{"if": ["no", 1]}, {"if": ["yes", 2]}]}),
            &scope
        ),
        Ok(json!({"b": [2]}))
    );
    // Before 2021-04-16 the third argument is required.
    let old = TestScope::hot("2018-08-31");
    assert!(evaluate(&snippet, &old).is_err());
}

/// `if` parses only the branch it takes: an error in the other one does
/// not count (heat/engine/hot/functions.py `If.parse_args`).
#[test]
fn if_parses_only_its_branch() {
    let scope = TestScope::hot("2016-10-14");
    let snippet = json!({"if": ["yes", {"get_param": "s"}, {"get_param": "missing"}]});
    assert_eq!(evaluate(&snippet, &scope), Ok(json!("abc")));
    let snippet = json!({"if": ["no", {"str_split": "bad"}, 1]});
    assert_eq!(evaluate(&snippet, &scope), Ok(json!(1)));
}

#[test]
fn references_follow_the_resource_type() {
    let scope = TestScope::hot("2016-10-14");
    assert_eq!(
        evaluate(&json!({"get_resource": "server"}), &scope),
        Ok(json!("server"))
    );
    assert_eq!(
        evaluate(&json!({"get_resource": "port"}), &scope),
        Ok(Value::Null)
    );
    assert_eq!(
        evaluate(&json!({"get_attr": ["server", "first_address"]}), &scope),
        Ok(Value::Null)
    );
    let missing = evaluate(&json!({"get_resource": "nope"}), &scope);
    assert_eq!(
        missing.map_err(|u| u.reason),
        Err("The specified reference \"nope\" (in unknown) is incorrect.".to_owned())
    );
}

#[test]
fn conditions_by_reference_and_by_definition() {
    let scope = TestScope::hot("2016-10-14");
    assert_eq!(evaluate_condition(&json!("yes"), &scope), Ok(true));
    assert_eq!(evaluate_condition(&json!(null), &scope), Ok(true));
    assert_eq!(
        evaluate_condition(&json!({"not": "yes"}), &scope),
        Ok(false)
    );
    assert_eq!(
        evaluate_condition(&json!({"equals": [{"get_param": "s"}, "abc"]}), &scope),
        Ok(true)
    );
    // A name is no definition.
    let err = evaluate_condition_definition("c", &json!("yes"), &scope);
    assert_eq!(
        err.map_err(|u| u.reason),
        Err("The definition of condition \"c\" is invalid: yes".to_owned())
    );
    // Template functions are invalid there.
    let err = evaluate_condition(&json!({"get_resource": "server"}), &scope);
    assert_eq!(
        err.map_err(|u| u.reason),
        Err("The function \"get_resource\" is invalid in this context".to_owned())
    );
}

#[test]
fn offline_functions_are_unevaluated() {
    let scope = TestScope::hot("2017-09-01");
    for snippet in [
        // random() has no value Heat would repeat.
        json!({"yaql": {"expression": "random()"}}),
        json!({"resource_facade": "metadata"}),
        json!({"digest": ["sha3_256", "x"]}),
    ] {
        assert!(evaluate(&snippet, &scope).is_err(), "{snippet}");
    }
    let cfn = TestScope {
        dialect: Dialect::Cfn,
        ..TestScope::hot("2017-09-01")
    };
    assert!(evaluate(&json!({"Fn::GetAZs": ""}), &cfn).is_err());
    // No Mappings from the scope: unevaluated.
    assert!(evaluate(&json!({"Fn::FindInMap": ["m", "k", "v"]}), &cfn).is_err());
}

#[test]
fn the_work_is_bounded() {
    let scope = TestScope::hot("2017-09-01");
    let list: Vec<String> = (0..40).map(|i| i.to_string()).collect();
    let mut for_each = serde_json::Map::new();
    for k in 0..8 {
        for_each.insert(format!("%{k}%"), json!(list));
    }
    let snippet = json!({"repeat": {"for_each": for_each, "template": "x"}});
    let err = evaluate(&snippet, &scope).expect_err("too large");
    assert_eq!(err.function, "repeat");
    let big = "a".repeat(20_000);
    let snippet = json!({"str_replace": {"template": big, "params": {"a": big}}});
    assert!(evaluate(&snippet, &scope).is_err());
}

#[test]
fn tables_per_version() {
    use super::tables::{lookup, Class, Table};
    let hot = |d| Dialect::Hot(d);
    assert_eq!(
        lookup(hot("2013-05-23"), Table::Functions, "Ref"),
        Some(Class::Ref)
    );
    assert_eq!(
        lookup(hot("2014-10-16"), Table::Functions, "Ref"),
        Some(Class::Removed)
    );
    assert_eq!(
        lookup(hot("2015-04-30"), Table::Functions, "Fn::Select"),
        Some(Class::Select)
    );
    assert_eq!(
        lookup(hot("2015-10-15"), Table::Functions, "Fn::Select"),
        Some(Class::Removed)
    );
    assert_eq!(
        lookup(hot("2015-10-15"), Table::Functions, "Fn::GetAtt"),
        None
    );
    assert_eq!(
        lookup(hot("2015-04-30"), Table::Functions, "str_split"),
        None
    );
    assert_eq!(
        lookup(hot("2016-10-14"), Table::Conditions, "yaql"),
        Some(Class::Invalid)
    );
    assert_eq!(
        lookup(hot("2017-09-01"), Table::Conditions, "yaql"),
        Some(Class::Yaql)
    );
    assert_eq!(
        lookup(hot("2016-10-14"), Table::Conditions, "Ref"),
        Some(Class::Removed)
    );
    assert_eq!(
        lookup(hot("2016-04-08"), Table::Conditions, "Ref"),
        Some(Class::Invalid)
    );
    assert_eq!(
        lookup(hot("2016-10-14"), Table::Conditions, "equals"),
        Some(Class::Equals)
    );
    assert_eq!(
        lookup(Dialect::Cfn, Table::Conditions, "Ref"),
        Some(Class::ParamRef)
    );
    assert_eq!(lookup(Dialect::HeatCfn, Table::Functions, "Fn::If"), None);
    assert_eq!(
        lookup(Dialect::HeatCfn, Table::Conditions, "Fn::Equals"),
        None
    );
    assert_eq!(
        Dialect::of("heat_template_version", "pike"),
        Some(hot("2017-09-01"))
    );
    assert_eq!(
        Dialect::of("AWSTemplateFormatVersion", "2010-09-09"),
        Some(Dialect::Cfn)
    );
    assert_eq!(Dialect::of("heat_template_version", "2099-01-01"), None);
}
