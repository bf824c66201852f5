//! E1006 `CircularCondition`.
//!
//! Its catalogue entry (`META`) says what it checks, why, and gives an
//! example; `docs/rules.md` and `heatcap rules` print it.

use crate::diag::{Code, Diagnostic};
use crate::model::{Format, Mapping, Node, Value};
use crate::validate::{Context, Rule, RuleMeta};

pub(crate) struct CircularCondition;

static META: RuleMeta = RuleMeta {
    code: Code("E1006"),
    name: "CircularCondition",
    summary: "conditions refer to each other in a cycle",
    what: "Conditions that refer to other conditions by name (a bare name, or a name under `not`, `and`, `or`) do not form a cycle.",
    why: r#"Heat refuses the template ('Condition validation error: Circular definition for condition "x"')."#,
    example: "`a: {not: b}` and `b: {not: a}`.",
    source: "heat-semantics §1.11 (conditions)",
};

/// The condition names a definition refers to (bare names, and names under
/// `not`, `and`, `or`; other functions such as `equals` take values).
fn refs<'a>(node: &'a Node, defined: &Mapping, out: &mut Vec<&'a str>) {
    match &node.value {
        Value::Str(s) if defined.contains_key(s) => out.push(s),
        Value::Seq(items) => items.iter().for_each(|i| refs(i, defined, out)),
        Value::Map(m) if m.len() == 1 => {
            let (k, v) = &m.entries[0];
            if matches!(
                k.value.as_str(),
                Some("not" | "and" | "or" | "Fn::Not" | "Fn::And" | "Fn::Or")
            ) {
                refs(v, defined, out);
            }
        }
        _ => {}
    }
}

impl Rule for CircularCondition {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
        let key = match cx.template.format {
            Format::Hot => "conditions",
            Format::Cfn => "Conditions",
        };
        let Some(conditions) = cx.root.get(key).and_then(Node::as_map) else {
            return;
        };
        let names: Vec<String> = conditions
            .entries
            .iter()
            .map(|(k, _)| k.value.key_text())
            .collect();
        let edges: Vec<Vec<usize>> = conditions
            .entries
            .iter()
            .map(|(_, def)| {
                let mut r = Vec::new();
                refs(def, conditions, &mut r);
                r.iter()
                    .filter_map(|n| names.iter().position(|x| x == n))
                    .collect()
            })
            .collect();
        // reach[i][j]: j can be reached from i (conditions are few).
        let n = names.len();
        let reach: Vec<Vec<bool>> = (0..n)
            .map(|i| {
                let mut seen = vec![false; n];
                let mut stack: Vec<usize> = edges[i].clone();
                while let Some(j) = stack.pop() {
                    if !seen[j] {
                        seen[j] = true;
                        stack.extend(&edges[j]);
                    }
                }
                seen
            })
            .collect();
        // A condition is on a cycle when it reaches itself; each cycle is
        // reported once, at its first member.
        for i in 0..n {
            let first_of_cycle =
                reach[i][i] && !(0..i).any(|j| reach[j][j] && reach[i][j] && reach[j][i]);
            if first_of_cycle {
                let (k, _) = &conditions.entries[i];
                out.push(
                    Diagnostic::new(
                        META.code,
                        cx.file.path.clone(),
                        format!("circular definition for condition `{}`", names[i]),
                    )
                    .at(k.span),
                );
            }
        }
    }
}
