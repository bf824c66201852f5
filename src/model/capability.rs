//! Capability values and requirements (capabilities.md §1–2).
//!
//! A value is a scalar, a list of scalars ("provides each of these"), or
//! anything else, which is kept and reported but never matches. Scalars
//! compare by canonical text: `2` and `"2"`, `true` and `"true"` are equal.

use serde::ser::{Serialize, Serializer};

use crate::node::scalar::resolve_plain;
use crate::node::{Node, Value};

/// A scalar with its canonical text and the value as written.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Scalar {
    /// The canonical text it compares by (`2`, `true`).
    pub text: String,
    /// The value as written.
    pub value: serde_json::Value,
}

impl Scalar {
    fn from_value(v: &Value) -> Option<Scalar> {
        v.scalar_text().map(|text| Scalar {
            text,
            value: v.to_json(),
        })
    }
}

/// A capability value.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum CapValue {
    /// One scalar.
    Scalar(Scalar),
    /// A list of scalars: provides each of them.
    List(Vec<Scalar>),
    /// A mapping, null, or a list with non-scalar items: kept, never matches.
    Other(serde_json::Value),
}

impl CapValue {
    /// The capability value of a YAML node.
    pub fn from_node(node: &Node) -> CapValue {
        if let Some(s) = Scalar::from_value(&node.value) {
            return CapValue::Scalar(s);
        }
        if let Value::Seq(items) = &node.value {
            let scalars: Option<Vec<Scalar>> =
                items.iter().map(|i| Scalar::from_value(&i.value)).collect();
            if let Some(list) = scalars {
                return CapValue::List(list);
            }
        }
        CapValue::Other(node.value.to_json())
    }

    /// The scalars this value provides (none for `Other`).
    pub fn scalars(&self) -> &[Scalar] {
        match self {
            CapValue::Scalar(s) => std::slice::from_ref(s),
            CapValue::List(l) => l,
            CapValue::Other(_) => &[],
        }
    }

    /// True when the value provides one of the requirement's alternatives.
    pub fn meets(&self, req: &Requirement) -> bool {
        self.scalars().iter().any(|s| req.any_of.contains(&s.text))
    }

    /// The value as written, as JSON.
    pub fn to_json(&self) -> serde_json::Value {
        match self {
            CapValue::Scalar(s) => s.value.clone(),
            CapValue::List(l) => {
                serde_json::Value::Array(l.iter().map(|s| s.value.clone()).collect())
            }
            CapValue::Other(v) => v.clone(),
        }
    }
}

impl Serialize for CapValue {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.to_json().serialize(s)
    }
}

/// Any value: `Serialize` writes the value as written in the file.
impl schemars::JsonSchema for CapValue {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "CapValue".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "A capability value as written: a scalar (`2` stays a number, `true` a boolean; an integer beyond 64 bits is a string of digits), a list of scalars (provides each), or any other value (kept, never matches)."
        })
    }
}

/// What an environment's `requires` entry, or a `-c KEY=VALUE` query, asks
/// for: any one of these canonical texts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Requirement {
    pub any_of: Vec<String>,
}

impl Requirement {
    /// A requirement from a YAML node: a scalar, or a list of scalars
    /// ("any of these"). `None` for anything else.
    pub fn from_node(node: &Node) -> Option<Requirement> {
        match CapValue::from_node(node) {
            CapValue::Other(_) => None,
            v => Some(Requirement {
                any_of: v.scalars().iter().map(|s| s.text.clone()).collect(),
            }),
        }
    }

    /// A requirement typed on the command line: the text as typed, and also
    /// what YAML would read it as (`yes` → `true`, `0755` → `493`), so
    /// `-c tls=yes` matches `tls: yes` in a template.
    pub fn from_cli(text: &str) -> Requirement {
        let mut any_of = vec![text.to_owned()];
        if let Some(canonical) = resolve_plain(text.into()).scalar_text() {
            if canonical != text {
                any_of.push(canonical);
            }
        }
        Requirement { any_of }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Span;
    use crate::node::Mapping;

    fn node(v: Value) -> Node {
        Node::new(v, Span::point(1, 1))
    }

    #[test]
    fn scalars_compare_by_canonical_text() {
        let two = CapValue::from_node(&node(Value::Int(2)));
        assert!(two.meets(&Requirement::from_cli("2")));
        let t = CapValue::from_node(&node(Value::Bool(true)));
        assert!(t.meets(&Requirement::from_cli("true")));
        assert!(t.meets(&Requirement::from_cli("yes")));
        let s = CapValue::from_node(&node(Value::Str("true".into())));
        assert!(s.meets(&Requirement::from_cli("true")));
    }

    #[test]
    fn lists_provide_each_item_and_maps_never_match() {
        let list = CapValue::from_node(&node(Value::Seq(vec![
            node(Value::Str("nova".into())),
            node(Value::Str("neutron".into())),
        ])));
        assert!(list.meets(&Requirement::from_cli("neutron")));
        assert!(!list.meets(&Requirement::from_cli("cinder")));
        let map = CapValue::from_node(&node(Value::Map(Mapping::default())));
        assert!(matches!(map, CapValue::Other(_)));
        assert!(!map.meets(&Requirement::from_cli("{}")));
        let null = CapValue::from_node(&node(Value::Null));
        assert!(!null.meets(&Requirement::from_cli("")));
    }

    #[test]
    fn requirement_lists_mean_any_of() {
        let req = Requirement::from_node(&node(Value::Seq(vec![
            node(Value::Str("puppet".into())),
            node(Value::Int(2)),
        ])))
        .unwrap();
        assert_eq!(req.any_of, ["puppet", "2"]);
        assert!(Requirement::from_node(&node(Value::Map(Mapping::default()))).is_none());
    }
}
