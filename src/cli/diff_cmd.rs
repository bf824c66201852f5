//! `diff`: what an update from one composition (the old side, `--from*`)
//! to another (the new side, `-t/-e/--plan/--choose`) does.

use std::io::Write;
use std::path::{Path, PathBuf};

use super::args::DiffArgs;
use super::parameters_cmd::choices;
use super::preview_cmd::{default_stack_name, preview_of};
use super::{config, exit_for_errors, print_diagnostics, Ui};
use crate::error::{Error, Exit};
use crate::report::{self, json, Format};
use crate::walk::Remap;
use crate::{HeatContext, Workspace};

/// The project, user and endpoint `--format heat` answers as.
const TENANT: &str = "heatcap";
const USER: &str = "heatcap";
const ENDPOINT: &str = "http://localhost:8004/v1";

/// A path of the old side: relative ones in `--from DIR`.
fn in_tree(from: Option<&Path>, p: &Path) -> PathBuf {
    match from {
        Some(dir) if p.is_relative() => dir.join(p),
        _ => p.to_path_buf(),
    }
}

/// The old side's template and environments.
fn old_side(a: &DiffArgs) -> Result<(PathBuf, Vec<PathBuf>), Error> {
    let from = a.from.as_deref();
    let mut environments: Vec<PathBuf> = Vec::new();
    let mut template = a.from_template.clone();
    if let Some(plan) = &a.from_plan {
        let path = in_tree(from, plan);
        let plan = crate::workspace::open_plan(&path, &crate::load::LoadOptions::default());
        if let Some(e) = plan
            .diagnostics
            .iter()
            .find(|d| d.severity == crate::diag::Severity::Error)
        {
            return Err(Error::Usage(format!(
                "the old side's plan `{}` fails: {e}",
                path.display()
            )));
        }
        environments.extend(plan.environments.iter().map(|e| PathBuf::from(&e.path)));
        if template.is_none() {
            template = plan.template.map(|(p, _)| PathBuf::from(p));
        }
    }
    let given = if a.from_environment.is_empty() {
        &a.composition.environments
    } else {
        &a.from_environment
    };
    environments.extend(given.iter().map(|e| in_tree(from, e)));
    let template = match template {
        Some(t) => in_tree(from, &t),
        None => in_tree(from, a.composition.template()),
    };
    Ok((template, environments))
}

/// `diff`: exit 1 when Heat would refuse either side or the update (a
/// `restricted_actions`), or an error is found.
pub(super) fn diff(
    a: &DiffArgs,
    remap: &Remap,
    ui: &Ui,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<Exit, Error> {
    let chosen = choices(&a.choose)?;
    let from_chosen = if a.from_choose.is_empty() {
        chosen.clone()
    } else {
        choices(&a.from_choose)?
    };
    let (from_template, from_environments) = old_side(a)?;
    config::no_stdin(
        std::iter::once(&a.composition.template().to_path_buf())
            .chain(&a.composition.environments)
            .chain(std::iter::once(&from_template))
            .chain(&from_environments),
        "diff",
    )?;
    let output = a.evaluation.diagnostics_output(Format::Table);
    let name = a
        .stack_name
        .clone()
        .unwrap_or_else(|| default_stack_name(a.composition.template()));
    let progress = ui.progress(a.evaluation.output.quiet, "evaluating");
    let old = preview_of(
        &from_template,
        &from_environments,
        from_chosen,
        &a.evaluation,
        remap,
        &name,
    );
    let new = preview_of(
        a.composition.template(),
        &a.composition.environments,
        chosen,
        &a.evaluation,
        remap,
        &name,
    );
    let d = Workspace::diff(&old, &new);
    drop(progress);
    match a.format.unwrap_or(Format::Table) {
        Format::Heat => {
            let cx = HeatContext::new(TENANT, USER, ENDPOINT, "");
            json::write_line(out, &Workspace::diff_heat_document(&d, &cx))?;
        }
        f => report::render_diff(out, &d, f, ui.out)?,
    }
    print_diagnostics(err, &d.diagnostics, output, ui)?;
    if let Some(e) = &d.heat_error {
        writeln!(err, "heatcap: Heat refuses the update preview: {e}")?;
        return Ok(Exit::NoMatchOrFindings);
    }
    // The preview answers; the update itself would fail.
    if let Some(c) = d.changes.iter().find(|c| c.refused.is_some()) {
        writeln!(
            err,
            "heatcap: Heat's update would fail at {}/{}: {}",
            c.stack,
            c.resource,
            c.refused.as_deref().unwrap_or_default()
        )?;
        return Ok(Exit::NoMatchOrFindings);
    }
    Ok(exit_for_errors(&d.diagnostics))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn old_side_paths_are_read_in_its_tree() {
        let dir = Path::new("/old");
        assert_eq!(
            in_tree(Some(dir), Path::new("env.yaml")),
            PathBuf::from("/old/env.yaml")
        );
        assert_eq!(
            in_tree(Some(dir), Path::new("/abs.yaml")),
            PathBuf::from("/abs.yaml")
        );
        assert_eq!(
            in_tree(None, Path::new("env.yaml")),
            PathBuf::from("env.yaml")
        );
    }
}
