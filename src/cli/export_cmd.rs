//! `export`: a tree (or the API body) that stock Heat accepts, or nothing
//! at all while anything is unresolved.

use std::io::Write;

use super::args::ExportArgs;
use super::{config, print_diagnostics, Ui};
use crate::error::{Error, Exit};
use crate::report::{json, ExportReport, Format};
use crate::walk::{display, Remap};
use crate::Workspace;

/// `export`: exit 1 when refused (nothing written), 2 when writing fails.
pub(super) fn export(
    a: &ExportArgs,
    remap: &Remap,
    ui: &Ui,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<Exit, Error> {
    if a.format != Format::HeatApi && a.out.is_none() {
        return Err(Error::Usage(
            "--out DIR is required (or --format heat-api)".into(),
        ));
    }
    a.composition.no_stdin("export")?;
    let output = a.evaluation.diagnostics_output(Format::Plain);
    let root = display(a.composition.template());
    let files = config::composition_files(&a.rev, &a.composition)?;
    let progress = ui.progress(a.evaluation.output.quiet, "exporting");
    let ws = Workspace::builder()
        .files(files)
        .environments(&a.composition.environments)
        .roots(&[&root])
        .max_nested_depth(a.evaluation.max_nested_depth)
        .remap(remap.clone())
        .render_options(config::render_options(&a.evaluation.render))
        .open();
    let plan = ws.export(&root, a.allow_outside);
    if plan.refused() {
        drop(progress);
        print_diagnostics(err, &plan.diagnostics, output, ui)?;
        writeln!(
            err,
            "heatcap: nothing exported: resolve the errors above first"
        )?;
        return Ok(Exit::NoMatchOrFindings);
    }
    // The tree is written before anything is printed (the progress line
    // is gone by then).
    let written = match &a.out {
        Some(dir) if a.format != Format::HeatApi => Some(plan.write_tree(dir, a.force)),
        _ => None,
    };
    drop(progress);
    let outcome = match (a.format, written) {
        (Format::HeatApi, _) => Ok(json::write_line(out, &plan.heat_api_body())),
        (format, Some(result)) => result.map(|written| {
            if format == Format::Json {
                json::write_line(
                    out,
                    &ExportReport {
                        files: &written,
                        environments: &plan.environment_paths(),
                    },
                )
            } else {
                written.iter().try_for_each(|w| writeln!(out, "{w}"))
            }
        }),
        (_, None) => unreachable!("checked above"),
    };
    print_diagnostics(err, &plan.diagnostics, output, ui)?;
    match outcome {
        Ok(written) => {
            written?;
            Ok(Exit::Ok)
        }
        Err(message) => {
            writeln!(err, "heatcap: {message}")?;
            Ok(Exit::Failure)
        }
    }
}
