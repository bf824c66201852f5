//! Heat's third pass: `function.resolve` and each function's `result()`
//! (heat/engine/function.py, hot/functions.py, cfn/functions.py), at
//! validate time.

use std::fmt::Write as _;

use md5::Md5;
use serde_json::{Map, Value};
use sha1::Sha1;
use sha2::{Digest as _, Sha224, Sha256, Sha384, Sha512};

use super::python::{self, str_repr, truthy, type_name, type_repr};
use super::tree::{self, AttStyle, Call, Func, RepeatStyle, ReplaceStyle, Tree};
use super::yaql;
use super::{Evaluator, Unevaluated};

type Res<T> = Result<T, Unevaluated>;

/// `make_url`'s argument keys, in the order Heat checks them.
pub(super) const URL_KEYS: [&str; 8] = [
    "scheme", "username", "password", "host", "port", "path", "query", "fragment",
];

/// Types whose reference before create is `None`: Heat's
/// `get_reference_id` returns the (unset) physical id. Found by running
/// Heat on every registered type (NeutronResource, KeyPair,
/// RemoteStack, SwiftSignalHandle).
const REFERENCE_NONE: [&str; 46] = [
    "OS::Heat::Stack",
    "OS::Heat::SwiftSignalHandle",
    "OS::Neutron::AddressScope",
    "OS::Neutron::ExtraRoute",
    "OS::Neutron::ExtraRouteSet",
    "OS::Neutron::Firewall",
    "OS::Neutron::FirewallPolicy",
    "OS::Neutron::FirewallRule",
    "OS::Neutron::FloatingIP",
    "OS::Neutron::FloatingIPAssociation",
    "OS::Neutron::FloatingIPPortForward",
    "OS::Neutron::FlowClassifier",
    "OS::Neutron::IKEPolicy",
    "OS::Neutron::IPsecPolicy",
    "OS::Neutron::IPsecSiteConnection",
    "OS::Neutron::L2Gateway",
    "OS::Neutron::L2GatewayConnection",
    "OS::Neutron::MeteringLabel",
    "OS::Neutron::MeteringRule",
    "OS::Neutron::Net",
    "OS::Neutron::NetworkGateway",
    "OS::Neutron::Port",
    "OS::Neutron::PortChain",
    "OS::Neutron::PortPair",
    "OS::Neutron::PortPairGroup",
    "OS::Neutron::ProviderNet",
    "OS::Neutron::QoSBandwidthLimitRule",
    "OS::Neutron::QoSDscpMarkingRule",
    "OS::Neutron::QoSMinimumBandwidthRule",
    "OS::Neutron::QoSMinimumPacketRateRule",
    "OS::Neutron::QoSPolicy",
    "OS::Neutron::Quota",
    "OS::Neutron::RBACPolicy",
    "OS::Neutron::Router",
    "OS::Neutron::RouterGateway",
    "OS::Neutron::RouterInterface",
    "OS::Neutron::SecurityGroup",
    "OS::Neutron::SecurityGroupRule",
    "OS::Neutron::Segment",
    "OS::Neutron::Subnet",
    "OS::Neutron::SubnetPool",
    "OS::Neutron::TaaS::TapFlow",
    "OS::Neutron::TaaS::TapService",
    "OS::Neutron::Trunk",
    "OS::Neutron::VPNService",
    "OS::Nova::KeyPair",
];

/// Types whose reference before create is the text `"None"`
/// (`str(self.resource_id)`).
const REFERENCE_NONE_TEXT: [&str; 2] = ["AWS::S3::Bucket", "OS::Swift::Container"];

/// Digests Heat's hashlib offers that heatcap does not compute: SHA-3 and
/// BLAKE2 (in every Python), and those the OpenSSL of Heat's server may
/// add (this list is Heat 27.0.1's venv's; another server may have more).
const OTHER_DIGESTS: [&str; 11] = [
    "blake2b",
    "blake2s",
    "md5-sha1",
    "ripemd160",
    "sha3_224",
    "sha3_256",
    "sha3_384",
    "sha3_512",
    "sha512_224",
    "sha512_256",
    "sm3",
];

/// Variable-length digests: `hexdigest()` needs a length Heat never gives.
const SHAKE_DIGESTS: [&str; 2] = ["shake_128", "shake_256"];

impl Evaluator<'_> {
    /// `function.resolve(snippet, nullable)`: `None` is Python's
    /// `Ellipsis` (an elided `if`), only ever returned when `nullable`.
    pub(super) fn resolve(&self, tree: &Tree, nullable: bool) -> Res<Option<Value>> {
        match tree {
            Tree::Data(v) => Ok(Some(v.clone())),
            Tree::Elided => Ok(if nullable { None } else { Some(Value::Null) }),
            Tree::List(items) => {
                let mut out = Vec::with_capacity(items.len());
                for item in items {
                    if let Some(v) = self.resolve(item, true)? {
                        out.push(v);
                    }
                }
                Ok(Some(Value::Array(out)))
            }
            Tree::Map(entries) => {
                let mut out = Map::new();
                for (k, item) in entries {
                    if let Some(v) = self.resolve(item, true)? {
                        out.insert(k.clone(), v);
                    }
                }
                Ok(Some(Value::Object(out)))
            }
            Tree::Call(call) => match self.result(call)? {
                None if !nullable => Ok(Some(Value::Null)),
                r => Ok(r),
            },
        }
    }

    /// `function.resolve(x)` (not nullable).
    fn value(&self, tree: &Tree) -> Res<Value> {
        Ok(self.resolve(tree, false)?.unwrap_or_default())
    }

    /// `Function.result()`: one arm per function.
    #[allow(clippy::too_many_lines)]
    fn result(&self, call: &Call) -> Res<Option<Value>> {
        let name = call.name.as_str();
        let err = |m: String| Unevaluated::heat_error(name, m);
        let v = match &call.func {
            Func::If(branch) => return self.resolve(branch, true),
            Func::GetParam(args) => self.get_param(name, args)?,
            Func::ParamRef(args) => {
                let param = self.value(args)?;
                match &param {
                    Value::String(s) => self.scope.parameter(s),
                    Value::Array(_) | Value::Object(_) => {
                        return Err(err(format!("unhashable type: '{}'", type_name(&param))))
                    }
                    _ => None,
                }
                .ok_or_else(|| err(reference_error(&param)))??
            }
            Func::GetResource(args) => {
                let resource = self.resource(name, args)?;
                self.reference(name, resource)?
            }
            Func::GetAtt {
                style,
                resource,
                attribute,
                path,
            } => {
                // The arguments are resolved (and may fail) before the
                // resource is looked up; nothing is created, so the value
                // is None whatever the attribute.
                match style {
                    AttStyle::ThenSelect => {
                        if let Some(a) = attribute {
                            self.value(a)?;
                        }
                    }
                    AttStyle::Path | AttStyle::All => {
                        if attribute.is_some() {
                            for p in path {
                                self.resolve(p, true)?;
                            }
                        }
                        if let Some(a) = attribute {
                            self.value(a)?;
                        }
                    }
                }
                self.resource(name, resource)?;
                Value::Null
            }
            Func::Replace {
                style,
                params,
                template,
            } => self.str_replace(name, *style, params, template)?,
            Func::Join { delim, list } => self.join(name, delim, list)?,
            Func::JoinMultiple { delim, lists } => self.join_multiple(name, delim, lists)?,
            Func::MapMerge(args) => self.map_merge(name, args)?,
            Func::MapReplace(args) => self.map_replace(name, args)?,
            Func::GetFile(args) => {
                let Value::String(key) = self.value(args)? else {
                    return Err(err(format!("Argument to \"{name}\" must be a string")));
                };
                let content = self.scope.file(&key).ok_or_else(|| {
                    err(format!(
                        "No content found in the \"files\" section for {name} path: {key}"
                    ))
                })?;
                self.charge(name, content.len() / 64)?;
                Value::String(content)
            }
            Func::ResourceFacade => {
                return Err(Unevaluated::new(
                    name,
                    "the parent resource's data is only known to the parent stack",
                ))
            }
            Func::Removed => {
                return Err(err(format!(
                    "The template version is invalid: The function {name} is not supported in this version of HOT."
                )))
            }
            Func::Repeat {
                style,
                for_each,
                template,
                nested,
            } => self.repeat(name, *style, for_each, template, *nested)?,
            Func::Digest(args) => self.digest(name, args)?,
            Func::StrSplit(args) => self.str_split(name, args)?,
            Func::Yaql { expression, data } => self.yaql(name, expression, data)?,
            Func::Equals(a, b) => {
                let a = self.value(a)?;
                let b = self.value(b)?;
                Value::Bool(python::eq(&a, &b))
            }
            Func::Not(condition) => {
                let c = self.value(condition)?;
                Value::Bool(!self.get_condition(&c)?)
            }
            Func::And(args) | Func::Or(args) => {
                let all = matches!(call.func, Func::And(_));
                let items = match self.value(args)? {
                    Value::Array(items) => items,
                    other => vec![other],
                };
                let mut result = all;
                for item in &items {
                    // all()/any() stop at the first decisive condition.
                    if self.get_condition(item)? != all {
                        result = !all;
                        break;
                    }
                }
                Value::Bool(result)
            }
            Func::Filter(values, sequence) => self.filter(name, values, sequence)?,
            Func::MakeUrl(args) => self.make_url(name, args)?,
            Func::ListConcat { unique, args } => self.list_concat(name, *unique, args)?,
            Func::Contains(value, sequence) => {
                let value = self.value(value)?;
                match self.value(sequence)? {
                    Value::Array(items) => Value::Bool(python::contains(&items, &value)),
                    Value::String(s) => match &value {
                        Value::String(needle) => Value::Bool(s.contains(needle.as_str())),
                        other => {
                            return Err(err(format!(
                                "'in <string>' requires string as left operand, not {}",
                                type_name(other)
                            )))
                        }
                    },
                    _ => {
                        return Err(err(format!(
                            "Second argument to \"{name}\" should be a sequence."
                        )))
                    }
                }
            }
            Func::FindInMap(map, key, value) => self.find_in_map(name, map, key, value)?,
            Func::GetAZs => {
                return Err(Unevaluated::new(
                    name,
                    "Heat asks Nova for the availability zones",
                ))
            }
            Func::Select(index, collection) => self.select(name, index, collection)?,
            Func::Split { delim, string } => {
                let s = self.value(string)?;
                let Tree::Data(Value::String(delim)) = delim else {
                    return Err(err(format!("Delimiter for {name} must be string")));
                };
                let Value::String(s) = s else {
                    return Err(err(format!(
                        "String to split must be string; got {}",
                        type_repr(&s)
                    )));
                };
                let parts = python::split(&s, Some(delim)).map_err(err)?;
                Value::Array(parts.into_iter().map(Value::String).collect())
            }
            Func::Base64(args) => match self.value(args)? {
                s @ Value::String(_) => s,
                _ => return Err(err(format!("\"{name}\" argument must be a string"))),
            },
            Func::MemberListToMap { key, value, list } => {
                self.member_list_to_map(name, key, value, list)?
            }
        };
        Ok(Some(v))
    }

    /// `Conditions.is_enabled` (`null` is true, a string names a
    /// condition).
    pub(super) fn is_enabled(&self, condition: &Value) -> Res<bool> {
        match condition {
            Value::Null => Ok(true),
            Value::Bool(b) => Ok(*b),
            Value::String(name) => match self.scope.condition(name) {
                None => Err(invalid_condition(condition)),
                Some(Ok(Value::Bool(b))) => Ok(b),
                Some(Ok(other)) => Err(Unevaluated::heat_error(
                    "conditions",
                    format!(
                        "The definition of condition \"{name}\" is invalid: {}",
                        python::str(&other)
                    ),
                )),
                Some(Err(e)) => Err(e),
            },
            Value::Number(_) | Value::Array(_) | Value::Object(_) => {
                Err(invalid_condition(condition))
            }
        }
    }

    /// `_get_condition`: a boolean, or `is_enabled`.
    pub(super) fn get_condition(&self, condition: &Value) -> Res<bool> {
        match condition {
            Value::Bool(b) => Ok(*b),
            other => self.is_enabled(other),
        }
    }

    /// `self._resource()`: the enabled resource a function names.
    pub(super) fn resource(&self, name: &str, resource: &Tree) -> Res<String> {
        let resource = self.value(resource)?;
        match &resource {
            Value::String(s) if self.scope.has_resource(s) => Ok(s.clone()),
            Value::Array(_) | Value::Object(_) => Err(Unevaluated::heat_error(
                name,
                format!("unhashable type: '{}'", type_name(&resource)),
            )),
            _ => Err(Unevaluated::heat_error(name, reference_error(&resource))),
        }
    }

    /// `FnGetRefId()` before create: the name, or what the type gives.
    fn reference(&self, name: &str, r: String) -> Res<Value> {
        let kind = self.scope.resource_type(&r);
        Ok(match kind.as_deref() {
            Some(t) if REFERENCE_NONE.contains(&t) => Value::Null,
            Some(t) if REFERENCE_NONE_TEXT.contains(&t) => Value::String("None".into()),
            Some("OS::Mistral::Workflow") => {
                return Err(Unevaluated::new(
                    name,
                    "an OS::Mistral::Workflow's reference is its `name` property",
                ))
            }
            _ => Value::String(r),
        })
    }

    fn get_param(&self, name: &str, args: &Tree) -> Res<Value> {
        let err = |m: String| Unevaluated::heat_error(name, m);
        let args = self.value(args)?;
        if !truthy(&args) {
            return Err(err(format!("Function \"{name}\" must have arguments")));
        }
        let (param, path): (&Value, &[Value]) = match &args {
            Value::String(_) => (&args, &[]),
            Value::Array(items) => (&items[0], &items[1..]),
            _ => {
                return Err(err(format!(
                    "Argument to \"{name}\" must be string or list"
                )))
            }
        };
        let Value::String(param) = param else {
            return Err(err(format!("Parameter name in \"{name}\" must be string")));
        };
        let value = self
            .scope
            .parameter(param)
            .ok_or_else(|| err(format!("The Parameter ({param}) was not provided.")))??;
        self.charge(name, node_count(&value))?;
        // Any KeyError, IndexError or TypeError on the way gives ''.
        Ok(path
            .iter()
            .try_fold(value, path_component)
            .unwrap_or_else(|| Value::String(String::new())))
    }

    fn str_replace(
        &self,
        name: &str,
        style: ReplaceStyle,
        params: &Tree,
        template: &Tree,
    ) -> Res<Value> {
        let err = |m: String| Unevaluated::heat_error(name, m);
        let template = self.value(template)?;
        let mapping = self.value(params)?;
        let Value::String(template) = template else {
            return Err(err(format!("\"{name}\" template must be a string")));
        };
        let Value::Object(mapping) = mapping else {
            return Err(err(format!("\"{name}\" params must be a map")));
        };
        // Longest placeholder first; equal lengths in code point order.
        let mut keys: Vec<&String> = mapping.keys().collect();
        keys.sort();
        keys.sort_by_key(|k| std::cmp::Reverse(k.chars().count()));
        let mut pairs = Vec::with_capacity(keys.len());
        for key in keys {
            let value = replacement(name, style, &mapping[key.as_str()], key)?;
            if key.is_empty() {
                return Err(err("empty separator".into()));
            }
            pairs.push((key.as_str(), value));
        }
        let mut found = vec![false; pairs.len()];
        let mut budget = self.budget.get();
        let out = replace_all(&template, &pairs, &mut found, &mut budget).ok_or_else(|| {
            Unevaluated::new(name, "the result is too large for heatcap to compute")
        })?;
        self.charge(name, out.len())?;
        if matches!(style, ReplaceStyle::Strict | ReplaceStyle::VeryStrict) {
            let missing: Vec<&str> = pairs
                .iter()
                .zip(&found)
                .filter(|(_, f)| !**f)
                .map(|((k, _), _)| *k)
                .collect();
            if !missing.is_empty() {
                return Err(err(format!(
                    "The following params were not found in the template: {}",
                    missing.join(",")
                )));
            }
        }
        Ok(Value::String(out))
    }

    fn join(&self, name: &str, delim: &Tree, list: &Tree) -> Res<Value> {
        let err = |m: String| Unevaluated::heat_error(name, m);
        let strings = match self.value(list)? {
            Value::Null => Vec::new(),
            Value::Array(items) => items,
            _ => return Err(err(format!("\"{name}\" must operate on a list"))),
        };
        let Value::String(delim) = self.value(delim)? else {
            return Err(err(format!("\"{name}\" delimiter must be a string")));
        };
        let mut parts = Vec::with_capacity(strings.len());
        for s in &strings {
            parts.push(match s {
                Value::Null => String::new(),
                Value::String(s) => s.clone(),
                other => {
                    return Err(err(format!(
                        "Items to join must be strings not {}",
                        truncate(&python::repr(other), 200)
                    )))
                }
            });
        }
        let out = parts.join(&delim);
        self.charge(name, out.len())?;
        Ok(Value::String(out))
    }

    fn join_multiple(&self, name: &str, delim: &Tree, lists: &[Tree]) -> Res<Value> {
        let err = |m: String| Unevaluated::heat_error(name, m);
        // The lists are all resolved first (elided items dropped).
        let mut resolved = Vec::with_capacity(lists.len());
        for list in lists {
            if let Some(jl) = self.resolve(list, true)? {
                resolved.push(jl);
            }
        }
        let mut strings = Vec::new();
        for jl in resolved {
            if !truthy(&jl) {
                continue;
            }
            let Value::Array(items) = jl else {
                return Err(err(format!("\"{name}\" must operate on a list")));
            };
            strings.extend(items);
        }
        let Value::String(delim) = self.value(delim)? else {
            return Err(err(format!("\"{name}\" delimiter must be a string")));
        };
        let mut parts = Vec::with_capacity(strings.len());
        for s in &strings {
            parts.push(match s {
                Value::Null => String::new(),
                Value::String(s) => s.clone(),
                Value::Array(_) | Value::Object(_) => python::json_dumps(s, true),
                other => {
                    return Err(err(format!(
                        "Items to join must be string, map or list not {}",
                        truncate(&python::repr(other), 200)
                    )))
                }
            });
        }
        let out = parts.join(&delim);
        self.charge(name, out.len())?;
        Ok(Value::String(out))
    }

    fn map_merge(&self, name: &str, args: &Tree) -> Res<Value> {
        let err = |m: String| Unevaluated::heat_error(name, m);
        let items: Vec<Value> = match self.value(args)? {
            Value::Array(items) => items,
            // A string is a sequence of one-character strings.
            Value::String(s) => s.chars().map(|c| Value::String(c.into())).collect(),
            _ => {
                return Err(err(format!(
                    "Incorrect arguments to \"{name}\" should be: \"{name}\" : [ {{ \"key1\": \"val1\" }}, {{ \"key2\": \"val2\" }} ]"
                )))
            }
        };
        let mut out = Map::new();
        for m in items {
            match m {
                Value::Null => {}
                Value::Object(m) => {
                    self.charge(name, m.len())?;
                    for (k, v) in m {
                        out.insert(k, v);
                    }
                }
                other => {
                    return Err(err(format!(
                        "Incorrect arguments: Items to merge must be maps. {} is type {} instead of a dict",
                        truncate(&python::repr(&other), 200),
                        type_repr(&other)
                    )))
                }
            }
        }
        Ok(Value::Object(out))
    }

    fn map_replace(&self, name: &str, args: &Tree) -> Res<Value> {
        let example = format!(
            "\"{name}\" : [ {{ \"key1\": \"val1\" }}, {{\"keys\": {{\"key1\": \"key2\"}}, \"values\": {{\"val1\": \"val2\"}}}}]"
        );
        let err = |m: String| Unevaluated::heat_error(name, m);
        let incorrect = || {
            err(format!(
                "Incorrect arguments to \"{name}\" should be: {example}"
            ))
        };
        let ensure_map = |m: Value| {
            match m {
            Value::Null => Ok(Map::new()),
            Value::Object(m) => Ok(m),
            _ => Err(err(format!(
                "Incorrect arguments: to \"{name}\", arguments must be a list of maps. Example:  {example}"
            ))),
        }
        };
        let items = match self.value(args)? {
            Value::Array(items) => items,
            // dict.pop(0): KeyError(0).
            Value::Object(_) => return Err(err("0".into())),
            _ => return Err(incorrect()),
        };
        let mut it = items.into_iter();
        let in_map = ensure_map(it.next().ok_or_else(incorrect)?)?;
        let repl_map = ensure_map(it.next().ok_or_else(incorrect)?)?;
        if it.next().is_some() {
            return Err(incorrect());
        }
        if repl_map.keys().any(|k| k != "keys" && k != "values") {
            return Err(err(format!(
                "Incorrect arguments to \"{name}\" should be: {example}"
            )));
        }
        let repl_keys = ensure_map(
            repl_map
                .get("keys")
                .cloned()
                .unwrap_or(Value::Object(Map::new())),
        )?;
        let repl_values = ensure_map(
            repl_map
                .get("values")
                .cloned()
                .unwrap_or(Value::Object(Map::new())),
        )?;
        self.charge(name, in_map.len())?;
        let mut out = Map::new();
        for (k, v) in &in_map {
            let key = match repl_keys.get(k) {
                None | Some(Value::Null) => k.clone(),
                Some(Value::String(key)) => {
                    if key != k && in_map.contains_key(key) {
                        return Err(err(format!(
                            "key replacement {key} collides with a key in the input map"
                        )));
                    }
                    if out.contains_key(key) {
                        return Err(err(format!(
                            "key replacement {key} collides with a key in the output map"
                        )));
                    }
                    key.clone()
                }
                Some(other @ (Value::Array(_) | Value::Object(_))) => {
                    return Err(err(format!("unhashable type: '{}'", type_name(other))))
                }
                Some(_) => {
                    return Err(Unevaluated::new(
                        name,
                        "a key replaced by a number or boolean makes a map heatcap cannot hold",
                    ))
                }
            };
            // Only a hashable value can be looked up; JSON keys are
            // strings, so only a string value can match.
            let value = match v {
                Value::String(s) => repl_values.get(s).cloned().unwrap_or_else(|| v.clone()),
                _ => v.clone(),
            };
            out.insert(key, value);
        }
        Ok(Value::Object(out))
    }

    fn repeat(
        &self,
        name: &str,
        style: RepeatStyle,
        for_each: &Tree,
        template: &Tree,
        nested: bool,
    ) -> Res<Value> {
        let err = |m: String| Unevaluated::heat_error(name, m);
        let for_each = match self.value(for_each)? {
            Value::Object(m) => m,
            other => {
                return Err(err(format!(
                    "'{}' object has no attribute 'items'",
                    type_name(&other)
                )))
            }
        };
        if for_each.is_empty() {
            return Err(err("not enough values to unpack (expected 2, got 0)".into()));
        }
        let lists_only = style == RepeatStyle::Lists || !nested;
        let mut keys = Vec::with_capacity(for_each.len());
        let mut values: Vec<Vec<Value>> = Vec::with_capacity(for_each.len());
        let mut lens = Vec::new();
        for (k, value) in for_each {
            keys.push(k);
            match value {
                Value::Null => values.push(Vec::new()),
                Value::Array(items) => {
                    lens.push(items.len());
                    values.push(items);
                }
                // Iterating a dict gives its keys.
                Value::Object(m) if !lists_only => {
                    lens.push(m.len());
                    values.push(m.keys().cloned().map(Value::String).collect());
                }
                _ => {
                    return Err(err(if lists_only {
                        format!(
                            "The values of the \"for_each\" argument to \"{name}\" must be lists"
                        )
                    } else {
                        format!(
                            "The values of the \"for_each\" argument to \"{name}\" must be lists or maps"
                        )
                    }))
                }
            }
        }
        if !nested && lens.windows(2).any(|w| w[0] != w[1]) {
            return Err(err(format!(
                "For {name}, the length of for_each values should be equal if no nested loop."
            )));
        }
        let template = self.value(template)?;
        let size = node_count(&template);
        let combos: Vec<Vec<&Value>> = if nested {
            // itertools.product: the first key varies slowest.
            let total = values
                .iter()
                .try_fold(1usize, |acc, v| acc.checked_mul(v.len()))
                .ok_or_else(|| {
                    Unevaluated::new(name, "the result is too large for heatcap to compute")
                })?;
            self.charge(name, total.saturating_mul(size))?;
            let mut combos: Vec<Vec<&Value>> = vec![Vec::new()];
            for list in &values {
                let mut next = Vec::with_capacity(combos.len() * list.len());
                for c in &combos {
                    for item in list {
                        let mut c = c.clone();
                        c.push(item);
                        next.push(c);
                    }
                }
                combos = next;
            }
            combos
        } else {
            let n = values.iter().map(Vec::len).min().unwrap_or(0);
            self.charge(name, n.saturating_mul(size))?;
            (0..n)
                .map(|i| values.iter().map(|l| &l[i]).collect())
                .collect()
        };
        combos
            .iter()
            .map(|c| substitute(name, &keys, c, &template))
            .collect::<Res<Vec<Value>>>()
            .map(Value::Array)
    }

    fn digest(&self, name: &str, args: &Tree) -> Res<Value> {
        let err = |m: String| Unevaluated::heat_error(name, m);
        let args = self.value(args)?;
        let strings: Vec<&str> = match &args {
            Value::Array(items) => items.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        let all_strings = matches!(&args, Value::Array(items) if items.len() == strings.len());
        if !all_strings {
            return Err(err(format!(
                "Argument to function \"{name}\" must be a list of strings"
            )));
        }
        let [algorithm, value] = strings.as_slice() else {
            return Err(err(format!(
                "Function \"{name}\" usage: [\"<algorithm>\", \"<value>\"]"
            )));
        };
        let algorithm = algorithm.to_lowercase();
        // value.encode('latin-1')
        let mut bytes = Vec::with_capacity(value.len());
        for (i, c) in value.chars().enumerate() {
            if let Ok(b) = u8::try_from(u32::from(c)) {
                bytes.push(b);
            } else {
                let n = u32::from(c);
                let shown = if n < 0x1_0000 {
                    format!("'\\u{n:04x}'")
                } else {
                    format!("'\\U{n:08x}'")
                };
                return Err(err(format!(
                    "'latin-1' codec can't encode character {shown} in position {i}: ordinal not in range(256)"
                )));
            }
        }
        let hex = |d: &[u8]| {
            d.iter().fold(String::new(), |mut s, b| {
                let _ = write!(s, "{b:02x}");
                s
            })
        };
        let out = match algorithm.as_str() {
            "md5" => hex(&Md5::digest(&bytes)),
            "sha1" => hex(&Sha1::digest(&bytes)),
            "sha224" => hex(&Sha224::digest(&bytes)),
            "sha256" => hex(&Sha256::digest(&bytes)),
            "sha384" => hex(&Sha384::digest(&bytes)),
            "sha512" => hex(&Sha512::digest(&bytes)),
            a if OTHER_DIGESTS.contains(&a) => {
                return Err(Unevaluated::new(
                    name,
                    format!("heatcap does not compute the {a} digest"),
                ))
            }
            a if SHAKE_DIGESTS.contains(&a) => {
                return Err(err(
                    "hexdigest() missing required argument 'length' (pos 1)".into(),
                ))
            }
            _ => {
                // Heat prints a set: its order is the hash order; this one
                // is sorted.
                let mut all: Vec<&str> = ["md5", "sha1", "sha224", "sha256", "sha384", "sha512"]
                    .into_iter()
                    .chain(OTHER_DIGESTS)
                    .chain(SHAKE_DIGESTS)
                    .collect();
                all.sort_unstable();
                let set: Vec<String> = all.iter().map(|a| str_repr(a)).collect();
                return Err(err(format!(
                    "Algorithm must be one of {{{}}}",
                    set.join(", ")
                )));
            }
        };
        Ok(Value::String(out))
    }

    fn str_split(&self, name: &str, args: &Tree) -> Res<Value> {
        let example = format!("\"{name}\" : [ \",\", \"apples,pears\", <index>]");
        let err = |m: String| Unevaluated::heat_error(name, m);
        let items = match self.value(args)? {
            Value::Array(items) if items.len() >= 2 => items,
            _ => {
                return Err(err(format!(
                    "Incorrect arguments to \"{name}\" should be: {example}"
                )))
            }
        };
        let (delim, string) = (&items[0], &items[1]);
        let s = match string {
            Value::Null => return Ok(Value::Null),
            Value::String(s) => s,
            other => {
                return Err(err(format!(
                    "'{}' object has no attribute 'split'",
                    type_name(other)
                )))
            }
        };
        let sep = match delim {
            Value::Null => None,
            Value::String(d) => Some(d.as_str()),
            other => {
                return Err(err(format!(
                    "must be str or None, not {}",
                    type_name(other)
                )))
            }
        };
        let parts = python::split(s, sep).map_err(err)?;
        let Some(index) = items.get(2) else {
            return Ok(Value::Array(parts.into_iter().map(Value::String).collect()));
        };
        let index = match python::int_of(index) {
            Ok(i) => i,
            Err(_) if matches!(index, Value::String(_)) => {
                return Err(err(format!(
                    "Incorrect index to \"{name}\" should be: {example}"
                )))
            }
            Err(m) => return Err(err(m)),
        };
        let len = parts.len();
        python::index(len, index, |i| Value::String(parts[i].clone())).ok_or_else(|| {
            err(format!(
                "Incorrect index to \"{name}\" should be between 0 and {}",
                len.saturating_sub(1)
            ))
        })
    }

    fn filter(&self, name: &str, values: &Tree, sequence: &Tree) -> Res<Value> {
        let err = |m: String| Unevaluated::heat_error(name, m);
        let sequence = self.value(sequence)?;
        if !truthy(&sequence) {
            return Ok(sequence);
        }
        let Value::Array(sequence) = sequence else {
            return Err(err(format!("\"{name}\" only works with lists")));
        };
        let values = self.value(values)?;
        if !truthy(&values) {
            return Ok(Value::Array(sequence));
        }
        let Value::Array(values) = values else {
            return Err(err(format!("\"{name}\" filters a list of values")));
        };
        Ok(Value::Array(
            sequence
                .into_iter()
                .filter(|i| !python::contains(&values, i))
                .collect(),
        ))
    }

    fn make_url(&self, name: &str, args: &Tree) -> Res<Value> {
        let err = |m: String| Unevaluated::heat_error(name, m);
        let Value::Object(args) = self.value(args)? else {
            return Err(err(format!("The arguments to \"{name}\" must be a map")));
        };
        let present: Vec<(String, Option<Value>)> = args
            .iter()
            .map(|(k, v)| (k.clone(), Some(v.clone())))
            .collect();
        check_url_args(name, &present)?;
        let text = |key: &str| -> Res<String> {
            match args.get(key) {
                None => Ok(String::new()),
                Some(Value::String(s)) => Ok(s.clone()),
                Some(_) => Err(err("quote_from_bytes() expected bytes".into())),
            }
        };
        let scheme = text("scheme")?;
        if scheme.contains(':') {
            return Err(err("URL \"scheme\" should not contain ':'".into()));
        }
        let mut netloc = String::new();
        let username = python::quote(&text("username")?, "");
        let password = python::quote(&text("password")?, "");
        if !username.is_empty() || !password.is_empty() {
            netloc.push_str(&username);
            if !password.is_empty() {
                netloc.push(':');
                netloc.push_str(&password);
            }
            netloc.push('@');
        }
        let mut host = text("host")?;
        if host.starts_with('[') && host.ends_with(']') && host.len() >= 2 {
            host = host[1..host.len() - 1].to_owned();
        }
        let host = python::quote(&host, ":");
        if host.contains(':') {
            netloc.push('[');
            netloc.push_str(&host);
            netloc.push(']');
        } else {
            netloc.push_str(&host);
        }
        if let Some(port) = args.get("port") {
            if truthy(port) {
                netloc.push(':');
                netloc.push_str(&python::str(port));
            }
        }
        let path = python::quote(&text("path")?, "/");
        let query = match args.get("query") {
            None => String::new(),
            Some(Value::Object(q)) => q
                .iter()
                .map(|(k, v)| {
                    format!(
                        "{}={}",
                        python::quote_plus(k),
                        python::quote_plus(&python::str(v))
                    )
                })
                .collect::<Vec<_>>()
                .join("&")
                .replace("%2F", "/"),
            Some(_) => {
                return Err(err(format!(
                    "The \"query\" argument to \"{name}\" must be a map"
                )))
            }
        };
        let fragment = python::quote(&text("fragment")?, "/");
        Ok(Value::String(urlunsplit(
            &scheme, &netloc, &path, &query, &fragment,
        )))
    }

    fn list_concat(&self, name: &str, unique: bool, args: &Tree) -> Res<Value> {
        let err = |m: String| Unevaluated::heat_error(name, m);
        let args = self.value(args)?;
        let Value::Array(items) = &args else {
            return Err(err(format!(
                "Incorrect arguments to \"{name}\" should be: \"{name}\" : [ [ <value 1>, <value 2> ], [ <value 3>, <value 4> ] ]"
            )));
        };
        let mut out: Vec<Value> = Vec::new();
        for m in items {
            match m {
                Value::Null => {}
                Value::Array(list) => {
                    self.charge(name, list.len())?;
                    out.extend(list.iter().cloned());
                }
                other => {
                    return Err(err(format!(
                        "Incorrect arguments: Items to concat must be lists. {} contains an item that is not a list: {}",
                        python::json_dumps(&args, false),
                        python::json_dumps(other, false)
                    )))
                }
            }
        }
        if !unique {
            return Ok(Value::Array(out));
        }
        let mut seen: Vec<Value> = Vec::new();
        for item in out {
            if !python::contains(&seen, &item) {
                seen.push(item);
            }
        }
        Ok(Value::Array(seen))
    }

    /// `Yaql.result`: the expression resolved and parsed, the data
    /// resolved, then evaluated with `$.data` the data (src/eval/yaql/).
    fn yaql(&self, name: &str, expression: &Tree, data: &Tree) -> Res<Value> {
        let Value::String(text) = self.value(expression)? else {
            return Err(tree::yaql_not_text(name));
        };
        tree::yaql_parse(name, &text)?;
        let data = self.value(data)?;
        self.charge(name, node_count(&data))?;
        yaql::evaluate(&text, &data).map_err(|e| match e {
            yaql::Error::Raised { class, message } if message.is_empty() => {
                Unevaluated::heat_error(name, class)
            }
            yaql::Error::Raised { message, .. } => Unevaluated::heat_error(name, message),
            yaql::Error::Unsupported(reason) => {
                Unevaluated::new(name, tree::yaql_unsupported(&reason))
            }
        })
    }

    fn find_in_map(&self, name: &str, map: &Tree, key: &Tree, value: &Tree) -> Res<Value> {
        let err = |m: String| Unevaluated::heat_error(name, m);
        let Some(mappings) = self.scope.mappings() else {
            return Err(Unevaluated::new(
                name,
                "the template's Mappings are not available",
            ));
        };
        let map = self.value(map)?;
        // KeyError (its message is the key's repr), or TypeError for a key
        // no dict can hold.
        let missing = |k: &Value| match k {
            Value::Array(_) | Value::Object(_) => {
                err(format!("unhashable type: '{}'", type_name(k)))
            }
            _ => err(python::repr(k)),
        };
        // `self.stack.t.maps[name]`: a null section is an empty one.
        let mapping = match (mappings, &map) {
            (Value::Object(m), Value::String(s)) => m.get(s).ok_or_else(|| missing(&map))?,
            (Value::Null | Value::Object(_), _) => return Err(missing(&map)),
            _ => return Err(err("the template's Mappings section is not a map".into())),
        };
        let key = self.value(key)?;
        let value = self.value(value)?;
        let level = match (mapping, &key) {
            (Value::Object(m), Value::String(s)) => m.get(s).ok_or_else(|| missing(&key))?,
            (Value::Object(_), _) => return Err(missing(&key)),
            (other, _) => {
                return Err(err(format!(
                    "'{}' object is not subscriptable",
                    type_name(other)
                )))
            }
        };
        match (level, &value) {
            (Value::Object(m), Value::String(s)) => {
                m.get(s).cloned().ok_or_else(|| missing(&value))
            }
            (Value::Object(_), _) => Err(missing(&value)),
            (other, _) => Err(err(format!(
                "'{}' object is not subscriptable",
                type_name(other)
            ))),
        }
    }

    fn select(&self, name: &str, index: &Tree, collection: &Tree) -> Res<Value> {
        let err = |m: String| Unevaluated::heat_error(name, m);
        let index = self.value(index)?;
        let mut strings = self.value(collection)?;
        if let Value::String(s) = &strings {
            if s.is_empty() {
                return Ok(strings);
            }
            // Might be serialised JSON.
            strings = serde_json::from_str(s).map_err(|e| err(format!("\"{name}\": {e}")))?;
        }
        if let Value::Object(m) = &strings {
            let Value::String(key) = &index else {
                return Err(err(format!("Index to \"{name}\" must be a string")));
            };
            return Ok(m
                .get(key)
                .cloned()
                .unwrap_or_else(|| Value::String(String::new())));
        }
        let index = python::int_of(&index).ok();
        match strings {
            Value::Array(items) => {
                let Some(i) = index else {
                    return Err(err(format!("Index to \"{name}\" must be an integer")));
                };
                Ok(python::index(items.len(), i, |i| items[i].clone())
                    .unwrap_or_else(|| Value::String(String::new())))
            }
            Value::Null => Ok(Value::String(String::new())),
            _ => Err(err(format!("Arguments to {name} not fully resolved"))),
        }
    }

    fn member_list_to_map(&self, name: &str, key: &str, value: &str, list: &Tree) -> Res<Value> {
        let err = |m: String| Unevaluated::heat_error(name, m);
        let items: Vec<Value> = match self.value(list)? {
            Value::Array(items) => items,
            Value::String(s) => s.chars().map(|c| Value::String(c.into())).collect(),
            Value::Object(m) => m.keys().cloned().map(Value::String).collect(),
            _ => return Err(err("Member list must be a list".into())),
        };
        // dict(s.split('=', 1) for s in member_list)
        let mut partials = Map::new();
        for (i, s) in items.iter().enumerate() {
            let Value::String(s) = s else {
                return Err(err("Member list items must be strings".into()));
            };
            let Some((k, v)) = s.split_once('=') else {
                return Err(err(format!(
                    "dictionary update sequence element #{i} has length 1; 2 is required"
                )));
            };
            partials.insert(k.to_owned(), Value::String(v.to_owned()));
        }
        // extract_param_list: `.member.<N>.<key>`, grouped by N in
        // numeric order.
        let mut members: Vec<(String, String, Value)> = Vec::new();
        for (param, v) in &partials {
            let Some(rest) = param.strip_prefix(".member.") else {
                continue;
            };
            let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
            let Some(field) = rest[digits.len()..].strip_prefix('.') else {
                continue;
            };
            if digits.is_empty() {
                continue;
            }
            let field = field.split('\n').next().unwrap_or_default();
            let n = digits.trim_start_matches('0');
            members.push((n.to_owned(), field.to_owned(), v.clone()));
        }
        members.sort_by(|a, b| a.0.len().cmp(&b.0.len()).then_with(|| a.0.cmp(&b.0)));
        let mut out = Map::new();
        let mut i = 0;
        while i < members.len() {
            let mut group = Map::new();
            let n = &members[i].0;
            while i < members.len() && &members[i].0 == n {
                group.insert(members[i].1.clone(), members[i].2.clone());
                i += 1;
            }
            if let (Some(Value::String(k)), Some(v)) = (group.get(key), group.get(value)) {
                out.insert(k.clone(), v.clone());
            }
        }
        Ok(Value::Object(out))
    }
}

/// `MakeURL._check_args` over the arguments present (`None`: a function,
/// not yet resolved). It stops at `query`, as Heat's loop returns there.
pub(super) fn check_url_args(name: &str, args: &[(String, Option<Value>)]) -> Res<()> {
    let err = |m: String| Unevaluated::heat_error(name, m);
    for key in URL_KEYS {
        let Some((_, value)) = args.iter().find(|(k, _)| k == key) else {
            continue;
        };
        let Some(value) = value else {
            if key == "query" {
                return Ok(());
            }
            continue;
        };
        match key {
            "query" => {
                if !matches!(value, Value::Object(_)) {
                    return Err(err(format!(
                        "The \"{key}\" argument to \"{name}\" must be a map"
                    )));
                }
                return Ok(());
            }
            "port" => {
                let port = if python::is_int(value) {
                    python::int_of(value).unwrap_or(0)
                } else {
                    match python::int_of(value) {
                        Ok(p) => p,
                        Err(_) if matches!(value, Value::String(_)) => {
                            let shown = python::str(value);
                            return Err(err(format!(
                                "Invalid URL port \"{shown}\" for {name} called with {}",
                                python::repr(&Value::Object(
                                    args.iter()
                                        .map(|(k, v)| (k.clone(), v.clone().unwrap_or(Value::Null)))
                                        .collect()
                                ))
                            )));
                        }
                        Err(m) => return Err(err(m)),
                    }
                };
                if !(1..=65535).contains(&port) {
                    return Err(err(format!(
                        "Invalid URL port {port}, must be in range 1-65535"
                    )));
                }
            }
            _ => {
                if !matches!(value, Value::String(_)) {
                    return Err(err(format!(
                        "The \"{key}\" argument to \"{name}\" must be a string"
                    )));
                }
            }
        }
    }
    Ok(())
}

/// Python 3.11's `urllib.parse.urlunsplit`.
fn urlunsplit(scheme: &str, netloc: &str, path: &str, query: &str, fragment: &str) -> String {
    const USES_NETLOC: [&str; 26] = [
        "", "ftp", "http", "gopher", "nntp", "telnet", "imap", "wais", "file", "mms", "https",
        "shttp", "snews", "prospero", "rtsp", "rtsps", "rtspu", "rsync", "svn", "svn+ssh", "sftp",
        "nfs", "git", "git+ssh", "ws", "wss",
    ];
    let mut url = path.to_owned();
    if !netloc.is_empty()
        || (!scheme.is_empty() && USES_NETLOC.contains(&scheme) && !url.starts_with("//"))
    {
        if !url.is_empty() && !url.starts_with('/') {
            url = format!("/{url}");
        }
        url = format!("//{netloc}{url}");
    }
    if !scheme.is_empty() {
        url = format!("{scheme}:{url}");
    }
    if !query.is_empty() {
        url = format!("{url}?{query}");
    }
    if !fragment.is_empty() {
        url = format!("{url}#{fragment}");
    }
    url
}

/// `InvalidTemplateReference` for an unknown resource or parameter.
fn reference_error(name: &Value) -> String {
    format!(
        "The specified reference \"{}\" (in unknown) is incorrect.",
        python::str(name)
    )
}

fn invalid_condition(condition: &Value) -> Unevaluated {
    Unevaluated::heat_error(
        "conditions",
        format!("Invalid condition \"{}\"", python::str(condition)),
    )
}

/// The first `n` characters (Python's `s[:n]`).
fn truncate(s: &str, n: usize) -> String {
    s.chars().take(n).collect()
}

/// One step of `get_param`'s path; `None` for Python's KeyError,
/// IndexError and TypeError.
fn path_component(collection: Value, key: &Value) -> Option<Value> {
    let key_int = match key {
        Value::String(_) => None,
        k if python::is_int(k) => python::int_of(k).ok(),
        // Only strings and ints are path components.
        _ => return None,
    };
    match collection {
        Value::Object(mut m) => match key {
            Value::String(k) => m.remove(k),
            _ => None,
        },
        Value::Array(items) => {
            let i = match key {
                Value::String(k) => python::int_of_str(k)?,
                _ => key_int?,
            };
            let len = items.len();
            python::index(len, i, |i| i).and_then(|i| items.into_iter().nth(i))
        }
        Value::String(s) => {
            let i = match key {
                Value::String(k) => python::int_of_str(k)?,
                _ => key_int?,
            };
            let chars: Vec<char> = s.chars().collect();
            python::index(chars.len(), i, |i| Value::String(chars[i].into()))
        }
        _ => None,
    }
}

/// `_validate_replacement` of each `str_replace` flavour.
fn replacement(name: &str, style: ReplaceStyle, value: &Value, param: &str) -> Res<String> {
    let err = |m: String| Unevaluated::heat_error(name, m);
    let allow_empty = style != ReplaceStyle::VeryStrict;
    let empty = || {
        err(format!(
            "{name} has an undefined or empty value for param {param}, must be a defined non-empty value"
        ))
    };
    match value {
        Value::Null if allow_empty => Ok(String::new()),
        Value::Null => Err(empty()),
        Value::Array(_) | Value::Object(_) if style == ReplaceStyle::Plain => Err(err(format!(
            "\"{name}\" params must be strings or numbers, param {param} is not valid"
        ))),
        Value::Array(a) if !allow_empty && a.is_empty() => Err(empty()),
        Value::Object(m) if !allow_empty && m.is_empty() => Err(empty()),
        Value::Array(_) | Value::Object(_) => Ok(python::json_dumps(value, true)),
        scalar => {
            let s = python::str(scalar);
            if !allow_empty && s.is_empty() {
                Err(empty())
            } else {
                Ok(s)
            }
        }
    }
}

/// `Replace.result`'s recursive split and join: each placeholder splits
/// the text, the pieces get the remaining placeholders, and the value
/// joins them (so values are never rescanned). `found[i]` records that
/// placeholder `i` split something. `None` past the budget.
fn replace_all(
    s: &str,
    pairs: &[(&str, String)],
    found: &mut [bool],
    budget: &mut usize,
) -> Option<String> {
    let Some(((key, value), rest)) = pairs.split_first() else {
        return Some(s.to_owned());
    };
    let (first, others) = found.split_first_mut()?;
    let pieces: Vec<&str> = s.split(key).collect();
    if pieces.len() > 1 {
        *first = true;
    }
    let mut out = String::new();
    for (i, piece) in pieces.iter().enumerate() {
        if i > 0 {
            out.push_str(value);
        }
        out.push_str(&replace_all(piece, rest, others, budget)?);
        *budget = budget.checked_sub(value.len() + piece.len())?;
    }
    Some(out)
}

/// The number of values in a value (what `repeat` copies per item).
fn node_count(v: &Value) -> usize {
    match v {
        Value::Array(items) => 1 + items.iter().map(node_count).sum::<usize>(),
        Value::Object(m) => 1 + m.values().map(node_count).sum::<usize>(),
        Value::String(s) => 1 + s.len() / 64,
        _ => 1,
    }
}

/// `Repeat._do_replacement`: every string (map keys included) gets each
/// placeholder replaced in turn; `str.replace` wants string values.
fn substitute(name: &str, keys: &[String], values: &[&Value], template: &Value) -> Res<Value> {
    match template {
        Value::String(s) => {
            let mut s = s.clone();
            for (key, value) in keys.iter().zip(values) {
                let Value::String(value) = value else {
                    return Err(Unevaluated::heat_error(
                        name,
                        format!("replace() argument 2 must be str, not {}", type_name(value)),
                    ));
                };
                s = s.replace(key.as_str(), value);
            }
            Ok(Value::String(s))
        }
        Value::Array(items) => items
            .iter()
            .map(|i| substitute(name, keys, values, i))
            .collect::<Res<Vec<Value>>>()
            .map(Value::Array),
        Value::Object(m) => {
            let mut out = Map::new();
            for (k, v) in m {
                let Value::String(k) = substitute(name, keys, values, &Value::String(k.clone()))?
                else {
                    continue;
                };
                out.insert(k, substitute(name, keys, values, v)?);
            }
            Ok(Value::Object(out))
        }
        other => Ok(other.clone()),
    }
}
