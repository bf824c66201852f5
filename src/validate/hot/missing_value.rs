//! E2008 `ValueMissingAtValidate`.
//!
//! Its catalogue entry (`META`) says what it checks, why, and gives an
//! example; `docs/rules.md` and `heatcap rules` print it.
//!
//! What Heat evaluates when it validates a template (recorded:
//! tests/heat/missing-value-verdicts.json, `fixtures/rules/E2008/`): the
//! conditions a resource's or an output's `condition` names, and those an
//! `if` anywhere in `resources` or `outputs` names (with the conditions
//! they name in turn; a condition nothing reaches is never evaluated); a
//! resource's `deletion_policy` and `external_id`; and the few resource
//! properties whose plugins read them at validate ([`READ_AT_VALIDATE`]).
//! A `get_param` reached there of a parameter with no default fails with
//! `UserParameterMissing` when the template is validated alone.

use crate::diag::{Code, Diagnostic, Span};
use crate::model::{Format, Mapping, Node, Value};
use crate::validate::{function_args, reference_name, Context, Rule, RuleMeta};

pub(crate) struct ValueMissingAtValidate;

static META: RuleMeta = RuleMeta {
    code: Code("E2008"),
    name: "ValueMissingAtValidate",
    summary: "Heat's validate reads a parameter that has no default, so validating the template alone fails",
    what: "A `get_param` (CFN: `Ref` of a parameter) that Heat evaluates when it validates the template (in a condition a resource, an output or an `if` uses; in `deletion_policy` or `external_id`; in a property its plugin reads at validate: `servers` of the deployment groups, `type` of `OS::Heat::Value`, `resources` of `OS::Heat::ResourceChain`, `resource` of `OS::Heat::AutoScalingGroup`, the properties of the `AWS::AutoScaling::LaunchConfiguration` an instance group names), or in a nested template's such read that its resource does not pass names a parameter with no default.",
    why: "`openstack orchestration template validate -t FILE` refuses the file (\"The Parameter (NAME) was not provided.\"), since nothing gives the parameter a value. With `-e`, where the composition passes the parameter, I2009 says so instead.",
    example: "`conditions: {cidrs_disabled: {equals: [{get_param: allowed_cidrs}, []]}}` used by a resource, with `allowed_cidrs: {type: comma_delimited_list}`.",
    source: "Heat 27.0.1 heat/engine/parameters.py (Parameter.value: UserParameterMissing), heat/engine/conditions.py, heat/engine/properties.py; recorded: tests/heat/missing-value-verdicts.json",
};

/// Resource types whose plugins read a property at validate (their
/// `validate` resolves it), with that property.
const READ_AT_VALIDATE: [(&str, &str); 6] = [
    ("OS::Heat::AutoScalingGroup", "resource"),
    ("OS::Heat::SoftwareDeploymentGroup", "servers"),
    ("OS::Heat::StructuredDeploymentGroup", "servers"),
    ("OS::Heat::SoftwareDeployments", "servers"),
    ("OS::Heat::Value", "type"),
    ("OS::Heat::ResourceChain", "resources"),
];

/// A launch configuration, whose properties the groups that name it
/// ([`INSTANCE_GROUPS`], `LaunchConfigurationName`) read at validate.
const LAUNCH_CONFIGURATION: &str = "AWS::AutoScaling::LaunchConfiguration";

const INSTANCE_GROUPS: [&str; 2] = [
    "OS::Heat::InstanceGroup",
    "AWS::AutoScaling::AutoScalingGroup",
];

/// The words of Heat's refusal, as this rule's and I2009's messages end.
fn heat_words(name: &str) -> String {
    format!("The Parameter ({name}) was not provided.")
}

/// The parameter a finding of this rule (or I2009) names.
pub(crate) fn parameter_of(d: &Diagnostic) -> Option<&str> {
    let start = d.message.find("The Parameter (")? + "The Parameter (".len();
    let len = d.message[start..].find(") was not provided.")?;
    Some(&d.message[start..start + len])
}

impl Rule for ValueMissingAtValidate {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
        let func = match cx.template.format {
            Format::Hot => HOT.param_fn,
            Format::Cfn => CFN.param_fn,
        };
        for (name, span, why) in reads_at_validate(cx.root, cx.template.format) {
            out.push(
                Diagnostic::new(
                    META.code,
                    cx.file.path.clone(),
                    format!(
                        "`{func}` of `{name}`, which has no default, is read when Heat validates the template ({why}); validated alone, Heat refuses it: {}",
                        heat_words(name)
                    ),
                )
                .at(span),
            );
        }
    }
}

/// A finding of this code at a resource whose type is a template path
/// (`resource`, written at `span` in `file`) that does not pass
/// `parameter` to `target`, which reads it at validate with no default:
/// Heat validates the nested template with the parameters the resource
/// passes, so the parent is refused too: in the words it refuses the
/// nested template alone with for a string or a list; a boolean with no
/// value is "Unrecognized value 'None'" where it is converted
/// (tests/heat/missing-value-composed-parent-alone.json).
pub(crate) fn not_passed(
    file: &str,
    resource: &str,
    span: Span,
    target: &str,
    parameter: &str,
) -> Diagnostic {
    Diagnostic::new(
        META.code,
        file,
        format!(
            "resource `{resource}` does not pass `{parameter}` to `{target}`, which reads it when Heat validates the template and has no default for it; validated alone, Heat refuses this template too, as it refuses `{target}` alone ({})",
            heat_words(parameter)
        ),
    )
    .at(span)
}

/// The `get_param`s of a HOT template (its top-level mapping) that Heat
/// evaluates at validate and that name a parameter without a default:
/// each parameter's name, where the `get_param` names it, and why Heat
/// reads it.
pub(crate) fn reads_at_validate(root: &Mapping, format: Format) -> Vec<(&str, Span, String)> {
    let d = match format {
        Format::Hot => &HOT,
        Format::Cfn => &CFN,
    };
    let Some(params) = root.get(d.parameters).and_then(Node::as_map) else {
        return Vec::new();
    };
    let missing = |name: &str| {
        params.get(name).and_then(Node::as_map).is_some_and(|p| {
            p.get(d.default)
                .is_none_or(|v| matches!(v.value, Value::Null))
        })
    };
    let conditions = root.get(d.conditions).and_then(Node::as_map);
    let mut walk = Walk {
        d,
        conditions,
        missing,
        evaluated: Vec::new(),
        found: Vec::new(),
    };
    let resources = root.get(d.resources).and_then(Node::as_map);
    for (_, node) in resources.map(|m| m.entries.as_slice()).unwrap_or_default() {
        let Some(body) = node.as_map() else { continue };
        if let Some(c) = body.get(d.condition) {
            walk.condition(c, &format!("the resource's `{}`", d.condition));
        }
        for key in d.policies {
            if let Some(v) = body.get(key) {
                walk.reads(v, &format!("its `{key}`"));
            }
        }
        let type_name = body.get(d.type_).and_then(|t| t.value.as_str());
        if let Some(props) = body.get(d.properties).and_then(Node::as_map) {
            for (ty, prop) in READ_AT_VALIDATE {
                if type_name == Some(ty) {
                    if let Some(v) = props.get(prop) {
                        walk.reads(v, &format!("`{ty}` reads `{prop}` at validate"));
                    }
                }
            }
            if let Some(group) = type_name.filter(|t| INSTANCE_GROUPS.contains(t)) {
                // The group reads its launch configuration's properties.
                let config = props
                    .get("LaunchConfigurationName")
                    .and_then(Node::as_map)
                    .and_then(|m| m.get(d.resource_fn))
                    .and_then(|n| n.value.as_str())
                    .and_then(|name| resources.and_then(|r| r.get(name)))
                    .and_then(Node::as_map)
                    .filter(|b| {
                        b.get(d.type_).and_then(|t| t.value.as_str()) == Some(LAUNCH_CONFIGURATION)
                    })
                    .and_then(|b| b.get(d.properties));
                if let Some(config) = config {
                    walk.reads(
                        config,
                        &format!(
                            "`{group}` reads its `{LAUNCH_CONFIGURATION}`'s properties at validate"
                        ),
                    );
                }
            }
        }
        walk.ifs(node);
    }
    let outputs = root.get(d.outputs).and_then(Node::as_map);
    for (_, node) in outputs.map(|m| m.entries.as_slice()).unwrap_or_default() {
        let Some(body) = node.as_map() else { continue };
        if let Some(c) = body.get(d.condition) {
            walk.condition(c, &format!("the output's `{}`", d.condition));
        }
        walk.ifs(node);
    }
    walk.found
}

/// The keys and function names of one dialect.
struct Dialect {
    parameters: &'static str,
    default: &'static str,
    resources: &'static str,
    properties: &'static str,
    type_: &'static str,
    condition: &'static str,
    conditions: &'static str,
    outputs: &'static str,
    /// Reads a parameter (`get_param`; CFN's `Ref`, of a parameter).
    param_fn: &'static str,
    /// Names a resource (`get_resource`; `Ref`).
    resource_fn: &'static str,
    if_fn: &'static str,
    and: &'static str,
    or: &'static str,
    not: &'static str,
    /// Resource keys Heat evaluates at validate.
    policies: &'static [&'static str],
}

static HOT: Dialect = Dialect {
    parameters: "parameters",
    default: "default",
    resources: "resources",
    properties: "properties",
    type_: "type",
    condition: "condition",
    conditions: "conditions",
    outputs: "outputs",
    param_fn: "get_param",
    resource_fn: "get_resource",
    if_fn: "if",
    and: "and",
    or: "or",
    not: "not",
    policies: &["deletion_policy", "external_id"],
};

static CFN: Dialect = Dialect {
    parameters: "Parameters",
    default: "Default",
    resources: "Resources",
    properties: "Properties",
    type_: "Type",
    condition: "Condition",
    conditions: "Conditions",
    outputs: "Outputs",
    param_fn: "Ref",
    resource_fn: "Ref",
    if_fn: "Fn::If",
    and: "Fn::And",
    or: "Fn::Or",
    not: "Fn::Not",
    policies: &["DeletionPolicy"],
};

/// The reads found so far, and the conditions already evaluated.
struct Walk<'a, F: Fn(&str) -> bool> {
    d: &'static Dialect,
    conditions: Option<&'a Mapping>,
    missing: F,
    evaluated: Vec<&'a str>,
    found: Vec<(&'a str, Span, String)>,
}

impl<'a, F: Fn(&str) -> bool> Walk<'a, F> {
    /// Every `get_param` of a missing parameter under `node`; true when
    /// one was found (Heat stops at the first).
    fn reads(&mut self, node: &'a Node, why: &str) -> bool {
        let mut args = Vec::new();
        function_args(node, self.d.param_fn, &mut args);
        let mut any = false;
        for arg in args {
            if let Some((name, span)) = reference_name(arg) {
                if (self.missing)(name) && !self.found.iter().any(|(_, s, _)| *s == span) {
                    self.found.push((name, span, why.to_owned()));
                    any = true;
                }
            }
        }
        any
    }

    /// A condition as a resource, an output or `if` names it: a name (the
    /// definition is evaluated, once) or an expression.
    fn condition(&mut self, node: &'a Node, why: &str) -> bool {
        if let Value::Str(name) = &node.value {
            return self.named(name, why);
        }
        self.expression(node, why)
    }

    fn named(&mut self, name: &'a str, why: &str) -> bool {
        if self.evaluated.contains(&name) {
            return false;
        }
        self.evaluated.push(name);
        let Some(def) = self.conditions.and_then(|c| c.get(name)) else {
            return false;
        };
        self.expression(def, &format!("{why} evaluates condition `{name}`"))
    }

    /// A condition expression: `and` and `or` evaluate their operands in
    /// order and stop at the first that decides; an operand whose value
    /// is not known here may decide, so what follows it is not counted.
    fn expression(&mut self, node: &'a Node, why: &str) -> bool {
        let Some(m) = node.as_map() else {
            return false;
        };
        let [(k, args)] = m.entries.as_slice() else {
            return self.reads(node, why);
        };
        let op = k.value.as_str();
        // The operand value that lets the evaluation go on.
        let continues = if op == Some(self.d.and) {
            true
        } else if op == Some(self.d.or) {
            false
        } else if op == Some(self.d.not) {
            // HOT's `not: X`, CFN's `Fn::Not: [X]`; a condition is named
            // with a string in both (Heat refuses CFN's `{Condition: X}`).
            let operand = match args.as_seq() {
                Some([one]) => one,
                _ => args,
            };
            return match &operand.value {
                Value::Str(name) => self.named(name, why),
                _ => self.expression(operand, why),
            };
        } else {
            return self.reads(node, why);
        };
        let Value::Seq(items) = &args.value else {
            return false;
        };
        for item in items {
            match &item.value {
                Value::Bool(b) if *b == continues => continue,
                Value::Str(name) => {
                    if self.named(name, why) {
                        return true;
                    }
                }
                _ => {
                    if self.expression(item, why) {
                        return true;
                    }
                }
            }
            // Its value may decide: Heat may stop here.
            return false;
        }
        false
    }

    /// The conditions every `if` below `node` names.
    fn ifs(&mut self, node: &'a Node) {
        let mut args = Vec::new();
        function_args(node, self.d.if_fn, &mut args);
        for arg in args {
            if let Some(first) = arg.as_seq().and_then(|s| s.first()) {
                self.condition(first, &format!("an `{}`", self.d.if_fn));
            }
        }
    }
}
