//! yaql's `system`, `common`, `boolean`, `branching` and `math`
//! libraries, and the finalizer that converts a result.

use std::collections::VecDeque;

use super::super::engine::{Arg, Body, Bound, Engine};
use super::super::iter;
use super::super::value::{self, Key, Map, Value};
use super::super::{Error, R};
use super::{generator, int, text};
use crate::eval::python;

/// The table of bodies (one arm per function: long by nature).
#[allow(clippy::too_many_lines)]
pub(super) fn body(id: &str) -> Option<Body> {
    Some(match id {
        "yaql.finalize" => finalize,
        "yaql.limit" => |_, b| b.val(0),
        "system.get_context_data" => |_, b| {
            let name = text(&b.val(0)?)?;
            Ok(b.ctx.get(&name))
        },
        "system.op_dot" => |eng, b| {
            let receiver = b.val(0)?;
            match b.lambda(1)? {
                Some(l) => eng.call_lambda(&l, vec![receiver]),
                None => Err(Error::raised(
                    "TypeError",
                    "'NoneType' object is not callable",
                )),
            }
        },
        "system.elvis_operator" => |eng, b| {
            let receiver = b.val(0)?;
            if receiver.is_none() {
                return Ok(Value::None);
            }
            let e = b.expr(1)?;
            eng.call(
                "#operator_.",
                &b.ctx.child(),
                vec![Arg::Val(receiver), Arg::Expr(e)],
                Vec::new(),
                None,
                true,
            )
        },
        "system.unpack" => unpack,
        "system.with_" => |_, b| {
            for (i, v) in b.vals_from(0)?.into_iter().enumerate() {
                b.ctx.set(&(i + 1).to_string(), v);
            }
            Ok(Value::Context(b.ctx.clone()))
        },
        "system.let" => |_, b| {
            for (i, v) in b.vals_from(0)?.into_iter().enumerate() {
                b.ctx.set(&(i + 1).to_string(), v);
            }
            let kw: Vec<(String, Value)> =
                b.kw.iter()
                    .map(|(k, _)| Ok((k.clone(), b.kw_val(k)?.unwrap_or(Value::None))))
                    .collect::<R<_>>()?;
            for (k, v) in kw {
                b.ctx.set(&k, v);
            }
            Ok(Value::Context(b.ctx.clone()))
        },
        "system.send_context" => |eng, b| {
            let left = b.val(0)?;
            match b.lambda(1)? {
                Some(l) => eng.call_lambda(&l, vec![left]),
                None => Err(Error::raised(
                    "TypeError",
                    "'NoneType' object is not callable",
                )),
            }
        },
        "system.assert__" => |eng, b| {
            let obj = iter::memorize(eng, b.val(0)?)?;
            let message = b.val(2)?;
            let ok = match b.lambda(1)? {
                Some(l) => eng.call_lambda(&l, vec![obj.clone()])?.truthy(),
                None => {
                    return Err(Error::raised(
                        "TypeError",
                        "'NoneType' object is not callable",
                    ))
                }
            };
            if ok {
                Ok(obj)
            } else {
                Err(Error::raised("AssertionError", value::to_str(&message)?))
            }
        },
        "system.call_func" => call_func,
        "system.get_property" => |eng, b| {
            let obj = b.val(0)?;
            let name = text(&b.val(1)?)?;
            eng.call(
                &format!("#property#{name}"),
                &b.ctx.child(),
                vec![Arg::Val(obj)],
                Vec::new(),
                None,
                false,
            )
        },
        "common.eq" => |_, b| Ok(Value::Bool(value::eq(&b.val(0)?, &b.val(1)?))),
        "common.neq" => |_, b| Ok(Value::Bool(!value::eq(&b.val(0)?, &b.val(1)?))),
        "common.left_lt_null"
        | "common.left_lte_null"
        | "common.null_gt_right"
        | "common.null_gte_right"
        | "common.null_lt_null"
        | "common.null_gt_null" => |_, _| Ok(Value::Bool(false)),
        "common.left_gt_null"
        | "common.left_gte_null"
        | "common.null_lt_right"
        | "common.null_lte_right"
        | "common.null_lte_null"
        | "common.null_gte_null" => |_, _| Ok(Value::Bool(true)),
        "boolean.and_" => |eng, b| {
            let (l, r) = (b.lambda(0)?, b.lambda(1)?);
            let left = call0(eng, l.as_ref())?;
            if left.truthy() {
                call0(eng, r.as_ref())
            } else {
                Ok(left)
            }
        },
        "boolean.or_" => |eng, b| {
            let (l, r) = (b.lambda(0)?, b.lambda(1)?);
            let left = call0(eng, l.as_ref())?;
            if left.truthy() {
                Ok(left)
            } else {
                call0(eng, r.as_ref())
            }
        },
        "boolean.not_" => |_, b| Ok(Value::Bool(!b.val(0)?.truthy())),
        "boolean.bool_" => |_, b| Ok(Value::Bool(b.val(0)?.truthy())),
        "boolean.is_boolean" => |_, b| Ok(Value::Bool(matches!(b.val(0)?, Value::Bool(_)))),
        "branching.switch" => |eng, b| {
            for rule in b.rules_from(0)? {
                if eng.rule_side(&rule, false)?.truthy() {
                    return eng.rule_side(&rule, true);
                }
            }
            Ok(Value::None)
        },
        "branching.select_case" => |eng, b| {
            let fs = b.lambdas_from(0)?;
            for (i, f) in fs.iter().enumerate() {
                if eng.call_lambda(f, Vec::new())?.truthy() {
                    return Ok(Value::Int(i64::try_from(i).unwrap_or(i64::MAX)));
                }
            }
            Ok(Value::Int(i64::try_from(fs.len()).unwrap_or(i64::MAX)))
        },
        "branching.select_all_cases" => |_, b| {
            let fs = b.lambdas_from(0)?;
            let mut i = 0;
            Ok(generator(move |eng| {
                while i < fs.len() {
                    i += 1;
                    if eng.call_lambda(&fs[i - 1], Vec::new())?.truthy() {
                        return Ok(Some(Value::Int(i64::try_from(i - 1).unwrap_or(i64::MAX))));
                    }
                }
                Ok(None)
            }))
        },
        "branching.examine" => |_, b| {
            let mut fs: VecDeque<_> = b.lambdas_from(0)?.into();
            Ok(generator(move |eng| match fs.pop_front() {
                Some(f) => Ok(Some(Value::Bool(eng.call_lambda(&f, Vec::new())?.truthy()))),
                None => Ok(None),
            }))
        },
        "branching.switch_case" => |eng, b| {
            let case = int(&b.val(0)?)?;
            let fs = b.lambdas_from(1)?;
            let n = i64::try_from(fs.len()).unwrap_or(i64::MAX);
            if (0..n).contains(&case) {
                let i = usize::try_from(case).unwrap_or(0);
                return eng.call_lambda(&fs[i], Vec::new());
            }
            match fs.last() {
                None => Ok(Value::None),
                Some(f) => eng.call_lambda(f, Vec::new()),
            }
        },
        "branching.coalesce" => |eng, b| {
            for f in b.lambdas_from(0)? {
                let v = eng.call_lambda(&f, Vec::new())?;
                if !v.is_none() {
                    return Ok(v);
                }
            }
            Ok(Value::None)
        },
        "math.binary_plus" => |_, b| arith(&b.val(0)?, &b.val(1)?, Op::Add),
        "math.binary_minus" => |_, b| arith(&b.val(0)?, &b.val(1)?, Op::Sub),
        "math.multiplication" => |_, b| arith(&b.val(0)?, &b.val(1)?, Op::Mul),
        "math.division" => |_, b| arith(&b.val(0)?, &b.val(1)?, Op::Div),
        "math.modulo" => |_, b| arith(&b.val(0)?, &b.val(1)?, Op::Mod),
        "math.unary_plus" => |_, b| b.val(0),
        "math.unary_minus" => |_, b| match b.val(0)? {
            Value::Int(i) => i.checked_neg().map(Value::Int).ok_or_else(overflow),
            Value::Float(f) => Ok(Value::Float(-f)),
            _ => Err(Error::unsupported("a number of an unknown kind")),
        },
        "math.abs_" => |_, b| match b.val(0)? {
            Value::Int(i) => i.checked_abs().map(Value::Int).ok_or_else(overflow),
            Value::Float(f) => Ok(Value::Float(f.abs())),
            _ => Err(Error::unsupported("a number of an unknown kind")),
        },
        "math.gt" => |_, b| Ok(Value::Bool(num_cmp(&b.val(0)?, &b.val(1)?)?.is_gt())),
        "math.gte" => |_, b| Ok(Value::Bool(num_cmp(&b.val(0)?, &b.val(1)?)?.is_ge())),
        "math.lt" => |_, b| Ok(Value::Bool(num_cmp(&b.val(0)?, &b.val(1)?)?.is_lt())),
        "math.lte" => |_, b| Ok(Value::Bool(num_cmp(&b.val(0)?, &b.val(1)?)?.is_le())),
        "math.int_" => |_, b| py_int(&b.val(0)?),
        "math.float_" => |_, b| py_float(&b.val(0)?),
        "math.bitwise_and" | "math.bitwise_or" | "math.bitwise_xor" => |_, b| {
            let (left, right) = (b.val(0)?, b.val(1)?);
            let both_bool = matches!((&left, &right), (Value::Bool(_), Value::Bool(_)));
            let (li, ri) = (int(&left)?, int(&right)?);
            let result = match &*b.name {
                "bitwiseAnd" => li & ri,
                "bitwiseOr" => li | ri,
                _ => li ^ ri,
            };
            Ok(if both_bool {
                Value::Bool(result != 0)
            } else {
                Value::Int(result)
            })
        },
        "math.bitwise_not" => |_, b| Ok(Value::Int(!int(&b.val(0)?)?)),
        "math.shift_bits_right" => |_, b| {
            let (v, n) = (int(&b.val(0)?)?, int(&b.val(1)?)?);
            if n < 0 {
                return Err(Error::raised("ValueError", "negative shift count"));
            }
            Ok(Value::Int(if n >= 64 {
                if v < 0 {
                    -1
                } else {
                    0
                }
            } else {
                v >> n
            }))
        },
        "math.shift_bits_left" => |_, b| {
            let (v, n) = (int(&b.val(0)?)?, int(&b.val(1)?)?);
            if n < 0 {
                return Err(Error::raised("ValueError", "negative shift count"));
            }
            if v == 0 {
                return Ok(Value::Int(0));
            }
            let n = u32::try_from(n).map_err(|_| overflow())?;
            let r = v.checked_shl(n).ok_or_else(overflow)?;
            if r >> n != v {
                return Err(overflow());
            }
            Ok(Value::Int(r))
        },
        "math.max_" => |eng, b| {
            let (a, x) = (b.val(0)?, b.val(1)?);
            let gt = eng.delegate("#operator_>", &b.ctx, vec![x.clone(), a.clone()])?;
            Ok(if gt.truthy() { x } else { a })
        },
        "math.min_" => |eng, b| {
            let (a, x) = (b.val(0)?, b.val(1)?);
            let gt = eng.delegate("#operator_>", &b.ctx, vec![x.clone(), a.clone()])?;
            Ok(if gt.truthy() { a } else { x })
        },
        "math.pow_" => pow,
        "math.sign" => |_, b| {
            let o = num_cmp(&b.val(0)?, &Value::Int(0))?;
            Ok(Value::Int(match o {
                std::cmp::Ordering::Greater => 1,
                std::cmp::Ordering::Less => -1,
                std::cmp::Ordering::Equal => 0,
            }))
        },
        "math.round_" => round,
        "math.is_integer" => |_, b| Ok(Value::Bool(matches!(b.val(0)?, Value::Int(_)))),
        "math.is_number" => |_, b| {
            Ok(Value::Bool(matches!(
                b.val(0)?,
                Value::Int(_) | Value::Float(_)
            )))
        },
        _ => return None,
    })
}

/// Calls a lambda with no arguments (`left()`); a null lambda is
/// Python's `None()`.
fn call0(eng: &Engine, l: Option<&super::super::engine::Lambda>) -> R<Value> {
    match l {
        Some(l) => eng.call_lambda(l, Vec::new()),
        None => Err(Error::raised(
            "TypeError",
            "'NoneType' object is not callable",
        )),
    }
}

fn overflow() -> Error {
    Error::unsupported("an integer beyond 64 bits")
}

/// `convert_output_data`: mappings become dicts, sequences and iterators
/// lists, each through `#iter` (so at most 200 items each).
fn finalize(eng: &Engine, b: &mut Bound) -> R<Value> {
    let obj = b.val(0)?;
    output(eng, &b.ctx, &obj)
}

fn output(eng: &Engine, ctx: &super::super::engine::Ctx, obj: &Value) -> R<Value> {
    let limit = |v: Value| eng.delegate("#iter", ctx, vec![v]);
    match obj {
        Value::Dict(d) => {
            let items = limit(Value::View(d.clone(), value::View::Items))?;
            let it = iter::iter_of(eng, &items)?;
            let mut map = Map::new();
            while let Some(pair) = iter::next(eng, &it)? {
                let Value::Tuple(p) = pair else {
                    return Err(Error::unsupported("a dict item that is not a pair"));
                };
                let k = output(eng, ctx, &p[0])?;
                let v = output(eng, ctx, &p[1])?;
                map.insert(Key::new(k)?, v);
            }
            Ok(Value::dict(map, false))
        }
        Value::Set(_) | Value::View(_, value::View::Keys | value::View::Items) => {
            limit(obj.clone())?;
            // `set(rec(t) for t in …)`: a member that became a list or a
            // dict cannot be in it.
            let members: Vec<Value> = match obj {
                Value::Set(s) => s.iter().map(|k| k.0.clone()).collect(),
                other => iter::collect(eng, other)?,
            };
            let mut unhashable = Vec::new();
            for m in &members {
                if let Value::List(_) | Value::Dict(_) = output(eng, ctx, m)? {
                    unhashable.push(output(eng, ctx, m)?.type_name());
                }
            }
            unhashable.sort_unstable();
            unhashable.dedup();
            match unhashable.as_slice() {
                [] => Err(Error::unsupported(
                    "a set, which Heat would get in Python's hash order",
                )),
                [one] => Err(Error::raised(
                    "TypeError",
                    format!("unhashable type: '{one}'"),
                )),
                _ => Err(Error::unsupported(
                    "a set whose first unhashable member depends on Python's hash order",
                )),
            }
        }
        v if iter::is_iterable(v) => {
            let items = limit(v.clone())?;
            let it = iter::iter_of(eng, &items)?;
            let mut out = Vec::new();
            while let Some(x) = iter::next(eng, &it)? {
                out.push(output(eng, ctx, &x)?);
            }
            Ok(Value::list(out))
        }
        other => Ok(other.clone()),
    }
}

/// `unpack(sequence, *args)`.
fn unpack(eng: &Engine, b: &mut Bound) -> R<Value> {
    let sequence = b.val(0)?;
    let names = b.vals_from(1)?;
    let it = iter::iter_of(eng, &sequence)?;
    let mut lst = Vec::new();
    while lst.len() < names.len() + 1 {
        match iter::next(eng, &it)? {
            Some(v) => lst.push(v),
            None => break,
        }
    }
    if !names.is_empty() && names.len() != lst.len() {
        return Err(Error::raised(
            "ValueError",
            format!("Cannot unpack {} elements into {}", lst.len(), names.len()),
        ));
    }
    if names.is_empty() {
        let it = iter::iter_of(eng, &sequence)?;
        let mut i = 1;
        while let Some(v) = iter::next(eng, &it)? {
            b.ctx.set(&i.to_string(), v);
            i += 1;
        }
    } else {
        for (name, v) in names.iter().zip(lst) {
            b.ctx.set(&text(name)?, v);
        }
    }
    Ok(Value::Context(b.ctx.clone()))
}

/// `call(name, args, kwargs, receiver)`.
fn call_func(eng: &Engine, b: &mut Bound) -> R<Value> {
    let name = text(&b.val(0)?)?;
    let args = iter::collect(eng, &b.val(1)?)?;
    let Value::Dict(kwargs) = b.val(2)? else {
        return Err(Error::unsupported("keyword arguments that are not a dict"));
    };
    let receiver = match b.val(3)? {
        Value::Absent => None,
        r => Some(r),
    };
    let mut kw = Vec::new();
    for (k, v) in &kwargs.map {
        // filter_parameters_dict: only names that are keywords.
        if let Value::Str(k) = &k.0 {
            let mut chars = k.chars();
            let keyword = !k.starts_with("__")
                && chars.next().is_some_and(|c| c.is_alphabetic() || c == '_')
                && chars.all(|c| c.is_alphanumeric() || c == '_');
            if keyword {
                kw.push((k.to_string(), Arg::Val(v.clone())));
            }
        } else {
            return Err(Error::unsupported(
                "a keyword argument named by a non-string",
            ));
        }
    }
    eng.call(
        &name,
        &b.ctx,
        args.into_iter().map(Arg::Val).collect(),
        kw,
        receiver.as_ref(),
        false,
    )
}

#[derive(Clone, Copy)]
enum Op {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
}

#[allow(clippy::cast_precision_loss)]
fn as_f64(v: &Value) -> R<f64> {
    match v {
        Value::Int(i) => Ok(*i as f64),
        Value::Bool(b) => Ok(f64::from(u8::from(*b))),
        Value::Float(f) => Ok(*f),
        _ => Err(Error::unsupported("a number of an unknown kind")),
    }
}

/// Python's arithmetic on ints and floats (yaql's `Number`s).
fn arith(left: &Value, right: &Value, op: Op) -> R<Value> {
    if let (Value::Int(x), Value::Int(y)) = (left, right) {
        let (x, y) = (*x, *y);
        let result = match op {
            Op::Add => x.checked_add(y),
            Op::Sub => x.checked_sub(y),
            Op::Mul => x.checked_mul(y),
            Op::Div | Op::Mod if y == 0 => {
                return Err(Error::raised(
                    "ZeroDivisionError",
                    if matches!(op, Op::Div) {
                        "integer division or modulo by zero"
                    } else {
                        "integer modulo by zero"
                    },
                ))
            }
            // Python's floor division and modulo.
            Op::Div => x.checked_div(y).map(|quotient| {
                if x % y != 0 && ((x < 0) != (y < 0)) {
                    quotient - 1
                } else {
                    quotient
                }
            }),
            Op::Mod => x.checked_rem(y).map(|result| {
                if result != 0 && ((result < 0) != (y < 0)) {
                    result + y
                } else {
                    result
                }
            }),
        };
        return result.map(Value::Int).ok_or_else(overflow);
    }
    let (x, y) = (as_f64(left)?, as_f64(right)?);
    let result = match op {
        Op::Add => x + y,
        Op::Sub => x - y,
        Op::Mul => x * y,
        Op::Div if y == 0.0 => {
            return Err(Error::raised("ZeroDivisionError", "float division by zero"))
        }
        Op::Div => x / y,
        Op::Mod if y == 0.0 => return Err(Error::raised("ZeroDivisionError", "float modulo")),
        Op::Mod => {
            let rem = x % y;
            if rem == 0.0 {
                0.0_f64.copysign(y)
            } else if (rem < 0.0) != (y < 0.0) {
                rem + y
            } else {
                rem
            }
        }
    };
    Ok(Value::Float(result))
}

/// Python's comparison of two numbers (an int and a float exactly).
pub(super) fn num_cmp(a: &Value, b: &Value) -> R<std::cmp::Ordering> {
    use std::cmp::Ordering;
    let exact = |i: i64, f: f64| -> Ordering {
        if f.is_nan() {
            return Ordering::Equal;
        }
        // Compare i with f exactly: through i128 when f is integral.
        let fl = f.floor();
        if fl >= 9.3e18 {
            return Ordering::Less;
        }
        if fl < -9.3e18 {
            return Ordering::Greater;
        }
        #[allow(clippy::cast_possible_truncation)]
        let fi = fl as i128;
        match i128::from(i).cmp(&fi) {
            Ordering::Equal if f > fl => Ordering::Less,
            o => o,
        }
    };
    let ints = |v: &Value| match v {
        Value::Int(i) => Some(*i),
        Value::Bool(b) => Some(i64::from(*b)),
        _ => None,
    };
    match (ints(a), ints(b), a, b) {
        (Some(x), Some(y), _, _) => Ok(x.cmp(&y)),
        (Some(x), None, _, Value::Float(f)) => {
            if f.is_nan() {
                return Err(Error::unsupported("a comparison with NaN"));
            }
            Ok(exact(x, *f))
        }
        (None, Some(y), Value::Float(f), _) => {
            if f.is_nan() {
                return Err(Error::unsupported("a comparison with NaN"));
            }
            Ok(exact(y, *f).reverse())
        }
        (None, None, Value::Float(x), Value::Float(y)) => x
            .partial_cmp(y)
            .ok_or_else(|| Error::unsupported("a comparison with NaN")),
        _ => Err(Error::unsupported(
            "a comparison of numbers of an unknown kind",
        )),
    }
}

/// yaql's `int(value)`: `null` is 0, else Python's `int()`.
fn py_int(v: &Value) -> R<Value> {
    match v {
        Value::None => Ok(Value::Int(0)),
        Value::Int(i) => Ok(Value::Int(*i)),
        Value::Bool(b) => Ok(Value::Int(i64::from(*b))),
        Value::Float(f) if f.is_nan() => Err(Error::raised(
            "ValueError",
            "cannot convert float NaN to integer",
        )),
        Value::Float(f) if f.is_infinite() => Err(Error::raised(
            "OverflowError",
            "cannot convert float infinity to integer",
        )),
        #[allow(clippy::cast_possible_truncation)]
        Value::Float(f) if f.abs() < 9.2e18 => Ok(Value::Int(f.trunc() as i64)),
        Value::Float(_) => Err(overflow()),
        Value::Str(s) => {
            if !s.is_ascii() {
                return Err(Error::unsupported("int() of text outside ASCII"));
            }
            match python::int_of_str(s) {
                Some(n) => i64::try_from(n).map(Value::Int).map_err(|_| overflow()),
                None if int_syntax(s) => Err(overflow()),
                None => Err(Error::raised(
                    "ValueError",
                    format!(
                        "invalid literal for int() with base 10: {}",
                        python::str_repr(s)
                    ),
                )),
            }
        }
        other => Err(Error::raised(
            "TypeError",
            format!(
                "int() argument must be a string, a bytes-like object or a real number, not '{}'",
                other.type_name()
            ),
        )),
    }
}

/// Python's syntax of a decimal integer: spaces, a sign, digits with
/// single underscores between them.
fn int_syntax(s: &str) -> bool {
    let t = s.trim_matches(python::is_space);
    let t = t.strip_prefix(['+', '-']).unwrap_or(t);
    !t.is_empty()
        && !t.starts_with('_')
        && !t.ends_with('_')
        && !t.contains("__")
        && t.chars().all(|c| c.is_ascii_digit() || c == '_')
}

/// yaql's `float(value)`: `null` is 0.0, else Python's `float()`.
fn py_float(v: &Value) -> R<Value> {
    match v {
        Value::None => Ok(Value::Float(0.0)),
        Value::Int(_) | Value::Bool(_) | Value::Float(_) => Ok(Value::Float(as_f64(v)?)),
        Value::Str(s) => {
            if !s.is_ascii() || s.contains('_') {
                return Err(Error::unsupported(
                    "float() of text outside ASCII or with underscores",
                ));
            }
            let t = s.trim_matches(python::is_space);
            let lower = t.to_ascii_lowercase();
            let body = lower.trim_start_matches(['+', '-']);
            let named = matches!(body, "inf" | "infinity" | "nan");
            let numeric = !body.is_empty()
                && body
                    .chars()
                    .all(|c| c.is_ascii_digit() || matches!(c, '.' | 'e' | '+' | '-'))
                && body
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_ascii_digit() || c == '.');
            match t.parse::<f64>() {
                Ok(f) if named || numeric => Ok(Value::Float(f)),
                _ => Err(Error::raised(
                    "ValueError",
                    format!("could not convert string to float: {}", python::str_repr(s)),
                )),
            }
        }
        other => Err(Error::raised(
            "TypeError",
            format!(
                "float() argument must be a string or a real number, not '{}'",
                other.type_name()
            ),
        )),
    }
}

/// `pow(a, b, c)`.
fn pow(_: &Engine, args: &mut Bound) -> R<Value> {
    let (base, exp, modulus) = (args.val(0)?, args.val(1)?, args.val(2)?);
    match (&base, &exp, &modulus) {
        (Value::Int(base), Value::Int(exp), Value::None) if *exp >= 0 => {
            let power = u32::try_from(*exp).map_err(|_| overflow())?;
            base.checked_pow(power).map(Value::Int).ok_or_else(overflow)
        }
        (Value::Int(base), Value::Int(exp), Value::Int(modulus)) if *exp >= 0 => {
            if *modulus == 0 {
                return Err(Error::raised(
                    "ValueError",
                    "pow() 3rd argument cannot be 0",
                ));
            }
            let (mut base, mut power, modulus) = (i128::from(*base), *exp, i128::from(*modulus));
            let mut acc: i128 = 1;
            base = base.rem_euclid(modulus.abs());
            while power > 0 {
                if power & 1 == 1 {
                    acc = (acc * base).rem_euclid(modulus.abs());
                }
                base = (base * base).rem_euclid(modulus.abs());
                power >>= 1;
            }
            // Python's result has the modulus's sign.
            if modulus < 0 && acc != 0 {
                acc += modulus;
            }
            i64::try_from(acc).map(Value::Int).map_err(|_| overflow())
        }
        (_, _, Value::None) => {
            let (fx, fy) = (as_f64(&base)?, as_f64(&exp)?);
            if fx == 0.0 && fy < 0.0 {
                return Err(Error::raised(
                    "ZeroDivisionError",
                    "0.0 cannot be raised to a negative power",
                ));
            }
            if fx < 0.0 && fy.fract() != 0.0 {
                return Err(Error::unsupported("a complex number"));
            }
            let result = fx.powf(fy);
            if result.is_infinite() {
                return Err(Error::raised(
                    "OverflowError",
                    "(34, 'Numerical result out of range')",
                ));
            }
            Ok(Value::Float(result))
        }
        _ => Err(Error::unsupported("pow() with a modulus of this kind")),
    }
}

/// `round(number, ndigits)`.
fn round(_: &Engine, args: &mut Bound) -> R<Value> {
    let (number, digits) = (args.val(0)?, int(&args.val(1)?)?);
    match number {
        Value::Int(whole) if digits >= 0 => Ok(Value::Int(whole)),
        Value::Int(whole) => {
            let scale = u32::try_from(-digits)
                .ok()
                .and_then(|power| 10i64.checked_pow(power));
            let Some(scale) = scale else {
                return Ok(Value::Int(0));
            };
            let quotient = whole.div_euclid(scale);
            let remainder = whole.rem_euclid(scale);
            let quotient = match (2 * i128::from(remainder)).cmp(&i128::from(scale)) {
                std::cmp::Ordering::Greater => quotient + 1,
                std::cmp::Ordering::Equal if quotient % 2 != 0 => quotient + 1,
                _ => quotient,
            };
            quotient
                .checked_mul(scale)
                .map(Value::Int)
                .ok_or_else(overflow)
        }
        Value::Float(f) if digits == 0 => Ok(Value::Float(f.round_ties_even())),
        Value::Float(_) => Err(Error::unsupported(
            "round() of a float to decimal places (Python rounds its decimal repr)",
        )),
        _ => Err(Error::unsupported("a number of an unknown kind")),
    }
}
