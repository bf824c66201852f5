//! `export`: a tree (or the API body) that stock Heat accepts, or nothing
//! at all while anything is unresolved.

use std::io::Write;

use super::args::ExportArgs;
use super::{config, print_diagnostics};
use crate::error::{Error, Exit};
use crate::report::{json, Format};
use crate::walk::{display, Remap};
use crate::Workspace;

/// `export`: exit 1 when refused (nothing written), 2 when writing fails.
pub(super) fn export(
    a: &ExportArgs,
    remap: &Remap,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<Exit, Error> {
    if a.format != Format::HeatApi && a.out.is_none() {
        return Err(Error::Usage(
            "--out DIR is required (or --format heat-api)".into(),
        ));
    }
    config::no_stdin(
        std::iter::once(&a.template).chain(&a.environments),
        "export",
    )?;
    let output = config::Output {
        format: Format::Plain,
        min_severity: config::verbosity(a.output.quiet, a.output.verbose),
    };
    let root = display(&a.template);
    let ws = Workspace::builder()
        .environments(&a.environments)
        .roots(&[&root])
        .max_nested_depth(a.max_nested_depth)
        .remap(remap.clone())
        .open();
    let plan = ws.export(&root, a.allow_outside);
    if plan.refused() {
        print_diagnostics(err, &plan.diagnostics, output)?;
        writeln!(
            err,
            "heatcap: nothing exported: resolve the errors above first"
        )?;
        return Ok(Exit::NoMatchOrFindings);
    }
    let outcome = match (a.format, &a.out) {
        (Format::HeatApi, _) => Ok(json::write_line(out, &plan.heat_api_body())),
        (format, Some(dir)) => plan.write_tree(dir, a.force).map(|written| {
            if format == Format::Json {
                json::write_line(
                    out,
                    &serde_json::json!({
                        "files": written,
                        "environments": plan.environment_paths(),
                    }),
                )
            } else {
                written.iter().try_for_each(|w| writeln!(out, "{w}"))
            }
        }),
        (_, None) => unreachable!("checked above"),
    };
    print_diagnostics(err, &plan.diagnostics, output)?;
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
