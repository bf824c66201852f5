//! The file-system side of `export`: which files stock Heat needs for a
//! composition (its templates, every template the registry names, every
//! `get_file` target), where they go, and how they are written. The
//! transformations of their content are [`crate::product::export`]'s.

use std::path::{Path, PathBuf};

use indexmap::IndexMap;

use super::catalog::locate;
use super::Workspace;
use crate::diag::{codes, Diagnostic, Severity};
use crate::encode::{json, yaml};
use crate::load::{parse_text, ParseOptions};
use crate::product::export as transform;
use crate::resolve::compose::TreeNode;
use crate::resolve::registry::Registry;
use crate::resolve::{Catalog, Implementation};
use crate::walk::display;

/// What to write for one file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ExportFile {
    /// A template: written without `capabilities`.
    Template,
    /// Any other file (a `get_file` target): copied as it is.
    Raw,
}

/// A planned export: the files (by real path, with how they are shown),
/// the environment stock Heat is given, and the errors that refuse it.
#[non_exhaustive]
pub struct Export {
    /// Real path → (path as shown, what it is).
    pub files: IndexMap<PathBuf, (String, ExportFile)>,
    /// Every diagnostic; an error refuses the export.
    pub diagnostics: Vec<Diagnostic>,
    /// The deepest directory holding every file and environment.
    pub base: PathBuf,
    /// The environment with template paths relative to `base`.
    pub environment: serde_json::Value,
    /// The environment with template paths as `file://` URLs.
    pub api_environment: serde_json::Value,
    /// The root template as given.
    pub root: String,
}

/// The name of the exported environment file.
pub(super) const ENVIRONMENT_NAME: &str = "heatcap-environment.yaml";

/// Plans the export of the composition of `root`.
pub(super) fn plan(ws: &Workspace, root: &str) -> Export {
    let mut diagnostics = ws.environment_diagnostics();
    if ws.environment_broken() {
        return Export {
            files: IndexMap::new(),
            diagnostics,
            base: PathBuf::new(),
            environment: serde_json::Value::Null,
            api_environment: serde_json::Value::Null,
            root: root.to_owned(),
        };
    }
    let registry = ws.registry();
    diagnostics.extend(registry.missing_targets());
    let composition = ws.compose(root);
    diagnostics.extend(composition.diagnostics.iter().cloned());
    // Every registry entry must resolve too: Heat's client fetches them all.
    let registry_files = registry_templates(&registry, ws.last_environment(), &mut diagnostics);
    let found = ws.catalog.template("", root);
    if found.template.is_none() {
        let why = found
            .problem
            .unwrap_or_else(|| "it is not a template".to_owned());
        diagnostics.push(Diagnostic::new(
            codes::EXPORT_FILE,
            root,
            format!("the root template cannot be loaded: {why}"),
        ));
    }
    let files = collect_files(&ws.catalog, &composition.root, &registry_files);
    let env_reals: Vec<PathBuf> = ws
        .environments
        .iter()
        .filter_map(|e| std::fs::canonicalize(&e.path).ok())
        .collect();
    let base = common_dir(files.keys().chain(&env_reals));
    let rel = |real: &Path| display(real.strip_prefix(&base).unwrap_or(real));
    let environment =
        transform::environment(&ws.environments, &ws.merged, &registry, &|from, target| {
            real_of(from, target).map_or_else(|| target.to_owned(), |r| rel(&r))
        });
    let api_environment =
        transform::environment(&ws.environments, &ws.merged, &registry, &|from, target| {
            real_of(from, target)
                .map_or_else(|| target.to_owned(), |r| format!("file://{}", display(&r)))
        });
    Export {
        files,
        diagnostics,
        base,
        environment,
        api_environment,
        root: root.to_owned(),
    }
}

impl Export {
    /// True when an error refuses the export (nothing is written).
    pub fn refused(&self) -> bool {
        self.diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error)
    }

    /// python-heatclient's stack-create body: `template`, `files`,
    /// `environment`, `environment_files`, with paths as `file://` URLs.
    pub fn heat_api_body(&self) -> serde_json::Value {
        let url = |real: &Path| format!("file://{}", display(real));
        let mut body_files = serde_json::Map::new();
        let mut template = serde_json::Value::Null;
        let root_real =
            std::fs::canonicalize(&self.root).unwrap_or_else(|_| PathBuf::from(&self.root));
        for (real, (shown, kind)) in &self.files {
            let text = std::fs::read_to_string(real).unwrap_or_default();
            match kind {
                ExportFile::Template => {
                    let Some(tree) = parse_text(&text, shown, &ParseOptions::default()).root else {
                        continue;
                    };
                    let mut v = transform::without_capabilities(&tree);
                    transform::rewrite_template_paths(&mut v, &|p| {
                        real_of(shown, p).map_or_else(|| p.to_owned(), |r| url(&r))
                    });
                    if *real == root_real {
                        template = v;
                    } else {
                        body_files
                            .insert(url(real), serde_json::Value::String(json::to_string(&v)));
                    }
                }
                ExportFile::Raw => {
                    body_files.insert(url(real), serde_json::Value::String(text));
                }
            }
        }
        let env_url = url(&self.base.join(ENVIRONMENT_NAME));
        body_files.insert(
            env_url.clone(),
            serde_json::Value::String(json::to_string(&self.api_environment)),
        );
        serde_json::json!({
            "template": template,
            "files": body_files,
            "environment": self.api_environment.clone(),
            "environment_files": [env_url],
        })
    }

    /// Writes the exported tree into `dir` (which must be empty unless
    /// `force`); returns the paths written, relative to `dir`.
    pub fn write_tree(&self, dir: &Path, force: bool) -> Result<Vec<String>, String> {
        if dir.exists() && std::fs::read_dir(dir).is_ok_and(|mut d| d.next().is_some()) && !force {
            return Err(format!(
                "`{}` is not empty; use --force to write into it",
                display(dir)
            ));
        }
        let io = |p: &Path, e: std::io::Error| {
            format!(
                "cannot write `{}`: {}",
                display(p),
                crate::walk::io_message(&e)
            )
        };
        let mut written = Vec::new();
        for (real, (shown, kind)) in &self.files {
            let rel = real.strip_prefix(&self.base).unwrap_or(real);
            if rel == Path::new(ENVIRONMENT_NAME) {
                return Err(format!(
                    "`{shown}` would be overwritten by the exported environment"
                ));
            }
            let target = dir.join(rel);
            if let Some(parent) = target.parent() {
                std::fs::create_dir_all(parent).map_err(|e| io(parent, e))?;
            }
            match kind {
                ExportFile::Template => {
                    let text = std::fs::read_to_string(real).map_err(|e| io(real, e))?;
                    let tree = parse_text(&text, shown, &ParseOptions::default()).root;
                    let content = tree
                        .as_ref()
                        .and_then(|t| transform::strip_section(&text, t, "capabilities"))
                        .or_else(|| {
                            tree.as_ref().map(|t| {
                                json::to_string(&transform::without_capabilities(t)) + "\n"
                            })
                        })
                        .unwrap_or(text);
                    std::fs::write(&target, content).map_err(|e| io(&target, e))?;
                }
                ExportFile::Raw => {
                    std::fs::copy(real, &target).map_err(|e| io(&target, e))?;
                }
            }
            written.push(display(rel));
        }
        let env_path = dir.join(ENVIRONMENT_NAME);
        let mut text = Vec::new();
        yaml::write(&mut text, &self.environment).map_err(|e| io(&env_path, e))?;
        std::fs::write(&env_path, text).map_err(|e| io(&env_path, e))?;
        written.push(ENVIRONMENT_NAME.to_owned());
        Ok(written)
    }
}

/// Looks up every registry entry: the templates they name, and a
/// diagnostic for each that does not resolve.
fn registry_templates(
    registry: &Registry<'_>,
    fallback: &str,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<String> {
    let mut files = Vec::new();
    for r in registry.lookup_all() {
        match (&r.implementation, r.diagnostic(fallback)) {
            (_, Some(d)) => diagnostics.push(d),
            (Some(Implementation::Template(p)), None) => files.push(p.clone()),
            _ => {}
        }
    }
    files
}

/// The files to export: the composition's templates, the registry's, and
/// every `get_file` target of those templates.
fn collect_files(
    catalog: &super::FsCatalog,
    root: &TreeNode,
    registry_files: &[String],
) -> IndexMap<PathBuf, (String, ExportFile)> {
    let mut files: IndexMap<PathBuf, (String, ExportFile)> = IndexMap::new();
    let mut templates = Vec::new();
    tree_templates(root, &mut templates);
    for shown in templates.iter().chain(registry_files) {
        if let Some((p, _)) = locate("", shown) {
            let real = std::fs::canonicalize(&p).unwrap_or(p);
            files
                .entry(real)
                .or_insert((shown.clone(), ExportFile::Template));
        }
    }
    // get_file targets (a missing one is reported by the composition walk).
    for shown in templates.iter().chain(registry_files) {
        let Some(t) = catalog.template("", shown).template else {
            continue;
        };
        for (target, _) in &t.get_files {
            if let Some(real) = real_of(shown, target) {
                let target_shown = locate(shown, target).map_or_else(|| target.clone(), |(_, s)| s);
                files.entry(real).or_insert((target_shown, ExportFile::Raw));
            }
        }
    }
    files
}

/// The real path `target` names from `from`, when it exists.
fn real_of(from: &str, target: &str) -> Option<PathBuf> {
    let (p, _) = locate(from, target)?;
    std::fs::canonicalize(p).ok()
}

fn tree_templates(node: &TreeNode, out: &mut Vec<String>) {
    if let Some(t) = &node.template {
        out.push(t.clone());
    }
    for c in &node.children {
        tree_templates(c, out);
    }
}

/// The deepest directory containing every file.
fn common_dir<'a>(paths: impl Iterator<Item = &'a PathBuf>) -> PathBuf {
    let mut common: Option<PathBuf> = None;
    for p in paths {
        let dir = p.parent().unwrap_or(Path::new("/")).to_path_buf();
        common = Some(match common {
            None => dir,
            Some(c) => {
                let mut acc = PathBuf::new();
                for (x, y) in c.components().zip(dir.components()) {
                    if x != y {
                        break;
                    }
                    acc.push(x);
                }
                acc
            }
        });
    }
    common.unwrap_or_default()
}
