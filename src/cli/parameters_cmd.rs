//! `parameters`: every parameter of the chosen composition, or what
//! switching one choice costs (`--diff`).

use std::io::Write;

use indexmap::IndexMap;

use super::args::ParametersArgs;
use super::{config, exit_for_errors, print_diagnostics};
use crate::error::{Error, Exit};
use crate::product::parameters::diff;
use crate::report::{self, json, Format};
use crate::walk::display;
use crate::Workspace;

/// `--choose TYPE=PATH` flags.
fn choices(raw: &[String]) -> Result<IndexMap<String, String>, Error> {
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

fn workspace(a: &ParametersArgs, choices: IndexMap<String, String>) -> Workspace {
    Workspace::builder()
        .environments(&a.environments)
        .roots(&[display(&a.template)])
        .choices(choices)
        .open()
}

/// `parameters`: exit 1 when an error is found.
pub(super) fn parameters(
    a: &ParametersArgs,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<Exit, Error> {
    let chosen = choices(&a.choose)?;
    let output = config::Output {
        format: Format::Table,
        min_severity: config::verbosity(a.output.quiet, a.output.verbose),
    };
    if let Some(spec) = &a.diff {
        return parameters_diff(a, &chosen, spec, out, err, output);
    }
    let root = display(&a.template);
    let (described, heat) = workspace(a, chosen).parameters(&root);
    match a.format.unwrap_or(Format::Table) {
        Format::Heat => json::write_line(out, &heat)?,
        f => report::render_parameters(out, &described, f)?,
    }
    print_diagnostics(err, &described.diagnostics, output)?;
    Ok(exit_for_errors(&described.diagnostics))
}

/// `parameters --diff TYPE=A,B`: the cost of switching one choice.
fn parameters_diff(
    a: &ParametersArgs,
    chosen: &IndexMap<String, String>,
    spec: &str,
    out: &mut dyn Write,
    err: &mut dyn Write,
    output: config::Output,
) -> Result<Exit, Error> {
    let usage = || Error::Usage(format!("--diff takes TYPE=PATH_A,PATH_B, got `{spec}`"));
    let (t, pair) = spec.split_once('=').ok_or_else(usage)?;
    let (from, to) = pair.split_once(',').ok_or_else(usage)?;
    if t.is_empty() || from.is_empty() || to.is_empty() {
        return Err(usage());
    }
    let root = display(&a.template);
    let mut sides = Vec::new();
    let mut diagnostics = Vec::new();
    for path in [from, to] {
        let mut c = chosen.clone();
        c.insert(t.to_owned(), path.to_owned());
        let (described, _) = workspace(a, c).parameters(&root);
        diagnostics.extend(described.diagnostics);
        sides.push(described.parameters);
    }
    let d = diff(t, from, to, &sides[0], &sides[1]);
    let f = match a.format.unwrap_or(Format::Table) {
        Format::Heat => Format::Json,
        other => other,
    };
    report::render_parameters_diff(out, &d, f)?;
    diagnostics.sort_by(|x, y| (&x.file, x.span).cmp(&(&y.file, y.span)));
    diagnostics.dedup();
    print_diagnostics(err, &diagnostics, output)?;
    Ok(exit_for_errors(&diagnostics))
}
