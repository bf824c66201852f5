//! `diff`: what an update from one composition to another does, as Heat
//! 27.0.1's `preview_update_stack(show_nested=True)` decides it when
//! neither side was ever deployed (both resolve `get_resource` to the
//! resource's name, `get_attr` to `null`), with the reasons Heat never
//! gives: the properties that changed and the rule that decided.
//!
//! Built on two create previews ([`super::preview`]): Heat's
//! `StackUpdate.preview` (heat/engine/update.py L259) per stack, its
//! `show_nested` recursion (heat/engine/service.py L1131), and
//! `Resource.preview_update` (heat/engine/resource.py L1494: `_needs_update`
//! L1369, `update_template_diff_properties` L646).

use indexmap::IndexMap;
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{json, Value as J};

use super::preview::{HeatContext, Preview, PreviewResource, PreviewStack};
use crate::heat_schema;

/// What the update does to a resource (Heat's five lists).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum Action {
    /// Created: only the new side has it.
    Added,
    /// Deleted: only the old side has it.
    Deleted,
    /// Deleted and created anew.
    Replaced,
    /// Updated in place.
    Updated,
    /// Left as it is.
    Unchanged,
}

impl Action {
    /// Heat's name of the list.
    pub fn as_str(self) -> &'static str {
        match self {
            Action::Added => "added",
            Action::Deleted => "deleted",
            Action::Replaced => "replaced",
            Action::Updated => "updated",
            Action::Unchanged => "unchanged",
        }
    }
}

/// The rule of Heat's update preview that decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum Rule {
    /// Only the new side has it (`added`: a set difference of names,
    /// after conditions).
    New,
    /// Only the old side has it.
    Gone,
    /// Its stack is created: every resource of an added or replaced
    /// nested stack is added.
    StackCreated,
    /// Its stack is deleted: every resource of a deleted or replaced
    /// nested stack is deleted.
    StackDeleted,
    /// Its implementation's class changed (`type(cur) is not type(new)`):
    /// a template for a plugin (`OS::Heat::None`, ...) or one plugin for
    /// another. One template for another is no change of class.
    ClassChanged,
    /// A stack resource (template resource, group, chain) is always
    /// updated (`StackResource._needs_update`), its resources compared.
    StackResource,
    /// `OS::Heat::UpdateWaitConditionHandle` is always replaced.
    AlwaysReplaced,
    /// `needs_replace`: a port whose `replacement_policy` is
    /// `REPLACE_ALWAYS`.
    NeedsReplace,
    /// A server's `flavor`, `image` or `user_data` changed with its
    /// update policy `REPLACE` (`needs_replace_with_prop_diff`;
    /// `user_data_update_policy` is `REPLACE` by default).
    ServerPolicy,
    /// A changed property is not `update_allowed`.
    NotUpdateAllowed,
    /// Every changed property is `update_allowed`.
    UpdateAllowed,
    /// Only metadata, `depends_on`, `deletion_policy` or `update_policy`
    /// changed.
    Definition,
    /// Nothing Heat compares changed.
    Same,
    /// `OS::Heat::None` never changes.
    NoneResource,
}

/// One property whose value the update changes.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
#[non_exhaustive]
pub struct PropertyChange {
    /// Its name.
    pub name: String,
    /// Its value on the old side, as the preview shows it (`null`: not
    /// given and no default).
    pub before: J,
    /// Its value on the new side.
    pub after: J,
    /// Whether Heat updates it in place (`update_allowed`; every property
    /// of a template resource or group is).
    pub update_allowed: bool,
}

/// What the update does to one resource.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
#[non_exhaustive]
pub struct Change {
    /// What happens to it.
    pub action: Action,
    /// Why, by the rule of Heat's update preview that decided.
    pub rule: Rule,
    /// Its stack, as Heat names it (`<parent stack>-<resource>`).
    pub stack: String,
    /// The resource of the parent stack that creates its stack (absent
    /// for the root).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parent_resource: Option<String>,
    /// Its name in its stack.
    pub resource: String,
    /// Its type as written on the side Heat lists it from (the old for
    /// updated and deleted, the new otherwise).
    #[serde(rename = "type")]
    pub type_name: String,
    /// The properties whose values change (replaced and updated
    /// resources; before → after, converted as the preview shows them).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub properties: Vec<PropertyChange>,
    /// What else of its definition changes: `metadata`, `depends_on`,
    /// `deletion_policy`, `update_policy`, `type`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub changed: Vec<String>,
}

/// How many resources the update adds, replaces, updates, deletes and
/// leaves.
#[derive(Debug, Clone, Default, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
#[non_exhaustive]
pub struct Summary {
    /// Added.
    pub add: usize,
    /// Replaced.
    pub replace: usize,
    /// Updated.
    pub update: usize,
    /// Deleted.
    pub delete: usize,
    /// Unchanged.
    pub unchanged: usize,
}

/// The `diff` command's result.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
#[non_exhaustive]
pub struct Diff {
    /// The old side's root template, as given.
    pub from_template: String,
    /// The old side's environments, as given.
    pub from_environments: Vec<String>,
    /// The new side's root template, as given.
    pub template: String,
    /// The new side's environments, as given.
    pub environments: Vec<String>,
    /// The counts by action.
    pub summary: Summary,
    /// Every resource of every nested stack of both sides, the root
    /// stack's first, each stack's resources in template order (the new
    /// side's, then those only the old side has).
    pub changes: Vec<Change>,
    /// Heat's refusal of the update preview, in its words, prefixed with
    /// the side that fails (`old side: ` or `new side: `).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub heat_error: Option<String>,
    /// Problems found on the way, on either side.
    pub diagnostics: Vec<crate::diag::Diagnostic>,
    /// Heat's document for each entry: the resource and its stack, on the
    /// side Heat formats it from.
    #[serde(skip)]
    #[schemars(skip)]
    pub(crate) heat: Vec<(Action, PreviewResource, PreviewStack)>,
}

/// The update from `old` to `new` (both previews of the same stack name).
pub(crate) fn compare(old: &Preview, new: &Preview) -> Diff {
    let mut d = Diff {
        from_template: old.template.clone(),
        from_environments: old.environments.clone(),
        template: new.template.clone(),
        environments: new.environments.clone(),
        summary: Summary::default(),
        changes: Vec::new(),
        heat_error: None,
        diagnostics: Vec::new(),
        heat: Vec::new(),
    };
    d.diagnostics.extend(old.diagnostics.iter().cloned());
    d.diagnostics.extend(new.diagnostics.iter().cloned());
    d.heat_error = old
        .heat_error
        .as_ref()
        .map(|e| format!("old side: {e}"))
        .or_else(|| new.heat_error.as_ref().map(|e| format!("new side: {e}")));
    if d.heat_error.is_some() {
        return d;
    }
    stacks(&old.stack, &new.stack, &mut d);
    if let Some(e) = d.changes.iter().find_map(immutable_error) {
        d.heat_error = Some(e);
    }
    for c in &d.changes {
        match c.action {
            Action::Added => d.summary.add += 1,
            Action::Deleted => d.summary.delete += 1,
            Action::Replaced => d.summary.replace += 1,
            Action::Updated => d.summary.update += 1,
            Action::Unchanged => d.summary.unchanged += 1,
        }
    }
    d
}

/// Heat's `NotSupported` for a changed `immutable` property of an updated
/// or replaced resource (`update_template_diff_properties`).
fn immutable_error(c: &Change) -> Option<String> {
    if !matches!(
        c.rule,
        Rule::UpdateAllowed | Rule::NotUpdateAllowed | Rule::ServerPolicy
    ) {
        return None;
    }
    let schema = heat_schema::heat().get(&c.type_name)?;
    let mut names: Vec<&str> = c
        .properties
        .iter()
        .filter(|p| schema.properties.get(&p.name).is_some_and(|s| s.immutable))
        .map(|p| p.name.as_str())
        .collect();
    names.sort_unstable();
    (!names.is_empty()).then(|| {
        format!(
            "new side: NotSupported: Update to properties {} of {} ({}) is not supported.",
            names.join(", "),
            c.resource,
            c.type_name
        )
    })
}

/// Heat's class of an implementation (`type(resource)`): every template
/// resource is a `TemplateResource`.
fn class(r: &PreviewResource) -> String {
    match (&r.plugin, &r.nested) {
        (Some(p), _) => p.clone(),
        (None, Some(_)) => "TemplateResource".to_owned(),
        (None, None) => r.type_name.clone(),
    }
}

/// One pair of stacks (`StackUpdate.preview`, then `show_nested`'s
/// recursion).
fn stacks(old: &PreviewStack, new: &PreviewStack, d: &mut Diff) {
    for n in &new.resources {
        let Some(o) = old.resources.iter().find(|o| o.name == n.name) else {
            push(d, Action::Added, Rule::New, n, new, Vec::new(), Vec::new());
            if let Some(nested) = &n.nested {
                all(nested, Action::Added, Rule::StackCreated, d);
            }
            continue;
        };
        let (action, rule, props, changed) = decide(o, n);
        let (from, stack) = if action == Action::Updated {
            (o, old)
        } else {
            (n, new)
        };
        push(d, action, rule, from, stack, props, changed);
        match (action, &o.nested, &n.nested) {
            (Action::Replaced, on, nn) => {
                if let Some(on) = on {
                    all(on, Action::Deleted, Rule::StackDeleted, d);
                }
                if let Some(nn) = nn {
                    all(nn, Action::Added, Rule::StackCreated, d);
                }
            }
            (Action::Updated, Some(on), Some(nn)) => stacks(on, nn, d),
            _ => {}
        }
    }
    for o in &old.resources {
        if new.resources.iter().all(|n| n.name != o.name) {
            push(
                d,
                Action::Deleted,
                Rule::Gone,
                o,
                old,
                Vec::new(),
                Vec::new(),
            );
            if let Some(nested) = &o.nested {
                all(nested, Action::Deleted, Rule::StackDeleted, d);
            }
        }
    }
}

/// Every resource of `s` and its nested stacks, as `action`.
fn all(s: &PreviewStack, action: Action, rule: Rule, d: &mut Diff) {
    for r in &s.resources {
        push(d, action, rule, r, s, Vec::new(), Vec::new());
        if let Some(n) = &r.nested {
            all(n, action, rule, d);
        }
    }
}

fn push(
    d: &mut Diff,
    action: Action,
    rule: Rule,
    r: &PreviewResource,
    s: &PreviewStack,
    properties: Vec<PropertyChange>,
    changed: Vec<String>,
) {
    d.changes.push(Change {
        action,
        rule,
        stack: s.name.clone(),
        parent_resource: s.parent_resource.clone(),
        resource: r.name.clone(),
        type_name: r.type_name.clone(),
        properties,
        changed,
    });
    d.heat.push((action, r.without_tree(), s.shell()));
}

/// The properties whose values differ, by name, in the new side's order
/// then the old side's.
fn changed_properties(o: &PreviewResource, n: &PreviewResource) -> Vec<PropertyChange> {
    let allowed = |name: &str| match n.plugin.as_deref().and_then(|p| heat_schema::heat().get(p)) {
        Some(t) if n.nested.is_none() => t.properties.get(name).is_some_and(|s| s.update_allowed),
        _ => true,
    };
    let mut names: Vec<&String> = n.properties.keys().collect();
    names.extend(
        o.properties
            .keys()
            .filter(|k| !n.properties.contains_key(*k)),
    );
    names
        .into_iter()
        .filter_map(|k| {
            let before = o.properties.get(k).cloned().unwrap_or(J::Null);
            let after = n.properties.get(k).cloned().unwrap_or(J::Null);
            (before != after).then(|| PropertyChange {
                name: k.clone(),
                update_allowed: allowed(k),
                before,
                after,
            })
        })
        .collect()
}

/// `Resource.preview_update` for a resource both sides have.
fn decide(
    o: &PreviewResource,
    n: &PreviewResource,
) -> (Action, Rule, Vec<PropertyChange>, Vec<String>) {
    let props = changed_properties(o, n);
    let mut changed: Vec<String> = Vec::new();
    if o.type_name != n.type_name {
        changed.push("type".to_owned());
    }
    for key in ["metadata", "depends_on", "deletion_policy", "update_policy"] {
        if o.definition.get(key) != n.definition.get(key) {
            changed.push(key.to_owned());
        }
    }
    if class(o) != class(n) {
        return (Action::Replaced, Rule::ClassChanged, props, changed);
    }
    let plugin = n.plugin.as_deref();
    if n.nested.is_some() || o.nested.is_some() {
        return (Action::Updated, Rule::StackResource, props, changed);
    }
    match plugin {
        Some("OS::Heat::None") => return (Action::Unchanged, Rule::NoneResource, props, changed),
        Some("OS::Heat::UpdateWaitConditionHandle") => {
            return (Action::Replaced, Rule::AlwaysReplaced, props, changed)
        }
        Some("OS::Neutron::Port")
            if n.properties.get("replacement_policy") == Some(&json!("REPLACE_ALWAYS")) =>
        {
            return (Action::Replaced, Rule::NeedsReplace, props, changed)
        }
        _ => {}
    }
    let definition_changed = o.definition != n.definition;
    if props.is_empty() && !definition_changed {
        return (Action::Unchanged, Rule::Same, props, changed);
    }
    if plugin == Some("OS::Nova::Server") {
        let policy = |key: &str| {
            n.properties
                .get(key)
                .filter(|v| !v.is_null() && *v != "")
                .or_else(|| o.properties.get(key))
                .and_then(J::as_str)
                == Some("REPLACE")
        };
        let replaces = props.iter().any(|p| match p.name.as_str() {
            "flavor" => policy("flavor_update_policy"),
            "image" => policy("image_update_policy"),
            "user_data" => policy("user_data_update_policy"),
            _ => false,
        });
        if replaces {
            return (Action::Replaced, Rule::ServerPolicy, props, changed);
        }
    }
    if props.iter().any(|p| !p.update_allowed) {
        return (Action::Replaced, Rule::NotUpdateAllowed, props, changed);
    }
    if props.is_empty() {
        return (Action::Updated, Rule::Definition, props, changed);
    }
    (Action::Updated, Rule::UpdateAllowed, props, changed)
}

/// Heat's answer (`{"resource_changes": {...}}`, each list sorted by stack
/// and resource name as the oracle records it), or `{"Error": ...}`.
pub(crate) fn heat_document(d: &Diff, cx: &HeatContext) -> J {
    if let Some(e) = &d.heat_error {
        let e = e
            .strip_prefix("old side: ")
            .or_else(|| e.strip_prefix("new side: "))
            .unwrap_or(e);
        return json!({ "Error": e });
    }
    let mut lists: IndexMap<&str, Vec<J>> =
        ["added", "deleted", "replaced", "updated", "unchanged"]
            .into_iter()
            .map(|k| (k, Vec::new()))
            .collect();
    for (action, r, s) in &d.heat {
        let mut entry = super::preview::heat_resource(r, s, cx);
        if let J::Object(m) = &mut entry {
            m.remove("properties");
            if let Some(t) = super::preview::heat_path_type(r, &d.template) {
                m.insert("resource_type".to_owned(), J::String(t));
            }
            // A group of the stored (old) stack: its `removed_rsrc_list`
            // reads the stored removal list, empty.
            if matches!(action, Action::Updated | Action::Deleted)
                && r.plugin.as_deref() == Some("OS::Heat::ResourceGroup")
            {
                if let Some(J::Object(a)) = m.get_mut("attributes") {
                    if a.contains_key("removed_rsrc_list") {
                        a.insert("removed_rsrc_list".to_owned(), json!([]));
                    }
                }
            }
            if let Some(n) = &r.nested {
                m.insert(
                    "nested_stack_id".to_owned(),
                    json!({"path": "", "stack_id": "None", "stack_name": n.name, "tenant": cx.tenant}),
                );
            }
        }
        lists.entry(action.as_str()).or_default().push(entry);
    }
    for v in lists.values_mut() {
        v.sort_by(|a, b| {
            (a["stack_name"].as_str(), a["resource_name"].as_str())
                .cmp(&(b["stack_name"].as_str(), b["resource_name"].as_str()))
        });
    }
    json!({ "resource_changes": lists })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn resource(name: &str, plugin: &str, properties: J) -> PreviewResource {
        let properties: IndexMap<String, J> = serde_json::from_value(properties).unwrap();
        PreviewResource {
            name: name.to_owned(),
            type_name: plugin.to_owned(),
            plugin: Some(plugin.to_owned()),
            definition: json!({ "properties": properties }),
            properties,
            metadata: json!({}),
            description: String::new(),
            requires: Vec::new(),
            required_by: Vec::new(),
            nested: None,
            value_attribute: None,
        }
    }

    #[test]
    fn none_never_changes_and_a_handle_is_always_replaced() {
        let (a, b) = (
            resource("N", "OS::Heat::None", json!({"x": 1})),
            resource("N", "OS::Heat::None", json!({"x": 2})),
        );
        assert_eq!(decide(&a, &b).1, Rule::NoneResource);
        let h = resource("H", "OS::Heat::UpdateWaitConditionHandle", json!({}));
        assert_eq!(decide(&h, &h).0, Action::Replaced);
    }

    #[test]
    fn a_property_not_update_allowed_replaces() {
        let (a, b) = (
            resource("S", "OS::Heat::RandomString", json!({"length": 16})),
            resource("S", "OS::Heat::RandomString", json!({"length": 32})),
        );
        let (action, rule, props, _) = decide(&a, &b);
        assert_eq!((action, rule), (Action::Replaced, Rule::NotUpdateAllowed));
        assert_eq!(props[0].before, json!(16));
    }

    #[test]
    fn a_servers_user_data_replaces_by_default_policy() {
        let (a, b) = (
            resource(
                "S",
                "OS::Nova::Server",
                json!({"user_data": "a", "user_data_update_policy": "REPLACE"}),
            ),
            resource(
                "S",
                "OS::Nova::Server",
                json!({"user_data": "b", "user_data_update_policy": "REPLACE"}),
            ),
        );
        assert_eq!(decide(&a, &b).1, Rule::ServerPolicy);
    }
}
