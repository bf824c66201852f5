//! What python-heatclient fetches from a template before it calls Heat:
//! every `type` that is a template path and every `get_file` argument, at
//! any depth (its `template_utils.resolve_template_get_files`), relative to
//! the template. `export` follows them; `validate` reports the local ones
//! that cannot be read, on every template it checks, with or without
//! environments, since the client fails on them whichever way the template
//! is used ("Could not fetch template from ...", "Could not fetch contents
//! for ...").

use super::catalog::locate;
use crate::diag::{codes, Diagnostic, Span};
use crate::model::registry::is_template_path;
use crate::model::FileRecord;
use crate::node::{Node, Value};
use crate::walk::{path_io_message, Remap};

/// What a reference is: python-heatclient reads both, with other words
/// when it cannot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    /// A `type` that is a template path (`.yaml`, `.template`).
    Template,
    /// A `get_file` argument.
    File,
}

/// Every `type` that is a template path and every `get_file` argument, at
/// any depth of a template (what python-heatclient fetches next).
pub(super) fn template_references(tree: &Node) -> Vec<(String, Span)> {
    kinded_references(tree)
        .into_iter()
        .map(|(_, target, span)| (target, span))
        .collect()
}

fn kinded_references(tree: &Node) -> Vec<(Kind, String, Span)> {
    fn walk(node: &Node, out: &mut Vec<(Kind, String, Span)>) {
        match &node.value {
            Value::Map(m) => {
                for (k, v) in &m.entries {
                    match (k.value.as_str(), &v.value) {
                        (Some("type"), Value::Str(s)) if is_template_path(s) => {
                            out.push((Kind::Template, s.to_string(), v.span));
                        }
                        (Some("get_file"), Value::Str(s)) => {
                            out.push((Kind::File, s.to_string(), v.span));
                        }
                        _ => walk(v, out),
                    }
                }
            }
            Value::Seq(items) => items.iter().for_each(|i| walk(i, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(tree, &mut out);
    out
}

/// E7001 / E7006 for each local reference of the template `record` that
/// is not a readable file (remote URLs are not fetched, so not reported).
pub(super) fn unreadable(
    record: &FileRecord,
    remap: &Remap,
    overlay: &crate::vfs::FileOverlay,
) -> Vec<Diagnostic> {
    let (Some(tree), Some(_)) = (&record.tree, record.template()) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (kind, target, span) in kinded_references(tree) {
        let Some((path, _)) = locate(&record.path, &target, remap, overlay) else {
            continue;
        };
        // The client joins URLs as text (`urljoin`): `a/../b` is `b`
        // whether or not `a` exists.
        let path = std::path::PathBuf::from(crate::walk::normalize(&path));
        if overlay.get(&path).is_some() {
            continue;
        }
        let problem = match overlay.missing_in_tree(&path) {
            Some(e) => path_io_message(&path, &e),
            None => match std::fs::metadata(&path) {
                Ok(m) if m.is_file() => continue,
                Ok(_) => "it is not a file".to_owned(),
                Err(e) => path_io_message(&path, &e),
            },
        };
        let (code, message) = match kind {
            Kind::Template => (
                codes::MISSING_TEMPLATE,
                format!(
                    "template `{target}`: {problem} (python-heatclient: Could not fetch contents)"
                ),
            ),
            Kind::File => (
                codes::MISSING_FILE,
                format!("get_file `{target}`: {problem}"),
            ),
        };
        out.push(Diagnostic::new(code, &record.path, message).at(span));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::{parse_text, ParseOptions};

    #[test]
    fn references_are_types_and_get_files_at_any_depth() {
        let text = "heat_template_version: 2016-10-14\nresources:\n  a: {type: x.yaml}\n  b:\n    type: OS::Heat::ResourceGroup\n    properties:\n      resource_def: {type: ../y.template}\n  c:\n    type: OS::X\n    properties: {config: {get_file: s.sh}, other: {type: not.yml}}\n";
        let tree = parse_text(text, "t.yaml", &ParseOptions::default())
            .root
            .unwrap();
        let refs: Vec<(Kind, String, u32)> = kinded_references(&tree)
            .into_iter()
            .map(|(k, t, s)| (k, t, s.start.line))
            .collect();
        assert_eq!(
            refs,
            [
                (Kind::Template, "x.yaml".to_owned(), 3),
                (Kind::Template, "../y.template".to_owned(), 7),
                (Kind::File, "s.sh".to_owned(), 10)
            ]
        );
    }
}
