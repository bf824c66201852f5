//! The Python values yaql computes with: what `convert_input_data` makes of
//! JSON (tuples, `FrozenDict`s), what the library builds (lists, plain
//! dicts, frozensets, dict views, lazy iterators, compiled patterns,
//! contexts) and Python's rules for them: `==`, `hash`, truthiness,
//! `str()`/`repr()` and `sys.getsizeof` (for yaql's memory quota).

use std::cell::{Cell, RefCell};
use std::hash::{DefaultHasher, Hash, Hasher};
use std::rc::Rc;

use indexmap::{IndexMap, IndexSet};
use serde_json::Value as Json;

use super::engine::Ctx;
use super::iter::{IterRef, Ordering};
use super::pyre::Pattern;
use super::{Error, R};
use crate::eval::python;

/// The most nodes the walks over values (`==`, `hash`, `repr`, JSON) may
/// visit in one evaluation: values that share parts can be exponentially
/// larger than the work that built them.
const WALK_BUDGET: u64 = 5_000_000;

thread_local! {
    /// Nodes visited so far on this thread (an evaluation has its own).
    static WALKED: Cell<u64> = const { Cell::new(0) };
}

/// Counts one node visited; false once the budget is spent.
fn tick() -> bool {
    WALKED.with(|w| {
        let n = w.get().saturating_add(1);
        w.set(n);
        n <= WALK_BUDGET
    })
}

/// True once the walks spent their budget (their answers are then void).
pub(super) fn exhausted() -> bool {
    WALKED.with(|w| w.get() > WALK_BUDGET)
}

/// A dict's entries, in insertion order, keyed as Python keys them.
pub(super) type Map = IndexMap<Key, Value>;

/// A dict: yaql's `FrozenDict` (its input data, `{k => v}`, `dict()`) or a
/// plain Python dict (what `mergeWith`, `deleteAll`, `toDict` return).
pub(super) struct Dict {
    pub(super) map: Map,
    pub(super) frozen: bool,
    /// The most entries the dict held (its table never shrinks): its size
    /// for the memory quota.
    pub(super) high: usize,
}

/// Which view of a dict `keys()`, `values()`, `items()` gave.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum View {
    Keys,
    Values,
    Items,
}

/// A Python value.
#[derive(Clone)]
pub(super) enum Value {
    None,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(Rc<str>),
    Tuple(Rc<[Value]>),
    List(Rc<[Value]>),
    Dict(Rc<Dict>),
    /// A frozenset.
    Set(Rc<IndexSet<Key>>),
    View(Rc<Dict>, View),
    /// A Python iterator (a generator, `map`, `filter`…): consumed once.
    Iter(IterRef),
    /// `orderBy`'s result: sorted on first iteration.
    Ordering(Rc<RefCell<Ordering>>),
    Regex(Rc<Pattern>),
    Context(Ctx),
    /// `utils.MappingRule`: an evaluated `a => b`.
    Rule(Rc<(Value, Value)>),
    /// yaql's `NO_VALUE` marker (a skipped argument, a default).
    Absent,
}

impl Value {
    pub(super) fn str(s: &str) -> Value {
        Value::Str(Rc::from(s))
    }

    pub(super) fn tuple(items: Vec<Value>) -> Value {
        Value::Tuple(Rc::from(items))
    }

    pub(super) fn list(items: Vec<Value>) -> Value {
        Value::List(Rc::from(items))
    }

    pub(super) fn dict(map: Map, frozen: bool) -> Value {
        let high = map.len();
        Value::Dict(Rc::new(Dict { map, frozen, high }))
    }

    pub(super) fn is_none(&self) -> bool {
        matches!(self, Value::None)
    }

    /// The items of a tuple or a list.
    pub(super) fn as_seq(&self) -> Option<&Rc<[Value]>> {
        match self {
            Value::Tuple(items) | Value::List(items) => Some(items),
            _ => None,
        }
    }

    /// `type(v).__name__`.
    pub(super) fn type_name(&self) -> &'static str {
        match self {
            Value::None => "NoneType",
            Value::Bool(_) => "bool",
            Value::Int(_) => "int",
            Value::Float(_) => "float",
            Value::Str(_) => "str",
            Value::Tuple(_) => "tuple",
            Value::List(_) => "list",
            Value::Dict(d) if d.frozen => "FrozenDict",
            Value::Dict(_) => "dict",
            Value::Set(_) => "frozenset",
            Value::View(d, v) => match (d.frozen, v) {
                (true, View::Keys) => "KeysView",
                (true, View::Values) => "ValuesView",
                (true, View::Items) => "ItemsView",
                (false, View::Keys) => "dict_keys",
                (false, View::Values) => "dict_values",
                (false, View::Items) => "dict_items",
            },
            Value::Iter(it) => it.borrow().type_name(),
            Value::Ordering(_) => "OrderingIterable",
            Value::Regex(_) => "Pattern",
            Value::Context(_) => "Context",
            Value::Rule(_) => "MappingRule",
            Value::Absent => "MarkerClass",
        }
    }

    /// Python's truthiness.
    pub(super) fn truthy(&self) -> bool {
        match self {
            Value::None | Value::Absent => false,
            Value::Bool(b) => *b,
            Value::Int(i) => *i != 0,
            Value::Float(f) => *f != 0.0,
            Value::Str(s) => !s.is_empty(),
            Value::Tuple(items) | Value::List(items) => !items.is_empty(),
            Value::Dict(d) | Value::View(d, _) => !d.map.is_empty(),
            Value::Set(s) => !s.is_empty(),
            Value::Iter(_)
            | Value::Ordering(_)
            | Value::Regex(_)
            | Value::Context(_)
            | Value::Rule(_) => true,
        }
    }
}

// ---------------------------------------------------------------------
// Keys: hashing and equality.

/// A hashable value, as a dict key or set member.
#[derive(Clone)]
pub(super) struct Key(pub(super) Value);

impl Key {
    /// `hash(v)` succeeds: Python's `TypeError: unhashable type` for
    /// lists, dicts, dict keys and items; objects hashed by identity are
    /// beyond heatcap.
    pub(super) fn new(v: Value) -> R<Key> {
        check_hashable(&v)?;
        Ok(Key(v))
    }
}

fn check_hashable(v: &Value) -> R<()> {
    if !tick() {
        return Err(too_much());
    }
    match v {
        // (Iterators, contexts, rules and the marker are hashed by
        // identity: each is equal only to itself.)
        Value::None
        | Value::Bool(_)
        | Value::Int(_)
        | Value::Float(_)
        | Value::Str(_)
        | Value::Regex(_)
        | Value::Set(_)
        | Value::Iter(_)
        | Value::Ordering(_)
        | Value::Context(_)
        | Value::Rule(_)
        | Value::Absent => Ok(()),
        Value::Tuple(items) => items.iter().try_for_each(check_hashable),
        Value::Dict(d) if d.frozen => d.map.values().try_for_each(check_hashable),
        Value::List(_) | Value::Dict(_) | Value::View(_, View::Keys | View::Items) => Err(
            Error::raised("TypeError", format!("unhashable type: '{}'", v.type_name())),
        ),
        // Two `values()` of one dict are two objects to Python, one here.
        Value::View(_, View::Values) => Err(Error::unsupported(
            "a dict's values view, which Python hashes by its identity",
        )),
    }
}

impl PartialEq for Key {
    fn eq(&self, other: &Key) -> bool {
        eq(&self.0, &other.0)
    }
}

impl Eq for Key {}

impl Hash for Key {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(hash_of(&self.0));
    }
}

/// A hash that agrees with [`eq`] (`hash(1) == hash(1.0) == hash(True)`).
fn hash_of(v: &Value) -> u64 {
    let mut h = DefaultHasher::new();
    if !tick() {
        return 0;
    }
    match v {
        Value::None => 0u8.hash(&mut h),
        Value::Bool(b) => (1u8, i64::from(*b)).hash(&mut h),
        Value::Int(i) => (1u8, *i).hash(&mut h),
        Value::Float(f) => match float_as_int(*f) {
            Some(i) => (1u8, i).hash(&mut h),
            None => (2u8, f.to_bits()).hash(&mut h),
        },
        Value::Str(s) => (3u8, &**s).hash(&mut h),
        Value::Tuple(items) => {
            4u8.hash(&mut h);
            for i in items.iter() {
                hash_of(i).hash(&mut h);
            }
        }
        Value::Dict(d) => {
            // FrozenDict: the xor of its items' hashes.
            let mut x = 0u64;
            for (k, v) in &d.map {
                x ^= pair_hash(&k.0, v);
            }
            (5u8, x).hash(&mut h);
        }
        Value::Set(s) => {
            let mut x = 0u64;
            for k in s.iter() {
                x ^= hash_of(&k.0);
            }
            (6u8, x).hash(&mut h);
        }
        Value::Regex(p) => (7u8, &p.source, p.flags).hash(&mut h),
        // By identity.
        Value::Iter(it) => (8u8, Rc::as_ptr(it) as usize).hash(&mut h),
        Value::Ordering(o) => (8u8, Rc::as_ptr(o) as usize).hash(&mut h),
        Value::Context(c) => (8u8, c.address()).hash(&mut h),
        Value::Rule(r) => (8u8, Rc::as_ptr(r) as usize).hash(&mut h),
        _ => 9u8.hash(&mut h),
    }
    h.finish()
}

fn pair_hash(k: &Value, v: &Value) -> u64 {
    let mut h = DefaultHasher::new();
    (hash_of(k), hash_of(v)).hash(&mut h);
    h.finish()
}

#[allow(
    clippy::cast_possible_truncation,
    clippy::cast_precision_loss,
    clippy::float_cmp
)]
fn float_as_int(f: f64) -> Option<i64> {
    (f.fract() == 0.0 && f.abs() < 9.2e18).then_some(f as i64)
}

/// A number, as Python compares numbers.
enum Num {
    Int(i64),
    Float(f64),
}

fn num(v: &Value) -> Option<Num> {
    match v {
        Value::Bool(b) => Some(Num::Int(i64::from(*b))),
        Value::Int(i) => Some(Num::Int(*i)),
        Value::Float(f) => Some(Num::Float(*f)),
        _ => None,
    }
}

/// Python's `a == b` (an object is equal to itself first, as in
/// CPython's container comparisons).
pub(super) fn eq(a: &Value, b: &Value) -> bool {
    if !tick() {
        return false;
    }
    match (a, b) {
        (Value::Tuple(x), Value::Tuple(y)) | (Value::List(x), Value::List(y))
            if Rc::ptr_eq(x, y) =>
        {
            true
        }
        (Value::Dict(x), Value::Dict(y)) if Rc::ptr_eq(x, y) => true,
        (Value::None, Value::None) | (Value::Absent, Value::Absent) => true,
        (Value::Str(x), Value::Str(y)) => x == y,
        (Value::Tuple(x), Value::Tuple(y)) | (Value::List(x), Value::List(y)) => {
            x.len() == y.len() && x.iter().zip(y.iter()).all(|(p, q)| eq(p, q))
        }
        (Value::Dict(x), Value::Dict(y)) => {
            x.map.len() == y.map.len()
                && x.map
                    .iter()
                    .all(|(k, v)| y.map.get(k).is_some_and(|w| eq(v, w)))
        }
        (Value::Iter(x), Value::Iter(y)) => Rc::ptr_eq(x, y),
        (Value::Ordering(x), Value::Ordering(y)) => Rc::ptr_eq(x, y),
        (Value::Context(x), Value::Context(y)) => x.same(y),
        (Value::Rule(x), Value::Rule(y)) => Rc::ptr_eq(x, y),
        (Value::View(x, View::Values), Value::View(y, View::Values)) => Rc::ptr_eq(x, y),
        (Value::Regex(x), Value::Regex(y)) => x.source == y.source && x.flags == y.flags,
        _ => {
            if let (Some(x), Some(y)) = (set_members(a), set_members(b)) {
                return x.len() == y.len() && x.iter().all(|k| y.contains(k));
            }
            match (num(a), num(b)) {
                (Some(Num::Int(x)), Some(Num::Int(y))) => x == y,
                #[allow(clippy::float_cmp)]
                (Some(Num::Float(x)), Some(Num::Float(y))) => x == y,
                (Some(Num::Int(i)), Some(Num::Float(f)))
                | (Some(Num::Float(f)), Some(Num::Int(i))) => {
                    python::int_eq_float(i128::from(i), f)
                }
                _ => false,
            }
        }
    }
}

/// The members of a set-like value (frozenset, dict keys, dict items),
/// `None` for anything else or members that are not hashable.
fn set_members(v: &Value) -> Option<IndexSet<Key>> {
    match v {
        Value::Set(s) => Some((**s).clone()),
        Value::View(d, View::Keys) => Some(d.map.keys().cloned().collect()),
        Value::View(d, View::Items) => d
            .map
            .iter()
            .map(|(k, v)| Key::new(Value::tuple(vec![k.0.clone(), v.clone()])).ok())
            .collect(),
        _ => None,
    }
}

// ---------------------------------------------------------------------
// str() and repr()

/// Python's `str(v)`; `Err` where Python prints an address or a hash
/// order.
pub(super) fn to_str(v: &Value) -> R<String> {
    match v {
        Value::Str(s) => Ok(s.to_string()),
        _ => repr(v),
    }
}

/// Python's `repr(v)`.
pub(super) fn repr(v: &Value) -> R<String> {
    let mut out = String::new();
    write_repr(v, &mut out)?;
    Ok(out)
}

/// `str(v)` for an error message: objects shown by address get a
/// stand-in (the message is then not Python's exactly).
pub(super) fn shown(v: &Value) -> String {
    to_str(v).unwrap_or_else(|_| format!("<{} object>", v.type_name()))
}

fn write_seq(items: &[Value], open: &str, close: &str, out: &mut String) -> R<()> {
    out.push_str(open);
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        write_repr(item, out)?;
    }
    out.push_str(close);
    Ok(())
}

fn write_map(d: &Dict, out: &mut String) -> R<()> {
    out.push('{');
    for (i, (k, v)) in d.map.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        write_repr(&k.0, out)?;
        out.push_str(": ");
        write_repr(v, out)?;
    }
    out.push('}');
    Ok(())
}

fn write_repr(v: &Value, out: &mut String) -> R<()> {
    if !tick() {
        return Err(too_much());
    }
    match v {
        Value::None => out.push_str("None"),
        Value::Bool(true) => out.push_str("True"),
        Value::Bool(false) => out.push_str("False"),
        Value::Int(i) => out.push_str(&i.to_string()),
        Value::Float(f) => out.push_str(&python::float_repr(*f)),
        Value::Str(s) => out.push_str(&python::str_repr(s)),
        Value::Tuple(items) if items.len() == 1 => write_seq(items, "(", ",)", out)?,
        Value::Tuple(items) => write_seq(items, "(", ")", out)?,
        Value::List(items) => write_seq(items, "[", "]", out)?,
        Value::Dict(d) => write_map(d, out)?,
        Value::Set(s) if s.is_empty() => out.push_str("frozenset()"),
        Value::Set(s) if s.len() == 1 => {
            out.push_str("frozenset({");
            write_repr(&s[0].0, out)?;
            out.push_str("})");
        }
        Value::View(d, view) if d.frozen => {
            out.push_str(match view {
                View::Keys => "KeysView(",
                View::Values => "ValuesView(",
                View::Items => "ItemsView(",
            });
            write_map(d, out)?;
            out.push(')');
        }
        Value::View(d, view) => {
            let items: Vec<Value> = match view {
                View::Keys => d.map.keys().map(|k| k.0.clone()).collect(),
                View::Values => d.map.values().cloned().collect(),
                View::Items => d
                    .map
                    .iter()
                    .map(|(k, v)| Value::tuple(vec![k.0.clone(), v.clone()]))
                    .collect(),
            };
            out.push_str(match view {
                View::Keys => "dict_keys(",
                View::Values => "dict_values(",
                View::Items => "dict_items(",
            });
            write_seq(&items, "[", "]", out)?;
            out.push(')');
        }
        Value::Regex(p) => out.push_str(&p.repr()),
        Value::Absent => out.push_str("<NoValue>"),
        Value::Set(_) => {
            return Err(Error::unsupported(
                "a set's members print in Python's hash order",
            ))
        }
        Value::Iter(_) | Value::Ordering(_) | Value::Context(_) | Value::Rule(_) => {
            return Err(Error::unsupported(format!(
                "a {} prints as its address",
                v.type_name()
            )))
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------
// sys.getsizeof, for yaql's memory quota.

/// `sys.getsizeof(v)`, as bounds (`lo <= size <= hi`): exact for the
/// values yaql's quota usually meets (strings, tuples, dicts built by
/// insertion), bounds where CPython's over-allocation depends on history.
/// (Sizes of unrelated types coincide: their arms stay apart.)
#[allow(clippy::match_same_arms)]
pub(super) fn size_of(v: &Value) -> (usize, usize) {
    let exact = |n: usize| (n, n);
    match v {
        Value::None => exact(16),
        Value::Bool(true) => exact(28),
        Value::Bool(false) => exact(24),
        Value::Int(i) => exact(match i.unsigned_abs() {
            n if n < 1 << 30 => 28,
            n if n < 1 << 60 => 32,
            _ => 36,
        }),
        Value::Float(_) => exact(24),
        Value::Str(s) => {
            let n = s.chars().count();
            let max = s.chars().map(u32::from).max().unwrap_or(0);
            exact(match max {
                0..=0x7f => 49 + n,
                0x80..=0xff => 73 + n,
                0x100..=0xffff => 74 + 2 * n,
                _ => 76 + 4 * n,
            })
        }
        Value::Tuple(items) => exact(40 + 8 * items.len()),
        Value::List(items) => {
            let n = items.len();
            (56 + 8 * n, 56 + 8 * (n + n / 8 + 16))
        }
        Value::Dict(d) if d.frozen => exact(56),
        Value::Dict(d) => exact(dict_size(d.high)),
        Value::Set(s) => exact(match s.len() {
            0..=4 => 216,
            5..=18 => 728,
            19..=76 => 2264,
            77..=306 => 8408,
            _ => 32984,
        }),
        Value::View(..) => exact(40),
        Value::Iter(_) => (48, 400),
        Value::Regex(p) => (160, 160 + 20 * p.source.len()),
        Value::Ordering(_) | Value::Context(_) | Value::Rule(_) | Value::Absent => exact(56),
    }
}

/// `sys.getsizeof` of a dict built by inserting `n` keys.
fn dict_size(n: usize) -> usize {
    match n {
        0 => 64,
        1..=5 => 184,
        6..=10 => 272,
        11..=21 => 464,
        22..=42 => 832,
        43..=85 => 1584,
        86..=170 => 3328,
        171..=341 => 6576,
        342..=682 => 13056,
        _ => 25_000,
    }
}

fn too_much() -> Error {
    Error::unsupported("a value too large to walk")
}

// ---------------------------------------------------------------------
// JSON in and out

/// `convert_input_data`: lists become tuples, mappings `FrozenDict`s.
pub(super) fn from_json(v: &Json) -> R<Value> {
    Ok(match v {
        Json::Null => Value::None,
        Json::Bool(b) => Value::Bool(*b),
        Json::Number(n) => {
            if let Some(i) = n.as_i64() {
                Value::Int(i)
            } else if n.is_u64() {
                return Err(Error::unsupported("an integer beyond 64 bits"));
            } else {
                Value::Float(n.as_f64().unwrap_or(f64::NAN))
            }
        }
        Json::String(s) => Value::str(s),
        Json::Array(items) => Value::tuple(items.iter().map(from_json).collect::<R<_>>()?),
        Json::Object(m) => {
            let mut map = Map::with_capacity(m.len());
            for (k, v) in m {
                map.insert(Key(Value::str(k)), from_json(v)?);
            }
            Value::dict(map, true)
        }
    })
}

/// The finalizer's output (lists, dicts, scalars) as JSON; what Heat's
/// code downstream could not serialise either, or would see in another
/// order, is unsupported.
pub(super) fn to_json(v: &Value) -> R<Json> {
    to_json_at(v, 0)
}

/// serde_json's own limit on nesting.
const JSON_DEPTH: usize = 128;

fn to_json_at(v: &Value, depth: usize) -> R<Json> {
    if depth > JSON_DEPTH {
        return Err(Error::unsupported(
            "a result nested deeper than JSON allows",
        ));
    }
    if !tick() {
        return Err(too_much());
    }
    Ok(match v {
        Value::None => Json::Null,
        Value::Bool(b) => Json::Bool(*b),
        Value::Int(i) => Json::from(*i),
        Value::Float(f) => serde_json::Number::from_f64(*f)
            .map(Json::Number)
            .ok_or_else(|| Error::unsupported("a float that is not finite"))?,
        Value::Str(s) => Json::String(s.to_string()),
        Value::Tuple(items) | Value::List(items) => Json::Array(
            items
                .iter()
                .map(|i| to_json_at(i, depth + 1))
                .collect::<R<_>>()?,
        ),
        Value::Dict(d) => {
            let mut m = serde_json::Map::new();
            for (k, v) in &d.map {
                let Value::Str(key) = &k.0 else {
                    return Err(Error::unsupported(format!(
                        "a dict key of type {}",
                        k.0.type_name()
                    )));
                };
                m.insert(key.to_string(), to_json_at(v, depth + 1)?);
            }
            Json::Object(m)
        }
        other => {
            return Err(Error::unsupported(format!(
                "a result of type {}",
                other.type_name()
            )))
        }
    })
}
