//! Heat's property value rules on literal values, as
//! heat/engine/properties.py (`Property.get_value`) and
//! heat/engine/constraints.py apply them: the conversion of a value to the
//! property's type (a string `"12"` is an integer, `"True"` a boolean) and
//! the constraints on the converted value, each failure with Heat's own
//! message.

use serde_json::Value as J;

use super::custom;
use crate::eval::python;
use crate::heat_schema::{Bounds, ConstraintKind, Number, PropertySchema, PropertyType};

/// A scalar property's value converted as Heat converts it
/// (`_get_string`, `_get_integer`, `_get_number`, `_get_bool`), or Heat's
/// message when the conversion fails.
pub(super) fn scalar(kind: PropertyType, v: &J) -> Result<J, String> {
    match kind {
        PropertyType::String => string(v),
        PropertyType::Integer => integer(v),
        PropertyType::Number => number(v),
        PropertyType::Boolean => boolean(v),
        PropertyType::Map | PropertyType::List | PropertyType::Any => Ok(v.clone()),
    }
}

/// `_get_string`: strings, and ints and bools as `str()` writes them.
fn string(v: &J) -> Result<J, String> {
    match v {
        J::String(_) => Ok(v.clone()),
        J::Bool(_) => Ok(J::String(python::str(v))),
        J::Number(n) if n.is_i64() || n.is_u64() => Ok(J::String(python::str(v))),
        _ => Err(format!("Value must be a string; got {}", python::repr(v))),
    }
}

/// `_get_integer`: Python's `int()`, its `ValueError` reworded.
fn integer(v: &J) -> Result<J, String> {
    match v {
        J::String(s) => python::int_of_str(s)
            .map(int_json)
            .ok_or_else(|| format!("Value '{s}' is not an integer")),
        J::Number(n) if n.as_f64().is_some_and(f64::is_nan) => {
            Err(format!("Value '{}' is not an integer", python::str(v)))
        }
        _ => python::int_of(v).map(int_json),
    }
}

fn int_json(i: i128) -> J {
    i64::try_from(i).map_or_else(
        // Beyond i64: kept as a float, for comparisons only.
        #[allow(clippy::cast_precision_loss)]
        |_| serde_json::Number::from_f64(i as f64).map_or(J::Null, J::Number),
        J::from,
    )
}

/// `Schema.str_to_num`: numbers (bools included) as they are; a string
/// through `int()`, else `float()`.
fn number(v: &J) -> Result<J, String> {
    match v {
        J::Number(_) | J::Bool(_) => Ok(v.clone()),
        J::String(s) => {
            if let Some(i) = python::int_of_str(s) {
                return Ok(int_json(i));
            }
            match float_of_str(s) {
                Some(f) => Ok(serde_json::Number::from_f64(f).map_or(J::Null, J::Number)),
                None => Err(format!(
                    "could not convert string to float: {}",
                    python::str_repr(s)
                )),
            }
        }
        // `int()` of a list raises TypeError, which `str_to_num` lets out.
        _ => python::int_of(v).map(int_json),
    }
}

/// Python's `float()` of a string: surrounding whitespace, a sign,
/// digits with single underscores between them, a point, an exponent,
/// `inf`, `infinity`, `nan`.
fn float_of_str(s: &str) -> Option<f64> {
    let t = s.trim_matches(char::is_whitespace);
    if t.contains('_') {
        let b = t.as_bytes();
        let ok = b.iter().enumerate().all(|(i, &c)| {
            c != b'_'
                || (i > 0
                    && i + 1 < b.len()
                    && b[i - 1].is_ascii_digit()
                    && b[i + 1].is_ascii_digit())
        });
        if !ok {
            return None;
        }
    }
    let clean: String = t.chars().filter(|c| *c != '_').collect();
    let lower = clean.to_ascii_lowercase();
    let body = lower.trim_start_matches(['+', '-']);
    let words = ["inf", "infinity", "nan"];
    if body.chars().any(|c| c.is_ascii_alphabetic() && c != 'e') && !words.contains(&body) {
        return None;
    }
    clean.parse::<f64>().ok()
}

/// `_get_bool`: a bool, or a string that is `true` or `false` in any case.
fn boolean(v: &J) -> Result<J, String> {
    match v {
        J::Bool(_) => Ok(v.clone()),
        J::String(s) => {
            let lower = s.to_lowercase();
            match lower.as_str() {
                "true" => Ok(J::Bool(true)),
                "false" => Ok(J::Bool(false)),
                _ => Err(format!("\"{lower}\" is not a valid boolean")),
            }
        }
        other => Err(format!("\"{}\" is not a valid boolean", python::str(other))),
    }
}

/// `_get_map`'s message for a value that is not a mapping.
pub(super) fn not_a_map(v: &J) -> String {
    format!("\"{}\" is not a map", python::str(v))
}

/// `_get_list`'s message for a value that is not a list (a string
/// included).
pub(super) fn not_a_list(v: &J) -> String {
    format!("\"{}\" is not a list", python::repr(v))
}

/// What `Property.get_value` takes for a missing or null value: the
/// default when it is truthy (`has_default() and default() or ...`), else
/// the type's empty value.
pub(super) fn default_or_empty(s: &PropertySchema) -> J {
    if let Some(d) = s.default.as_ref().filter(|d| python::truthy(d)) {
        return d.clone();
    }
    match s.kind {
        PropertyType::String => J::String(String::new()),
        PropertyType::Integer | PropertyType::Number => J::from(0),
        PropertyType::Boolean => J::Bool(false),
        PropertyType::Map => J::Object(serde_json::Map::new()),
        PropertyType::List => J::Array(Vec::new()),
        PropertyType::Any => J::Null,
    }
}

/// The message of the first of the schema's constraints the converted
/// value breaks (Heat checks them in order and stops at the first), with
/// the short name of what it breaks. Of the custom constraints, those
/// Heat checks without a cloud (`ip_addr`, not `nova.flavor`) are checked
/// (`custom`).
pub(super) fn constraints(s: &PropertySchema, value: &J) -> Option<(&'static str, String)> {
    for c in &s.constraints {
        let failed = match c.kind() {
            ConstraintKind::Range(b) => num(value)
                .filter(|x| !within(*x, b))
                .map(|_| ("is out of its range", range_message(&python::str(value), b))),
            ConstraintKind::Length(b) => length(value).filter(|n| !within(*n, b)).map(|n| {
                (
                    "has a length out of its range",
                    format!(
                        "length ({n}) is out of range (min: {}, max: {})",
                        bound(b.min),
                        bound(b.max)
                    ),
                )
            }),
            ConstraintKind::Modulo(m) => num(value)
                .filter(|x| !modulo_ok(*x, m.step.as_f64(), m.offset.as_f64()))
                .map(|_| {
                    (
                        "is not at its step",
                        format!(
                            "{} is not a multiple of {} with an offset of {}",
                            python::str(value),
                            m.step,
                            m.offset
                        ),
                    )
                }),
            ConstraintKind::AllowedValues(allowed) => {
                allowed_value(s.kind, allowed, value).map(|ok| {
                    (!ok).then(|| {
                        let list: Vec<String> = allowed
                            .iter()
                            .map(|a| python::json_dumps(a, false))
                            .collect();
                        (
                            "is not an allowed value",
                            format!(
                                "{} is not an allowed value [{}]",
                                python::json_dumps(value, false),
                                list.join(", ")
                            ),
                        )
                    })
                })?
            }
            ConstraintKind::AllowedPattern(p) => match (value, pattern(p)) {
                (J::String(text), Some(re))
                    if re.find(text).is_none_or(|m| m.end() != text.len()) =>
                {
                    Some((
                        "does not match its pattern",
                        format!("\"{text}\" does not match pattern \"{p}\""),
                    ))
                }
                _ => None,
            },
            ConstraintKind::Custom(name) => match value {
                J::String(text) => match custom::check(name, text) {
                    custom::Verdict::Refuses(m) => Some((custom::what(name), m)),
                    custom::Verdict::Accepts | custom::Verdict::Unchecked => None,
                },
                _ => None,
            },
        };
        if let Some((what, message)) = failed {
            // A constraint with a description says it instead.
            return Some((what, c.description.clone().unwrap_or(message)));
        }
    }
    None
}

fn range_message(value: &str, b: Bounds) -> String {
    format!(
        "{value} is out of range (min: {}, max: {})",
        bound(b.min),
        bound(b.max)
    )
}

/// A bound as Python's `%s` writes it (`None` when absent).
fn bound(n: Option<Number>) -> String {
    n.map_or_else(
        || "None".to_owned(),
        |n| match n {
            Number::Int(i) => i.to_string(),
            Number::Float(f) => python::float_repr(f),
        },
    )
}

fn within(x: f64, b: Bounds) -> bool {
    b.min.is_none_or(|m| x >= m.as_f64()) && b.max.is_none_or(|m| x <= m.as_f64())
}

/// Python's `x % step == offset` (the result takes the sign of `step`).
fn modulo_ok(x: f64, step: f64, offset: f64) -> bool {
    let r = x % step;
    let r = if r != 0.0 && (r < 0.0) != (step < 0.0) {
        r + step
    } else {
        r
    };
    #[allow(clippy::float_cmp)] // Heat compares exactly
    let ok = r == offset;
    ok
}

/// The number a converted value stands for (`str_to_num`; bools are ints).
fn num(v: &J) -> Option<f64> {
    match v {
        J::Number(n) => n.as_f64(),
        J::Bool(b) => Some(if *b { 1.0 } else { 0.0 }),
        _ => None,
    }
}

/// `len()` of a string (in characters), a list or a map.
#[allow(clippy::cast_precision_loss)] // lengths are far below 2^52
fn length(v: &J) -> Option<f64> {
    match v {
        J::String(s) => Some(s.chars().count() as f64),
        J::Array(a) => Some(a.len() as f64),
        J::Object(m) => Some(m.len() as f64),
        _ => None,
    }
}

/// `AllowedValues._is_valid`: every item of a list among the allowed
/// values; any other value compared after both sides are converted to the
/// property's type (`to_schema_type`). `None` when a side cannot be
/// converted (Heat then fails with another message; not reported).
fn allowed_value(kind: PropertyType, allowed: &[J], value: &J) -> Option<bool> {
    if let J::Array(items) = value {
        return Some(items.iter().all(|i| python::contains(allowed, i)));
    }
    let convert = |v: &J| -> Option<J> {
        match kind {
            PropertyType::String => Some(J::String(python::str(v))),
            PropertyType::Integer => match number(v).ok()? {
                J::Number(n) if n.is_f64() => None,
                n => Some(n),
            },
            PropertyType::Number => number(v).ok(),
            PropertyType::Boolean => strict_bool(&python::str(v)).map(J::Bool),
            PropertyType::Map | PropertyType::List | PropertyType::Any => Some(v.clone()),
        }
    };
    let value = convert(value)?;
    let mut converted = Vec::with_capacity(allowed.len());
    for a in allowed {
        converted.push(convert(a)?);
    }
    Some(python::contains(&converted, &value))
}

/// oslo's `bool_from_string(text, strict=True)`.
fn strict_bool(text: &str) -> Option<bool> {
    let t = text.trim().to_lowercase();
    match t.as_str() {
        "1" | "t" | "true" | "on" | "y" | "yes" => Some(true),
        "0" | "f" | "false" | "off" | "n" | "no" => Some(false),
        _ => None,
    }
}

/// Python's `re.compile(p).match` as a regex anchored at the start; `None`
/// when the pattern uses what the regex crate does not have (look-around,
/// back-references), so the value is not checked.
fn pattern(p: &str) -> Option<regex::Regex> {
    regex::Regex::new(&format!("^(?:{p})")).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn schema(kind: &str, constraints: &J) -> PropertySchema {
        serde_json::from_value(json!({"type": kind, "constraints": constraints})).unwrap()
    }

    #[test]
    fn conversions_are_pythons() {
        assert_eq!(scalar(PropertyType::Integer, &json!("12")), Ok(json!(12)));
        assert_eq!(
            scalar(PropertyType::Integer, &json!(" -1_0 ")),
            Ok(json!(-10))
        );
        assert_eq!(scalar(PropertyType::Integer, &json!(2.9)), Ok(json!(2)));
        assert_eq!(scalar(PropertyType::Integer, &json!(true)), Ok(json!(1)));
        assert_eq!(
            scalar(PropertyType::Integer, &json!("abc")),
            Err("Value 'abc' is not an integer".into())
        );
        assert_eq!(
            scalar(PropertyType::Integer, &json!(["1", "2"])),
            Err(
                "int() argument must be a string, a bytes-like object or a real number, not 'list'"
                    .into()
            )
        );
        assert_eq!(
            scalar(PropertyType::Number, &json!("1e3")),
            Ok(json!(1000.0))
        );
        assert_eq!(scalar(PropertyType::Number, &json!("7")), Ok(json!(7)));
        assert_eq!(
            scalar(PropertyType::Number, &json!("1x")),
            Err("could not convert string to float: '1x'".into())
        );
        assert_eq!(
            scalar(PropertyType::Boolean, &json!("TRUE")),
            Ok(json!(true))
        );
        assert_eq!(
            scalar(PropertyType::Boolean, &json!("Maybe")),
            Err("\"maybe\" is not a valid boolean".into())
        );
        assert_eq!(
            scalar(PropertyType::Boolean, &json!(1)),
            Err("\"1\" is not a valid boolean".into())
        );
        assert_eq!(
            scalar(PropertyType::String, &json!(true)),
            Ok(json!("True"))
        );
        assert_eq!(scalar(PropertyType::String, &json!(5)), Ok(json!("5")));
        assert_eq!(
            scalar(PropertyType::String, &json!(1.5)),
            Err("Value must be a string; got 1.5".into())
        );
        assert_eq!(
            scalar(PropertyType::String, &json!({"a": 1})),
            Err("Value must be a string; got {'a': 1}".into())
        );
        assert_eq!(not_a_map(&json!(["a", "b"])), "\"['a', 'b']\" is not a map");
        assert_eq!(not_a_list(&json!("abc")), "\"'abc'\" is not a list");
    }

    #[test]
    fn python_floats() {
        assert_eq!(float_of_str(" 1_000.5 "), Some(1000.5));
        assert_eq!(float_of_str("Infinity"), Some(f64::INFINITY));
        assert_eq!(float_of_str("1__0"), None);
        assert_eq!(float_of_str("0x10"), None);
        assert_eq!(float_of_str(".5"), Some(0.5));
    }

    #[test]
    fn constraints_give_heats_messages() {
        let range = schema("integer", &json!([{"range": {"min": 1, "max": 512}}]));
        assert_eq!(
            constraints(&range, &json!(600)).unwrap().1,
            "600 is out of range (min: 1, max: 512)"
        );
        assert!(constraints(&range, &json!(512)).is_none());
        let min = schema("integer", &json!([{"range": {"min": 0}}]));
        assert_eq!(
            constraints(&min, &json!(-1)).unwrap().1,
            "-1 is out of range (min: 0, max: None)"
        );
        let length = schema("string", &json!([{"length": {"min": 1, "max": 3}}]));
        assert_eq!(
            constraints(&length, &json!("abcd")).unwrap().1,
            "length (4) is out of range (min: 1, max: 3)"
        );
        let list_length = schema("list", &json!([{"length": {"min": 1}}]));
        assert_eq!(
            constraints(&list_length, &json!([])).unwrap().1,
            "length (0) is out of range (min: 1, max: None)"
        );
        let values = schema("string", &json!([{"allowed_values": ["a", "b"]}]));
        assert_eq!(
            constraints(&values, &json!("c")).unwrap().1,
            "\"c\" is not an allowed value [\"a\", \"b\"]"
        );
        let ints = schema("integer", &json!([{"allowed_values": [4, 6]}]));
        assert_eq!(
            constraints(&ints, &json!(5)).unwrap().1,
            "5 is not an allowed value [4, 6]"
        );
        assert!(constraints(&ints, &json!(6)).is_none());
        let in_list = schema("list", &json!([{"allowed_values": ["a", "b"]}]));
        assert!(constraints(&in_list, &json!(["a", "b", "a"])).is_none());
        assert!(constraints(&in_list, &json!(["a", "z"])).is_some());
        let pat = schema("string", &json!([{"allowed_pattern": "/dev/vd[b-z]"}]));
        assert_eq!(
            constraints(&pat, &json!("/dev/sda")).unwrap().1,
            "\"/dev/sda\" does not match pattern \"/dev/vd[b-z]\""
        );
        // re.match, then the whole value: a prefix match is not enough.
        assert!(constraints(&pat, &json!("/dev/vdbx")).is_some());
        assert!(constraints(&pat, &json!("/dev/vdc")).is_none());
        let modulo = schema("integer", &json!([{"modulo": {"step": 2, "offset": 1}}]));
        assert_eq!(
            constraints(&modulo, &json!(4)).unwrap().1,
            "4 is not a multiple of 2 with an offset of 1"
        );
        assert!(constraints(&modulo, &json!(-3)).is_none());
        let described = schema(
            "integer",
            &json!([{"range": {"min": 1}, "description": "At least one."}]),
        );
        assert_eq!(
            constraints(&described, &json!(0)).unwrap().1,
            "At least one."
        );
        let custom = schema("string", &json!([{"custom_constraint": "nova.flavor"}]));
        assert!(constraints(&custom, &json!("anything")).is_none());
        let ip = schema("string", &json!([{"custom_constraint": "ip_addr"}]));
        assert_eq!(
            constraints(&ip, &json!("10.0.0.256")),
            Some((
                "is not a valid IP address",
                "Error validating value '10.0.0.256': Invalid IP address".to_owned()
            ))
        );
        assert!(constraints(&ip, &json!("10.0.0.1")).is_none());
        let described = schema(
            "string",
            &json!([{"custom_constraint": "mac_addr", "description": "A MAC."}]),
        );
        assert_eq!(constraints(&described, &json!("zz")).unwrap().1, "A MAC.");
    }

    #[test]
    fn null_takes_the_default_or_the_empty_value() {
        let with_default: PropertySchema =
            serde_json::from_value(json!({"type": "integer", "default": 32})).unwrap();
        assert_eq!(default_or_empty(&with_default), json!(32));
        assert_eq!(default_or_empty(&schema("string", &json!([]))), json!(""));
        assert_eq!(default_or_empty(&schema("list", &json!([]))), json!([]));
    }
}
