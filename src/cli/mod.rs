//! The command line: flags ([`args`]) → a validated configuration
//! ([`config`]) → a [`Workspace`](crate::Workspace) → one question → a
//! renderer. No domain work happens here; every command file is those four
//! steps.

pub mod args;
pub mod config;
pub mod config_file;
mod export_cmd;
mod introspect_cmd;
mod parameters_cmd;
mod progress;
mod render_cmd;
mod resolve_cmd;
mod resource_type_cmd;
mod rules_cmd;
mod shell_cmd;
pub mod terminal;
mod validate_cmd;

use std::io::Write;

pub use args::{Cli, Command};
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
    match command {
        Command::CapabilitiesFind(a) => introspect_cmd::find(a, r, &ui, out, err),
        Command::TemplateCapabilities(a) => introspect_cmd::summary(a, r, &ui, out, err),
        Command::Index(a) => introspect_cmd::index(a, r, &ui, out, err),
        Command::Resolve(a) => resolve_cmd::resolve(&a, r, &ui, out, err),
        Command::Options(a) => resolve_cmd::options(&a, r, &ui, out, err),
        Command::Export(a) => export_cmd::export(&a, r, &ui, out, err),
        Command::Render(a) => render_cmd::render(&a, &ui, out, err),
        Command::Parameters(a) => parameters_cmd::parameters(&a, r, &ui, out, err),
        Command::Validate(a) => validate_cmd::validate(&a, r, &ui, out, err),
        Command::Rules(a) => rules_cmd::rules(&a, &ui, out),
        Command::Schema(a) => rules_cmd::schema(&a, out),
        Command::ResourceType(a) => resource_type_cmd::resource_type(&a, &ui, out, err),
        Command::Completions(a) => shell_cmd::completions(&a, out),
        Command::Man(a) => shell_cmd::man(&a, out),
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
        Command::Export(a) => {
            all(&mut a.environments);
            a.template = remap.apply_path(&a.template);
        }
        Command::Parameters(a) => {
            all(&mut a.environments);
            a.template = remap.apply_path(&a.template);
        }
        Command::Render(a) => a.tree = remap.apply_path(&a.tree),
        Command::Validate(a) => {
            all(&mut a.paths);
            all(&mut a.environments);
        }
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
