//! Heat's function tables per template version (heat-semantics §1.4) and
//! a walk that finds the function calls Heat would construct, in the
//! context it constructs them: the `conditions` section and `condition`
//! keys are parsed with the condition-function table, everything else with
//! the template's function table.

use crate::eval::tables::{CFN_CONDITIONS, CFN_FUNCTIONS, FUNCTIONS};
use crate::model::{Format, Mapping, Node, Value};
use crate::validate::Context;

/// Which table a snippet is parsed with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Parse {
    /// The template's functions (resources, outputs).
    Functions,
    /// The condition functions (`conditions`, `condition` keys).
    Conditions,
}

/// One function call as Heat constructs it.
pub(crate) struct Call<'a> {
    pub name: &'a str,
    /// The key node (where findings point).
    pub key: &'a Node,
    pub args: &'a Node,
    pub parse: Parse,
    /// A template function used where only condition functions may be:
    /// Heat's `Invalid` ("The function X is invalid in this context").
    pub invalid_here: bool,
}

/// The tables of one template.
pub(crate) struct Tables {
    pub functions: Vec<&'static str>,
    pub conditions: Vec<&'static str>,
    /// The HOT date (`None` for CFN).
    pub date: Option<&'static str>,
}

impl Tables {
    /// The template's tables; `None` when its version is unknown (found
    /// once per template, for every rule that asks).
    pub(crate) fn of<'c>(cx: &'c Context<'_>) -> Option<&'c Tables> {
        cx.tables()
    }

    /// [`Tables::of`], computed.
    pub(crate) fn compute(cx: &Context<'_>) -> Option<Tables> {
        match cx.template.format {
            Format::Hot => {
                let date = super::hot_date(cx.template.version.as_deref()?)?;
                let functions = FUNCTIONS
                    .iter()
                    .filter(|(_, from, to)| *from <= date && date <= *to)
                    .map(|(f, _, _)| *f)
                    .collect();
                let mut conditions = Vec::new();
                if date >= "2016-10-14" {
                    conditions.extend(["get_param", "equals", "not", "and", "or"]);
                }
                if date >= "2017-09-01" {
                    conditions.extend(["yaql", "contains"]);
                }
                Some(Tables {
                    functions,
                    conditions,
                    date: Some(date),
                })
            }
            Format::Cfn => {
                let aws = cx.root.contains_key("AWSTemplateFormatVersion");
                let functions = CFN_FUNCTIONS
                    .iter()
                    .copied()
                    .filter(|f| aws || *f != "Fn::If")
                    .collect();
                let conditions = if aws {
                    CFN_CONDITIONS.to_vec()
                } else {
                    Vec::new()
                };
                Some(Tables {
                    functions,
                    conditions,
                    date: None,
                })
            }
        }
    }

    /// True when `node` is a call of a function `parse` knows: Heat makes
    /// it a function object, which is neither a list nor a map.
    pub(crate) fn is_call(&self, node: &Node, parse: Parse) -> bool {
        single_key(node).is_some_and(|(k, _)| self.known(k, parse))
    }

    fn known(&self, name: &str, parse: Parse) -> bool {
        match parse {
            Parse::Functions => self.functions.contains(&name),
            Parse::Conditions => self.conditions.contains(&name) || self.functions.contains(&name),
        }
    }

    /// Every call in the template, in document order.
    pub(crate) fn calls<'a>(&self, root: &'a Mapping, format: Format) -> Vec<Call<'a>> {
        let (resources, outputs, conditions, condition) = match format {
            Format::Hot => ("resources", "outputs", "conditions", "condition"),
            Format::Cfn => ("Resources", "Outputs", "Conditions", "Condition"),
        };
        // Keys Heat does not parse for functions.
        let unparsed: [&str; 2] = match format {
            Format::Hot => ["description", "depends_on"],
            Format::Cfn => ["Description", "DependsOn"],
        };
        // Without condition functions the version has no conditions (the
        // section and key are E1002 and E3002 findings).
        let has_conditions = !self.conditions.is_empty();
        let entries = |v: &'a Node| v.as_map().map_or(&[][..], |m| m.entries.as_slice());
        let mut out = Vec::new();
        for (k, v) in &root.entries {
            let section = k.value.as_str();
            if section == Some(conditions) && has_conditions {
                // Each condition is parsed on its own.
                for (_, definition) in entries(v) {
                    self.walk(definition, Parse::Conditions, &mut out);
                }
            } else if section == Some(resources) || section == Some(outputs) {
                for (_, body) in entries(v) {
                    let Some(b) = body.as_map() else {
                        self.walk(body, Parse::Functions, &mut out);
                        continue;
                    };
                    for (bk, bv) in &b.entries {
                        let key = bk.value.as_str().unwrap_or_default();
                        if key == condition {
                            if has_conditions {
                                self.walk(bv, Parse::Conditions, &mut out);
                            }
                        } else if !unparsed.contains(&key) {
                            self.walk(bv, Parse::Functions, &mut out);
                        }
                    }
                }
            }
        }
        out
    }

    fn walk<'a>(&self, node: &'a Node, parse: Parse, out: &mut Vec<Call<'a>>) {
        match &node.value {
            Value::Map(m) => {
                if let Some((name, (key, args))) = single_key(node)
                    .filter(|(name, _)| self.known(name, parse))
                    .map(|(name, _)| (name, &m.entries[0]))
                {
                    let invalid_here =
                        parse == Parse::Conditions && !self.conditions.contains(&name);
                    out.push(Call {
                        name,
                        key,
                        args,
                        parse,
                        invalid_here,
                    });
                    if invalid_here {
                        // Heat stops at the invalid function.
                        return;
                    }
                    // `if` reads its first argument as a condition.
                    if let ("if" | "Fn::If", Some([first, rest @ ..])) = (name, args.as_seq()) {
                        self.walk(first, Parse::Conditions, out);
                        for r in rest {
                            self.walk(r, parse, out);
                        }
                        return;
                    }
                }
                for (_, v) in &m.entries {
                    self.walk(v, parse, out);
                }
            }
            Value::Seq(items) => {
                for i in items {
                    self.walk(i, parse, out);
                }
            }
            _ => {}
        }
    }
}

/// The key of a one-key mapping, with its value.
pub(crate) fn single_key(node: &Node) -> Option<(&str, &Node)> {
    match &node.value {
        Value::Map(m) if m.len() == 1 => {
            let (k, v) = &m.entries[0];
            k.value.as_str().map(|s| (s, v))
        }
        _ => None,
    }
}
