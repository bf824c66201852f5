//! Heat's `yaql` function: the yaql language (the `yaql` package, 3.2.0 in
//! Heat 27.0.1's venv), evaluated as Heat evaluates it.
//!
//! Heat (heat/engine/hot/functions.py, `Yaql`) parses the expression with
//! `yaql.YaqlFactory().create()` (the `=>` keyword operator, no
//! delegates), with the options `yaql.limitIterators` 200 and
//! `yaql.memoryQuota` 10000 (Heat's defaults), and evaluates it in a child
//! of `yaql.create_context()` (the whole standard library, CamelCase
//! names, no legacy mode) with `$` the mapping `{data: <data>}`. This
//! module does the same in four steps:
//!
//! - [`lexer`] and [`parser`]: yaql's tokens and its LALR grammar with
//!   the operator precedence of yaql's operator table;
//! - [`engine`]: contexts, lazy arguments and yaql's choice among a
//!   function's overloads by the declared types of their parameters
//!   (yaql/language/runner.py), over the signatures Heat's context has
//!   (`data/yaql-3.2.0-functions.json`, written by
//!   `tools/heat-oracle/yaql_library.py`);
//! - [`library`]: the functions' bodies, after yaql's standard library,
//!   on Python's values ([`value`]: tuples, frozen dicts, lazy iterators,
//!   sets) with Python's equality, hashing, truthiness and `str()`;
//! - the result is converted as yaql's finalizer converts it (iterators
//!   and tuples become lists, at most 200 items each), then to JSON.
//!
//! What yaql raises is an [`Error::Raised`] with yaql's (or Python's)
//! exception class and message: Heat fails the same way. What heatcap
//! cannot reproduce exactly is an [`Error::Unsupported`]: a function it
//! does not implement (dates and times, `def`), a regular expression
//! outside the syntax both Python's `re` and Rust's `regex` read alike, a
//! set whose order is Python's hash order, an object compared by
//! identity. It never guesses.

mod engine;
mod iter;
mod lexer;
mod library;
mod parser;
mod pyre;
mod value;

#[cfg(test)]
mod tests;

use std::fmt;

use serde_json::Value as Json;

/// Why an expression has no value.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Error {
    /// yaql raises: the exception's class (`NoMatchingMethodException`,
    /// `KeyError`…) and its text, as Python prints them.
    Raised {
        /// The exception's class name.
        class: String,
        /// `str(exception)`.
        message: String,
    },
    /// heatcap cannot tell what yaql gives.
    Unsupported(String),
}

impl Error {
    pub(super) fn raised(class: &str, message: impl Into<String>) -> Error {
        Error::Raised {
            class: class.to_owned(),
            message: message.into(),
        }
    }

    pub(super) fn unsupported(reason: impl Into<String>) -> Error {
        Error::Unsupported(reason.into())
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Raised { class, message } if message.is_empty() => f.write_str(class),
            Error::Raised { class, message } => write!(f, "{class}: {message}"),
            Error::Unsupported(reason) => f.write_str(reason),
        }
    }
}

type R<T> = Result<T, Error>;

/// The stack of the thread an evaluation runs on: yaql builds values as
/// deeply nested as an expression's work allows, and Rust drops nested
/// values recursively.
const STACK: usize = 256 << 20;

/// Parses an expression as Heat's yaql engine does. A syntax error is
/// yaql's `YaqlGrammarException` or `YaqlLexicalException` (Heat wraps it:
/// `Bad expression <message>.`).
pub(crate) fn parse(text: &str) -> Result<(), Error> {
    parser::parse(text).map(|_| ())
}

/// Parses and evaluates an expression with `data` as `$.data`, as Heat's
/// `Yaql.result` does, and converts the result to JSON as Heat's
/// `jsonutils` would see it. It runs on a thread of its own (see
/// [`STACK`]); the work it may do is bounded.
pub(crate) fn evaluate(text: &str, data: &Json) -> Result<Json, Error> {
    std::thread::scope(|scope| {
        let worker = std::thread::Builder::new()
            .name("yaql".into())
            .stack_size(STACK)
            .spawn_scoped(scope, || {
                let expression = parser::parse(text)?;
                engine::run(&expression, data)
            })
            .map_err(|_| Error::unsupported("no thread to evaluate it on"))?;
        worker
            .join()
            .unwrap_or_else(|_| Err(Error::unsupported("an evaluation that failed")))
    })
}
