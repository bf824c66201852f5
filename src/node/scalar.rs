//! PyYAML's YAML 1.1 rules for plain scalars, with Heat's override
//! (timestamps stay text): which text is a null, a boolean, an integer or a
//! float, and the value each becomes. A leaf: the loader builds trees with
//! it, the model compares capability values with it, and the YAML renderer
//! quotes what would not read back as text.

use compact_str::CompactString;

use super::Value;

/// Marks a plain `<<` key until its mapping is flattened.
pub(crate) const MERGE_MARK: &str = "\u{0}<<merge";
/// Marks a plain `=` (YAML 1.1's `value` tag): a string as a key, an error
/// anywhere else, as in PyYAML.
pub(crate) const VALUE_MARK: &str = "\u{0}=value";

/// PyYAML's implicit resolver for plain scalars (YAML 1.1), with Heat's
/// timestamps-stay-text override.
pub(crate) fn resolve_plain(text: CompactString) -> Value {
    let Some(&first) = text.as_bytes().first() else {
        return Value::Null;
    };
    match first {
        b'y' | b'Y' | b'n' | b'N' | b't' | b'T' | b'f' | b'F' | b'o' | b'O' => {
            if let Some(b) = yaml11_bool(&text) {
                return Value::Bool(b);
            }
            if matches!(text.as_str(), "null" | "Null" | "NULL") {
                return Value::Null;
            }
        }
        b'~' if text == "~" => return Value::Null,
        b'<' if text == "<<" => return Value::Str(CompactString::const_new(MERGE_MARK)),
        b'=' if text == "=" => return Value::Str(CompactString::const_new(VALUE_MARK)),
        b'-' | b'+' | b'0'..=b'9' | b'.' => {
            if is_yaml11_float(&text) {
                return Value::Float(construct_float(&text).unwrap_or(f64::NAN));
            }
            if is_yaml11_int(&text) {
                if let Some(v) = construct_int(&text) {
                    return v;
                }
            }
        }
        _ => {}
    }
    Value::Str(text)
}

pub(crate) fn yaml11_bool(text: &str) -> Option<bool> {
    match text {
        "yes" | "Yes" | "YES" | "true" | "True" | "TRUE" | "on" | "On" | "ON" => Some(true),
        "no" | "No" | "NO" | "false" | "False" | "FALSE" | "off" | "Off" | "OFF" => Some(false),
        _ => None,
    }
}

/// Consumes `[0-9_]*` (or with `first_required`, `[0-9][0-9_]*`) and returns the rest.
fn digits_underscores(s: &str, first_required: bool) -> Option<&str> {
    let b = s.as_bytes();
    if first_required && !b.first().is_some_and(u8::is_ascii_digit) {
        return None;
    }
    let n = b
        .iter()
        .take_while(|c| c.is_ascii_digit() || **c == b'_')
        .count();
    Some(&s[n..])
}

fn strip_sign(s: &str) -> &str {
    s.strip_prefix(['-', '+']).unwrap_or(s)
}

/// `(?:[eE][-+][0-9]+)?` at the end of the text.
fn optional_exponent(rest: &str) -> bool {
    if rest.is_empty() {
        return true;
    }
    let Some(r) = rest.strip_prefix(['e', 'E']) else {
        return false;
    };
    let Some(r) = r.strip_prefix(['-', '+']) else {
        return false;
    };
    !r.is_empty() && r.bytes().all(|c| c.is_ascii_digit())
}

/// `(?::[0-5]?[0-9])+` at the start; returns the rest.
fn sexagesimal_tail(mut s: &str) -> Option<&str> {
    let mut groups = 0;
    while let Some(r) = s.strip_prefix(':') {
        let b = r.as_bytes();
        let n = match (b.first(), b.get(1)) {
            (Some(a), Some(c)) if (b'0'..=b'5').contains(a) && c.is_ascii_digit() => 2,
            (Some(a), _) if a.is_ascii_digit() => 1,
            _ => return None,
        };
        s = &r[n..];
        groups += 1;
    }
    (groups > 0).then_some(s)
}

/// PyYAML's float regex:
/// `[-+]?([0-9][0-9_]*)\.[0-9_]*([eE][-+][0-9]+)?` | `\.[0-9][0-9_]*([eE][-+][0-9]+)?`
/// | `[-+]?[0-9][0-9_]*(:[0-5]?[0-9])+\.[0-9_]*` | `[-+]?\.(inf|Inf|INF)` | `\.(nan|NaN|NAN)`.
pub(crate) fn is_yaml11_float(text: &str) -> bool {
    if matches!(text, ".nan" | ".NaN" | ".NAN") {
        return true;
    }
    let unsigned = strip_sign(text);
    if matches!(unsigned, ".inf" | ".Inf" | ".INF") {
        return true;
    }
    // `\.[0-9][0-9_]*(exp)?` takes no sign.
    if let Some(r) = text.strip_prefix('.') {
        return digits_underscores(r, true)
            .and_then(|rest| optional_exponent(rest).then_some(()))
            .is_some();
    }
    let Some(rest) = digits_underscores(unsigned, true) else {
        return false;
    };
    if let Some(r) = rest.strip_prefix('.') {
        return digits_underscores(r, false).is_some_and(optional_exponent);
    }
    if let Some(r) = sexagesimal_tail(rest) {
        if let Some(r) = r.strip_prefix('.') {
            return digits_underscores(r, false).is_some_and(str::is_empty);
        }
    }
    false
}

/// PyYAML's int regex: `[-+]?0b[0-1_]+` | `[-+]?0[0-7_]+` | `[-+]?(0|[1-9][0-9_]*)`
/// | `[-+]?0x[0-9a-fA-F_]+` | `[-+]?[1-9][0-9_]*(:[0-5]?[0-9])+`.
pub(crate) fn is_yaml11_int(text: &str) -> bool {
    let s = strip_sign(text);
    if let Some(r) = s.strip_prefix("0b") {
        return !r.is_empty() && r.bytes().all(|c| matches!(c, b'0' | b'1' | b'_'));
    }
    if let Some(r) = s.strip_prefix("0x") {
        return !r.is_empty() && r.bytes().all(|c| c.is_ascii_hexdigit() || c == b'_');
    }
    if s == "0" {
        return true;
    }
    if let Some(r) = s.strip_prefix('0') {
        return !r.is_empty() && r.bytes().all(|c| matches!(c, b'0'..=b'7' | b'_'));
    }
    if !s
        .as_bytes()
        .first()
        .is_some_and(|c| matches!(c, b'1'..=b'9'))
    {
        return false;
    }
    let Some(rest) = digits_underscores(s, true) else {
        return false;
    };
    rest.is_empty() || sexagesimal_tail(rest).is_some_and(str::is_empty)
}

/// PyYAML's `construct_yaml_int` (also used for explicit `!!int`).
pub(crate) fn construct_int(text: &str) -> Option<Value> {
    let cleaned: String = text.chars().filter(|c| *c != '_').collect();
    let (negative, body) = match cleaned.as_bytes().first() {
        Some(b'-') => (true, &cleaned[1..]),
        Some(b'+') => (false, &cleaned[1..]),
        _ => (false, cleaned.as_str()),
    };
    let magnitude: i128 = if body == "0" {
        0
    } else if let Some(b) = body.strip_prefix("0b") {
        i128::from_str_radix(b, 2).ok()?
    } else if let Some(h) = body.strip_prefix("0x") {
        i128::from_str_radix(h, 16).ok()?
    } else if body.len() > 1 && body.starts_with('0') {
        i128::from_str_radix(body, 8).ok()?
    } else if body.contains(':') {
        let mut total: i128 = 0;
        for part in body.split(':') {
            total = total
                .checked_mul(60)?
                .checked_add(part.parse::<i128>().ok()?)?;
        }
        total
    } else {
        match body.parse::<i128>() {
            Ok(v) => v,
            Err(_) if !body.is_empty() && body.bytes().all(|c| c.is_ascii_digit()) => {
                let digits = body.trim_start_matches('0');
                let sign = if negative { "-" } else { "" };
                return Some(Value::BigInt((format!("{sign}{digits}")).into()));
            }
            Err(_) => return None,
        }
    };
    let v = if negative { -magnitude } else { magnitude };
    Some(i64::try_from(v).map_or_else(|_| Value::BigInt(v.to_string().into()), Value::Int))
}

/// PyYAML's `construct_yaml_float`.
pub(crate) fn construct_float(text: &str) -> Option<f64> {
    let cleaned: String = text
        .chars()
        .filter(|c| *c != '_')
        .collect::<String>()
        .to_lowercase();
    let (sign, body) = match cleaned.as_bytes().first() {
        Some(b'-') => (-1.0, &cleaned[1..]),
        Some(b'+') => (1.0, &cleaned[1..]),
        _ => (1.0, cleaned.as_str()),
    };
    if body == ".inf" {
        return Some(sign * f64::INFINITY);
    }
    if body == ".nan" {
        return Some(f64::NAN);
    }
    if body.contains(':') {
        let mut total = 0.0;
        for part in body.split(':') {
            total = total * 60.0 + part.parse::<f64>().ok()?;
        }
        return Some(sign * total);
    }
    // Python's float() accepts "5." and ".5"; Rust's parser does too.
    body.parse::<f64>().ok().map(|v| sign * v)
}
