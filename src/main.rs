//! The `heatcap` binary: parse flags, run, map the result to an exit code.

use std::io::Write;
use std::process::ExitCode;

use clap::Parser;
use heatcap::cli::{self, Cli};
use heatcap::Exit;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let stdout = std::io::stdout();
    let stderr = std::io::stderr();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut err = stderr.lock();
    let result = cli::run(cli, &mut out, &mut err).and_then(|exit| {
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
