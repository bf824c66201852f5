//! yaql's `strings` library, with Python's `str` methods (indexes count
//! characters, as Python's do).

use super::super::engine::{limit_memory, Body, Bound, Engine};
use super::super::iter;
use super::super::value::{self, Value};
use super::super::{Error, R};
use super::{int, slice_bounds, text};
use crate::eval::python;

/// The table of bodies (one arm per function: long by nature).
#[allow(clippy::too_many_lines)]
pub(super) fn body(id: &str) -> Option<Body> {
    Some(match id {
        "strings.gt" => |_, b| Ok(Value::Bool(text(&b.val(0)?)? > text(&b.val(1)?)?)),
        "strings.lt" => |_, b| Ok(Value::Bool(text(&b.val(0)?)? < text(&b.val(1)?)?)),
        "strings.gte" => |_, b| Ok(Value::Bool(text(&b.val(0)?)? >= text(&b.val(1)?)?)),
        "strings.lte" => |_, b| Ok(Value::Bool(text(&b.val(0)?)? <= text(&b.val(1)?)?)),
        "strings.concat" => |_, b| {
            let mut out = String::new();
            for v in b.vals_from(0)? {
                out.push_str(&text(&v)?);
            }
            Ok(Value::str(&out))
        },
        "strings.to_upper" => |_, b| Ok(Value::str(&text(&b.val(0)?)?.to_uppercase())),
        "strings.to_lower" => |_, b| Ok(Value::str(&text(&b.val(0)?)?.to_lowercase())),
        "strings.len_" => |_, b| Ok(count(text(&b.val(0)?)?.chars().count())),
        "strings.split" => |_, b| {
            let s = text(&b.val(0)?)?;
            let sep = opt_text(&b.val(1)?)?;
            let n = int(&b.val(2)?)?;
            Ok(strings(&split(&s, sep.as_deref(), n)?))
        },
        "strings.right_split" => |_, b| {
            let s = text(&b.val(0)?)?;
            let sep = opt_text(&b.val(1)?)?;
            let n = int(&b.val(2)?)?;
            Ok(strings(&rsplit(&s, sep.as_deref(), n)?))
        },
        "strings.join" => |eng, b| join(eng, b, 0, 1),
        "strings.join_" => |eng, b| join(eng, b, 1, 0),
        "strings.str_" => |_, b| {
            Ok(Value::str(&match b.val(0)? {
                Value::None => "null".into(),
                Value::Bool(true) => "true".into(),
                Value::Bool(false) => "false".into(),
                v => value::to_str(&v)?,
            }))
        },
        "strings.trim" => |_, b| strip_with(b, true, true),
        "strings.trim_left" => |_, b| strip_with(b, true, false),
        "strings.trim_right" => |_, b| strip_with(b, false, true),
        "strings.norm" => |_, b| {
            let Value::Str(s) = b.val(0)? else {
                return Ok(Value::None);
            };
            let chars = opt_text(&b.val(1)?)?;
            let v = strip(&s, chars.as_deref(), true, true);
            Ok(if v.is_empty() {
                Value::None
            } else {
                Value::str(&v)
            })
        },
        "strings.is_empty" => |_, b| {
            let Value::Str(s) = b.val(0)? else {
                return Ok(Value::Bool(true));
            };
            let trim = b.val(1)?.truthy();
            let chars = opt_text(&b.val(2)?)?;
            let s = if trim {
                strip(&s, chars.as_deref(), true, true)
            } else {
                s.to_string()
            };
            Ok(Value::Bool(s.is_empty()))
        },
        "strings.replace" => |_, b| {
            let s = text(&b.val(0)?)?;
            let (old, new) = (text(&b.val(1)?)?, text(&b.val(2)?)?);
            let n = int(&b.val(3)?)?;
            Ok(Value::str(&replace(&s, &old, &new, n)))
        },
        "strings.replace_with_dict" => |eng, b| {
            let mut out = text(&b.val(0)?)?.to_string();
            let Value::Dict(replacements) = b.val(1)? else {
                return Err(Error::unsupported("replacements that are not a dict"));
            };
            let count = int(&b.val(2)?)?;
            for (key, val) in &replacements.map {
                let key = text(&eng.delegate("str", &b.ctx, vec![key.0.clone()])?)?;
                let val = text(&eng.delegate("str", &b.ctx, vec![val.clone()])?)?;
                out = replace(&out, &key, &val, count);
            }
            Ok(Value::str(&out))
        },
        "strings.string_by_int" => |_, b| repeat(&b.val(0)?, &b.val(1)?),
        "strings.int_by_string" => |_, b| repeat(&b.val(1)?, &b.val(0)?),
        "strings.in_" => |_, b| Ok(Value::Bool(text(&b.val(1)?)?.contains(&*text(&b.val(0)?)?))),
        "strings.substring" => |_, b| {
            let s: Vec<char> = text(&b.val(0)?)?.chars().collect();
            let n = i64::try_from(s.len()).unwrap_or(i64::MAX);
            let mut start = int(&b.val(1)?)?;
            let mut length = int(&b.val(2)?)?;
            if length < 0 {
                length = n;
            }
            if start < 0 {
                start += n;
            }
            let (a, z) = slice_bounds(s.len(), Some(start), Some(start.saturating_add(length)));
            Ok(Value::str(&s[a..z].iter().collect::<String>()))
        },
        "strings.index_of" => |_, b| {
            let (s, sub) = (text(&b.val(0)?)?, text(&b.val(1)?)?);
            Ok(Value::Int(find(&s, &sub, int(&b.val(2)?)?, None, false)))
        },
        "strings.index_of_" => |_, b| find_in(b, false),
        "strings.last_index_of" => |_, b| {
            let (s, sub) = (text(&b.val(0)?)?, text(&b.val(1)?)?);
            Ok(Value::Int(find(&s, &sub, int(&b.val(2)?)?, None, true)))
        },
        "strings.last_index_of_" => |_, b| find_in(b, true),
        "strings.to_char_array" => |_, b| {
            Ok(Value::tuple(
                text(&b.val(0)?)?
                    .chars()
                    .map(|c| Value::str(&c.to_string()))
                    .collect(),
            ))
        },
        "strings.is_string" => |_, b| Ok(Value::Bool(matches!(b.val(0)?, Value::Str(_)))),
        "strings.starts_with" => |_, b| affix(b, |s, p| s.starts_with(p)),
        "strings.ends_with" => |_, b| affix(b, |s, p| s.ends_with(p)),
        "strings.hex_" => |_, b| match b.val(0)? {
            Value::Int(i) => Ok(Value::str(&if i < 0 {
                format!("-0x{:x}", i.unsigned_abs())
            } else {
                format!("0x{i:x}")
            })),
            other => Err(Error::raised(
                "TypeError",
                format!(
                    "'{}' object cannot be interpreted as an integer",
                    other.type_name()
                ),
            )),
        },
        _ => return None,
    })
}

pub(super) fn count(n: usize) -> Value {
    Value::Int(i64::try_from(n).unwrap_or(i64::MAX))
}

fn strings(parts: &[String]) -> Value {
    Value::list(parts.iter().map(|p| Value::str(p)).collect())
}

fn opt_text(v: &Value) -> R<Option<String>> {
    match v {
        Value::None => Ok(None),
        v => Ok(Some(text(v)?.to_string())),
    }
}

/// `separator.join(map(str, sequence))`, with yaql's `str`.
fn join(eng: &Engine, b: &mut Bound, seq: usize, sep: usize) -> R<Value> {
    let sequence = b.val(seq)?;
    let separator = text(&b.val(sep)?)?;
    let it = iter::iter_of(eng, &sequence)?;
    let mut parts = Vec::new();
    while let Some(x) = iter::next(eng, &it)? {
        parts.push(text(&eng.delegate("str", &b.ctx, vec![x])?)?.to_string());
    }
    Ok(Value::str(&parts.join(&separator)))
}

/// `startsWith`/`endsWith`: whether the string has any of the given
/// prefixes (suffixes).
fn affix(b: &Bound, has: fn(&str, &str) -> bool) -> R<Value> {
    let s = text(&b.val(0)?)?;
    let any = b
        .vals_from(1)?
        .iter()
        .map(text)
        .collect::<R<Vec<_>>>()?
        .iter()
        .any(|p| has(&s, p));
    Ok(Value::Bool(any))
}

fn strip_with(b: &Bound, left: bool, right: bool) -> R<Value> {
    let s = text(&b.val(0)?)?;
    let chars = opt_text(&b.val(1)?)?;
    Ok(Value::str(&strip(&s, chars.as_deref(), left, right)))
}

/// Python's `strip`/`lstrip`/`rstrip`.
pub(super) fn strip(s: &str, chars: Option<&str>, left: bool, right: bool) -> String {
    let strip_it = |c: char| match chars {
        None => python::is_space(c),
        Some(set) => set.contains(c),
    };
    let mut t = s;
    if left {
        t = t.trim_start_matches(strip_it);
    }
    if right {
        t = t.trim_end_matches(strip_it);
    }
    t.to_owned()
}

fn empty_separator() -> Error {
    Error::raised("ValueError", "empty separator")
}

/// Python's `str.split(sep, maxsplit)`.
pub(super) fn split(s: &str, sep: Option<&str>, maxsplit: i64) -> R<Vec<String>> {
    let mut left = if maxsplit < 0 { i64::MAX } else { maxsplit };
    let mut out = Vec::new();
    match sep {
        Some("") => Err(empty_separator()),
        Some(sep) => {
            let mut rest = s;
            while left > 0 {
                let Some(at) = rest.find(sep) else {
                    break;
                };
                out.push(rest[..at].to_owned());
                rest = &rest[at + sep.len()..];
                left -= 1;
            }
            out.push(rest.to_owned());
            Ok(out)
        }
        None => {
            let chars: Vec<char> = s.chars().collect();
            let n = chars.len();
            let mut i = 0;
            while left > 0 {
                while i < n && python::is_space(chars[i]) {
                    i += 1;
                }
                if i == n {
                    break;
                }
                let j = i;
                i += 1;
                while i < n && !python::is_space(chars[i]) {
                    i += 1;
                }
                out.push(chars[j..i].iter().collect());
                left -= 1;
            }
            if i < n {
                while i < n && python::is_space(chars[i]) {
                    i += 1;
                }
                if i != n {
                    out.push(chars[i..].iter().collect());
                }
            }
            Ok(out)
        }
    }
}

/// Python's `str.rsplit(sep, maxsplit)`.
pub(super) fn rsplit(s: &str, sep: Option<&str>, maxsplit: i64) -> R<Vec<String>> {
    let mut left = if maxsplit < 0 { i64::MAX } else { maxsplit };
    let mut out = Vec::new();
    match sep {
        Some("") => Err(empty_separator()),
        Some(sep) => {
            let mut rest = s;
            while left > 0 {
                let Some(at) = rest.rfind(sep) else {
                    break;
                };
                out.push(rest[at + sep.len()..].to_owned());
                rest = &rest[..at];
                left -= 1;
            }
            out.push(rest.to_owned());
            out.reverse();
            Ok(out)
        }
        None => {
            let chars: Vec<char> = s.chars().collect();
            // Indexes shifted by one: `i` is one past the character.
            let mut i = chars.len();
            while left > 0 {
                while i > 0 && python::is_space(chars[i - 1]) {
                    i -= 1;
                }
                if i == 0 {
                    break;
                }
                let j = i;
                i -= 1;
                while i > 0 && !python::is_space(chars[i - 1]) {
                    i -= 1;
                }
                out.push(chars[i..j].iter().collect());
                left -= 1;
            }
            if i > 0 {
                while i > 0 && python::is_space(chars[i - 1]) {
                    i -= 1;
                }
                if i > 0 {
                    out.push(chars[..i].iter().collect());
                }
            }
            out.reverse();
            Ok(out)
        }
    }
}

/// Python's `str.replace(old, new, count)`.
pub(super) fn replace(s: &str, old: &str, new: &str, count: i64) -> String {
    let mut left = if count < 0 { i64::MAX } else { count };
    let mut out = String::with_capacity(s.len());
    if old.is_empty() {
        for c in s.chars() {
            if left > 0 {
                out.push_str(new);
                left -= 1;
            }
            out.push(c);
        }
        if left > 0 {
            out.push_str(new);
        }
        return out;
    }
    let mut rest = s;
    while left > 0 {
        let Some(at) = rest.find(old) else {
            break;
        };
        out.push_str(&rest[..at]);
        out.push_str(new);
        rest = &rest[at + old.len()..];
        left -= 1;
    }
    out.push_str(rest);
    out
}

/// `str * int` with yaql's memory check first.
fn repeat(s: &Value, n: &Value) -> R<Value> {
    let times = int(n)?;
    limit_memory(&[(1 - times, &Value::str("")), (times, s)])?;
    let s = text(s)?;
    let times = usize::try_from(times).unwrap_or(0);
    Ok(Value::str(&s.repeat(times)))
}

/// Python's `str.find`/`str.rfind(sub, start, end)`, in characters.
fn find(haystack: &str, sub: &str, start: i64, end: Option<i64>, last: bool) -> i64 {
    let chars: Vec<char> = haystack.chars().collect();
    let subc: Vec<char> = sub.chars().collect();
    let length = i64::try_from(chars.len()).unwrap_or(i64::MAX);
    let fix = |i: i64| if i < 0 { (i + length).max(0) } else { i };
    let start = fix(start);
    let end = end.map_or(length, |e| fix(e).min(length));
    if start > length {
        return -1;
    }
    let sub_len = i64::try_from(subc.len()).unwrap_or(i64::MAX);
    if end - start < sub_len {
        return -1;
    }
    let (from, to) = (
        usize::try_from(start).unwrap_or(0),
        usize::try_from(end).unwrap_or(0),
    );
    let hay = &chars[from..to];
    let found = if subc.is_empty() {
        Some(if last { hay.len() } else { 0 })
    } else if last {
        hay.windows(subc.len()).rposition(|w| w == subc.as_slice())
    } else {
        hay.windows(subc.len()).position(|w| w == subc.as_slice())
    };
    found.map_or(-1, |i| start + i64::try_from(i).unwrap_or(0))
}

/// `indexOf(sub, start, length)` and `lastIndexOf(sub, start, length)`.
fn find_in(b: &Bound, last: bool) -> R<Value> {
    let (s, sub) = (text(&b.val(0)?)?, text(&b.val(1)?)?);
    let n = i64::try_from(s.chars().count()).unwrap_or(i64::MAX);
    let mut start = int(&b.val(2)?)?;
    let mut length = int(&b.val(3)?)?;
    if start < 0 {
        start += n;
    }
    if length < 0 {
        length = n - start;
    }
    Ok(Value::Int(find(
        &s,
        &sub,
        start,
        Some(start.saturating_add(length)),
        last,
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_as_python() {
        assert_eq!(split("  a  b  c ", None, 1).unwrap(), ["a", "b  c "]);
        assert_eq!(split("a,b,,c", Some(","), -1).unwrap(), ["a", "b", "", "c"]);
        assert_eq!(rsplit("a b  c  ", None, 1).unwrap(), ["a b", "c"]);
        assert_eq!(rsplit("a:b:c", Some(":"), 1).unwrap(), ["a:b", "c"]);
        assert_eq!(split("", None, -1).unwrap(), Vec::<String>::new());
        assert_eq!(split("", Some(","), -1).unwrap(), [""]);
        assert_eq!(replace("ab", "", "-", -1), "-a-b-");
        assert_eq!(replace("ab", "", "-", 2), "-a-b");
        assert_eq!(find("abc", "", 3, None, false), 3);
        assert_eq!(find("abc", "", 4, None, false), -1);
        assert_eq!(find("abcb", "b", 0, None, true), 3);
    }
}
