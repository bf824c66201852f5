//! `diff`: what an update from one composition (the old side, `--from*`)
//! to another (the new side, `-t/-e/--plan/--choose`) does. Each side's
//! tree is the disk's, a directory's (`--from DIR`, `--to DIR`) or a git
//! revision's (`--from REV`, `--to REV`, `REV`, `A..B`, `A...B`).

use std::io::Write;
use std::path::{Path, PathBuf};

use indexmap::IndexMap;

use super::args::{DiffArgs, DiffFailOn};
use super::config_file::{self, Deployment};
use super::parameters_cmd::choices;
use super::preview_cmd::{default_stack_name, workspace_of, Side, Tree};
use super::{config, exit_for_errors, print_diagnostics, Ui};
use crate::error::{Error, Exit};
use crate::product::diff::Diff;
use crate::product::interface::Severity;
use crate::report::{self, json, Format};
use crate::walk::{display, Remap};
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

/// Where a side is read: a directory its relative paths are put in, and
/// the tree its files come from.
type Place = (Option<PathBuf>, Tree);

/// A `--from`/`--to` value: an existing directory, else a revision of the
/// repository `anchor` is in.
fn place(value: &Path, anchor: &Path) -> Result<Place, Error> {
    if value.is_dir() {
        return Ok((Some(value.to_path_buf()), Tree::Disk));
    }
    let rev = value.to_string_lossy().into_owned();
    let files =
        crate::git::tree_at(anchor, &rev, crate::load::DEFAULT_MAX_SIZE).map_err(|mut e| {
            e.message = format!("{} (nor is there a directory `{rev}`)", e.message);
            e
        })?;
    Ok((None, Tree::Revision(files)))
}

/// The path the repository is found from: the new side's template, else
/// its first environment, else the working directory.
fn anchor(a: &DiffArgs) -> PathBuf {
    a.composition
        .template
        .iter()
        .chain(&a.composition.environments)
        .find(|p| !p.as_os_str().is_empty())
        .cloned()
        .unwrap_or_else(|| PathBuf::from("."))
}

/// The old and the new side's places: from `REVS` as git's diff reads
/// them, else from `--from` and `--to` (the old side defaults to the new
/// side's, the new side to the disk).
fn places(a: &DiffArgs) -> Result<(Place, Place), Error> {
    let anchor = anchor(a);
    if let Some(spec) = &a.revs {
        let ((_, old), new) = crate::git::range_at(&anchor, spec, crate::load::DEFAULT_MAX_SIZE)?;
        let new = match new {
            Some((_, files)) => (None, Tree::Revision(files)),
            None => (None, Tree::Disk),
        };
        return Ok(((None, Tree::Revision(old)), new));
    }
    let new = match &a.to {
        Some(to) => place(to, &anchor)?,
        None => (None, Tree::Disk),
    };
    let old = match &a.from {
        Some(from) => place(from, &anchor)?,
        None => new.clone(),
    };
    Ok((old, new))
}

/// The revision the new side is read at, as the command line names it
/// (`--to REV`, or `B` of `A..B`/`A...B`): the one its `--plan` is read
/// at. `None` for the disk.
pub(super) fn new_side_revision(a: &DiffArgs) -> Option<String> {
    if let Some(spec) = &a.revs {
        let b = spec
            .split_once("...")
            .or_else(|| spec.split_once(".."))
            .map(|(_, b)| if b.is_empty() { "HEAD" } else { b })?;
        return Some(b.to_owned());
    }
    a.to.as_ref()
        .filter(|to| !to.is_dir())
        .map(|to| to.to_string_lossy().into_owned())
}

/// The plan at `path` read from `tree`: its environments and its
/// template; its first error refuses it, `what` naming it.
fn plan_at(path: &Path, tree: &Tree, what: &str) -> Result<(Vec<PathBuf>, Option<PathBuf>), Error> {
    let load = crate::load::LoadOptions {
        overlay: tree.files(),
        ..crate::load::LoadOptions::default()
    };
    let plan = crate::workspace::open_plan(path, &load);
    if let Some(e) = plan
        .diagnostics
        .iter()
        .find(|d| d.severity == crate::diag::Severity::Error)
    {
        return Err(Error::Usage(format!(
            "{what} `{}` fails: {e}",
            path.display()
        )));
    }
    let environments = plan
        .environments
        .iter()
        .map(|e| PathBuf::from(&e.path))
        .collect();
    Ok((environments, plan.template.map(|(p, _)| PathBuf::from(p))))
}

/// The old side's template and environments.
fn old_side(a: &DiffArgs, old: &Place) -> Result<(PathBuf, Vec<PathBuf>), Error> {
    let from = old.0.as_deref();
    let mut environments: Vec<PathBuf> = Vec::new();
    let mut template = a.from_template.clone();
    if let Some(plan) = &a.from_plan {
        let (envs, planned) = plan_at(&in_tree(from, plan), &old.1, "the old side's plan")?;
        environments.extend(envs);
        template = template.or(planned);
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
/// `restricted_actions`), an error is found, or the interface section has
/// a finding at or above `--fail-on`. With no template (nor plan) given,
/// every deployment the configuration file's `deployments` names.
pub(super) fn diff(
    a: &DiffArgs,
    remap: &Remap,
    ui: &Ui,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<Exit, Error> {
    if a.composition.template.is_none() {
        return deployments(a, remap, ui, out, err);
    }
    let chosen = choices(&a.choose)?;
    let from_chosen = if a.from_choose.is_empty() {
        chosen.clone()
    } else {
        choices(&a.from_choose)?
    };
    let (old_place, new_place) = places(a)?;
    let (from_template, from_environments) = old_side(a, &old_place)?;
    let to = new_place.0.as_deref();
    let new = Side {
        tree: new_place.1,
        template: in_tree(to, a.composition.template()),
        environments: a
            .composition
            .environments
            .iter()
            .map(|e| in_tree(to, e))
            .collect(),
        chosen,
    };
    let old = Side {
        tree: old_place.1,
        template: from_template,
        environments: from_environments,
        chosen: from_chosen,
    };
    let (d, exit) = one(a, &old, &new, remap, ui, err)?;
    match a.format.unwrap_or(Format::Table) {
        Format::Heat => {
            let cx = HeatContext::new(TENANT, USER, ENDPOINT, "");
            json::write_line(out, &Workspace::diff_heat_document(&d, &cx))?;
        }
        f => report::render_diff(out, &d, f, ui.out)?,
    }
    print_diagnostics(
        err,
        &d.diagnostics,
        a.evaluation.diagnostics_output(Format::Table),
        ui,
    )?;
    if let Some(e) = &d.heat_error {
        writeln!(err, "heatcap: Heat refuses the update preview: {e}")?;
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
    }
    Ok(exit)
}

/// The diff of one deployment from `old` to `new`, and its exit code.
fn one(
    a: &DiffArgs,
    old: &Side,
    new: &Side,
    remap: &Remap,
    ui: &Ui,
    err: &mut dyn Write,
) -> Result<(Diff, Exit), Error> {
    let _ = err;
    config::no_stdin(
        std::iter::once(&new.template)
            .chain(&new.environments)
            .chain(std::iter::once(&old.template))
            .chain(&old.environments),
        "diff",
    )?;
    let name = a
        .stack_name
        .clone()
        .unwrap_or_else(|| default_stack_name(&new.template));
    let progress = ui.progress(a.evaluation.output.quiet, "evaluating");
    let open = |s: &Side| workspace_of(s, &a.evaluation, remap);
    let (old_ws, new_ws) = rayon::join(|| open(old), || open(new));
    let (old_root, new_root) = (display(&old.template), display(&new.template));
    let (old_preview, new_preview) = rayon::join(
        || old_ws.preview(&old_root, &name),
        || new_ws.preview(&new_root, &name),
    );
    let mut d = Workspace::diff(&old_preview, &new_preview);
    let interface = Workspace::interface(&old_ws, &old_root, &new_ws, &new_root);
    drop(progress);
    let failing = match a.interface.fail_on {
        DiffFailOn::Breaking => interface.at_least(Severity::Breaking),
        DiffFailOn::Warning => interface.at_least(Severity::Warning),
        DiffFailOn::Info => interface.at_least(Severity::Info),
        DiffFailOn::Never => 0,
    };
    d.interface = if a.interface.all {
        interface
    } else {
        interface.without_info()
    };
    // A refused change: the preview answers, the update itself would fail.
    let refused = d.changes.iter().any(|c| c.refused.is_some());
    let exit = if d.heat_error.is_some() || failing > 0 || refused {
        Exit::NoMatchOrFindings
    } else {
        exit_for_errors(&d.diagnostics)
    };
    Ok((d, exit))
}

/// A side of a configured deployment: its paths as written, read in
/// `dir` from `tree` (a plan's environments first, its template unless
/// one is given).
fn deployment_side(
    dir: &Path,
    tree: &Tree,
    d: &Deployment,
    chosen: &IndexMap<String, String>,
) -> Result<Side, Error> {
    let mut environments = Vec::new();
    let mut template = d.template.as_ref().map(|t| dir.join(t));
    if let Some(plan) = &d.plan {
        let what = format!("deployment `{}`: the plan", d.name);
        let (envs, planned) = plan_at(&dir.join(plan), tree, &what)?;
        environments.extend(envs);
        template = template.or(planned);
    }
    environments.extend(d.environments.iter().map(|e| dir.join(e)));
    let Some(template) = template else {
        return Err(Error::Usage(format!(
            "deployment `{}`: its plan names no template: give `template`",
            d.name
        )));
    };
    Ok(Side {
        tree: tree.clone(),
        template,
        environments,
        chosen: chosen.clone(),
    })
}

/// `diff` with no template: each deployment of the configuration file,
/// each side read where `--from`/`--to`/`REVS` put it (a directory or a
/// revision; the old side defaults to the new side's, the new side to
/// the working tree).
fn deployments(
    a: &DiffArgs,
    remap: &Remap,
    ui: &Ui,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<Exit, Error> {
    let no_deployments = || {
        Error::Usage(
            "diff needs -t/--template or --plan, or a .heatcap.yaml with `deployments`".to_owned(),
        )
    };
    let file = config_file::load(&a.interface.config, a.evaluation.output.verbose, err)?
        .ok_or_else(no_deployments)?;
    let list = file.deployments.clone().ok_or_else(no_deployments)?;
    let format = a.format.unwrap_or(Format::Table);
    if format == Format::Heat {
        return Err(Error::Usage(
            "--format heat answers for one deployment: give -t".to_owned(),
        ));
    }
    let dir = file.path.parent().unwrap_or(Path::new("")).to_path_buf();
    let (old_place, new_place) = places(a)?;
    let chosen = choices(&a.choose)?;
    let from_chosen = if a.from_choose.is_empty() {
        chosen.clone()
    } else {
        choices(&a.from_choose)?
    };
    let mut results = Vec::new();
    let mut exit = Exit::Ok;
    for d in &list {
        let new = deployment_side(
            new_place.0.as_deref().unwrap_or(&dir),
            &new_place.1,
            d,
            &chosen,
        )?;
        let old = deployment_side(
            old_place.0.as_deref().unwrap_or(&dir),
            &old_place.1,
            d,
            &from_chosen,
        )?;
        let (diff, e) = one(a, &old, &new, remap, ui, err)?;
        print_diagnostics(
            err,
            &diff.diagnostics,
            a.evaluation.diagnostics_output(Format::Table),
            ui,
        )?;
        if let Some(e) = &diff.heat_error {
            writeln!(
                err,
                "heatcap: deployment `{}`: Heat refuses the update preview: {e}",
                d.name
            )?;
        }
        if e != Exit::Ok {
            exit = e;
        }
        results.push((d.name.clone(), diff));
    }
    report::render_deployments(
        out,
        &crate::product::interface::Deployments::new(results),
        format,
        ui.out,
    )?;
    Ok(exit)
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
