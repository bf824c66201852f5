//! Heat's value rules for parameters and provider-template properties
//! (heat/engine/parameters.py, heat/engine/properties.py,
//! heat/engine/resources/template_resource.py `child_params`), so that the
//! values a nested stack receives, and the `Value` Heat shows for them, are
//! Heat's.

use serde_json::Value as J;

use crate::encode::json;
use crate::eval::{Outcome, Unevaluated};

/// A parameter's type, HOT or CFN spelling.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ParamType {
    String,
    Number,
    List,
    Json,
    Boolean,
}

impl ParamType {
    /// The type a parameter declares; Heat's property schema maps an
    /// unknown type to a map.
    pub(crate) fn of(declared: Option<&str>) -> ParamType {
        match declared.unwrap_or("") {
            "string" | "String" => ParamType::String,
            "number" | "Number" => ParamType::Number,
            "comma_delimited_list" | "CommaDelimitedList" => ParamType::List,
            "boolean" | "Boolean" => ParamType::Boolean,
            _ => ParamType::Json,
        }
    }
}

/// Python's `str()` of a JSON value (the text Heat makes of a non-string).
pub(crate) fn py_str(v: &J) -> String {
    match v {
        J::Null => "None".to_owned(),
        J::Bool(true) => "True".to_owned(),
        J::Bool(false) => "False".to_owned(),
        J::Number(n) => match (n.as_i64(), n.as_u64(), n.as_f64()) {
            (Some(i), _, _) => i.to_string(),
            (_, Some(u), _) => u.to_string(),
            (_, _, Some(f)) => crate::node::float_text(f),
            _ => n.to_string(),
        },
        J::String(s) => s.clone(),
        J::Array(items) => format!(
            "[{}]",
            items.iter().map(py_repr).collect::<Vec<_>>().join(", ")
        ),
        J::Object(m) => format!(
            "{{{}}}",
            m.iter()
                .map(|(k, v)| format!("{}: {}", py_repr(&J::String(k.clone())), py_repr(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// Python's `repr()` of a JSON value.
fn py_repr(v: &J) -> String {
    match v {
        J::String(s) => {
            if s.contains('\'') && !s.contains('"') {
                format!("\"{s}\"")
            } else {
                format!("'{}'", s.replace('\\', "\\\\").replace('\'', "\\'"))
            }
        }
        other => py_str(other),
    }
}

/// `Schema.str_to_num`: a number stays; text becomes an int, else a float.
fn str_to_num(v: &J) -> Option<J> {
    match v {
        // Python's bool is a number too.
        J::Number(_) | J::Bool(_) => Some(v.clone()),
        J::String(s) => {
            let t = s.trim();
            let digits = t.strip_prefix(['-', '+']).unwrap_or(t);
            if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit() || b == b'_') {
                if let Ok(i) = t.replace('_', "").parse::<i64>() {
                    return Some(J::from(i));
                }
            }
            t.parse::<f64>()
                .ok()
                .and_then(serde_json::Number::from_f64)
                .map(J::Number)
        }
        _ => None,
    }
}

/// oslo's `bool_from_string(str(v), strict=True)`.
fn strict_bool(v: &J) -> Option<bool> {
    let text = py_str(v).trim().to_ascii_lowercase();
    match text.as_str() {
        "1" | "t" | "true" | "on" | "y" | "yes" => Some(true),
        "0" | "f" | "false" | "off" | "n" | "no" => Some(false),
        _ => None,
    }
}

/// `Parameter.value()`: the value `get_param` gives, from the user's value
/// (environment `parameters` at the root, the parent's properties below)
/// or else the default (`parameter_defaults` winning over the template's).
/// `None` when there is neither (Heat: "The Parameter (x) was not
/// provided.").
pub(crate) fn parameter_value(
    ty: ParamType,
    user: Option<&J>,
    default: Option<&J>,
) -> Option<Outcome> {
    let raw = user.or(default)?;
    let bad = |what: &str| {
        Err(Unevaluated::new(
            "get_param",
            format!(
                "Value \"{}\" is invalid for data type \"{what}\".",
                py_str(raw)
            ),
        ))
    };
    Some(match ty {
        ParamType::String => Ok(J::String(py_str(raw))),
        ParamType::Number => str_to_num(raw).map_or_else(|| bad("Number"), Ok),
        ParamType::Boolean => strict_bool(raw).map_or_else(|| bad("Boolean"), |b| Ok(J::Bool(b))),
        ParamType::List => Ok(match raw {
            J::Array(items) => J::Array(items.iter().map(|x| J::String(py_str(x))).collect()),
            J::String(s) if s.is_empty() => J::Array(Vec::new()),
            J::String(s) => J::Array(s.split(',').map(|p| J::String(p.to_owned())).collect()),
            other => return Some(bad_list(other)),
        }),
        ParamType::Json => Ok(match raw {
            J::String(s) if s.is_empty() => raw.clone(),
            J::String(s) => match serde_json::from_str::<J>(s) {
                Ok(v) => v,
                Err(e) => {
                    return Some(Err(Unevaluated::new(
                        "get_param",
                        format!("Value must be valid JSON: {e}"),
                    )))
                }
            },
            other => other.clone(),
        }),
    })
}

fn bad_list(v: &J) -> Outcome {
    Err(Unevaluated::new(
        "get_param",
        format!("Value must be a comma-delimited list string: {}", py_str(v)),
    ))
}

/// `Property.get_value` for a provider template's property (its schema
/// made from the nested parameter: no default, conversions allowed for
/// lists and maps). `None` when Heat would raise; the caller then uses
/// Heat's fallback ([`property_default`]).
fn property_value(ty: ParamType, v: &J) -> Option<J> {
    match ty {
        ParamType::String => match v {
            J::Null => Some(J::String(String::new())),
            J::String(_) => Some(v.clone()),
            J::Bool(_) => Some(J::String(py_str(v))),
            J::Number(n) if n.is_i64() || n.is_u64() => Some(J::String(py_str(v))),
            _ => None,
        },
        ParamType::Number => match v {
            J::Null => Some(J::from(0)),
            other => str_to_num(other),
        },
        ParamType::Boolean => match v {
            J::Null => Some(J::Bool(false)),
            J::Bool(_) => Some(v.clone()),
            J::String(s) => match s.to_ascii_lowercase().as_str() {
                "true" => Some(J::Bool(true)),
                "false" => Some(J::Bool(false)),
                _ => None,
            },
            _ => None,
        },
        ParamType::List => match v {
            J::Null => Some(J::Array(Vec::new())),
            J::String(s) if s.is_empty() => Some(J::Array(Vec::new())),
            J::String(s) => Some(J::Array(
                s.split(',').map(|p| J::String(p.to_owned())).collect(),
            )),
            J::Array(_) => Some(v.clone()),
            _ => None,
        },
        ParamType::Json => match v {
            J::Null => Some(J::Object(serde_json::Map::new())),
            J::Object(_) | J::String(_) => Some(v.clone()),
            J::Array(_) => Some(J::String(json::to_string(v))),
            _ => None,
        },
    }
}

/// What `Property.get_value(None)` gives: Heat's value for a property whose
/// own value failed while the stack is being built (INIT).
fn property_default(ty: ParamType) -> J {
    property_value(ty, &J::Null).unwrap_or(J::Null)
}

/// The value a provider template's parameter receives from the property
/// its parent passes (`TemplateResource.child_params`): `None` when
/// nothing is passed. Lists become comma-joined text (a list of maps
/// Heat's legacy `.member.N.key=value` form); everything else passes as
/// the property's value.
pub(crate) fn child_param(ty: ParamType, property: &Outcome) -> Option<Outcome> {
    let value = match property {
        Ok(v) => property_value(ty, v).unwrap_or_else(|| property_default(ty)),
        // Heat would compute it; heatcap cannot.
        Err(e) => return Some(Err(e.clone())),
    };
    if value.is_null() {
        return None;
    }
    Some(Ok(match (ty, value) {
        (ParamType::List, J::Array(items)) => match items.first() {
            None => J::String(String::new()),
            Some(J::Object(_)) => {
                let mut flat = Vec::new();
                for (count, item) in items.iter().enumerate() {
                    if let J::Object(m) = item {
                        for (k, v) in m {
                            flat.push(format!(".member.{count}.{k}={}", py_str(v)));
                        }
                    }
                }
                J::String(flat.join(","))
            }
            Some(_) => J::String(
                items
                    .iter()
                    .map(|x| match x {
                        J::Null => String::new(),
                        other => py_str(other),
                    })
                    .collect::<Vec<_>>()
                    .join(","),
            ),
        },
        (_, v) => v,
    }))
}

/// Python's truthiness, which decides whether Heat shows `Value`.
pub(crate) fn truthy(v: &J) -> bool {
    match v {
        J::Null => false,
        J::Bool(b) => *b,
        J::Number(n) => n.as_f64().is_some_and(|f| f != 0.0),
        J::String(s) => !s.is_empty(),
        J::Array(a) => !a.is_empty(),
        J::Object(o) => !o.is_empty(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn parameter_values_follow_heats_types() {
        let v = |ty, user: J| parameter_value(ty, Some(&user), None).unwrap().unwrap();
        assert_eq!(v(ParamType::String, json!(1)), json!("1"));
        assert_eq!(v(ParamType::String, json!(true)), json!("True"));
        assert_eq!(v(ParamType::Number, json!("42")), json!(42));
        assert_eq!(v(ParamType::Number, json!("1.5")), json!(1.5));
        assert_eq!(v(ParamType::List, json!("a,b")), json!(["a", "b"]));
        assert_eq!(v(ParamType::List, json!("")), json!([]));
        assert_eq!(v(ParamType::List, json!([1, "x"])), json!(["1", "x"]));
        assert_eq!(v(ParamType::Json, json!("{\"a\": 1}")), json!({"a": 1}));
        assert_eq!(v(ParamType::Boolean, json!("yes")), json!(true));
        assert!(parameter_value(ParamType::String, None, None).is_none());
        assert_eq!(
            parameter_value(ParamType::String, None, Some(&json!("d")))
                .unwrap()
                .unwrap(),
            json!("d")
        );
    }

    #[test]
    fn child_params_join_lists_and_fall_back_on_errors() {
        let c = |ty, v: J| child_param(ty, &Ok(v)).unwrap().unwrap();
        assert_eq!(c(ParamType::List, json!(["a", null, "b"])), json!("a,,b"));
        assert_eq!(c(ParamType::List, json!([])), json!(""));
        assert_eq!(
            c(ParamType::List, json!([{"k": "v"}, {"k": 2}])),
            json!(".member.0.k=v,.member.1.k=2")
        );
        // A get_attr (null) given to a string: '' (Heat's default for None).
        assert_eq!(c(ParamType::String, J::Null), json!(""));
        // A list given to a string raises; Heat falls back to ''.
        assert_eq!(c(ParamType::String, json!(["x"])), json!(""));
        assert_eq!(c(ParamType::String, json!(3)), json!("3"));
        assert_eq!(c(ParamType::Json, json!([1, 2])), json!("[1, 2]"));
        assert_eq!(c(ParamType::Number, json!("x")), json!(0));
    }
}
