//! Rules for environment files (heat-semantics §2). They read the
//! environment model ([`crate::model::Environment`]): each registry entry
//! classified once, with its positions. The problems Heat finds when it
//! loads the file (E6003–E6006) are the model's own and are reported with
//! the file's load diagnostics.

pub(crate) mod glob_in_resources;
pub(crate) mod glob_to_template;
pub(crate) mod literal_star;
pub(crate) mod missing_target;
pub(crate) mod shadowed_entry;
pub(crate) mod template_extension_ignored;

use crate::diag::Diagnostic;
use crate::model::registry::{is_template_path, EntryValue, RegistryEntry};
use crate::model::Environment;
use crate::validate::{EnvContext, RuleMeta};

/// Every entry that maps a type (top level, then per resource, in file
/// order): data (`hooks`, `restricted_actions`, `base_url`, the maps for a
/// nested stack's resources) left out.
pub(crate) fn mappings(env: &Environment) -> impl Iterator<Item = &RegistryEntry> {
    env.entries
        .iter()
        .filter(|e| !matches!(e.value, EntryValue::Data))
}

/// A finding of `meta`'s code at `span` of the environment.
pub(crate) fn finding(
    meta: &RuleMeta,
    cx: &EnvContext<'_>,
    span: crate::diag::Span,
    message: String,
) -> Diagnostic {
    Diagnostic::new(meta.code, cx.file.path.clone(), message).at(span)
}

/// Near misses of Heat's template suffixes: compared lower-cased on
/// purpose, since `.YAML` is exactly what Heat's case-sensitive test misses.
#[allow(clippy::case_sensitive_file_extension_comparisons)]
pub(crate) fn looks_like_template(s: &str) -> bool {
    let lower = s.to_ascii_lowercase();
    (lower.ends_with(".yml")
        || lower.ends_with(".yaml")
        || lower.ends_with(".template")
        || lower.ends_with(".json"))
        && !is_template_path(s)
}
