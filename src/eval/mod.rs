//! Heat's intrinsic functions, evaluated as Heat evaluates them at
//! validate time (Heat 27.0.1): the stack exists and nothing is created
//! yet, so `get_resource` gives the resource's name (or `null` for the
//! types whose reference is their physical id) and `get_attr` gives
//! `null`.
//!
//! Heat does it in three passes, and so does this module: it *parses* the
//! snippet (a one-key mapping whose key is in the dialect's table becomes
//! a function object, whose constructor checks the shape of its
//! arguments; `if` picks its branch here and parses only that one),
//! *validates* the function objects (`Function.validate`: removed
//! functions, `repeat`'s `for_each`, `make_url`'s keys, `get_attr`'s
//! resource), then *resolves* them (`function.resolve`), innermost
//! arguments first. Each pass's error is Heat's, with Heat's message.
//!
//! `yaql` is evaluated by the [`yaql`] interpreter, as Heat's yaql package
//! evaluates it. What cannot be computed offline (`Fn::GetAZs`,
//! `resource_facade`, digests of algorithms only OpenSSL has, the yaql
//! expressions heatcap cannot reproduce exactly) and what Heat refuses are
//! both an [`Unevaluated`]; its `reason` says which.
//!
//! Sources: heat/engine/function.py, hot/functions.py, cfn/functions.py,
//! hot/template.py and cfn/template.py (tables), conditions.py,
//! stk_defn.py (`ResourceProxy`), resource.py (`node_data`,
//! `get_reference_id`).

mod functions;
pub(crate) mod python;
pub(crate) mod tables;
mod tree;
pub(crate) mod yaql;

#[cfg(test)]
mod tests;

use std::cell::Cell;

use serde_json::Value;

use tables::Table;
use tree::Tree;

/// Why a value could not be computed offline (Heat would compute it), or
/// Heat's error when Heat itself refuses the snippet (`heat_error`).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Unevaluated {
    /// The function (`get_param`, `Fn::Join`…) that stopped.
    pub(crate) function: String,
    /// Heat's message, or what heatcap cannot know.
    pub(crate) reason: String,
    /// Heat itself fails here (a missing parameter, a bad argument), with
    /// Heat's message: Heat's own fallback applies, and it is not
    /// heatcap's limit.
    pub(crate) heat_error: bool,
}

impl Unevaluated {
    /// A value Heat would compute and heatcap cannot.
    pub(crate) fn new(function: &str, reason: impl Into<String>) -> Unevaluated {
        Unevaluated {
            function: function.to_owned(),
            reason: reason.into(),
            heat_error: false,
        }
    }

    /// A value Heat itself fails to compute, with Heat's message.
    pub(crate) fn heat_error(function: &str, reason: impl Into<String>) -> Unevaluated {
        Unevaluated {
            heat_error: true,
            ..Unevaluated::new(function, reason)
        }
    }
}

/// A value, or why there is none.
pub(crate) type Outcome = Result<Value, Unevaluated>;

/// The function set of the template being evaluated.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Dialect {
    /// `heat_template_version`, as its canonical date (`"2016-10-14"`).
    Hot(&'static str),
    /// `AWSTemplateFormatVersion: 2010-09-09`.
    Cfn,
    /// `HeatTemplateFormatVersion: 2012-12-12` (no conditions, no `Fn::If`).
    HeatCfn,
}

impl Dialect {
    /// The dialect of a version key and its value; `None` when Heat does
    /// not know the version.
    pub(crate) fn of(key: &str, version: &str) -> Option<Dialect> {
        match (key, version) {
            ("heat_template_version", v) => tables::hot_date(v).map(Dialect::Hot),
            ("AWSTemplateFormatVersion", "2010-09-09") => Some(Dialect::Cfn),
            ("HeatTemplateFormatVersion", "2012-12-12") => Some(Dialect::HeatCfn),
            _ => None,
        }
    }
}

/// What the functions read from their stack.
pub(crate) trait Scope {
    /// The template's function set.
    fn dialect(&self) -> Dialect;
    /// `get_param`/`Ref` of a parameter: its value as Heat's
    /// `Parameter.value()` returns it (already typed: string, number, list
    /// for comma_delimited_list, json, bool), pseudo parameters included
    /// (`OS::stack_name`, `OS::stack_id`, `AWS::StackName`…), or why it
    /// has none (Heat's `UserParameterMissing`, "The Parameter (x) was not
    /// provided."). `None` when the template has no such parameter.
    fn parameter(&self, name: &str) -> Option<Outcome>;
    /// True when the stack defines a resource of that name, enabled by its
    /// condition.
    fn has_resource(&self, name: &str) -> bool;
    /// A condition's value, by name (`None`: no such condition).
    fn condition(&self, name: &str) -> Option<Outcome>;
    /// `get_file`: the file's content as python-heatclient uploads it;
    /// `None` when absent.
    fn file(&self, name: &str) -> Option<String>;
    /// The Heat type that implements an enabled resource, after the
    /// environment's registry (`OS::Neutron::Port` for a type mapped to
    /// it); `None` for a template resource, or when unknown. It decides
    /// `get_resource`'s answer: most types give their name before
    /// create, Neutron ports, nets and the like give `null` (their
    /// reference is the physical id), Swift containers `"None"`. Without
    /// it every resource is taken to answer with its name.
    fn resource_type(&self, name: &str) -> Option<String> {
        let _ = name;
        None
    }
    /// The CFN `Mappings` section, for `Fn::FindInMap`; `None` when the
    /// scope does not offer it (the function is then unevaluated).
    fn mappings(&self) -> Option<&Value> {
        None
    }
}

/// The most work one evaluation may do (values produced by `repeat`,
/// `str_replace`, joins, merges), so that a hostile template cannot make
/// heatcap allocate without bound; Heat has no such limit.
const BUDGET: usize = 50_000_000;

/// One evaluation: the scope, its dialect and the work left.
pub(crate) struct Evaluator<'s> {
    scope: &'s dyn Scope,
    dialect: Dialect,
    budget: Cell<usize>,
}

impl<'s> Evaluator<'s> {
    fn new(scope: &'s dyn Scope) -> Evaluator<'s> {
        Evaluator {
            scope,
            dialect: scope.dialect(),
            budget: Cell::new(BUDGET),
        }
    }

    /// Spends `n` units of work; `Err` once the budget is gone.
    fn charge(&self, function: &str, n: usize) -> Result<(), Unevaluated> {
        let left = self.budget.get();
        if n > left {
            self.budget.set(0);
            return Err(Unevaluated::new(
                function,
                "the result is too large for heatcap to compute",
            ));
        }
        self.budget.set(left - n);
        Ok(())
    }

    /// Parse, validate, resolve (`nullable`: keep an elided `if` as `None`).
    fn run(&self, snippet: &Value, table: Table) -> Result<Option<Value>, Unevaluated> {
        let tree = self.parse(snippet, table)?;
        self.validate(&tree)?;
        self.resolve(&tree, true)
    }
}

/// Evaluates a property value, output value or any template snippet.
/// A 2-argument `if` (2021-04-16) whose condition is false gives `null`
/// here, as `function.resolve` gives `None`; use [`evaluate_item`] to
/// know that the item is to be left out.
pub(crate) fn evaluate(snippet: &Value, scope: &dyn Scope) -> Outcome {
    evaluate_item(snippet, scope).map(Option::unwrap_or_default)
}

/// Like [`evaluate`], but `None` when the snippet is an `if` that elides
/// its item (Heat then treats a property, map entry or list item as not
/// written).
pub(crate) fn evaluate_item(
    snippet: &Value,
    scope: &dyn Scope,
) -> Result<Option<Value>, Unevaluated> {
    Evaluator::new(scope).run(snippet, Table::Functions)
}

/// Evaluates a condition reference as Heat does for a resource's or
/// output's `condition` and for `if`'s first argument: the snippet is
/// parsed with the condition functions and resolved, then a boolean is
/// itself, `null` is true, and a string names a condition
/// (`Conditions.is_enabled`).
pub(crate) fn evaluate_condition(
    definition: &Value,
    scope: &dyn Scope,
) -> Result<bool, Unevaluated> {
    let ev = Evaluator::new(scope);
    let value = ev.run(definition, Table::Conditions)?.unwrap_or_default();
    ev.is_enabled(&value)
}

/// Evaluates the definition of the condition `name` in the `conditions`
/// section, as Heat's `Conditions` does: it must be a boolean or a
/// condition function whose value is a boolean (a bare condition name is
/// not accepted here, unlike in [`evaluate_condition`]).
pub(crate) fn evaluate_condition_definition(
    name: &str,
    definition: &Value,
    scope: &dyn Scope,
) -> Result<bool, Unevaluated> {
    let invalid = |shown: &Value| {
        Unevaluated::heat_error(
            "conditions",
            format!(
                "The definition of condition \"{name}\" is invalid: {}",
                python::str(shown)
            ),
        )
    };
    let ev = Evaluator::new(scope);
    let tree = ev.parse(definition, Table::Conditions)?;
    if !matches!(tree, Tree::Call(_) | Tree::Data(Value::Bool(_))) {
        return Err(invalid(definition));
    }
    ev.validate(&tree)?;
    match ev.resolve(&tree, false)?.unwrap_or_default() {
        Value::Bool(b) => Ok(b),
        other => Err(invalid(&other)),
    }
}
