//! `diff`: what an update from one composition (the old side, `--from*`)
//! to another (the new side, `-t/-e/--plan/--choose`) does. Each side's
//! tree is the disk's, a directory's (`--from DIR`, `--to DIR`) or a git
//! revision's (`--from REV`, `--to REV`, `REV`, `A..B`, `A...B`).

use std::io::Write;
use std::path::{Path, PathBuf};

use super::args::DiffArgs;
use super::parameters_cmd::choices;
use super::preview_cmd::{default_stack_name, preview_of, Side, Tree};
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
    let files = crate::git::tree_at(anchor, &rev).map_err(|mut e| {
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
        let ((_, old), new) = crate::git::range_at(&anchor, spec)?;
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

/// The old side's template and environments.
fn old_side(a: &DiffArgs, old: &Place) -> Result<(PathBuf, Vec<PathBuf>), Error> {
    let from = old.0.as_deref();
    let mut environments: Vec<PathBuf> = Vec::new();
    let mut template = a.from_template.clone();
    if let Some(plan) = &a.from_plan {
        let path = in_tree(from, plan);
        let load = crate::load::LoadOptions {
            overlay: match &old.1 {
                Tree::Disk => crate::vfs::FileOverlay::default(),
                Tree::Revision(files) => files.clone(),
            },
            ..crate::load::LoadOptions::default()
        };
        let plan = crate::workspace::open_plan(&path, &load);
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

/// `diff`: exit 1 when Heat would refuse either side or an error is found.
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
    config::no_stdin(
        std::iter::once(&a.composition.template().to_path_buf()).chain(&a.composition.environments),
        "diff",
    )?;
    let (old_place, new_place) = places(a)?;
    let (from_template, from_environments) = old_side(a, &old_place)?;
    config::no_stdin(
        std::iter::once(&from_template).chain(&from_environments),
        "diff",
    )?;
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
    let output = a.evaluation.diagnostics_output(Format::Table);
    let name = a
        .stack_name
        .clone()
        .unwrap_or_else(|| default_stack_name(a.composition.template()));
    let progress = ui.progress(a.evaluation.output.quiet, "evaluating");
    let (old, new) = rayon::join(
        || preview_of(&old, &a.evaluation, remap, &name),
        || preview_of(&new, &a.evaluation, remap, &name),
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
