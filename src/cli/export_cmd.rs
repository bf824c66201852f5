//! `heatcap export`: a tree (or the API body) that stock Heat accepts, or
//! nothing at all while anything is unresolved.

use std::io::Write;
use std::path::{Path, PathBuf};

use indexmap::IndexMap;

use super::args::{ExportArgs, ExportFormat};
use super::catalog::{locate, FsCatalog};
use super::resolve_cmd::{load_environments, prepare};
use super::{config, print_diagnostics};
use crate::diag::{Code, Diagnostic, Severity};
use crate::error::{Error, Exit};
use crate::load::{parse_text, LoadOptions, ParseOptions};
use crate::report::{self, json};
use crate::resolve::compose::{compose, TreeNode};
use crate::resolve::export;
use crate::resolve::registry::Registry;
use crate::resolve::{Catalog, Implementation};
use crate::walk::display;

/// A file the export needs is missing or cannot be read.
pub(crate) const EXPORT_FILE: Code = Code("E7005");

/// What to write for one file.
enum Kind {
    Template,
    Raw,
}

pub(super) fn run_export(
    a: &ExportArgs,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<Exit, Error> {
    let format = a.format;
    if format != ExportFormat::HeatApi && a.out.is_none() {
        return Err(Error::Usage(
            "--out DIR is required (or --format heat-api)".into(),
        ));
    }
    let output = config::Output {
        format: crate::report::Format::Plain,
        min_severity: config::verbosity(a.output.quiet, a.output.verbose),
    };
    let opts = LoadOptions::default();
    let envs = load_environments(&a.environments, &opts);
    let (inputs, merged, mut diagnostics) = prepare(&envs);
    let env_paths: Vec<&str> = inputs.iter().map(|e| e.path).collect();
    let root = display(&a.template);
    let catalog = FsCatalog::preload(&[&root], &env_paths, &merged, &opts);
    let registry = Registry::new(&inputs, &merged, &catalog);
    diagnostics.extend(registry.missing_targets());
    let composition = compose(&root, &registry, &catalog);
    diagnostics.extend(composition.diagnostics.iter().cloned());
    // Every registry entry must resolve too: Heat's client fetches them all.
    let fallback = env_paths.last().copied().unwrap_or("-");
    let registry_files = registry_templates(&registry, fallback, &mut diagnostics);
    if catalog.template("", &root).template.is_none() {
        diagnostics.push(Diagnostic::new(
            EXPORT_FILE,
            root.clone(),
            "the root template cannot be loaded",
        ));
    }
    let files = collect_files(&catalog, &composition.root, &registry_files);
    let failed = diagnostics.iter().any(|d| d.severity == Severity::Error);
    if failed {
        print_diagnostics(err, &diagnostics, output)?;
        writeln!(
            err,
            "heatcap: nothing exported: resolve the errors above first"
        )?;
        return Ok(Exit::NoMatchOrFindings);
    }
    // The layout of the project: the files and the environments given.
    let env_reals: Vec<PathBuf> = env_paths
        .iter()
        .filter_map(|p| std::fs::canonicalize(p).ok())
        .collect();
    let base = common_dir(files.keys().chain(&env_reals));
    let rel = |real: &Path| display(real.strip_prefix(&base).unwrap_or(real));
    let env_name = "heatcap-environment.yaml";
    let outcome = match format {
        ExportFormat::HeatApi => {
            let env = export::environment(&inputs, &merged, &registry, &|from, target| {
                real_of(from, target)
                    .map_or_else(|| target.to_owned(), |r| format!("file://{}", display(&r)))
            });
            json::write_line(
                out,
                &heat_api_body(&a.template, &files, &env, &base.join(env_name)),
            )?;
            Ok(())
        }
        ExportFormat::Plain | ExportFormat::Json => {
            let dir = a.out.as_ref().expect("checked above");
            write_tree(
                dir,
                a.force,
                &files,
                &base,
                env_name,
                &export::environment(&inputs, &merged, &registry, &|from, target| {
                    real_of(from, target).map_or_else(|| target.to_owned(), |r| rel(&r))
                }),
            )
            .map(|written| {
                let _ = match format {
                    ExportFormat::Json => json::write_line(out, &written),
                    _ => written.iter().try_for_each(|w| writeln!(out, "{w}")),
                };
            })
        }
    };
    print_diagnostics(err, &diagnostics, output)?;
    match outcome {
        Ok(()) => Ok(Exit::Ok),
        Err(message) => {
            writeln!(err, "heatcap: {message}")?;
            Ok(Exit::Failure)
        }
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
    catalog: &FsCatalog,
    root: &TreeNode,
    registry_files: &[String],
) -> IndexMap<PathBuf, (String, Kind)> {
    let mut files: IndexMap<PathBuf, (String, Kind)> = IndexMap::new();
    let mut templates = Vec::new();
    tree_templates(root, &mut templates);
    for shown in templates.iter().chain(registry_files) {
        if let Some((p, _)) = locate("", shown) {
            let real = std::fs::canonicalize(&p).unwrap_or(p);
            files.entry(real).or_insert((shown.clone(), Kind::Template));
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
                files.entry(real).or_insert((target_shown, Kind::Raw));
            }
        }
    }
    files
}

/// python-heatclient's stack-create body: `template`, `files`,
/// `environment`, `environment_files`, with paths as `file://` URLs.
fn heat_api_body(
    root_template: &Path,
    files: &IndexMap<PathBuf, (String, Kind)>,
    env: &serde_json::Value,
    env_location: &Path,
) -> serde_json::Value {
    let url = |real: &Path| format!("file://{}", display(real));
    let mut body_files = serde_json::Map::new();
    let mut template = serde_json::Value::Null;
    let root_real =
        std::fs::canonicalize(root_template).unwrap_or_else(|_| root_template.to_path_buf());
    for (real, (shown, kind)) in files {
        let text = std::fs::read_to_string(real).unwrap_or_default();
        match kind {
            Kind::Template => {
                let Some(tree) = parse_text(&text, shown, &ParseOptions::default()).root else {
                    continue;
                };
                let mut v = export::without_capabilities(&tree);
                export::rewrite_template_paths(&mut v, &|p| {
                    real_of(shown, p).map_or_else(|| p.to_owned(), |r| url(&r))
                });
                if *real == root_real {
                    template = v;
                } else {
                    body_files.insert(url(real), serde_json::Value::String(json::to_string(&v)));
                }
            }
            Kind::Raw => {
                body_files.insert(url(real), serde_json::Value::String(text));
            }
        }
    }
    let env_url = url(env_location);
    body_files.insert(
        env_url.clone(),
        serde_json::Value::String(json::to_string(&env)),
    );
    serde_json::json!({
        "template": template,
        "files": body_files,
        "environment": env.clone(),
        "environment_files": [env_url],
    })
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

/// Writes the exported tree; returns the paths written (relative to `dir`).
fn write_tree(
    dir: &Path,
    force: bool,
    files: &IndexMap<PathBuf, (String, Kind)>,
    base: &Path,
    env_name: &str,
    env: &serde_json::Value,
) -> Result<Vec<String>, String> {
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
    for (real, (shown, kind)) in files {
        let rel = real.strip_prefix(base).unwrap_or(real);
        if rel == Path::new(env_name) {
            return Err(format!(
                "`{shown}` would be overwritten by the exported environment"
            ));
        }
        let target = dir.join(rel);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent).map_err(|e| io(parent, e))?;
        }
        match kind {
            Kind::Template => {
                let text = std::fs::read_to_string(real).map_err(|e| io(real, e))?;
                let tree = parse_text(&text, shown, &ParseOptions::default()).root;
                let content = tree
                    .as_ref()
                    .and_then(|t| export::strip_section(&text, t, "capabilities"))
                    .or_else(|| {
                        tree.as_ref()
                            .map(|t| json::to_string(&export::without_capabilities(t)) + "\n")
                    })
                    .unwrap_or(text);
                std::fs::write(&target, content).map_err(|e| io(&target, e))?;
            }
            Kind::Raw => {
                std::fs::copy(real, &target).map_err(|e| io(&target, e))?;
            }
        }
        written.push(display(rel));
    }
    let env_path = dir.join(env_name);
    let mut text = Vec::new();
    report::yaml::write(&mut text, env).map_err(|e| io(&env_path, e))?;
    std::fs::write(&env_path, text).map_err(|e| io(&env_path, e))?;
    written.push(env_name.to_owned());
    Ok(written)
}
