//! yaql's grammar (yaql/language/parser.py), an LALR grammar that PLY
//! builds from yaql's operator table, read here by precedence climbing
//! with the same precedence and associativity, and the same error: the
//! first token that cannot continue the expression.
//!
//! Precedence, tightest first (yaql/language/factory.py): `.` `?.`;
//! indexing `x[…]`; unary `+` `-`; `=~` `!~`; `*` `/` `mod`; binary `+`
//! `-`; `>` `<` `>=` `<=` `!=` `=` `in`; `not`; `and`; `or`; `->` (right
//! associative, the others left). `=>` (keyword arguments and dict
//! entries) binds loosest of all: its right side is a whole expression.

use std::rc::Rc;

use super::lexer::{self, Tok, Token};
use super::value::Value;
use super::{Error, R};

/// What a function-like node is (yaql's `Function` subclasses): only a
/// plain function call `uses_receiver`, so only it can follow `.`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    /// `f(…)`.
    Function,
    /// A binary or unary operator.
    Operator,
    /// `x[…]`.
    Index,
    /// `[…]`.
    List,
    /// `{…}`.
    Map,
    /// `$name`.
    Context,
}

/// A call of a yaql function: operators, indexing, literals of lists and
/// dicts and `$name` are calls too (`#operator_+`, `#indexer`, `#list`,
/// `#map`, `#get_context_data`).
#[derive(Debug)]
pub(super) struct Call {
    pub(super) name: Rc<str>,
    pub(super) args: Vec<Expr>,
    pub(super) kind: Kind,
}

/// An expression (yaql's `Expression` classes).
#[derive(Clone, Debug)]
pub(super) enum Expr {
    /// A literal: a string, a number, `true`, `false`, `null`.
    Const(Rc<ConstValue>),
    /// A bare name (`KeywordConstant`): a property name after `.`, a
    /// keyword argument's name, or a string.
    Keyword(Rc<str>),
    Call(Rc<Call>),
    /// `(x)`.
    Wrap(Rc<Expr>),
    /// `a => b`.
    Rule(Rc<Expr>, Rc<Expr>),
    /// An argument left out (`f(a, , b)`).
    NoValue,
}

/// A literal's value (kept apart so that `Expr` is `Debug`).
pub(super) struct ConstValue(pub(super) Value);

impl std::fmt::Debug for ConstValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&super::value::shown(&self.0))
    }
}

impl Expr {
    fn call(name: &str, kind: Kind, args: Vec<Expr>) -> Expr {
        Expr::Call(Rc::new(Call {
            name: Rc::from(name),
            args,
            kind,
        }))
    }

    fn constant(v: Value) -> Expr {
        Expr::Const(Rc::new(ConstValue(v)))
    }

    /// yaql's `Constant` (a `KeywordConstant` is one too).
    pub(super) fn constant_value(&self) -> Option<Value> {
        match self {
            Expr::Const(c) => Some(c.0.clone()),
            Expr::Keyword(k) => Some(Value::Str(k.clone())),
            _ => None,
        }
    }

    /// `expression.uses_receiver`: only plain function calls.
    pub(super) fn uses_receiver(&self) -> bool {
        matches!(self, Expr::Call(c) if c.kind == Kind::Function)
    }
}

/// The loosest level an expression may continue with.
const LOOSEST: u8 = 11;

/// Nesting deeper than this is refused: Python's recursion limit would
/// stop yaql somewhere around it.
const MAX_DEPTH: usize = 64;

/// A binary operator's level and whether it is right associative.
fn binary(op: &str) -> Option<(u8, bool)> {
    Some(match op {
        "." | "?." => (1, false),
        "=~" | "!~" => (4, false),
        "*" | "/" | "mod" => (5, false),
        "+" | "-" => (6, false),
        ">" | "<" | ">=" | "<=" | "!=" | "=" | "in" => (7, false),
        "and" => (9, false),
        "or" => (10, false),
        "->" => (11, true),
        _ => return None,
    })
}

/// The function a binary operator calls (`=` and `!=` have aliases).
fn binary_name(op: &str) -> String {
    match op {
        "=" => "*equal".into(),
        "!=" => "*not_equal".into(),
        op => format!("#operator_{op}"),
    }
}

/// Parses an expression.
pub(super) fn parse(text: &str) -> R<Expr> {
    let toks = lexer::tokens(text)?;
    let mut p = Parser {
        toks: &toks,
        i: 0,
        text,
        depth: 0,
    };
    let e = p.value(LOOSEST)?;
    if p.i < toks.len() {
        return Err(p.error());
    }
    Ok(e)
}

struct Parser<'a> {
    toks: &'a [Token],
    i: usize,
    text: &'a str,
    depth: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.i).map(|t| &t.tok)
    }

    /// yaql's `YaqlGrammarException` at the current token.
    fn error(&self) -> Error {
        match self.toks.get(self.i) {
            Some(t) => Error::raised(
                "YaqlGrammarException",
                format!(
                    "Parse error: unexpected '{}' at position {} of expression '{}'",
                    t.shown(),
                    t.pos,
                    self.text
                ),
            ),
            None => Error::raised(
                "YaqlGrammarException",
                "Parse error: unexpected end of statement",
            ),
        }
    }

    fn expect(&mut self, tok: &Tok) -> R<()> {
        if self.peek() == Some(tok) {
            self.i += 1;
            Ok(())
        } else {
            Err(self.error())
        }
    }

    /// A value whose operators are at most `max` loose.
    fn value(&mut self, max: u8) -> R<Expr> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(Error::unsupported("an expression nested too deeply"));
        }
        let mut left = self.prefix()?;
        loop {
            match self.peek() {
                Some(Tok::Op(op)) => {
                    let op = *op;
                    let Some((level, right_assoc)) = binary(op) else {
                        break;
                    };
                    if level > max {
                        break;
                    }
                    self.i += 1;
                    let right = self.value(if right_assoc { level } else { level - 1 })?;
                    left = Expr::call(&binary_name(op), Kind::Operator, vec![left, right]);
                }
                Some(Tok::Indexer) if max >= 2 => {
                    self.i += 1;
                    let mut args = vec![left];
                    args.extend(self.args(&Tok::RBracket)?);
                    left = Expr::call("#indexer", Kind::Index, args);
                }
                _ => break,
            }
        }
        self.depth -= 1;
        Ok(left)
    }

    fn prefix(&mut self) -> R<Expr> {
        let Some(tok) = self.peek().cloned() else {
            return Err(self.error());
        };
        self.i += 1;
        Ok(match tok {
            Tok::Str(s) => Expr::constant(Value::str(&s)),
            Tok::Int(n) => Expr::constant(Value::Int(n)),
            Tok::Float(f) => Expr::constant(Value::Float(f)),
            Tok::True => Expr::constant(Value::Bool(true)),
            Tok::False => Expr::constant(Value::Bool(false)),
            Tok::Null => Expr::constant(Value::None),
            Tok::Keyword(k) => Expr::Keyword(Rc::from(k.as_str())),
            Tok::Dollar(name) => Expr::call(
                "#get_context_data",
                Kind::Context,
                vec![Expr::constant(Value::str(&name))],
            ),
            Tok::LParen => {
                let inner = self.value(LOOSEST)?;
                self.expect(&Tok::RParen)?;
                Expr::Wrap(Rc::new(inner))
            }
            Tok::Indexer => Expr::call("#list", Kind::List, self.args(&Tok::RBracket)?),
            Tok::Map => Expr::call("#map", Kind::Map, self.args(&Tok::RBrace)?),
            Tok::Func(name) => Expr::call(&name, Kind::Function, self.args(&Tok::RParen)?),
            Tok::Op(op @ ("+" | "-" | "not")) => {
                let operand = self.value(if op == "not" { 7 } else { 2 })?;
                Expr::call(
                    &format!("#unary_operator_{op}"),
                    Kind::Operator,
                    vec![operand],
                )
            }
            _ => {
                self.i -= 1;
                return Err(self.error());
            }
        })
    }

    /// yaql's `args` up to `close`: positional arguments (any may be left
    /// out but the last), then keyword arguments `name => value`. A
    /// keyword argument may follow nothing, a positional argument, or a
    /// positional argument and one left out.
    fn args(&mut self, close: &Tok) -> R<Vec<Expr>> {
        let mut out: Vec<Expr> = Vec::new();
        if self.peek() == Some(close) {
            self.i += 1;
            return Ok(out);
        }
        let mut named = false;
        loop {
            if self.peek() == Some(&Tok::Comma) {
                if named {
                    return Err(self.error());
                }
                out.push(Expr::NoValue);
                self.i += 1;
                continue;
            }
            let v = self.value(LOOSEST)?;
            if self.peek() == Some(&Tok::Mapping) {
                // After nothing, a positional argument, or a positional
                // argument and one left out.
                let allowed = named
                    || !matches!(out.last(), Some(Expr::NoValue))
                    || (out.len() >= 2 && !matches!(out[out.len() - 2], Expr::NoValue));
                if !allowed {
                    return Err(self.error());
                }
                self.i += 1;
                let d = self.value(LOOSEST)?;
                out.push(Expr::Rule(Rc::new(v), Rc::new(d)));
                named = true;
            } else if named {
                return Err(self.error());
            } else {
                out.push(v);
            }
            match self.peek() {
                Some(Tok::Comma) => self.i += 1,
                Some(t) if t == close => {
                    self.i += 1;
                    return Ok(out);
                }
                _ => return Err(self.error()),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tree as yaql's `str()` of it would show it, roughly.
    fn show(e: &Expr) -> String {
        match e {
            Expr::Const(c) => format!("{c:?}"),
            Expr::Keyword(k) => k.to_string(),
            Expr::Wrap(e) => format!("({})", show(e)),
            Expr::Rule(a, b) => format!("{} => {}", show(a), show(b)),
            Expr::NoValue => "_".into(),
            Expr::Call(c) => format!(
                "{}({})",
                c.name,
                c.args.iter().map(show).collect::<Vec<_>>().join(", ")
            ),
        }
    }

    fn p(text: &str) -> String {
        show(&parse(text).unwrap())
    }

    #[test]
    fn precedence_is_yaqls() {
        assert_eq!(p("1 + 2 * 3"), "#operator_+(1, #operator_*(2, 3))");
        assert_eq!(p("1 - 2 - 3"), "#operator_-(#operator_-(1, 2), 3)");
        assert_eq!(
            p("-$.a"),
            "#unary_operator_-(#operator_.(#get_context_data($), a))"
        );
        assert_eq!(
            p("not $ = 1"),
            "#unary_operator_not(*equal(#get_context_data($), 1))"
        );
        assert_eq!(p("a -> b -> c"), "#operator_->(a, #operator_->(b, c))");
        assert_eq!(
            p("$.a[0].b"),
            "#operator_.(#indexer(#operator_.(#get_context_data($), a), 0), b)"
        );
        assert_eq!(p("f(a => 1 + 2)"), "f(a => #operator_+(1, 2))");
        assert_eq!(p("f(, a, , b)"), "f(_, a, _, b)");
        assert_eq!(p("f(a, , k => 1)"), "f(a, _, k => 1)");
        assert_eq!(p("{a => 1}"), "#map(a => 1)");
        assert_eq!(p("[]"), "#list()");
    }

    #[test]
    fn errors_are_yaqls() {
        for (text, at) in [
            ("f(a,)", "')' at position 4"),
            ("f(, k => 1)", "'=>' at position 6"),
            ("f(k => 1, a)", "')' at position 11"),
            ("(a, b)", "',' at position 2"),
            ("a b", "'b' at position 2"),
            ("foo (1)", "'(' at position 4"),
        ] {
            assert_eq!(
                parse(text).unwrap_err(),
                Error::raised(
                    "YaqlGrammarException",
                    format!("Parse error: unexpected {at} of expression '{text}'")
                ),
                "{text}"
            );
        }
        assert_eq!(
            parse("f(1").unwrap_err(),
            Error::raised(
                "YaqlGrammarException",
                "Parse error: unexpected end of statement"
            )
        );
    }
}
