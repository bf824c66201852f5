//! yaql's `collections` library: lists (tuples), dicts, sets.

use std::collections::VecDeque;
use std::rc::Rc;

use indexmap::IndexSet;

use super::super::engine::{limit_memory, Body, Bound, Engine};
use super::super::iter::{self, Kind};
use super::super::value::{self, Dict, Key, Map, Value, View};
use super::super::{Error, R};
use super::strings::count;
use super::{generator, int, py_len, slice_bounds, Lazy};

/// The table of bodies (one arm per function: long by nature).
#[allow(clippy::too_many_lines)]
pub(super) fn body(id: &str) -> Option<Body> {
    Some(match id {
        "collections.list_" => |eng, b| {
            let args = b.vals_from(0)?;
            let spread = iter::make(Kind::Spread {
                stack: vec![iter::iter_of(eng, &Value::tuple(args))?],
            });
            eng.method("to_list", &b.ctx, &spread)
        },
        "collections.set_" => |eng, b| {
            let args = b.vals_from(0)?;
            let spread = iter::make(Kind::Spread {
                stack: vec![iter::iter_of(eng, &Value::tuple(args))?],
            });
            eng.method("to_set", &b.ctx, &spread)
        },
        "collections.flatten" => |_, b| {
            Ok(iter::make(Kind::Flatten {
                src: b.val(0)?,
                stack: Vec::new(),
                started: false,
            }))
        },
        "collections.to_list" => |eng, b| match b.val(0)? {
            t @ Value::Tuple(_) => Ok(t),
            v => Ok(Value::tuple(iter::collect(eng, &v)?)),
        },
        "collections.build_list" => |_, b| {
            let args = b.vals_from(0)?;
            let parts: Vec<(i64, &Value)> = args.iter().map(|a| (1, a)).collect();
            limit_memory(&parts)?;
            Ok(Value::tuple(args))
        },
        "collections.dict_" => |_, b| {
            let args = b.vals_from(0)?;
            let parts: Vec<(i64, &Value)> = args.iter().map(|a| (1, a)).collect();
            limit_memory(&parts)?;
            let mut map = Map::new();
            for a in args {
                let Value::Rule(r) = a else {
                    return Err(Error::unsupported("a dict entry that is not a rule"));
                };
                map.insert(Key::new(r.0.clone())?, r.1.clone());
            }
            Ok(Value::dict(map, true))
        },
        "collections.dict__" => |eng, b| {
            let items = b.val(0)?;
            let it = iter::iter_of(eng, &items)?;
            let mut map = Map::new();
            while let Some(t) = iter::next(eng, &it)? {
                let inner = iter::iter_of(eng, &t)?;
                let stop = || Error::raised("StopIteration", "");
                let key = iter::next(eng, &inner)?.ok_or_else(stop)?;
                let value = iter::next(eng, &inner)?.ok_or_else(stop)?;
                map.insert(Key::new(key)?, value);
                limit_memory(&[(1, &Value::dict(map.clone(), false))])?;
            }
            Ok(Value::dict(map, true))
        },
        "collections.to_dict" => |eng, b| {
            let collection = b.val(0)?;
            let key = b.lambda(1)?;
            let val = b.lambda(2)?;
            let it = iter::iter_of(eng, &collection)?;
            let mut map = Map::new();
            while let Some(t) = iter::next(eng, &it)? {
                let k = match &key {
                    Some(l) => eng.call_lambda(l, vec![t.clone()])?,
                    None => {
                        return Err(Error::raised(
                            "TypeError",
                            "'NoneType' object is not callable",
                        ))
                    }
                };
                let v = match &val {
                    None => t,
                    Some(l) => eng.call_lambda(l, vec![t])?,
                };
                map.insert(Key::new(k)?, v);
                limit_memory(&[(1, &Value::dict(map.clone(), false))])?;
            }
            Ok(Value::dict(map, false))
        },
        "collections.dict_keyword_access" | "collections.dict_indexer" => |_, b| {
            let d = dict(&b.val(0)?)?;
            let key = b.val(1)?;
            let k = Key::new(key.clone())?;
            d.map.get(&k).cloned().ok_or_else(|| key_error(&key))
        },
        "collections.dict_indexer_with_default" | "collections.dict_get" => |_, b| {
            let d = dict(&b.val(0)?)?;
            let k = Key::new(b.val(1)?)?;
            Ok(d.map.get(&k).cloned().unwrap_or(b.val(2)?))
        },
        "collections.dict_set" => |_, b| {
            let (d, k, v) = (b.val(0)?, b.val(1)?, b.val(2)?);
            limit_memory(&[(1, &d), (1, &k), (1, &v)])?;
            let mut map = dict(&d)?.map.clone();
            map.insert(Key::new(k)?, v);
            Ok(Value::dict(map, true))
        },
        "collections.dict_set_many" => |_, b| {
            let (d, r) = (b.val(0)?, b.val(1)?);
            limit_memory(&[(1, &d), (1, &r)])?;
            let mut map = dict(&d)?.map.clone();
            for (k, v) in &dict(&r)?.map {
                map.insert(k.clone(), v.clone());
            }
            Ok(Value::dict(map, true))
        },
        "collections.dict_set_many_inline" => |_, b| {
            let d = b.val(0)?;
            let rules = b.vals_from(1)?;
            let mut parts: Vec<(i64, &Value)> = vec![(1, &d)];
            parts.extend(rules.iter().map(|r| (1, r)));
            limit_memory(&parts)?;
            let mut map = dict(&d)?.map.clone();
            for r in rules {
                let Value::Rule(r) = r else {
                    return Err(Error::unsupported("a dict entry that is not a rule"));
                };
                map.insert(Key::new(r.0.clone())?, r.1.clone());
            }
            Ok(Value::dict(map, true))
        },
        "collections.dict_keys" => |_, b| Ok(Value::View(dict(&b.val(0)?)?, View::Keys)),
        "collections.dict_values" => |_, b| Ok(Value::View(dict(&b.val(0)?)?, View::Values)),
        "collections.dict_items" => |_, b| Ok(Value::View(dict(&b.val(0)?)?, View::Items)),
        "collections.list_indexer" => |_, b| {
            let lst = b.val(0)?;
            let i = int(&b.val(1)?)?;
            let items = lst
                .as_seq()
                .ok_or_else(|| Error::unsupported("an index into something not a sequence"))?;
            index(items, i).ok_or_else(|| {
                Error::raised(
                    "IndexError",
                    format!("{} index out of range", lst.type_name()),
                )
            })
        },
        "collections.in_" => |eng, b| Ok(Value::Bool(contains(eng, &b.val(1)?, &b.val(0)?)?)),
        "collections.contains" => |eng, b| Ok(Value::Bool(contains(eng, &b.val(0)?, &b.val(1)?)?)),
        "collections.contains_key" => |_, b| {
            let d = dict(&b.val(0)?)?;
            Ok(Value::Bool(d.map.contains_key(&Key::new(b.val(1)?)?)))
        },
        "collections.contains_value" => |_, b| {
            let d = dict(&b.val(0)?)?;
            let v = b.val(1)?;
            Ok(Value::Bool(d.map.values().any(|x| value::eq(x, &v))))
        },
        "collections.combine_lists" => |_, b| {
            let (l, r) = (b.val(0)?, b.val(1)?);
            match (&l, &r) {
                (Value::Tuple(x), Value::Tuple(y)) => {
                    limit_memory(&[(1, &l), (1, &r)])?;
                    Ok(Value::tuple(x.iter().chain(y.iter()).cloned().collect()))
                }
                (Value::Set(x), Value::Set(y)) => {
                    limit_memory(&[(1, &l), (1, &r)])?;
                    Ok(Value::Set(Rc::new(
                        x.iter().chain(y.iter()).cloned().collect(),
                    )))
                }
                _ => Ok(chain(vec![l, r])),
            }
        },
        "collections.list_by_int" => |_, b| times(&b.val(0)?, &b.val(1)?),
        "collections.int_by_list" => |_, b| times(&b.val(1)?, &b.val(0)?),
        "collections.combine_dicts" => |_, b| {
            let (l, r) = (b.val(0)?, b.val(1)?);
            limit_memory(&[(1, &l), (1, &r)])?;
            let mut map = dict(&l)?.map.clone();
            for (k, v) in &dict(&r)?.map {
                map.insert(k.clone(), v.clone());
            }
            Ok(Value::dict(map, true))
        },
        "collections.is_list" => |_, b| {
            Ok(Value::Bool(matches!(
                b.val(0)?,
                Value::Tuple(_) | Value::List(_)
            )))
        },
        "collections.is_dict" => |_, b| Ok(Value::Bool(matches!(b.val(0)?, Value::Dict(_)))),
        "collections.is_set" => |_, b| {
            Ok(Value::Bool(matches!(
                b.val(0)?,
                Value::Set(_) | Value::View(_, View::Keys | View::Items)
            )))
        },
        "collections.dict_len" | "collections.sequence_len" | "collections.set_len" => |_, b| {
            py_len(&b.val(0)?)
                .map(count)
                .ok_or_else(|| Error::unsupported("the length of an object without one"))
        },
        "collections.delete" => |_, b| {
            let (mut src, position, n) = (Lazy::new(b.val(0)?), int(&b.val(1)?)?, int(&b.val(2)?)?);
            let mut i: i64 = -1;
            Ok(generator(move |eng| loop {
                let Some(t) = src.next(eng)? else {
                    return Ok(None);
                };
                i += 1;
                if !in_span(i, position, n) {
                    return Ok(Some(t));
                }
            }))
        },
        "collections.replace" => |_, b| {
            let (mut src, position, value, n) = (
                Lazy::new(b.val(0)?),
                int(&b.val(1)?)?,
                b.val(2)?,
                int(&b.val(3)?)?,
            );
            let mut i: i64 = -1;
            let mut yielded = false;
            Ok(generator(move |eng| loop {
                let Some(t) = src.next(eng)? else {
                    return Ok(None);
                };
                i += 1;
                if in_span(i, position, n) {
                    if !yielded {
                        yielded = true;
                        return Ok(Some(value.clone()));
                    }
                } else {
                    return Ok(Some(t));
                }
            }))
        },
        "collections.replace_many" => |_, b| {
            let (mut src, position, values, n) = (
                Lazy::new(b.val(0)?),
                int(&b.val(1)?)?,
                b.val(2)?,
                int(&b.val(3)?)?,
            );
            let mut i: i64 = -1;
            let mut yielded = false;
            let mut inserting: Option<Lazy> = None;
            Ok(generator(move |eng| loop {
                if let Some(ins) = &mut inserting {
                    if let Some(v) = ins.next(eng)? {
                        return Ok(Some(v));
                    }
                    inserting = None;
                }
                let Some(t) = src.next(eng)? else {
                    return Ok(None);
                };
                i += 1;
                if in_span(i, position, n) {
                    if !yielded {
                        yielded = true;
                        inserting = Some(Lazy::new(values.clone()));
                    }
                } else {
                    return Ok(Some(t));
                }
            }))
        },
        "collections.delete_keys" => |_, b| {
            let d = b.val(0)?;
            let keys = Value::tuple(b.vals_from(1)?);
            delete_keys(&d, &keys, None)
        },
        "collections.delete_keys_seq" => |eng, b| {
            let (d, keys) = (b.val(0)?, b.val(1)?);
            delete_keys(&d, &keys, Some(eng))
        },
        "collections.iter_insert" => |_, b| {
            let (mut src, position, value) = (Lazy::new(b.val(0)?), int(&b.val(1)?)?, b.val(2)?);
            let mut i: i64 = -1;
            let mut pending: VecDeque<Value> = VecDeque::new();
            let mut finished = false;
            Ok(generator(move |eng| {
                if let Some(v) = pending.pop_front() {
                    return Ok(Some(v));
                }
                if finished {
                    return Ok(None);
                }
                let Some(t) = src.next(eng)? else {
                    finished = true;
                    return Ok((position > i).then(|| value.clone()));
                };
                i += 1;
                if i == position {
                    pending.push_back(t);
                    return Ok(Some(value.clone()));
                }
                Ok(Some(t))
            }))
        },
        "collections.list_insert" => |_, b| {
            let items = b
                .val(0)?
                .as_seq()
                .ok_or_else(|| Error::unsupported("an insert into something not a sequence"))?
                .to_vec();
            let position = int(&b.val(1)?)?;
            let n = i64::try_from(items.len()).unwrap_or(i64::MAX);
            let at = if position < 0 {
                (position + n).max(0)
            } else {
                position.min(n)
            };
            let mut items = items;
            items.insert(usize::try_from(at).unwrap_or(0), b.val(2)?);
            Ok(Value::list(items))
        },
        "collections.insert_many" => |_, b| {
            let (mut src, position, values) = (Lazy::new(b.val(0)?), int(&b.val(1)?)?, b.val(2)?);
            let mut i: i64 = -1;
            let mut inserting: Option<Lazy> = (position < 0).then(|| Lazy::new(values.clone()));
            let mut held: Option<Value> = None;
            let mut finished = false;
            Ok(generator(move |eng| loop {
                if let Some(ins) = &mut inserting {
                    if let Some(v) = ins.next(eng)? {
                        return Ok(Some(v));
                    }
                    inserting = None;
                }
                if let Some(t) = held.take() {
                    return Ok(Some(t));
                }
                if finished {
                    return Ok(None);
                }
                let Some(t) = src.next(eng)? else {
                    finished = true;
                    if position > i {
                        inserting = Some(Lazy::new(values.clone()));
                        continue;
                    }
                    return Ok(None);
                };
                i += 1;
                if i == position {
                    inserting = Some(Lazy::new(values.clone()));
                    held = Some(t);
                    continue;
                }
                return Ok(Some(t));
            }))
        },
        "collections.to_set" => |eng, b| {
            let items = iter::collect(eng, &b.val(0)?)?;
            let set: IndexSet<Key> = items.into_iter().map(Key::new).collect::<R<_>>()?;
            Ok(Value::Set(Rc::new(set)))
        },
        "collections.union" => |_, b| set_op(b, |x, y| x.union(y).cloned().collect()),
        "collections.intersect" => |_, b| set_op(b, |x, y| x.intersection(y).cloned().collect()),
        "collections.difference" => |_, b| set_op(b, |x, y| x.difference(y).cloned().collect()),
        "collections.symmetric_difference" => {
            |_, b| set_op(b, |x, y| x.symmetric_difference(y).cloned().collect())
        }
        "collections.set_lt" => |_, b| {
            let (x, y) = (members(&b.val(0)?)?, members(&b.val(1)?)?);
            Ok(Value::Bool(x.len() < y.len() && x.is_subset(&y)))
        },
        "collections.set_lte" => |_, b| {
            let (x, y) = (members(&b.val(0)?)?, members(&b.val(1)?)?);
            Ok(Value::Bool(x.is_subset(&y)))
        },
        "collections.set_gt" => |_, b| {
            let (x, y) = (members(&b.val(0)?)?, members(&b.val(1)?)?);
            Ok(Value::Bool(x.len() > y.len() && y.is_subset(&x)))
        },
        "collections.set_gte" => |_, b| {
            let (x, y) = (members(&b.val(0)?)?, members(&b.val(1)?)?);
            Ok(Value::Bool(y.is_subset(&x)))
        },
        "collections.set_add" => |_, b| {
            let s = frozenset(&b.val(0)?, "union")?;
            let mut out = (*s).clone();
            for v in b.vals_from(1)? {
                out.insert(Key::new(v)?);
            }
            Ok(Value::Set(Rc::new(out)))
        },
        "collections.set_remove" => |_, b| {
            let s = frozenset(&b.val(0)?, "difference")?;
            let mut out = (*s).clone();
            for v in b.vals_from(1)? {
                out.shift_remove(&Key::new(v)?);
            }
            Ok(Value::Set(Rc::new(out)))
        },
        _ => return None,
    })
}

/// `delete`'s and `replace`'s span: `count` items from `position`, or
/// all from it when `count` is negative.
fn in_span(i: i64, position: i64, count: i64) -> bool {
    if count >= 0 {
        position <= i && i < position.saturating_add(count)
    } else {
        i >= position
    }
}

pub(super) fn dict(v: &Value) -> R<Rc<Dict>> {
    match v {
        Value::Dict(d) => Ok(d.clone()),
        other => Err(Error::unsupported(format!(
            "a {} where yaql's types promise a dict",
            other.type_name()
        ))),
    }
}

/// Python's `KeyError(key)`: its text is the key's `repr`.
fn key_error(key: &Value) -> Error {
    Error::raised(
        "KeyError",
        value::repr(key).unwrap_or_else(|_| value::shown(key)),
    )
}

/// `seq[i]`.
pub(super) fn index(items: &[Value], i: i64) -> Option<Value> {
    let n = i64::try_from(items.len()).ok()?;
    let i = if i < 0 { i + n } else { i };
    usize::try_from(i).ok().and_then(|i| items.get(i)).cloned()
}

/// `itertools.chain(*collections)`.
pub(super) fn chain(collections: Vec<Value>) -> Value {
    iter::make(Kind::Chain {
        rest: collections.into(),
        cur: None,
    })
}

/// `value in collection`.
pub(super) fn contains(eng: &Engine, collection: &Value, v: &Value) -> R<bool> {
    match collection {
        Value::Tuple(items) | Value::List(items) => Ok(items.iter().any(|x| value::eq(x, v))),
        Value::Dict(d) | Value::View(d, View::Keys) => {
            Ok(d.map.contains_key(&Key::new(v.clone())?))
        }
        Value::Set(s) => Ok(s.contains(&Key::new(v.clone())?)),
        Value::View(d, View::Values) => Ok(d.map.values().any(|x| value::eq(x, v))),
        Value::View(d, View::Items) => {
            // ItemsView: `key, value = item` first.
            let pair = match v {
                Value::Tuple(p) | Value::List(p) if p.len() == 2 => p.clone(),
                _ => return Err(Error::unsupported("`in` of a non-pair in a dict's items")),
            };
            Ok(match d.map.get(&Key::new(pair[0].clone())?) {
                Some(x) => value::eq(x, &pair[1]),
                None => false,
            })
        }
        other => {
            let it = iter::iter_of(eng, other)?;
            while let Some(x) = iter::next(eng, &it)? {
                if value::eq(&x, v) {
                    return Ok(true);
                }
            }
            Ok(false)
        }
    }
}

/// `seq * n` after yaql's memory check.
fn times(seq: &Value, n: &Value) -> R<Value> {
    let n = int(n)?;
    limit_memory(&[(1 - n, &Value::list(Vec::new())), (n, seq)])?;
    let items = seq
        .as_seq()
        .ok_or_else(|| Error::unsupported("a product of something not a sequence"))?;
    let k = usize::try_from(n).unwrap_or(0);
    let out: Vec<Value> = std::iter::repeat_n(items.iter(), k)
        .flatten()
        .cloned()
        .collect();
    Ok(match seq {
        Value::List(_) => Value::list(out),
        _ => Value::tuple(out),
    })
}

/// `copy = dict(d); for t in keys: copy.pop(t, None)`.
fn delete_keys(d: &Value, keys: &Value, eng: Option<&Engine>) -> R<Value> {
    let d = dict(d)?;
    let mut map = d.map.clone();
    let keys = match eng {
        Some(eng) => iter::collect(eng, keys)?,
        None => keys.as_seq().map(|k| k.to_vec()).unwrap_or_default(),
    };
    for k in keys {
        map.shift_remove(&Key::new(k)?);
    }
    Ok(Value::Dict(Rc::new(Dict {
        map,
        frozen: false,
        high: d.high.max(d.map.len()),
    })))
}

/// The members of a set-like value.
fn members(v: &Value) -> R<IndexSet<Key>> {
    match v {
        Value::Set(s) => Ok((**s).clone()),
        Value::View(d, View::Keys) => Ok(d.map.keys().cloned().collect()),
        Value::View(d, View::Items) => d
            .map
            .iter()
            .map(|(k, v)| Key::new(Value::tuple(vec![k.0.clone(), v.clone()])))
            .collect(),
        other => Err(Error::unsupported(format!(
            "a {} as a set",
            other.type_name()
        ))),
    }
}

/// A frozenset's method: dict views have none.
fn frozenset(v: &Value, method: &str) -> R<Rc<IndexSet<Key>>> {
    match v {
        Value::Set(s) => Ok(s.clone()),
        other => Err(Error::raised(
            "AttributeError",
            format!("'{}' object has no attribute '{method}'", other.type_name()),
        )),
    }
}

fn set_op(b: &Bound, f: fn(&IndexSet<Key>, &IndexSet<Key>) -> IndexSet<Key>) -> R<Value> {
    let method = match &*b.name {
        "union" => "union",
        "intersect" => "intersection",
        "symmetricDifference" => "symmetric_difference",
        _ => "difference",
    };
    let left = frozenset(&b.val(0)?, method)?;
    let right = members(&b.val(1)?)?;
    Ok(Value::Set(Rc::new(f(&left, &right))))
}

/// Python's `lst[a:b]` of a tuple.
pub(super) fn slice(items: &[Value], start: Option<i64>, stop: Option<i64>) -> Value {
    let (a, z) = slice_bounds(items.len(), start, stop);
    Value::tuple(items[a..z].to_vec())
}
