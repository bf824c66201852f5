//! W5004 `UnmappableResourceType`.
//!
//! Its catalogue entry (`META`) says what it checks, why, and gives an
//! example; `docs/rules.md` and `heatcap rules` print it.

use crate::diag::{Code, Diagnostic};
use crate::model::registry::is_template_path;
use crate::model::{Node, Value};
use crate::validate::{Context, Rule, RuleMeta};

pub(crate) struct UnmappableResourceType;

static META: RuleMeta = RuleMeta {
    code: Code("W5004"),
    name: "UnmappableResourceType",
    summary: "a `resource_type` name no registry entry could map to the template",
    what: "Every name in `capabilities.resource_type` is a type a registry entry could map to this template: not empty, without spaces, not a template path (`x.yaml`, `x.template`: Heat uses a path directly and never looks it up in the registry), and without `*` (a `*` in a key makes a glob, or a literal key no resource type is spelled like).",
    why: "The annotation says which types a template implements (rule 1 of capabilities.md §2 excludes a candidate whose `resource_type` leaves the type out); a name no type can have makes the template unselectable for it, or documents nothing.",
    example: "`resource_type: controller.yaml`, `resource_type: OS::TripleO::*`.",
    source: "capabilities.md §1–2; heat-semantics §2.3, §2.5",
};

/// Why no registry entry could map `name` to a template, if none could.
fn problem(name: &str) -> Option<&'static str> {
    if name.trim().is_empty() {
        Some("it is empty")
    } else if name.chars().any(char::is_whitespace) {
        Some("a type name has no spaces")
    } else if is_template_path(name) {
        Some("it is a template path, which Heat uses directly rather than looking it up")
    } else if name.contains('*') {
        Some("a `*` makes a glob or a literal key, not a type a resource has")
    } else {
        None
    }
}

impl Rule for UnmappableResourceType {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
        let Some(node) = cx
            .root
            .get("capabilities")
            .and_then(Node::as_map)
            .and_then(|c| c.get("resource_type"))
        else {
            return;
        };
        let names: Vec<&Node> = match &node.value {
            Value::Seq(items) => items.iter().collect(),
            _ => vec![node],
        };
        for n in names {
            let Some(name) = n.as_str() else { continue };
            if let Some(why) = problem(name) {
                out.push(
                    Diagnostic::new(
                        META.code,
                        cx.file.path.clone(),
                        format!("`resource_type` names `{name}`, which no type can be: {why}"),
                    )
                    .at(n.span),
                );
            }
        }
    }
}
