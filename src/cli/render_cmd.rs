//! `render`: a TripleO tree's Jinja sources rendered as its own
//! `tools/process-templates.py -o DIR` renders them, written whole or not
//! at all.

use std::io::Write;

use super::args::RenderCmdArgs;
use super::{config, print_diagnostics, Ui};
use crate::error::{Error, Exit};
use crate::report::Format;
use crate::walk::display;
use crate::Workspace;

/// `render`: exit 1 when rendering fails (nothing written), 2 when writing
/// fails.
pub(super) fn render(
    a: &RenderCmdArgs,
    ui: &Ui,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<Exit, Error> {
    config::no_stdin(std::iter::once(&a.tree), "render")?;
    let output = config::Output {
        format: Format::Plain,
        min_severity: config::verbosity(a.output.quiet, a.output.verbose),
    };
    let progress = ui.progress(a.output.quiet, "rendering");
    let files = match &a.rev.rev {
        Some(rev) => {
            config::revision_files(rev, [a.tree.as_path()], crate::load::DEFAULT_MAX_SIZE)?
        }
        None => crate::vfs::FileOverlay::default(),
    };
    let plan = Workspace::render_in(&a.tree, &config::render_options(&a.render), &files);
    if plan.refused() {
        drop(progress);
        print_diagnostics(err, &plan.diagnostics, output, ui)?;
        writeln!(err, "heatcap: nothing rendered: fix the errors above first")?;
        return Ok(Exit::NoMatchOrFindings);
    }
    let written = plan.write_tree(&a.out, a.force);
    drop(progress);
    print_diagnostics(err, &plan.diagnostics, output, ui)?;
    match written {
        Ok(files) => {
            for f in &files {
                writeln!(out, "{f}")?;
            }
            if !a.output.quiet {
                writeln!(
                    err,
                    "heatcap: rendered {} files into {} ({} files of the tree copied)",
                    files.len(),
                    display(&a.out),
                    plan.copied()
                )?;
            }
            Ok(Exit::Ok)
        }
        Err(message) => {
            writeln!(err, "heatcap: {message}")?;
            Ok(Exit::Failure)
        }
    }
}
