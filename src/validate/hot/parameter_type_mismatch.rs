//! E3016 `ParameterTypeMismatch`.
//!
//! Its catalogue entry (`META`) says what it checks, why, and gives an
//! example; `docs/rules.md` and `heatcap rules` print it. The walk is
//! shared with the other rules on Heat's resource types
//! (`plugin_schema`).

use super::plugin_schema::{report, Kind};
use crate::diag::{Code, Diagnostic};
use crate::validate::{Context, Rule, RuleMeta};

pub(crate) struct ParameterTypeMismatch;

static META: RuleMeta = RuleMeta {
    code: Code("E3016"),
    name: "ParameterTypeMismatch",
    summary: "a `get_param` (CFN `Ref`) of a parameter whose type Heat never converts to the property's type (a `comma_delimited_list` into an integer)",
    what: "A property set with `get_param` of one parameter (no path) takes that parameter's value as Heat gives it: a `comma_delimited_list` is a list, a `number` a number, a `boolean` a bool, a `string` a string. A parameter type that no value can make fit is reported: a list into anything but a list; a string, number or boolean into a list or map; a number into a boolean. `json` parameters may hold anything and are not reported, nor are fits that depend on the value (a string into an integer).",
    why: "The issue asked for a warning; but whatever value the parameter gets, `stack create` refuses the template before creating anything (recorded: fixtures/schema/param-type-mismatch.yaml: \"int() argument must be a string, a bytes-like object or a real number, not 'list'\"), so under the rule that every template Heat refuses gets an error, it is one.",
    example: "`length: {get_param: lengths}` where `lengths` is a `comma_delimited_list`.",
    source: "heat/engine/properties.py (Property.get_value); heat/engine/parameters.py (parameter values)",
};

impl Rule for ParameterTypeMismatch {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
        report(cx, &META, Kind::ParameterType, out);
    }
}
