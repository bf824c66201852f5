//! `preview`: Heat's create preview of the chosen composition.

use std::io::Write;

use super::args::PreviewArgs;
use super::parameters_cmd::choices;
use super::{config, exit_for_errors, print_diagnostics, Ui};
use crate::error::{Error, Exit};
use crate::report::{self, json, Format};
use crate::walk::{display, Remap};
use crate::{HeatContext, Workspace};

/// The project, user and endpoint `--format heat` answers as (Heat's
/// preview shows them; offline there are none).
const TENANT: &str = "heatcap";
const USER: &str = "heatcap";
const ENDPOINT: &str = "http://localhost:8004/v1";

/// The root stack's default name: the template's file name without its
/// extension (`overcloud.yaml` → `overcloud`).
fn default_stack_name(template: &std::path::Path) -> String {
    template
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Heat's clock as `isotime` writes it (`2026-01-01T00:00:00Z`): now, or
/// `SOURCE_DATE_EPOCH` when set (reproducible output).
fn now() -> String {
    let secs = std::env::var("SOURCE_DATE_EPOCH")
        .ok()
        .and_then(|s| s.trim().parse::<u64>().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_secs())
                .unwrap_or_default()
        });
    isotime(secs)
}

/// `secs` since the epoch as Heat's `isotime` writes them.
fn isotime(secs: u64) -> String {
    let days = i64::try_from(secs / 86_400).unwrap_or_default();
    let rem = secs % 86_400;
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// `preview`: exit 1 when an error is found (Heat would refuse the
/// preview).
pub(super) fn preview(
    a: &PreviewArgs,
    remap: &Remap,
    ui: &Ui,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<Exit, Error> {
    let chosen = choices(&a.choose)?;
    config::no_stdin(
        std::iter::once(&a.composition.template().to_path_buf()).chain(&a.composition.environments),
        "preview",
    )?;
    let output = config::Output {
        format: Format::Table,
        min_severity: config::verbosity(a.evaluation.output.quiet, a.evaluation.output.verbose),
    };
    let root = display(a.composition.template());
    let name = a
        .stack_name
        .clone()
        .unwrap_or_else(|| default_stack_name(a.composition.template()));
    let progress = ui.progress(a.evaluation.output.quiet, "evaluating");
    let ws = Workspace::builder()
        .environments(&a.composition.environments)
        .roots(std::slice::from_ref(&root))
        .choices(chosen)
        .max_nested_depth(a.evaluation.max_nested_depth)
        .remap(remap.clone())
        .render_options(config::render_options(&a.evaluation.render))
        .open();
    let p = ws.preview(&root, &name);
    drop(progress);
    match a.format.unwrap_or(Format::Table) {
        Format::Heat => {
            let cx = HeatContext::new(TENANT, USER, ENDPOINT, &now());
            json::write_line(out, &Workspace::preview_heat_document(&p, &cx))?;
        }
        f => report::render_preview(out, &p, f, ui.out)?,
    }
    print_diagnostics(err, &p.diagnostics, output, ui)?;
    if p.heat_error.is_some() {
        return Ok(Exit::NoMatchOrFindings);
    }
    Ok(exit_for_errors(&p.diagnostics))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_clock_reads_as_heat_writes_it() {
        assert_eq!(isotime(1_767_225_600), "2026-01-01T00:00:00Z");
        assert_eq!(isotime(951_782_400 + 3_723), "2000-02-29T01:02:03Z");
    }

    #[test]
    fn the_stack_is_named_after_the_template() {
        assert_eq!(
            default_stack_name(std::path::Path::new("t/overcloud.yaml")),
            "overcloud"
        );
    }
}
