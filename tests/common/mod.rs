//! What several test binaries share: the CLI run in-process.
//! (A module, not a test binary: each test file that needs it says
//! `mod common;`.)

#![allow(dead_code)] // each test binary uses its part

use clap::Parser;
use heatcap::cli::{run, Cli};

/// The CLI run on `args` (without the program name): its exit code,
/// standard output and standard error.
pub(crate) fn heatcap<S: AsRef<str>>(args: &[S]) -> (i32, String, String) {
    let words = std::iter::once("heatcap").chain(args.iter().map(AsRef::as_ref));
    let cli = Cli::try_parse_from(words).unwrap_or_else(|e| panic!("{e}"));
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = run(cli, &mut out, &mut err).unwrap() as i32;
    (
        code,
        String::from_utf8(out).unwrap(),
        String::from_utf8(err).unwrap(),
    )
}

/// The CLI's standard output for `args`.
pub(crate) fn stdout<S: AsRef<str>>(args: &[S]) -> String {
    heatcap(args).1
}

/// The CLI's standard output for `args`, read as JSON.
pub(crate) fn json<S: AsRef<str>>(args: &[S]) -> serde_json::Value {
    let out = stdout(args);
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("not JSON ({e}): {out:?}"))
}

/// heatcap's Heat validate document for a deployment (`parameters
/// --format heat`, with TripleO's undercloud's nested depth, 7, as the
/// recordings were made).
pub(crate) fn heat_document(
    root: &std::path::Path,
    envs: &[std::path::PathBuf],
) -> serde_json::Value {
    let mut args = vec![
        "parameters".to_owned(),
        "-t".to_owned(),
        root.display().to_string(),
        "--format".to_owned(),
        "heat".to_owned(),
        "-q".to_owned(),
        "--max-nested-depth".to_owned(),
        "7".to_owned(),
    ];
    for e in envs {
        args.push("-e".to_owned());
        args.push(e.display().to_string());
    }
    json(&args)
}
