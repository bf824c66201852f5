//! `catalogue`: a TripleO tree's capabilities map against the tree.

use std::io::Write;

use super::args::CatalogueArgs;
use super::{config, exit_for_errors, print_diagnostics, Ui};
use crate::error::{Error, Exit};
use crate::report::{self, Format};
use crate::walk::Remap;

/// `catalogue`: exit 1 when an error is found (a map that cannot be read,
/// an environment enabled without one it requires, a cycle).
pub(super) fn catalogue(
    a: &CatalogueArgs,
    _remap: &Remap,
    ui: &Ui,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<Exit, Error> {
    let output = config::output(&a.output, Format::Table);
    config::no_stdin(
        std::iter::once(&a.tree)
            .chain(&a.environments)
            .chain(&a.plan),
        "catalogue",
    )?;
    let load = config::at_revision(
        config::sized_load_options(a.max_size)?,
        &a.rev,
        [a.tree.as_path()],
    )?;
    let progress = ui.progress(a.output.quiet, "reading");
    let plan = a
        .plan
        .as_deref()
        .map(|p| crate::workspace::open_plan(p, &load));
    let found = crate::workspace::catalogue(&a.tree, plan.as_ref(), &a.environments, &load);
    drop(progress);
    report::render_catalogue(out, &found, output.format, ui.out)?;
    print_diagnostics(err, &found.diagnostics, output, ui)?;
    Ok(exit_for_errors(&found.diagnostics))
}
