//! `parameters`: every parameter of the chosen composition, or what
//! switching one choice costs (`--diff`).

use std::io::Write;

use indexmap::IndexMap;

use super::args::ParametersArgs;
use super::{config, exit_for_errors, print_diagnostics, Ui};
use crate::error::{Error, Exit};
use crate::report::{self, json, Format};
use crate::walk::{display, Remap};
use crate::workspace::heat_resource_tree;
use crate::Workspace;

/// `--choose TYPE=PATH` flags.
pub(super) fn choices(raw: &[String]) -> Result<IndexMap<String, String>, Error> {
    let mut choices = IndexMap::new();
    for c in raw {
        let (t, p) = c
            .split_once('=')
            .filter(|(t, p)| !t.is_empty() && !p.is_empty())
            .ok_or_else(|| Error::Usage(format!("--choose takes TYPE=PATH, got `{c}`")))?;
        choices.insert(t.to_owned(), p.to_owned());
    }
    Ok(choices)
}

fn workspace(
    a: &ParametersArgs,
    choices: IndexMap<String, String>,
    remap: &Remap,
    files: crate::vfs::FileOverlay,
) -> Workspace {
    Workspace::builder()
        .files(files)
        .environments(&a.composition.environments)
        .roots(&[display(a.composition.template())])
        .choices(choices)
        .max_nested_depth(a.evaluation.max_nested_depth)
        .remap(remap.clone())
        .render_options(config::render_options(&a.evaluation.render))
        .open()
}

/// `parameters`: exit 1 when an error is found.
pub(super) fn parameters(
    a: &ParametersArgs,
    remap: &Remap,
    ui: &Ui,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<Exit, Error> {
    let chosen = choices(&a.choose)?;
    a.composition.no_stdin("parameters")?;
    let output = a.evaluation.diagnostics_output(Format::Table);
    if let Some(spec) = &a.diff {
        return parameters_diff(a, &chosen, spec, remap, ui, out, err);
    }
    let root = display(a.composition.template());
    let progress = ui.progress(a.evaluation.output.quiet, "evaluating");
    let files = config::composition_files(&a.rev, &a.composition)?;
    let (described, heat) = workspace(a, chosen, remap, files).parameters(&root);
    drop(progress);
    match a.format.unwrap_or(Format::Table) {
        Format::Heat => json::write_line(out, &heat)?,
        Format::HeatResourceTree => {
            let own = a.composition.plan.as_deref().map(|p| {
                crate::workspace::plan_parameter_defaults(p, &crate::load::LoadOptions::default())
            });
            json::write_line(out, &heat_resource_tree(&heat, own.as_ref()))?;
        }
        f => report::render_parameters(out, &described, f, ui.out)?,
    }
    print_diagnostics(err, &described.diagnostics, output, ui)?;
    Ok(exit_for_errors(&described.diagnostics))
}

/// `parameters --diff TYPE=A,B`: the cost of switching one choice.
fn parameters_diff(
    a: &ParametersArgs,
    chosen: &IndexMap<String, String>,
    spec: &str,
    remap: &Remap,
    ui: &Ui,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<Exit, Error> {
    let output = a.evaluation.diagnostics_output(Format::Table);
    let usage = || Error::Usage(format!("--diff takes TYPE=PATH_A,PATH_B, got `{spec}`"));
    let (t, pair) = spec.split_once('=').ok_or_else(usage)?;
    let (from, to) = pair.split_once(',').ok_or_else(usage)?;
    if t.is_empty() || from.is_empty() || to.is_empty() {
        return Err(usage());
    }
    let base = Workspace::builder()
        .files(config::composition_files(&a.rev, &a.composition)?)
        .environments(&a.composition.environments)
        .choices(chosen.clone())
        .max_nested_depth(a.evaluation.max_nested_depth)
        .remap(remap.clone())
        .render_options(config::render_options(&a.evaluation.render));
    let progress = ui.progress(a.evaluation.output.quiet, "evaluating");
    let (d, diagnostics) =
        Workspace::choice_diff(&base, &display(a.composition.template()), t, from, to);
    drop(progress);
    let f = match a.format.unwrap_or(Format::Table) {
        Format::Heat | Format::HeatResourceTree => Format::Json,
        other => other,
    };
    report::render_parameters_diff(out, &d, f, ui.out)?;
    print_diagnostics(err, &diagnostics, output, ui)?;
    Ok(exit_for_errors(&diagnostics))
}
