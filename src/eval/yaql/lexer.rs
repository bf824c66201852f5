//! yaql's tokens (yaql/language/lexer.py), read as PLY reads them: at each
//! position the first rule that matches, in PLY's order (the function
//! rules as written: `$name`, numbers, `name(`, keywords, the three kinds
//! of quoted strings; then the operators, longest first; then the
//! literals `()],}`). Spaces, tabs and line breaks separate tokens.

use super::{Error, R};

/// yaql's operators that are symbols or words, as its operator table
/// lists them.
const OPERATORS: [&str; 18] = [
    // Longest first, as PLY sorts its string rules.
    "?.", "=~", "!~", "->", "=>", ">=", "<=", "!=", ".", "+", "-", "*", "/", ">", "<", "=", "[", "{",
];

/// Words that are operators (the keyword rule reads them, then their
/// type becomes the operator's).
const WORD_OPERATORS: [&str; 5] = ["mod", "in", "not", "and", "or"];

/// A token's kind and value.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Tok {
    /// A quoted string, escapes decoded.
    Str(String),
    Int(i64),
    Float(f64),
    True,
    False,
    Null,
    /// A bare name (yaql's `KEYWORD_STRING`).
    Keyword(String),
    /// `$`, `$1`, `$name`.
    Dollar(String),
    /// A function name directly followed by `(`.
    Func(String),
    /// `[`: an index or a list.
    Indexer,
    /// `{`: a dict.
    Map,
    /// `=>`.
    Mapping,
    /// An operator: a symbol or `mod`, `in`, `not`, `and`, `or`.
    Op(&'static str),
    LParen,
    RParen,
    RBracket,
    RBrace,
    Comma,
}

/// A token and where it starts (in characters, as Python indexes).
#[derive(Clone, Debug)]
pub(super) struct Token {
    pub(super) tok: Tok,
    pub(super) pos: usize,
}

impl Token {
    /// The token's value as PLY's error message shows it (`p.value`).
    pub(super) fn shown(&self) -> String {
        match &self.tok {
            Tok::Str(s) | Tok::Keyword(s) | Tok::Dollar(s) | Tok::Func(s) => s.clone(),
            Tok::Int(i) => i.to_string(),
            Tok::Float(f) => crate::eval::python::float_repr(*f),
            Tok::True => "True".into(),
            Tok::False => "False".into(),
            Tok::Null => "None".into(),
            Tok::Indexer => "[".into(),
            Tok::Map => "{".into(),
            Tok::Mapping => "=>".into(),
            Tok::Op(op) => (*op).into(),
            Tok::LParen => "(".into(),
            Tok::RParen => ")".into(),
            Tok::RBracket => "]".into(),
            Tok::RBrace => "}".into(),
            Tok::Comma => ",".into(),
        }
    }
}

/// Python's `\w` for an ASCII character (letters, digits, `_`). Outside
/// quoted strings heatcap reads ASCII only: Python's and Rust's Unicode
/// word characters differ (combining marks, other scripts' digits).
fn word(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

fn digit(c: char) -> bool {
    c.is_ascii_digit()
}

fn non_ascii() -> Error {
    Error::unsupported("a character outside ASCII outside a quoted string")
}

/// Splits an expression into tokens.
pub(super) fn tokens(text: &str) -> R<Vec<Token>> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if matches!(c, ' ' | '\t' | '\r' | '\n') {
            i += 1;
            continue;
        }
        let (tok, next) = token_at(&chars, i)?;
        out.push(Token { tok, pos: i });
        i = next;
    }
    Ok(out)
}

/// The token at `i` (PLY's rules in their order: long).
#[allow(clippy::too_many_lines)]
fn token_at(chars: &[char], i: usize) -> R<(Tok, usize)> {
    let c = chars[i];
    let at = |j: usize| chars.get(j).copied();
    if !c.is_ascii() {
        return Err(non_ascii());
    }
    // `\b` before a word character: the previous one is not a word one.
    let boundary = i == 0 || !word(chars[i - 1]);
    let run = |mut j: usize, f: fn(char) -> bool| {
        while at(j).is_some_and(f) {
            j += 1;
        }
        if at(j).is_some_and(|c| !c.is_ascii()) {
            return Err(non_ascii());
        }
        Ok(j)
    };
    // t_DOLLAR: \$\w*
    if c == '$' {
        let end = run(i + 1, word)?;
        return Ok((Tok::Dollar(chars[i..end].iter().collect()), end));
    }
    // t_NUMBER: \b\d+(\.?\d+)?\b
    if boundary && digit(c) {
        let end = run(i, digit)?;
        if at(end) == Some('.') && at(end + 1).is_some_and(digit) {
            let end2 = run(end + 1, digit)?;
            if !at(end2).is_some_and(word) {
                let text: String = chars[i..end2].iter().collect();
                let f: f64 = text
                    .parse()
                    .map_err(|_| Error::unsupported("a number heatcap cannot read"))?;
                return Ok((Tok::Float(f), end2));
            }
        }
        if !at(end).is_some_and(word) {
            let text: String = chars[i..end].iter().collect();
            let n: i64 = text
                .parse()
                .map_err(|_| Error::unsupported("an integer beyond 64 bits"))?;
            return Ok((Tok::Int(n), end));
        }
    }
    // t_FUNC: \b[^\W\d]\w*\(   and   t_KEYWORD_STRING: (?!__)\b[^\W\d]\w*\b
    if boundary && word(c) && !digit(c) {
        let end = run(i, word)?;
        let name: String = chars[i..end].iter().collect();
        if at(end) == Some('(') {
            return Ok((Tok::Func(name), end + 1));
        }
        if !name.starts_with("__") {
            let tok = match name.as_str() {
                "true" => Tok::True,
                "false" => Tok::False,
                "null" => Tok::Null,
                w => match WORD_OPERATORS.iter().find(|o| **o == w) {
                    Some(op) => Tok::Op(op),
                    None => Tok::Keyword(name),
                },
            };
            return Ok((tok, end));
        }
    }
    // t_QUOTED_STRING, t_DOUBLE_QUOTED_STRING, t_QUOTED_VERBATIM_STRING:
    // (['"`])([^\1\\]|\\.)*\1   (`.`: any character but a line break)
    if matches!(c, '\'' | '"' | '`') {
        let mut j = i + 1;
        loop {
            match at(j) {
                None => break,
                Some('\\') => match at(j + 1) {
                    Some('\n') | None => break,
                    Some(_) => j += 2,
                },
                Some(q) if q == c => {
                    let inner: String = chars[i + 1..j].iter().collect();
                    let value = if c == '`' {
                        inner.replace("\\`", "`")
                    } else {
                        decode_escapes(&inner)?
                    };
                    return Ok((Tok::Str(value), j + 1));
                }
                Some(_) => j += 1,
            }
        }
    }
    // The operators, longest first.
    for op in OPERATORS {
        let n = op.chars().count();
        if chars.len() >= i + n && chars[i..i + n].iter().copied().eq(op.chars()) {
            let tok = match op {
                "[" => Tok::Indexer,
                "{" => Tok::Map,
                "=>" => Tok::Mapping,
                op => Tok::Op(op),
            };
            return Ok((tok, i + n));
        }
    }
    let literal = match c {
        '(' => Some(Tok::LParen),
        ')' => Some(Tok::RParen),
        ']' => Some(Tok::RBracket),
        '}' => Some(Tok::RBrace),
        ',' => Some(Tok::Comma),
        _ => None,
    };
    match literal {
        Some(tok) => Ok((tok, i + 1)),
        None => Err(Error::raised(
            "YaqlLexicalException",
            format!("Lexical error: illegal character '{c}' at position {i}"),
        )),
    }
}

/// `decode_escapes`: each escape sequence Python's `unicode-escape` codec
/// knows is replaced; any other backslash stays.
fn decode_escapes(s: &str) -> R<String> {
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    let hex = |from: usize, width: usize| -> Option<u32> {
        let text: String = chars.get(from..from + width)?.iter().collect();
        if text.chars().all(|ch| ch.is_ascii_hexdigit()) {
            u32::from_str_radix(&text, 16).ok()
        } else {
            None
        }
    };
    let bad = || Error::unsupported("an escape sequence Python's unicode-escape codec refuses");
    while i < chars.len() {
        let ch = chars[i];
        if ch != '\\' || i + 1 >= chars.len() {
            out.push(ch);
            i += 1;
            continue;
        }
        let esc = chars[i + 1];
        let (decoded, len) = match esc {
            // \U........ \u.... \x.. (any characters: the codec then
            // fails on what is not hexadecimal)
            'U' | 'u' | 'x' => {
                let width = match esc {
                    'U' => 8,
                    'u' => 4,
                    _ => 2,
                };
                // `.` does not match a line break: no escape then.
                if chars.len() < i + 2 + width || chars[i + 2..i + 2 + width].contains(&'\n') {
                    out.push(ch);
                    i += 1;
                    continue;
                }
                let code = hex(i + 2, width).ok_or_else(bad)?;
                (char::from_u32(code).ok_or_else(bad)?, 2 + width)
            }
            '0'..='7' => {
                let mut width = 1;
                while width < 3
                    && chars
                        .get(i + 1 + width)
                        .is_some_and(|d| ('0'..='7').contains(d))
                {
                    width += 1;
                }
                let text: String = chars[i + 1..i + 1 + width].iter().collect();
                let code = u32::from_str_radix(&text, 8).map_err(|_| bad())?;
                (char::from_u32(code).ok_or_else(bad)?, 1 + width)
            }
            'N' if chars.get(i + 2) == Some(&'{') => {
                if chars.get(i + 3).is_some_and(|&ch| ch != '}') && chars[i + 3..].contains(&'}') {
                    return Err(Error::unsupported("a \\N{name} escape"));
                }
                out.push(ch);
                i += 1;
                continue;
            }
            '\\' => ('\\', 2),
            '\'' => ('\'', 2),
            '"' => ('"', 2),
            'a' => ('\u{7}', 2),
            'b' => ('\u{8}', 2),
            'f' => ('\u{c}', 2),
            'n' => ('\n', 2),
            'r' => ('\r', 2),
            't' => ('\t', 2),
            'v' => ('\u{b}', 2),
            _ => {
                out.push(ch);
                i += 1;
                continue;
            }
        };
        out.push(decoded);
        i += len;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(s: &str) -> Vec<Tok> {
        tokens(s).unwrap().into_iter().map(|t| t.tok).collect()
    }

    #[test]
    fn reads_yaql_tokens() {
        assert_eq!(
            toks("$.data.where($ != null)"),
            vec![
                Tok::Dollar("$".into()),
                Tok::Op("."),
                Tok::Keyword("data".into()),
                Tok::Op("."),
                Tok::Func("where".into()),
                Tok::Dollar("$".into()),
                Tok::Op("!="),
                Tok::Null,
                Tok::RParen,
            ]
        );
        assert_eq!(toks("1.5"), vec![Tok::Float(1.5)]);
        assert_eq!(
            toks("1.x"),
            vec![Tok::Int(1), Tok::Op("."), Tok::Keyword("x".into())]
        );
        assert_eq!(
            toks("a=>b"),
            vec![
                Tok::Keyword("a".into()),
                Tok::Mapping,
                Tok::Keyword("b".into())
            ]
        );
        assert_eq!(
            toks("not x"),
            vec![Tok::Op("not"), Tok::Keyword("x".into())]
        );
        assert_eq!(toks(r"'a\nb\'\d'"), vec![Tok::Str("a\nb'\\d".into())]);
        assert_eq!(toks(r"`a\`\n`"), vec![Tok::Str("a`\\n".into())]);
        assert_eq!(toks(r"'\101\x41'"), vec![Tok::Str("AA".into())]);
    }

    #[test]
    fn refuses_what_yaql_refuses() {
        for (text, c, pos) in [
            ("1 # 2", '#', 2),
            ("'abc", '\'', 0),
            ("a ~ b", '~', 2),
            ("__x", '_', 0),
        ] {
            assert_eq!(
                tokens(text).unwrap_err(),
                Error::raised(
                    "YaqlLexicalException",
                    format!("Lexical error: illegal character '{c}' at position {pos}")
                ),
                "{text}"
            );
        }
    }
}
