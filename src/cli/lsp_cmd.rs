//! `lsp`: flags and `.heatcap.yaml` → the server's settings → `lsp::run`,
//! which answers on standard input and output until the client exits.

use std::io::Write;

use super::args::LspArgs;
use super::config_file;
use crate::error::{Error, Exit};
use crate::lsp::{self, Settings};
use crate::validate::Selection;

/// `lsp`: exit 0 when the client says `exit`.
pub(super) fn lsp(a: &LspArgs, out: &mut dyn Write, err: &mut dyn Write) -> Result<Exit, Error> {
    let file = config_file::load(&a.config, false, err)?;
    let file = file.as_ref();
    let environments = if a.environments.is_empty() {
        file.and_then(|f| f.environments.clone())
            .unwrap_or_default()
    } else {
        a.environments.clone()
    };
    let template = a.template.clone().or(file.and_then(|f| f.template.clone()));
    let selection = Selection {
        select: file.and_then(|f| f.select.clone()).unwrap_or_default(),
        ignore: file.and_then(|f| f.ignore.clone()).unwrap_or_default(),
    };
    // Paths stay valid whatever the client's working directory.
    let absolute = |p: &std::path::PathBuf| std::path::absolute(p).unwrap_or_else(|_| p.clone());
    let settings = Settings::new(
        environments.iter().map(absolute).collect(),
        template.as_ref().map(absolute),
        selection,
    );
    lsp::run(settings, out).map_err(|e| Error::Usage(format!("lsp: {e}")))?;
    Ok(Exit::Ok)
}
