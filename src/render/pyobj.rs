//! Python's `list` and `dict` as minijinja objects that can change in
//! place, for the idiom TripleO's templates use to get around Jinja's
//! scoping: `{% set _ = roles_seen.append(role) %}`, `.pop()`,
//! `.update({...})`.
//!
//! minijinja's own sequences and maps are immutable (`Arc`s shared by
//! every copy of a value), and nothing in its API rebinds a variable, so
//! these objects hold their items behind a lock. Everything else a
//! template does with them (printing, iterating, `len`, truthiness, `in`,
//! `==`, subscripts, `is sequence`/`is mapping`, `+`, the filters) goes
//! through the engine's generic handling of a `Seq` or `Map` object, the
//! same code that serves its native vectors and maps: a `PyList` prints
//! `['a', 'b']` exactly as a native list does. Non-mutating methods
//! (`.get`, `.items`, `.keys`, `.count`, ...) are left to pycompat.

use std::fmt;
use std::sync::{Arc, Mutex, MutexGuard};

use indexmap::IndexMap;
use minijinja::value::{from_args, Enumerator, Object, ObjectRepr, Value, ValueKind};
use minijinja::{Error, ErrorKind, State};

/// A Python `list`.
#[derive(Default)]
pub(crate) struct PyList(Mutex<Vec<Value>>);

/// A Python `dict` (insertion order, as Python 3.7+).
#[derive(Default)]
pub(crate) struct PyDict(Mutex<IndexMap<Value, Value>>);

/// Charges the render's fuel for a method's work on `items` items (one
/// unit for the call, and half a unit a slot, minijinja's own price of a
/// list slot): without it, `l.extend(l)` in a loop doubles a list per
/// instruction, past any memory.
fn charge(state: &State<'_, '_>, items: usize) -> Result<(), Error> {
    state.consume_fuel(1 + u64::try_from(items / 2).unwrap_or(u64::MAX))
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic while holding the lock cannot leave the items half-changed
    // (every change is one call on the collection): keep going.
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl fmt::Debug for PyList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(lock(&self.0).iter()).finish()
    }
}

impl fmt::Debug for PyDict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(lock(&self.0).iter()).finish()
    }
}

impl PyList {
    /// A new list holding `items`.
    pub(crate) fn value(items: Vec<Value>) -> Value {
        Value::from_object(PyList(Mutex::new(items)))
    }
}

impl PyDict {
    /// A new dict holding `items`.
    pub(crate) fn value(items: IndexMap<Value, Value>) -> Value {
        Value::from_object(PyDict(Mutex::new(items)))
    }
}

fn python_error(kind: &str, message: impl Into<String>) -> Error {
    Error::new(
        ErrorKind::InvalidOperation,
        format!("{kind}: {}", message.into()),
    )
}

/// Python's index rules for `pop(i)` and `insert(i, x)`: negative counts
/// from the end.
fn python_index(i: i64, len: usize) -> Option<usize> {
    let len = i64::try_from(len).ok()?;
    let at = if i < 0 { i + len } else { i };
    usize::try_from(at).ok()
}

impl Object for PyList {
    fn repr(self: &Arc<Self>) -> ObjectRepr {
        ObjectRepr::Seq
    }

    fn get_value(self: &Arc<Self>, key: &Value) -> Option<Value> {
        lock(&self.0).get(key.as_usize()?).cloned()
    }

    fn enumerate(self: &Arc<Self>) -> Enumerator {
        Enumerator::Seq(lock(&self.0).len())
    }

    fn enumerator_len(self: &Arc<Self>) -> Option<usize> {
        Some(lock(&self.0).len())
    }

    fn call_method(
        self: &Arc<Self>,
        state: &mut State<'_, '_>,
        method: &str,
        args: &[Value],
    ) -> Result<Value, Error> {
        // `append` and `pop` touch an item or two, `extend` as many as it
        // adds (below); the others at most every item.
        let len = lock(&self.0).len();
        charge(
            state,
            if matches!(method, "append" | "pop" | "extend") {
                0
            } else {
                len
            },
        )?;
        match method {
            "append" => {
                let (x,): (Value,) = from_args(args)?;
                lock(&self.0).push(mutable(x));
                Ok(Value::from(()))
            }
            "extend" => {
                let (xs,): (Value,) = from_args(args)?;
                // Charged before the items are copied when their number
                // is known.
                let known = xs.len();
                charge(state, known.unwrap_or(0))?;
                let new: Vec<Value> = xs.try_iter()?.map(mutable).collect();
                if known.is_none() {
                    charge(state, new.len())?;
                }
                lock(&self.0).extend(new);
                Ok(Value::from(()))
            }
            "insert" => {
                let (i, x): (i64, Value) = from_args(args)?;
                let mut items = lock(&self.0);
                let at = python_index(i, items.len()).unwrap_or(0).min(items.len());
                items.insert(at, mutable(x));
                Ok(Value::from(()))
            }
            "pop" => {
                let (i,): (Option<i64>,) = from_args(args)?;
                let mut items = lock(&self.0);
                if items.is_empty() {
                    return Err(python_error("IndexError", "pop from empty list"));
                }
                let at = match i {
                    None => Some(items.len() - 1),
                    Some(i) => python_index(i, items.len()).filter(|&a| a < items.len()),
                };
                at.map(|a| items.remove(a))
                    .ok_or_else(|| python_error("IndexError", "pop index out of range"))
            }
            "remove" => {
                let (x,): (Value,) = from_args(args)?;
                let mut items = lock(&self.0);
                let at = items
                    .iter()
                    .position(|v| *v == x)
                    .ok_or_else(|| python_error("ValueError", "list.remove(x): x not in list"))?;
                items.remove(at);
                Ok(Value::from(()))
            }
            "clear" => {
                let () = from_args(args)?;
                lock(&self.0).clear();
                Ok(Value::from(()))
            }
            "reverse" => {
                let () = from_args(args)?;
                lock(&self.0).reverse();
                Ok(Value::from(()))
            }
            "index" => {
                let (x,): (Value,) = from_args(args)?;
                lock(&self.0)
                    .iter()
                    .position(|v| *v == x)
                    .map(Value::from)
                    .ok_or_else(|| python_error("ValueError", format!("{x:?} is not in list")))
            }
            "copy" => {
                let () = from_args(args)?;
                Ok(PyList::value(lock(&self.0).clone()))
            }
            _ => Err(Error::from(ErrorKind::UnknownMethod)),
        }
    }
}

impl Object for PyDict {
    fn repr(self: &Arc<Self>) -> ObjectRepr {
        ObjectRepr::Map
    }

    fn get_value(self: &Arc<Self>, key: &Value) -> Option<Value> {
        lock(&self.0).get(key).cloned()
    }

    fn enumerate(self: &Arc<Self>) -> Enumerator {
        // A snapshot, so a template that changes the dict while it loops
        // over it does not deadlock (Python would raise instead).
        let pairs: Vec<(Value, Value)> = lock(&self.0)
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        Enumerator::KeyValueIter(Box::new(pairs.into_iter()))
    }

    fn enumerator_len(self: &Arc<Self>) -> Option<usize> {
        Some(lock(&self.0).len())
    }

    fn call_method(
        self: &Arc<Self>,
        state: &mut State<'_, '_>,
        method: &str,
        args: &[Value],
    ) -> Result<Value, Error> {
        // `copy` copies every entry; the others touch one (`update`: below).
        let len = lock(&self.0).len();
        charge(state, if method == "copy" { len } else { 0 })?;
        match method {
            "update" => {
                let (other,): (Option<Value>,) = from_args(args)?;
                let Some(other) = other else {
                    return Ok(Value::from(()));
                };
                let pairs: Vec<(Value, Value)> = if other.kind() == ValueKind::Map {
                    other
                        .try_iter()?
                        .map(|k| {
                            let v = other.get_item(&k).unwrap_or_default();
                            (k, v)
                        })
                        .collect()
                } else {
                    // A sequence of pairs, as `dict.update` takes.
                    let mut pairs = Vec::new();
                    for pair in other.try_iter()? {
                        let mut it = pair.try_iter()?;
                        match (it.next(), it.next(), it.next()) {
                            (Some(k), Some(v), None) => pairs.push((k, v)),
                            _ => {
                                return Err(python_error(
                                    "ValueError",
                                    "dictionary update sequence element has the wrong length",
                                ))
                            }
                        }
                    }
                    pairs
                };
                charge(state, pairs.len())?;
                let mut items = lock(&self.0);
                for (k, v) in pairs {
                    items.insert(k, mutable(v));
                }
                Ok(Value::from(()))
            }
            "pop" => {
                let (k, default): (Value, Option<Value>) = from_args(args)?;
                let removed = lock(&self.0).shift_remove(&k);
                removed
                    .or(default)
                    .ok_or_else(|| python_error("KeyError", format!("{k:?}")))
            }
            "popitem" => {
                let () = from_args(args)?;
                lock(&self.0)
                    .pop()
                    .map(|(k, v)| Value::from(vec![k, v]))
                    .ok_or_else(|| python_error("KeyError", "'popitem(): dictionary is empty'"))
            }
            "setdefault" => {
                let (k, default): (Value, Option<Value>) = from_args(args)?;
                let mut items = lock(&self.0);
                Ok(items
                    .entry(k)
                    .or_insert_with(|| mutable(default.unwrap_or(Value::from(()))))
                    .clone())
            }
            "clear" => {
                let () = from_args(args)?;
                lock(&self.0).clear();
                Ok(Value::from(()))
            }
            "copy" => {
                let () = from_args(args)?;
                Ok(PyDict::value(lock(&self.0).clone()))
            }
            _ => Err(Error::from(ErrorKind::UnknownMethod)),
        }
    }
}

/// `value` as a Python object a template can change: a native sequence or
/// map (a literal, a concatenation) becomes a new [`PyList`] or [`PyDict`],
/// its items too; a `PyList` or `PyDict` is kept as it is (the same
/// object, as Python shares it); anything else is returned unchanged.
pub(crate) fn mutable(value: Value) -> Value {
    if value.downcast_object_ref::<PyList>().is_some()
        || value.downcast_object_ref::<PyDict>().is_some()
        || value.is_tuple()
    {
        return value;
    }
    match value.kind() {
        ValueKind::Seq | ValueKind::Iterable => match value.try_iter() {
            Ok(items) => PyList::value(items.map(mutable).collect()),
            Err(_) => value,
        },
        ValueKind::Map => match value.try_iter() {
            Ok(keys) => PyDict::value(
                keys.map(|k| {
                    let v = value.get_item(&k).unwrap_or_default();
                    (k, mutable(v))
                })
                .collect(),
            ),
            Err(_) => value,
        },
        _ => value,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use minijinja::{AutoEscape, Environment};

    fn render(src: &str) -> Result<String, Error> {
        let mut env = Environment::new();
        env.set_auto_escape_callback(|_| AutoEscape::None);
        env.set_unknown_method_callback(minijinja_contrib::pycompat::unknown_method_callback);
        env.add_function("m", mutable);
        env.render_str(src, ())
    }

    #[test]
    fn a_mutable_list_prints_and_behaves_as_a_native_one() {
        let native = render(
            "{% set x = [1, 'a', None, True, {'k': [2]}] %}{{ x }}|{{ x|length }}|{{ 'a' in x }}|{{ x[1] }}|{{ x[-1] }}|{{ x == [1, 'a', None, True, {'k': [2]}] }}|{% for i in x %}{{ i }},{% endfor %}|{{ x is sequence }}|{{ x|join('-') }}|{% if x %}t{% endif %}|{{ x + [3] }}|{{ x[1:3] }}|{{ x|reverse|list }}",
        )
        .unwrap();
        let ours = render(
            "{% set x = m([1, 'a', None, True, {'k': [2]}]) %}{{ x }}|{{ x|length }}|{{ 'a' in x }}|{{ x[1] }}|{{ x[-1] }}|{{ x == [1, 'a', None, True, {'k': [2]}] }}|{% for i in x %}{{ i }},{% endfor %}|{{ x is sequence }}|{{ x|join('-') }}|{% if x %}t{% endif %}|{{ x + [3] }}|{{ x[1:3] }}|{{ x|reverse|list }}",
        )
        .unwrap();
        assert_eq!(ours, native);
        assert_eq!(
            render("{% if m([]) %}t{% else %}f{% endif %}").unwrap(),
            "f"
        );
    }

    #[test]
    fn a_mutable_dict_prints_and_behaves_as_a_native_one() {
        let src = "{{ d }}|{{ d.b }}|{{ d['a'] }}|{{ d|length }}|{{ 'a' in d }}|{{ d.get('z', 5) }}|{% for k, v in d.items() %}{{ k }}={{ v }};{% endfor %}|{{ d is mapping }}|{{ d.keys()|list }}";
        let native = render(&format!("{{% set d = {{'b': 1, 'a': [2]}} %}}{src}")).unwrap();
        let ours = render(&format!("{{% set d = m({{'b': 1, 'a': [2]}}) %}}{src}")).unwrap();
        assert_eq!(ours, native);
        assert_eq!(
            native,
            "{'b': 1, 'a': [2]}|1|[2]|2|True|5|b=1;a=[2];|True|['b', 'a']"
        );
    }

    #[test]
    fn lists_change_in_place_as_python_lists_do() {
        let out = render(
            "{% set x = m([]) %}{% set _ = x.append(1) %}{% if x.append('2') %}{% endif %}{% for i in range(2) %}{% set _ = x.append(i) %}{% endfor %}{{ x }}|{{ x.pop() }}|{{ x.pop(0) }}|{{ x }}|{% set _ = x.insert(0, 'a') %}{% set _ = x.extend([7, 8]) %}{% set _ = x.remove(7) %}{{ x }}|{{ x.index(8) }}",
        )
        .unwrap();
        assert_eq!(out, "[1, '2', 0, 1]|1|1|['2', 0]|['a', '2', 0, 8]|3");
        let err = render("{% set x = m([]) %}{{ x.pop() }}").unwrap_err();
        assert!(
            err.to_string().contains("IndexError: pop from empty list"),
            "{err}"
        );
    }

    #[test]
    fn dicts_change_in_place_as_python_dicts_do() {
        let out = render(
            "{% set d = m({'a': 1}) %}{% set _ = d.update({'b': 2, 'a': 3}) %}{{ d }}|{{ d.pop('a') }}|{{ d.pop('z', 'no') }}|{{ d.setdefault('c', []) }}|{% set _ = d.c.append(1) %}{{ d }}|{% set _ = d.update([('e', 5)]) %}{{ d }}",
        )
        .unwrap();
        assert_eq!(
            out,
            "{'a': 3, 'b': 2}|3|no|[]|{'b': 2, 'c': [1]}|{'b': 2, 'c': [1], 'e': 5}"
        );
    }

    #[test]
    fn objects_keep_their_identity_as_python_shares_them() {
        let out =
            render("{% set a = m([]) %}{% set b = m([a, a]) %}{% set _ = a.append(1) %}{{ b }}")
                .unwrap();
        assert_eq!(out, "[[1], [1]]");
    }
}
