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

/// Where a side's tree is read: the disk (the working tree, or the
/// directory its paths were put in), or a git revision's objects.
#[derive(Debug, Clone, Default)]
pub(super) enum Tree {
    /// The files on disk.
    #[default]
    Disk,
    /// The tree at a revision (its files: [`crate::git`]).
    Revision(crate::vfs::FileOverlay),
}

impl Tree {
    /// The files read instead of the disk's.
    pub(super) fn files(&self) -> crate::vfs::FileOverlay {
        match self {
            Tree::Disk => crate::vfs::FileOverlay::default(),
            Tree::Revision(files) => files.clone(),
        }
    }
}

/// One composition to preview: `preview`'s, or a side of `diff`. Every
/// command that opens a side opens it through [`preview_of`].
#[derive(Debug, Clone)]
pub(super) struct Side {
    /// Where its files are read.
    pub tree: Tree,
    /// The root template.
    pub template: PathBuf,
    /// The environments, in order.
    pub environments: Vec<PathBuf>,
    /// `--choose` selections.
    pub chosen: IndexMap<String, String>,
}

/// The create preview of a side (one side of `diff`, or `preview`'s
/// answer), the root stack named `name`.
pub(super) fn preview_of(
    side: &Side,
    evaluation: &EvaluationArgs,
    remap: &Remap,
    name: &str,
) -> Preview {
    let root = display(&side.template);
    workspace_of(side, evaluation, remap).preview(&root, name)
}

/// The workspace of one side (`preview`'s composition, and each side of
/// `diff`): its root template with its environments and choices, its
/// files read from its tree.
pub(super) fn workspace_of(side: &Side, evaluation: &EvaluationArgs, remap: &Remap) -> Workspace {
    let root = display(&side.template);
    let chosen = side.chosen.clone();
    Workspace::builder()
        .files(side.tree.files())
        .environments(&side.environments)
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
    let tree = match &a.rev.rev {
        Some(_) => Tree::Revision(config::composition_files(&a.rev, &a.composition)?),
        None => Tree::Disk,
    };
    let side = Side {
        tree,
        template: a.composition.template().to_path_buf(),
        environments: a.composition.environments.clone(),
        chosen,
    };
    let progress = ui.progress(a.evaluation.output.quiet, "evaluating");
    let p = preview_of(&side, &a.evaluation, remap, &name);
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
