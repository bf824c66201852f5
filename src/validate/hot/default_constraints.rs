//! E2006 `DefaultViolatesConstraint`.
//!
//! Its catalogue entry (`META`) says what it checks, why, and gives an
//! example; `docs/rules.md` and `heatcap rules` print it.

use crate::diag::{Code, Diagnostic};
use crate::model::{Format, Node, Value};
use crate::validate::{Context, Rule, RuleMeta};

pub(crate) struct DefaultViolatesConstraint;

static META: RuleMeta = RuleMeta {
    code: Code("E2006"),
    name: "DefaultViolatesConstraint",
    summary: "a parameter's default does not meet its own constraints",
    what: "A HOT parameter's default meets its own constraints (`allowed_values`, `range`, `length`, `modulo`, `allowed_pattern`), and the custom constraints Heat checks without a cloud (`ip_addr`, `net_cidr`, `mac_addr`, ...; not those that ask a cloud, such as `nova.flavor`).",
    why: r#"Heat refuses the template ("Parameter 'x' is invalid: Invalid default …"); a custom constraint it skips when it validates the template and checks at `stack create` ("Parameter 'ip' is invalid: Error validating value '10.0.0.256': Invalid IP address"), and the message says so."#,
    example: "`default: 0` with `range: {min: 1}`.",
    source: "heat-semantics §1.7 (defaults are checked against constraints)",
};

// Constraint bounds and lengths are small numbers; Heat compares them as
// Python numbers, and f64 holds them exactly.
#[allow(clippy::cast_precision_loss)]
fn number(v: &Value) -> Option<f64> {
    match v {
        Value::Int(i) => Some(*i as f64),
        Value::Float(f) => Some(*f),
        Value::Str(s) => s.trim().parse().ok(),
        _ => None,
    }
}

/// Heat's message for a default that fails `constraint`, if it does.
#[allow(clippy::cast_precision_loss)]
fn violation(kind: &str, spec: &Node, default: &Value) -> Option<String> {
    let text = default
        .scalar_text()
        .unwrap_or_else(|| default.to_json().to_string());
    let bound = |key: &str| {
        spec.as_map()
            .and_then(|m| m.get(key))
            .and_then(|n| number(&n.value))
    };
    let shown = |b: Option<f64>| {
        b.map_or("None".to_owned(), |x| {
            crate::node::float_text(x).trim_end_matches(".0").to_owned()
        })
    };
    match kind {
        "allowed_values" => {
            let allowed = spec.value.as_seq()?;
            let ok = allowed
                .iter()
                .any(|a| a.value.scalar_text() == default.scalar_text());
            let listed: Vec<String> = allowed
                .iter()
                .map(|a| a.value.to_json().to_string())
                .collect();
            (!ok).then(|| format!("\"{text}\" is not an allowed value [{}]", listed.join(", ")))
        }
        "range" => {
            let x = number(default)?;
            let (min, max) = (bound("min"), bound("max"));
            (min.is_some_and(|m| x < m) || max.is_some_and(|m| x > m)).then(|| {
                format!(
                    "{text} is out of range (min: {}, max: {})",
                    shown(min),
                    shown(max)
                )
            })
        }
        "length" => {
            let len = match default {
                Value::Str(s) => s.chars().count(),
                Value::Seq(items) => items.len(),
                Value::Map(m) => m.len(),
                _ => return None,
            } as f64;
            let (min, max) = (bound("min"), bound("max"));
            (min.is_some_and(|m| len < m) || max.is_some_and(|m| len > m)).then(|| {
                format!(
                    "length ({len}) is out of range (min: {}, max: {})",
                    shown(min),
                    shown(max)
                )
            })
        }
        "modulo" => {
            let x = number(default)?;
            let (step, offset) = (bound("step")?, bound("offset").unwrap_or(0.0));
            (step != 0.0 && (x - offset) % step != 0.0).then(|| {
                format!(
                    "{text} is not a multiple of {} with an offset of {}",
                    shown(Some(step)),
                    shown(Some(offset))
                )
            })
        }
        "allowed_pattern" => {
            let pattern = spec.value.as_str()?;
            let value = default.as_str()?;
            // Python's re.match: anchored at the start, and Heat requires the
            // match to cover the whole value.
            let re = regex::Regex::new(&format!("^(?:{pattern})")).ok()?;
            let whole = re.find(value).is_some_and(|m| m.end() == value.len());
            (!whole).then(|| format!("\"{value}\" does not match pattern \"{pattern}\""))
        }
        _ => None,
    }
}

/// Heat's refusal of a string default under an offline custom constraint
/// (`ip_addr`, ...): Heat skips custom constraints when it checks a
/// template's defaults at `template validate`, and checks them with the
/// value at `stack create`.
fn custom_refusal(kind: &str, spec: &Node, default: &Value) -> Option<String> {
    use super::plugin_schema::custom::{check, Verdict};
    if kind != "custom_constraint" {
        return None;
    }
    match check(spec.value.as_str()?, default.as_str()?) {
        Verdict::Refuses(m) => Some(m),
        Verdict::Accepts | Verdict::Unchecked => None,
    }
}

impl Rule for DefaultViolatesConstraint {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
        if cx.template.format != Format::Hot {
            return;
        }
        let Some(params) = cx.root.get("parameters").and_then(|n| n.as_map()) else {
            return;
        };
        for (name, body) in &params.entries {
            let Some(body) = body.as_map() else { continue };
            let Some(default) = body.get("default").filter(|d| d.value != Value::Null) else {
                continue;
            };
            let Some(items) = body.get("constraints").and_then(|c| c.value.as_seq()) else {
                continue;
            };
            for item in items {
                let Some(m) = item.as_map() else { continue };
                let description = m.get("description").and_then(|d| d.value.as_str());
                for (k, spec) in &m.entries {
                    let p = name.value.key_text();
                    if let Some(refusal) = custom_refusal(&k.value.key_text(), spec, &default.value)
                    {
                        let text = description.map_or(refusal, str::to_owned);
                        out.push(
                            Diagnostic::new(
                                META.code,
                                cx.file.path.clone(),
                                format!(
                                    "parameter `{p}`: its default fails its custom constraint (Heat at create: Parameter '{p}' is invalid: {text})"
                                ),
                            )
                            .at(default.span),
                        );
                        continue;
                    }
                    let Some(msg) = violation(&k.value.key_text(), spec, &default.value) else {
                        continue;
                    };
                    let text = description.map_or(msg, str::to_owned);
                    out.push(
                        Diagnostic::new(
                            META.code,
                            cx.file.path.clone(),
                            format!("parameter `{p}` is invalid: invalid default ({text})"),
                        )
                        .at(default.span),
                    );
                }
            }
        }
    }
}
