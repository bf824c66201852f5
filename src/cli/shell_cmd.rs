//! `completions` and `man`: the command line describes itself, from the
//! same clap definition that parses it (so they cannot drift from it).

use std::io::Write;

use clap::CommandFactory;

use super::args::{Cli, CompletionsArgs, ManArgs};
use crate::error::{Error, Exit};

/// `completions SHELL`: the script for that shell (clap_complete).
pub(super) fn completions(a: &CompletionsArgs, out: &mut dyn Write) -> Result<Exit, Error> {
    let mut cmd = Cli::command();
    // clap_complete panics when its writer fails (a closed pipe): it
    // writes to memory, and heatcap writes that out.
    let mut script = Vec::new();
    clap_complete::generate(a.shell, &mut cmd, "heatcap", &mut script);
    out.write_all(&script)?;
    Ok(Exit::Ok)
}

/// `man [COMMAND]`: heatcap(1), or `heatcap-COMMAND(1)` (clap_mangen).
pub(super) fn man(a: &ManArgs, out: &mut dyn Write) -> Result<Exit, Error> {
    let mut cli = Cli::command();
    cli.build();
    let page = match &a.command {
        None => cli,
        // Built, a command's display name is `heatcap-NAME`: its page's.
        Some(name) => cli
            .find_subcommand(name)
            .ok_or_else(|| Error::Usage(format!("no command `{name}`")))?
            .clone(),
    };
    clap_mangen::Man::new(page)
        .source(concat!("heatcap ", env!("CARGO_PKG_VERSION")))
        .render(out)?;
    Ok(Exit::Ok)
}
