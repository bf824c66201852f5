//! `diff`'s interface section: what a new revision of a composition does to
//! the deployment's own values, classified as buf breaking and oasdiff do
//! (breaking, warning, info), each finding with where it is on the old
//! side and on the new one.
//!
//! Built from each side's `parameters` answer (every parameter of the
//! composition, the values the environments give, where each is set and
//! Heat's refusal of a value: [`super::parameters`]), the merged
//! `resource_registry` of each side and the composition trees. It does not
//! care how a side was read: it takes two opened workspaces.

use std::collections::{BTreeSet, HashMap, HashSet};

use indexmap::IndexMap;
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value as J;

use super::parameters::{ParameterInfo, ParametersReport, Source, StackNode};
use crate::diag::Span;
use crate::model::environment::Environment;
use crate::model::registry::EntryValue;
use crate::model::template::Template;
use crate::model::FileRecord;
use crate::node::{Node, Value};
use crate::resolve::compose::{NodeKind, TreeNode};
use crate::resolve::merge::Merged;
use crate::resolve::Catalog;

/// The version of the section's JSON shape (`interface.format_version`).
pub(crate) const FORMAT_VERSION: u32 = 1;

/// How much a change matters to the deployment.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, JsonSchema, Default,
)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum Severity {
    /// The deployment fails, or Heat silently does something else with it.
    Breaking,
    /// The deployment still goes through, with another effect.
    Warning,
    /// Worth knowing (shown with `--all`).
    #[default]
    Info,
}

impl Severity {
    /// Its name.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Breaking => "breaking",
            Severity::Warning => "warning",
            Severity::Info => "info",
        }
    }
}

/// The rule that classified a change.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum Rule {
    /// Breaking: a parameter that must now be given (new without a
    /// default, or no longer passed) and these environments do not give.
    RequiredAdded,
    /// Breaking: a parameter's default is removed and these environments
    /// do not give it.
    DefaultRemoved,
    /// Breaking: a value the environments set that the new revision
    /// refuses (its type or constraints), in Heat's words.
    ValueRefused,
    /// Breaking: a `parameter_defaults` key (Heat ignores it without a
    /// word) or a `parameters` value (Heat refuses it) that no stack of
    /// the new composition declares any more.
    NotDeclared,
    /// Breaking: an environment file the deployment uses that no longer
    /// exists.
    EnvironmentMissing,
    /// Breaking: a registry entry whose template no longer exists.
    RegistryTargetMissing,
    /// Breaking: an output of a nested template that its parent reads
    /// (`get_attr`) and the new template no longer has.
    OutputGone,
    /// Warning (info when the environments set it, or a side has no stack
    /// that takes the default): a parameter's default changed.
    DefaultChanged,
    /// Warning: the value the environments give a parameter changed (the
    /// tree's own environment files changed, or one side stopped setting
    /// it): its effective value changes, old → new.
    ValueChanged,
    /// Warning: a registry entry picks something else (another template,
    /// `OS::Heat::None`: a service disabled).
    RegistryChanged,
    /// Warning: a parameter's constraints are tighter while the value the
    /// environments set still passes.
    ConstraintTightened,
    /// Warning (info when the environments do not set it): a parameter
    /// now in a `deprecated` parameter group.
    Deprecated,
    /// Warning when the environments set it (their value is read as
    /// another type), else info: a parameter's type changed.
    TypeChanged,
    /// Info: a parameter added that needs nothing from the deployment.
    Added,
    /// Info: a parameter removed that the environments do not set.
    Removed,
    /// Info: constraints changed (looser, or not set by the environments).
    ConstraintsChanged,
    /// Info: a description changed.
    DescriptionChanged,
    /// Info: a registry entry only the new side has.
    RegistryAdded,
    /// Info: a registry entry only the old side had.
    RegistryRemoved,
}

impl Rule {
    /// Its name, as the JSON shows it.
    pub fn as_str(self) -> &'static str {
        match self {
            Rule::RequiredAdded => "required-added",
            Rule::DefaultRemoved => "default-removed",
            Rule::ValueRefused => "value-refused",
            Rule::NotDeclared => "not-declared",
            Rule::EnvironmentMissing => "environment-missing",
            Rule::RegistryTargetMissing => "registry-target-missing",
            Rule::OutputGone => "output-gone",
            Rule::DefaultChanged => "default-changed",
            Rule::ValueChanged => "value-changed",
            Rule::RegistryChanged => "registry-changed",
            Rule::ConstraintTightened => "constraint-tightened",
            Rule::Deprecated => "deprecated",
            Rule::TypeChanged => "type-changed",
            Rule::Added => "added",
            Rule::Removed => "removed",
            Rule::ConstraintsChanged => "constraints-changed",
            Rule::DescriptionChanged => "description-changed",
            Rule::RegistryAdded => "registry-added",
            Rule::RegistryRemoved => "registry-removed",
        }
    }
}

/// A place in a file of one side.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
#[non_exhaustive]
pub struct Site {
    /// The file, as that side's paths are shown.
    pub file: String,
    /// 1-based line (0: the file as a whole).
    pub line: u32,
    /// 1-based column (0: the line as a whole).
    pub column: u32,
}

impl Site {
    fn at(file: &str, span: Span) -> Site {
        Site {
            file: file.to_owned(),
            line: span.start.line,
            column: span.start.column,
        }
    }

    fn file(file: &str) -> Site {
        Site {
            file: file.to_owned(),
            line: 0,
            column: 0,
        }
    }
}

impl std::fmt::Display for Site {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.line, self.column) {
            (0, _) => write!(f, "{}", self.file),
            (l, 0) => write!(f, "{}:{l}", self.file),
            (l, c) => write!(f, "{}:{l}:{c}", self.file),
        }
    }
}

/// One classified change.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
#[non_exhaustive]
pub struct Finding {
    /// How much it matters.
    pub severity: Severity,
    /// The rule that classified it.
    pub rule: Rule,
    /// What changed: a parameter's name, a registry key, an environment
    /// file, `resource.output`.
    pub subject: String,
    /// What it does to the deployment, in one sentence (Heat's words where
    /// Heat has some).
    pub message: String,
    /// Where it is on the old side (absent when only the new side has it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub before: Option<Site>,
    /// Where it is on the new side (absent when only the old side has it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub after: Option<Site>,
    /// Where the new side's environments set the value the finding is
    /// about.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub set_at: Option<Site>,
    /// The old value (a default, a type, a registry pick, constraints).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub old: Option<J>,
    /// The new value.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new: Option<J>,
}

impl Finding {
    /// Where it is for someone reading the new side: the new side's site,
    /// else where the value is set, else the old side's.
    pub fn site(&self) -> Option<&Site> {
        self.after
            .as_ref()
            .or(self.set_at.as_ref())
            .or(self.before.as_ref())
    }
}

/// How many findings of each severity.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
#[non_exhaustive]
pub struct Counts {
    /// Breaking.
    pub breaking: usize,
    /// Warnings.
    pub warning: usize,
    /// Info.
    pub info: usize,
}

/// The interface section of `diff`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
#[non_exhaustive]
pub struct Interface {
    /// The version of this section's shape (1; it changes only with the
    /// shape).
    pub format_version: u32,
    /// The findings by severity (info included, listed or not).
    pub counts: Counts,
    /// Every finding, the most severe first (info ones only with
    /// `--all`).
    pub findings: Vec<Finding>,
}

impl Default for Interface {
    /// No finding (a side diffed with itself).
    fn default() -> Interface {
        Interface {
            format_version: FORMAT_VERSION,
            counts: Counts::default(),
            findings: Vec::new(),
        }
    }
}

impl Interface {
    /// The findings at or above `at`.
    pub fn at_least(&self, at: Severity) -> usize {
        let c = &self.counts;
        match at {
            Severity::Breaking => c.breaking,
            Severity::Warning => c.breaking + c.warning,
            Severity::Info => c.breaking + c.warning + c.info,
        }
    }

    /// Drops the info findings from the list (the counts keep them).
    #[must_use]
    pub fn without_info(mut self) -> Interface {
        self.findings.retain(|f| f.severity != Severity::Info);
        self
    }
}

/// `diff` over the configuration file's `deployments`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
#[non_exhaustive]
pub(crate) struct Deployments {
    /// Each deployment's diff, in the file's order.
    pub deployments: Vec<DeploymentDiff>,
}

/// One configured deployment's diff.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
#[non_exhaustive]
pub(crate) struct DeploymentDiff {
    /// Its `name` in the configuration file.
    pub name: String,
    /// Its diff.
    pub diff: super::diff::Diff,
}

impl Deployments {
    /// The deployments' diffs, named.
    pub(crate) fn new(all: Vec<(String, super::diff::Diff)>) -> Deployments {
        Deployments {
            deployments: all
                .into_iter()
                .map(|(name, diff)| DeploymentDiff { name, diff })
                .collect(),
        }
    }
}

/// One side as the workspace read it (the product does not care how the
/// side was read: a checkout, a revision, buffers).
pub(crate) struct Side<'w> {
    /// Its `parameters` answer.
    pub(crate) params: ParametersReport,
    /// Its composition (`None` when an environment is refused).
    pub(crate) composition: Option<TreeNode>,
    /// The environments that loaded, in order.
    pub(crate) environments: &'w [Environment],
    /// The environment files as given (missing ones too).
    pub(crate) env_files: &'w [FileRecord],
    /// The environments' paths, in order.
    pub(crate) env_paths: Vec<String>,
    /// The merged environment.
    pub(crate) merged: &'w Merged,
    /// Its templates.
    pub(crate) catalog: &'w dyn Catalog,
    /// A template's text as read, by its path as shown.
    pub(crate) text: &'w (dyn Fn(&str) -> Option<String> + Sync),
    /// Whether an environment is refused.
    pub(crate) broken: bool,
    /// Stack id → its template, as shown.
    templates: HashMap<String, String>,
}

fn templates_of(node: &StackNode, out: &mut HashMap<String, String>) {
    out.insert(node.id.clone(), node.template.clone());
    for c in &node.children {
        templates_of(c, out);
    }
}

impl<'w> Side<'w> {
    /// A side from what its workspace read.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn new(
        params: ParametersReport,
        composition: Option<TreeNode>,
        environments: &'w [Environment],
        env_files: &'w [FileRecord],
        env_paths: Vec<String>,
        merged: &'w Merged,
        catalog: &'w dyn Catalog,
        text: &'w (dyn Fn(&str) -> Option<String> + Sync),
    ) -> Side<'w> {
        let mut templates = HashMap::new();
        templates_of(&params.tree, &mut templates);
        Side {
            broken: composition.is_none(),
            params,
            composition,
            environments,
            env_files,
            env_paths,
            merged,
            catalog,
            text,
            templates,
        }
    }

    /// The template at `path` (as shown), if it loaded.
    fn template(&self, path: &str) -> Option<&Template> {
        self.catalog.template("", path).template
    }

    fn info(&self, name: &str) -> Option<&ParameterInfo> {
        self.params.parameters.get(name)
    }

    /// Where `name` is declared in `stack` (or its first declaring stack).
    fn declared(&self, name: &str, stack: Option<&str>) -> Option<Site> {
        let info = self.info(name)?;
        let stack = stack.or_else(|| info.declared_by.first().map(String::as_str))?;
        let template = self.templates.get(stack)?;
        let span = self
            .template(template)
            .and_then(|t| t.parameters.iter().find(|p| p.name == name))
            .and_then(crate::model::template::Parameter::key)
            .unwrap_or_default();
        Some(Site::at(template, span))
    }

    /// Where `name`'s default is written in its first declaring stack.
    fn default_site(&self, name: &str) -> Option<Site> {
        let info = self.info(name)?;
        let template = self.templates.get(info.declared_by.first()?)?;
        let p = self
            .template(template)?
            .parameters
            .iter()
            .find(|p| p.name == name)?;
        Some(Site::at(template, p.default_key().or(p.key())?))
    }

    /// The environments' own setting of `name`, read from the files (so a
    /// key no template declares is seen too): the section, where, and the
    /// value. `parameters` wins over `parameter_defaults`, a later file
    /// over an earlier one.
    fn env_sets(&self, name: &str) -> Option<(&'static str, Site, J)> {
        for (idx, section) in [(0, "parameters"), (1, "parameter_defaults")] {
            for env in self.environments.iter().rev() {
                let values = if idx == 0 {
                    &env.parameters
                } else {
                    &env.parameter_defaults
                };
                if let Some(v) = values.get(name) {
                    let span = env.parameter_keys[idx]
                        .get(name)
                        .copied()
                        .unwrap_or_default();
                    return Some((section, Site::at(&env.path, span), v.clone()));
                }
            }
        }
        None
    }

    /// Whether a stack declaring `name` lists it in a parameter group
    /// labelled `deprecated` (tripleoclient's test: the label, lowercased).
    fn deprecated(&self, name: &str) -> bool {
        fn walk(n: &StackNode, name: &str) -> bool {
            n.parameter_groups.iter().any(|g| {
                g.label
                    .as_deref()
                    .is_some_and(|l| l.eq_ignore_ascii_case("deprecated"))
                    && g.parameters.iter().any(|p| p == name)
            }) || n.children.iter().any(|c| walk(c, name))
        }
        walk(&self.params.tree, name)
    }
}

fn finding(severity: Severity, rule: Rule, subject: &str, message: String) -> Finding {
    Finding {
        severity,
        rule,
        subject: subject.to_owned(),
        message,
        before: None,
        after: None,
        set_at: None,
        old: None,
        new: None,
    }
}

/// A value in a message: its JSON, cut at 60 characters (the finding's
/// `old` and `new` hold it whole).
fn shown(v: Option<&J>) -> String {
    const MAX: usize = 60;
    let text = v.map_or_else(
        || "none".to_owned(),
        |v| serde_json::to_string(v).unwrap_or_default(),
    );
    match text.char_indices().nth(MAX) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text,
    }
}

/// Whether the value the environments give `name` is refused by the side
/// (Heat's words), in any stack.
fn refused(info: &ParameterInfo) -> Option<&str> {
    info.values
        .iter()
        .filter(|v| matches!(v.source, Source::Parameters | Source::ParameterDefaults))
        .find_map(|v| v.invalid.as_deref())
}

/// Whether constraints `new` are tighter than `old`: some constraint of
/// `new` that `old` does not have, unless it only widens one of the same
/// kind (a range or length with bounds at least as wide, allowed values a
/// superset).
pub(crate) fn tightened(old: Option<&J>, new: Option<&J>) -> bool {
    let list = |c: Option<&J>| -> Vec<J> {
        match c {
            Some(J::Array(a)) => a.clone(),
            Some(J::Object(o)) => o.iter().map(|(k, v)| serde_json::json!({ k: v })).collect(),
            _ => Vec::new(),
        }
    };
    let (old, new) = (list(old), list(new));
    let kind = |c: &J| -> Option<(String, J)> {
        c.as_object().and_then(|o| {
            o.iter()
                .find(|(k, _)| k.as_str() != "description")
                .map(|(k, v)| (k.clone(), v.clone()))
        })
    };
    let bound = |v: &J, k: &str| v.get(k).and_then(J::as_f64);
    let wider = |o: &J, n: &J| -> bool {
        let min = match (bound(o, "min"), bound(n, "min")) {
            (_, None) => true,
            (Some(a), Some(b)) => b <= a,
            (None, Some(_)) => false,
        };
        let max = match (bound(o, "max"), bound(n, "max")) {
            (_, None) => true,
            (Some(a), Some(b)) => b >= a,
            (None, Some(_)) => false,
        };
        min && max
    };
    new.iter().any(|n| {
        let Some((nk, nv)) = kind(n) else {
            return false;
        };
        if old
            .iter()
            .any(|o| kind(o).as_ref() == Some(&(nk.clone(), nv.clone())))
        {
            return false;
        }
        let same_kind: Vec<J> = old
            .iter()
            .filter_map(kind)
            .filter(|(k, _)| *k == nk)
            .map(|(_, v)| v)
            .collect();
        match nk.as_str() {
            "range" | "length" => !same_kind.iter().any(|o| wider(o, &nv)),
            "allowed_values" => !same_kind.iter().any(|o| match (o, &nv) {
                (J::Array(a), J::Array(b)) => a.iter().all(|x| b.contains(x)),
                _ => false,
            }),
            _ => true,
        }
    })
}

/// The interface section of the diff from side `o` to side `n`.
pub(crate) fn compare(o: &Side, n: &Side) -> Interface {
    let mut out = Vec::new();
    // A side whose environments Heat refuses has no parameters to compare.
    if !o.broken && !n.broken {
        parameters(o, n, &mut out);
    }
    environments(o, n, &mut out);
    registry(o, n, &mut out);
    outputs(o, n, &mut out);
    out.sort_by(|a, b| {
        (
            a.severity,
            a.rule,
            &a.subject,
            a.site().map(ToString::to_string),
        )
            .cmp(&(
                b.severity,
                b.rule,
                &b.subject,
                b.site().map(ToString::to_string),
            ))
    });
    out.dedup();
    let mut counts = Counts::default();
    for f in &out {
        match f.severity {
            Severity::Breaking => counts.breaking += 1,
            Severity::Warning => counts.warning += 1,
            Severity::Info => counts.info += 1,
        }
    }
    Interface {
        format_version: FORMAT_VERSION,
        counts,
        findings: out,
    }
}

/// The parameters' rules.
#[allow(clippy::too_many_lines)]
fn parameters(o: &Side, n: &Side, out: &mut Vec<Finding>) {
    let mut names: indexmap::IndexSet<&String> = n.params.parameters.keys().collect();
    names.extend(o.params.parameters.keys());
    for name in names {
        let (before, after) = (o.info(name), n.info(name));
        let set = n.env_sets(name);
        let set_at = set.as_ref().map(|(_, s, _)| s.clone());
        match (before, after) {
            (None, Some(a)) => {
                let mut f = if a.required_in.is_empty() {
                    finding(
                        Severity::Info,
                        Rule::Added,
                        name,
                        format!("parameter `{name}` added"),
                    )
                } else {
                    finding(
                        Severity::Breaking,
                        Rule::RequiredAdded,
                        name,
                        format!(
                            "parameter `{name}` added without a default and these environments do not give it (Heat: The Parameter ({name}) was not provided.)"
                        ),
                    )
                };
                f.after = n.declared(name, a.required_in.first().map(String::as_str));
                f.new.clone_from(&a.default);
                out.push(f);
            }
            (Some(_), None) => {
                let mut f = match &set {
                    Some(("parameters", _, _)) => finding(
                        Severity::Breaking,
                        Rule::NotDeclared,
                        name,
                        format!(
                            "`parameters` sets `{name}`, which the new composition no longer declares (Heat: The Parameter ({name}) was not defined in template.)"
                        ),
                    ),
                    Some((_, _, _)) => finding(
                        Severity::Breaking,
                        Rule::NotDeclared,
                        name,
                        format!(
                            "`parameter_defaults` sets `{name}`, which no stack of the new composition declares: Heat ignores it without a word"
                        ),
                    ),
                    None => finding(
                        Severity::Info,
                        Rule::Removed,
                        name,
                        format!("parameter `{name}` removed"),
                    ),
                };
                f.before = o.declared(name, None);
                f.set_at.clone_from(&set_at);
                f.after.clone_from(&set_at);
                f.old = set.as_ref().map(|(_, _, v)| v.clone());
                out.push(f);
            }
            (Some(b), Some(a)) => changed(o, n, name, b, a, set.as_ref(), out),
            (None, None) => {}
        }
    }
    // Keys the environments set that neither side declares are no change;
    // ones only the old side declared are found above.
}

/// One parameter both sides declare.
#[allow(clippy::too_many_lines)]
fn changed(
    old: &Side,
    new: &Side,
    name: &str,
    was: &ParameterInfo,
    now: &ParameterInfo,
    set: Option<&(&'static str, Site, J)>,
    out: &mut Vec<Finding>,
) {
    let set_at = set.map(|(_, s, _)| s.clone());
    let sites = |f: &mut Finding| {
        f.before = old.declared(name, None);
        f.after = new.declared(name, None);
        f.set_at.clone_from(&set_at);
    };
    if !now.required_in.is_empty() && was.required_in.is_empty() {
        let mut f = if was.default.is_some() && now.default.is_none() {
            finding(
                Severity::Breaking,
                Rule::DefaultRemoved,
                name,
                format!(
                    "parameter `{name}` lost its default and these environments do not give it (Heat: The Parameter ({name}) was not provided.)"
                ),
            )
        } else {
            finding(
                Severity::Breaking,
                Rule::RequiredAdded,
                name,
                format!(
                    "parameter `{name}` must now be given and these environments do not give it"
                ),
            )
        };
        f.before = old.declared(name, None);
        f.after = new.declared(name, now.required_in.first().map(String::as_str));
        f.old.clone_from(&was.default);
        out.push(f);
    }
    if let (Some(why), None) = (refused(now), refused(was)) {
        let mut f = finding(
            Severity::Breaking,
            Rule::ValueRefused,
            name,
            format!("the value the environments set for `{name}` is refused: {why}"),
        );
        sites(&mut f);
        f.new = set.map(|(_, _, v)| v.clone());
        out.push(f);
    }
    if was.type_name != now.type_name {
        let (severity, message) = if set.is_some() {
            (
                Severity::Warning,
                format!(
                    "parameter `{name}` changed type ({} → {}): the value the environments set is read as the new type",
                    was.type_name.as_deref().unwrap_or("none"),
                    now.type_name.as_deref().unwrap_or("none")
                ),
            )
        } else {
            (
                Severity::Info,
                format!(
                    "parameter `{name}` changed type ({} → {})",
                    was.type_name.as_deref().unwrap_or("none"),
                    now.type_name.as_deref().unwrap_or("none")
                ),
            )
        };
        let mut f = finding(severity, Rule::TypeChanged, name, message);
        sites(&mut f);
        f.old = was.type_name.clone().map(J::String);
        f.new = now.type_name.clone().map(J::String);
        out.push(f);
    }
    if was.constraints != now.constraints && (refused(now).is_none() || refused(was).is_some()) {
        let tighter = tightened(was.constraints.as_ref(), now.constraints.as_ref());
        let mut f = if set.is_some() && tighter {
            finding(
                Severity::Warning,
                Rule::ConstraintTightened,
                name,
                format!(
                    "parameter `{name}`'s constraints are tighter; the value the environments set still passes"
                ),
            )
        } else {
            finding(
                Severity::Info,
                Rule::ConstraintsChanged,
                name,
                format!("parameter `{name}`'s constraints changed"),
            )
        };
        sites(&mut f);
        f.old.clone_from(&was.constraints);
        f.new.clone_from(&now.constraints);
        out.push(f);
    }
    let default_removed_reported = !now.required_in.is_empty() && was.required_in.is_empty();
    if was.default != now.default && !default_removed_reported {
        let uses_default = |i: &ParameterInfo| i.values.iter().any(|v| v.source == Source::Default);
        let mut f = if set.is_none() && uses_default(was) && uses_default(now) {
            finding(
                Severity::Warning,
                Rule::DefaultChanged,
                name,
                format!(
                    "parameter `{name}`'s default changed and these environments do not set it: its value changes ({} → {})",
                    shown(was.default.as_ref()),
                    shown(now.default.as_ref())
                ),
            )
        } else {
            finding(
                Severity::Info,
                Rule::DefaultChanged,
                name,
                format!(
                    "parameter `{name}`'s default changed ({} → {}){}",
                    shown(was.default.as_ref()),
                    shown(now.default.as_ref()),
                    if set.is_some() {
                        "; the environments set it"
                    } else {
                        "; a side has no stack that takes its default"
                    }
                ),
            )
        };
        f.before = old.default_site(name);
        f.after = new.default_site(name);
        f.set_at.clone_from(&set_at);
        f.old.clone_from(&was.default);
        f.new.clone_from(&now.default);
        out.push(f);
    }
    let old_set = old.env_sets(name);
    if old_set.is_some() || set.is_some() {
        let effective = |s: Option<&(&'static str, Site, J)>, i: &ParameterInfo| {
            s.map(|(_, _, v)| v.clone()).or_else(|| i.default.clone())
        };
        let (before_value, after_value) = (effective(old_set.as_ref(), was), effective(set, now));
        if before_value != after_value {
            let mut f = finding(
                Severity::Warning,
                Rule::ValueChanged,
                name,
                format!(
                    "the value of `{name}` changes ({} → {}): {}",
                    shown(before_value.as_ref()),
                    shown(after_value.as_ref()),
                    match (&old_set, set) {
                        (Some(_), Some(_)) => "the environments set another value",
                        (Some(_), None) => "the environments no longer set it; its default applies",
                        _ => "the environments now set it",
                    }
                ),
            );
            f.before = old_set
                .as_ref()
                .map(|(_, s, _)| s.clone())
                .or_else(|| old.default_site(name));
            f.after = set
                .map(|(_, s, _)| s.clone())
                .or_else(|| new.default_site(name));
            f.old = before_value;
            f.new = after_value;
            out.push(f);
        }
    }
    if new.deprecated(name) && !old.deprecated(name) {
        let mut f = if set.is_some() {
            finding(
                Severity::Warning,
                Rule::Deprecated,
                name,
                format!("parameter `{name}`, which the environments set, is now deprecated"),
            )
        } else {
            finding(
                Severity::Info,
                Rule::Deprecated,
                name,
                format!("parameter `{name}` is now deprecated"),
            )
        };
        sites(&mut f);
        out.push(f);
    }
    if was.description != now.description {
        let mut f = finding(
            Severity::Info,
            Rule::DescriptionChanged,
            name,
            format!("parameter `{name}`'s description changed"),
        );
        sites(&mut f);
        f.old = was.description.clone().map(J::String);
        f.new = now.description.clone().map(J::String);
        out.push(f);
    }
}

/// An environment file the old side read and the new side cannot (the
/// lists matched by position, or by name when their lengths differ).
fn environments(o: &Side, n: &Side, out: &mut Vec<Finding>) {
    let gone = |r: &crate::model::FileRecord| {
        r.status == crate::load::Status::Error
            && r.diagnostics.iter().any(|d| {
                matches!(
                    d.code,
                    crate::diag::codes::READ_ERROR | crate::diag::codes::NOT_FOUND
                )
            })
    };
    let (old_files, new_files) = (o.env_files, n.env_files);
    for (i, nf) in new_files.iter().enumerate() {
        if !gone(nf) {
            continue;
        }
        let file_name = |p: &str| {
            std::path::Path::new(p)
                .file_name()
                .map(|f| f.to_string_lossy().into_owned())
        };
        let of = if old_files.len() == new_files.len() {
            old_files.get(i)
        } else {
            old_files
                .iter()
                .find(|f| file_name(&f.path) == file_name(&nf.path))
        };
        let Some(of) = of.filter(|f| !gone(f)) else {
            continue;
        };
        let mut f = finding(
            Severity::Breaking,
            Rule::EnvironmentMissing,
            &nf.path,
            format!(
                "environment `{}` no longer exists{}",
                nf.path,
                nf.diagnostics
                    .first()
                    .map(|d| format!(": {}", d.message))
                    .unwrap_or_default()
            ),
        );
        f.before = Some(Site::file(&of.path));
        out.push(f);
    }
}

/// A registry entry as compared: its value as written, where, and whether
/// its template is missing.
struct Pick {
    value: String,
    site: Site,
    missing: bool,
}

fn picks(s: &Side) -> IndexMap<String, Pick> {
    let merged = s.merged;
    let catalog = s.catalog;
    let mut out = IndexMap::new();
    let top = merged.entries.iter().map(|(k, e)| (k.clone(), e));
    let per = merged.resources.iter().flat_map(|(r, m)| {
        m.iter()
            .map(move |(k, e)| (format!("resources.{r}.{k}"), e))
    });
    for (key, e) in top.chain(per) {
        let env = s.env_paths.get(e.origin.env).cloned().unwrap_or_default();
        let (value, missing) = match &e.value {
            EntryValue::Template(t) if crate::model::registry::is_template_path(&e.key) => {
                let _ = t;
                continue;
            }
            EntryValue::Template(t) => (t.clone(), catalog.file_problem(&env, t).is_some()),
            EntryValue::Alias(v) => (v.clone(), false),
            EntryValue::Glob { value, .. } => (value.clone(), false),
            EntryValue::Null => ("null".to_owned(), false),
            EntryValue::Candidates(c) => (
                c.iter()
                    .map(|c| c.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
                false,
            ),
            _ => continue,
        };
        out.insert(
            key,
            Pick {
                value,
                site: Site::at(&env, e.origin.span),
                missing,
            },
        );
    }
    out
}

/// The registry's rules.
fn registry(o: &Side, n: &Side, out: &mut Vec<Finding>) {
    let (before, after) = (picks(o), picks(n));
    for (key, a) in &after {
        let Some(b) = before.get(key) else {
            let mut f = finding(
                Severity::Info,
                Rule::RegistryAdded,
                key,
                format!("registry entry `{key}` added: `{}`", a.value),
            );
            f.after = Some(a.site.clone());
            f.new = Some(J::String(a.value.clone()));
            out.push(f);
            continue;
        };
        let mut f = if a.missing && !b.missing {
            finding(
                Severity::Breaking,
                Rule::RegistryTargetMissing,
                key,
                format!(
                    "registry entry `{key}` names `{}`, which does not exist",
                    a.value
                ),
            )
        } else if a.value != b.value {
            let disabled = if a.value == "OS::Heat::None" {
                ": the service is disabled"
            } else {
                ""
            };
            finding(
                Severity::Warning,
                Rule::RegistryChanged,
                key,
                format!(
                    "registry entry `{key}` now picks `{}` (was `{}`){disabled}",
                    a.value, b.value
                ),
            )
        } else {
            continue;
        };
        f.before = Some(b.site.clone());
        f.after = Some(a.site.clone());
        f.old = Some(J::String(b.value.clone()));
        f.new = Some(J::String(a.value.clone()));
        out.push(f);
    }
    for (key, b) in &before {
        if !after.contains_key(key) {
            let mut f = finding(
                Severity::Info,
                Rule::RegistryRemoved,
                key,
                format!("registry entry `{key}` removed (was `{}`)", b.value),
            );
            f.before = Some(b.site.clone());
            f.old = Some(J::String(b.value.clone()));
            out.push(f);
        }
    }
}

/// The outputs of the template a node instantiates (of its members', for
/// a group or chain).
fn output_names(side: &Side, node: &TreeNode) -> Option<BTreeSet<String>> {
    let of = |t: &Option<String>| {
        t.as_deref()
            .and_then(|t| side.template(t))
            .map(|t| t.outputs.keys().cloned().collect::<BTreeSet<_>>())
    };
    match node.kind {
        NodeKind::Template => of(&node.template),
        NodeKind::Group => node
            .children
            .iter()
            .map(|m| of(&m.template))
            .collect::<Option<Vec<_>>>()
            .map(|all| all.into_iter().flatten().collect()),
        NodeKind::Native => None,
    }
}

/// The template a node's outputs come from (its first member's, for a
/// group or chain).
fn output_template(node: &TreeNode) -> Option<&str> {
    match node.kind {
        NodeKind::Group => node.children.iter().find_map(|m| m.template.as_deref()),
        _ => node.template.as_deref(),
    }
}

/// The parsed text of a template of a side (through its workspace).
fn parsed(side: &Side, path: &str) -> Option<Node> {
    let text = (side.text)(path)?;
    crate::load::parse_text(&text, path, &crate::load::ParseOptions::default()).root
}

/// Every `get_attr` (`Fn::GetAtt`) in `node` whose resource is `resource`
/// and whose attribute is `attr` (directly, `resource.N`, `attr`, or
/// `resource.N.attr` of a group), with where it is.
fn reads(node: &Node, resource: &str, attr: &str, out: &mut Vec<Span>) {
    match &node.value {
        Value::Map(m) => {
            for (k, v) in &m.entries {
                if matches!(k.value.as_str(), Some("get_attr" | "Fn::GetAtt")) {
                    if let Some(args) = v.as_seq() {
                        let text: Vec<&str> = args.iter().filter_map(Node::as_str).collect();
                        let hit = text.first() == Some(&resource)
                            && match text.get(1) {
                                Some(a) if *a == attr => true,
                                Some(a) if a.starts_with("resource.") => {
                                    text.get(2) == Some(&attr)
                                        || a.rsplit_once('.').is_some_and(|(r, x)| {
                                            x == attr && r.matches('.').count() == 1
                                        })
                                }
                                _ => false,
                            };
                        if hit {
                            out.push(k.span);
                        }
                    }
                }
                reads(v, resource, attr, out);
            }
        }
        Value::Seq(items) => {
            for i in items {
                reads(i, resource, attr, out);
            }
        }
        _ => {}
    }
}

/// Where `outputs.name` is written in a parsed template.
fn output_key(root: &Node, name: &str) -> Option<Span> {
    let outputs = root.as_map()?.get("outputs")?.as_map()?;
    outputs.entry(name).map(|(k, _)| k.span)
}

/// Outputs a parent reads of a nested template that the new template no
/// longer has, compared stack by stack (resources matched by name).
fn outputs(o: &Side, n: &Side, out: &mut Vec<Finding>) {
    let (Some(old_root), Some(new_root)) = (&o.composition, &n.composition) else {
        return;
    };
    let mut seen = HashSet::new();
    stack_outputs(o, n, old_root, new_root, &mut seen, out);
}

fn stack_outputs(
    o: &Side,
    n: &Side,
    old: &TreeNode,
    new: &TreeNode,
    seen: &mut HashSet<(String, String, String)>,
    out: &mut Vec<Finding>,
) {
    let Some(parent) = new.template.as_deref() else {
        return;
    };
    let mut parent_tree: Option<Option<Node>> = None;
    for nc in &new.children {
        let Some(name) = nc.resource.as_deref() else {
            continue;
        };
        let Some(oc) = old
            .children
            .iter()
            .find(|c| c.resource.as_deref() == Some(name))
        else {
            continue;
        };
        // A template that cannot be read is reported where it is named.
        if let (Some(was), Some(now)) = (output_names(o, oc), output_names(n, nc)) {
            let lost: Vec<String> = was.difference(&now).cloned().collect();
            for attr in lost {
                let key = (parent.to_owned(), name.to_owned(), attr.clone());
                if !seen.insert(key) {
                    continue;
                }
                let tree = parent_tree.get_or_insert_with(|| parsed(n, parent));
                let Some(tree) = tree.as_ref() else {
                    continue;
                };
                let mut at = Vec::new();
                reads(tree, name, &attr, &mut at);
                let Some(first) = at.first() else {
                    continue;
                };
                let old_template = output_template(oc).unwrap_or_default();
                let span = parsed(o, old_template)
                    .and_then(|t| output_key(&t, &attr))
                    .unwrap_or_default();
                let mut f = finding(
                    Severity::Breaking,
                    Rule::OutputGone,
                    &format!("{name}.{attr}"),
                    format!(
                        "`{parent}` reads output `{attr}` of resource `{name}`, which `{}` no longer has (Heat: The Referenced Attribute ({name} {attr}) is incorrect.)",
                        output_template(nc).unwrap_or_default()
                    ),
                );
                f.before = Some(Site::at(old_template, span));
                f.after = Some(Site::at(parent, *first));
                out.push(f);
            }
        }
        if nc.kind == NodeKind::Template {
            stack_outputs(o, n, oc, nc, seen, out);
        } else if nc.kind == NodeKind::Group {
            for m in &nc.children {
                if let Some(om) = oc.children.iter().find(|c| c.resource == m.resource) {
                    stack_outputs(o, n, om, m, seen, out);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn tighter_constraints_are_told_from_looser_ones() {
        let r = |min: i64, max: i64| json!([{"range": {"min": min, "max": max}}]);
        assert!(tightened(Some(&r(1, 10)), Some(&r(2, 10))));
        assert!(tightened(Some(&r(1, 10)), Some(&r(1, 9))));
        assert!(!tightened(Some(&r(1, 10)), Some(&r(0, 11))));
        assert!(!tightened(Some(&r(1, 10)), None));
        assert!(tightened(None, Some(&r(1, 10))));
        let v = |a: J| json!([{ "allowed_values": a }]);
        assert!(tightened(
            Some(&v(json!(["a", "b"]))),
            Some(&v(json!(["a"])))
        ));
        assert!(!tightened(
            Some(&v(json!(["a"]))),
            Some(&v(json!(["a", "b"])))
        ));
        let p = json!([{"allowed_pattern": "[a-z]+"}]);
        assert!(tightened(None, Some(&p)));
        assert!(!tightened(Some(&p), Some(&p)));
    }

    #[test]
    fn long_values_are_cut_in_messages() {
        assert_eq!(shown(None), "none");
        assert_eq!(shown(Some(&json!([1, 2]))), "[1,2]");
        let long = json!("x".repeat(100));
        let cut = shown(Some(&long));
        assert_eq!(cut.chars().count(), 61);
        assert!(cut.ends_with('…'));
    }

    #[test]
    fn sites_show_as_file_line_column() {
        let s = Site {
            file: "a.yaml".into(),
            line: 3,
            column: 5,
        };
        assert_eq!(s.to_string(), "a.yaml:3:5");
        assert_eq!(Site::file("e.yaml").to_string(), "e.yaml");
    }

    #[test]
    fn group_reads_are_found() {
        let parsed = crate::load::parse_text(
            "outputs:\n  a: {value: {get_attr: [G, x]}}\n  b: {value: {get_attr: [G, resource.0, y]}}\n  c: {value: {get_attr: [G, resource.0.z]}}\n",
            "t.yaml",
            &crate::load::ParseOptions::default(),
        );
        let root = parsed.root.unwrap();
        for (attr, line) in [("x", 2), ("y", 3), ("z", 4)] {
            let mut at = Vec::new();
            reads(&root, "G", attr, &mut at);
            assert_eq!(at.len(), 1, "{attr}");
            assert_eq!(at[0].start.line, line);
        }
        let mut at = Vec::new();
        reads(&root, "H", "x", &mut at);
        assert!(at.is_empty());
    }
}
