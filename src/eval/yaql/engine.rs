//! yaql's evaluation machinery (yaql/language/runner.py, specs.py,
//! yaqltypes.py, contexts.py): contexts, expressions, and the choice of a
//! function among its overloads.
//!
//! A call collects the overloads of its name from the innermost layer of
//! functions out (Heat's context has three: yaqlized objects, the
//! standard library, the fallbacks), keeps those whose parameters take
//! the arguments by position, keyword and declared type, evaluates the
//! arguments that are not lazy (lambdas, `a => b` rules, expressions
//! stay unevaluated), and runs the first layer's candidate whose types
//! accept the values, or fails as yaql fails (no such function, no
//! matching overload, an ambiguous call).

use std::cell::{Cell, RefCell};
use std::collections::{BTreeSet, HashMap};
use std::rc::Rc;
use std::sync::OnceLock;

use serde::Deserialize;
use serde_json::Value as Json;

use super::library;
use super::parser::{Expr, Kind};
use super::value::{self, size_of, Value, View};
use super::{Error, R};

/// Heat's `yaql.limitIterators`: the most items a collection may have.
pub(super) const LIMIT_ITERATORS: usize = 200;

/// Heat's `yaql.memoryQuota`, in bytes (`sys.getsizeof`).
const MEMORY_QUOTA: i64 = 10_000;

/// The most function calls one evaluation may make before heatcap gives
/// up (yaql's own limits keep real expressions far below it).
const MAX_CALLS: usize = 250_000;

/// The deepest nesting of calls heatcap follows (Python's recursion limit
/// stops yaql somewhere near it).
const MAX_DEPTH: usize = 150;

// ---------------------------------------------------------------------
// Contexts

/// A yaql context: named values (`$`, `$1`, `$name`) looked up through
/// its parents. Functions live in the library, not here (heatcap does not
/// run `def`).
#[derive(Clone)]
pub(super) struct Ctx(Rc<Frame>);

struct Frame {
    parent: Option<Ctx>,
    data: RefCell<Vec<(Rc<str>, Value)>>,
}

/// `Context._normalize_name`: `$` is `$1`, a name gets its `$`.
fn normalize(name: &str) -> String {
    match name {
        "$" => "$1".into(),
        n if n.starts_with('$') => n.into(),
        n => format!("${n}"),
    }
}

impl Ctx {
    pub(super) fn root() -> Ctx {
        Ctx(Rc::new(Frame {
            parent: None,
            data: RefCell::new(Vec::new()),
        }))
    }

    pub(super) fn child(&self) -> Ctx {
        Ctx(Rc::new(Frame {
            parent: Some(self.clone()),
            data: RefCell::new(Vec::new()),
        }))
    }

    pub(super) fn set(&self, name: &str, v: Value) {
        let name = normalize(name);
        let mut data = self.0.data.borrow_mut();
        match data.iter_mut().find(|(k, _)| **k == *name) {
            Some(slot) => slot.1 = v,
            None => data.push((Rc::from(name.as_str()), v)),
        }
    }

    /// `context[name]`: `None` when no context has it.
    pub(super) fn get(&self, name: &str) -> Value {
        let name = normalize(name);
        let mut c = Some(self);
        while let Some(ctx) = c {
            if let Some((_, v)) = ctx.0.data.borrow().iter().find(|(k, _)| **k == *name) {
                return v.clone();
            }
            c = ctx.0.parent.as_ref();
        }
        Value::None
    }

    pub(super) fn same(&self, other: &Ctx) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }

    /// The context's identity, for Python's `hash` of it.
    pub(super) fn address(&self) -> usize {
        Rc::as_ptr(&self.0) as usize
    }
}

// ---------------------------------------------------------------------
// The library's signatures

#[derive(Deserialize)]
struct LibraryFile {
    functions: Vec<FnFile>,
}

#[derive(Deserialize)]
struct FnFile {
    name: String,
    id: String,
    layer: usize,
    function: bool,
    method: bool,
    no_kwargs: bool,
    params: Vec<ParamFile>,
}

#[derive(Deserialize)]
struct ParamFile {
    key: String,
    name: String,
    alias: Option<String>,
    position: Option<usize>,
    #[serde(rename = "type")]
    ty: TypeFile,
    default: Option<DefaultFile>,
}

#[derive(Deserialize)]
#[allow(clippy::struct_excessive_bools)] // the file's fields
struct TypeFile {
    class: String,
    #[serde(default)]
    nullable: bool,
    python_type: Option<Json>,
    #[serde(default)]
    not_set: bool,
    #[serde(default)]
    with_context: bool,
    #[serde(default)]
    method: bool,
    #[serde(default)]
    expand: bool,
    #[serde(default)]
    types: Vec<Json>,
}

#[derive(Deserialize)]
struct DefaultFile {
    value: Option<Json>,
    marker: Option<String>,
}

/// A Python class a parameter's type names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Py {
    Object,
    Int,
    Bool,
    Str,
    NoneType,
    Iterable,
    Iterator,
    Sequence,
    Mapping,
    Set,
    Pattern,
    Context,
    MappingRule,
    Ordering,
    /// `(int, float)`.
    Number,
    /// `datetime`, `timedelta`: no value heatcap makes is one.
    Date,
}

impl Py {
    fn of(name: &Json) -> Py {
        match name.as_str() {
            Some("object") => Py::Object,
            Some("int") => Py::Int,
            Some("bool") => Py::Bool,
            Some("str") => Py::Str,
            Some("NoneType") => Py::NoneType,
            Some("Iterable") => Py::Iterable,
            Some("Iterator") => Py::Iterator,
            Some("Sequence") => Py::Sequence,
            Some("Mapping") => Py::Mapping,
            Some("Set") => Py::Set,
            Some("Pattern") => Py::Pattern,
            Some("ContextBase") => Py::Context,
            Some("MappingRule") => Py::MappingRule,
            Some("OrderingIterable") => Py::Ordering,
            None if name.is_array() => Py::Number,
            _ => Py::Date,
        }
    }

    /// `issubclass(self, other)`.
    fn subclass_of(self, other: Py) -> bool {
        self == other
            || other == Py::Object
            || matches!(
                (self, other),
                (Py::Bool, Py::Int)
                    | (
                        Py::Iterator
                            | Py::Sequence
                            | Py::Mapping
                            | Py::Set
                            | Py::Ordering
                            | Py::Str,
                        Py::Iterable
                    )
                    | (Py::Str, Py::Sequence)
            )
    }
}

/// `PythonType` and its subclasses.
#[derive(Clone, Copy, Debug)]
#[allow(clippy::struct_excessive_bools)] // yaql's validators, one each
struct PyTy {
    py: Py,
    nullable: bool,
    /// `Integer`, `Number`: bools are refused.
    no_bool: bool,
    /// `Iterable`: not a string or mapping (and, for one overload, not a
    /// set); `Sequence`: not a string.
    iterable: bool,
    not_set: bool,
    /// `Iterable`, `Iterator`: converted through `limit_iterable`.
    limited: bool,
}

/// A parameter's declared type (yaql's smart types).
#[derive(Clone, Debug)]
enum Ty {
    /// `PythonType` and its subclasses (`String`, `Integer`, `Number`,
    /// `Iterable`, `Iterator`, `Sequence`): `isinstance` and validators.
    Py(PyTy),
    Lambda {
        with_context: bool,
        method: bool,
    },
    /// `MappingRule` (lazy): an `a => b` expression.
    Rule,
    Keyword {
        expand: bool,
    },
    StringConstant {
        nullable: bool,
    },
    /// `YaqlExpression`: any expression, or (`function`) a plain call.
    Expression {
        function: bool,
    },
    /// An object yaqlized by Python code: never one here.
    Yaqlized,
}

impl Ty {
    fn of(t: &TypeFile) -> Ty {
        let py = t.python_type.as_ref().map_or(Py::Object, Py::of);
        let plain = |py| PyTy {
            py,
            nullable: t.nullable,
            no_bool: false,
            iterable: false,
            not_set: false,
            limited: false,
        };
        match t.class.as_str() {
            "Lambda" => Ty::Lambda {
                with_context: t.with_context,
                method: t.method,
            },
            "MappingRule" => Ty::Rule,
            "Keyword" => Ty::Keyword { expand: t.expand },
            "StringConstant" => Ty::StringConstant {
                nullable: t.nullable,
            },
            "YaqlExpression" => Ty::Expression {
                function: !t.types.is_empty(),
            },
            "Yaqlized" => Ty::Yaqlized,
            "Integer" | "Number" => Ty::Py(PyTy {
                no_bool: true,
                ..plain(py)
            }),
            "Iterable" | "Iterator" => Ty::Py(PyTy {
                iterable: true,
                not_set: t.not_set,
                limited: true,
                ..plain(py)
            }),
            "Sequence" => Ty::Py(PyTy {
                iterable: true,
                ..plain(py)
            }),
            _ => Ty::Py(plain(py)),
        }
    }

    /// yaql's `LazyParameterType`: arguments stay unevaluated.
    fn lazy(&self) -> bool {
        matches!(self, Ty::Lambda { .. } | Ty::Rule | Ty::Expression { .. })
    }

    /// `is_specialization_of` (only Python types are ordered).
    fn specializes(&self, other: &Ty) -> R<bool> {
        match (self, other) {
            (Ty::Py(PyTy { py: a, .. }), Ty::Py(PyTy { py: b, .. })) => {
                let tuple_error = || {
                    Error::unsupported(
                        "yaql compares a tuple of types with issubclass (a TypeError)",
                    )
                };
                match (*a == Py::Number, *b == Py::Number) {
                    (true, false) => Err(tuple_error()),
                    (false, true) if a.subclass_of(Py::Int) => Err(tuple_error()),
                    (_, true) => Ok(false),
                    (false, false) => Ok(a.subclass_of(*b) && !b.subclass_of(*a)),
                }
            }
            _ => Ok(false),
        }
    }
}

/// A parameter's default.
#[derive(Clone, Debug)]
enum Default {
    /// `NO_DEFAULT`: required.
    Required,
    /// yaql's `NO_VALUE` marker (or, for date_time's zero timespan, a
    /// value heatcap has not).
    NoValue,
    /// A plain value (kept as JSON: the library is shared between
    /// threads).
    Value(Json),
}

impl Default {
    /// The default as an argument.
    fn arg(&self) -> Option<Arg> {
        match self {
            Default::Required => None,
            Default::NoValue => Some(Arg::Val(Value::Absent)),
            Default::Value(v) => Some(Arg::Val(value::from_json(v).unwrap_or(Value::Absent))),
        }
    }
}

#[derive(Debug)]
struct Param {
    key: String,
    name: String,
    alias: String,
    position: Option<usize>,
    ty: Ty,
    default: Default,
}

/// A function's body: what heatcap computes for it.
pub(super) type Body = fn(&Engine, &mut Bound) -> R<Value>;

/// One overload.
pub(super) struct FnDef {
    name: String,
    id: String,
    function: bool,
    method: bool,
    no_kwargs: bool,
    params: Vec<Param>,
    body: Option<Body>,
}

/// The overloads of each name, by layer (innermost first).
pub(super) struct Library {
    functions: Vec<FnDef>,
    by_name: HashMap<String, Vec<Vec<usize>>>,
}

/// The signatures, generated from Heat's yaql (see the module's doc).
const DATA: &str = include_str!("../../../data/yaql-3.2.0-functions.json");

/// The library, parsed on first use.
///
/// # Panics
///
/// When the embedded file is not what `tools/heat-oracle/yaql_library.py`
/// writes (a test reads it).
pub(super) fn library() -> &'static Library {
    static LIB: OnceLock<Library> = OnceLock::new();
    LIB.get_or_init(|| {
        let file: LibraryFile =
            serde_json::from_str(DATA).expect("data/yaql-3.2.0-functions.json is valid");
        let mut by_name: HashMap<String, Vec<Vec<usize>>> = HashMap::new();
        let mut functions = Vec::with_capacity(file.functions.len());
        for (i, f) in file.functions.into_iter().enumerate() {
            let levels = by_name.entry(f.name.clone()).or_default();
            if levels.len() <= f.layer {
                levels.resize(f.layer + 1, Vec::new());
            }
            levels[f.layer].push(i);
            let params = f
                .params
                .into_iter()
                .map(|p| Param {
                    alias: p.alias.unwrap_or_else(|| p.name.clone()),
                    key: p.key,
                    name: p.name,
                    position: p.position,
                    ty: Ty::of(&p.ty),
                    default: match p.default {
                        None => Default::Required,
                        Some(DefaultFile { value: Some(v), .. }) => Default::Value(v),
                        // `null`, NO_VALUE, date_time's zero timespan.
                        Some(DefaultFile { marker: None, .. }) => Default::Value(Json::Null),
                        Some(_) => Default::NoValue,
                    },
                })
                .collect();
            functions.push(FnDef {
                body: library::body(&f.id),
                name: f.name,
                id: f.id,
                function: f.function,
                method: f.method,
                no_kwargs: f.no_kwargs,
                params,
            });
        }
        Library { functions, by_name }
    })
}

impl Library {
    /// The ids of the functions without a body (for the tests).
    #[cfg(test)]
    pub(super) fn missing(&self) -> Vec<&str> {
        let mut ids: Vec<&str> = self
            .functions
            .iter()
            .filter(|f| f.body.is_none())
            .map(|f| f.id.as_str())
            .collect();
        ids.sort_unstable();
        ids.dedup();
        ids
    }

    /// Every id in the file.
    #[cfg(test)]
    pub(super) fn ids(&self) -> Vec<&str> {
        self.functions.iter().map(|f| f.id.as_str()).collect()
    }
}

/// `CamelCaseConvention`: `to_list` is `toList`.
fn camel(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut chars = name.chars().peekable();
    let mut first = true;
    while let Some(c) = chars.next() {
        if c == '_' && !first {
            if let Some(&n) = chars.peek() {
                if n.is_alphanumeric() || n == '_' {
                    chars.next();
                    out.extend(n.to_uppercase());
                    continue;
                }
            }
        }
        first = false;
        out.push(c);
    }
    out
}

/// `convert_function_name` with the CamelCase convention.
fn convention(name: &str) -> String {
    let name = name.trim_end_matches('_');
    match name.chars().next() {
        Some(c) if !c.is_alphabetic() => {
            // `#operator_x`: only what follows a second `#` converts.
            match name[c.len_utf8()..].find(c) {
                Some(at) if at >= 1 => {
                    let finish = at + c.len_utf8();
                    format!("{}{}", &name[..=finish], camel(&name[finish + 1..]))
                }
                _ => name.into(),
            }
        }
        _ => camel(name),
    }
}

// ---------------------------------------------------------------------
// Arguments and their conversion

/// An argument as a call receives it: an expression (evaluated unless
/// its parameter is lazy) or a value.
#[derive(Clone)]
pub(super) enum Arg {
    Expr(Expr),
    Val(Value),
}

impl Arg {
    fn is_no_value(&self) -> bool {
        matches!(self, Arg::Val(Value::Absent) | Arg::Expr(Expr::NoValue))
    }
}

/// A lambda argument: an expression evaluated later, in a child of the
/// context it was converted in, with `$1…` the values it is called with.
#[derive(Clone)]
pub(super) struct Lambda {
    body: Arg,
    ctx: Ctx,
    with_context: bool,
    method: bool,
}

/// An `a => b` argument of `switch`: both sides evaluated on demand.
#[derive(Clone)]
pub(super) struct RuleArg {
    source: Expr,
    destination: Expr,
    receiver: Option<Value>,
    ctx: Ctx,
}

/// A converted argument, as a body receives it.
#[derive(Clone)]
pub(super) enum Conv {
    Val(Value),
    Lambda(Lambda),
    Rule(RuleArg),
    Expr(Expr),
}

/// The arguments of a call, converted: positional (varargs last) and by
/// keyword (Python names).
pub(super) struct Bound {
    pub(super) pos: Vec<Conv>,
    pub(super) kw: Vec<(String, Conv)>,
    /// The context the call runs in (`new_context`).
    pub(super) ctx: Ctx,
    /// The name the function was called by.
    pub(super) name: Rc<str>,
}

impl Bound {
    /// The `i`th positional argument's value.
    pub(super) fn val(&self, i: usize) -> R<Value> {
        match self.pos.get(i) {
            Some(Conv::Val(v)) => Ok(v.clone()),
            _ => Err(Error::unsupported("an argument heatcap cannot pass")),
        }
    }

    /// The values from position `i` on (varargs).
    pub(super) fn vals_from(&self, i: usize) -> R<Vec<Value>> {
        (i..self.pos.len()).map(|j| self.val(j)).collect()
    }

    /// A keyword argument's value.
    pub(super) fn kw_val(&self, name: &str) -> R<Option<Value>> {
        match self.kw.iter().find(|(k, _)| k == name) {
            None => Ok(None),
            Some((_, Conv::Val(v))) => Ok(Some(v.clone())),
            Some(_) => Err(Error::unsupported("an argument heatcap cannot pass")),
        }
    }

    /// The `i`th positional argument as a lambda (`None`: null).
    pub(super) fn lambda(&self, i: usize) -> R<Option<Lambda>> {
        match self.pos.get(i) {
            Some(Conv::Lambda(l)) => Ok(Some(l.clone())),
            Some(Conv::Val(Value::None)) => Ok(None),
            _ => Err(Error::unsupported("an argument heatcap cannot pass")),
        }
    }

    /// The `i`th argument as an unexpanded expression.
    pub(super) fn expr(&self, i: usize) -> R<Expr> {
        match self.pos.get(i) {
            Some(Conv::Expr(e)) => Ok(e.clone()),
            _ => Err(Error::unsupported("an argument heatcap cannot pass")),
        }
    }

    pub(super) fn rules_from(&self, i: usize) -> R<Vec<RuleArg>> {
        self.pos[i..]
            .iter()
            .map(|c| match c {
                Conv::Rule(r) => Ok(r.clone()),
                _ => Err(Error::unsupported("an argument heatcap cannot pass")),
            })
            .collect()
    }

    pub(super) fn lambdas_from(&self, i: usize) -> R<Vec<Lambda>> {
        self.pos[i..]
            .iter()
            .map(|c| match c {
                Conv::Lambda(l) => Ok(l.clone()),
                _ => Err(Error::unsupported("an argument heatcap cannot pass")),
            })
            .collect()
    }
}

/// Where an argument sits (for yaql's set of lazy parameters).
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Slot {
    Pos(usize),
    Kw(String),
}

/// `map_args`'s answer: the parameter of each positional argument and of
/// each keyword one.
struct Mapping<'l> {
    pos: Vec<&'l Param>,
    kw: Vec<(String, &'l Param)>,
}

// ---------------------------------------------------------------------
// The engine

/// One evaluation.
pub(super) struct Engine {
    lib: &'static Library,
    calls: Cell<usize>,
    depth: Cell<usize>,
}

/// Evaluates `expression` with `$` `{data: data}` and converts the result
/// as yaql's finalizer does.
pub(super) fn run(expression: &Expr, data: &Json) -> R<Json> {
    let eng = Engine {
        lib: library(),
        calls: Cell::new(0),
        depth: Cell::new(0),
    };
    let mut map = value::Map::new();
    map.insert(value::Key(Value::str("data")), value::from_json(data)?);
    let ctx = Ctx::root();
    ctx.set("$", Value::dict(map, true));
    let result = eng.call(
        "#finalize",
        &ctx,
        vec![Arg::Expr(expression.clone())],
        Vec::new(),
        None,
        false,
    )?;
    value::to_json(&result)
}

/// yaql's exceptions that are caught while choosing an overload.
fn argument_exception(name: &str) -> Error {
    Error::raised("ArgumentException", format!("Invalid argument {name}"))
}

fn is_argument_exception(e: &Error) -> bool {
    matches!(e, Error::Raised { class, .. } if class == "ArgumentException")
}

/// `limit_memory_usage(engine, (1, v)…)` (with multipliers).
pub(super) fn limit_memory(parts: &[(i64, &Value)]) -> R<()> {
    let (mut lo, mut hi) = (0i64, 0i64);
    for (mult, v) in parts {
        let (a, b) = size_of(v);
        let (a, b) = (
            i64::try_from(a).unwrap_or(i64::MAX),
            i64::try_from(b).unwrap_or(i64::MAX),
        );
        let (x, y) = if *mult >= 0 { (a, b) } else { (b, a) };
        lo = lo.saturating_add(mult.saturating_mul(x));
        hi = hi.saturating_add(mult.saturating_mul(y));
        if lo > MEMORY_QUOTA {
            return Err(Error::raised(
                "MemoryQuotaExceededException",
                "Expression consumed too much memory",
            ));
        }
        if hi > MEMORY_QUOTA {
            return Err(Error::unsupported(
                "a value too near yaql's memory quota to tell whether it exceeds it",
            ));
        }
    }
    Ok(())
}

/// `limit_iterable`: a sized collection longer than the limit fails now,
/// an iterator when its 201st item is taken.
pub(super) fn limit_iterable(v: Value) -> R<Value> {
    let len = match &v {
        Value::Tuple(items) | Value::List(items) => Some(items.len()),
        Value::Str(s) => Some(s.chars().count()),
        Value::Dict(d) | Value::View(d, View::Keys | View::Items) => Some(d.map.len()),
        Value::Set(s) => Some(s.len()),
        _ => None,
    };
    match len {
        Some(n) if n > LIMIT_ITERATORS => Err(too_large()),
        Some(_) => Ok(v),
        None => Ok(super::iter::limited(v)),
    }
}

impl Engine {
    pub(super) fn step(&self) -> R<()> {
        let n = self.calls.get() + 1;
        self.calls.set(n);
        if n > MAX_CALLS {
            return Err(Error::unsupported("an expression that takes too long"));
        }
        Ok(())
    }

    /// Evaluates an expression (`Expression.__call__(receiver, context)`).
    pub(super) fn eval(&self, e: &Expr, receiver: Option<&Value>, ctx: &Ctx) -> R<Value> {
        match e {
            Expr::Const(c) => Ok(c.0.clone()),
            Expr::Keyword(k) => Ok(Value::Str(k.clone())),
            Expr::NoValue => Ok(Value::Absent),
            Expr::Wrap(inner) => self.eval(inner, receiver, ctx),
            Expr::Rule(a, b) => {
                let a = self.eval(a, receiver, ctx)?;
                let b = self.eval(b, receiver, ctx)?;
                Ok(Value::Rule(Rc::new((a, b))))
            }
            Expr::Call(c) => {
                let args = c
                    .args
                    .iter()
                    .map(|a| match a {
                        Expr::NoValue => Arg::Val(Value::Absent),
                        a => Arg::Expr(a.clone()),
                    })
                    .collect();
                self.call(&c.name, ctx, args, Vec::new(), receiver, false)
            }
        }
    }

    /// Calls a lambda argument with `args` (`$1`, `$2`…); a method lambda
    /// takes its receiver first, a lambda with context its context.
    pub(super) fn call_lambda(&self, l: &Lambda, args: Vec<Value>) -> R<Value> {
        self.call_lambda_kw(l, args, Vec::new())
    }

    pub(super) fn call_lambda_kw(
        &self,
        l: &Lambda,
        mut args: Vec<Value>,
        kwargs: Vec<(String, Value)>,
    ) -> R<Value> {
        let mut receiver = None;
        if l.method {
            if args.is_empty() {
                return Err(Error::unsupported("a method lambda without a receiver"));
            }
            receiver = Some(args.remove(0));
        }
        let ctx = if l.with_context {
            if args.is_empty() {
                return Err(Error::unsupported("a lambda without its context"));
            }
            match args.remove(0) {
                Value::Context(c) => c,
                _ => return Err(Error::unsupported("a lambda given no context")),
            }
        } else {
            l.ctx.child()
        };
        for (i, a) in args.into_iter().enumerate() {
            ctx.set(&format!("${}", i + 1), a);
        }
        for (k, v) in kwargs {
            ctx.set(&format!("${k}"), v);
        }
        match &l.body {
            Arg::Expr(e) => self.eval(e, receiver.as_ref(), &ctx),
            Arg::Val(v) => Ok(v.clone()),
        }
    }

    /// A rule's source or destination.
    pub(super) fn rule_side(&self, r: &RuleArg, destination: bool) -> R<Value> {
        let e = if destination {
            &r.destination
        } else {
            &r.source
        };
        self.eval(e, r.receiver.as_ref(), &r.ctx)
    }

    /// Calls another function by name with values, as a yaql `Delegate`
    /// does (in a child of `ctx`, the name converted to CamelCase).
    pub(super) fn delegate(&self, name: &str, ctx: &Ctx, args: Vec<Value>) -> R<Value> {
        self.call(
            name,
            &ctx.child(),
            args.into_iter().map(Arg::Val).collect(),
            Vec::new(),
            None,
            true,
        )
    }

    /// Calls a method by name on `receiver`, as a method `Delegate` does
    /// (`to_list`, `to_set`).
    pub(super) fn method(&self, name: &str, ctx: &Ctx, receiver: &Value) -> R<Value> {
        self.call(
            name,
            &ctx.child(),
            Vec::new(),
            Vec::new(),
            Some(receiver),
            true,
        )
    }

    /// `runner.call`.
    pub(super) fn call(
        &self,
        name: &str,
        ctx: &Ctx,
        args: Vec<Arg>,
        kwargs: Vec<(String, Arg)>,
        receiver: Option<&Value>,
        use_convention: bool,
    ) -> R<Value> {
        self.step()?;
        let depth = self.depth.get() + 1;
        if depth > MAX_DEPTH {
            return Err(Error::unsupported("an expression nested too deeply"));
        }
        self.depth.set(depth);
        let result = self.call_inner(name, ctx, args, kwargs, receiver, use_convention);
        self.depth.set(depth - 1);
        let result = result?;
        if value::exhausted() {
            return Err(Error::unsupported("an expression that takes too long"));
        }
        limit_memory(&[(1, &result)])?;
        Ok(result)
    }

    #[allow(clippy::too_many_lines)]
    fn call_inner(
        &self,
        name: &str,
        ctx: &Ctx,
        args: Vec<Arg>,
        kwargs: Vec<(String, Arg)>,
        receiver: Option<&Value>,
        use_convention: bool,
    ) -> R<Value> {
        let lookup = if use_convention {
            convention(name)
        } else {
            name.trim_end_matches('_').to_owned()
        };
        let method = receiver.is_some();
        let levels: Vec<Vec<&FnDef>> = self
            .lib
            .by_name
            .get(&lookup)
            .map(|levels| {
                levels
                    .iter()
                    .map(|ids| {
                        ids.iter()
                            .map(|&i| &self.lib.functions[i])
                            .filter(|f| if method { f.method } else { f.function })
                            .collect::<Vec<_>>()
                    })
                    .filter(|l| !l.is_empty())
                    .collect()
            })
            .unwrap_or_default();
        if levels.is_empty() {
            return Err(match receiver {
                None => Error::raised(
                    "NoFunctionRegisteredException",
                    format!("Unknown function \"{name}\""),
                ),
                Some(r) => Error::raised(
                    "NoMethodRegisteredException",
                    format!("Unknown method \"{name}\" for receiver {}", value::shown(r)),
                ),
            });
        }
        let not_found = || match receiver {
            None => Error::raised(
                "NoMatchingFunctionException",
                format!("No function \"{name}\" matches supplied arguments"),
            ),
            Some(r) => Error::raised(
                "NoMatchingMethodException",
                format!(
                    "No method \"{name}\" for receiver {} matches supplied arguments",
                    value::shown(r)
                ),
            ),
        };
        let ambiguous = || match receiver {
            None => Error::raised(
                "AmbiguousFunctionException",
                format!("Ambiguous function \"{name}\""),
            ),
            Some(r) => Error::raised(
                "AmbiguousMethodException",
                format!(
                    "Ambiguous method \"{name}\" for receiver {}",
                    value::shown(r)
                ),
            ),
        };

        // choose_overload
        let mut args = args;
        if let Some(r) = receiver {
            args.insert(0, Arg::Val(r.clone()));
        }
        let mut no_kwargs: Option<bool> = None;
        let mut kwargs = kwargs;
        let mut lazy: Option<BTreeSet<Slot>> = None;
        let mut candidates: Vec<Vec<(&FnDef, Mapping)>> = Vec::new();
        for level in &levels {
            let mut kept = Vec::new();
            for &c in level {
                match no_kwargs {
                    None => {
                        no_kwargs = Some(c.no_kwargs);
                        (args, kwargs) = translate_args(c.no_kwargs, args, kwargs)?;
                    }
                    Some(n) if n != c.no_kwargs => return Err(ambiguous()),
                    Some(_) => {}
                }
                let Some(mapping) = map_args(c, &args, &kwargs) else {
                    continue;
                };
                let mut l = BTreeSet::new();
                for (i, p) in mapping.pos.iter().enumerate() {
                    if p.ty.lazy() {
                        l.insert(Slot::Pos(i));
                    }
                }
                for (k, p) in &mapping.kw {
                    if p.ty.lazy() {
                        l.insert(Slot::Kw(k.clone()));
                    }
                }
                match &lazy {
                    None => lazy = Some(l),
                    Some(prev) if *prev != l => return Err(ambiguous()),
                    Some(_) => {}
                }
                kept.push((c, mapping));
            }
            if !kept.is_empty() {
                candidates.push(kept);
            }
        }
        if candidates.is_empty() {
            return Err(not_found());
        }
        let lazy = lazy.unwrap_or_default();
        // Evaluate what is not lazy (constants stay expressions).
        for (i, a) in args.iter_mut().enumerate() {
            if let Arg::Expr(e) = a {
                if !lazy.contains(&Slot::Pos(i))
                    && e.constant_value().is_none()
                    && !matches!(e, Expr::NoValue)
                {
                    *a = Arg::Val(self.eval(e, None, ctx)?);
                }
            }
        }
        for (k, a) in &mut kwargs {
            if let Arg::Expr(e) = a {
                if !lazy.contains(&Slot::Kw(k.clone()))
                    && e.constant_value().is_none()
                    && !matches!(e, Expr::NoValue)
                {
                    *a = Arg::Val(self.eval(e, None, ctx)?);
                }
            }
        }
        let mut winner: Option<(&FnDef, &Mapping, Delegate)> = None;
        for level in &candidates {
            for (c, mapping) in level {
                let (pos, kw) = match get_delegate(c, &args, &kwargs) {
                    Ok(d) => d,
                    Err(e) if is_argument_exception(&e) => continue,
                    Err(e) => return Err(e),
                };
                if let Some((_, wm, _)) = &winner {
                    if specializes(wm, mapping)? {
                        continue;
                    } else if !specializes(mapping, wm)? {
                        return Err(ambiguous());
                    }
                }
                winner = Some((c, mapping, (pos, kw)));
            }
            if winner.is_some() {
                break;
            }
        }
        let Some((f, _, (pos, kw))) = winner else {
            return Err(not_found());
        };
        // The delegate: convert each argument in a child context, run.
        let new_ctx = ctx.child();
        let mut bound = Bound {
            pos: Vec::with_capacity(pos.len()),
            kw: Vec::with_capacity(kw.len()),
            ctx: new_ctx,
            name: Rc::from(name),
        };
        for p in pos {
            let c = convert(p, receiver, &bound.ctx)?;
            bound.pos.push(c);
        }
        for (k, p) in kw {
            let c = convert(p, receiver, &bound.ctx)?;
            bound.kw.push((k, c));
        }
        match f.body {
            Some(body) => body(self, &mut bound),
            None => Err(Error::unsupported(format!(
                "yaql's {} (`{}`), which heatcap does not evaluate",
                f.id, f.name
            ))),
        }
    }
}

/// A type's `convert`.
fn convert(p: Pending, receiver: Option<&Value>, ctx: &Ctx) -> R<Conv> {
    let Pending { arg, ty, name } = p;
    if !check(&ty, &arg) {
        return Err(argument_exception(&name));
    }
    let unwrapped = |arg: &Arg| match arg {
        Arg::Val(v) => Ok(v.clone()),
        Arg::Expr(e) => e
            .constant_value()
            .ok_or_else(|| Error::unsupported("an unevaluated argument")),
    };
    match ty {
        Ty::StringConstant { .. } => Ok(Conv::Val(unwrapped(&arg)?)),
        Ty::Py(PyTy { limited, .. }) => {
            let v = unwrapped(&arg)?;
            limit_memory(&[(1, &v)])?;
            if limited && !v.is_none() {
                return Ok(Conv::Val(limit_iterable(v)?));
            }
            Ok(Conv::Val(v))
        }
        Ty::Lambda {
            with_context,
            method,
        } => match arg {
            Arg::Val(Value::None) => Ok(Conv::Val(Value::None)),
            body => Ok(Conv::Lambda(Lambda {
                body,
                ctx: ctx.clone(),
                with_context,
                method,
            })),
        },
        Ty::Rule => match arg {
            Arg::Expr(Expr::Rule(a, b)) => Ok(Conv::Rule(RuleArg {
                source: (*a).clone(),
                destination: (*b).clone(),
                receiver: receiver.cloned(),
                ctx: ctx.clone(),
            })),
            _ => Err(argument_exception(&name)),
        },
        Ty::Keyword { expand: true } => match arg {
            Arg::Expr(Expr::Keyword(k)) => Ok(Conv::Val(Value::Str(k))),
            _ => Err(argument_exception(&name)),
        },
        Ty::Keyword { expand: false } | Ty::Expression { .. } => match arg {
            Arg::Expr(e) => Ok(Conv::Expr(e)),
            Arg::Val(_) => Err(argument_exception(&name)),
        },
        _ => Err(Error::unsupported("an argument heatcap cannot convert")),
    }
}

/// A call's arguments: positional, then by keyword.
type Arguments = (Vec<Arg>, Vec<(String, Arg)>);

/// A chosen overload's arguments: positional, then by keyword.
type Delegate = (Vec<Pending>, Vec<(String, Pending)>);

/// An argument matched to its parameter's type, not yet converted.
struct Pending {
    arg: Arg,
    ty: Ty,
    name: String,
}

/// yaql's `CollectionTooLargeException`.
pub(super) fn too_large() -> Error {
    Error::raised(
        "CollectionTooLargeException",
        format!("Collection length exceeds {LIMIT_ITERATORS} elements"),
    )
}

/// `translate_args`: `name => value` arguments become keyword arguments
/// (unless the function takes none).
fn translate_args(no_kwargs: bool, args: Vec<Arg>, kwargs: Vec<(String, Arg)>) -> R<Arguments> {
    if no_kwargs {
        if let Some((k, _)) = kwargs.first() {
            return Err(argument_exception(k));
        }
        return Ok((args, kwargs));
    }
    let mapping_error = || {
        Error::raised(
            "MappingTranslationException",
            "Cannot convert mapping to keyword argument",
        )
    };
    let mut pos = Vec::new();
    let mut kw: Vec<(String, Arg)> = Vec::new();
    for a in args {
        match a {
            Arg::Expr(Expr::Rule(source, destination)) => {
                let Expr::Keyword(name) = &*source else {
                    return Err(mapping_error());
                };
                let name = name.to_string();
                // A dict keeps the last value of a repeated name.
                match kw.iter_mut().find(|(k, _)| *k == name) {
                    Some(slot) => slot.1 = Arg::Expr((*destination).clone()),
                    None => kw.push((name, Arg::Expr((*destination).clone()))),
                }
            }
            a => pos.push(a),
        }
    }
    for (k, v) in kwargs {
        if kw.iter().any(|(n, _)| *n == k) {
            return Err(mapping_error());
        }
        kw.push((k, v));
    }
    Ok((pos, kw))
}

/// `FunctionDefinition.map_args`.
fn map_args<'l>(f: &'l FnDef, args: &[Arg], kwargs: &[(String, Arg)]) -> Option<Mapping<'l>> {
    let mut kwargs: Vec<(String, Arg)> = kwargs.to_vec();
    let star = f.params.iter().find(|p| p.key == "*");
    let mut positional: Vec<Option<&Param>> = vec![star; args.len()];
    let mut keyword: Vec<(String, &Param)> = Vec::new();
    for p in &f.params {
        let arg_name = &p.alias;
        let in_kwargs = |kwargs: &[(String, Arg)]| kwargs.iter().position(|(k, _)| k == arg_name);
        if p.key != "*" && p.key != "**" {
            if let Some(pos) = p.position {
                if pos < args.len() && !args[pos].is_no_value() {
                    if in_kwargs(&kwargs).is_some() {
                        return None;
                    }
                    positional[pos] = Some(p);
                } else if let Some(i) = in_kwargs(&kwargs) {
                    keyword.push((arg_name.clone(), p));
                    kwargs.remove(i);
                } else if matches!(p.default, Default::Required) {
                    return None;
                } else if pos < args.len() {
                    positional[pos] = Some(p);
                }
            } else if let Some(i) = in_kwargs(&kwargs) {
                keyword.push((arg_name.clone(), p));
                kwargs.remove(i);
            } else if matches!(p.default, Default::Required) {
                return None;
            }
        }
    }
    if !kwargs.is_empty() {
        let starstar = f.params.iter().find(|p| p.key == "**")?;
        for (k, _) in &kwargs {
            keyword.push((k.clone(), starstar));
        }
    }
    let mut pos_params = Vec::with_capacity(positional.len());
    for (i, p) in positional.into_iter().enumerate() {
        let p = p?;
        let value = if args[i].is_no_value() {
            p.default.arg().unwrap_or(Arg::Val(Value::Absent))
        } else {
            args[i].clone()
        };
        if !check(&p.ty, &value) {
            return None;
        }
        pos_params.push(p);
    }
    for (k, a) in &kwargs {
        let p = keyword.iter().find(|(n, _)| n == k).map(|(_, p)| *p)?;
        if !check(&p.ty, a) {
            return None;
        }
    }
    Some(Mapping {
        pos: pos_params,
        kw: keyword,
    })
}

/// `FunctionDefinition.get_delegate` up to the conversion: each argument
/// checked against its parameter's type (`ArgumentException` if not).
fn get_delegate(f: &FnDef, args: &[Arg], kwargs: &[(String, Arg)]) -> R<Delegate> {
    let mut kwargs: Vec<(String, Arg)> = kwargs.to_vec();
    let positional = f
        .params
        .iter()
        .filter(|p| p.position.is_some() && p.key != "*")
        .count();
    let mut pos: Vec<Option<Pending>> = (0..positional).map(|_| None).collect();
    let mut kw: Vec<(String, Pending)> = Vec::new();
    let checked = |arg: Arg, p: &Param| -> R<Pending> {
        if check(&p.ty, &arg) {
            Ok(Pending {
                arg,
                ty: p.ty.clone(),
                name: p.name.clone(),
            })
        } else {
            Err(argument_exception(&p.name))
        }
    };
    let default = |p: &Param| p.default.arg();
    for p in &f.params {
        let take = |kwargs: &mut Vec<(String, Arg)>| {
            kwargs
                .iter()
                .position(|(k, _)| *k == p.alias)
                .map(|i| kwargs.remove(i).1)
        };
        match p.position {
            Some(i) if p.key != "*" => {
                let slot = if i < args.len() && !args[i].is_no_value() {
                    if kwargs.iter().any(|(k, _)| *k == p.alias) {
                        return Err(argument_exception(&p.name));
                    }
                    checked(args[i].clone(), p)?
                } else if let Some(a) = take(&mut kwargs) {
                    checked(a, p)?
                } else if let Some(d) = default(p) {
                    checked(d, p)?
                } else {
                    return Err(argument_exception(&p.name));
                };
                if i >= pos.len() {
                    return Err(Error::unsupported("a parameter out of place"));
                }
                pos[i] = Some(slot);
            }
            None if p.key != "**" => {
                let slot = if let Some(a) = take(&mut kwargs) {
                    checked(a, p)?
                } else if let Some(d) = default(p) {
                    checked(d, p)?
                } else {
                    return Err(argument_exception(&p.name));
                };
                kw.push((p.key.clone(), slot));
            }
            _ => {}
        }
    }
    let mut pos: Vec<Pending> = pos
        .into_iter()
        .map(|p| p.ok_or_else(|| Error::unsupported("a parameter out of place")))
        .collect::<R<_>>()?;
    if args.len() > positional {
        let star = f
            .params
            .iter()
            .find(|p| p.key == "*")
            .ok_or_else(|| argument_exception("*"))?;
        for a in &args[positional..] {
            pos.push(checked(a.clone(), star)?);
        }
    }
    if !kwargs.is_empty() {
        let starstar = f
            .params
            .iter()
            .find(|p| p.key == "**")
            .ok_or_else(|| argument_exception("**"))?;
        for (k, a) in kwargs {
            let c = checked(a, starstar)?;
            kw.push((k, c));
        }
    }
    Ok((pos, kw))
}

/// `_is_specialization_of(mapping1, mapping2)`.
fn specializes(m1: &Mapping, m2: &Mapping) -> R<bool> {
    let mut res = false;
    for (a1, a2) in m1.pos.iter().zip(&m2.pos) {
        if a2.ty.specializes(&a1.ty)? {
            return Ok(false);
        } else if a1.ty.specializes(&a2.ty)? {
            res = true;
        }
    }
    for (k, a1) in &m1.kw {
        let Some((_, a2)) = m2.kw.iter().find(|(n, _)| n == k) else {
            return Err(Error::unsupported(
                "yaql compares overloads by a missing keyword",
            ));
        };
        if a2.ty.specializes(&a1.ty)? {
            return Ok(false);
        } else if a1.ty.specializes(&a2.ty)? {
            res = true;
        }
    }
    Ok(res)
}

/// `isinstance(v, t)` for a Python class, with the validators of yaql's
/// `PythonType` subclasses.
fn instance(py: Py, v: &Value) -> bool {
    match py {
        Py::Object => true,
        Py::Int => matches!(v, Value::Int(_) | Value::Bool(_)),
        Py::Bool => matches!(v, Value::Bool(_)),
        Py::Number => matches!(v, Value::Int(_) | Value::Float(_) | Value::Bool(_)),
        Py::Str => matches!(v, Value::Str(_)),
        Py::NoneType => v.is_none(),
        Py::Iterable => matches!(
            v,
            Value::Tuple(_)
                | Value::List(_)
                | Value::Str(_)
                | Value::Dict(_)
                | Value::Set(_)
                | Value::View(..)
                | Value::Iter(_)
                | Value::Ordering(_)
        ),
        Py::Iterator => matches!(v, Value::Iter(_)),
        Py::Sequence => matches!(v, Value::Tuple(_) | Value::List(_) | Value::Str(_)),
        Py::Mapping => matches!(v, Value::Dict(_)),
        Py::Set => matches!(v, Value::Set(_) | Value::View(_, View::Keys | View::Items)),
        Py::Pattern => matches!(v, Value::Regex(_)),
        Py::Context => matches!(v, Value::Context(_)),
        Py::MappingRule => matches!(v, Value::Rule(_)),
        Py::Ordering => matches!(v, Value::Ordering(_)),
        // The only value a date or time parameter meets here is the
        // zero-timespan default heatcap does not have (the function then
        // is unsupported).
        Py::Date => matches!(v, Value::Absent),
    }
}

/// A type's `check` of an argument (an expression before evaluation, a
/// value after).
fn check(ty: &Ty, arg: &Arg) -> bool {
    // GenericType: a constant is checked by its value; an expression not
    // yet evaluated passes.
    let generic = |nullable: bool, f: &dyn Fn(&Value) -> bool| match arg {
        Arg::Expr(e) => match e.constant_value() {
            Some(Value::None) => nullable,
            Some(v) => f(&v),
            None => !matches!(e, Expr::NoValue) || f(&Value::Absent),
        },
        Arg::Val(Value::None) => nullable,
        Arg::Val(v) => f(v),
    };
    match ty {
        Ty::Py(PyTy {
            py,
            nullable,
            no_bool,
            iterable,
            not_set,
            ..
        }) => generic(*nullable, &|v| {
            instance(*py, v)
                && !(*no_bool && matches!(v, Value::Bool(_)))
                && !(*iterable && matches!(v, Value::Str(_)))
                && !(*iterable && *py != Py::Sequence && matches!(v, Value::Dict(_)))
                && !(*not_set && instance(Py::Set, v))
        }),
        Ty::Yaqlized => generic(false, &|_| false),
        Ty::Lambda { method, .. } => match arg {
            Arg::Expr(e) => (!*method || e.uses_receiver()) && !matches!(e, Expr::NoValue),
            Arg::Val(_) => true,
        },
        Ty::Rule => matches!(arg, Arg::Expr(Expr::Rule(..))),
        Ty::Keyword { .. } => matches!(arg, Arg::Expr(Expr::Keyword(_))),
        Ty::StringConstant { nullable } => match arg {
            Arg::Val(Value::None) => *nullable,
            Arg::Expr(e) => matches!(e.constant_value(), Some(Value::Str(_))),
            Arg::Val(_) => false,
        },
        Ty::Expression { function } => match arg {
            Arg::Expr(Expr::NoValue) | Arg::Val(_) => false,
            Arg::Expr(Expr::Call(c)) if *function => c.kind == Kind::Function,
            Arg::Expr(_) => !*function,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_convert_as_yaqls_convention() {
        assert_eq!(convention("to_list"), "toList");
        assert_eq!(convention("str"), "str");
        assert_eq!(convention("#operator_."), "#operator_.");
        assert_eq!(convention("#operator_>"), "#operator_>");
    }
}
