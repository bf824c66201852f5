//! The Python behaviours Heat's functions inherit, on JSON values: `==`
//! (where `True == 1 == 1.0`), truthiness, `str()`, `repr()`,
//! `json.dumps` (as oslo's `jsonutils.dumps`: ASCII only, `", "` and
//! `": "`), `int()` of a string, `str.split` and `urllib.parse.quote`.

use std::fmt::Write as _;

use serde_json::{Number, Value};

/// A number as Python sees it: an int (bools included) or a float.
#[derive(Clone, Copy)]
enum Num {
    Int(i128),
    Float(f64),
}

fn num(v: &Value) -> Option<Num> {
    match v {
        Value::Bool(b) => Some(Num::Int(i128::from(*b))),
        Value::Number(n) => Some(number(n)),
        _ => None,
    }
}

fn number(n: &Number) -> Num {
    if let Some(i) = n.as_i64() {
        Num::Int(i128::from(i))
    } else if let Some(u) = n.as_u64() {
        Num::Int(i128::from(u))
    } else {
        Num::Float(n.as_f64().unwrap_or(f64::NAN))
    }
}

/// Exact comparison of an int with a float, as Python does.
#[allow(clippy::cast_precision_loss, clippy::float_cmp)]
pub(crate) fn int_eq_float(i: i128, f: f64) -> bool {
    // Both sides exact: the float must be integral and the int must
    // survive the round trip.
    f.fract() == 0.0 && (i as f64) == f && {
        // f is integral and within i128 when it compares equal to i as f64
        // only if converting back gives i.
        #[allow(clippy::cast_possible_truncation)]
        let back = f as i128;
        back == i
    }
}

/// Python's `a == b` for JSON values.
pub(crate) fn eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Null, Value::Null) => true,
        (Value::String(x), Value::String(y)) => x == y,
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| eq(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| eq(v, w)))
        }
        _ => match (num(a), num(b)) {
            (Some(Num::Int(x)), Some(Num::Int(y))) => x == y,
            #[allow(clippy::float_cmp)]
            (Some(Num::Float(x)), Some(Num::Float(y))) => x == y,
            (Some(Num::Int(i)), Some(Num::Float(f))) | (Some(Num::Float(f)), Some(Num::Int(i))) => {
                int_eq_float(i, f)
            }
            _ => false,
        },
    }
}

/// `x in list`.
pub(crate) fn contains(list: &[Value], x: &Value) -> bool {
    list.iter().any(|v| eq(v, x))
}

/// Python's truthiness.
pub(crate) fn truthy(v: &Value) -> bool {
    match v {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => match number(n) {
            Num::Int(i) => i != 0,
            Num::Float(f) => f != 0.0,
        },
        Value::String(s) => !s.is_empty(),
        Value::Array(a) => !a.is_empty(),
        Value::Object(m) => !m.is_empty(),
    }
}

/// `type(v)` as Python prints it (`<class 'str'>`).
pub(crate) fn type_repr(v: &Value) -> String {
    format!("<class '{}'>", type_name(v))
}

/// `type(v).__name__`.
pub(crate) fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "NoneType",
        Value::Bool(_) => "bool",
        Value::Number(n) => match number(n) {
            Num::Int(_) => "int",
            Num::Float(_) => "float",
        },
        Value::String(_) => "str",
        Value::Array(_) => "list",
        Value::Object(_) => "dict",
    }
}

/// Python's `repr(float)`: the shortest digits that read back, in
/// scientific notation when the exponent is below -4 or 16 and above.
pub(crate) fn float_repr(f: f64) -> String {
    if f.is_nan() {
        return "nan".into();
    }
    if f.is_infinite() {
        return if f > 0.0 { "inf" } else { "-inf" }.into();
    }
    if f == 0.0 {
        return if f.is_sign_negative() { "-0.0" } else { "0.0" }.into();
    }
    // Rust's `{:e}` gives the same shortest round-trip digits.
    let sci = format!("{:e}", f.abs());
    let (mantissa, exp) = sci.split_once('e').unwrap_or((sci.as_str(), "0"));
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let exp: i64 = exp.parse().unwrap_or(0);
    let sign = if f < 0.0 { "-" } else { "" };
    // The decimal point sits after `decpt` digits.
    let decpt = exp + 1;
    let n = i64::try_from(digits.len()).unwrap_or(i64::MAX);
    let body = if decpt > 16 || decpt <= -4 {
        let (first, rest) = digits.split_at(1);
        let rest = if rest.is_empty() {
            String::new()
        } else {
            format!(".{rest}")
        };
        let e = decpt - 1;
        format!(
            "{first}{rest}e{}{:02}",
            if e < 0 { '-' } else { '+' },
            e.abs()
        )
    } else if decpt <= 0 {
        format!(
            "0.{}{digits}",
            "0".repeat(usize::try_from(-decpt).unwrap_or(0))
        )
    } else if decpt >= n {
        format!(
            "{digits}{}.0",
            "0".repeat(usize::try_from(decpt - n).unwrap_or(0))
        )
    } else {
        let (a, b) = digits.split_at(usize::try_from(decpt).unwrap_or(0));
        format!("{a}.{b}")
    };
    format!("{sign}{body}")
}

fn number_text(n: &Number) -> String {
    match number(n) {
        Num::Int(i) => i.to_string(),
        Num::Float(f) => float_repr(f),
    }
}

/// Python's `str(v)`.
pub(crate) fn str(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        _ => repr(v),
    }
}

/// Python's `repr(v)`.
pub(crate) fn repr(v: &Value) -> String {
    let mut out = String::new();
    write_repr(v, &mut out);
    out
}

fn write_repr(v: &Value, out: &mut String) {
    match v {
        Value::Null => out.push_str("None"),
        Value::Bool(true) => out.push_str("True"),
        Value::Bool(false) => out.push_str("False"),
        Value::Number(n) => out.push_str(&number_text(n)),
        Value::String(s) => out.push_str(&str_repr(s)),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_repr(item, out);
            }
            out.push(']');
        }
        Value::Object(m) => {
            out.push('{');
            for (i, (k, item)) in m.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                out.push_str(&str_repr(k));
                out.push_str(": ");
                write_repr(item, out);
            }
            out.push('}');
        }
    }
}

/// Python's `repr(str)`: single quotes unless the text has a single quote
/// and no double one. Non-printable characters are escaped; Python's
/// printable test is Unicode's, approximated here by the control,
/// separator and format characters.
pub(crate) fn str_repr(s: &str) -> String {
    let quote = if s.contains('\'') && !s.contains('"') {
        '"'
    } else {
        '\''
    };
    let mut out = String::with_capacity(s.len() + 2);
    out.push(quote);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if !printable(c) => {
                let n = u32::from(c);
                if n < 0x100 {
                    let _ = write!(out, "\\x{n:02x}");
                } else if n < 0x10000 {
                    let _ = write!(out, "\\u{n:04x}");
                } else {
                    let _ = write!(out, "\\U{n:08x}");
                }
            }
            c => out.push(c),
        }
    }
    out.push(quote);
    out
}

fn printable(c: char) -> bool {
    let n = u32::from(c);
    !(c.is_control()
        || (c.is_whitespace() && c != ' ')
        || matches!(n,
            0xad | 0x600..=0x605 | 0x61c | 0x6dd | 0x70f | 0x180e | 0x200b..=0x200f
            | 0x202a..=0x202e | 0x2060..=0x2064 | 0x2066..=0x206f | 0xfeff | 0xfff9..=0xfffb
            | 0xe000..=0xf8ff | 0xf_0000..=0x10_ffff))
}

/// `jsonutils.dumps(v)` (Python's `json.dumps`: ASCII only, `", "` and
/// `": "`), with the keys sorted when `sort_keys`.
pub(crate) fn json_dumps(v: &Value, sort_keys: bool) -> String {
    let mut out = String::new();
    write_json(v, sort_keys, &mut out);
    out
}

fn write_json(v: &Value, sort_keys: bool, out: &mut String) {
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => out.push_str(&number_text(n)),
        Value::String(s) => json_string(s, out),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_json(item, sort_keys, out);
            }
            out.push(']');
        }
        Value::Object(m) => {
            let mut entries: Vec<(&String, &Value)> = m.iter().collect();
            if sort_keys {
                // Code point order, as Python compares strings.
                entries.sort_by(|a, b| a.0.cmp(b.0));
            }
            out.push('{');
            for (i, (k, item)) in entries.into_iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                json_string(k, out);
                out.push_str(": ");
                write_json(item, sort_keys, out);
            }
            out.push('}');
        }
    }
}

fn json_string(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            ' '..='~' => out.push(c),
            c => {
                let mut units = [0u16; 2];
                for u in c.encode_utf16(&mut units) {
                    let _ = write!(out, "\\u{u:04x}");
                }
            }
        }
    }
    out.push('"');
}

/// Python's `str.isspace` for one character (also what `re`'s `\s`
/// matches in a `str` pattern).
pub(crate) fn is_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// The first code point of each run of ten decimal digits (Unicode
/// category Nd) that Python 3.11 knows (Unicode 14.0), from
/// `[c for c in range(0x110000) if unicodedata.decimal(chr(c), None) == 0]`.
const DIGIT_ZEROS: [u32; 66] = [
    0x30, 0x660, 0x6f0, 0x7c0, 0x966, 0x9e6, 0xa66, 0xae6, 0xb66, 0xbe6, 0xc66, 0xce6, 0xd66,
    0xde6, 0xe50, 0xed0, 0xf20, 0x1040, 0x1090, 0x17e0, 0x1810, 0x1946, 0x19d0, 0x1a80, 0x1a90,
    0x1b50, 0x1bb0, 0x1c40, 0x1c50, 0xa620, 0xa8d0, 0xa900, 0xa9d0, 0xa9f0, 0xaa50, 0xabf0, 0xff10,
    0x104a0, 0x10d30, 0x11066, 0x110f0, 0x11136, 0x111d0, 0x112f0, 0x11450, 0x114d0, 0x11650,
    0x116c0, 0x11730, 0x118e0, 0x11950, 0x11c50, 0x11d50, 0x11da0, 0x16a60, 0x16ac0, 0x16b50,
    0x1d7ce, 0x1d7d8, 0x1d7e2, 0x1d7ec, 0x1d7f6, 0x1e140, 0x1e2f0, 0x1e950, 0x1fbf0,
];

/// Python's `unicodedata.decimal(c)`: the value of a decimal digit of any
/// script, as `int()` reads it.
pub(crate) fn decimal_digit(c: char) -> Option<u32> {
    let n = u32::from(c);
    let i = DIGIT_ZEROS.partition_point(|&z| z <= n).checked_sub(1)?;
    let d = n - DIGIT_ZEROS[i];
    (d < 10).then_some(d)
}

/// Python's `int(text)` for a string: surrounding whitespace, a sign,
/// decimal digits (any script's: `"١٢"` is 12) with single underscores
/// between them. `None` when Python raises `ValueError` (or the number is
/// beyond `i128`, which no index or port reaches).
pub(crate) fn int_of_str(text: &str) -> Option<i128> {
    let t = text.trim_matches(char::is_whitespace);
    let (negative, digits) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    if digits.is_empty()
        || digits.starts_with('_')
        || digits.ends_with('_')
        || digits.contains("__")
    {
        return None;
    }
    let mut n: i128 = 0;
    for c in digits.chars() {
        if c == '_' {
            continue;
        }
        let d = decimal_digit(c)?;
        n = n.checked_mul(10)?.checked_add(i128::from(d))?;
    }
    Some(if negative { -n } else { n })
}

/// Python's `int(v)` for any value: `Err` carries the exception text.
pub(crate) fn int_of(v: &Value) -> Result<i128, String> {
    match v {
        Value::Bool(b) => Ok(i128::from(*b)),
        Value::Number(n) => match number(n) {
            Num::Int(i) => Ok(i),
            #[allow(clippy::cast_possible_truncation)]
            Num::Float(f) if f.is_finite() => Ok(f.trunc() as i128),
            Num::Float(_) => Err("cannot convert float infinity to integer".into()),
        },
        Value::String(s) => int_of_str(s)
            .ok_or_else(|| format!("invalid literal for int() with base 10: {}", str_repr(s))),
        other => Err(format!(
            "int() argument must be a string, a bytes-like object or a real number, not '{}'",
            type_name(other)
        )),
    }
}

/// True when `v` is a Python `int` (bools included), as `isinstance(v,
/// int)` answers.
pub(crate) fn is_int(v: &Value) -> bool {
    matches!(num(v), Some(Num::Int(_)))
}

/// Python's `seq[index]` for a list or a string (negative indexes count
/// from the end); `None` for `IndexError`.
pub(crate) fn index<T>(len: usize, index: i128, pick: impl FnOnce(usize) -> T) -> Option<T> {
    let len = i128::try_from(len).ok()?;
    let i = if index < 0 { index + len } else { index };
    if (0..len).contains(&i) {
        usize::try_from(i).ok().map(pick)
    } else {
        None
    }
}

/// Python's `s.split(sep)`; `sep` `None` splits on runs of whitespace.
/// `Err` for an empty separator (`ValueError: empty separator`).
pub(crate) fn split(s: &str, sep: Option<&str>) -> Result<Vec<String>, String> {
    match sep {
        Some("") => Err("empty separator".into()),
        Some(sep) => Ok(s.split(sep).map(str::to_owned).collect()),
        None => Ok(s
            .split(is_space)
            .filter(|p| !p.is_empty())
            .map(str::to_owned)
            .collect()),
    }
}

/// Python's `urllib.parse.quote(s, safe)`: UTF-8, every byte but ASCII
/// letters, digits, `_.-~` and `safe` as `%XX`.
pub(crate) fn quote(s: &str, safe: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"_.-~".contains(&b) || safe.as_bytes().contains(&b) {
            out.push(char::from(b));
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

/// Python's `urllib.parse.quote_plus(s)` (`safe=''`): spaces as `+`.
pub(crate) fn quote_plus(s: &str) -> String {
    if !s.contains(' ') {
        return quote(s, "");
    }
    quote(s, " ").replace(' ', "+")
}
