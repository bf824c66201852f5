//! Python's `re`, on Rust's `regex`, for the patterns both read alike.
//!
//! The two engines agree on most everyday syntax (literals, classes,
//! `\d\w\s\b`, groups, greedy and lazy quantifiers, anchors) on ASCII
//! text. What they read differently is refused as unsupported rather than
//! guessed: look-around and back references (Rust has none), `\Z`-style
//! and POSIX class syntax, set operations in classes (`&&`, `--`, `~~`
//! are literal to Python), `{` that is not a quantifier (a literal to
//! Python), possessive quantifiers and inline flags anywhere but at the
//! start (Python 3.11 refuses them), named groups (yaql's match
//! publishing fails on them), Unicode text where a class or case folding
//! is involved (the engines' Unicode tables differ), a `$` before a final
//! line break (Python's `$` matches there too) and empty matches in
//! `finditer`/`split`/`sub` (Python 3.7's rules for them differ from
//! Rust's iteration).

use regex::{Regex, RegexBuilder};

use super::{Error, R};

/// Python's flag values (`re.IGNORECASE`…), as `repr` shows them.
pub(super) const IGNORECASE: u8 = 2;
pub(super) const MULTILINE: u8 = 8;
pub(super) const DOTALL: u8 = 16;

/// A compiled pattern.
pub(super) struct Pattern {
    /// The pattern as written.
    pub(super) source: String,
    /// Python's flags (explicit and inline), without `re.UNICODE`.
    pub(super) flags: u8,
    regex: Regex,
    /// The number of groups.
    pub(super) groups: usize,
    /// The pattern has a `$` (outside a class).
    dollar: bool,
    /// Classes or case folding whose Unicode tables differ.
    unicode_sensitive: bool,
}

fn unsupported(what: &str) -> Error {
    Error::unsupported(format!(
        "a regular expression with {what}, which Python's re and Rust's regex read differently"
    ))
}

/// A match: each group's span in characters (`None`: did not take part)
/// and text.
pub(super) struct Match {
    pub(super) spans: Vec<Option<(usize, usize)>>,
    pub(super) texts: Vec<Option<String>>,
}

impl Pattern {
    /// `re.compile(pattern, flags)` (flags: `IGNORECASE | MULTILINE |
    /// DOTALL` bits).
    pub(super) fn compile(source: &str, flags: u8) -> R<Pattern> {
        let (translated, inline, dollar, classes) = translate(source)?;
        let flags = flags | inline;
        let regex = RegexBuilder::new(&translated)
            .case_insensitive(flags & IGNORECASE != 0)
            .multi_line(flags & MULTILINE != 0)
            .dot_matches_new_line(flags & DOTALL != 0)
            .size_limit(1 << 22)
            .build()
            .map_err(|_| unsupported("syntax heatcap cannot map"))?;
        Ok(Pattern {
            source: source.to_owned(),
            flags,
            groups: regex.captures_len() - 1,
            regex,
            dollar,
            unicode_sensitive: classes || flags & IGNORECASE != 0 || !source.is_ascii(),
        })
    }

    /// `repr(pattern)`.
    pub(super) fn repr(&self) -> String {
        let mut names = Vec::new();
        if self.flags & IGNORECASE != 0 {
            names.push("re.IGNORECASE");
        }
        if self.flags & MULTILINE != 0 {
            names.push("re.MULTILINE");
        }
        if self.flags & DOTALL != 0 {
            names.push("re.DOTALL");
        }
        let src = crate::eval::python::str_repr(&self.source);
        if names.is_empty() {
            format!("re.compile({src})")
        } else {
            format!("re.compile({src}, {})", names.join("|"))
        }
    }

    /// Refuses text where the two engines could disagree.
    fn check_text(&self, text: &str) -> R<()> {
        if self.unicode_sensitive && !text.is_ascii() {
            return Err(unsupported("text outside ASCII"));
        }
        if self.dollar && self.flags & MULTILINE == 0 && text.ends_with('\n') {
            return Err(unsupported("`$` and text ending in a line break"));
        }
        Ok(())
    }

    fn to_match(text: &str, caps: &regex::Captures) -> Match {
        let mut spans = Vec::with_capacity(caps.len());
        let mut texts = Vec::with_capacity(caps.len());
        for g in caps.iter() {
            if let Some(m) = g {
                let start = text[..m.start()].chars().count();
                let n = m.as_str().chars().count();
                spans.push(Some((start, start + n)));
                texts.push(Some(m.as_str().to_owned()));
            } else {
                spans.push(None);
                texts.push(None);
            }
        }
        Match { spans, texts }
    }

    /// `pattern.search(text)`.
    pub(super) fn search(&self, text: &str) -> R<Option<Match>> {
        self.check_text(text)?;
        Ok(self
            .regex
            .captures(text)
            .map(|c| Pattern::to_match(text, &c)))
    }

    /// `pattern.finditer(text)`, and each match's byte span; at most
    /// `limit` matches.
    fn all(&self, text: &str, limit: Option<usize>) -> R<Vec<(Match, usize, usize)>> {
        self.check_text(text)?;
        let mut out = Vec::new();
        let mut pos = 0;
        while pos <= text.len() && limit.is_none_or(|l| out.len() < l) {
            let Some(c) = self.regex.captures_at(text, pos) else {
                break;
            };
            let m = c.get(0).map_or((pos, pos), |m| (m.start(), m.end()));
            if m.0 == m.1 {
                return Err(unsupported("a match of the empty string"));
            }
            out.push((Pattern::to_match(text, &c), m.0, m.1));
            pos = m.1;
        }
        Ok(out)
    }

    /// `pattern.finditer(text)`.
    pub(super) fn find_all(&self, text: &str) -> R<Vec<Match>> {
        Ok(self.all(text, None)?.into_iter().map(|m| m.0).collect())
    }

    /// `pattern.split(text, maxsplit)`: the pieces and, between them, the
    /// groups (`None`: did not take part).
    pub(super) fn split(&self, text: &str, maxsplit: i64) -> R<Vec<Option<String>>> {
        if maxsplit < 0 {
            return Ok(vec![Some(text.to_owned())]);
        }
        let limit = (maxsplit > 0).then(|| usize::try_from(maxsplit).unwrap_or(usize::MAX));
        let mut out = Vec::new();
        let mut last = 0;
        for (m, a, z) in self.all(text, limit)? {
            out.push(Some(text[last..a].to_owned()));
            out.extend(m.texts.into_iter().skip(1));
            last = z;
        }
        out.push(Some(text[last..].to_owned()));
        Ok(out)
    }

    /// `pattern.sub(repl, text, count)`, `repl` a template or a function
    /// of the match.
    pub(super) fn sub(
        &self,
        text: &str,
        count: i64,
        mut repl: impl FnMut(&Match) -> R<String>,
    ) -> R<String> {
        if count < 0 {
            return Ok(text.to_owned());
        }
        let limit = (count > 0).then(|| usize::try_from(count).unwrap_or(usize::MAX));
        let mut out = String::with_capacity(text.len());
        let mut last = 0;
        for (m, a, z) in self.all(text, limit)? {
            out.push_str(&text[last..a]);
            out.push_str(&repl(&m)?);
            last = z;
        }
        out.push_str(&text[last..]);
        Ok(out)
    }

    /// `re.sub`'s walk: for each match (at most `count`; none when it is
    /// negative), the text before it (`None` when empty) and the match;
    /// the text after the last one goes to `tail`.
    pub(super) fn pieces(
        &self,
        text: &str,
        count: i64,
        mut each: impl FnMut(Option<&str>, &Match) -> R<()>,
        tail: &mut String,
    ) -> R<()> {
        if count < 0 {
            tail.push_str(text);
            return Ok(());
        }
        let limit = (count > 0).then(|| usize::try_from(count).unwrap_or(usize::MAX));
        let mut last = 0;
        for (m, a, z) in self.all(text, limit)? {
            each((a > last).then(|| &text[last..a]), &m)?;
            last = z;
        }
        tail.push_str(&text[last..]);
        Ok(())
    }

    /// Expands a replacement template (`\1`, `\g<1>`, `\n`…) for a
    /// match, as `re`'s `parse_template` and `expand_template` do.
    pub(super) fn expand(&self, template: &str, found: &Match) -> R<String> {
        let chars: Vec<char> = template.chars().collect();
        let mut out = String::new();
        let mut i = 0;
        let group = |n: usize, out: &mut String| -> R<()> {
            if n > self.groups {
                return Err(unsupported("a replacement naming a group it lacks"));
            }
            if let Some(Some(t)) = found.texts.get(n) {
                out.push_str(t);
            }
            Ok(())
        };
        while i < chars.len() {
            let ch = chars[i];
            if ch != '\\' {
                out.push(ch);
                i += 1;
                continue;
            }
            let Some(&esc) = chars.get(i + 1) else {
                return Err(unsupported("a replacement ending in a backslash"));
            };
            match esc {
                'g' => {
                    let rest: String = chars[i + 2..].iter().collect();
                    let Some(body) = rest.strip_prefix('<') else {
                        return Err(unsupported("a bad \\g reference"));
                    };
                    let Some(end) = body.find('>') else {
                        return Err(unsupported("a bad \\g reference"));
                    };
                    let name = &body[..end];
                    if !name.chars().all(|ch| ch.is_ascii_digit()) || name.is_empty() {
                        return Err(unsupported("a \\g reference by name"));
                    }
                    let n: usize = name.parse().map_err(|_| unsupported("a bad group"))?;
                    group(n, &mut out)?;
                    i += 2 + 1 + name.chars().count() + 1;
                }
                '0' => {
                    let mut j = i + 2;
                    while j < chars.len() && j < i + 4 && ('0'..='7').contains(&chars[j]) {
                        j += 1;
                    }
                    let digits: String = chars[i + 1..j].iter().collect();
                    let code = u32::from_str_radix(&digits, 8).unwrap_or(0);
                    out.push(char::from_u32(code).unwrap_or('\0'));
                    i = j;
                }
                '1'..='9' => {
                    let mut j = i + 2;
                    let mut octal = false;
                    if chars.get(j).is_some_and(char::is_ascii_digit) {
                        j += 1;
                        if ('0'..='7').contains(&esc)
                            && ('0'..='7').contains(&chars[j - 1])
                            && chars.get(j).is_some_and(|d| ('0'..='7').contains(d))
                        {
                            j += 1;
                            octal = true;
                        }
                    }
                    let digits: String = chars[i + 1..j].iter().collect();
                    if octal {
                        let code = u32::from_str_radix(&digits, 8).unwrap_or(0);
                        if code > 0o377 {
                            return Err(unsupported("an octal escape beyond \\377"));
                        }
                        out.push(char::from_u32(code).unwrap_or('\0'));
                    } else {
                        group(digits.parse().unwrap_or(0), &mut out)?;
                    }
                    i = j;
                }
                'a' => push(&mut out, &mut i, '\u{7}'),
                'b' => push(&mut out, &mut i, '\u{8}'),
                'f' => push(&mut out, &mut i, '\u{c}'),
                'n' => push(&mut out, &mut i, '\n'),
                'r' => push(&mut out, &mut i, '\r'),
                't' => push(&mut out, &mut i, '\t'),
                'v' => push(&mut out, &mut i, '\u{b}'),
                '\\' => push(&mut out, &mut i, '\\'),
                esc if esc.is_ascii_alphabetic() => {
                    return Err(unsupported("a bad escape in a replacement"))
                }
                esc => {
                    out.push('\\');
                    out.push(esc);
                    i += 2;
                }
            }
        }
        Ok(out)
    }
}

fn push(out: &mut String, i: &mut usize, c: char) {
    out.push(c);
    *i += 2;
}

/// Python's `re.escape`.
pub(super) fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if "()[]{}?*+-|^$\\.&~# \t\n\r\u{b}\u{c}".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Checks a pattern against the syntax both engines read alike and
/// rewrites what is spelt differently (`\Z`). Returns the Rust pattern,
/// the inline global flags, whether it has a `$` and whether it uses
/// Unicode-sensitive classes. (One scan over the pattern: long.)
#[allow(clippy::too_many_lines)]
fn translate(p: &str) -> R<(String, u8, bool, bool)> {
    let chars: Vec<char> = p.chars().collect();
    let mut out = String::with_capacity(p.len());
    let mut i = 0;
    let mut flags = 0u8;
    let mut dollar = false;
    let mut classes = false;
    // A quantifier just ended (so `+` after it is possessive).
    let mut after_quantifier = false;
    // Global inline flags at the very start.
    if chars.starts_with(&['(', '?']) {
        let mut j = 2;
        let mut f = 0;
        while let Some(&c) = chars.get(j) {
            match c {
                'i' => f |= IGNORECASE,
                'm' => f |= MULTILINE,
                's' => f |= DOTALL,
                _ => break,
            }
            j += 1;
        }
        if j > 2 && chars.get(j) == Some(&')') {
            flags = f;
            i = j + 1;
        }
    }
    while i < chars.len() {
        let c = chars[i];
        let was_quantifier = after_quantifier;
        after_quantifier = false;
        match c {
            '\\' => {
                let e = *chars
                    .get(i + 1)
                    .ok_or_else(|| unsupported("a trailing backslash"))?;
                match e {
                    'd' | 'D' | 'w' | 'W' | 's' | 'S' | 'b' | 'B' => {
                        classes = true;
                        out.push('\\');
                        out.push(e);
                    }
                    'A' => out.push_str("\\A"),
                    'Z' => out.push_str("\\z"),
                    'n' | 't' | 'r' | 'f' | 'v' | 'a' => {
                        out.push('\\');
                        out.push(e);
                    }
                    'x' => {
                        let hex: String = chars
                            .get(i + 2..i + 4)
                            .map(|s| s.iter().collect())
                            .unwrap_or_default();
                        if hex.len() != 2 || !hex.chars().all(|c| c.is_ascii_hexdigit()) {
                            return Err(unsupported("a bad \\x escape"));
                        }
                        out.push_str("\\x");
                        out.push_str(&hex);
                        i += 2;
                    }
                    '<' | '>' => out.push(e),
                    e if e.is_ascii_punctuation() || e == ' ' => {
                        out.push('\\');
                        out.push(e);
                    }
                    _ => return Err(unsupported(&format!("the escape \\{e}"))),
                }
                i += 2;
            }
            '[' => {
                // A class: up to the first `]` that is not first.
                out.push('[');
                i += 1;
                if chars.get(i) == Some(&'^') {
                    out.push('^');
                    i += 1;
                }
                if chars.get(i) == Some(&']') {
                    out.push_str("\\]");
                    i += 1;
                }
                loop {
                    let Some(&c) = chars.get(i) else {
                        return Err(unsupported("an unterminated class"));
                    };
                    match c {
                        ']' => {
                            out.push(']');
                            i += 1;
                            break;
                        }
                        '[' => return Err(unsupported("`[` inside a class")),
                        '&' | '-' | '~' if chars.get(i + 1) == Some(&c) => {
                            return Err(unsupported("`&&`, `--` or `~~` in a class"))
                        }
                        '\\' => {
                            let e = *chars
                                .get(i + 1)
                                .ok_or_else(|| unsupported("a trailing backslash"))?;
                            match e {
                                'd' | 'D' | 'w' | 'W' | 's' | 'S' => {
                                    classes = true;
                                    out.push('\\');
                                    out.push(e);
                                }
                                'n' | 't' | 'r' | 'f' | 'v' | 'a' => {
                                    out.push('\\');
                                    out.push(e);
                                }
                                e if e.is_ascii_punctuation() || e == ' ' => {
                                    out.push('\\');
                                    out.push(e);
                                }
                                _ => {
                                    return Err(unsupported(&format!(
                                        "the escape \\{e} in a class"
                                    )))
                                }
                            }
                            i += 2;
                        }
                        c => {
                            out.push(c);
                            i += 1;
                        }
                    }
                }
            }
            '(' => {
                if chars.get(i + 1) == Some(&'?') {
                    match chars.get(i + 2) {
                        Some(':') => {
                            out.push_str("(?:");
                            i += 3;
                        }
                        Some('i' | 'm' | 's' | '-') => {
                            // A scoped flag group `(?i:…)`; a global one here
                            // is not at the start (an error in Python 3.11).
                            let mut j = i + 2;
                            while chars
                                .get(j)
                                .is_some_and(|c| matches!(c, 'i' | 'm' | 's' | '-'))
                            {
                                j += 1;
                            }
                            if chars.get(j) != Some(&':') {
                                return Err(unsupported("inline flags not at the start"));
                            }
                            out.extend(&chars[i..=j]);
                            i = j + 1;
                        }
                        _ => return Err(unsupported("a `(?` group other than `(?:`")),
                    }
                } else {
                    out.push('(');
                    i += 1;
                }
            }
            '{' => {
                let mut j = i + 1;
                while chars.get(j).is_some_and(char::is_ascii_digit) {
                    j += 1;
                }
                let first = j > i + 1;
                if chars.get(j) == Some(&',') {
                    j += 1;
                    while chars.get(j).is_some_and(char::is_ascii_digit) {
                        j += 1;
                    }
                }
                if !first || chars.get(j) != Some(&'}') {
                    return Err(unsupported("a `{` that is not a quantifier"));
                }
                out.extend(&chars[i..=j]);
                i = j + 1;
                after_quantifier = true;
            }
            '*' | '+' | '?' => {
                if was_quantifier && c == '+' {
                    return Err(unsupported("a possessive quantifier"));
                }
                out.push(c);
                i += 1;
                // `*?` is lazy: the quantifier ends after the `?`.
                after_quantifier = !(was_quantifier && c == '?');
            }
            '$' => {
                dollar = true;
                out.push('$');
                i += 1;
            }
            c => {
                out.push(c);
                i += 1;
            }
        }
    }
    Ok((out, flags, dollar, classes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_common_patterns() {
        let p = Pattern::compile("(?:https?://)?(.*?)/(.*)", 0).unwrap();
        assert_eq!(
            p.split("docker.io/tripleo/nova", 0).unwrap(),
            vec![
                Some(String::new()),
                Some("docker.io".into()),
                Some("tripleo/nova".into()),
                Some(String::new())
            ]
        );
        let p = Pattern::compile("([a-z0-9])([A-Z])", 0).unwrap();
        let out = p
            .sub("NovaApiNetwork", 0, |m| p.expand("\\1_\\2", m))
            .unwrap();
        assert_eq!(out, "Nova_Api_Network");
        assert_eq!(escape("a.b*c d"), "a\\.b\\*c\\ d");
    }

    #[test]
    fn refuses_what_differs() {
        for p in [
            "(?=a)",
            "a{",
            "\\1",
            "[[:alpha:]]",
            "[a&&b]",
            "a*+",
            "x(?i)a",
            "(?P<n>a)",
            "\\p{L}",
        ] {
            assert!(Pattern::compile(p, 0).is_err(), "{p}");
        }
        let p = Pattern::compile("a$", 0).unwrap();
        assert!(p.search("a\n").is_err());
        assert!(p.search("a").unwrap().is_some());
        let p = Pattern::compile("a*", 0).unwrap();
        assert!(p.find_all("baa").is_err());
    }
}
