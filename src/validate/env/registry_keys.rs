//! W6007 `TemplateExtensionIgnored`, W6008 `GlobToTemplate`, W6009
//! `LiteralStar`, W6010 `GlobInResources`: registry entries Heat reads
//! differently from what they look like (heat-semantics §2.3, §2.5).
//!
//! What they check: a target ending `.yml` (or `.YAML`: the test is
//! case-sensitive) is a type alias to Heat, not a template; a glob mapped to
//! a template never matches anything; a `*` that is not the last character
//! is literal; a glob under `resources:` is ignored for type mapping.
//!
//! Why: each silently does something other than intended.
//!
//! Example: `OS::TripleO::Services::*: noop.yaml`.

use crate::diag::{Code, Diagnostic};
use crate::model::Value;
use crate::resolve::choose::is_template_path;
use crate::validate::{EnvContext, EnvRule, RuleMeta};

use super::registry_entries;

pub struct TemplateExtensionIgnored;
pub struct GlobToTemplate;
pub struct LiteralStar;
pub struct GlobInResources;

static YML: RuleMeta = RuleMeta {
    code: Code("W6007"),
    name: "TemplateExtensionIgnored",
    summary: "a registry target looks like a template but does not end in `.yaml` or `.template` (Heat takes it for a type)",
    source: "heat-semantics §2.3 (case-sensitive suffix test)",
};
static GLOB_TEMPLATE: RuleMeta = RuleMeta {
    code: Code("W6008"),
    name: "GlobToTemplate",
    summary: "a glob key mapped to a template never matches any type",
    source: "heat-semantics §2.5",
};
static STAR: RuleMeta = RuleMeta {
    code: Code("W6009"),
    name: "LiteralStar",
    summary: "a `*` that is not the last character of a key is literal, not a wildcard",
    source: "heat-semantics §2.5",
};
static RESOURCES_GLOB: RuleMeta = RuleMeta {
    code: Code("W6010"),
    name: "GlobInResources",
    summary: "a glob key under `resources:` is ignored for type mapping",
    source: "heat-semantics §2.5",
};

/// Near misses of Heat's template suffixes: compared lower-cased on
/// purpose, since `.YAML` is exactly what Heat's case-sensitive test misses.
#[allow(clippy::case_sensitive_file_extension_comparisons)]
fn looks_like_template(s: &str) -> bool {
    let lower = s.to_ascii_lowercase();
    (lower.ends_with(".yml") || lower.ends_with(".yaml") || lower.ends_with(".template"))
        && !is_template_path(s)
}

fn finding(
    meta: &RuleMeta,
    cx: &EnvContext<'_>,
    span: crate::diag::Span,
    message: String,
) -> Diagnostic {
    Diagnostic::new(meta.code, cx.file.path.clone(), message).at(span)
}

impl EnvRule for TemplateExtensionIgnored {
    fn meta(&self) -> &'static RuleMeta {
        &YML
    }
    fn check(&self, cx: &EnvContext<'_>, out: &mut Vec<Diagnostic>) {
        for (_, v, _) in registry_entries(cx.root) {
            let targets: Vec<&crate::model::Node> = match &v.value {
                Value::Seq(items) => items.iter().collect(),
                _ => vec![v],
            };
            for t in targets {
                if let Some(s) = t.value.as_str().filter(|s| looks_like_template(s)) {
                    out.push(finding(&YML, cx, t.span, format!("`{s}` is not a template to Heat (only `.yaml` and `.template` are); it is looked up as a type")));
                }
            }
        }
    }
}

impl EnvRule for GlobToTemplate {
    fn meta(&self) -> &'static RuleMeta {
        &GLOB_TEMPLATE
    }
    fn check(&self, cx: &EnvContext<'_>, out: &mut Vec<Diagnostic>) {
        for (k, v, nested) in registry_entries(cx.root) {
            let key = k.value.key_text();
            if !nested && key.ends_with('*') && v.value.as_str().is_some_and(is_template_path) {
                out.push(finding(
                    &GLOB_TEMPLATE,
                    cx,
                    k.span,
                    format!(
                        "`{key}` maps to a template, so it matches only the literal type `{key}`"
                    ),
                ));
            }
        }
    }
}

impl EnvRule for LiteralStar {
    fn meta(&self) -> &'static RuleMeta {
        &STAR
    }
    fn check(&self, cx: &EnvContext<'_>, out: &mut Vec<Diagnostic>) {
        for (k, _, _) in registry_entries(cx.root) {
            let key = k.value.key_text();
            if key.trim_end_matches('*').contains('*') {
                out.push(finding(
                    &STAR,
                    cx,
                    k.span,
                    format!("the `*` in `{key}` is literal; only a trailing `*` is a wildcard"),
                ));
            }
        }
    }
}

impl EnvRule for GlobInResources {
    fn meta(&self) -> &'static RuleMeta {
        &RESOURCES_GLOB
    }
    fn check(&self, cx: &EnvContext<'_>, out: &mut Vec<Diagnostic>) {
        for (k, _, nested) in registry_entries(cx.root) {
            let key = k.value.key_text();
            if nested && key.ends_with('*') && key.contains("::") {
                out.push(finding(&RESOURCES_GLOB, cx, k.span, format!("`{key}` under `resources:` is not a wildcard: per-resource entries match exact types only")));
            }
        }
    }
}
