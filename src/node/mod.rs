//! The loaded document: a tree of [`Node`]s, each with the [`Span`] it was
//! read from. Values are what Heat's loader (PyYAML, YAML 1.1) constructs.

use crate::diag::Span;

pub(crate) mod scalar;

/// One value of a document with its position.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// What was read.
    pub value: Value,
    /// Where it was read from.
    pub span: Span,
}

/// The value kinds Heat's loader produces (Python's `None`, `bool`, `int`,
/// `float`, `str`, `list`, `dict`).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Value {
    /// `~`, `null` or nothing.
    Null,
    /// YAML 1.1 booleans (`yes`, `on`, `true`, ...).
    Bool(bool),
    /// An integer that fits 64 bits.
    Int(i64),
    /// An integer outside `i64`, kept as its decimal text (Python has big ints).
    BigInt(compact_str::CompactString),
    /// A float.
    Float(f64),
    /// A string (dates and timestamps stay strings, as in Heat).
    Str(compact_str::CompactString),
    /// A list.
    Seq(Vec<Node>),
    /// A mapping.
    Map(Mapping),
}

/// A mapping in insertion order. Like a Python dict, a repeated key keeps
/// its first position and takes the last value.
#[derive(Default)]
pub struct Mapping {
    /// Key and value pairs, in document order.
    pub entries: Vec<(Node, Node)>,
    /// String keys → position, built on the first lookup of a large
    /// mapping (a 100,000-resource template must not cost a scan per
    /// lookup). Mappings are not changed once loaded.
    /// (One pointer, set once: most mappings never need it, and every
    /// node's size counts: a node is 48 bytes so, 56 with a `OnceLock`
    /// of a box, 96 with the map inline.)
    index: once_cell::race::OnceBox<foldhash::HashMap<String, usize>>,
}

impl Clone for Mapping {
    fn clone(&self) -> Mapping {
        // The index is rebuilt on demand.
        Mapping::from_entries(self.entries.clone())
    }
}

impl std::fmt::Debug for Mapping {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The index is a cache of the entries: whether it is built.
        f.debug_struct("Mapping")
            .field("entries", &self.entries)
            .field("indexed", &self.index.get().is_some())
            .finish()
    }
}

impl PartialEq for Mapping {
    fn eq(&self, other: &Mapping) -> bool {
        self.entries == other.entries
    }
}

/// Mappings up to this size are scanned; larger ones are indexed.
const SCAN_LIMIT: usize = 16;

/// How Python compares dict keys: `1`, `1.0` and `True` are the same key.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) enum KeyId {
    Null,
    Int(i64),
    Big(String),
    Float(u64),
    Str(compact_str::CompactString),
    /// Lists and dicts are unhashable in Python; each is its own key here.
    Unhashable(usize),
}

impl Value {
    pub(crate) fn key_id(&self, unique: usize) -> KeyId {
        match self {
            Value::Null => KeyId::Null,
            Value::Bool(b) => KeyId::Int(i64::from(*b)),
            Value::Int(i) => KeyId::Int(*i),
            Value::BigInt(s) => KeyId::Big(s.as_str().to_owned()),
            #[allow(clippy::cast_precision_loss)]
            Value::Float(f) => {
                if f.fract() == 0.0 && f.is_finite() && f.abs() < 9.0e15 {
                    #[allow(clippy::cast_possible_truncation)]
                    KeyId::Int(*f as i64)
                } else {
                    KeyId::Float(f.to_bits())
                }
            }
            Value::Str(s) => KeyId::Str(s.clone()),
            Value::Seq(_) | Value::Map(_) => KeyId::Unhashable(unique),
        }
    }

    /// Python dict-key equality without allocating: `1`, `1.0` and `true`
    /// are the same key; lists and maps never equal anything.
    pub(crate) fn same_key(&self, other: &Value) -> bool {
        match (self, other) {
            (Value::Str(a), Value::Str(b)) | (Value::BigInt(a), Value::BigInt(b)) => a == b,
            (Value::Null, Value::Null) => true,
            (Value::Seq(_) | Value::Map(_) | Value::Str(_), _)
            | (_, Value::Seq(_) | Value::Map(_) | Value::Str(_)) => false,
            (a, b) => a.key_id(0) == b.key_id(1),
        }
    }

    /// The canonical text of a scalar, used to compare capability values:
    /// `2` and `"2"` are equal, `true` and `"true"` are equal. `None` for
    /// null, lists and maps.
    pub fn scalar_text(&self) -> Option<String> {
        match self {
            Value::Bool(b) => Some(if *b { "true" } else { "false" }.to_owned()),
            Value::Int(i) => Some(i.to_string()),
            Value::BigInt(s) | Value::Str(s) => Some(s.as_str().to_owned()),
            Value::Float(f) => Some(float_text(*f)),
            Value::Null | Value::Seq(_) | Value::Map(_) => None,
        }
    }

    /// The string, if this is one.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }

    /// The mapping, if this is one.
    pub fn as_map(&self) -> Option<&Mapping> {
        match self {
            Value::Map(m) => Some(m),
            _ => None,
        }
    }

    /// The items, if this is a list.
    pub fn as_seq(&self) -> Option<&[Node]> {
        match self {
            Value::Seq(s) => Some(s),
            _ => None,
        }
    }

    /// A short name of the kind, for messages ("a list", "a mapping").
    pub fn kind_name(&self) -> &'static str {
        match self {
            Value::Null => "null",
            Value::Bool(_) => "a boolean",
            Value::Int(_) | Value::BigInt(_) => "an integer",
            Value::Float(_) => "a number",
            Value::Str(_) => "a string",
            Value::Seq(_) => "a list",
            Value::Map(_) => "a mapping",
        }
    }

    /// The JSON form, as Python's `json.dumps` would write the loaded value
    /// (non-string keys become their text, as Python does).
    pub fn to_json(&self) -> serde_json::Value {
        use serde_json::Value as J;
        match self {
            Value::Null => J::Null,
            Value::Bool(b) => J::Bool(*b),
            Value::Int(i) => J::from(*i),
            Value::BigInt(s) | Value::Str(s) => J::String(s.as_str().to_owned()),
            Value::Float(f) => serde_json::Number::from_f64(*f)
                .map_or_else(|| J::String(float_text(*f)), J::Number),
            Value::Seq(items) => J::Array(items.iter().map(|n| n.value.to_json()).collect()),
            Value::Map(m) => J::Object(
                m.entries
                    .iter()
                    .map(|(k, v)| (k.value.key_text(), v.value.to_json()))
                    .collect(),
            ),
        }
    }

    /// The text a key becomes in JSON (Python: `json.dumps({1: 2})` gives `{"1": 2}`).
    pub fn key_text(&self) -> String {
        match self {
            Value::Null => "null".to_owned(),
            Value::Str(s) => s.as_str().to_owned(),
            other => other
                .scalar_text()
                .unwrap_or_else(|| other.to_json().to_string()),
        }
    }

    /// [`Value::key_text`], borrowed when the key is a string (most are):
    /// for a key that is compared or quoted, not kept.
    pub(crate) fn key_str(&self) -> std::borrow::Cow<'_, str> {
        match self {
            Value::Str(s) => std::borrow::Cow::Borrowed(s.as_str()),
            other => std::borrow::Cow::Owned(other.key_text()),
        }
    }
}

/// Serializes a value as its [`Value::to_json`] serializes, without
/// making the JSON value (the index writes every environment's registry
/// values).
pub(crate) struct AsJson<'a>(pub &'a Value);

impl serde::Serialize for AsJson<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Value::Null => s.serialize_unit(),
            Value::Bool(b) => s.serialize_bool(*b),
            Value::Int(i) => s.serialize_i64(*i),
            Value::BigInt(t) | Value::Str(t) => s.serialize_str(t),
            Value::Float(f) if f.is_finite() => s.serialize_f64(*f),
            Value::Float(f) => s.serialize_str(&float_text(*f)),
            Value::Seq(items) => s.collect_seq(items.iter().map(|n| AsJson(&n.value))),
            // Keys that are all strings are distinct; others may share a
            // text (`1` and `'1'`), which the JSON object keeps once.
            Value::Map(m) if m.entries.iter().all(|(k, _)| k.value.as_str().is_some()) => s
                .collect_map(
                    m.entries
                        .iter()
                        .map(|(k, v)| (k.value.as_str().unwrap_or_default(), AsJson(&v.value))),
                ),
            Value::Map(_) => serde::Serialize::serialize(&self.0.to_json(), s),
        }
    }
}

/// A tree from a JSON value, every node at `span` (used when positions are
/// not available).
pub fn from_json(value: &serde_json::Value, span: Span) -> Node {
    use serde_json::Value as J;
    let v = match value {
        J::Null => Value::Null,
        J::Bool(b) => Value::Bool(*b),
        J::Number(n) => n
            .as_i64()
            .map_or_else(|| Value::Float(n.as_f64().unwrap_or(f64::NAN)), Value::Int),
        J::String(s) => Value::Str(s.clone().into()),
        J::Array(items) => Value::Seq(items.iter().map(|i| from_json(i, span)).collect()),
        J::Object(map) => Value::Map(Mapping::from_entries(
            map.iter()
                .map(|(k, v)| {
                    (
                        Node::new(Value::Str(k.clone().into()), span),
                        from_json(v, span),
                    )
                })
                .collect(),
        )),
    };
    Node::new(v, span)
}

/// Python's `repr` of a float for the common cases: `1.0`, `0.5`, `inf`, `nan`.
pub fn float_text(f: f64) -> String {
    if f.is_nan() {
        "nan".to_owned()
    } else if f.is_infinite() {
        if f > 0.0 { "inf" } else { "-inf" }.to_owned()
    } else if f.fract() == 0.0 && f.abs() < 1e16 {
        format!("{f:.1}")
    } else {
        format!("{f}")
    }
}

impl Mapping {
    /// The value under a string key.
    pub fn get(&self, key: &str) -> Option<&Node> {
        self.entry(key).map(|(_, v)| v)
    }

    /// The key node and value under a string key.
    pub fn entry(&self, key: &str) -> Option<&(Node, Node)> {
        if self.entries.len() <= SCAN_LIMIT {
            return self.scan(key);
        }
        let index = self.index.get_or_init(|| {
            let mut ix = foldhash::HashMap::with_capacity_and_hasher(
                self.entries.len(),
                foldhash::fast::RandomState::default(),
            );
            for (i, (k, _)) in self.entries.iter().enumerate() {
                if let Some(s) = k.value.as_str() {
                    ix.entry(s.to_owned()).or_insert(i);
                }
            }
            Box::new(ix)
        });
        index.get(key).and_then(|&i| self.entries.get(i))
    }

    /// [`Mapping::entry`] by a scan, whatever the size, never building the
    /// index: for a caller with one question (an index of a large mapping
    /// is a string per key, worth it only for many lookups).
    pub(crate) fn scan(&self, key: &str) -> Option<&(Node, Node)> {
        self.entries
            .iter()
            .find(|(k, _)| k.value.as_str() == Some(key))
    }

    /// A mapping of these pairs.
    pub fn from_entries(entries: Vec<(Node, Node)>) -> Mapping {
        Mapping {
            entries,
            index: once_cell::race::OnceBox::new(),
        }
    }

    /// The entries as JSON, keys as their text, in order.
    pub(crate) fn json_entries(&self) -> indexmap::IndexMap<String, serde_json::Value> {
        self.entries
            .iter()
            .map(|(k, v)| (k.value.key_text(), v.value.to_json()))
            .collect()
    }

    /// True when a string key is present.
    pub fn contains_key(&self, key: &str) -> bool {
        self.entry(key).is_some()
    }

    /// How many entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when there are no entries.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Entries whose key is a string, in order.
    pub fn str_entries(&self) -> impl Iterator<Item = (&str, &Node)> {
        self.entries
            .iter()
            .filter_map(|(k, v)| k.value.as_str().map(|s| (s, v)))
    }
}

impl Node {
    /// A node of `value` at `span`.
    pub fn new(value: Value, span: Span) -> Self {
        Node { value, span }
    }

    /// The mapping, if the value is one.
    pub fn as_map(&self) -> Option<&Mapping> {
        self.value.as_map()
    }

    /// The string, if the value is one.
    pub fn as_str(&self) -> Option<&str> {
        self.value.as_str()
    }

    /// The items, if the value is a list.
    pub fn as_seq(&self) -> Option<&[Node]> {
        self.value.as_seq()
    }

    /// The span of the node at `key_path` below this one (map keys, or list
    /// indices as decimal text), falling back to the deepest node found.
    pub fn span_of(&self, key_path: &[String]) -> Span {
        let mut node = self;
        for key in key_path {
            let next = match &node.value {
                Value::Map(m) => m.get(key),
                Value::Seq(items) => key.parse::<usize>().ok().and_then(|i| items.get(i)),
                _ => None,
            };
            match next {
                Some(n) => node = n,
                None => break,
            }
        }
        node.span
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A key's text is [`Value::key_text`]'s, borrowed only for a string.
    #[test]
    fn a_keys_text_is_borrowed_for_a_string() {
        for v in [
            Value::Str("a b".into()),
            Value::Int(1),
            Value::Null,
            Value::Bool(true),
            Value::Float(1.5),
            Value::Seq(vec![Node::new(Value::Int(2), Span::point(1, 1))]),
        ] {
            assert_eq!(v.key_str(), v.key_text());
        }
        assert!(matches!(
            Value::Str("a".into()).key_str(),
            std::borrow::Cow::Borrowed("a")
        ));
        assert!(matches!(
            Value::Int(1).key_str(),
            std::borrow::Cow::Owned(_)
        ));
    }

    fn n(value: Value) -> Node {
        Node::new(value, Span::point(1, 1))
    }

    /// `scan` answers as `entry` does, on a mapping past the scan limit,
    /// without building the index `entry` builds there.
    #[test]
    fn a_scan_answers_as_entry_without_an_index() {
        let s = |t: &str| n(Value::Str(t.into()));
        let mut entries: Vec<(Node, Node)> = (0..20)
            .map(|i| (s(&format!("k{i}")), n(Value::Int(i))))
            .collect();
        entries.push((n(Value::Int(7)), s("not a string key")));
        let m = Mapping::from_entries(entries);
        let keys = ["k0", "k13", "k19", "k20", "7", ""];
        let by_scan: Vec<Option<Value>> = keys
            .iter()
            .map(|k| m.scan(k).map(|(_, v)| v.value.clone()))
            .collect();
        assert!(m.index.get().is_none());
        let by_entry: Vec<Option<Value>> = keys
            .iter()
            .map(|k| m.entry(k).map(|(_, v)| v.value.clone()))
            .collect();
        assert!(m.index.get().is_some());
        assert_eq!(by_scan, by_entry);
        assert_eq!(m.scan("k13").map(|(_, v)| &v.value), Some(&Value::Int(13)));
    }

    /// A value written through [`AsJson`] is its `to_json()` written, byte
    /// for byte: every scalar kind, floats JSON cannot hold, big integers,
    /// keys that are not strings (two of them with one text), nesting, and
    /// every file of the bundled TripleO tree.
    #[test]
    fn as_json_writes_what_to_json_writes() {
        let check = |v: &Value, what: &str| {
            assert_eq!(
                serde_json::to_string(&AsJson(v)).unwrap(),
                serde_json::to_string(&v.to_json()).unwrap(),
                "{what}"
            );
        };
        let text =
            "a: [1, -2, 0x1F, 1.5, .inf, -.inf, .nan, 1e400, 123456789012345678901234567890]\n\
                    b: {1: x, '1': y, true: z, null: n, 2.5: f}\n\
                    c: {k: [yes, no, ~, '', \"q\\\"uote\", {d: {e: [f]}}]}\n\
                    d: 2015-10-15\n";
        let root = crate::load::parse_text(text, "t.yaml", &crate::load::ParseOptions::default())
            .root
            .unwrap();
        check(&root.value, "literal");
        for (k, v) in &root.as_map().unwrap().entries {
            check(&v.value, &k.value.key_text());
        }
        let tree = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/tripleo-heat-templates-2016");
        let mut files = 0;
        for entry in walkdir::WalkDir::new(&tree).into_iter().flatten() {
            let Ok(text) = std::fs::read_to_string(entry.path()) else {
                continue;
            };
            let path = entry.path().display().to_string();
            if let Some(root) =
                crate::load::parse_text(&text, &path, &crate::load::ParseOptions::default()).root
            {
                check(&root.value, &path);
                files += 1;
            }
        }
        assert!(files > 100, "{files}");
    }

    #[test]
    fn canonical_scalar_text() {
        assert_eq!(Value::Int(2).scalar_text().as_deref(), Some("2"));
        assert_eq!(Value::Bool(true).scalar_text().as_deref(), Some("true"));
        assert_eq!(Value::Float(1.0).scalar_text().as_deref(), Some("1.0"));
        assert_eq!(Value::Float(0.5).scalar_text().as_deref(), Some("0.5"));
        assert_eq!(
            Value::Float(f64::INFINITY).scalar_text().as_deref(),
            Some("inf")
        );
        assert_eq!(Value::Null.scalar_text(), None);
    }

    #[test]
    fn same_key_matches_key_id() {
        let vals = [
            Value::Null,
            Value::Bool(true),
            Value::Int(1),
            Value::Float(1.0),
            Value::Str("1".into()),
            Value::BigInt("99999999999999999999".into()),
            Value::Seq(vec![]),
        ];
        for (i, a) in vals.iter().enumerate() {
            for (j, b) in vals.iter().enumerate() {
                let by_id = a.key_id(i) == b.key_id(j);
                assert_eq!(
                    a.same_key(b),
                    by_id && !matches!(a, Value::Seq(_)),
                    "{a:?} {b:?}"
                );
            }
        }
    }

    #[test]
    fn python_key_identity() {
        assert_eq!(Value::Bool(true).key_id(0), Value::Int(1).key_id(1));
        assert_eq!(Value::Float(1.0).key_id(0), Value::Int(1).key_id(1));
        assert_ne!(Value::Str("1".into()).key_id(0), Value::Int(1).key_id(1));
        assert_ne!(Value::Seq(vec![]).key_id(0), Value::Seq(vec![]).key_id(1));
    }

    #[test]
    fn span_of_follows_keys_and_indices() {
        let inner = Node::new(Value::Str("x".into()), Span::point(3, 7));
        let list = Node::new(Value::Seq(vec![n(Value::Null), inner]), Span::point(2, 3));
        let root = Node::new(
            Value::Map(Mapping::from_entries(vec![(
                n(Value::Str("a".into())),
                list,
            )])),
            Span::point(1, 1),
        );
        assert_eq!(root.span_of(&["a".into(), "1".into()]), Span::point(3, 7));
        assert_eq!(root.span_of(&["a".into(), "9".into()]), Span::point(2, 3));
        assert_eq!(root.span_of(&["zz".into()]), Span::point(1, 1));
    }

    #[test]
    fn large_mappings_are_indexed_and_agree_with_a_scan() {
        let entries: Vec<(Node, Node)> = (0..100)
            .map(|i| (n(Value::Str(format!("k{i}").into())), n(Value::Int(i))))
            .collect();
        let m = Mapping::from_entries(entries);
        assert_eq!(m.get("k57").map(|v| &v.value), Some(&Value::Int(57)));
        assert!(m.get("k100").is_none());
        assert!(m.contains_key("k0"));
    }

    #[test]
    fn json_form_stringifies_keys() {
        let m = Value::Map(Mapping::from_entries(vec![(
            n(Value::Int(1)),
            n(Value::Float(2.5)),
        )]));
        assert_eq!(m.to_json().to_string(), r#"{"1":2.5}"#);
    }
}

#[cfg(test)]
mod size_tests {
    /// A tree is held whole: a large template's heap is mostly nodes.
    #[test]
    fn a_node_is_48_bytes() {
        assert_eq!(std::mem::size_of::<super::Node>(), 48);
    }
}
