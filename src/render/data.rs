//! The roles and networks data as the script holds it: PyYAML's values
//! (read by heatcap's loader, which constructs what PyYAML constructs),
//! changed as the script changes them before rendering (`name_lower`,
//! role tags, network `idx`), then handed to each render as fresh Python
//! objects ([`Py::to_value`]).

use indexmap::IndexMap;
use minijinja::value::Value;

use super::pyobj::{PyDict, PyList};
use crate::node::{Node, Value as NodeValue};

/// A Python value from YAML.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Py {
    None,
    Bool(bool),
    Int(i64),
    /// An integer beyond 64 bits, as its decimal text.
    BigInt(String),
    Float(f64),
    Str(String),
    List(Vec<Py>),
    /// Key and value pairs in insertion order (keys are distinct, as the
    /// loader makes them).
    Dict(Vec<(Py, Py)>),
}

impl Py {
    pub(crate) fn from_node(node: &Node) -> Py {
        match &node.value {
            NodeValue::Bool(b) => Py::Bool(*b),
            NodeValue::Int(i) => Py::Int(*i),
            NodeValue::BigInt(s) => Py::BigInt(s.to_string()),
            NodeValue::Float(f) => Py::Float(*f),
            NodeValue::Str(s) => Py::Str(s.to_string()),
            NodeValue::Seq(items) => Py::List(items.iter().map(Py::from_node).collect()),
            NodeValue::Map(m) => Py::Dict(
                m.entries
                    .iter()
                    .map(|(k, v)| (Py::from_node(k), Py::from_node(v)))
                    .collect(),
            ),
            _ => Py::None,
        }
    }

    /// `d.get(key)` of a dict with a string key.
    pub(crate) fn get(&self, key: &str) -> Option<&Py> {
        match self {
            Py::Dict(pairs) => pairs
                .iter()
                .find(|(k, _)| matches!(k, Py::Str(s) if s == key))
                .map(|(_, v)| v),
            _ => None,
        }
    }

    /// `d[key] = value`: a key already there keeps its place, a new one
    /// goes last (Python's dict).
    pub(crate) fn set(&mut self, key: &str, value: Py) {
        if let Py::Dict(pairs) = self {
            match pairs
                .iter_mut()
                .find(|(k, _)| matches!(k, Py::Str(s) if s == key))
            {
                Some((_, v)) => *v = value,
                None => pairs.push((Py::Str(key.to_owned()), value)),
            }
        }
    }

    /// Python's truth value.
    pub(crate) fn truthy(&self) -> bool {
        match self {
            Py::None => false,
            Py::Bool(b) => *b,
            Py::Int(i) => *i != 0,
            Py::BigInt(_) => true,
            Py::Float(f) => *f != 0.0,
            Py::Str(s) => !s.is_empty(),
            Py::List(l) => !l.is_empty(),
            Py::Dict(d) => !d.is_empty(),
        }
    }

    /// The string, when this is one.
    pub(crate) fn as_str(&self) -> Option<&str> {
        match self {
            Py::Str(s) => Some(s),
            _ => None,
        }
    }

    /// Python's `str()` of a scalar (what `'%s' % x` gives); containers
    /// as minijinja prints them (Python's repr).
    pub(crate) fn python_str(&self) -> String {
        match self {
            Py::Str(s) => s.clone(),
            other => other.to_value().to_string(),
        }
    }

    /// What Python's type is called, for messages.
    pub(crate) fn type_name(&self) -> &'static str {
        match self {
            Py::None => "NoneType",
            Py::Bool(_) => "bool",
            Py::Int(_) | Py::BigInt(_) => "int",
            Py::Float(_) => "float",
            Py::Str(_) => "str",
            Py::List(_) => "list",
            Py::Dict(_) => "dict",
        }
    }

    /// A new Python object for one render: lists and dicts a template can
    /// change ([`PyList`], [`PyDict`]), nothing shared with other renders.
    pub(crate) fn to_value(&self) -> Value {
        match self {
            Py::None => Value::from(()),
            Py::Bool(b) => Value::from(*b),
            Py::Int(i) => Value::from(*i),
            Py::BigInt(s) => s
                .parse::<i128>()
                .map_or_else(|_| Value::from(s.as_str()), Value::from),
            Py::Float(f) => Value::from(*f),
            Py::Str(s) => Value::from(s.as_str()),
            Py::List(items) => PyList::value(items.iter().map(Py::to_value).collect()),
            Py::Dict(pairs) => PyDict::value(
                pairs
                    .iter()
                    .map(|(k, v)| (k.to_value(), v.to_value()))
                    .collect::<IndexMap<_, _>>(),
            ),
        }
    }
}

/// The tags the script adds from a role's name (`_set_tags_based_on_role_name`,
/// 2020-10 on): `role['tags'] = role.get('tags', [])`, then each missing
/// tag appended. `Err` when the role's name or tags are not what Python
/// can use (the script stops there).
pub(crate) fn add_role_tags(role: &mut Py) -> Result<(), String> {
    let Py::Dict(_) = role else {
        return Err(format!("a role is a {}, not a mapping", role.type_name()));
    };
    let name = match role.get("name") {
        None => String::new(),
        Some(Py::Str(s)) => s.clone(),
        Some(other) => {
            return Err(format!(
                "a role's `name` is a {}, not a string",
                other.type_name()
            ))
        }
    };
    let starts = |p: &[&str]| p.iter().any(|p| name.starts_with(p));
    let wanted = [
        (
            "compute",
            starts(&["Compute", "HciCeph", "DistributedCompute"]),
        ),
        ("ceph", starts(&["Ceph"])),
        ("ovsdpdk", starts(&["ComputeOvsDpdk"])),
        (
            "storage",
            starts(&["ObjectStorage", "BlockStorage", "Ceph"]),
        ),
    ];
    let mut tags = role.get("tags").cloned().unwrap_or(Py::List(Vec::new()));
    for (tag, applies) in wanted {
        if !applies {
            continue;
        }
        match &mut tags {
            Py::List(items) => {
                if !items.iter().any(|t| t.as_str() == Some(tag)) {
                    items.push(Py::Str(tag.to_owned()));
                }
            }
            other => {
                return Err(format!(
                    "role `{name}`: `tags` is a {}, not a list",
                    other.type_name()
                ))
            }
        }
    }
    role.set("tags", tags);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn py(yaml: &str) -> Py {
        let parsed = crate::load::parse_text(yaml, "t.yaml", &crate::load::ParseOptions::default());
        Py::from_node(&parsed.root.unwrap())
    }

    #[test]
    fn tags_are_added_as_the_script_adds_them() {
        let mut role = py("name: CephStorage\ntags: [x]\nother: 1\n");
        add_role_tags(&mut role).unwrap();
        assert_eq!(
            role.to_value().to_string(),
            "{'name': 'CephStorage', 'tags': ['x', 'ceph', 'storage'], 'other': 1}"
        );
        let mut role = py("name: ComputeOvsDpdk\n");
        add_role_tags(&mut role).unwrap();
        assert_eq!(
            role.to_value().to_string(),
            "{'name': 'ComputeOvsDpdk', 'tags': ['compute', 'ovsdpdk']}"
        );
        assert!(add_role_tags(&mut py("name: Compute\ntags: 3\n")).is_err());
    }

    #[test]
    fn values_print_as_python_prints_them() {
        let v = py("a: [1, 2.5, 'x', null, true, {b: c}]\n");
        assert_eq!(
            v.to_value().to_string(),
            "{'a': [1, 2.5, 'x', None, True, {'b': 'c'}]}"
        );
        assert_eq!(Py::None.python_str(), "None");
        assert!(!py("''").truthy());
    }
}
