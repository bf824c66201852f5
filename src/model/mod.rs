//! Stage 3: typed views of loaded files ([`Template`], [`Environment`]) and
//! the [`Corpus`] of every file in walk order.

pub(crate) mod capability;
pub(crate) mod catalogue;
pub(crate) mod environment;
pub(crate) mod package;
pub(crate) mod registry;

pub(crate) mod template;

use serde::Serialize;

use crate::diag::{codes, Diagnostic};
use crate::load::{FileKind, Loaded, Status};
pub(crate) use crate::node::{Mapping, Node, Value};
pub(crate) use environment::Environment;
pub(crate) use template::{Format, Template};

/// What a file holds, once classified.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
#[non_exhaustive]
pub enum Content {
    /// A HOT or CFN template. (Boxed, as the environment is: a record is
    /// moved whole as a corpus is built, and a view inline made it 680
    /// bytes.)
    Template(Box<Template>),
    /// An environment file.
    Environment(Box<Environment>),
    /// Neither (empty, broken, or another kind of file).
    None,
}

/// One file of the corpus: its status, diagnostics and typed view. The
/// parsed tree is kept only when asked for (validation needs it; the index
/// does not, so its memory grows with the index, not with the bytes read).
#[derive(Debug, Clone)]
pub struct FileRecord {
    pub path: String,
    pub explicit: bool,
    pub status: Status,
    pub kind: Option<FileKind>,
    pub reason: Option<&'static str>,
    pub diagnostics: Vec<Diagnostic>,
    pub bytes: u64,
    pub content: Content,
    pub tree: Option<Node>,
    /// Its `# heatcap:` suppression comments.
    pub(crate) directives: Vec<crate::load::suppress::Directive>,
}

impl FileRecord {
    /// Builds the typed view of a loaded file.
    pub fn from_loaded(loaded: Loaded, keep_tree: bool) -> FileRecord {
        FileRecord::from_loaded_as(loaded, keep_tree, false)
    }

    /// `from_loaded(loaded, false).slimmed()`, without building what
    /// [`FileRecord::slimmed`] drops: templates and environments are built
    /// slim ([`Template::slim_from_node`], [`Environment::slim_from_node`]),
    /// so there is nothing left to drop.
    pub fn from_loaded_slim(loaded: Loaded) -> FileRecord {
        FileRecord::from_loaded_as(loaded, false, true)
    }

    fn from_loaded_as(loaded: Loaded, keep_tree: bool, slim: bool) -> FileRecord {
        let path = loaded.source.display.clone();
        let mut diagnostics = loaded.diagnostics;
        let template = if slim {
            Template::slim_from_node
        } else {
            Template::from_node
        };
        let environment = if slim {
            Environment::slim_from_node
        } else {
            Environment::from_node
        };
        let content = match (&loaded.root, loaded.kind) {
            (Some(root), Some(kind)) => match (root.as_map(), kind) {
                (Some(m), FileKind::HotTemplate) => {
                    Content::Template(Box::new(template(&path, Format::Hot, m, &mut diagnostics)))
                }
                (Some(m), FileKind::CfnTemplate) => {
                    Content::Template(Box::new(template(&path, Format::Cfn, m, &mut diagnostics)))
                }
                (Some(m), FileKind::Environment) => {
                    Content::Environment(Box::new(environment(&path, m)))
                }
                _ => Content::None,
            },
            _ => Content::None,
        };
        // A file named on the command line that is not a Heat file deserves
        // a word; one found in a directory walk is skipped quietly.
        if loaded.source.explicit && matches!(loaded.kind, Some(FileKind::Other)) {
            let why = loaded.reason.unwrap_or("it is not a Heat file");
            diagnostics.push(Diagnostic::new(
                codes::NOT_HEAT_FILE,
                path.clone(),
                format!("not a template or an environment: {why}"),
            ));
        }
        FileRecord {
            path,
            explicit: loaded.source.explicit,
            status: loaded.status,
            kind: loaded.kind,
            reason: loaded.reason,
            diagnostics,
            bytes: loaded.bytes,
            content,
            tree: if keep_tree { loaded.root } else { None },
            directives: loaded.directives,
        }
    }

    /// The record with a slim template view (see [`Template::slim`]).
    #[must_use]
    pub fn slimmed(mut self) -> FileRecord {
        match &mut self.content {
            Content::Template(t) => t.slim(),
            Content::Environment(e) => e.slim(),
            Content::None => {}
        }
        self
    }

    /// Why a file that loaded is not a template, in a few words (for a
    /// root or nested template that cannot be used).
    pub fn not_template_reason(&self) -> String {
        match (self.kind, self.reason) {
            (Some(FileKind::Environment), _) => {
                "it is an environment file, not a template".to_owned()
            }
            (Some(FileKind::Empty) | None, _) => {
                "it is empty (no document, or only `~`, `null` or `{}`); a template is a mapping with `heat_template_version`".to_owned()
            }
            (_, Some(reason)) => format!("it is not a template: {reason}"),
            _ => "it is not a template".to_owned(),
        }
    }

    pub fn template(&self) -> Option<&Template> {
        match &self.content {
            Content::Template(t) => Some(t),
            _ => None,
        }
    }

    pub fn environment(&self) -> Option<&Environment> {
        match &self.content {
            Content::Environment(e) => Some(e),
            _ => None,
        }
    }
}

/// Every file in walk order.
#[derive(Debug, Clone, Default)]
pub struct Corpus {
    pub files: Vec<FileRecord>,
    /// Problems found while walking (missing roots, unreadable directories).
    pub walk_diagnostics: Vec<Diagnostic>,
}

impl Corpus {
    pub fn templates(&self) -> impl Iterator<Item = &Template> {
        self.files.iter().filter_map(FileRecord::template)
    }

    pub fn environments(&self) -> impl Iterator<Item = &Environment> {
        self.files.iter().filter_map(FileRecord::environment)
    }

    /// Every diagnostic, walk problems first, then per file in order.
    pub fn diagnostics(&self) -> impl Iterator<Item = &Diagnostic> {
        self.walk_diagnostics
            .iter()
            .chain(self.files.iter().flat_map(|f| f.diagnostics.iter()))
    }
}
