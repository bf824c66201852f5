//! The nested composition of a root template: every resource whose type is
//! (or maps to) a template, recursively, with Heat's child-environment rules
//! (heat-semantics §3.4), group members (§3.7), its depth limit (§3.6) and
//! cycle detection. Problems are diagnostics; the walk goes on after each.

use indexmap::IndexMap;
use serde::Serialize;

use super::registry::{KeyPath, Registry};
use super::{Catalog, Implementation, Resolution, Step, StepKind};
use crate::diag::Diagnostic;
use crate::model::Template;

/// Heat's `max_nested_stack_depth`.
pub(crate) const MAX_NESTED_DEPTH: usize = 5;

pub(crate) use crate::diag::codes::{
    ANNOTATION_MISMATCH, CYCLE, MISSING_FILE, MISSING_TEMPLATE, NESTED_TOO_DEEP as TOO_DEEP,
    PROPERTY_UNSET, UNKNOWN_PROPERTY, UNRESOLVED,
};

/// One node of the composition tree.
#[derive(Debug, Clone, Serialize)]
#[non_exhaustive]
pub struct TreeNode {
    /// The resource name (`"0"` for a group member; the root has none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resource: Option<String>,
    #[serde(rename = "type")]
    /// The resource type as written.
    pub type_name: String,
    /// The template this node instantiates, as shown to the user.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub template: Option<String>,
    /// Nested stack depth (the root is 0).
    pub depth: usize,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    /// The resources it nests.
    pub children: Vec<TreeNode>,
}

/// The walked composition.
#[derive(Debug, Clone, Serialize)]
#[non_exhaustive]
pub struct Composition {
    /// The root stack.
    pub root: TreeNode,
    /// Every distinct lookup made, first-seen order (by type, and by
    /// resource where a per-resource entry decided it).
    pub resolutions: Vec<Resolution>,
    #[serde(skip)]
    /// Problems found while walking.
    pub diagnostics: Vec<Diagnostic>,
}

/// Walks the composition of `root` (a template path as the user gave it).
pub(crate) fn compose(root: &str, registry: &Registry<'_>, catalog: &dyn Catalog) -> Composition {
    let mut w = Walker {
        catalog,
        passing: None,
        defaults: registry.parameter_default_names(),
        seen: IndexMap::new(),
        diagnostics: Vec::new(),
    };
    let mut ancestry = vec![root.to_owned()];
    let children = w.template_children(root, registry, 0, &mut ancestry);
    Composition {
        root: TreeNode {
            resource: None,
            type_name: root.to_owned(),
            template: Some(root.to_owned()),
            depth: 0,
            children,
        },
        resolutions: w.seen.into_values().collect(),
        diagnostics: w.diagnostics,
    }
}

struct Walker<'c> {
    catalog: &'c dyn Catalog,
    /// The properties the resource being resolved passes to its template.
    passing: Option<Vec<String>>,
    /// The names the environments' `parameter_defaults` set (they reach
    /// every nested stack, heat-semantics §3.2).
    defaults: Vec<String>,
    seen: IndexMap<(String, Option<String>, String), Resolution>,
    diagnostics: Vec<Diagnostic>,
}

/// The registry entry that produced a template, for the child registry.
fn producing_entry(r: &Resolution) -> Option<KeyPath> {
    r.chain.iter().rev().find_map(|s| match s.kind {
        StepKind::Entry | StepKind::Chosen => Some(vec![s.key.clone()]),
        StepKind::PerResource => Some(vec![
            "resources".to_owned(),
            r.resource.clone().unwrap_or_default(),
            s.key.clone(),
        ]),
        _ => None,
    })
}

impl Walker<'_> {
    fn template_children(
        &mut self,
        path: &str,
        registry: &Registry<'_>,
        depth: usize,
        ancestry: &mut Vec<String>,
    ) -> Vec<TreeNode> {
        let Some(template) = self.catalog.template("", path).template else {
            return Vec::new();
        };
        for (target, span) in &template.get_files {
            if let Some(problem) = self.catalog.file_problem(path, target) {
                self.diagnostics.push(
                    Diagnostic::new(
                        MISSING_FILE,
                        path,
                        format!("get_file `{target}`: {problem}"),
                    )
                    .at(*span),
                );
            }
        }
        let mut children = Vec::new();
        for res in &template.resources {
            self.passing = Some(res.properties.keys().cloned().collect());
            let mut node = self.resource(
                path,
                &res.name,
                &res.type_name,
                registry,
                depth,
                ancestry,
                res.span,
            );
            if !res.members.is_empty() {
                // A group's nested stack holds one member, "0" (§3.7); a
                // chain's, one per type, "0", "1", ...
                let nested_registry = registry.child(&res.name, None);
                for (i, member) in res.members.iter().enumerate() {
                    self.passing = Some(res.member_properties.keys().cloned().collect());
                    let member_node = self.resource(
                        path,
                        &i.to_string(),
                        member,
                        &nested_registry,
                        depth + 1,
                        ancestry,
                        res.span,
                    );
                    node.children.push(member_node);
                }
            }
            children.push(node);
        }
        children
    }

    #[allow(clippy::too_many_arguments)]
    fn resource(
        &mut self,
        from: &str,
        name: &str,
        type_name: &str,
        registry: &Registry<'_>,
        depth: usize,
        ancestry: &mut Vec<String>,
        span: crate::diag::Span,
    ) -> TreeNode {
        let r = registry.lookup(type_name, Some(name), Some(from));
        // Lookups depend on the stack's registry (child environments), so
        // each distinct outcome is kept: by type, by resource where a
        // per-resource entry decided, and by result.
        let per_resource = r.chain.iter().any(|s| s.kind == StepKind::PerResource);
        let outcome = format!("{:?}{:?}", r.implementation, r.error);
        let key = (
            type_name.to_owned(),
            per_resource.then(|| name.to_owned()),
            outcome,
        );
        if let Some(e) = &r.error {
            if !self.seen.contains_key(&key) {
                self.diagnostics.push(
                    Diagnostic::new(
                        UNRESOLVED,
                        from,
                        format!("resource `{name}`: {}", e.message()),
                    )
                    .at(span),
                );
            }
        }
        let template = match &r.implementation {
            Some(Implementation::Template(p)) => Some(p.clone()),
            _ => None,
        };
        let producing = producing_entry(&r);
        let first_seen = !self.seen.contains_key(&key);
        let mapping_step = r
            .chain
            .iter()
            .rev()
            .find(|s| matches!(s.kind, StepKind::Entry | StepKind::PerResource))
            .cloned();
        self.seen.entry(key).or_insert(r);
        let mut node = TreeNode {
            resource: Some(name.to_owned()),
            type_name: type_name.to_owned(),
            template: template.clone(),
            depth: depth + 1,
            children: Vec::new(),
        };
        let Some(path) = template else { return node };
        let found = self.catalog.template("", &path);
        if found.template.is_none() {
            let why = found
                .problem
                .unwrap_or_else(|| "it is not a template".to_owned());
            self.diagnostics.push(
                Diagnostic::new(
                    MISSING_TEMPLATE,
                    from,
                    format!("resource `{name}` (`{type_name}`) maps to `{path}`: {why}"),
                )
                .at(span),
            );
            return node;
        }
        if let Some(t) = found.template {
            let at = Site { from, name, span };
            if first_seen {
                if let Some(step) = &mapping_step {
                    self.check_annotation(from, &path, t, step);
                }
            }
            if let Some(passed) = self.passing.take() {
                self.check_properties(&at, &path, t, &passed);
            }
        }
        if ancestry.contains(&path) {
            self.diagnostics.push(
                Diagnostic::new(
                    CYCLE,
                    from,
                    format!("resource `{name}` includes `{path}`, which already contains it ({} -> {path})", ancestry.join(" -> ")),
                )
                .at(span),
            );
            return node;
        }
        if depth + 1 > MAX_NESTED_DEPTH {
            self.diagnostics.push(
                Diagnostic::new(
                    TOO_DEEP,
                    from,
                    format!("resource `{name}` nests `{path}` at depth {}, beyond Heat's limit of {MAX_NESTED_DEPTH}", depth + 1),
                )
                .at(span),
            );
            return node;
        }
        let child_registry = registry.child(name, producing.as_ref());
        ancestry.push(path.clone());
        node.children = self.template_children(&path, &child_registry, depth + 1, ancestry);
        ancestry.pop();
        node
    }

    /// W7009: the entry that mapped the type names a template whose
    /// `resource_type` annotation leaves the type out.
    fn check_annotation(&mut self, from: &str, path: &str, t: &Template, step: &Step) {
        if t.resource_type.is_empty() || t.implements(&step.key) {
            return;
        }
        let mut d = Diagnostic::new(
            ANNOTATION_MISMATCH,
            step.environment.clone().unwrap_or_else(|| from.to_owned()),
            format!(
                "`{}` maps to `{path}`, whose `resource_type` ({}) does not include it",
                step.key,
                t.resource_type.join(", ")
            ),
        );
        if let Some(sp) = step.span {
            d = d.at(sp);
        }
        self.diagnostics.push(d);
    }

    /// E7007 and W7008: the properties a resource passes against its
    /// provider template's parameters (§3.2).
    fn check_properties(&mut self, at: &Site<'_>, path: &str, t: &Template, passed: &[String]) {
        let Site { from, name, span } = *at;
        // Heat checks even in plain validate: a property the provider
        // template does not declare is "Unknown Property".
        for p in passed
            .iter()
            .filter(|p| !t.parameters.iter().any(|q| &q.name == *p))
        {
            self.diagnostics.push(
                Diagnostic::new(
                    UNKNOWN_PROPERTY,
                    from,
                    format!("resource `{name}` passes property `{p}`, which `{path}` does not declare as a parameter (Heat: Unknown Property {p})"),
                )
                .at(span),
            );
        }
        // At create, a parameter with no default that neither the
        // resource nor parameter_defaults sets is "Property X not assigned".
        for q in t
            .parameters
            .iter()
            .filter(|q| q.required && !passed.contains(&q.name) && !self.defaults.contains(&q.name))
        {
            self.diagnostics.push(
                Diagnostic::new(
                    PROPERTY_UNSET,
                    from,
                    format!("resource `{name}` does not set property `{}`, which `{path}` requires: the parameter has no default and these environments' parameter_defaults give none (Heat at create: Property {} not assigned)", q.name, q.name),
                )
                .at(span),
            );
        }
    }
}

/// Where a resource is used: the template, the resource name, its span.
#[derive(Clone, Copy)]
struct Site<'a> {
    from: &'a str,
    name: &'a str,
    span: crate::diag::Span,
}
