//! `resolve` and `options`: what the environments pick, and the choices a
//! UI must offer.

use std::io::Write;

use super::args::{OptionsArgs, ResolveArgs};
use super::{config, exit_for_errors, print_diagnostics, Ui};
use crate::error::{Error, Exit};
use crate::report::{self, Format};
use crate::walk::{display, Remap};
use crate::Workspace;

/// `resolve`: exit 1 when a lookup fails or an error is found.
pub(super) fn resolve(
    a: &ResolveArgs,
    remap: &Remap,
    ui: &Ui,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<Exit, Error> {
    let output = config::output(&a.output, Format::Table);
    let root = a.template.as_deref().map(display);
    let load = config::with_stdin(
        config::at_revision(
            config::load_options(&a.read)?,
            &a.read.rev,
            a.template
                .iter()
                .chain(&a.environments)
                .chain(&a.plan)
                .map(std::path::PathBuf::as_path),
        )?,
        a.template.iter().chain(&a.environments),
    )?;
    let progress = ui.progress(a.output.quiet, "resolving");
    let ws = Workspace::builder()
        .load_options(load)
        .environments(&a.environments)
        .roots(root.as_slice())
        .max_nested_depth(a.max_nested_depth)
        .remap(remap.clone())
        .open();
    let resolved = ws.resolve(
        root.as_deref(),
        a.type_name.as_deref(),
        a.resource.as_deref(),
    );
    drop(progress);
    report::render_resolve(
        out,
        &resolved,
        output.format,
        a.all || a.type_name.is_some(),
        ui.out,
    )?;
    print_diagnostics(err, &resolved.diagnostics, output, ui)?;
    Ok(if resolved.resolved {
        exit_for_errors(&resolved.diagnostics)
    } else {
        Exit::NoMatchOrFindings
    })
}

/// `options`: exit 1 when a choice is undecided or an error is found.
pub(super) fn options(
    a: &OptionsArgs,
    remap: &Remap,
    ui: &Ui,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<Exit, Error> {
    let output = config::output(&a.output, Format::Table);
    config::no_stdin(&a.directories, "options --templates")?;
    let load = config::with_stdin(
        config::at_revision(
            config::load_options(&a.read)?,
            &a.read.rev,
            a.directories
                .iter()
                .chain(&a.environments)
                .chain(&a.plan)
                .map(std::path::PathBuf::as_path),
        )?,
        &a.environments,
    )?;
    let progress = ui.progress(a.output.quiet, "reading");
    let ws = Workspace::builder()
        .declared_only(a.declared_only)
        .load_options(load)
        .environments(&a.environments)
        .remap(remap.clone())
        .open();
    let offered = ws.options(&a.directories);
    drop(progress);
    report::render_options(out, &offered, output.format, ui.out)?;
    print_diagnostics(err, &offered.diagnostics, output, ui)?;
    Ok(if offered.choices.iter().any(|c| c.problem.is_some()) {
        Exit::NoMatchOrFindings
    } else {
        exit_for_errors(&offered.diagnostics)
    })
}
