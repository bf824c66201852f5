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
    /// Only metadata, `depends_on`, `deletion_policy`, `update_policy` or
    /// `condition` (another condition, whatever its value) changed.
    Definition,
    /// Nothing Heat compares changed.
    Same,
    /// `OS::Heat::None` never changes.
    NoneResource,
    /// `needs_replace_with_tmpl_diff`: an
    /// `AWS::AutoScaling::LaunchConfiguration` whose metadata changed is
    /// replaced.
    MetadataReplaces,
    /// `needs_replace_with_prop_diff` of a resource Heat decides by the
    /// changed values (`OS::Heat::TestResource`'s `value` with
    /// `update_replace`; `AWS::EC2::EIPAssociation`'s `EIP` or
    /// `AllocationId` with a new `InstanceId` or `NetworkInterfaceId`).
    PropertyDiffReplaces,
    /// A member of an `OS::Heat::AutoScalingGroup`: Heat names members at
    /// random when it builds a group that was never created, so its
    /// preview lists every old member deleted and every new one added.
    RandomMemberName,
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
    /// of a template resource is).
    pub update_allowed: bool,
    /// Where the old side sets it: the template line that writes the
    /// property, then for each parameter it reads the line that gives that
    /// parameter its value (an environment's `parameters` or
    /// `parameter_defaults`, the parameter's `default`, the parent
    /// resource's property, followed outward), as `file:line`; empty when
    /// nothing writes it (its schema's default).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub set_before: Vec<String>,
    /// Where the new side sets it, as `set_before`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub set_after: Vec<String>,
    /// The parameters its old value reads that nothing gives a value (Heat
    /// refuses that side: "Property X not assigned"; the value shows
    /// `null`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unset_before: Vec<String>,
    /// The same for the new value.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unset_after: Vec<String>,
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
    /// `deletion_policy`, `update_policy`, `condition`, `type`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub changed: Vec<String>,
    /// Heat's words when the update itself would fail at this resource
    /// though the preview lists it: a replace or update the environments
    /// forbid (`restricted_actions`: `ResourceActionRestricted`), or a
    /// changed `immutable` property (`NotSupported`, which also refuses the
    /// preview).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refused: Option<String>,
    /// Where the refusal is set: the environment line of the
    /// `restricted_actions` (absent for an `immutable` property).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refused_at: Option<String>,
    /// The replaced resources of its stack whose `get_resource` or
    /// `get_attr` it takes: they get a new id and new attributes, so it
    /// changes with them even where Heat's preview lists it unchanged.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub follows: Vec<String>,
    /// For an `OS::Nova::Server`: why the update destroys what runs on it
    /// (replaced: deleted and created anew; `image` changed with
    /// `image_update_policy` `REBUILD` or `REBUILD_PRESERVE_EPHEMERAL`:
    /// rebuilt from the new image).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub destructive: Option<String>,
    /// A stack resource Heat updates (always) while nothing of its own
    /// definition and nothing in its nested stack changes.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub nothing_inside: bool,
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
    /// Listed by the preview, refused by Heat's update (see
    /// [`Change::refused`]).
    pub refused: usize,
    /// Servers the update destroys (see [`Change::destructive`]).
    pub destructive: usize,
    /// Resources that change with a replaced one (see [`Change::follows`]),
    /// unchanged to Heat.
    pub follows: usize,
    /// Stack resources updated with nothing changed inside (see
    /// [`Change::nothing_inside`]).
    pub nothing_inside: usize,
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
    /// What the new side does to the deployment's own values, classified
    /// (see `product::interface`).
    pub interface: super::interface::Interface,
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
        interface: super::interface::Interface::default(),
        heat: Vec::new(),
    };
    // A problem of one side only says which; one both sides share is
    // given once.
    for (side, mine, other) in [("old", old, new), ("new", new, old)] {
        for x in &mine.diagnostics {
            if !other.diagnostics.contains(x) {
                let mut x = x.clone();
                x.message = format!("{side} side: {}", x.message);
                d.diagnostics.push(x);
            } else if side == "old" {
                d.diagnostics.push(x.clone());
            }
        }
    }
    // Heat builds and validates the old side first, as a create
    // (`UserParameterMissing` for a nested parameter without a value),
    // then the new one for the update (`Property X not assigned`).
    d.heat_error = old
        .heat_error
        .clone()
        .or_else(|| {
            old.unassigned
                .first()
                .map(|p| format!("UserParameterMissing: The Parameter ({p}) was not provided."))
        })
        .map(|e| format!("old side: {e}"))
        .or_else(|| {
            new.heat_error
                .clone()
                .or_else(|| {
                    new.unassigned
                        .first()
                        .map(|p| format!("ValueError: Property {p} not assigned"))
                })
                .map(|e| format!("new side: {e}"))
        });
    // A side refused before any resource was built (a broken environment)
    // has nothing to compare; one refused for a value (a parameter without
    // one) still has its tree, the unset values marked.
    if d.heat_error.is_some() && (old.stack.resources.is_empty() || new.stack.resources.is_empty())
    {
        return d;
    }
    stacks(&old.stack, &new.stack, &mut d);
    for (c, (_, r, _)) in d.changes.iter_mut().zip(&d.heat) {
        if let Some(e) = immutable_error(c, r.plugin.as_deref()) {
            d.heat_error.get_or_insert_with(|| format!("new side: {e}"));
            c.refused = Some(e);
        }
    }
    followers(&mut d);
    for c in &d.changes {
        d.summary.refused += usize::from(c.refused.is_some());
        d.summary.destructive += usize::from(c.destructive.is_some());
        d.summary.follows += usize::from(!c.follows.is_empty());
        d.summary.nothing_inside += usize::from(c.nothing_inside);
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
fn immutable_error(c: &Change, plugin: Option<&str>) -> Option<String> {
    if !matches!(
        c.rule,
        Rule::UpdateAllowed
            | Rule::NotUpdateAllowed
            | Rule::ServerPolicy
            | Rule::PropertyDiffReplaces
    ) {
        return None;
    }
    // The class's schema: the type as the registry maps it.
    let schema = heat_schema::heat().get(plugin.unwrap_or(&c.type_name))?;
    let mut names: Vec<&str> = c
        .properties
        .iter()
        .filter(|p| schema.properties.get(&p.name).is_some_and(|s| s.immutable))
        .map(|p| p.name.as_str())
        .collect();
    names.sort_unstable();
    (!names.is_empty()).then(|| {
        format!(
            "NotSupported: Update to properties {} of {} ({}) is not supported.",
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
    pair(old, new, d, false);
}

/// [`stacks`]; `random` for the stack of an `OS::Heat::AutoScalingGroup`,
/// whose member names never match.
fn pair(old: &PreviewStack, new: &PreviewStack, d: &mut Diff, random: bool) {
    for n in &new.resources {
        let found = old.resources.iter().find(|o| o.name == n.name);
        let Some(o) = found.filter(|_| !random) else {
            let rule = if random {
                Rule::RandomMemberName
            } else {
                Rule::New
            };
            push(d, Action::Added, rule, n, new, Vec::new(), Vec::new());
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
        let at = d.changes.len() - 1;
        annotate(&mut d.changes[at], o, n);
        match (action, &o.nested, &n.nested) {
            (Action::Replaced, on, nn) => {
                if let Some(on) = on {
                    all(on, Action::Deleted, Rule::StackDeleted, d);
                }
                if let Some(nn) = nn {
                    all(nn, Action::Added, Rule::StackCreated, d);
                }
            }
            (Action::Updated, Some(on), Some(nn)) => {
                let scaling = n.plugin.as_deref() == Some("OS::Heat::AutoScalingGroup");
                pair(on, nn, d, scaling);
                let c = &d.changes[at];
                let quiet = c.properties.is_empty()
                    && c.changed.is_empty()
                    && d.changes[at + 1..]
                        .iter()
                        .all(|x| x.action == Action::Unchanged);
                d.changes[at].nothing_inside = quiet;
            }
            _ => {}
        }
    }
    for o in &old.resources {
        let kept = !random && new.resources.iter().any(|n| n.name == o.name);
        if !kept {
            let rule = if random {
                Rule::RandomMemberName
            } else {
                Rule::Gone
            };
            push(d, Action::Deleted, rule, o, old, Vec::new(), Vec::new());
            if let Some(nested) = &o.nested {
                all(nested, Action::Deleted, Rule::StackDeleted, d);
            }
        }
    }
}

/// heatcap's reasons for a resource both sides have: where each changed
/// property is set, a refusal by `restricted_actions`, a server's
/// destruction.
fn annotate(c: &mut Change, o: &PreviewResource, n: &PreviewResource) {
    for p in &mut c.properties {
        let (before, after) = (o.sources.get(&p.name), n.sources.get(&p.name));
        p.set_before = before.map(|v| v.sites.clone()).unwrap_or_default();
        p.unset_before = before.map(|v| v.unset.clone()).unwrap_or_default();
        p.set_after = after.map(|v| v.sites.clone()).unwrap_or_default();
        p.unset_after = after.map(|v| v.unset.clone()).unwrap_or_default();
    }
    let action = match c.action {
        Action::Replaced => Some("replace"),
        // A stack resource too, changed or not: its `_needs_update` is
        // always true (heat/engine/resource.py `_check_restricted_actions`).
        Action::Updated => Some("update"),
        _ => None,
    };
    // The stored stack's environment decides (`self.stack.env` of the
    // resource being updated is the new one's: the update's).
    if let (Some(action), Some((restricted, at))) = (action, &n.restricted) {
        if restricted.iter().any(|a| a == action) {
            c.refused = Some(format!(
                "ResourceActionRestricted: resources.{}: {action} is restricted for resource.",
                c.resource
            ));
            c.refused_at = Some(at.clone());
        }
    }
    if n.plugin.as_deref() == Some("OS::Nova::Server") {
        c.destructive = match c.action {
            Action::Replaced => Some("replaced: the server is deleted and created anew".to_owned()),
            Action::Updated => c
                .properties
                .iter()
                .any(|p| p.name == "image")
                .then(|| {
                    n.properties
                        .get("image_update_policy")
                        .and_then(J::as_str)
                        .filter(|p| p.starts_with("REBUILD"))
                        .map(|p| format!("rebuilt: its image changes with image_update_policy {p}"))
                })
                .flatten(),
            _ => None,
        };
    }
}

/// Marks the resources that take a replaced resource's reference or
/// attributes (same stack), whatever Heat lists them as.
fn followers(d: &mut Diff) {
    let replaced: Vec<(String, String)> = d
        .changes
        .iter()
        .filter(|c| c.action == Action::Replaced)
        .map(|c| (c.stack.clone(), c.resource.clone()))
        .collect();
    if replaced.is_empty() {
        return;
    }
    for (c, (_, r, _)) in d.changes.iter_mut().zip(&d.heat) {
        if !matches!(c.action, Action::Updated | Action::Unchanged) {
            continue;
        }
        c.follows = r
            .takes
            .iter()
            .filter(|t| replaced.iter().any(|(s, n)| *s == c.stack && n == *t))
            .cloned()
            .collect();
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
        refused: None,
        refused_at: None,
        follows: Vec::new(),
        destructive: None,
        nothing_inside: false,
    });
    d.heat.push((action, r.without_tree(), s.shell()));
}

/// The properties whose values differ, by name, in the new side's order
/// then the old side's.
fn changed_properties(o: &PreviewResource, n: &PreviewResource) -> Vec<PropertyChange> {
    let allowed = |name: &str| match n.plugin.as_deref().and_then(|p| heat_schema::heat().get(p)) {
        // A group's or chain's own schema; a template resource has none
        // (`TemplateResource`: every property is update_allowed).
        Some(t) => t.properties.get(name).is_some_and(|s| s.update_allowed),
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
                set_before: Vec::new(),
                set_after: Vec::new(),
                unset_before: Vec::new(),
                unset_after: Vec::new(),
            })
        })
        .collect()
}

/// `needs_replace_with_prop_diff` of `OS::Heat::TestResource`
/// (heat/engine/resources/openstack/heat/test_resource.py L179) and
/// `AWS::EC2::EIPAssociation` (heat/engine/resources/aws/ec2/eip.py L352).
fn property_diff_replaces(
    plugin: Option<&str>,
    props: &[PropertyChange],
    n: &PreviewResource,
) -> bool {
    let changed = |k: &str| props.iter().any(|p| p.name == k);
    let given = |k: &str| n.properties.get(k).is_some_and(crate::eval::python::truthy);
    match plugin {
        Some("OS::Heat::TestResource") => changed("value") && given("update_replace"),
        Some("AWS::EC2::EIPAssociation") => {
            (changed("AllocationId") || changed("EIP"))
                && ((changed("InstanceId") && given("InstanceId"))
                    || (changed("NetworkInterfaceId") && given("NetworkInterfaceId")))
        }
        _ => false,
    }
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
    for key in [
        "metadata",
        "depends_on",
        "deletion_policy",
        "update_policy",
        "condition",
    ] {
        if o.definition.get(key) != n.definition.get(key) {
            changed.push(key.to_owned());
        }
    }
    if class(o) != class(n) {
        return (Action::Replaced, Rule::ClassChanged, props, changed);
    }
    let plugin = n.plugin.as_deref();
    if n.nested.is_some() || o.nested.is_some() {
        // `StackResource._needs_update` is always true; the properties are
        // still checked (`update_template_diff_properties`): a group's
        // `index_var`, for one, is not update_allowed.
        if props.iter().any(|p| !p.update_allowed) {
            return (Action::Replaced, Rule::NotUpdateAllowed, props, changed);
        }
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
    if plugin == Some("AWS::AutoScaling::LaunchConfiguration")
        && changed.iter().any(|k| k == "metadata")
    {
        return (Action::Replaced, Rule::MetadataReplaces, props, changed);
    }
    if property_diff_replaces(plugin, &props, n) {
        return (Action::Replaced, Rule::PropertyDiffReplaces, props, changed);
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
            // A replaced one's entry is of the new resource Heat builds for
            // the replacement: the same, and its nested stack not built.
            if matches!(action, Action::Updated | Action::Deleted | Action::Replaced)
                && r.plugin.as_deref() == Some("OS::Heat::ResourceGroup")
            {
                if let Some(J::Object(a)) = m.get_mut("attributes") {
                    if a.contains_key("removed_rsrc_list") {
                        a.insert("removed_rsrc_list".to_owned(), json!([]));
                    }
                }
            }
            if let Some(n) = r.nested.as_ref().filter(|_| *action != Action::Replaced) {
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
            sources: IndexMap::new(),
            restricted: None,
            takes: Vec::new(),
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
    fn a_launch_configurations_metadata_and_a_test_resources_value_replace() {
        let mut a = resource("L", "AWS::AutoScaling::LaunchConfiguration", json!({}));
        let mut b = a.clone();
        a.definition["metadata"] = json!({"n": 1});
        b.definition["metadata"] = json!({"n": 2});
        assert_eq!(decide(&a, &b).1, Rule::MetadataReplaces);
        let (a, b) = (
            resource(
                "T",
                "OS::Heat::TestResource",
                json!({"value": "a", "update_replace": true}),
            ),
            resource(
                "T",
                "OS::Heat::TestResource",
                json!({"value": "b", "update_replace": true}),
            ),
        );
        assert_eq!(decide(&a, &b).1, Rule::PropertyDiffReplaces);
    }

    #[test]
    fn a_groups_property_not_update_allowed_replaces_the_group() {
        let empty = PreviewStack {
            name: "s-G".to_owned(),
            parent_resource: Some("G".to_owned()),
            template: None,
            resources: Vec::new(),
            outputs: Vec::new(),
        };
        let mut a = resource(
            "G",
            "OS::Heat::ResourceGroup",
            json!({"count": 1, "index_var": "%index%"}),
        );
        a.nested = Some(empty);
        let mut b = a.clone();
        b.properties.insert("index_var".to_owned(), json!("%n%"));
        assert_eq!(decide(&a, &b).0, Action::Replaced);
        b.properties
            .insert("index_var".to_owned(), json!("%index%"));
        b.properties.insert("count".to_owned(), json!(2));
        let (action, rule, props, _) = decide(&a, &b);
        assert_eq!((action, rule), (Action::Updated, Rule::StackResource));
        assert!(props.iter().all(|p| p.update_allowed));
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
