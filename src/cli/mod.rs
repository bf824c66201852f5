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
mod resolve_cmd;
mod rules_cmd;
mod shell_cmd;
mod validate_cmd;

use std::io::Write;

pub use args::{Cli, Command};

use crate::diag::{Diagnostic, Severity};
use crate::error::{Error, Exit};
use crate::report;
use crate::walk::Remap;

/// Runs one command: results to `out`, diagnostics to `err`.
pub fn run(cli: Cli, out: &mut dyn Write, err: &mut dyn Write) -> Result<Exit, Error> {
    let remap = config::remap(&cli.templates_root)?;
    let mut command = cli.command;
    remap_paths(&mut command, &remap);
    match command {
        Command::CapabilitiesFind(a) => introspect_cmd::find(a, &remap, out, err),
        Command::TemplateCapabilities(a) => introspect_cmd::summary(a, &remap, out, err),
        Command::Index(a) => introspect_cmd::index(a, &remap, out, err),
        Command::Resolve(a) => resolve_cmd::resolve(&a, &remap, out, err),
        Command::Options(a) => resolve_cmd::options(&a, &remap, out, err),
        Command::Export(a) => export_cmd::export(&a, &remap, out, err),
        Command::Parameters(a) => parameters_cmd::parameters(&a, &remap, out, err),
        Command::Validate(a) => validate_cmd::validate(&a, &remap, out, err),
        Command::Rules(a) => rules_cmd::rules(&a, out),
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
        Command::Validate(a) => {
            all(&mut a.paths);
            all(&mut a.environments);
        }
        Command::Rules(_) | Command::Completions(_) | Command::Man(_) => {}
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

/// Prints the diagnostics the verbosity asks for.
fn print_diagnostics<'a>(
    err: &mut dyn Write,
    diagnostics: impl IntoIterator<Item = &'a Diagnostic>,
    output: config::Output,
) -> Result<(), Error> {
    if let Some(min) = output.min_severity {
        report::write_diagnostics(err, diagnostics, min)?;
    }
    Ok(())
}
