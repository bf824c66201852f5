//! The command line: flags ([`args`]) → a validated configuration
//! ([`config`]) → a [`Workspace`](crate::Workspace) → one question → a
//! renderer. No domain work happens here; every command file is those four
//! steps.

pub mod args;
mod catalogue_cmd;
pub mod config;
pub mod config_file;
mod diff_cmd;
mod export_cmd;
mod introspect_cmd;
mod lsp_cmd;
mod parameters_cmd;
mod preview_cmd;
mod progress;
mod render_cmd;
mod resolve_cmd;
mod resource_type_cmd;
mod rules_cmd;
mod serve_cmd;
mod shell_cmd;
pub mod terminal;
mod validate_cmd;

use std::io::Write;

pub use args::{Cli, Command};
use args::{DiffArgs, ExportArgs, ParametersArgs, PreviewArgs};
pub use terminal::Terminal;

use crate::diag::{Diagnostic, Severity};
use crate::error::{Error, Exit};
use crate::report;
use crate::walk::Remap;
use terminal::Ui;

/// Runs one command: results to `out`, diagnostics to `err`, both as in a
/// pipe (whole lines; colour only with `--color always`).
pub fn run(cli: Cli, out: &mut dyn Write, err: &mut dyn Write) -> Result<Exit, Error> {
    run_on(cli, &Terminal::default(), out, err)
}

/// [`run`] on the streams `terminal` describes: tables fit its width,
/// findings are coloured and long runs show progress where it allows.
pub fn run_on(
    cli: Cli,
    terminal: &Terminal,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<Exit, Error> {
    let ui = Ui::new(&cli.display, terminal);
    let remap = config::remap(&cli.templates_root)?;
    let mut command = cli.command;
    remap_paths(&mut command, &remap);
    let r = &remap;
    let plan_found = expand_plan(&mut command)?;
    if let Some((diagnostics, Some(min))) = &plan_found {
        report::write_diagnostics(err, diagnostics, *min, ui.err)?;
    }
    let plan_failed = plan_found
        .as_ref()
        .is_some_and(|(d, _)| d.iter().any(|d| d.severity == Severity::Error));
    // export writes nothing for a plan tripleo-common could not deploy.
    if plan_failed && matches!(command, Command::Export(_)) {
        return Ok(Exit::NoMatchOrFindings);
    }
    let exit = match command {
        Command::CapabilitiesFind(a) => introspect_cmd::find(a, r, &ui, out, err),
        Command::TemplateCapabilities(a) => introspect_cmd::summary(a, r, &ui, out, err),
        Command::Index(a) => introspect_cmd::index(a, r, &ui, out, err),
        Command::Resolve(a) => resolve_cmd::resolve(&a, r, &ui, out, err),
        Command::Options(a) => resolve_cmd::options(&a, r, &ui, out, err),
        Command::Export(a) => export_cmd::export(&a, r, &ui, out, err),
        Command::Render(a) => render_cmd::render(&a, &ui, out, err),
        Command::Parameters(a) => parameters_cmd::parameters(&a, r, &ui, out, err),
        Command::Preview(a) => preview_cmd::preview(&a, r, &ui, out, err),
        Command::Diff(a) => diff_cmd::diff(&a, r, &ui, out, err),
        Command::Validate(a) => validate_cmd::validate(&a, r, &ui, out, err),
        Command::Catalogue(a) => catalogue_cmd::catalogue(&a, r, &ui, out, err),
        Command::Rules(a) => rules_cmd::rules(&a, &ui, out),
        Command::Schema(a) => rules_cmd::schema(&a, out),
        Command::ResourceType(a) => resource_type_cmd::resource_type(&a, &ui, out, err),
        Command::Serve(a) => serve_cmd::serve(&a, err),
        Command::Lsp(a) => lsp_cmd::lsp(&a, out, err),
        Command::Completions(a) => shell_cmd::completions(&a, out),
        Command::Man(a) => shell_cmd::man(&a, out),
    }?;
    // A plan with an error fails the run, whatever the command found.
    Ok(if plan_failed && exit == Exit::Ok {
        Exit::NoMatchOrFindings
    } else {
        exit
    })
}

/// `--plan PLAN` (every command that composes): the plan's environments
/// (tripleo-common's list: files, inline `data`, `parameter_defaults`,
/// `resource_registry`; see `load::plan`) go before the `-e` ones, and its
/// `template` is the root unless `-t` is given. Done here once for every
/// command, so each sees an ordinary environment list. Returns the plan's
/// findings (its own and its `requires` against the capabilities map
/// beside it) and the verbosity to print them with.
#[allow(clippy::type_complexity)]
fn expand_plan(
    command: &mut Command,
) -> Result<Option<(Vec<Diagnostic>, Option<Severity>)>, Error> {
    let rev = revision_of(command);
    let (plan, environments, template, verbosity) = match command {
        Command::Resolve(a) => (
            a.plan.clone(),
            &mut a.environments,
            Some(&mut a.template),
            config::verbosity(a.output.quiet, a.output.verbose),
        ),
        Command::Options(a) => (
            a.plan.clone(),
            &mut a.environments,
            None,
            config::verbosity(a.output.quiet, a.output.verbose),
        ),
        Command::Parameters(ParametersArgs {
            composition: c,
            evaluation: e,
            ..
        })
        | Command::Preview(PreviewArgs {
            composition: c,
            evaluation: e,
            ..
        })
        | Command::Diff(DiffArgs {
            composition: c,
            evaluation: e,
            ..
        })
        | Command::Export(ExportArgs {
            composition: c,
            evaluation: e,
            ..
        }) => (
            c.plan.clone(),
            &mut c.environments,
            Some(&mut c.template),
            config::verbosity(e.output.quiet, e.output.verbose),
        ),
        Command::Validate(a) => (
            a.plan.clone(),
            &mut a.environments,
            None,
            config::verbosity(a.quiet, false),
        ),
        _ => return Ok(None),
    };
    let Some(path) = plan else {
        return Ok(None);
    };
    let load = crate::load::LoadOptions {
        overlay: match &rev {
            Some(rev) => {
                config::revision_files(rev, [path.as_path()], crate::load::DEFAULT_MAX_SIZE)?
            }
            None => crate::vfs::FileOverlay::default(),
        },
        ..crate::load::LoadOptions::default()
    };
    let plan = crate::workspace::open_plan(&path, &load);
    let mut diagnostics = plan.diagnostics.clone();
    diagnostics.extend(crate::workspace::plan_requirements(&plan, &load));
    let mut list: Vec<std::path::PathBuf> = plan
        .environments
        .iter()
        .map(|e| std::path::PathBuf::from(&e.path))
        .collect();
    list.append(environments);
    *environments = list;
    if let Some(t) = template {
        if t.is_none() {
            *t = plan.template.map(|(p, _)| std::path::PathBuf::from(p));
        }
        if t.is_none() {
            return Err(Error::Usage(format!(
                "the plan `{}` names no template: give -t",
                path.display()
            )));
        }
    }
    Ok(Some((diagnostics, verbosity)))
}

/// The revision a command's `--plan` is read at: `--rev`, or the new side
/// of `diff`.
fn revision_of(command: &Command) -> Option<String> {
    match command {
        Command::Resolve(a) => a.read.rev.rev.clone(),
        Command::Options(a) => a.read.rev.rev.clone(),
        Command::Validate(a) => a.walk.read.rev.rev.clone(),
        Command::Parameters(a) => a.rev.rev.clone(),
        Command::Preview(a) => a.rev.rev.clone(),
        Command::Export(a) => a.rev.rev.clone(),
        Command::Diff(a) => diff_cmd::new_side_revision(a),
        _ => None,
    }
}

/// `--templates-root` applied to the paths given on the command line
/// (TripleO's deploy commands name `-e /usr/share/…/environments/x.yaml`).
fn remap_paths(command: &mut Command, remap: &Remap) {
    if remap.is_empty() {
        return;
    }
    let all = |paths: &mut Vec<std::path::PathBuf>| {
        for p in paths.iter_mut() {
            *p = remap.apply_path(p);
        }
    };
    match command {
        Command::CapabilitiesFind(a) => all(&mut a.paths),
        Command::TemplateCapabilities(a) => {
            all(&mut a.files);
            all(&mut a.environments);
        }
        Command::Index(a) => all(&mut a.paths),
        Command::Resolve(a) => {
            all(&mut a.environments);
            a.template = a.template.as_deref().map(|t| remap.apply_path(t));
        }
        Command::Options(a) => {
            all(&mut a.environments);
            all(&mut a.directories);
        }
        Command::Export(ExportArgs { composition: c, .. })
        | Command::Parameters(ParametersArgs { composition: c, .. })
        | Command::Preview(PreviewArgs { composition: c, .. }) => {
            all(&mut c.environments);
            c.template = c.template.as_deref().map(|t| remap.apply_path(t));
        }
        Command::Diff(a) => {
            all(&mut a.composition.environments);
            all(&mut a.from_environment);
            let c = &mut a.composition;
            c.template = c.template.as_deref().map(|t| remap.apply_path(t));
            a.from_template = a.from_template.as_deref().map(|t| remap.apply_path(t));
        }
        Command::Render(a) => a.tree = remap.apply_path(&a.tree),
        Command::Validate(a) => {
            all(&mut a.paths);
            all(&mut a.environments);
        }
        Command::Catalogue(a) => {
            a.tree = remap.apply_path(&a.tree);
            all(&mut a.environments);
        }
        Command::Serve(a) => {
            all(&mut a.roots);
            all(&mut a.environments);
        }
        Command::Lsp(a) => all(&mut a.environments),
        Command::Rules(_)
        | Command::Schema(_)
        | Command::ResourceType(_)
        | Command::Completions(_)
        | Command::Man(_) => {}
    }
}

/// 1 when an error was found, else 0.
fn exit_for_errors<'a>(diagnostics: impl IntoIterator<Item = &'a Diagnostic>) -> Exit {
    if diagnostics
        .into_iter()
        .any(|d| d.severity == Severity::Error)
    {
        Exit::NoMatchOrFindings
    } else {
        Exit::Ok
    }
}

/// Prints the diagnostics the verbosity asks for, on stderr.
fn print_diagnostics<'a>(
    err: &mut dyn Write,
    diagnostics: impl IntoIterator<Item = &'a Diagnostic>,
    output: config::Output,
    ui: &Ui,
) -> Result<(), Error> {
    if let Some(min) = output.min_severity {
        report::write_diagnostics(err, diagnostics, min, ui.err)?;
    }
    Ok(())
}
