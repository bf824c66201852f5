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

/// The 2016 TripleO tree in fixtures/, and the four environments of its
/// recorded deployment (tests/heat/corpus-2016.json), in merge order.
pub(crate) fn corpus_2016_deployment() -> (std::path::PathBuf, Vec<std::path::PathBuf>) {
    let c = std::path::Path::new("fixtures/tripleo-heat-templates-2016");
    let envs = [
        "overcloud-resource-registry-puppet.yaml",
        "environments/network-isolation.yaml",
        "environments/storage-environment.yaml",
        "environments/puppet-pacemaker.yaml",
    ]
    .iter()
    .map(|e| c.join(e))
    .collect();
    (c.join("overcloud.yaml"), envs)
}

/// `heatcap COMMAND -t ROOT -e ENV... OPTIONS...` as arguments.
pub(crate) fn deployment_args(
    command: &str,
    root: &std::path::Path,
    envs: &[std::path::PathBuf],
    options: &[&str],
) -> Vec<String> {
    let mut args = vec![
        command.to_owned(),
        "-t".to_owned(),
        root.display().to_string(),
    ];
    args.extend(options.iter().map(|o| (*o).to_owned()));
    for e in envs {
        args.push("-e".to_owned());
        args.push(e.display().to_string());
    }
    args
}

/// What python-heatclient posts for a deployment (absolute `file://`
/// keys, environments and nested templates as JSON): `export --format
/// heat-api` with TripleO's undercloud's nested depth (empty when export
/// refuses).
pub(crate) fn client_body(root: &std::path::Path, envs: &[std::path::PathBuf]) -> String {
    let options = ["--format", "heat-api", "--max-nested-depth", "7", "-q"];
    stdout(&deployment_args("export", root, envs, &options))
}

/// heatcap's Heat validate document for a deployment (`parameters
/// --format heat`, with TripleO's undercloud's nested depth, 7, as the
/// recordings were made).
pub(crate) fn heat_document(
    root: &std::path::Path,
    envs: &[std::path::PathBuf],
) -> serde_json::Value {
    let options = ["--format", "heat", "-q", "--max-nested-depth", "7"];
    json(&deployment_args("parameters", root, envs, &options))
}
