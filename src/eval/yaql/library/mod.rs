//! The bodies of yaql's standard library (yaql/standard_library/*.py),
//! keyed by the id in the signatures file (`module.function`). Each
//! follows its Python source: the same order of work, the same laziness
//! and the same exceptions. What has no body here (dates and times,
//! `def`, `random`, `characters`, yaqlized objects) is unsupported when a
//! call picks it.

mod collections;
mod core;
mod queries;
mod regex;
mod strings;

use std::cell::RefCell;
use std::rc::Rc;

use super::engine::{Body, Engine};
use super::iter::{self, GroupAggregator, IterRef};
use super::value::{self, Value};
use super::{Error, R};

pub(super) use queries::sorted;

/// The body of a function, by id.
pub(super) fn body(id: &str) -> Option<Body> {
    core::body(id)
        .or_else(|| strings::body(id))
        .or_else(|| collections::body(id))
        .or_else(|| queries::body(id))
        .or_else(|| regex::body(id))
}

/// A Python `int` argument (bools are ints).
pub(super) fn int(v: &Value) -> R<i64> {
    match v {
        Value::Int(i) => Ok(*i),
        Value::Bool(b) => Ok(i64::from(*b)),
        other => Err(Error::raised(
            "TypeError",
            format!(
                "'{}' object cannot be interpreted as an integer",
                other.type_name()
            ),
        )),
    }
}

/// A string argument.
pub(super) fn text(v: &Value) -> R<Rc<str>> {
    match v {
        Value::Str(s) => Ok(s.clone()),
        other => Err(Error::unsupported(format!(
            "a {} where yaql's types promise a string",
            other.type_name()
        ))),
    }
}

/// `type(v)` as Python prints it.
pub(super) fn type_repr(v: &Value) -> String {
    let name = v.type_name();
    match name {
        "FrozenDict" => "<class 'yaql.language.utils.FrozenDict'>".into(),
        "KeysView" | "ValuesView" | "ItemsView" => format!("<class 'collections.abc.{name}'>"),
        "Pattern" => "<class 're.Pattern'>".into(),
        "Context" => "<class 'yaql.language.contexts.Context'>".into(),
        "MappingRule" => "<class 'yaql.language.utils.MappingRule'>".into(),
        "OrderingIterable" => "<class 'yaql.standard_library.queries.OrderingIterable'>".into(),
        n => format!("<class '{n}'>"),
    }
}

/// `functools.reduce(f, collection[, initial])`.
pub(super) fn reduce(
    eng: &Engine,
    collection: &Value,
    initial: Option<Value>,
    mut f: impl FnMut(Value, Value) -> R<Value>,
) -> R<Value> {
    let it = iter::iter_of(eng, collection)?;
    let mut acc = match initial {
        Some(v) => v,
        None => match iter::next(eng, &it)? {
            Some(v) => v,
            None => {
                return Err(Error::raised(
                    "TypeError",
                    "reduce() of empty iterable with no initial value",
                ))
            }
        },
    };
    while let Some(x) = iter::next(eng, &it)? {
        acc = f(acc, x)?;
    }
    Ok(acc)
}

/// `GroupAggregator.__call__` on one `(key, values)` pair.
pub(super) fn aggregate_group(
    eng: &Engine,
    g: &Rc<RefCell<GroupAggregator>>,
    item: Value,
) -> R<Value> {
    let (aggregator, failed) = {
        let s = g.borrow();
        (s.aggregator.clone(), s.failure.is_some())
    };
    let Some(aggregator) = aggregator else {
        return Ok(item);
    };
    if !failed {
        let (key, values) = match &item {
            Value::Tuple(p) if p.len() == 2 => (p[0].clone(), p[1].clone()),
            _ => return Err(Error::unsupported("a group that is not a pair")),
        };
        match eng.call_lambda(&aggregator, vec![values.clone()]) {
            Ok(result) => {
                let fallback_shape = match (&values, &result) {
                    (Value::List(vs), Value::Tuple(r) | Value::List(r)) => {
                        vs.len() == 2 && r.len() == 2 && value::eq(&r[0], &vs[0])
                    }
                    _ => false,
                };
                if !fallback_shape {
                    g.borrow_mut().allow_fallback = false;
                }
                return Ok(Value::tuple(vec![key, result]));
            }
            Err(e @ Error::Raised { .. })
                if matches!(&e, Error::Raised { class, .. } if
                    class == "NoMatchingMethodException"
                    || class == "NoMatchingFunctionException"
                    || class == "IndexError") =>
            {
                g.borrow_mut().failure = Some(e);
            }
            Err(e) => return Err(e),
        }
    }
    if g.borrow().allow_fallback {
        match eng.call_lambda(&aggregator, vec![item]) {
            Ok(result) if py_len(&result) == Some(2) => return Ok(result),
            Ok(_) | Err(Error::Raised { .. }) => {}
            Err(e) => return Err(e),
        }
    }
    Err(g
        .borrow()
        .failure
        .clone()
        .unwrap_or_else(|| Error::unsupported("a group aggregator that failed")))
}

/// `len(v)`, `None` for objects without a length.
pub(super) fn py_len(v: &Value) -> Option<usize> {
    match v {
        Value::Tuple(items) | Value::List(items) => Some(items.len()),
        Value::Str(s) => Some(s.chars().count()),
        Value::Dict(d) | Value::View(d, _) => Some(d.map.len()),
        Value::Set(s) => Some(s.len()),
        _ => None,
    }
}

/// A generator value that yields from a closure.
pub(super) fn generator(f: impl FnMut(&Engine) -> R<Option<Value>> + 'static) -> Value {
    iter::make(iter::Kind::Gen(Box::new(f)))
}

/// The iterator of `v`, made when the generator first runs.
pub(super) struct Lazy {
    src: Value,
    it: Option<IterRef>,
}

impl Lazy {
    pub(super) fn new(src: Value) -> Lazy {
        Lazy { src, it: None }
    }

    pub(super) fn next(&mut self, eng: &Engine) -> R<Option<Value>> {
        if self.it.is_none() {
            self.it = Some(iter::iter_of(eng, &self.src)?);
        }
        match &self.it {
            Some(it) => iter::next(eng, it),
            None => Ok(None),
        }
    }
}

/// Python's `seq[start:stop]` bounds for a length.
pub(super) fn slice_bounds(len: usize, start: Option<i64>, stop: Option<i64>) -> (usize, usize) {
    let n = i64::try_from(len).unwrap_or(i64::MAX);
    let fix = |i: i64| {
        let i = if i < 0 { (i + n).max(0) } else { i.min(n) };
        usize::try_from(i).unwrap_or(0)
    };
    let a = start.map_or(0, fix);
    let b = stop.map_or(len, fix);
    (a, b.max(a))
}
