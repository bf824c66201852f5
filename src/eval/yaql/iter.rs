//! Python's iterators, as yaql's library makes them: `map`, `filter`,
//! `itertools` and the library's generators. They are lazy and consumed
//! once, as in Python: a `where` whose later items would fail does not
//! fail when only its first item is taken, and a 201st item fails only
//! when it is taken.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;

use indexmap::IndexSet;

use super::engine::{limit_memory, too_large, Arg, Ctx, Engine, Lambda, LIMIT_ITERATORS};
use super::parser::Expr;
use super::value::{Dict, Key, Value, View};
use super::{Error, R};

/// A generator's body: its next value, or `None` when it is done.
pub(super) type GenFn = dyn FnMut(&Engine) -> R<Option<Value>>;

/// A Python iterator object.
pub(super) type IterRef = Rc<RefCell<PyIter>>;

pub(super) struct PyIter {
    kind: Kind,
    done: bool,
}

/// What a `map` applies.
pub(super) enum MapFn {
    Lambda(Lambda),
    /// `collection_attribution`: `#operator_.` of each item and a name.
    Attribute {
        name: Expr,
        ctx: Ctx,
    },
    /// `groupBy`'s aggregator over `(key, values)` pairs.
    Group(Rc<RefCell<GroupAggregator>>),
}

/// `queries.GroupAggregator`: the aggregator is given each group's values;
/// once that fails, yaql 1.1.1's form (given the pair) is tried.
pub(super) struct GroupAggregator {
    pub(super) aggregator: Option<Lambda>,
    pub(super) allow_fallback: bool,
    pub(super) failure: Option<Error>,
}

pub(super) enum Kind {
    /// Over a sequence (`name`: Python's type of the iterator).
    Seq {
        items: Rc<[Value]>,
        pos: usize,
        name: &'static str,
    },
    Chars {
        chars: Vec<char>,
        pos: usize,
    },
    Dict {
        dict: Rc<Dict>,
        view: View,
        name: &'static str,
        pos: usize,
    },
    Filter {
        src: IterRef,
        pred: Lambda,
    },
    Map {
        src: IterRef,
        f: MapFn,
    },
    Islice {
        src: IterRef,
        start: usize,
        stop: Option<usize>,
        pos: usize,
    },
    Chain {
        rest: VecDeque<Value>,
        cur: Option<IterRef>,
    },
    /// `limit_iterable`'s generator.
    Limited {
        src: Value,
        it: Option<IterRef>,
        i: usize,
    },
    Flatten {
        src: Value,
        stack: Vec<IterRef>,
        started: bool,
    },
    SelectMany {
        src: Value,
        it: Option<IterRef>,
        f: Lambda,
        inner: Option<IterRef>,
    },
    Distinct {
        src: Value,
        it: Option<IterRef>,
        key: Option<Lambda>,
        seen: IndexSet<Key>,
    },
    Enumerate {
        src: Value,
        it: Option<IterRef>,
        i: i64,
    },
    Append {
        src: Value,
        it: Option<IterRef>,
        extra: VecDeque<Value>,
    },
    Zip {
        srcs: Vec<IterRef>,
    },
    ZipLongest {
        srcs: Vec<Option<IterRef>>,
        fill: Value,
    },
    Range {
        cur: i64,
        stop: i64,
        step: i64,
    },
    Count {
        cur: i64,
        step: i64,
    },
    Repeat {
        value: Value,
        left: Option<i64>,
    },
    Cycle {
        src: IterRef,
        saved: Vec<Value>,
        pos: Option<usize>,
    },
    TakeWhile {
        src: IterRef,
        pred: Lambda,
    },
    DropWhile {
        src: IterRef,
        pred: Lambda,
        dropping: bool,
    },
    /// `memorize`: a shared record of what the source gave.
    Memo {
        shared: Rc<RefCell<Memo>>,
        index: usize,
    },
    /// `list()`'s and `set()`'s arguments, iterators spread.
    Spread {
        stack: Vec<IterRef>,
    },
    /// A generator that yields values computed on demand by a closure.
    Gen(Box<GenFn>),
}

/// `queries.OrderingIterable`: a collection and its sort keys, sorted on
/// the first iteration.
pub(super) struct Ordering {
    pub(super) collection: Value,
    /// Each key's selector, ascending or not.
    pub(super) order: Vec<(Lambda, bool)>,
    pub(super) sorted: Option<Rc<[Value]>>,
}

pub(super) struct Memo {
    src: IterRef,
    seen: Vec<Value>,
}

/// An iterator value.
pub(super) fn make(kind: Kind) -> Value {
    Value::Iter(Rc::new(RefCell::new(PyIter { kind, done: false })))
}

/// `limit_iterable`'s lazy case: the source is iterated on the first
/// `next`, and its 201st item fails.
pub(super) fn limited(v: Value) -> Value {
    make(Kind::Limited {
        src: v,
        it: None,
        i: 0,
    })
}

impl PyIter {
    pub(super) fn type_name(&self) -> &'static str {
        match self.kind {
            Kind::Seq { name, .. } | Kind::Dict { name, .. } => name,
            Kind::Chars { ref chars, .. } if chars.iter().all(char::is_ascii) => {
                "str_ascii_iterator"
            }
            Kind::Chars { .. } => "str_iterator",
            Kind::Filter { .. } => "filter",
            Kind::Map { .. } => "map",
            Kind::Islice { .. } => "itertools.islice",
            Kind::Chain { .. } => "itertools.chain",
            Kind::Zip { .. } => "zip",
            Kind::ZipLongest { .. } => "itertools.zip_longest",
            Kind::Range { .. } => "range_iterator",
            Kind::Count { .. } => "itertools.count",
            Kind::Repeat { .. } => "itertools.repeat",
            Kind::Cycle { .. } => "itertools.cycle",
            Kind::TakeWhile { .. } => "itertools.takewhile",
            Kind::DropWhile { .. } => "itertools.dropwhile",
            Kind::Memo { .. } => "RememberingIterator",
            _ => "generator",
        }
    }
}

/// Python's `iter(v)`.
pub(super) fn iter_of(eng: &Engine, v: &Value) -> R<IterRef> {
    let kind = match v {
        Value::Iter(it) => {
            // A RememberingIterator's `__iter__` starts again.
            let memo = match &it.borrow().kind {
                Kind::Memo { shared, .. } => Some(shared.clone()),
                _ => None,
            };
            match memo {
                Some(shared) => Kind::Memo { shared, index: 0 },
                None => return Ok(it.clone()),
            }
        }
        Value::Tuple(items) => Kind::Seq {
            items: items.clone(),
            pos: 0,
            name: "tuple_iterator",
        },
        Value::List(items) => Kind::Seq {
            items: items.clone(),
            pos: 0,
            name: "list_iterator",
        },
        Value::Str(s) => Kind::Chars {
            chars: s.chars().collect(),
            pos: 0,
        },
        Value::Dict(d) => Kind::Dict {
            dict: d.clone(),
            view: View::Keys,
            pos: 0,
            name: "dict_keyiterator",
        },
        Value::View(d, view) => Kind::Dict {
            dict: d.clone(),
            view: *view,
            pos: 0,
            // A FrozenDict's views iterate with the ABC's generators.
            name: match (d.frozen, view) {
                (true, _) => "generator",
                (false, View::Keys) => "dict_keyiterator",
                (false, View::Values) => "dict_valueiterator",
                (false, View::Items) => "dict_itemiterator",
            },
        },
        Value::Set(s) if s.len() <= 1 => Kind::Seq {
            items: s.iter().map(|k| k.0.clone()).collect(),
            pos: 0,
            name: "set_iterator",
        },
        Value::Set(_) => {
            return Err(Error::unsupported(
                "a set is iterated in Python's hash order",
            ))
        }
        Value::Ordering(o) => {
            let sorted = super::library::sorted(eng, o)?;
            Kind::Seq {
                items: sorted,
                pos: 0,
                name: "list_iterator",
            }
        }
        other => {
            return Err(Error::raised(
                "TypeError",
                format!("'{}' object is not iterable", other.type_name()),
            ))
        }
    };
    Ok(Rc::new(RefCell::new(PyIter { kind, done: false })))
}

/// `next(it)`: `None` when it is exhausted.
pub(super) fn next(eng: &Engine, it: &IterRef) -> R<Option<Value>> {
    eng.step()?;
    let Ok(mut s) = it.try_borrow_mut() else {
        return Err(Error::unsupported(
            "an iterator taken from while it computes its next item",
        ));
    };
    if s.done {
        return Ok(None);
    }
    let r = advance(eng, &mut s.kind);
    if !matches!(r, Ok(Some(_))) {
        s.done = true;
    }
    r
}

/// `list(v)`: every item.
pub(super) fn collect(eng: &Engine, v: &Value) -> R<Vec<Value>> {
    if let Value::Tuple(items) | Value::List(items) = v {
        return Ok(items.to_vec());
    }
    let it = iter_of(eng, v)?;
    let mut out = Vec::new();
    while let Some(x) = next(eng, &it)? {
        out.push(x);
    }
    Ok(out)
}

/// The iterator of a generator's source, made on its first `next`.
fn source<'a>(eng: &Engine, src: &Value, it: &'a mut Option<IterRef>) -> R<&'a IterRef> {
    if it.is_none() {
        *it = Some(iter_of(eng, src)?);
    }
    Ok(it.as_ref().unwrap_or_else(|| unreachable!()))
}

/// `utils.is_iterable`: iterable, but not a string or a mapping.
pub(super) fn is_iterable(v: &Value) -> bool {
    matches!(
        v,
        Value::Tuple(_)
            | Value::List(_)
            | Value::Set(_)
            | Value::View(..)
            | Value::Iter(_)
            | Value::Ordering(_)
    )
}

#[allow(clippy::too_many_lines)]
fn advance(eng: &Engine, kind: &mut Kind) -> R<Option<Value>> {
    match kind {
        Kind::Seq { items, pos, .. } => {
            let v = items.get(*pos).cloned();
            *pos += 1;
            Ok(v)
        }
        Kind::Chars { chars, pos } => {
            let v = chars.get(*pos).map(|c| Value::str(&c.to_string()));
            *pos += 1;
            Ok(v)
        }
        Kind::Dict {
            dict, view, pos, ..
        } => {
            let v = dict.map.get_index(*pos).map(|(k, v)| match view {
                View::Keys => k.0.clone(),
                View::Values => v.clone(),
                View::Items => Value::tuple(vec![k.0.clone(), v.clone()]),
            });
            *pos += 1;
            Ok(v)
        }
        Kind::Filter { src, pred } => loop {
            let Some(x) = next(eng, src)? else {
                return Ok(None);
            };
            if eng.call_lambda(pred, vec![x.clone()])?.truthy() {
                return Ok(Some(x));
            }
        },
        Kind::Map { src, f } => {
            let Some(x) = next(eng, src)? else {
                return Ok(None);
            };
            Ok(Some(match f {
                MapFn::Lambda(l) => eng.call_lambda(l, vec![x])?,
                MapFn::Attribute { name, ctx } => eng.call(
                    "#operator_.",
                    &ctx.child(),
                    vec![Arg::Val(x), Arg::Expr(name.clone())],
                    Vec::new(),
                    None,
                    true,
                )?,
                MapFn::Group(g) => super::library::aggregate_group(eng, g, x)?,
            }))
        }
        Kind::Islice {
            src,
            start,
            stop,
            pos,
        } => {
            while *pos < *start {
                if stop.is_some_and(|s| *pos >= s) {
                    return Ok(None);
                }
                if next(eng, src)?.is_none() {
                    return Ok(None);
                }
                *pos += 1;
            }
            if stop.is_some_and(|s| *pos >= s) {
                return Ok(None);
            }
            let v = next(eng, src)?;
            *pos += 1;
            Ok(v)
        }
        Kind::Chain { rest, cur } => loop {
            if let Some(c) = cur {
                if let Some(v) = next(eng, c)? {
                    return Ok(Some(v));
                }
            }
            let Some(n) = rest.pop_front() else {
                return Ok(None);
            };
            *cur = Some(iter_of(eng, &n)?);
        },
        Kind::Limited { src, it, i } => {
            let it = source(eng, src, it)?;
            let Some(v) = next(eng, it)? else {
                return Ok(None);
            };
            if *i >= LIMIT_ITERATORS {
                return Err(too_large());
            }
            *i += 1;
            Ok(Some(v))
        }
        Kind::Flatten {
            src,
            stack,
            started,
        } => {
            if !*started {
                *started = true;
                stack.push(iter_of(eng, src)?);
            }
            while let Some(top) = stack.last().cloned() {
                match next(eng, &top)? {
                    None => {
                        stack.pop();
                    }
                    // `yield from flatten(t)`: a Python call, not yaql's
                    // (no limit on the inner collections).
                    Some(t) if is_iterable(&t) => stack.push(iter_of(eng, &t)?),
                    Some(t) => return Ok(Some(t)),
                }
            }
            Ok(None)
        }
        Kind::SelectMany { src, it, f, inner } => loop {
            if let Some(i) = inner {
                if let Some(v) = next(eng, i)? {
                    return Ok(Some(v));
                }
                *inner = None;
            }
            let s = source(eng, src, it)?;
            let Some(item) = next(eng, s)? else {
                return Ok(None);
            };
            let produced = eng.call_lambda(f, vec![item])?;
            if is_iterable(&produced) {
                *inner = Some(iter_of(eng, &produced)?);
            } else {
                return Ok(Some(produced));
            }
        },
        Kind::Distinct { src, it, key, seen } => {
            let s = source(eng, src, it)?.clone();
            loop {
                let Some(t) = next(eng, &s)? else {
                    return Ok(None);
                };
                let k = match key {
                    None => t.clone(),
                    Some(l) => eng.call_lambda(l, vec![t.clone()])?,
                };
                let k = Key::new(k)?;
                if !seen.contains(&k) {
                    seen.insert(k);
                    check_set_size(seen.len())?;
                    return Ok(Some(t));
                }
            }
        }
        Kind::Enumerate { src, it, i } => {
            let s = source(eng, src, it)?;
            let Some(t) = next(eng, s)? else {
                return Ok(None);
            };
            let v = Value::list(vec![Value::Int(*i), t]);
            *i += 1;
            Ok(Some(v))
        }
        Kind::Append { src, it, extra } => {
            let s = source(eng, src, it)?;
            if let Some(v) = next(eng, s)? {
                return Ok(Some(v));
            }
            Ok(extra.pop_front())
        }
        Kind::Zip { srcs } => {
            if srcs.is_empty() {
                return Ok(None);
            }
            let mut out = Vec::with_capacity(srcs.len());
            for s in srcs.iter() {
                match next(eng, s)? {
                    Some(v) => out.push(v),
                    None => return Ok(None),
                }
            }
            Ok(Some(Value::tuple(out)))
        }
        Kind::ZipLongest { srcs, fill } => {
            let mut out = Vec::with_capacity(srcs.len());
            let mut any = false;
            for slot in srcs.iter_mut() {
                let taken = match slot {
                    Some(s) => next(eng, s)?,
                    None => None,
                };
                let v = if let Some(v) = taken {
                    any = true;
                    v
                } else {
                    *slot = None;
                    fill.clone()
                };
                out.push(v);
            }
            Ok(any.then(|| Value::tuple(out)))
        }
        Kind::Range { cur, stop, step } => {
            if (*step > 0 && *cur < *stop) || (*step < 0 && *cur > *stop) {
                let v = *cur;
                *cur = cur.checked_add(*step).unwrap_or(*stop);
                Ok(Some(Value::Int(v)))
            } else {
                Ok(None)
            }
        }
        Kind::Count { cur, step } => {
            let v = *cur;
            *cur = cur
                .checked_add(*step)
                .ok_or_else(|| Error::unsupported("an integer beyond 64 bits"))?;
            Ok(Some(Value::Int(v)))
        }
        Kind::Repeat { value, left } => match left {
            Some(0) => Ok(None),
            Some(n) => {
                *n -= 1;
                Ok(Some(value.clone()))
            }
            None => Ok(Some(value.clone())),
        },
        Kind::Cycle { src, saved, pos } => {
            if pos.is_none() {
                if let Some(v) = next(eng, src)? {
                    saved.push(v.clone());
                    return Ok(Some(v));
                }
                if saved.is_empty() {
                    return Ok(None);
                }
                *pos = Some(0);
            }
            let p = pos.get_or_insert(0);
            let v = saved[*p % saved.len()].clone();
            *p += 1;
            Ok(Some(v))
        }
        Kind::TakeWhile { src, pred } => {
            let Some(x) = next(eng, src)? else {
                return Ok(None);
            };
            if eng.call_lambda(pred, vec![x.clone()])?.truthy() {
                Ok(Some(x))
            } else {
                Ok(None)
            }
        }
        Kind::DropWhile {
            src,
            pred,
            dropping,
        } => loop {
            let Some(x) = next(eng, src)? else {
                return Ok(None);
            };
            if *dropping && eng.call_lambda(pred, vec![x.clone()])?.truthy() {
                continue;
            }
            *dropping = false;
            return Ok(Some(x));
        },
        Kind::Memo { shared, index } => {
            let known = shared.borrow().seen.get(*index).cloned();
            if let Some(v) = known {
                *index += 1;
                return Ok(Some(v));
            }
            let src = shared.borrow().src.clone();
            let Some(v) = next(eng, &src)? else {
                return Ok(None);
            };
            let n = {
                let mut m = shared.borrow_mut();
                m.seen.push(v.clone());
                m.seen.len()
            };
            // limit_memory_usage(engine, (1, yielded)): a list grown by
            // appends.
            limit_memory(&[(1, &Value::list(vec![Value::None; n]))])?;
            *index += 1;
            Ok(Some(v))
        }
        Kind::Spread { stack } => {
            while let Some(top) = stack.last().cloned() {
                match next(eng, &top)? {
                    None => {
                        stack.pop();
                    }
                    Some(Value::Iter(inner)) => {
                        let inner = iter_of(eng, &Value::Iter(inner))?;
                        stack.push(inner);
                    }
                    Some(t) => return Ok(Some(t)),
                }
            }
            Ok(None)
        }
        Kind::Gen(f) => f(eng),
    }
}

/// `memorize(collection)`: an iterator is recorded as it is consumed, and
/// iterating the result again replays it.
pub(super) fn memorize(eng: &Engine, v: Value) -> R<Value> {
    match v {
        Value::Iter(_) => {
            let src = iter_of(eng, &v)?;
            Ok(make(Kind::Memo {
                shared: Rc::new(RefCell::new(Memo {
                    src,
                    seen: Vec::new(),
                })),
                index: 0,
            }))
        }
        other => Ok(other),
    }
}

/// `limit_memory_usage(engine, (1, a_set))` for a set grown to `n`.
fn check_set_size(n: usize) -> R<()> {
    if n > 76 {
        let members: IndexSet<Key> = (0..n)
            .map(|i| Key(Value::Int(i64::try_from(i).unwrap_or(i64::MAX))))
            .collect();
        limit_memory(&[(1, &Value::Set(Rc::new(members)))])?;
    }
    Ok(())
}
