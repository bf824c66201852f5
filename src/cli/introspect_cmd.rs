//! `capabilities-find`, `template-capabilities` and `index`: what exists.

use std::io::Write;

use super::args::{FindArgs, IndexArgs, SummaryArgs};
use super::{config, config_file, exit_for_errors, print_diagnostics, Ui};
use crate::diag::Diagnostic;
use crate::error::{Error, Exit};
use crate::report::{self, Format};
use crate::walk::Remap;
use crate::Workspace;

/// `capabilities-find`: exit 1 when nothing matches (grep's convention).
pub(super) fn find(
    a: FindArgs,
    remap: &Remap,
    ui: &Ui,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<Exit, Error> {
    let conditions = config::conditions(&a.conditions)?;
    let output = config::output(&a.query.output, Format::Plain);
    let file = config_file::load(&a.query.config, a.query.output.verbose, err)?;
    let load = config::with_stdin(
        config::at_revision(
            config::load_options(&a.query.walk.read)?,
            &a.query.walk.read.rev,
            a.paths.iter().map(std::path::PathBuf::as_path),
        )?,
        &a.paths,
    )?;
    let progress = ui.progress(a.query.output.quiet, "searching");
    let ws = Workspace::builder()
        .declared_only_for(a.query.declared_only, &conditions)
        .load_options(load)
        .walk(config::walk_options(&a.query.walk, a.paths, file.as_ref())?)
        // A file without the word cannot have the section: skip parsing it.
        .prefilter("capabilities")
        .remap(config::remap_with_file(remap, file.as_ref())?)
        .open();
    let matches = ws.find(&conditions);
    drop(progress);
    report::render_find(out, &matches, output.format, ui.out)?;
    print_diagnostics(err, ws.corpus().diagnostics(), output, ui)?;
    let exit = if matches.is_empty() {
        Exit::NoMatchOrFindings
    } else {
        Exit::Ok
    };
    ui.release(matches);
    ui.release(ws);
    Ok(exit)
}

/// `template-capabilities`: the templates given, and those the
/// environments' registries name.
pub(super) fn summary(
    a: SummaryArgs,
    remap: &Remap,
    ui: &Ui,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<Exit, Error> {
    let output = config::output(&a.query.output, Format::Json);
    let file = config_file::load(&a.query.config, a.query.output.verbose, err)?;
    let load = config::with_stdin(
        config::at_revision(
            config::load_options(&a.query.walk.read)?,
            &a.query.walk.read.rev,
            a.files
                .iter()
                .chain(&a.environments)
                .map(std::path::PathBuf::as_path),
        )?,
        a.files.iter().chain(&a.environments),
    )?;
    let progress = ui.progress(a.query.output.quiet, "reading");
    let ws = Workspace::builder()
        .declared_only(a.query.declared_only)
        .load_options(load)
        .walk(config::walk_options(&a.query.walk, a.files, file.as_ref())?)
        .environments(&a.environments)
        .registry_templates()
        .remap(config::remap_with_file(remap, file.as_ref())?)
        .open();
    drop(progress);
    if a.by_type {
        report::render_by_type(out, &ws.by_type(), output.format, ui.out)?;
    } else {
        report::render_summary(out, &ws.summary(), output.format, ui.out)?;
    }
    let mut diagnostics: Vec<Diagnostic> = ws.environment_file_diagnostics();
    diagnostics.extend(ws.corpus().diagnostics().cloned());
    print_diagnostics(err, &diagnostics, output, ui)?;
    Ok(exit_for_errors(&diagnostics))
}

/// `index`: every file, its status, kind and view.
pub(super) fn index(
    a: IndexArgs,
    remap: &Remap,
    ui: &Ui,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<Exit, Error> {
    let output = config::output(&a.query.output, Format::Json);
    let file = config_file::load(&a.query.config, a.query.output.verbose, err)?;
    let load = config::with_stdin(
        config::at_revision(
            config::load_options(&a.query.walk.read)?,
            &a.query.walk.read.rev,
            a.paths.iter().map(std::path::PathBuf::as_path),
        )?,
        &a.paths,
    )?;
    let progress = ui.progress(a.query.output.quiet, "indexing");
    let ws = Workspace::builder()
        .declared_only(a.query.declared_only)
        .load_options(load)
        .walk(config::walk_options(&a.query.walk, a.paths, file.as_ref())?)
        .remap(config::remap_with_file(remap, file.as_ref())?)
        .open();
    let index = ws.index();
    drop(progress);
    report::render_index(out, &index, output.format, ui.out)?;
    print_diagnostics(err, ws.corpus().diagnostics(), output, ui)?;
    let exit = exit_for_errors(ws.corpus().diagnostics());
    ui.release(index);
    ui.release(ws);
    Ok(exit)
}
