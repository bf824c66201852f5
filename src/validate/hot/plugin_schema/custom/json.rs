//! `json_string`: Heat's `JsonStringConstraint`, Python 3.11's
//! `json.loads` (its C scanner, `Modules/_json.c`), with the message and
//! position of the `JSONDecodeError` it raises.

use super::Verdict;

/// Deeper than this, Python may stop with a `RecursionError` instead
/// (not a `JSONDecodeError`): not checked.
const MAX_DEPTH: usize = 200;

/// Python refuses to read an integer of more digits (a `ValueError`,
/// not a `JSONDecodeError`): not checked.
const MAX_INT_DIGITS: usize = 4300;

/// `JsonStringConstraint`: empty, or a document `json.loads` reads.
pub(super) fn json_string(value: &str) -> Verdict {
    if value.is_empty() {
        return Verdict::Accepts;
    }
    let s: Vec<char> = value.chars().collect();
    match loads(&s) {
        Ok(()) => Verdict::Accepts,
        Err(Stop::Error(message, pos)) => {
            let line = s[..pos].iter().filter(|c| **c == '\n').count() + 1;
            let column = s[..pos]
                .iter()
                .rposition(|c| *c == '\n')
                .map_or(pos + 1, |nl| pos - nl);
            Verdict::Refuses(format!(
                "JSON string {value} is invalid: {message}: line {line} column {column} (char {pos})"
            ))
        }
        Err(Stop::Unchecked) => Verdict::Unchecked,
    }
}

/// Why the scan stopped.
enum Stop {
    /// A `JSONDecodeError`: its message and position (in characters).
    Error(&'static str, usize),
    /// Something Python reports otherwise.
    Unchecked,
}

/// What `scan_once` gives: the index after the value, or where no value
/// starts (Python's `StopIteration`, which `raw_decode` turns into
/// "Expecting value").
enum Scan {
    Next(usize),
    NoValue(usize),
}

fn loads(s: &[char]) -> Result<(), Stop> {
    if s.first() == Some(&'\u{feff}') {
        return Err(Stop::Error(
            "Unexpected UTF-8 BOM (decode using utf-8-sig)",
            0,
        ));
    }
    let start = skip_ws(s, 0);
    let end = match scan_once(s, start, 0)? {
        Scan::Next(end) => end,
        Scan::NoValue(at) => return Err(Stop::Error("Expecting value", at)),
    };
    let end = skip_ws(s, end);
    if end != s.len() {
        return Err(Stop::Error("Extra data", end));
    }
    Ok(())
}

fn skip_ws(s: &[char], mut i: usize) -> usize {
    while i < s.len() && matches!(s[i], ' ' | '\t' | '\n' | '\r') {
        i += 1;
    }
    i
}

fn starts_with(s: &[char], i: usize, word: &str) -> bool {
    let n = word.chars().count();
    i + n <= s.len() && s[i..i + n].iter().copied().eq(word.chars())
}

fn scan_once(s: &[char], idx: usize, depth: usize) -> Result<Scan, Stop> {
    if depth > MAX_DEPTH {
        return Err(Stop::Unchecked);
    }
    let Some(&c) = s.get(idx) else {
        return Ok(Scan::NoValue(idx));
    };
    let literal = match c {
        '"' => return scanstring(s, idx + 1).map(Scan::Next),
        '{' => return parse_object(s, idx + 1, depth + 1),
        '[' => return parse_array(s, idx + 1, depth + 1),
        'n' => "null",
        't' => "true",
        'f' => "false",
        'N' => "NaN",
        'I' => "Infinity",
        '-' => "-Infinity",
        _ => "",
    };
    if !literal.is_empty() && starts_with(s, idx, literal) {
        return Ok(Scan::Next(idx + literal.chars().count()));
    }
    match_number(s, idx)
}

/// `_match_number_unicode`.
fn match_number(s: &[char], start: usize) -> Result<Scan, Stop> {
    let digit = |i: usize| s.get(i).is_some_and(char::is_ascii_digit);
    let mut idx = start;
    if s[idx] == '-' {
        idx += 1;
        if idx >= s.len() {
            return Ok(Scan::NoValue(start));
        }
    }
    let int_start = idx;
    match s[idx] {
        '1'..='9' => {
            idx += 1;
            while digit(idx) {
                idx += 1;
            }
        }
        '0' => idx += 1,
        _ => return Ok(Scan::NoValue(start)),
    }
    let int_digits = idx - int_start;
    let mut is_float = false;
    if idx + 1 < s.len() && s[idx] == '.' && digit(idx + 1) {
        is_float = true;
        idx += 2;
        while digit(idx) {
            idx += 1;
        }
    }
    if idx + 1 < s.len() && matches!(s[idx], 'e' | 'E') {
        let e_start = idx;
        idx += 1;
        if idx + 1 < s.len() && matches!(s[idx], '-' | '+') {
            idx += 1;
        }
        while digit(idx) {
            idx += 1;
        }
        if digit(idx - 1) {
            is_float = true;
        } else {
            idx = e_start;
        }
    }
    if !is_float && int_digits > MAX_INT_DIGITS {
        return Err(Stop::Unchecked);
    }
    Ok(Scan::Next(idx))
}

/// `scanstring_unicode` from just after the opening quote: the index
/// after the closing one.
fn scanstring(s: &[char], mut end: usize) -> Result<usize, Stop> {
    let begin = end - 1;
    let len = s.len();
    loop {
        let mut next = end;
        while next < len && s[next] != '"' && s[next] != '\\' {
            if u32::from(s[next]) <= 0x1f {
                return Err(Stop::Error("Invalid control character at", next));
            }
            next += 1;
        }
        if next == len {
            return Err(Stop::Error("Unterminated string starting at", begin));
        }
        if s[next] == '"' {
            return Ok(next + 1);
        }
        // A backslash.
        next += 1;
        if next == len {
            return Err(Stop::Error("Unterminated string starting at", begin));
        }
        if s[next] != 'u' {
            end = next + 1;
            if !matches!(s[next], '"' | '\\' | '/' | 'b' | 'f' | 'n' | 'r' | 't') {
                return Err(Stop::Error("Invalid \\escape", end - 2));
            }
            continue;
        }
        next += 1;
        end = next + 4;
        if end >= len {
            return Err(Stop::Error("Invalid \\uXXXX escape", next - 1));
        }
        let c = hex4(&s[next..end]).ok_or(Stop::Error("Invalid \\uXXXX escape", end - 5))?;
        if (0xd800..=0xdbff).contains(&c) && end + 6 < len && s[end] == '\\' && s[end + 1] == 'u' {
            let c2 =
                hex4(&s[end + 2..end + 6]).ok_or(Stop::Error("Invalid \\uXXXX escape", end + 1))?;
            if (0xdc00..=0xdfff).contains(&c2) {
                end += 6;
            }
        }
    }
}

fn hex4(digits: &[char]) -> Option<u32> {
    digits
        .iter()
        .try_fold(0, |acc, c| c.to_digit(16).map(|d| (acc << 4) | d))
}

/// `_parse_object_unicode` from just after `{`.
fn parse_object(s: &[char], idx: usize, depth: usize) -> Result<Scan, Stop> {
    let mut idx = skip_ws(s, idx);
    if s.get(idx) == Some(&'}') {
        return Ok(Scan::Next(idx + 1));
    }
    loop {
        if s.get(idx) != Some(&'"') {
            return Err(Stop::Error(
                "Expecting property name enclosed in double quotes",
                idx,
            ));
        }
        idx = skip_ws(s, scanstring(s, idx + 1)?);
        if s.get(idx) != Some(&':') {
            return Err(Stop::Error("Expecting ':' delimiter", idx));
        }
        idx = skip_ws(s, idx + 1);
        match scan_once(s, idx, depth)? {
            Scan::Next(next) => idx = skip_ws(s, next),
            stop @ Scan::NoValue(_) => return Ok(stop),
        }
        match s.get(idx) {
            Some('}') => return Ok(Scan::Next(idx + 1)),
            Some(',') => idx = skip_ws(s, idx + 1),
            _ => return Err(Stop::Error("Expecting ',' delimiter", idx)),
        }
    }
}

/// `_parse_array_unicode` from just after `[`.
fn parse_array(s: &[char], idx: usize, depth: usize) -> Result<Scan, Stop> {
    let mut idx = skip_ws(s, idx);
    if s.get(idx) == Some(&']') {
        return Ok(Scan::Next(idx + 1));
    }
    loop {
        match scan_once(s, idx, depth)? {
            Scan::Next(next) => idx = skip_ws(s, next),
            stop @ Scan::NoValue(_) => return Ok(stop),
        }
        match s.get(idx) {
            Some(']') => return Ok(Scan::Next(idx + 1)),
            Some(',') => idx = skip_ws(s, idx + 1),
            _ => return Err(Stop::Error("Expecting ',' delimiter", idx)),
        }
    }
}
