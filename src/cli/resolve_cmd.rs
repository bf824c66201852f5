//! `heatcap resolve`: load the environments and everything they (and the
//! root template) reach, merge, look up, walk the composition, report.

use std::io::Write;

use super::args::{OptionsArgs, ParametersArgs, ParametersFormat, ResolveArgs};
use super::catalog::FsCatalog;
use super::{config, print_diagnostics};
use crate::diag::{codes, Diagnostic, Severity};
use crate::error::{Error, Exit};
use crate::load::{self, LoadOptions, Status};
use crate::model::FileRecord;
use crate::report::{self, Format};
use crate::resolve::compose::compose;
use crate::resolve::merge::{merge, EnvInput};
use crate::resolve::registry::Registry;
use crate::resolve::ResolveReport;
use crate::walk::{display, Source};

/// Loads the environment files, keeping their trees (for positions).
pub(super) fn load_environments(
    paths: &[std::path::PathBuf],
    opts: &LoadOptions,
) -> Vec<FileRecord> {
    let sources: Vec<Source> = paths
        .iter()
        .map(|p| Source {
            display: display(p),
            path: p.clone(),
            explicit: true,
            jinja: false,
        })
        .collect();
    load::load_all(&sources, opts, |l| FileRecord::from_loaded(l, true))
}

/// The environments as the resolver takes them, merged, with every
/// diagnostic so far (the files' own, and the merge's).
pub(super) fn prepare(
    envs: &[FileRecord],
) -> (
    Vec<EnvInput<'_>>,
    crate::resolve::merge::Merged,
    Vec<Diagnostic>,
) {
    let mut diagnostics = environment_diagnostics(envs);
    let inputs = env_inputs(envs);
    let merged = merge(&inputs);
    diagnostics.extend(merged.diagnostics.iter().cloned());
    (inputs, merged, diagnostics)
}

/// The environments that loaded, as the resolver takes them.
pub(super) fn env_inputs(envs: &[FileRecord]) -> Vec<EnvInput<'_>> {
    envs.iter()
        .filter(|f| f.environment().is_some())
        .filter_map(|f| {
            f.tree.as_ref().map(|root| EnvInput {
                path: &f.path,
                root,
            })
        })
        .collect()
}

/// The environments' own diagnostics, and a warning for each file given
/// with `-e` that is not an environment.
pub(super) fn environment_diagnostics(envs: &[FileRecord]) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for f in envs {
        out.extend(f.diagnostics.iter().cloned());
        let flagged = f.diagnostics.iter().any(|d| d.code == codes::NOT_HEAT_FILE);
        if f.status == Status::Ok && f.environment().is_none() && !flagged {
            out.push(Diagnostic::new(
                codes::NOT_HEAT_FILE,
                f.path.clone(),
                "given with -e but is not an environment",
            ));
        }
    }
    out
}

pub(super) fn run(
    a: &ResolveArgs,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<Exit, Error> {
    let opts = config::sized_load_options(a.max_size)?;
    let output = config::output(&a.output, Format::Table);
    let envs = load_environments(&a.environments, &opts);
    let (inputs, merged, mut diagnostics) = prepare(&envs);
    let env_paths: Vec<&str> = inputs.iter().map(|e| e.path).collect();
    let root = a.template.as_deref().map(display);
    let catalog = FsCatalog::preload(root.as_deref().as_slice(), &env_paths, &merged, &opts);
    let mut loaded: Vec<&FileRecord> = catalog.records().collect();
    loaded.sort_by(|x, y| x.path.cmp(&y.path));
    for f in loaded {
        // A missing file is reported where it is named (E7001), not here.
        let missing = |d: &&Diagnostic| {
            d.code == codes::READ_ERROR && !std::path::Path::new(&f.path).exists()
        };
        diagnostics.extend(f.diagnostics.iter().filter(|d| !missing(d)).cloned());
    }
    let registry = Registry::new(&inputs, &merged, &catalog);
    diagnostics.extend(registry.missing_targets());
    let (resolutions, tree) = if let Some(t) = &a.type_name {
        (
            vec![registry.lookup(t, a.resource.as_deref(), root.as_deref())],
            None,
        )
    } else if let Some(r) = &root {
        let c = compose(r, &registry, &catalog);
        diagnostics.extend(c.diagnostics);
        (c.resolutions, Some(c.root))
    } else {
        (registry.lookup_all(), None)
    };
    if tree.is_none() {
        // The composition walk reports its own, at the resource that failed.
        let fallback = env_paths.last().copied().unwrap_or("-");
        diagnostics.extend(resolutions.iter().filter_map(|r| r.diagnostic(fallback)));
    }
    let resolved = resolutions
        .iter()
        .all(crate::resolve::Resolution::is_resolved);
    let report_data = ResolveReport {
        environments: env_paths.iter().map(|s| (*s).to_owned()).collect(),
        requires: merged
            .requires
            .iter()
            .map(|(k, (_, v, _))| (k.clone(), v.clone()))
            .collect(),
        template: root,
        tree,
        resolutions,
        resolved,
        diagnostics,
    };
    report::render_resolve(out, &report_data, output.format, a.all)?;
    print_diagnostics(err, &report_data.diagnostics, output)?;
    let failed = !report_data.resolved
        || report_data
            .diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error);
    Ok(if failed {
        Exit::NoMatchOrFindings
    } else {
        Exit::Ok
    })
}

/// `heatcap options`: the choices a UI must offer.
pub(super) fn run_options(
    a: &OptionsArgs,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<Exit, Error> {
    let opts = config::sized_load_options(a.max_size)?;
    let output = config::output(&a.output, Format::Table);
    let envs = load_environments(&a.environments, &opts);
    let (inputs, merged, mut diagnostics) = prepare(&envs);
    let env_paths: Vec<&str> = inputs.iter().map(|e| e.path).collect();
    let catalog = FsCatalog::preload(&[], &env_paths, &merged, &opts);
    // Templates under -r DIR, by the types they declare.
    let walk_opts = crate::walk::WalkOptions {
        roots: a.directories.clone(),
        recursive: true,
        include: config::default_include(),
        exclude: globset::GlobSet::empty(),
        hidden: false,
    };
    let walked = crate::walk::walk(&walk_opts);
    diagnostics.extend(walked.diagnostics.iter().cloned());
    let dir_files = load::load_all(&walked.sources, &opts, |l| {
        FileRecord::from_loaded(l, false)
    });
    let mut annotated = crate::resolve::options::Annotated::new();
    for f in &dir_files {
        diagnostics.extend(
            f.diagnostics
                .iter()
                .filter(|d| d.severity == Severity::Error)
                .cloned(),
        );
        if let Some(t) = f.template() {
            for ty in &t.resource_type {
                annotated
                    .entry(ty.clone())
                    .or_default()
                    .push((f.path.clone(), t));
            }
        }
    }
    let choices = crate::resolve::options::options(&inputs, &merged, &catalog, &annotated);
    let report_data = crate::resolve::options::OptionsReport {
        environments: env_paths.iter().map(|s| (*s).to_owned()).collect(),
        requires: merged
            .requires
            .iter()
            .map(|(k, (_, v, _))| (k.clone(), v.clone()))
            .collect(),
        choices,
        diagnostics,
    };
    report::render_options(out, &report_data, output.format)?;
    print_diagnostics(err, &report_data.diagnostics, output)?;
    let undecided = report_data.choices.iter().any(|c| c.problem.is_some());
    let failed = undecided
        || report_data
            .diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error);
    Ok(if failed {
        Exit::NoMatchOrFindings
    } else {
        Exit::Ok
    })
}

/// Walks the composition with the choices and describes its parameters:
/// the UI-ready report and Heat's validate document.
fn parameters_report(
    a: &ParametersArgs,
) -> Result<
    (
        crate::resolve::parameters::ParametersReport,
        serde_json::Value,
    ),
    Error,
> {
    let mut choices = indexmap::IndexMap::new();
    for c in &a.choose {
        let (t, p) = c
            .split_once('=')
            .filter(|(t, p)| !t.is_empty() && !p.is_empty())
            .ok_or_else(|| Error::Usage(format!("--choose takes TYPE=PATH, got `{c}`")))?;
        choices.insert(t.to_owned(), p.to_owned());
    }
    let opts = LoadOptions::default();
    let envs = load_environments(&a.environments, &opts);
    let (inputs, merged, mut diagnostics) = prepare(&envs);
    let env_paths: Vec<&str> = inputs.iter().map(|e| e.path).collect();
    let root = display(&a.template);
    let mut roots: Vec<&str> = vec![&root];
    roots.extend(choices.values().map(String::as_str));
    let catalog = FsCatalog::preload(&roots, &env_paths, &merged, &opts);
    let registry = Registry::new(&inputs, &merged, &catalog).with_choices(choices.clone());
    diagnostics.extend(registry.missing_targets());
    let composition = compose(&root, &registry, &catalog);
    // Unset provider parameters (W7008) are what this report lists as
    // required; repeating them as warnings would only be noise.
    diagnostics.extend(
        composition
            .diagnostics
            .iter()
            .filter(|d| d.code != crate::resolve::compose::PROPERTY_UNSET)
            .cloned(),
    );
    let (tree, parameters) =
        crate::resolve::parameters::collect(&composition.root, &inputs, &catalog);
    let heat = crate::resolve::heat_validate::document(
        &composition.root,
        &inputs,
        &merged,
        &registry,
        &catalog,
    );
    let required = parameters
        .iter()
        .filter(|(_, p)| !p.required_in.is_empty())
        .map(|(n, _)| n.clone())
        .collect();
    let report_data = crate::resolve::parameters::ParametersReport {
        template: root.clone(),
        environments: env_paths.iter().map(|s| (*s).to_owned()).collect(),
        choices,
        tree,
        parameters,
        required,
        diagnostics,
    };
    Ok((report_data, heat))
}

/// `heatcap parameters --diff TYPE=A,B`: the cost of switching one choice.
fn run_parameters_diff(
    a: &ParametersArgs,
    spec: &str,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<Exit, Error> {
    let usage = || Error::Usage(format!("--diff takes TYPE=PATH_A,PATH_B, got `{spec}`"));
    let (t, pair) = spec.split_once('=').ok_or_else(usage)?;
    let (from, to) = pair.split_once(',').ok_or_else(usage)?;
    if t.is_empty() || from.is_empty() || to.is_empty() {
        return Err(usage());
    }
    let mut sides = Vec::new();
    let mut diagnostics = Vec::new();
    for path in [from, to] {
        let mut args = ParametersArgs {
            template: a.template.clone(),
            environments: a.environments.clone(),
            choose: a.choose.clone(),
            diff: None,
            format: a.format,
            output: a.output.clone(),
        };
        args.choose.push(format!("{t}={path}"));
        let (report_data, _) = parameters_report(&args)?;
        diagnostics.extend(report_data.diagnostics);
        sides.push(report_data.parameters);
    }
    let d = crate::resolve::parameters::diff(t, from, to, &sides[0], &sides[1]);
    let output = config::Output {
        format: Format::Table,
        min_severity: config::verbosity(a.output.quiet, a.output.verbose),
    };
    let f = match a.format.unwrap_or(ParametersFormat::Table) {
        ParametersFormat::Json | ParametersFormat::Heat => Format::Json,
        ParametersFormat::Yaml => Format::Yaml,
        ParametersFormat::Plain => Format::Plain,
        ParametersFormat::Table => Format::Table,
    };
    report::render_parameters_diff(out, &d, f)?;
    diagnostics.sort_by(|x, y| (&x.file, x.span).cmp(&(&y.file, y.span)));
    diagnostics.dedup();
    print_diagnostics(err, &diagnostics, output)?;
    let failed = diagnostics.iter().any(|d| d.severity == Severity::Error);
    Ok(if failed {
        Exit::NoMatchOrFindings
    } else {
        Exit::Ok
    })
}

/// `heatcap parameters`: the parameters of the chosen composition.
pub(super) fn run_parameters(
    a: &ParametersArgs,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<Exit, Error> {
    if let Some(spec) = &a.diff {
        return run_parameters_diff(a, spec, out, err);
    }
    let (report_data, heat) = parameters_report(a)?;
    let output = config::Output {
        format: Format::Table,
        min_severity: config::verbosity(a.output.quiet, a.output.verbose),
    };
    match a.format.unwrap_or(ParametersFormat::Table) {
        ParametersFormat::Heat => crate::report::json::write_line(out, &heat)?,
        other => {
            let f = match other {
                ParametersFormat::Plain => Format::Plain,
                ParametersFormat::Json => Format::Json,
                ParametersFormat::Yaml => Format::Yaml,
                _ => Format::Table,
            };
            report::render_parameters(out, &report_data, f)?;
        }
    }
    print_diagnostics(err, &report_data.diagnostics, output)?;
    let failed = report_data
        .diagnostics
        .iter()
        .any(|d| d.severity == Severity::Error);
    Ok(if failed {
        Exit::NoMatchOrFindings
    } else {
        Exit::Ok
    })
}
