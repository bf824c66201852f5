//! Where what a position names is defined.

use crate::vfs::FileOverlay;
use std::path::{Path, PathBuf};

use crate::diag::Span;
use crate::node::Node;
use crate::resolve::Implementation;

use super::super::Workspace;
use super::{dir_of, is_environment, is_template_name, Target};

/// A place to go to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Place {
    /// The file.
    pub file: PathBuf,
    /// Where in it (`None`: its start).
    pub span: Option<Span>,
}

/// Where `target` in the document `file` (parsed as `root`) is defined:
/// declarations in the same file, files relative to it, and for a type
/// the template the workspace's environments pick.
pub(crate) fn definition(
    files: &FileOverlay,
    ws: Option<&Workspace>,
    file: &Path,
    root: &Node,
    target: &Target,
) -> Vec<Place> {
    let here = |section: &str, name: &str| {
        root.as_map()
            .and_then(|m| m.get(section))
            .and_then(Node::as_map)
            .and_then(|m| m.entry(name))
            .map(|(k, _)| Place {
                file: file.to_path_buf(),
                span: Some(k.span),
            })
    };
    match target {
        Target::Parameter(name) if !is_environment(root) => {
            here("parameters", name).into_iter().collect()
        }
        Target::Resource(name) | Target::Attribute { resource: name, .. } => {
            here("resources", name).into_iter().collect()
        }
        Target::File(path) => file_place(files, file, path).into_iter().collect(),
        Target::Type { name, resource } => {
            if is_template_name(name) {
                return file_place(files, file, name).into_iter().collect();
            }
            let Some(ws) = ws else {
                return Vec::new();
            };
            let shown = crate::walk::display(file);
            let found = ws
                .registry()
                .lookup(name, resource.as_deref(), Some(&shown));
            match found.implementation {
                Some(Implementation::Template(t)) => vec![Place {
                    file: PathBuf::from(t),
                    span: None,
                }],
                _ => Vec::new(),
            }
        }
        _ => Vec::new(),
    }
}

fn file_place(files: &FileOverlay, from: &Path, path: &str) -> Option<Place> {
    if path.is_empty() || path.contains("://") {
        return None;
    }
    let p = dir_of(from).join(path);
    files.is_file(&p).then_some(Place {
        file: p,
        span: None,
    })
}
