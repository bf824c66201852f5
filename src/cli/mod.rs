//! The command line: flags ([`args`]) → a validated configuration
//! ([`config`]) → a [`Workspace`](crate::Workspace) → one question → a
//! renderer. No domain work happens here; every command file is those four
//! steps.

pub mod args;
pub mod config;
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

/// Runs one command: results to `out`, diagnostics to `err`.
pub fn run(cli: Cli, out: &mut dyn Write, err: &mut dyn Write) -> Result<Exit, Error> {
    match cli.command {
        Command::CapabilitiesFind(a) => introspect_cmd::find(a, out, err),
        Command::TemplateCapabilities(a) => introspect_cmd::summary(a, out, err),
        Command::Index(a) => introspect_cmd::index(a, out, err),
        Command::Resolve(a) => resolve_cmd::resolve(&a, out, err),
        Command::Options(a) => resolve_cmd::options(&a, out, err),
        Command::Export(a) => export_cmd::export(&a, out, err),
        Command::Parameters(a) => parameters_cmd::parameters(&a, out, err),
        Command::Validate(a) => validate_cmd::validate(&a, out, err),
        Command::Rules(a) => rules_cmd::rules(&a, out),
        Command::Completions(a) => shell_cmd::completions(&a, out),
        Command::Man(a) => shell_cmd::man(&a, out),
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
