//! `expiration`, `timezone` and `cron_expression`: Heat's
//! `ExpirationConstraint` (oslo's `parse_isotime`, which is the `iso8601`
//! package, then a comparison with the current time),
//! `TimezoneConstraint` (Python's `zoneinfo.ZoneInfo`) and
//! `CRONExpressionConstraint` (`croniter`), the last two only in part.

use std::sync::OnceLock;
use std::time::{SystemTime, UNIX_EPOCH};

use regex::Regex;

use super::Verdict;
use crate::eval::python;

/// `ExpirationConstraint` at `now` (microseconds since the epoch):
/// empty, or an ISO 8601 time after `now`.
pub(super) fn expiration_at(value: &str, now: i128) -> Option<String> {
    if value.is_empty() {
        return None;
    }
    let reason = match parse_isotime(value.trim_matches(python::is_space)) {
        Err(e) => e,
        Ok(when) if when > now => return None,
        Ok(_) => "Expiration time is out of date.".to_owned(),
    };
    Some(format!("Expiration {value} is invalid: {reason}"))
}

/// `ExpirationConstraint` now.
pub(super) fn expiration(value: &str) -> Option<String> {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i128::try_from(d.as_micros()).unwrap_or(i128::MAX));
    expiration_at(value, now)
}

/// iso8601 2.1's `ISO8601_REGEX`, without its one look-ahead (a month
/// written without a dash may not end the string: `YYYYMM` is refused),
/// which `parse_isotime` checks before.
fn iso8601() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(concat!(
            r"^(?P<year>[0-9]{4})(",
            r"(-(?P<monthdash>[0-9]{1,2})|(?P<month>[0-9]{2}))",
            r"((-(?P<daydash>[0-9]{1,2})|(?P<day>[0-9]{2}))",
            r"((?P<separator>[ T])(?P<hour>[0-9]{2})(:?(?P<minute>[0-9]{2}))?",
            r"(:?(?P<second>[0-9]{1,2})([.,](?P<second_fraction>[0-9]+))?)?",
            r"(?P<timezone>Z|((?P<tz_sign>[-+])(?P<tz_hour>[0-9]{2}):?(?P<tz_minute>[0-9]{2})?))?",
            r")?)?)?$"
        ))
        .expect("valid regex")
    })
}

/// oslo's `parse_isotime` (iso8601's `parse_date`, UTC by default)
/// followed by `normalize_time`: microseconds since the epoch, or the
/// message of the exception.
fn parse_isotime(text: &str) -> Result<i128, String> {
    let unable = || format!("Unable to parse date string {}", python::str_repr(text));
    if text.len() == 6 && text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(unable());
    }
    let m = iso8601().captures(text).ok_or_else(unable)?;
    let num = |name: &str, default: i64| -> i64 {
        m.name(name)
            .and_then(|g| g.as_str().parse().ok())
            .unwrap_or(default)
    };
    let year = num("year", 0);
    let month = m
        .name("month")
        .or_else(|| m.name("monthdash"))
        .map_or(1, |g| g.as_str().parse().unwrap_or(1));
    let day = m
        .name("day")
        .or_else(|| m.name("daydash"))
        .map_or(1, |g| g.as_str().parse().unwrap_or(1));
    let (hour, minute, second) = (num("hour", 0), num("minute", 0), num("second", 0));
    let micro = microseconds(m.name("second_fraction").map_or("0", |g| g.as_str()));
    // The time zone is computed before `datetime()` checks the fields.
    let offset = match m.name("timezone").map(|g| g.as_str()) {
        None | Some("Z") => 0,
        Some(_) => {
            let sign = if m.name("tz_sign").map(|g| g.as_str()) == Some("-") {
                -1
            } else {
                1
            };
            let seconds = sign * (num("tz_hour", 0) * 3600 + num("tz_minute", 0) * 60);
            if seconds.abs() >= 86_400 {
                return Err(format!(
                    "offset must be a timedelta strictly between -timedelta(hours=24) and timedelta(hours=24), not {}.",
                    timedelta_repr(seconds)
                ));
            }
            seconds
        }
    };
    if !(1..=9999).contains(&year) {
        return Err(format!("year {year} is out of range"));
    }
    if !(1..=12).contains(&month) {
        return Err("month must be in 1..12".to_owned());
    }
    if day < 1 || day > days_in_month(year, month) {
        return Err("day is out of range for month".to_owned());
    }
    for (value, name, max) in [
        (hour, "hour", 23),
        (minute, "minute", 59),
        (second, "second", 59),
    ] {
        if value > max {
            return Err(format!("{name} must be in 0..{max}"));
        }
    }
    if micro > 999_999 {
        return Err("microsecond must be in 0..999999".to_owned());
    }
    let days = days_from_civil(year, month, day);
    let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset;
    // `normalize_time` subtracts the offset, within Python's years 1 to 9999.
    let first = days_from_civil(1, 1, 1) * 86_400;
    let end = days_from_civil(10_000, 1, 1) * 86_400;
    if seconds < first || seconds >= end {
        return Err("date value out of range".to_owned());
    }
    Ok(i128::from(seconds) * 1_000_000 + i128::from(micro))
}

/// `int(Decimal("0." + fraction) * Decimal("1000000.0"))` in Python's
/// default decimal context (28 significant digits, half to even).
fn microseconds(fraction: &str) -> i64 {
    let digits = fraction.trim_start_matches('0');
    let leading = fraction.len() - digits.len();
    let mut kept: Vec<u8> = digits.bytes().map(|b| b - b'0').collect();
    let mut leading = leading;
    if kept.len() > 28 {
        let rest = kept.split_off(28);
        let half = rest[0] > 5
            || (rest[0] == 5 && (rest[1..].iter().any(|d| *d > 0) || kept[27] % 2 == 1));
        if half {
            let mut i = kept.len();
            loop {
                if i == 0 {
                    kept.insert(0, 1);
                    if leading == 0 {
                        return 1_000_000;
                    }
                    leading -= 1;
                    break;
                }
                i -= 1;
                if kept[i] == 9 {
                    kept[i] = 0;
                } else {
                    kept[i] += 1;
                    break;
                }
            }
        }
    }
    let all = std::iter::repeat_n(0, leading)
        .chain(kept)
        .chain(std::iter::repeat(0));
    all.take(6).fold(0, |acc, d| acc * 10 + i64::from(d))
}

/// `repr()` of a `timedelta` of whole seconds.
fn timedelta_repr(seconds: i64) -> String {
    let days = seconds.div_euclid(86_400);
    let rest = seconds.rem_euclid(86_400);
    match (days, rest) {
        (0, 0) => "datetime.timedelta(0)".to_owned(),
        (d, 0) => format!("datetime.timedelta(days={d})"),
        (0, s) => format!("datetime.timedelta(seconds={s})"),
        (d, s) => format!("datetime.timedelta(days={d}, seconds={s})"),
    }
}

fn days_in_month(year: i64, month: i64) -> i64 {
    match month {
        2 if year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days from 1970-01-01 to a date of the proleptic Gregorian calendar.
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// `TimezoneConstraint`: whether a time zone of that name exists depends
/// on the host's time-zone database, so only what `zoneinfo` refuses on
/// every host is checked: a key that is an absolute path, is not a
/// normalised path, or leaves the database's directory.
pub(super) fn timezone(value: &str) -> Verdict {
    if value.is_empty() {
        return Verdict::Accepts;
    }
    let reason = if value.starts_with('/') {
        format!("ZoneInfo keys may not be absolute paths, got: {value}")
    } else {
        let new_path = normpath(value);
        if new_path.chars().count() != value.chars().count() {
            format!("ZoneInfo keys must be normalized relative paths, got: {value}")
        } else if !normpath(&format!("_/{new_path}")).starts_with("_/") {
            format!("ZoneInfo keys must refer to subdirectories of TZPATH, got: {value}")
        } else {
            return Verdict::Unchecked;
        }
    };
    Verdict::Refuses(format!("Invalid timezone: {reason}"))
}

/// Python's `posixpath.normpath`.
fn normpath(path: &str) -> String {
    if path.is_empty() {
        return ".".to_owned();
    }
    let slashes = if path.starts_with("//") && !path.starts_with("///") {
        2
    } else {
        usize::from(path.starts_with('/'))
    };
    let mut comps: Vec<&str> = Vec::new();
    for comp in path.split('/') {
        if comp.is_empty() || comp == "." {
            continue;
        }
        if comp != ".." || (slashes == 0 && comps.is_empty()) || comps.last() == Some(&"..") {
            comps.push(comp);
        } else if !comps.is_empty() {
            comps.pop();
        }
    }
    let joined = format!("{}{}", "/".repeat(slashes), comps.join("/"));
    if joined.is_empty() {
        ".".to_owned()
    } else {
        joined
    }
}

/// `CRONExpressionConstraint`, in part: croniter's syntax changes from
/// version to version, so only its first check is made, the one every
/// version makes: five, six or seven fields (after its `@hourly`-style
/// aliases). A value with whitespace outside ASCII is not checked (older
/// croniters split fields on it, newer ones do not).
pub(super) fn cron_expression(value: &str) -> Verdict {
    if value.is_empty() {
        return Verdict::Accepts;
    }
    if value
        .chars()
        .any(|c| python::is_space(c) && !is_ascii_space(c))
    {
        return Verdict::Unchecked;
    }
    let aliases = [
        "@midnight",
        "@hourly",
        "@daily",
        "@weekly",
        "@monthly",
        "@yearly",
        "@annually",
    ];
    if aliases.contains(&value.to_lowercase().as_str()) {
        return Verdict::Unchecked;
    }
    let fields = value
        .split(is_ascii_space)
        .filter(|f| !f.is_empty())
        .count();
    if (5..=7).contains(&fields) {
        Verdict::Unchecked
    } else {
        Verdict::Refuses(
            "Invalid CRON expression: Exactly 5, 6 or 7 columns has to be specified for iterator expression."
                .to_owned(),
        )
    }
}

/// Python's `\s` with `re.ASCII`.
fn is_ascii_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\r' | '\u{b}' | '\u{c}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn microseconds_round_as_decimal_does() {
        assert_eq!(microseconds("0"), 0);
        assert_eq!(microseconds("5"), 500_000);
        assert_eq!(microseconds("123456789"), 123_456);
        assert_eq!(microseconds("000001"), 1);
        assert_eq!(microseconds(&"9".repeat(28)), 999_999);
        assert_eq!(microseconds(&"9".repeat(29)), 1_000_000);
        assert_eq!(microseconds(&format!("0{}", "9".repeat(29))), 100_000);
    }

    #[test]
    fn civil_days() {
        assert_eq!(days_from_civil(1970, 1, 1), 0);
        assert_eq!(days_from_civil(2000, 3, 1), 11_017);
        assert_eq!(days_from_civil(1, 1, 1), -719_162);
    }

    #[test]
    fn paths_normalise_as_pythons() {
        assert_eq!(normpath("a//b"), "a/b");
        assert_eq!(normpath("a/../.."), "..");
        assert_eq!(normpath("//a"), "//a");
        assert_eq!(normpath("./"), ".");
    }
}
