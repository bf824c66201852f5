//! The `heatcap` binary: parse flags, run, map the result to an exit code.

use std::io::Write;
use std::process::ExitCode;

use anstream::{AutoStream, ColorChoice};
use clap::Parser;
use heatcap::cli::{self, Cli, Terminal};
use heatcap::Exit;

/// mimalloc: a tree is one allocation per mapping and long string, all
/// freed together, where glibc's malloc spent a fifth of `index`'s time
/// and contended between threads (docs/performance.md, issue 30).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let terminal = Terminal {
        exits_after: true,
        ..Terminal::detect()
    };
    // heatcap decides itself when to colour (`--color`); anstream only
    // passes the escapes through, turning them on in a Windows console.
    let stdout = AutoStream::new(std::io::stdout().lock(), ColorChoice::AlwaysAnsi);
    let mut out = std::io::BufWriter::new(stdout);
    // Not locked for the whole run: the progress line draws from its own
    // thread.
    let mut err = AutoStream::new(std::io::stderr(), ColorChoice::AlwaysAnsi);
    let result = cli::run_on(cli, &terminal, &mut out, &mut err).and_then(|exit| {
        out.flush().map_err(heatcap::Error::Output)?;
        Ok(exit)
    });
    match result {
        Ok(exit) => ExitCode::from(exit as u8),
        Err(e) if e.is_broken_pipe() => ExitCode::SUCCESS,
        Err(e) => {
            let _ = writeln!(err, "heatcap: {e}");
            ExitCode::from(Exit::Failure as u8)
        }
    }
}
