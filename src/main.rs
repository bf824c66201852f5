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

/// Where results go. A terminal gets Rust's standard output, which is
/// line-buffered (each line shows as it is written), through anstream:
/// heatcap decides itself when to colour (`--color`), and anstream only
/// passes the escapes through, turning them on in a Windows console. A
/// pipe or a file gets a handle of its own on the same file: written
/// through standard output, every byte of `index`'s 24 MB of JSON was
/// searched for a line end, on the main thread, while the workers waited
/// (docs/performance.md, issue 30).
fn results(terminal: bool) -> Box<dyn Write> {
    let stdout = std::io::stdout();
    if !terminal {
        #[cfg(unix)]
        if let Ok(fd) = std::os::fd::AsFd::as_fd(&stdout).try_clone_to_owned() {
            return Box::new(std::fs::File::from(fd));
        }
        #[cfg(windows)]
        if let Ok(h) = std::os::windows::io::AsHandle::as_handle(&stdout).try_clone_to_owned() {
            return Box::new(std::fs::File::from(h));
        }
    }
    Box::new(AutoStream::new(stdout.lock(), ColorChoice::AlwaysAnsi))
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let terminal = Terminal {
        exits_after: true,
        ..Terminal::detect()
    };
    let mut out = std::io::BufWriter::new(results(terminal.stdout.terminal));
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
