//! Heat's first two passes: `parse` (heat/engine/template.py `parse`, each
//! function's constructor) and `validate` (`Function.validate`).

use serde_json::Value;

use super::python;
use super::tables::{lookup, Class, Table};
use super::yaql;
use super::{Evaluator, Unevaluated};

/// A parsed snippet: data with function objects in it.
#[derive(Debug, Clone)]
pub(super) enum Tree {
    /// A scalar.
    Data(Value),
    List(Vec<Tree>),
    Map(Vec<(String, Tree)>),
    Call(Box<Call>),
    /// Python's `Ellipsis`: the missing branch of a 2-argument `if`.
    Elided,
}

/// A function object: its name as written and its parsed arguments.
#[derive(Debug, Clone)]
pub(super) struct Call {
    pub(super) name: String,
    pub(super) func: Func,
}

/// `get_attr`'s flavours (heat/engine/hot/functions.py).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum AttStyle {
    /// `GetAttThenSelect` (HOT 2013-05-23, `Fn::GetAtt`).
    ThenSelect,
    /// `GetAtt` (2014-10-16, 2015-04-30).
    Path,
    /// `GetAttAllAttributes` (2015-10-15+).
    All,
}

/// `str_replace`'s flavours.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ReplaceStyle {
    /// `Replace`: scalars through `str()`.
    Plain,
    /// `ReplaceJson`: maps and lists as JSON.
    Json,
    /// `ReplaceJsonStrict`: every param must occur.
    Strict,
    /// `ReplaceJsonVeryStrict`: and none may be empty.
    VeryStrict,
}

/// `repeat`'s flavours.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum RepeatStyle {
    Lists,
    Maps,
    NestedLoop,
}

/// The function objects, with the arguments their constructors keep.
#[derive(Debug, Clone)]
pub(super) enum Func {
    GetParam(Tree),
    GetResource(Tree),
    ParamRef(Tree),
    GetAtt {
        style: AttStyle,
        resource: Tree,
        attribute: Option<Tree>,
        path: Vec<Tree>,
    },
    Replace {
        style: ReplaceStyle,
        params: Tree,
        template: Tree,
    },
    Join {
        delim: Tree,
        list: Tree,
    },
    JoinMultiple {
        delim: Tree,
        lists: Vec<Tree>,
    },
    MapMerge(Tree),
    MapReplace(Tree),
    GetFile(Tree),
    /// `resource_facade`, `Fn::ResourceFacade`: the parent resource's data.
    ResourceFacade,
    Removed,
    Repeat {
        style: RepeatStyle,
        for_each: Tree,
        template: Tree,
        nested: bool,
    },
    Digest(Tree),
    StrSplit(Tree),
    /// `yaql`: its `expression` and its `data` (`{}` when absent).
    Yaql {
        expression: Tree,
        data: Tree,
    },
    Equals(Tree, Tree),
    /// The branch `if` chose, already parsed.
    If(Tree),
    Not(Tree),
    And(Tree),
    Or(Tree),
    Filter(Tree, Tree),
    MakeUrl(Tree),
    ListConcat {
        unique: bool,
        args: Tree,
    },
    Contains(Tree, Tree),
    FindInMap(Tree, Tree, Tree),
    GetAZs,
    Select(Tree, Tree),
    Split {
        delim: Tree,
        string: Tree,
    },
    Base64(Tree),
    MemberListToMap {
        key: String,
        value: String,
        list: Tree,
    },
}

/// How Python's `a, b = x` failed.
enum Unpack {
    /// `TypeError: cannot unpack non-iterable int object`.
    NotIterable(String),
    /// `ValueError: not enough values / too many values to unpack`.
    Count(String),
}

impl Tree {
    /// Python's truthiness of a parsed value (a function object is true).
    fn truthy(&self) -> bool {
        match self {
            Tree::Data(v) => python::truthy(v),
            Tree::List(items) => !items.is_empty(),
            Tree::Map(entries) => !entries.is_empty(),
            Tree::Call(_) | Tree::Elided => true,
        }
    }

    /// `type(x).__name__` of a parsed value.
    fn type_name(&self) -> String {
        match self {
            Tree::Data(v) => python::type_name(v).into(),
            Tree::List(_) => "list".into(),
            Tree::Map(_) => "dict".into(),
            Tree::Call(c) => c.class_name().into(),
            Tree::Elided => "ellipsis".into(),
        }
    }

    /// Python's `a, b, … = self` with `n` names.
    fn unpack(&self, n: usize) -> Result<Vec<Tree>, Unpack> {
        let items: Vec<Tree> = match self {
            Tree::List(items) => items.clone(),
            Tree::Data(Value::String(s)) => s
                .chars()
                .map(|c| Tree::Data(Value::String(c.into())))
                .collect(),
            Tree::Map(entries) => entries
                .iter()
                .map(|(k, _)| Tree::Data(Value::String(k.clone())))
                .collect(),
            other => {
                return Err(Unpack::NotIterable(format!(
                    "cannot unpack non-iterable {} object",
                    other.type_name()
                )))
            }
        };
        match items.len().cmp(&n) {
            std::cmp::Ordering::Equal => Ok(items),
            std::cmp::Ordering::Less => Err(Unpack::Count(format!(
                "not enough values to unpack (expected {n}, got {})",
                items.len()
            ))),
            std::cmp::Ordering::Greater => Err(Unpack::Count(format!(
                "too many values to unpack (expected {n})"
            ))),
        }
    }

    /// A map entry of a parsed mapping.
    fn get(&self, key: &str) -> Option<&Tree> {
        match self {
            Tree::Map(entries) => entries.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }
}

impl Call {
    /// The Heat class name, for Python-style messages.
    fn class_name(&self) -> &'static str {
        match &self.func {
            Func::GetParam(_) => "GetParam",
            Func::GetResource(_) => "GetResource",
            Func::ParamRef(_) => "ParamRef",
            Func::GetAtt { .. } => "GetAtt",
            Func::Replace { .. } => "Replace",
            Func::Join { .. } => "Join",
            Func::JoinMultiple { .. } => "JoinMultiple",
            Func::MapMerge(_) => "MapMerge",
            Func::MapReplace(_) => "MapReplace",
            Func::GetFile(_) => "GetFile",
            Func::ResourceFacade => "ResourceFacade",
            Func::Removed => "Removed",
            Func::Repeat { .. } => "Repeat",
            Func::Digest(_) => "Digest",
            Func::StrSplit(_) => "StrSplit",
            Func::Yaql { .. } => "Yaql",
            Func::Equals(..) => "Equals",
            Func::If(_) => "If",
            Func::Not(_) => "Not",
            Func::And(_) => "And",
            Func::Or(_) => "Or",
            Func::Filter(..) => "Filter",
            Func::MakeUrl(_) => "MakeURL",
            Func::ListConcat { .. } => "ListConcat",
            Func::Contains(..) => "Contains",
            Func::FindInMap(..) => "FindInMap",
            Func::GetAZs => "GetAZs",
            Func::Select(..) => "Select",
            Func::Split { .. } => "Split",
            Func::Base64(_) => "Base64",
            Func::MemberListToMap { .. } => "MemberListToMap",
        }
    }
}

/// `str(KeyError(message))`: the message's `repr`.
fn key_error(message: &str) -> String {
    python::str_repr(message)
}

impl Evaluator<'_> {
    /// Heat's `parse`: one-key mappings naming a function of `table`
    /// become function objects; everything else is data.
    pub(super) fn parse(&self, snippet: &Value, table: Table) -> Result<Tree, Unevaluated> {
        match snippet {
            Value::Object(m) => {
                if m.len() == 1 {
                    if let Some((name, args)) = m.iter().next() {
                        if let Some(class) = lookup(self.dialect, table, name) {
                            return self.construct(class, name, args, table);
                        }
                    }
                }
                let mut entries = Vec::with_capacity(m.len());
                for (k, v) in m {
                    entries.push((k.clone(), self.parse(v, table)?));
                }
                Ok(Tree::Map(entries))
            }
            Value::Array(items) => items
                .iter()
                .map(|v| self.parse(v, table))
                .collect::<Result<_, _>>()
                .map(Tree::List),
            scalar => Ok(Tree::Data(scalar.clone())),
        }
    }

    /// A function object: the constructor's checks, on the parsed
    /// arguments (the raw ones for the `if` macro).
    #[allow(clippy::too_many_lines)]
    fn construct(
        &self,
        class: Class,
        name: &str,
        raw: &Value,
        table: Table,
    ) -> Result<Tree, Unevaluated> {
        let err = |m: String| Unevaluated::heat_error(name, m);
        let call = |func: Func| {
            Ok(Tree::Call(Box::new(Call {
                name: name.to_owned(),
                func,
            })))
        };
        match class {
            Class::Invalid => {
                return Err(err(format!(
                    "The function \"{name}\" is invalid in this context"
                )))
            }
            Class::If | Class::IfNullable => return self.construct_if(class, name, raw, table),
            _ => {}
        }
        let args = self.parse(raw, table)?;
        let two = |args: &Tree, message: &str| -> Result<(Tree, Tree), Unevaluated> {
            match args.unpack(2) {
                Ok(v) => {
                    let mut it = v.into_iter();
                    match (it.next(), it.next()) {
                        (Some(a), Some(b)) => Ok((a, b)),
                        _ => Err(err(message.to_owned())),
                    }
                }
                Err(Unpack::NotIterable(m)) => Err(err(m)),
                Err(Unpack::Count(_)) => Err(err(message.to_owned())),
            }
        };
        match class {
            Class::GetParam => call(Func::GetParam(args)),
            Class::GetResource => call(Func::GetResource(args)),
            Class::ParamRef => call(Func::ParamRef(args)),
            Class::Ref => match &args {
                // `args in stack`: a resource name makes it get_resource.
                Tree::Data(Value::String(s)) if self.scope.has_resource(s) => {
                    call(Func::GetResource(args))
                }
                Tree::List(_) | Tree::Map(_) | Tree::Call(_) => {
                    Err(err(format!("unhashable type: '{}'", args.type_name())))
                }
                _ => call(Func::ParamRef(args)),
            },
            Class::GetAttThenSelect | Class::GetAtt | Class::GetAttAllAttributes => {
                let style = match class {
                    Class::GetAttThenSelect => AttStyle::ThenSelect,
                    Class::GetAtt => AttStyle::Path,
                    _ => AttStyle::All,
                };
                let not_list = || err(format!("Argument to \"{name}\" must be a list"));
                let form = || {
                    err(format!(
                        "Arguments to \"{name}\" must be of the form [resource_name, attribute, (path), ...]"
                    ))
                };
                let (resource, attribute, path) = if style == AttStyle::All {
                    if !args.truthy() {
                        return Err(err(format!(
                            "Arguments to \"{name}\" can be of the next forms: [resource_name] or [resource_name, attribute, (path), ...]"
                        )));
                    }
                    match &args {
                        Tree::List(items) if items.len() > 1 => {
                            (items[0].clone(), Some(items[1].clone()), items[2..].to_vec())
                        }
                        Tree::List(items) => (items[0].clone(), None, Vec::new()),
                        // A string is a sequence too: one character names
                        // the resource, more is an error.
                        Tree::Data(Value::String(s)) if s.chars().count() == 1 => {
                            (args.clone(), None, Vec::new())
                        }
                        _ => return Err(not_list()),
                    }
                } else {
                    match &args {
                        Tree::List(items) if items.len() >= 2 => {
                            (items[0].clone(), Some(items[1].clone()), items[2..].to_vec())
                        }
                        Tree::List(_) => return Err(form()),
                        _ => return Err(not_list()),
                    }
                };
                call(Func::GetAtt {
                    style,
                    resource,
                    attribute,
                    path,
                })
            }
            Class::CfnGetAtt => {
                let (resource, attribute) = two(
                    &args,
                    &format!("Arguments to \"{name}\" must be of the form [resource_name, attribute]"),
                )?;
                call(Func::GetAtt {
                    style: AttStyle::ThenSelect,
                    resource,
                    attribute: Some(attribute),
                    path: Vec::new(),
                })
            }
            Class::Replace | Class::ReplaceJson | Class::ReplaceJsonStrict | Class::ReplaceJsonVeryStrict => {
                let style = match class {
                    Class::Replace => ReplaceStyle::Plain,
                    Class::ReplaceJson => ReplaceStyle::Json,
                    Class::ReplaceJsonStrict => ReplaceStyle::Strict,
                    _ => ReplaceStyle::VeryStrict,
                };
                if !matches!(args, Tree::Map(_)) {
                    return Err(err(format!("Arguments to \"{name}\" must be a map")));
                }
                let (Some(params), Some(template)) = (args.get("params"), args.get("template")) else {
                    return Err(err(key_error(&format!(
                        "\"{name}\" syntax should be {name}:\n              template: This is var1 template var2\n              params:\n                var1: a\n                var2: string"
                    ))));
                };
                replace(name, style, params.clone(), template.clone())
            }
            Class::CfnReplace => {
                let message = format!(
                    "Incorrect arguments to \"{name}\" should be: {{\"{name}\": [ {{\"$var1\": \"foo\", \"%var2%\": \"bar\"}}, \"$var1 is %var2%\"]}}"
                );
                if matches!(args, Tree::Map(_) | Tree::Data(Value::String(_))) {
                    return Err(err(message));
                }
                let (params, template) = two(&args, &message)?;
                replace(name, ReplaceStyle::Plain, params, template)
            }
            Class::Join => {
                let message =
                    format!("Incorrect arguments to \"{name}\" should be: \"{name}\" : [ \" \", [ \"str1\", \"str2\"]]");
                match &args {
                    Tree::List(items) if items.len() == 2 => call(Func::Join {
                        delim: items[0].clone(),
                        list: items[1].clone(),
                    }),
                    _ => Err(err(message)),
                }
            }
            Class::JoinMultiple => {
                let message = format!(
                    "Incorrect arguments to \"{name}\" should be: \"{name}\" : [ \" \", [ \"str1\", \"str2\"] ...]"
                );
                match &args {
                    Tree::List(items) if items.len() >= 2 => call(Func::JoinMultiple {
                        delim: items[0].clone(),
                        lists: items[1..].to_vec(),
                    }),
                    _ => Err(err(message)),
                }
            }
            Class::MapMerge => call(Func::MapMerge(args)),
            Class::MapReplace => call(Func::MapReplace(args)),
            Class::GetFile => call(Func::GetFile(args)),
            Class::ResourceFacade | Class::CfnResourceFacade => {
                let allowed: [&str; 3] = if class == Class::ResourceFacade {
                    ["metadata", "deletion_policy", "update_policy"]
                } else {
                    ["Metadata", "DeletionPolicy", "UpdatePolicy"]
                };
                match &args {
                    Tree::Data(Value::String(s)) if allowed.contains(&s.as_str()) => call(Func::ResourceFacade),
                    _ => Err(err(format!(
                        "Incorrect arguments to \"{name}\" should be one of: {}",
                        allowed.join(", ")
                    ))),
                }
            }
            Class::Removed => call(Func::Removed),
            Class::Repeat | Class::RepeatWithMap | Class::RepeatWithNestedLoop => {
                let style = match class {
                    Class::Repeat => RepeatStyle::Lists,
                    Class::RepeatWithMap => RepeatStyle::Maps,
                    _ => RepeatStyle::NestedLoop,
                };
                if !matches!(args, Tree::Map(_)) {
                    return Err(err(format!("Arguments to \"{name}\" must be a map")));
                }
                let (Some(for_each), Some(template)) = (args.get("for_each"), args.get("template")) else {
                    return Err(err(key_error(
                        "\"repeat\" syntax should be repeat:\n              template: This is %var%\n              for_each:\n                %var%: ['a', 'b', 'c']",
                    )));
                };
                let nested = if style == RepeatStyle::NestedLoop {
                    match args.get("permutations") {
                        None => true,
                        Some(Tree::Data(Value::Bool(b))) => *b,
                        Some(_) => {
                            return Err(err(format!(
                                "\"permutations\" should be boolean type for {name} function."
                            )))
                        }
                    }
                } else {
                    true
                };
                call(Func::Repeat {
                    style,
                    for_each: for_each.clone(),
                    template: template.clone(),
                    nested,
                })
            }
            Class::Digest => call(Func::Digest(args)),
            Class::StrSplit => {
                if matches!(args, Tree::Map(_) | Tree::Data(Value::String(_))) {
                    return Err(err(format!(
                        "Incorrect arguments to \"{name}\" should be: \"{name}\" : [ \",\", \"apples,pears\", <index>]"
                    )));
                }
                call(Func::StrSplit(args))
            }
            Class::Yaql => {
                let Tree::Map(entries) = &args else {
                    return Err(err(format!("Arguments to \"{name}\" must be a map.")));
                };
                let known = entries.iter().all(|(k, _)| k == "expression" || k == "data");
                if args.get("expression").is_none() || !known {
                    return Err(err(key_error(&format!(
                        "\"{name}\" syntax should be {name}:\n              expression: $.data.var1.sum()\n              data:\n                var1: [3, 2, 1]"
                    ))));
                }
                let expression = args.get("expression").cloned().unwrap_or(Tree::Elided);
                let data = args
                    .get("data")
                    .cloned()
                    .unwrap_or_else(|| Tree::Data(Value::Object(serde_json::Map::new())));
                call(Func::Yaql { expression, data })
            }
            Class::Equals => match &args {
                Tree::List(items) if items.len() == 2 => call(Func::Equals(items[0].clone(), items[1].clone())),
                _ => Err(err(format!(
                    "Arguments to \"{name}\" must be of the form: [value_1, value_2]"
                ))),
            },
            Class::Not => {
                if matches!(args, Tree::Data(Value::Null)) {
                    return Err(err(format!("Argument to \"{name}\" must be a condition")));
                }
                call(Func::Not(args))
            }
            Class::CfnNot => match &args {
                Tree::List(items) if items.len() == 1 => call(Func::Not(items[0].clone())),
                _ => Err(err(format!("Arguments to \"{name}\" must be of the form: [condition]"))),
            },
            Class::And | Class::Or => match &args {
                Tree::List(items) if items.len() >= 2 => {
                    call(if class == Class::And { Func::And(args) } else { Func::Or(args) })
                }
                Tree::List(_) => Err(err(format!(
                    "The minimum number of condition arguments to \"{name}\" is 2."
                ))),
                _ => Err(err(format!("Arguments to \"{name}\" must be a list of conditions"))),
            },
            Class::Filter => match &args {
                Tree::List(items) if items.len() == 2 => call(Func::Filter(items[0].clone(), items[1].clone())),
                Tree::List(items) => Err(err(format!(
                    "\"{name}\" expected 2 arguments of the form [values, sequence] but got {} arguments instead",
                    items.len()
                ))),
                _ => Err(err(format!("Argument to \"{name}\" must be a list"))),
            },
            Class::MakeUrl => call(Func::MakeUrl(args)),
            Class::ListConcat | Class::ListConcatUnique => call(Func::ListConcat {
                unique: class == Class::ListConcatUnique,
                args,
            }),
            Class::Contains => match &args {
                Tree::List(items) if items.len() == 2 => call(Func::Contains(items[0].clone(), items[1].clone())),
                Tree::List(items) if !items.is_empty() => Err(err(format!(
                    "Arguments to \"{name}\" must be of the form: [value1, [value1, value2]]"
                ))),
                _ => Err(err(format!(
                    "Incorrect arguments to \"{name}\" should be: \"{name}\" : [ \"value1\", [ \"value1\", \"value2\"]]"
                ))),
            },
            Class::FindInMap => match args.unpack(3) {
                Ok(v) => {
                    let mut it = v.into_iter();
                    match (it.next(), it.next(), it.next()) {
                        (Some(a), Some(b), Some(c)) => call(Func::FindInMap(a, b, c)),
                        _ => Err(err(key_error("not enough values to unpack"))),
                    }
                }
                Err(Unpack::NotIterable(m)) => Err(err(m)),
                Err(Unpack::Count(m)) => Err(err(key_error(&m))),
            },
            Class::GetAZs => call(Func::GetAZs),
            Class::Select => {
                let (index, collection) = two(
                    &args,
                    &format!("Arguments to \"{name}\" must be of the form [index, collection]"),
                )?;
                call(Func::Select(index, collection))
            }
            Class::Split => {
                let message =
                    format!("Incorrect arguments to \"{name}\" should be: \"{name}\" : [ \",\", \"str1,str2\"]]");
                if matches!(args, Tree::Map(_) | Tree::Data(Value::String(_))) {
                    return Err(err(message));
                }
                let (delim, string) = two(&args, &message)?;
                call(Func::Split { delim, string })
            }
            Class::Base64 => call(Func::Base64(args)),
            Class::MemberListToMap => {
                let wrong = || {
                    err(format!(
                        "Wrong Arguments try: \"{}\"",
                        "\n            {'Fn::MemberListToMap': ['Name', 'Value',\n                                     ['.member.0.Name=key',\n                                      '.member.0.Value=door']]}\n            "
                    ))
                };
                let parts = match args.unpack(3) {
                    Ok(v) => v,
                    Err(Unpack::NotIterable(m)) => return Err(err(m)),
                    Err(Unpack::Count(_)) => return Err(wrong()),
                };
                let [key, value, list]: [Tree; 3] = parts.try_into().map_err(|_| wrong())?;
                let Tree::Data(Value::String(key)) = key else {
                    return Err(err(format!("{name} Key Name must be a string")));
                };
                let Tree::Data(Value::String(value)) = value else {
                    return Err(err(format!("{name} Value Name must be a string")));
                };
                call(Func::MemberListToMap { key, value, list })
            }
            Class::Invalid | Class::If | Class::IfNullable => Err(err("unreachable".into())),
        }
    }

    /// The `if` macro: its condition is parsed with the condition
    /// functions and resolved now, and only the chosen branch is parsed.
    fn construct_if(
        &self,
        class: Class,
        name: &str,
        raw: &Value,
        table: Table,
    ) -> Result<Tree, Unevaluated> {
        let form = || {
            Unevaluated::heat_error(
                name,
                format!(
                    "Arguments to \"{name}\" must be of the form: [condition_name, value_if_true, value_if_false]"
                ),
            )
        };
        let Value::Array(items) = raw else {
            return Err(form());
        };
        let (condition, if_true, if_false) = match (class, items.as_slice()) {
            (_, [c, t, f]) => (c, t, Some(f)),
            (Class::IfNullable, [c, t]) => (c, t, None),
            _ => return Err(form()),
        };
        let cond = self.parse(condition, Table::Conditions)?;
        let value = self.resolve(&cond, false)?.unwrap_or_default();
        let chosen = if self.get_condition(&value)? {
            Some(if_true)
        } else {
            if_false
        };
        let branch = match chosen {
            Some(v) => self.parse(v, table)?,
            None => Tree::Elided,
        };
        Ok(Tree::Call(Box::new(Call {
            name: name.to_owned(),
            func: Func::If(branch),
        })))
    }

    /// `Function.validate` over a parsed snippet.
    pub(super) fn validate(&self, tree: &Tree) -> Result<(), Unevaluated> {
        match tree {
            Tree::Data(_) | Tree::Elided => Ok(()),
            Tree::List(items) => items.iter().try_for_each(|t| self.validate(t)),
            Tree::Map(entries) => entries.iter().try_for_each(|(_, t)| self.validate(t)),
            Tree::Call(call) => self.validate_call(call),
        }
    }

    #[allow(clippy::too_many_lines)]
    fn validate_call(&self, call: &Call) -> Result<(), Unevaluated> {
        let name = call.name.as_str();
        let err = |m: String| Unevaluated::heat_error(name, m);
        match &call.func {
            Func::Removed => Err(err(format!(
                "The template version is invalid: The function {name} is not supported in this version of HOT."
            ))),
            Func::GetAtt {
                resource,
                attribute,
                path,
                ..
            } => {
                self.validate(resource)?;
                if let Some(a) = attribute {
                    self.validate(a)?;
                }
                path.iter().try_for_each(|t| self.validate(t))?;
                // `self._resource()`: the resource must exist. Whether the
                // attribute is among the resource's attributes is not known
                // here (types that compute attributes, like OS::Heat::None,
                // accept any); a list or map never is (`attr in set`).
                self.resource(name, resource)?;
                let Some(attribute) = attribute else {
                    return Ok(());
                };
                match self.resolve(attribute, false)?.unwrap_or_default() {
                    a @ (Value::Array(_) | Value::Object(_)) => Err(err(format!(
                        "unhashable type: '{}'",
                        python::type_name(&a)
                    ))),
                    _ => Ok(()),
                }
            }
            Func::Repeat {
                for_each, template, ..
            } => {
                self.validate(for_each)?;
                self.validate(template)?;
                if matches!(for_each, Tree::Map(_) | Tree::Call(_)) {
                    Ok(())
                } else {
                    Err(err(format!(
                        "The \"for_each\" argument to \"{name}\" must contain a map"
                    )))
                }
            }
            Func::MakeUrl(args) => {
                self.validate(args)?;
                let Tree::Map(entries) = args else {
                    return Err(err(format!("The arguments to \"{name}\" must be a map")));
                };
                let invalid: Vec<&str> = entries
                    .iter()
                    .map(|(k, _)| k.as_str())
                    .filter(|k| !super::functions::URL_KEYS.contains(k))
                    .collect();
                if !invalid.is_empty() {
                    // Heat joins a set: with several keys its order is the
                    // hash order; heatcap keeps the template's.
                    return Err(err(format!(
                        "Invalid arguments to \"{name}\": {}",
                        invalid.join(", ")
                    )));
                }
                let parsed: Vec<(String, Option<Value>)> = entries
                    .iter()
                    .map(|(k, t)| {
                        let v = match t {
                            Tree::Call(_) => None,
                            Tree::Data(v) => Some(v.clone()),
                            Tree::List(_) => Some(Value::Array(Vec::new())),
                            Tree::Map(_) => Some(Value::Object(serde_json::Map::new())),
                            Tree::Elided => Some(Value::Null),
                        };
                        (k.clone(), v)
                    })
                    .collect();
                super::functions::check_url_args(name, &parsed)
            }
            Func::If(branch) => self.validate(branch),
            Func::GetParam(a)
            | Func::GetResource(a)
            | Func::ParamRef(a)
            | Func::MapMerge(a)
            | Func::MapReplace(a)
            | Func::GetFile(a)
            | Func::Digest(a)
            | Func::StrSplit(a)
            | Func::Not(a)
            | Func::And(a)
            | Func::Or(a)
            | Func::Base64(a)
            | Func::ListConcat { args: a, .. }
            | Func::MemberListToMap { list: a, .. } => self.validate(a),
            Func::Replace { params, template, .. } => {
                self.validate(params)?;
                self.validate(template)
            }
            Func::Join { delim, list } => {
                self.validate(delim)?;
                self.validate(list)
            }
            Func::JoinMultiple { delim, lists } => {
                self.validate(delim)?;
                lists.iter().try_for_each(|t| self.validate(t))
            }
            Func::Equals(a, b)
            | Func::Filter(a, b)
            | Func::Contains(a, b)
            | Func::Select(a, b)
            | Func::Split { delim: a, string: b } => {
                self.validate(a)?;
                self.validate(b)
            }
            Func::FindInMap(a, b, c) => {
                self.validate(a)?;
                self.validate(b)?;
                self.validate(c)
            }
            Func::Yaql { expression, data } => {
                self.validate(expression)?;
                self.validate(data)?;
                // `Yaql.validate`: a written expression is parsed now.
                match expression {
                    Tree::Call(_) => Ok(()),
                    Tree::Data(Value::String(text)) => yaql_parse(name, text),
                    _ => Err(yaql_not_text(name)),
                }
            }
            Func::ResourceFacade | Func::GetAZs => Ok(()),
        }
    }
}

/// `Yaql._parse`: Heat's yaql engine parses the expression; its syntax
/// error is Heat's `ValueError`.
pub(super) fn yaql_parse(name: &str, text: &str) -> Result<(), Unevaluated> {
    yaql::parse(text).map_err(|e| match e {
        yaql::Error::Raised { message, .. } => {
            Unevaluated::heat_error(name, format!("Bad expression {message}."))
        }
        yaql::Error::Unsupported(reason) => Unevaluated::new(name, yaql_unsupported(&reason)),
    })
}

/// `Yaql._parse` of anything but a string.
pub(super) fn yaql_not_text(name: &str) -> Unevaluated {
    Unevaluated::heat_error(
        name,
        format!("The \"expression\" argument to {name} must contain a string."),
    )
}

/// Why heatcap leaves a yaql expression unevaluated.
pub(super) fn yaql_unsupported(reason: &str) -> String {
    format!("heatcap does not evaluate this yaql expression: {reason}")
}

/// `Replace.__init__`'s last check: the params are a map or a function.
fn replace(
    name: &str,
    style: ReplaceStyle,
    params: Tree,
    template: Tree,
) -> Result<Tree, Unevaluated> {
    if !matches!(params, Tree::Map(_) | Tree::Call(_)) {
        return Err(Unevaluated::heat_error(
            name,
            format!("\"{name}\" parameters must be a mapping"),
        ));
    }
    Ok(Tree::Call(Box::new(Call {
        name: name.to_owned(),
        func: Func::Replace {
            style,
            params,
            template,
        },
    })))
}
