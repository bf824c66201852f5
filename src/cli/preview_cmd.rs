//! `preview`: Heat's create preview of the chosen composition.

use std::io::Write;

use std::path::{Path, PathBuf};

use indexmap::IndexMap;

use super::args::{EvaluationArgs, PreviewArgs};
use super::parameters_cmd::choices;
use super::{config, exit_for_errors, print_diagnostics, Ui};
use crate::error::{Error, Exit};
use crate::product::preview::Preview;
use crate::report::{self, json, Format};
use crate::walk::{display, Remap};
use crate::{HeatContext, Workspace};

/// The root stack's default name: the template's file name without its
/// extension (`overcloud.yaml` → `overcloud`).
pub(super) fn default_stack_name(template: &Path) -> String {
    template
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// The create preview of `template` with `environments` and `chosen`
/// (one side of `diff`, or `preview`'s answer), the root stack named `name`.
pub(super) fn preview_of(
    template: &Path,
    environments: &[PathBuf],
    chosen: IndexMap<String, String>,
    evaluation: &EvaluationArgs,
    remap: &Remap,
    name: &str,
) -> Preview {
    let root = display(template);
    workspace_of(template, environments, chosen, evaluation, remap).preview(&root, name)
}

/// The workspace of one composition: `template` with `environments` and
/// the choices (`preview`, and each side of `diff`).
pub(super) fn workspace_of(
    template: &Path,
    environments: &[PathBuf],
    chosen: IndexMap<String, String>,
    evaluation: &EvaluationArgs,
    remap: &Remap,
) -> Workspace {
    let root = display(template);
    Workspace::builder()
        .environments(environments)
        .roots(std::slice::from_ref(&root))
        .choices(chosen)
        .max_nested_depth(evaluation.max_nested_depth)
        .remap(remap.clone())
        .render_options(config::render_options(&evaluation.render))
        .open()
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
    a.composition.no_stdin("preview")?;
    let output = a.evaluation.diagnostics_output(Format::Table);
    let name = a
        .stack_name
        .clone()
        .unwrap_or_else(|| default_stack_name(a.composition.template()));
    let progress = ui.progress(a.evaluation.output.quiet, "evaluating");
    let p = preview_of(
        a.composition.template(),
        &a.composition.environments,
        chosen,
        &a.evaluation,
        remap,
        &name,
    );
    drop(progress);
    match a.format.unwrap_or(Format::Table) {
        Format::Heat => {
            let cx = HeatContext::offline();
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
    fn the_stack_is_named_after_the_template() {
        assert_eq!(
            default_stack_name(std::path::Path::new("t/overcloud.yaml")),
            "overcloud"
        );
    }
}
