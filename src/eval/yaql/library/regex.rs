//! yaql's `regex` library, on [`pyre`](super::super::pyre).

use std::collections::VecDeque;
use std::rc::Rc;

use super::super::engine::{Body, Bound, Ctx, Engine};
use super::super::pyre::{self, Match, Pattern};
use super::super::value::{Key, Map, Value};
use super::super::{Error, R};
use super::{generator, int, text};

/// The table of bodies (one arm per function: long by nature).
#[allow(clippy::too_many_lines)]
pub(super) fn body(id: &str) -> Option<Body> {
    Some(match id {
        "regex.regex" => |_, b| {
            let source = text(&b.val(0)?)?;
            let mut flags = 0;
            for (i, f) in [
                (1, pyre::IGNORECASE),
                (2, pyre::MULTILINE),
                (3, pyre::DOTALL),
            ] {
                if b.val(i)?.truthy() {
                    flags |= f;
                }
            }
            Ok(Value::Regex(Rc::new(Pattern::compile(&source, flags)?)))
        },
        "regex.matches" => |_, b| {
            let p = pattern(&b.val(0)?)?;
            Ok(Value::Bool(p.search(&text(&b.val(1)?)?)?.is_some()))
        },
        "regex.matches_" => |_, b| {
            let p = Pattern::compile(&text(&b.val(1)?)?, 0)?;
            Ok(Value::Bool(p.search(&text(&b.val(0)?)?)?.is_some()))
        },
        "regex.matches_operator_regex" => |_, b| {
            let p = pattern(&b.val(1)?)?;
            Ok(Value::Bool(p.search(&text(&b.val(0)?)?)?.is_some()))
        },
        "regex.matches_operator_string" => |_, b| {
            let p = Pattern::compile(&text(&b.val(1)?)?, 0)?;
            Ok(Value::Bool(p.search(&text(&b.val(0)?)?)?.is_some()))
        },
        "regex.not_matches_operator_regex" => |_, b| {
            let p = pattern(&b.val(1)?)?;
            Ok(Value::Bool(p.search(&text(&b.val(0)?)?)?.is_none()))
        },
        "regex.not_matches_operator_string" => |_, b| {
            let p = Pattern::compile(&text(&b.val(1)?)?, 0)?;
            Ok(Value::Bool(p.search(&text(&b.val(0)?)?)?.is_none()))
        },
        "regex.search" => |eng, b| {
            let p = pattern(&b.val(0)?)?;
            let s = text(&b.val(1)?)?;
            let selector = b.lambda(2)?;
            let Some(m) = p.search(&s)? else {
                return Ok(Value::None);
            };
            match selector {
                None => Ok(Value::str(m.texts[0].as_deref().unwrap_or(""))),
                Some(l) => {
                    let ctx = b.ctx.child();
                    publish(&ctx, &m);
                    eng.call_lambda(&l, vec![Value::Context(ctx)])
                }
            }
        },
        "regex.search_all" => |_, b| {
            let pat = pattern(&b.val(0)?)?;
            let subject = text(&b.val(1)?)?;
            let selector = b.lambda(2)?;
            let ctx = b.ctx.clone();
            let mut matches: Option<VecDeque<Match>> = None;
            Ok(generator(move |eng| {
                if matches.is_none() {
                    matches = Some(pat.find_all(&subject)?.into());
                }
                let Some(found) = matches.as_mut().and_then(VecDeque::pop_front) else {
                    return Ok(None);
                };
                match &selector {
                    None => Ok(Some(Value::str(found.texts[0].as_deref().unwrap_or("")))),
                    Some(sel) => {
                        let child = ctx.child();
                        publish(&child, &found);
                        eng.call_lambda(sel, vec![Value::Context(child)]).map(Some)
                    }
                }
            }))
        },
        "regex.split" => |_, b| split(&b.val(0)?, &b.val(1)?, &b.val(2)?),
        "regex.split_string" => |_, b| split(&b.val(1)?, &b.val(0)?, &b.val(2)?),
        "regex.replace" => |_, b| replace(&b.val(0)?, &b.val(1)?, &b.val(2)?, &b.val(3)?),
        "regex.replace_string" => |_, b| replace(&b.val(1)?, &b.val(0)?, &b.val(2)?, &b.val(3)?),
        "regex.replace_by" => |eng, b| replace_by(eng, b, 0, 1),
        "regex.replace_by_string" => |eng, b| replace_by(eng, b, 1, 0),
        "regex.escape_regex" => |_, b| Ok(Value::str(&pyre::escape(&text(&b.val(0)?)?))),
        "regex.is_regex" => |_, b| Ok(Value::Bool(matches!(b.val(0)?, Value::Regex(_)))),
        _ => return None,
    })
}

fn pattern(v: &Value) -> R<Rc<Pattern>> {
    match v {
        Value::Regex(p) => Ok(p.clone()),
        _ => Err(Error::unsupported("a pattern that is not compiled")),
    }
}

/// `_publish_match`: `$1` the whole match, `$2`… the groups, each
/// `{value, start, end}` (a plain dict).
fn publish(ctx: &Ctx, m: &Match) {
    for (i, (t, span)) in m.texts.iter().zip(&m.spans).enumerate() {
        let mut map = Map::new();
        let (start, end) = span.map_or((-1, -1), |(a, z)| {
            (
                i64::try_from(a).unwrap_or(i64::MAX),
                i64::try_from(z).unwrap_or(i64::MAX),
            )
        });
        map.insert(
            Key(Value::str("value")),
            t.as_deref().map_or(Value::None, Value::str),
        );
        map.insert(Key(Value::str("start")), Value::Int(start));
        map.insert(Key(Value::str("end")), Value::Int(end));
        ctx.set(&format!("${}", i + 1), Value::dict(map, false));
    }
}

fn split(p: &Value, s: &Value, n: &Value) -> R<Value> {
    let p = pattern(p)?;
    let parts = p.split(&text(s)?, int(n)?)?;
    Ok(Value::list(
        parts
            .into_iter()
            .map(|t| t.map_or(Value::None, |t| Value::str(&t)))
            .collect(),
    ))
}

fn replace(p: &Value, s: &Value, repl: &Value, n: &Value) -> R<Value> {
    let p = pattern(p)?;
    let repl = text(repl)?;
    let out = p.sub(&text(s)?, int(n)?, |m| p.expand(&repl, m))?;
    Ok(Value::str(&out))
}

/// `replaceBy`: each match published into the call's context, the
/// selector evaluated in a child of it; it must give a string.
fn replace_by(eng: &Engine, b: &mut Bound, pi: usize, si: usize) -> R<Value> {
    let pat = pattern(&b.val(pi)?)?;
    let subject = text(&b.val(si)?)?;
    let count = int(&b.val(3)?)?;
    let Some(repl) = b.lambda(2)? else {
        return Err(Error::raised(
            "TypeError",
            "'NoneType' object is not callable",
        ));
    };
    let ctx = b.ctx.clone();
    // `re.sub` with a function: every replacement is computed, then the
    // pieces are joined (a `None` is left out; anything else must be a
    // string: `sequence item N: expected str instance`).
    let mut pieces: Vec<Value> = Vec::new();
    let mut tail = String::new();
    pat.pieces(
        &subject,
        count,
        |before, found| {
            if let Some(before) = before {
                pieces.push(Value::str(before));
            }
            let child = ctx.child();
            publish(&ctx, found);
            match eng.call_lambda(&repl, vec![Value::Context(child)])? {
                Value::None => {}
                piece => pieces.push(piece),
            }
            Ok(())
        },
        &mut tail,
    )?;
    if !tail.is_empty() {
        pieces.push(Value::str(&tail));
    }
    let mut out = String::new();
    for (index, piece) in pieces.iter().enumerate() {
        match piece {
            Value::Str(t) => out.push_str(t),
            other => {
                return Err(Error::raised(
                    "TypeError",
                    format!(
                        "sequence item {index}: expected str instance, {} found",
                        other.type_name()
                    ),
                ))
            }
        }
    }
    Ok(Value::str(&out))
}
