//! E3014 `PropertyTypeMismatch`.
//!
//! Its catalogue entry (`META`) says what it checks, why, and gives an
//! example; `docs/rules.md` and `heatcap rules` print it. The walk is
//! shared with the other rules on Heat's resource types
//! (`plugin_schema`).

use super::plugin_schema::{report, Kind};
use crate::diag::{Code, Diagnostic};
use crate::validate::{Context, Rule, RuleMeta};

pub(crate) struct PropertyTypeMismatch;

static META: RuleMeta = RuleMeta {
    code: Code("E3014"),
    name: "PropertyTypeMismatch",
    summary: "a literal Heat cannot convert to its property's type (Heat at create: \"Value 'abc' is not an integer\", \"\\\"maybe\\\" is not a valid boolean\", \"... is not a map\")",
    what: "Every literal value of a property (and of every item and key of a list or map property with a schema) converts to the property's type as Heat converts it: a string of digits is an integer (`\"12\"`), `\"True\"` in any case a boolean, an integer or a boolean a string; a float is not a string, a string is not a list. Values that are function calls are not checked (E3016 checks `get_param`); a list or map holding calls into a number is, since Heat's `int()` fails whatever they compute.",
    why: "`template validate` accepts the template, but `stack create` refuses it before creating anything, with Heat's message (recorded: fixtures/schema/wrong-type-integer.yaml, port-boolean-wrong.yaml, server-metadata-not-map.yaml, server-bdm-wrong-type.yaml).",
    example: "`length: abc` on an `OS::Heat::RandomString`; `admin_state_up: maybe`.",
    source: "Heat 27.0.1's property schemas; heat/engine/properties.py (Property.get_value)",
};

impl Rule for PropertyTypeMismatch {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
        report(cx, &META, Kind::WrongType, out);
    }
}
