//! E1008 `InvalidFunctionArguments`.
//!
//! Its catalogue entry (`META`) says what it checks, why, and gives an
//! example; `docs/rules.md` and `heatcap rules` print it.

use super::functions::{Call, Parse, Tables};
use crate::diag::{Code, Diagnostic};
use crate::model::{Node, Value};
use crate::validate::{Context, Rule, RuleMeta};

pub(crate) struct InvalidFunctionArguments;

static META: RuleMeta = RuleMeta {
    code: Code("E1008"),
    name: "InvalidFunctionArguments",
    summary: "a function's arguments do not have the shape Heat requires",
    what: "The arguments of HOT functions have the shape Heat checks when it builds the function, before anything is evaluated: `get_attr` a list of a resource and an attribute (one item is enough from 2015-10-15); `list_join` a delimiter and one list (several from 2015-10-15); `str_replace` (and its strict forms) and `repeat` maps with their required keys, `repeat`'s `for_each` a map and `permutations` a boolean; `resource_facade` one of `metadata`, `deletion_policy`, `update_policy`; `str_split` a list; `yaql` a map of `expression` (and `data`); `equals`, `contains` and `filter` two items; `if` three (two or three from 2021-04-16); `and`, `or` at least two conditions; `not` one; `make_url` a map of URL parts with a port in 1–65535. An argument that is itself a function call counts as neither a list nor a map, as in Heat (`list_join: {get_param: x}` fails). CFN functions get Heat's checks too: `Fn::GetAtt` and `Fn::Select` two items, `Fn::FindInMap` three, `Fn::Join`, `Fn::Split` and `Fn::Replace` a delimiter or mapping and one more item, `Fn::MemberListToMap` three with string names, `Fn::ResourceFacade` one of `Metadata`, `DeletionPolicy`, `UpdatePolicy`, `Fn::If` three, `Fn::Equals` two, `Fn::Not` one, `Fn::And` and `Fn::Or` at least two.",
    why: "Heat refuses the template with the messages quoted in each finding.",
    example: "`{get_attr: server}`, `{list_join: [',']}`.",
    source: "heat-semantics §1.4; Heat's hot/functions.py argument checks",
};

/// What Heat sees of an argument.
struct Shape<'a> {
    tables: &'a Tables,
    parse: Parse,
}

impl Shape<'_> {
    fn is_call(&self, n: &Node) -> bool {
        self.tables.is_call(n, self.parse)
    }

    /// A mapping that is not a function call (Python `Mapping`).
    fn map<'n>(&self, n: &'n Node) -> Option<&'n crate::model::Mapping> {
        n.as_map().filter(|_| !self.is_call(n))
    }
}

/// Python's `not args`.
fn falsy(n: &Node) -> bool {
    match &n.value {
        Value::Null => true,
        Value::Bool(b) => !b,
        Value::Int(i) => *i == 0,
        Value::Float(f) => *f == 0.0,
        Value::Str(s) => s.is_empty(),
        Value::Seq(items) => items.is_empty(),
        Value::Map(m) => m.is_empty(),
        Value::BigInt(_) => false,
    }
}

/// Heat's message for a call whose arguments it refuses, if it does.
#[allow(clippy::too_many_lines)]
fn problem(call: &Call<'_>, shape: &Shape<'_>, date: &str) -> Option<String> {
    let (f, args) = (call.name, call.args);
    let list_len = args.as_seq().map(<[Node]>::len);
    match f {
        "get_attr" if date < "2015-10-15" => match list_len {
            None => Some(format!("Argument to \"{f}\" must be a list")),
            Some(n) if n < 2 => Some(format!(
                "Arguments to \"{f}\" must be of the form [resource_name, attribute, (path), ...]"
            )),
            _ => None,
        },
        "get_attr" => {
            if falsy(args) {
                Some(format!("Arguments to \"{f}\" can be of the next forms: [resource_name] or [resource_name, attribute, (path), ...]"))
            } else if list_len.is_some() || args.as_str().is_some_and(|t| t.chars().count() <= 1) {
                None
            } else {
                Some(format!("Argument to \"{f}\" must be a list"))
            }
        }
        "list_join" => {
            let (many, example) = if date < "2015-10-15" {
                (false, "[ \" \", [ \"str1\", \"str2\"]]")
            } else {
                (true, "[ \" \", [ \"str1\", \"str2\"] ...]")
            };
            let bad = match list_len {
                None => true,
                Some(n) => (many && n < 2) || (!many && n != 2),
            };
            bad.then(|| format!("Incorrect arguments to \"{f}\" should be: \"{f}\" : {example}"))
        }
        "str_replace" | "str_replace_strict" | "str_replace_vstrict" => {
            let Some(m) = shape.map(args) else {
                return Some(format!("Arguments to \"{f}\" must be a map"));
            };
            match (m.get("params"), m.get("template")) {
                (Some(p), Some(_)) => (shape.map(p).is_none() && !shape.is_call(p))
                    .then(|| format!("\"{f}\" parameters must be a mapping")),
                _ => Some(format!(
                    "\"{f}\" syntax should be {{template: <string>, params: {{<name>: <value>}}}}"
                )),
            }
        }
        "resource_facade" => {
            let ok = args
                .as_str()
                .is_some_and(|t| matches!(t, "metadata" | "deletion_policy" | "update_policy"));
            (!ok).then(|| format!("Incorrect arguments to \"{f}\" should be one of: metadata, deletion_policy, update_policy"))
        }
        "repeat" => {
            let Some(m) = shape.map(args) else {
                return Some(format!("Arguments to \"{f}\" must be a map"));
            };
            let (Some(for_each), Some(_)) = (m.get("for_each"), m.get("template")) else {
                return Some(format!(
                    "\"{f}\" syntax should be {{template: <value>, for_each: {{<var>: <list>}}}}"
                ));
            };
            if date >= "2017-09-01" {
                if let Some(p) = m.get("permutations") {
                    if !matches!(p.value, Value::Bool(_)) {
                        return Some(format!(
                            "\"permutations\" should be boolean type for {f} function."
                        ));
                    }
                }
            }
            (shape.map(for_each).is_none() && !shape.is_call(for_each))
                .then(|| format!("The \"for_each\" argument to \"{f}\" must contain a map"))
        }
        "str_split" => (args.as_str().is_some() || shape.map(args).is_some()).then(|| {
            format!("Incorrect arguments to \"{f}\" should be: \"{f}\" : [ \",\", \"apples,pears\", <index>]")
        }),
        "yaql" => {
            let Some(m) = shape.map(args) else {
                return Some(format!("Arguments to \"{f}\" must be a map."));
            };
            let keys_ok = m.contains_key("expression")
                && m.str_entries().count() == m.len()
                && m.str_entries().all(|(k, _)| matches!(k, "expression" | "data"));
            (!keys_ok).then(|| {
                format!("\"{f}\" syntax should be {{expression: <yaql>, data: <value>}}")
            })
        }
        "equals" => (falsy(args) || list_len != Some(2)).then(|| {
            format!("Arguments to \"{f}\" must be of the form: [value_1, value_2]")
        }),
        "contains" => {
            if falsy(args) || list_len.is_none() {
                Some(format!("Incorrect arguments to \"{f}\" should be: \"{f}\" : [ \"value1\", [ \"value1\", \"value2\"]]"))
            } else {
                (list_len != Some(2)).then(|| {
                    format!("Arguments to \"{f}\" must be of the form: [value1, [value1, value2]]")
                })
            }
        }
        "if" => {
            let ok = match list_len {
                Some(3) => true,
                Some(2) => date >= "2021-04-16",
                _ => false,
            };
            (!ok).then(|| format!("Arguments to \"{f}\" must be of the form: [condition_name, value_if_true, value_if_false]"))
        }
        "and" | "or" => match list_len {
            None => Some(format!("Arguments to \"{f}\" must be a list of conditions")),
            Some(n) if n < 2 => Some(format!(
                "The minimum number of condition arguments to \"{f}\" is 2."
            )),
            _ => None,
        },
        "not" => matches!(args.value, Value::Null)
            .then(|| format!("Argument to \"{f}\" must be a condition")),
        "filter" => match list_len {
            None => Some(format!("Argument to \"{f}\" must be a list")),
            Some(n) if n != 2 => Some(format!(
                "\"{f}\" expected 2 arguments of the form [values, sequence] but got {n} arguments instead"
            )),
            _ => None,
        },
        "make_url" => make_url(args, shape),
        _ => cfn_problem(f, args, shape),
    }
}

/// Python's `a, b, ... = args` with `n` names: a list, string or mapping
/// of exactly `n` items (a function call cannot be unpacked).
fn unpacks(args: &Node, n: usize, shape: &Shape<'_>) -> bool {
    match &args.value {
        Value::Seq(items) => items.len() == n,
        Value::Str(t) => t.chars().count() == n,
        Value::Map(m) => !shape.is_call(args) && m.len() == n,
        _ => false,
    }
}

/// The CFN functions' checks (heat/engine/cfn/functions.py).
fn cfn_problem(f: &str, args: &Node, shape: &Shape<'_>) -> Option<String> {
    let string_or_map = args.as_str().is_some() || shape.map(args).is_some();
    match f {
        "Fn::FindInMap" => (!unpacks(args, 3, shape)).then(|| {
            format!("Arguments to \"{f}\" must be of the form [map_name, top_level_key, second_level_key]")
        }),
        "Fn::GetAtt" => (!unpacks(args, 2, shape)).then(|| {
            format!("Arguments to \"{f}\" must be of the form [resource_name, attribute]")
        }),
        "Fn::Select" => (!unpacks(args, 2, shape))
            .then(|| format!("Arguments to \"{f}\" must be of the form [index, collection]")),
        "Fn::Join" => (args.as_seq().map(<[Node]>::len) != Some(2)).then(|| {
            format!("Incorrect arguments to \"{f}\" should be: \"{f}\" : [ \" \", [ \"str1\", \"str2\"]]")
        }),
        "Fn::Split" => (string_or_map || !unpacks(args, 2, shape)).then(|| {
            format!("Incorrect arguments to \"{f}\" should be: \"{f}\" : [ \",\", \"str1,str2\"]]")
        }),
        "Fn::Replace" => {
            if string_or_map || !unpacks(args, 2, shape) {
                return Some(format!("Incorrect arguments to \"{f}\" should be: {{\"{f}\": [ {{\"$var1\": \"foo\"}}, \"$var1 is here\"]}}"));
            }
            let mapping = args.as_seq().and_then(<[Node]>::first)?;
            (shape.map(mapping).is_none() && !shape.is_call(mapping))
                .then(|| format!("\"{f}\" parameters must be a mapping"))
        }
        "Fn::MemberListToMap" => {
            if !unpacks(args, 3, shape) {
                return Some(format!("Wrong Arguments try: {{\"{f}\": [\"Name\", \"Value\", [\".member.0.Name=key\", \".member.0.Value=door\"]]}}"));
            }
            let items = args.as_seq()?;
            if items[0].as_str().is_none() {
                Some(format!("{f} Key Name must be a string"))
            } else if items[1].as_str().is_none() {
                Some(format!("{f} Value Name must be a string"))
            } else {
                None
            }
        }
        "Fn::ResourceFacade" => {
            let ok = args
                .as_str()
                .is_some_and(|t| matches!(t, "Metadata" | "DeletionPolicy" | "UpdatePolicy"));
            (!ok).then(|| format!("Incorrect arguments to \"{f}\" should be one of: Metadata, DeletionPolicy, UpdatePolicy"))
        }
        "Fn::If" => (args.as_seq().map(<[Node]>::len) != Some(3)).then(|| {
            format!("Arguments to \"{f}\" must be of the form: [condition_name, value_if_true, value_if_false]")
        }),
        "Fn::Equals" => (args.as_seq().map(<[Node]>::len) != Some(2))
            .then(|| format!("Arguments to \"{f}\" must be of the form: [value_1, value_2]")),
        "Fn::Not" => (args.as_seq().map(<[Node]>::len) != Some(1))
            .then(|| format!("Arguments to \"{f}\" must be of the form: [condition]")),
        "Fn::And" | "Fn::Or" => match args.as_seq().map(<[Node]>::len) {
            None => Some(format!("Arguments to \"{f}\" must be a list of conditions")),
            Some(n) if n < 2 => Some(format!(
                "The minimum number of condition arguments to \"{f}\" is 2."
            )),
            _ => None,
        },
        _ => None,
    }
}

/// `make_url`: a map of URL parts (Heat's `MakeURL.validate`).
fn make_url(args: &Node, shape: &Shape<'_>) -> Option<String> {
    const KEYS: [&str; 8] = [
        "scheme", "username", "password", "host", "port", "path", "query", "fragment",
    ];
    let Some(m) = shape.map(args) else {
        return Some("The arguments to \"make_url\" must be a map".to_owned());
    };
    let mut invalid: Vec<String> = m
        .entries
        .iter()
        .map(|(k, _)| k.value.key_text())
        .filter(|k| !KEYS.contains(&k.as_str()))
        .collect();
    if !invalid.is_empty() {
        invalid.sort();
        return Some(format!(
            "Invalid arguments to \"make_url\": {}",
            invalid.join(", ")
        ));
    }
    // Heat checks the parts in this order and stops at `query`.
    for key in KEYS {
        let Some(v) = m.get(key) else { continue };
        if shape.is_call(v) {
            if key == "query" {
                return None;
            }
            continue;
        }
        match key {
            "query" => {
                return shape
                    .map(v)
                    .is_none()
                    .then(|| "The \"query\" argument to \"make_url\" must be a map".to_owned())
            }
            "port" => {
                // Python's int(): booleans and integral floats convert, and
                // strings may have `_` between digits.
                let port = match &v.value {
                    Value::Int(i) => Some(*i),
                    Value::Bool(b) => Some(i64::from(*b)),
                    #[allow(clippy::cast_possible_truncation)]
                    Value::Float(f) if f.is_finite() => Some(f.trunc() as i64),
                    Value::Str(t) => {
                        let t = t.trim();
                        let digits = t.strip_prefix(['+', '-']).unwrap_or(t);
                        let well_placed = !digits.starts_with('_')
                            && !digits.ends_with('_')
                            && !digits.contains("__");
                        well_placed
                            .then(|| t.replace('_', "").parse::<i64>().ok())
                            .flatten()
                    }
                    _ => None,
                };
                match port {
                    None => {
                        return Some(format!(
                            "Invalid URL port \"{}\" for make_url",
                            v.value.key_text()
                        ))
                    }
                    Some(p) if !(1..=65535).contains(&p) => {
                        return Some(format!("Invalid URL port {p}, must be in range 1-65535"))
                    }
                    Some(_) => {}
                }
            }
            _ => {
                if v.as_str().is_none() {
                    return Some(format!(
                        "The \"{key}\" argument to \"make_url\" must be a string"
                    ));
                }
            }
        }
    }
    None
}

impl Rule for InvalidFunctionArguments {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
        let Some(tables) = Tables::of(cx) else { return };
        // CFN functions do not change with a version.
        let date = tables.date.unwrap_or_default();
        for call in tables.calls(cx.root, cx.template.format) {
            if call.invalid_here {
                continue;
            }
            let shape = Shape {
                tables,
                parse: call.parse,
            };
            if let Some(message) = problem(&call, &shape, date) {
                out.push(
                    Diagnostic::new(META.code, cx.file.path.clone(), message).at(call.key.span),
                );
            }
        }
    }
}
