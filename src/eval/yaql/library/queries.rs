//! yaql's `queries` library: LINQ-like methods over iterables, most of
//! them lazy.

use std::cell::RefCell;
use std::cmp::Ordering as Cmp;
use std::collections::VecDeque;
use std::rc::Rc;

use indexmap::{IndexMap, IndexSet};

use super::super::engine::{limit_memory, Body, Bound, Engine, Lambda};
use super::super::iter::{self, GroupAggregator, Kind, MapFn, Ordering};
use super::super::value::{self, Dict, Key, Map, Value};
use super::super::{Error, R};
use super::collections::{dict, index, slice};
use super::strings::count;
use super::{generator, int, reduce, type_repr, Lazy};

/// The table of bodies (one arm per function: long by nature).
#[allow(clippy::too_many_lines)]
pub(super) fn body(id: &str) -> Option<Body> {
    Some(match id {
        "queries.where" => |eng, b| {
            let src = iter::iter_of(eng, &b.val(0)?)?;
            let pred = need(b.lambda(1)?)?;
            Ok(iter::make(Kind::Filter { src, pred }))
        },
        "queries.select" => |eng, b| {
            let src = iter::iter_of(eng, &b.val(0)?)?;
            let f = need(b.lambda(1)?)?;
            Ok(iter::make(Kind::Map {
                src,
                f: MapFn::Lambda(f),
            }))
        },
        "queries.collection_attribution" => |eng, b| {
            let src = iter::iter_of(eng, &b.val(0)?)?;
            let name = b.expr(1)?;
            Ok(iter::make(Kind::Map {
                src,
                f: MapFn::Attribute {
                    name,
                    ctx: b.ctx.clone(),
                },
            }))
        },
        "queries.skip" => |eng, b| {
            let n = islice_arg(int(&b.val(1)?)?, "Indices")?;
            let src = iter::iter_of(eng, &b.val(0)?)?;
            Ok(iter::make(Kind::Islice {
                src,
                start: n,
                stop: None,
                pos: 0,
            }))
        },
        "queries.limit" => |eng, b| {
            let n = islice_arg(int(&b.val(1)?)?, "Stop argument")?;
            let src = iter::iter_of(eng, &b.val(0)?)?;
            Ok(iter::make(Kind::Islice {
                src,
                start: 0,
                stop: Some(n),
                pos: 0,
            }))
        },
        "queries.append" => |_, b| {
            Ok(iter::make(Kind::Append {
                src: b.val(0)?,
                it: None,
                extra: b.vals_from(1)?.into(),
            }))
        },
        "queries.distinct" => |_, b| {
            Ok(iter::make(Kind::Distinct {
                src: b.val(0)?,
                it: None,
                key: b.lambda(1)?,
                seen: IndexSet::new(),
            }))
        },
        "queries.enumerate_" => |_, b| {
            let start = b.val(1)?;
            let Value::Int(i) = start else {
                let mut src = Lazy::new(b.val(0)?);
                let start = start.type_name();
                let mut failed = false;
                return Ok(super::generator(move |eng| {
                    if failed {
                        return Ok(None);
                    }
                    failed = true;
                    let _ = src.next(eng);
                    Err(Error::raised(
                        "TypeError",
                        format!("'{start}' object cannot be interpreted as an integer"),
                    ))
                }));
            };
            Ok(iter::make(Kind::Enumerate {
                src: b.val(0)?,
                it: None,
                i,
            }))
        },
        "queries.any_" => |eng, b| {
            let pred = b.lambda(1)?;
            let it = iter::iter_of(eng, &b.val(0)?)?;
            while let Some(t) = iter::next(eng, &it)? {
                match &pred {
                    None => return Ok(Value::Bool(true)),
                    Some(p) if eng.call_lambda(p, vec![t])?.truthy() => {
                        return Ok(Value::Bool(true))
                    }
                    Some(_) => {}
                }
            }
            Ok(Value::Bool(false))
        },
        "queries.all_" => |eng, b| {
            let pred = b.lambda(1)?;
            let it = iter::iter_of(eng, &b.val(0)?)?;
            while let Some(t) = iter::next(eng, &it)? {
                let ok = match &pred {
                    None => t.truthy(),
                    Some(p) => eng.call_lambda(p, vec![t])?.truthy(),
                };
                if !ok {
                    return Ok(Value::Bool(false));
                }
            }
            Ok(Value::Bool(true))
        },
        "queries.concat" => |_, b| Ok(super::collections::chain(b.vals_from(0)?)),
        "queries.count_" | "queries.count" => |eng, b| {
            let it = iter::iter_of(eng, &b.val(0)?)?;
            let mut n = 0;
            while iter::next(eng, &it)?.is_some() {
                n += 1;
            }
            Ok(count(n))
        },
        "queries.memorize" => |eng, b| iter::memorize(eng, b.val(0)?),
        "queries.sum_" => |eng, b| fold_by(eng, b, "#operator_+"),
        "queries.max_" => |eng, b| fold_by(eng, b, "max"),
        "queries.min_" => |eng, b| fold_by(eng, b, "min"),
        "queries.first" => |eng, b| {
            let it = iter::iter_of(eng, &b.val(0)?)?;
            match iter::next(eng, &it)? {
                Some(v) => Ok(v),
                None => match b.val(1)? {
                    Value::Absent => Err(stop("")),
                    d => Ok(d),
                },
            }
        },
        "queries.single" => |eng, b| {
            let it = iter::iter_of(eng, &b.val(0)?)?;
            let result = iter::next(eng, &it)?.ok_or_else(|| stop(""))?;
            match iter::next(eng, &it)? {
                None => Ok(result),
                Some(_) => Err(stop("Collection contains more than one item")),
            }
        },
        "queries.last" => |eng, b| {
            let collection = b.val(0)?;
            let default = b.val(1)?;
            if let Some(items) = collection.as_seq() {
                return match items.last() {
                    Some(v) => Ok(v.clone()),
                    None if matches!(default, Value::Absent) => Err(stop("")),
                    None => Ok(default),
                };
            }
            let it = iter::iter_of(eng, &collection)?;
            let mut last = default;
            while let Some(t) = iter::next(eng, &it)? {
                last = t;
            }
            match last {
                Value::Absent => Err(stop("")),
                v => Ok(v),
            }
        },
        "queries.select_many" => |_, b| {
            Ok(iter::make(Kind::SelectMany {
                src: b.val(0)?,
                it: None,
                f: need(b.lambda(1)?)?,
                inner: None,
            }))
        },
        "queries.range_" => |_, b| {
            Ok(iter::make(Kind::Range {
                cur: 0,
                stop: int(&b.val(0)?)?,
                step: 1,
            }))
        },
        "queries.range__" => |_, b| {
            let step = int(&b.val(2)?)?;
            if step == 0 {
                return Err(Error::raised(
                    "ValueError",
                    "range() arg 3 must not be zero",
                ));
            }
            Ok(iter::make(Kind::Range {
                cur: int(&b.val(0)?)?,
                stop: int(&b.val(1)?)?,
                step,
            }))
        },
        "queries.sequence" => |_, b| {
            Ok(iter::make(Kind::Count {
                cur: int(&b.val(0)?)?,
                step: int(&b.val(1)?)?,
            }))
        },
        "queries.order_by" => |_, b| order_by(b, true),
        "queries.order_by_descending" => |_, b| order_by(b, false),
        "queries.then_by" => |_, b| then_by(b, true),
        "queries.then_by_descending" => |_, b| then_by(b, false),
        "queries.group_by" => group_by,
        "queries.join" => join,
        "queries.zip_" => |eng, b| {
            let srcs = b
                .vals_from(0)?
                .iter()
                .map(|c| iter::iter_of(eng, c))
                .collect::<R<_>>()?;
            Ok(iter::make(Kind::Zip { srcs }))
        },
        "queries.zip_longest" => |eng, b| {
            let srcs = b
                .vals_from(0)?
                .iter()
                .map(|c| iter::iter_of(eng, c).map(Some))
                .collect::<R<_>>()?;
            let mut fill = Value::None;
            for (k, _) in &b.kw {
                if k != "default" {
                    return Err(Error::raised(
                        "TypeError",
                        format!("zip_longest() got an unexpected keyword argument '{k}'"),
                    ));
                }
                fill = b.kw_val(k)?.unwrap_or(Value::None);
            }
            Ok(iter::make(Kind::ZipLongest { srcs, fill }))
        },
        "queries.repeat" => |_, b| {
            let n = int(&b.val(1)?)?;
            Ok(iter::make(Kind::Repeat {
                value: b.val(0)?,
                left: (n >= 0).then_some(n),
            }))
        },
        "queries.cycle" => |eng, b| {
            Ok(iter::make(Kind::Cycle {
                src: iter::iter_of(eng, &b.val(0)?)?,
                saved: Vec::new(),
                pos: None,
            }))
        },
        "queries.take_while" => |eng, b| {
            let pred = need(b.lambda(1)?)?;
            Ok(iter::make(Kind::TakeWhile {
                src: iter::iter_of(eng, &b.val(0)?)?,
                pred,
            }))
        },
        "queries.skip_while" => |eng, b| {
            let pred = need(b.lambda(1)?)?;
            Ok(iter::make(Kind::DropWhile {
                src: iter::iter_of(eng, &b.val(0)?)?,
                pred,
                dropping: true,
            }))
        },
        "queries.index_of" => |eng, b| position(eng, b, false, |_, t, item| Ok(value::eq(t, item))),
        "queries.last_index_of" => {
            |eng, b| position(eng, b, true, |_, t, item| Ok(value::eq(t, item)))
        }
        "queries.index_where" => |eng, b| position(eng, b, false, |eng, t, p| predicate(eng, p, t)),
        "queries.last_index_where" => {
            |eng, b| position(eng, b, true, |eng, t, p| predicate(eng, p, t))
        }
        "queries.slice_" => |eng, b| {
            let src = iter::iter_of(eng, &b.val(0)?)?;
            let length = int(&b.val(1)?)?;
            let ctx = b.ctx.clone();
            let mut done = false;
            Ok(generator(move |eng| {
                if done {
                    return Ok(None);
                }
                let n = islice_arg(length, "Stop argument")?;
                let chunk = iter::make(Kind::Islice {
                    src: src.clone(),
                    start: 0,
                    stop: Some(n),
                    pos: 0,
                });
                let res = eng.method("to_list", &ctx, &chunk)?;
                if res.truthy() {
                    Ok(Some(res))
                } else {
                    done = true;
                    Ok(None)
                }
            }))
        },
        "queries.split_where" => |_, b| split_where(b, false),
        "queries.slice_where" => |_, b| split_where(b, true),
        "queries.split_at" => |eng, b| {
            let lst = eng.method("to_list", &b.ctx, &b.val(0)?)?;
            let i = int(&b.val(1)?)?;
            let items = lst
                .as_seq()
                .ok_or_else(|| Error::unsupported("toList gave no tuple"))?;
            Ok(Value::list(vec![
                slice(items, None, Some(i)),
                slice(items, Some(i), None),
            ]))
        },
        "queries.aggregate" => |eng, b| {
            let collection = b.val(0)?;
            let f = need(b.lambda(1)?)?;
            let seed = match b.val(2)? {
                Value::Absent => None,
                v => Some(v),
            };
            reduce(eng, &collection, seed, |a, x| {
                eng.call_lambda(&f, vec![a, x])
            })
        },
        "queries.reverse" => |eng, b| {
            let lst = eng.method("to_list", &b.ctx, &b.val(0)?)?;
            let mut items = lst
                .as_seq()
                .ok_or_else(|| Error::unsupported("toList gave no tuple"))?
                .to_vec();
            items.reverse();
            Ok(iter::make(Kind::Seq {
                items: items.into(),
                pos: 0,
                name: "reversed",
            }))
        },
        "queries.merge_with" => merge_with,
        "queries.is_iterable" => |_, b| Ok(Value::Bool(iter::is_iterable(&b.val(0)?))),
        "queries.accumulate" => |_, b| {
            let mut src = Lazy::new(b.val(0)?);
            let f = need(b.lambda(1)?)?;
            let mut total = match b.val(2)? {
                Value::Absent => None,
                v => Some(v),
            };
            let mut started = false;
            Ok(generator(move |eng| {
                if !started {
                    started = true;
                    if total.is_none() {
                        total = Some(src.next(eng)?.ok_or_else(|| {
                            Error::raised(
                                "TypeError",
                                "accumulate() of empty sequence with no initial value",
                            )
                        })?);
                    }
                    return Ok(total.clone());
                }
                let Some(x) = src.next(eng)? else {
                    return Ok(None);
                };
                let t = eng.call_lambda(&f, vec![total.take().unwrap_or(Value::None), x])?;
                total = Some(t.clone());
                Ok(Some(t))
            }))
        },
        "queries.generate" => generate,
        "queries.generate_many" => generate_many,
        "queries.default_if_empty" => |eng, b| {
            let collection = b.val(0)?;
            let default = b.val(1)?;
            if let Some(n) = match &collection {
                Value::Tuple(items) | Value::List(items) => Some(items.len()),
                Value::Set(s) => Some(s.len()),
                Value::View(d, value::View::Keys | value::View::Items) => Some(d.map.len()),
                _ => None,
            } {
                return Ok(if n == 0 { default } else { collection });
            }
            let collection = iter::memorize(eng, collection)?;
            let it = iter::iter_of(eng, &collection)?;
            Ok(if iter::next(eng, &it)?.is_some() {
                collection
            } else {
                default
            })
        },
        _ => return None,
    })
}

/// A lambda argument that must be given (`None()` is a TypeError).
fn need(l: Option<Lambda>) -> R<Lambda> {
    l.ok_or_else(|| Error::raised("TypeError", "'NoneType' object is not callable"))
}

fn stop(message: &str) -> Error {
    Error::raised("StopIteration", message)
}

/// An `itertools.islice` bound: from 0 up.
fn islice_arg(n: i64, what: &str) -> R<usize> {
    usize::try_from(n).map_err(|_| {
        Error::raised(
            "ValueError",
            format!("{what} for islice() must be None or an integer: 0 <= x <= sys.maxsize."),
        )
    })
}

fn predicate(eng: &Engine, p: &Value, t: &Value) -> R<bool> {
    let _ = (eng, p, t);
    Err(Error::unsupported("unreachable"))
}

/// `indexOf`, `lastIndexOf`, `indexWhere`, `lastIndexWhere`.
fn position(
    eng: &Engine,
    b: &mut Bound,
    last: bool,
    test: fn(&Engine, &Value, &Value) -> R<bool>,
) -> R<Value> {
    let it = iter::iter_of(eng, &b.val(0)?)?;
    let lambda = match b.pos.get(1) {
        Some(
            super::super::engine::Conv::Lambda(_) | super::super::engine::Conv::Val(Value::None),
        ) if matches!(&*b.name, "indexWhere" | "lastIndexWhere") => Some(need(b.lambda(1)?)?),
        _ => None,
    };
    let item = if lambda.is_none() {
        b.val(1)?
    } else {
        Value::None
    };
    let mut found: i64 = -1;
    let mut i: i64 = 0;
    while let Some(t) = iter::next(eng, &it)? {
        let hit = match &lambda {
            Some(l) => eng.call_lambda(l, vec![t])?.truthy(),
            None => test(eng, &t, &item)?,
        };
        if hit {
            found = i;
            if !last {
                break;
            }
        }
        i += 1;
    }
    Ok(Value::Int(found))
}

/// `sum`, `max`, `min`: `functools.reduce` of a yaql function.
fn fold_by(eng: &Engine, b: &mut Bound, name: &str) -> R<Value> {
    let collection = b.val(0)?;
    let initial = match b.val(1)? {
        Value::Absent => None,
        v => Some(v),
    };
    let ctx = b.ctx.clone();
    reduce(eng, &collection, initial, |a, x| {
        eng.delegate(name, &ctx, vec![a, x])
    })
}

fn order_by(b: &mut Bound, ascending: bool) -> R<Value> {
    let collection = b.val(0)?;
    let f = need(b.lambda(1)?)?;
    Ok(Value::Ordering(Rc::new(RefCell::new(Ordering {
        collection,
        order: vec![(f, ascending)],
        sorted: None,
    }))))
}

fn then_by(b: &mut Bound, ascending: bool) -> R<Value> {
    let Value::Ordering(o) = b.val(0)? else {
        return Err(Error::unsupported("thenBy of something not ordered"));
    };
    let f = need(b.lambda(1)?)?;
    o.borrow_mut().order.push((f, ascending));
    Ok(Value::Ordering(o))
}

/// The class of a sort key: keys of one class compare without error in
/// a consistent order.
#[derive(PartialEq, Eq, Clone, Copy)]
enum KeyClass {
    Null,
    Number,
    Str,
    Other,
}

fn key_class(v: &Value) -> R<KeyClass> {
    Ok(match v {
        Value::None => KeyClass::Null,
        Value::Float(f) if f.is_nan() => return Err(Error::unsupported("a NaN sort key")),
        Value::Int(_) | Value::Float(_) => KeyClass::Number,
        Value::Str(_) => KeyClass::Str,
        Value::Set(_) | Value::View(..) => {
            return Err(Error::unsupported(
                "sets as sort keys (a partial order: the result depends on the algorithm)",
            ))
        }
        _ => KeyClass::Other,
    })
}

/// yaql's comparison of two sort keys of one class.
fn key_cmp(a: &Value, b: &Value) -> R<Cmp> {
    Ok(match (a, b) {
        (Value::None, Value::None) => Cmp::Equal,
        (Value::None, _) => Cmp::Less,
        (_, Value::None) => Cmp::Greater,
        (Value::Str(x), Value::Str(y)) => x.cmp(y),
        (x, y) => super::core::num_cmp(x, y)?,
    })
}

/// The sort keys `sorted` needs: every element's first key (when there
/// are two or more), then the next key of the elements that tie.
fn sort_keys(eng: &Engine, items: &[Value], order: &[(Lambda, bool)]) -> R<Vec<Vec<Value>>> {
    let count = items.len();
    let mut keys: Vec<Vec<Value>> = vec![Vec::new(); count];
    if count >= 2 {
        // Groups of elements that tie on the keys so far.
        let mut groups: Vec<Vec<usize>> = vec![(0..count).collect()];
        for (selector, _) in order {
            let mut next_groups = Vec::new();
            for group in groups {
                if group.len() < 2 {
                    continue;
                }
                // Python's sort compares the second item with the first
                // first: their keys are computed in that order (which
                // error comes first).
                let mut order: Vec<usize> = group.clone();
                order.swap(0, 1);
                let mut computed: Vec<Option<Value>> = vec![None; items.len()];
                for &i in &order {
                    computed[i] = Some(eng.call_lambda(selector, vec![items[i].clone()])?);
                }
                for &i in &group {
                    keys[i].push(computed[i].take().unwrap_or(Value::None));
                }
                let classes: Vec<KeyClass> = group
                    .iter()
                    .map(|&i| key_class(keys[i].last().unwrap_or(&Value::None)))
                    .collect::<R<_>>()?;
                let mut kinds: Vec<KeyClass> = classes
                    .iter()
                    .copied()
                    .filter(|c| *c != KeyClass::Null)
                    .collect();
                let others = kinds.iter().filter(|c| **c == KeyClass::Other).count();
                kinds.dedup();
                kinds.sort_by_key(|c| *c as u8);
                kinds.dedup();
                let non_null = classes.iter().filter(|c| **c != KeyClass::Null).count();
                if non_null >= 2 && (kinds.len() > 1 || others > 0) {
                    return Err(Error::raised(
                        "NoMatchingFunctionException",
                        "No function \"#operator_<\" matches supplied arguments",
                    ));
                }
                // Split the group by equal keys.
                let mut sorted_group = group.clone();
                let mut err = None;
                sorted_group.sort_by(|&a, &b| {
                    key_cmp(
                        keys[a].last().unwrap_or(&Value::None),
                        keys[b].last().unwrap_or(&Value::None),
                    )
                    .unwrap_or_else(|e| {
                        err = Some(e);
                        Cmp::Equal
                    })
                });
                if let Some(e) = err {
                    return Err(e);
                }
                let mut start = 0;
                for j in 1..=sorted_group.len() {
                    let boundary = j == sorted_group.len()
                        || key_cmp(
                            keys[sorted_group[j - 1]].last().unwrap_or(&Value::None),
                            keys[sorted_group[j]].last().unwrap_or(&Value::None),
                        )? != Cmp::Equal;
                    if boundary {
                        let mut tied = sorted_group[start..j].to_vec();
                        tied.sort_unstable();
                        next_groups.push(tied);
                        start = j;
                    }
                }
            }
            groups = next_groups;
        }
    }
    Ok(keys)
}

/// `OrderingIterable.do_sort`. Python sorts with `Comparator`, which
/// calls the key selectors and yaql's `<` and `>` for each comparison;
/// which pairs it compares is the sort algorithm's business. Any correct
/// sort evaluates every element's first key (when there are two or more),
/// the next key of every element that ties with another, and compares
/// some pair of incomparable keys if there is one; so the result (or the
/// error) is the same whatever the algorithm, and heatcap sorts stably as
/// Python does.
pub(in super::super) fn sorted(eng: &Engine, ordering: &Rc<RefCell<Ordering>>) -> R<Rc<[Value]>> {
    if let Some(state) = &ordering.borrow().sorted {
        return Ok(state.clone());
    }
    let (collection, order) = {
        let state = ordering.borrow();
        (state.collection.clone(), state.order.clone())
    };
    let items = iter::collect(eng, &collection)?;
    let count = items.len();
    let keys = sort_keys(eng, &items, &order)?;
    let mut idx: Vec<usize> = (0..count).collect();
    let mut err = None;
    idx.sort_by(|&a, &b| {
        for (f, (_, ascending)) in order.iter().enumerate() {
            let (Some(x), Some(y)) = (keys[a].get(f), keys[b].get(f)) else {
                return Cmp::Equal;
            };
            match key_cmp(x, y) {
                Ok(Cmp::Equal) => {}
                Ok(c) => return if *ascending { c } else { c.reverse() },
                Err(e) => {
                    err = Some(e);
                    return Cmp::Equal;
                }
            }
        }
        Cmp::Equal
    });
    if let Some(e) = err {
        return Err(e);
    }
    let out: Rc<[Value]> = idx.into_iter().map(|i| items[i].clone()).collect();
    ordering.borrow_mut().sorted = Some(out.clone());
    Ok(out)
}

/// `groupBy(keySelector, valueSelector, aggregator)`.
fn group_by(eng: &Engine, b: &mut Bound) -> R<Value> {
    let collection = b.val(0)?;
    let key = need(b.lambda(1)?)?;
    let val = b.lambda(2)?;
    let aggregator = b.lambda(3)?;
    let it = iter::iter_of(eng, &collection)?;
    let mut groups: IndexMap<Key, Vec<Value>> = IndexMap::new();
    while let Some(t) = iter::next(eng, &it)? {
        let v = match &val {
            None => t.clone(),
            Some(l) => eng.call_lambda(l, vec![t.clone()])?,
        };
        let k = Key::new(eng.call_lambda(&key, vec![t])?)?;
        groups.entry(k).or_default().push(v);
        let size = Value::dict(
            groups.keys().map(|k| (k.clone(), Value::None)).collect(),
            false,
        );
        limit_memory(&[(1, &size)])?;
    }
    let items: Map = groups
        .into_iter()
        .map(|(k, vs)| (k, Value::list(vs)))
        .collect();
    let src = iter::iter_of(
        eng,
        &Value::View(
            Rc::new(Dict {
                high: items.len(),
                map: items,
                frozen: false,
            }),
            value::View::Items,
        ),
    )?;
    Ok(iter::make(Kind::Map {
        src,
        f: MapFn::Group(Rc::new(RefCell::new(GroupAggregator {
            aggregator,
            allow_fallback: true,
            failure: None,
        }))),
    }))
}

/// `join(collection2, predicate, selector)`.
fn join(eng: &Engine, b: &mut Bound) -> R<Value> {
    let mut outer = Lazy::new(b.val(0)?);
    let inner_src = b.val(1)?;
    let pred = need(b.lambda(2)?)?;
    let sel = need(b.lambda(3)?)?;
    let inner = iter::memorize(eng, inner_src)?;
    let mut current: Option<(Value, super::super::iter::IterRef)> = None;
    Ok(generator(move |eng| loop {
        if let Some((x, it)) = &current {
            while let Some(y) = iter::next(eng, it)? {
                if eng.call_lambda(&pred, vec![x.clone(), y.clone()])?.truthy() {
                    return eng.call_lambda(&sel, vec![x.clone(), y]).map(Some);
                }
            }
            current = None;
        }
        let Some(x) = outer.next(eng)? else {
            return Ok(None);
        };
        current = Some((x, iter::iter_of(eng, &inner)?));
    }))
}

type SplitState = (Rc<[Value]>, usize, usize, Option<Value>);

/// `splitWhere` and `sliceWhere`.
fn split_where(b: &mut Bound, slice_mode: bool) -> R<Value> {
    let collection = b.val(0)?;
    let pred = need(b.lambda(1)?)?;
    let ctx = b.ctx.clone();
    // The list, the slice's start and end, the last predicate's value.
    let mut state: Option<SplitState> = None;
    let mut finished = false;
    Ok(generator(move |eng| {
        if finished {
            return Ok(None);
        }
        if state.is_none() {
            let lst = eng.method("to_list", &ctx, &collection)?;
            let items = lst
                .as_seq()
                .ok_or_else(|| Error::unsupported("toList gave no tuple"))?
                .clone();
            state = Some((items, 0, 0, None));
        }
        let Some((items, start, end, p1)) = state.as_mut() else {
            return Ok(None);
        };
        let cut = |a: usize, z: usize| Value::tuple(items[a..z].to_vec());
        while *end < items.len() {
            let p = eng.call_lambda(&pred, vec![items[*end].clone()])?;
            if slice_mode {
                let changed = p1.as_ref().is_some_and(|q| !value::eq(&p, q));
                if changed {
                    let out = cut(*start, *end);
                    *start = *end;
                    *end += 1;
                    *p1 = Some(p);
                    return Ok(Some(out));
                }
                *end += 1;
                *p1 = Some(p);
            } else if p.truthy() {
                let out = cut(*start, *end);
                *start = *end + 1;
                *end += 1;
                return Ok(Some(out));
            } else {
                *end += 1;
            }
        }
        finished = true;
        Ok((*start != *end).then(|| cut(*start, *end)))
    }))
}

/// `mergeWith(another, listMerger, itemMerger, maxLevels)`.
fn merge_with(eng: &Engine, b: &mut Bound) -> R<Value> {
    let d = dict(&b.val(0)?)?;
    let another = dict(&b.val(1)?)?;
    let list_merger = b.lambda(2)?;
    let item_merger = b.lambda(3)?;
    let max_levels = int(&b.val(4)?)?;
    let ctx = b.ctx.clone();
    let merger = Mergers {
        list: list_merger,
        item: item_merger,
        ctx,
    };
    merge_dicts(eng, &d, &another, &merger, max_levels)
}

struct Mergers {
    list: Option<Lambda>,
    item: Option<Lambda>,
    ctx: super::super::engine::Ctx,
}

fn merge_lists(eng: &Engine, mergers: &Mergers, left: &Value, right: &Value) -> R<Value> {
    if let Some(merger) = &mergers.list {
        return eng.call_lambda(merger, vec![left.clone(), right.clone()]);
    }
    // to_list(distinct(engine, lst1 + lst2))
    let joined = match (left, right) {
        (Value::Tuple(xs), Value::Tuple(ys)) => {
            Value::tuple(xs.iter().chain(ys.iter()).cloned().collect())
        }
        (Value::List(xs), Value::List(ys)) => {
            Value::list(xs.iter().chain(ys.iter()).cloned().collect())
        }
        (xs, ys) => {
            return Err(Error::raised(
                "TypeError",
                format!(
                    "can only concatenate {} (not \"{}\") to {}",
                    xs.type_name(),
                    ys.type_name(),
                    xs.type_name()
                ),
            ))
        }
    };
    let distinct = iter::make(Kind::Distinct {
        src: joined,
        it: None,
        key: None,
        seen: IndexSet::new(),
    });
    eng.method("to_list", &mergers.ctx, &distinct)
}

/// `queries._merge_dicts`.
fn merge_dicts(eng: &Engine, d1: &Dict, d2: &Dict, m: &Mergers, max_levels: i64) -> R<Value> {
    let mut result = Map::new();
    for (key, v1) in &d1.map {
        result.insert(key.clone(), v1.clone());
        if let Some(v2) = d2.map.get(key) {
            let merged = if max_levels != 1 && matches!(v2, Value::Dict(_)) {
                let Value::Dict(x) = v1 else {
                    return Err(cannot_merge(v1, v2));
                };
                let Value::Dict(y) = v2 else {
                    return Err(cannot_merge(v1, v2));
                };
                merge_dicts(
                    eng,
                    x,
                    y,
                    m,
                    if max_levels == 0 { 0 } else { max_levels - 1 },
                )?
            } else if max_levels != 1 && matches!(v2, Value::Tuple(_) | Value::List(_)) {
                if !matches!(v1, Value::Tuple(_) | Value::List(_)) {
                    return Err(cannot_merge(v1, v2));
                }
                merge_lists(eng, m, v1, v2)?
            } else {
                match &m.item {
                    Some(l) => eng.call_lambda(l, vec![v1.clone(), v2.clone()])?,
                    None => v2.clone(),
                }
            };
            result.insert(key.clone(), merged);
        }
    }
    for (k2, v2) in &d2.map {
        if !result.contains_key(k2) {
            result.insert(k2.clone(), v2.clone());
        }
    }
    Ok(Value::dict(result, false))
}

fn cannot_merge(a: &Value, b: &Value) -> Error {
    Error::raised(
        "TypeError",
        format!("Cannot merge {} with {}", type_repr(a), type_repr(b)),
    )
}

/// `generate(initial, predicate, producer, selector, decycle)`.
fn generate(_: &Engine, b: &mut Bound) -> R<Value> {
    let mut current = b.val(0)?;
    let pred = need(b.lambda(1)?)?;
    let producer = need(b.lambda(2)?)?;
    let selector = b.lambda(3)?;
    let mut past: Option<IndexSet<Key>> = b.val(4)?.truthy().then(IndexSet::new);
    let mut finished = false;
    Ok(generator(move |eng| {
        if finished {
            return Ok(None);
        }
        if !eng.call_lambda(&pred, vec![current.clone()])?.truthy() {
            finished = true;
            return Ok(None);
        }
        if let Some(p) = &mut past {
            let k = Key::new(current.clone())?;
            if p.contains(&k) {
                finished = true;
                return Ok(None);
            }
            p.insert(k);
        }
        let out = match &selector {
            None => current.clone(),
            Some(s) => eng.call_lambda(s, vec![current.clone()])?,
        };
        current = eng.call_lambda(&producer, vec![current.clone()])?;
        Ok(Some(out))
    }))
}

/// `generateMany(initial, producer, selector, decycle, depthFirst)`.
fn generate_many(_: &Engine, b: &mut Bound) -> R<Value> {
    let mut queue: VecDeque<Value> = VecDeque::from([b.val(0)?]);
    let producer = need(b.lambda(1)?)?;
    let selector = b.lambda(2)?;
    let mut past: Option<IndexSet<Key>> = b.val(3)?.truthy().then(IndexSet::new);
    let depth_first = b.val(4)?.truthy();
    Ok(generator(move |eng| loop {
        let Some(item) = queue.pop_front() else {
            return Ok(None);
        };
        if let Some(p) = &mut past {
            let k = Key::new(item.clone())?;
            if p.contains(&k) {
                continue;
            }
            p.insert(k);
        }
        let out = match &selector {
            None => item.clone(),
            Some(s) => eng.call_lambda(s, vec![item.clone()])?,
        };
        let children = iter::collect(eng, &eng.call_lambda(&producer, vec![item])?)?;
        if depth_first {
            for (i, child) in children.into_iter().enumerate() {
                queue.insert(i, child);
            }
        } else {
            queue.extend(children);
        }
        if queue.len() > super::super::engine::LIMIT_ITERATORS * 6 {
            return Err(Error::unsupported("a queue near yaql's memory quota"));
        }
        return Ok(Some(out));
    }))
}

#[allow(dead_code)]
fn _index(items: &[Value]) -> Option<Value> {
    index(items, 0)
}
