//! Stage 4: Heat's intrinsic functions, evaluated as Heat evaluates them
//! when it validates a stack (nothing is created yet). A stack supplies
//! what the functions read through [`Scope`].
//!
//! This first version evaluates the reference functions (`get_param`,
//! `get_resource`, `get_attr`) and leaves the others unevaluated; the full
//! function set replaces it.

use serde_json::Value as J;

/// Why a value could not be computed offline (Heat would compute it).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Unevaluated {
    pub(crate) function: String,
    pub(crate) reason: String,
    /// Heat itself fails here (a missing parameter, a bad path): Heat's
    /// own fallback applies, and it is not heatcap's limit.
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

/// A value, or why it could not be computed.
pub(crate) type Outcome = Result<J, Unevaluated>;

/// The function set of the template being evaluated.
#[allow(dead_code)] // read by the full function set
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Dialect {
    /// HOT, by the canonical date of its version.
    Hot(&'static str),
    /// `AWSTemplateFormatVersion`.
    Cfn,
    /// `HeatTemplateFormatVersion`.
    HeatCfn,
}

/// What the functions read from their stack.
#[allow(dead_code)] // read by the full function set
pub(crate) trait Scope {
    fn dialect(&self) -> Dialect;
    /// A parameter's value as Heat's `Parameter.value()` returns it (or
    /// why it has none); `None` when the template has no such parameter.
    fn parameter(&self, name: &str) -> Option<Outcome>;
    /// True when the stack has an enabled resource of that name.
    fn has_resource(&self, name: &str) -> bool;
    /// A condition's value, by name.
    fn condition(&self, name: &str) -> Option<Outcome>;
    /// `get_file`: the file's content as python-heatclient uploads it.
    fn file(&self, name: &str) -> Option<String>;
}

/// Evaluates a snippet.
pub(crate) fn evaluate(snippet: &J, scope: &dyn Scope) -> Outcome {
    match snippet {
        J::Object(m) if m.len() == 1 => {
            let (k, arg) = m.iter().next().expect("one entry");
            match k.as_str() {
                "get_param" => get_param(arg, scope),
                "get_resource" => Ok(arg.clone()),
                "get_attr" => Ok(J::Null),
                f if is_function(f) => Err(Unevaluated::new(f, "not evaluated yet")),
                _ => Ok(J::Object(
                    std::iter::once((k.clone(), evaluate(arg, scope)?)).collect(),
                )),
            }
        }
        J::Object(m) => {
            let mut out = serde_json::Map::new();
            for (k, v) in m {
                out.insert(k.clone(), evaluate(v, scope)?);
            }
            Ok(J::Object(out))
        }
        J::Array(items) => items
            .iter()
            .map(|i| evaluate(i, scope))
            .collect::<Result<Vec<_>, _>>()
            .map(J::Array),
        other => Ok(other.clone()),
    }
}

/// Evaluates a condition definition.
pub(crate) fn evaluate_condition(definition: &J, scope: &dyn Scope) -> Result<bool, Unevaluated> {
    match definition {
        J::Bool(b) => Ok(*b),
        J::String(name) => match scope.condition(name) {
            Some(Ok(J::Bool(b))) => Ok(b),
            Some(Err(e)) => Err(e),
            _ => Err(Unevaluated::new(
                "condition",
                format!("unknown condition {name}"),
            )),
        },
        _ => Err(Unevaluated::new("condition", "not evaluated yet")),
    }
}

fn is_function(name: &str) -> bool {
    name.starts_with("Fn::")
        || name == "Ref"
        || matches!(
            name,
            "str_replace"
                | "str_replace_strict"
                | "str_replace_vstrict"
                | "list_join"
                | "map_merge"
                | "map_replace"
                | "repeat"
                | "if"
                | "yaql"
                | "digest"
                | "str_split"
                | "filter"
                | "make_url"
                | "list_concat"
                | "list_concat_unique"
                | "contains"
                | "get_file"
                | "resource_facade"
                | "equals"
                | "not"
                | "and"
                | "or"
        )
}

fn get_param(arg: &J, scope: &dyn Scope) -> Outcome {
    let arg = evaluate(arg, scope)?;
    let (name, path): (&str, &[J]) = match &arg {
        J::String(s) => (s, &[]),
        J::Array(items) => match items.split_first() {
            Some((J::String(s), rest)) => (s, rest),
            _ => return Err(Unevaluated::new("get_param", "bad arguments")),
        },
        _ => return Err(Unevaluated::new("get_param", "bad arguments")),
    };
    let mut v = scope.parameter(name).ok_or_else(|| {
        Unevaluated::heat_error(
            "get_param",
            format!("The Parameter ({name}) was not found."),
        )
    })??;
    for key in path {
        v = match (&v, key) {
            (J::Object(m), J::String(k)) => m.get(k).cloned().unwrap_or(J::Null),
            (J::Array(a), J::Number(n)) => n
                .as_u64()
                .and_then(|i| a.get(usize::try_from(i).ok()?))
                .cloned()
                .unwrap_or(J::Null),
            _ => return Err(Unevaluated::new("get_param", "bad path")),
        };
    }
    Ok(v)
}
