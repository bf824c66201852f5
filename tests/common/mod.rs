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

/// Fails when heatcap's document differs from Heat's recorded one
/// (`golden` names the recording), showing both around the first line
/// that differs.
pub(crate) fn assert_same_as_heat(
    golden: &str,
    heat: &serde_json::Value,
    ours: &serde_json::Value,
) {
    if heat == ours {
        return;
    }
    let pretty = |v: &serde_json::Value| serde_json::to_string_pretty(v).unwrap();
    let (a, b) = (pretty(heat), pretty(ours));
    let first = a
        .lines()
        .zip(b.lines())
        .position(|(x, y)| x != y)
        .unwrap_or(0);
    let around = |s: &str| {
        s.lines()
            .skip(first.saturating_sub(8))
            .take(16)
            .collect::<Vec<_>>()
            .join("\n")
    };
    panic!(
        "{golden}: differs from Heat at line {first}:\nHeat:\n{}\nheatcap:\n{}",
        around(&a),
        around(&b)
    );
}

/// Which file of a raw TripleO tree [`linked_tree`] makes a link to a
/// file outside it.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Linked {
    /// A Jinja source (`leak.j2.yaml`), and a linked directory of
    /// sources (`linked/`) that a source includes from.
    Sources,
    /// The roles data (`roles_data.yaml`).
    Roles,
    /// The network data the script reads by default.
    Network,
}

/// A raw TripleO tree `base/root` (one role, one network; its
/// `overcloud.j2.yaml` declares a parameter for each) in which `linked`
/// leads to `base/outside`, whose files hold `SECRET` and `Secret` in
/// everything they would render. Returns the root.
pub(crate) fn linked_tree(base: &std::path::Path, linked: Linked) -> std::path::PathBuf {
    use std::os::unix::fs::symlink;
    let (root, outside) = (base.join("root"), base.join("outside"));
    let write = |p: std::path::PathBuf, text: &str| {
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    };
    let hot = "heat_template_version: 2016-10-14\n";
    write(
        outside.join("secret.j2.yaml"),
        &format!("{hot}description: SECRET-SOURCE\n"),
    );
    write(outside.join("sources/inc.yaml"), "SECRET-INCLUDE");
    write(
        outside.join("sources/inner.j2.yaml"),
        &format!("{hot}description: SECRET-INNER\n"),
    );
    write(
        outside.join("sources/plain.yaml"),
        &format!("{hot}description: SECRET-PLAIN\n"),
    );
    write(outside.join("roles.yaml"), "- name: SecretRole\n");
    write(outside.join("networks.yaml"), "- name: SecretNet\n");
    write(
        root.join("overcloud.j2.yaml"),
        &format!("{hot}parameters:\n{{%- for role in roles %}}\n  {{{{role.name}}}}Count: {{type: number}}\n{{%- endfor %}}\n{{%- for n in networks %}}\n  {{{{n.name}}}}NetName: {{type: string}}\n{{%- endfor %}}\n"),
    );
    let roles = root.join("roles_data.yaml");
    let network = root.join("network-data-samples/default-network-isolation.yaml");
    write(roles.clone(), "- name: Controller\n");
    write(network.clone(), "- name: InternalApi\n");
    match linked {
        Linked::Sources => {
            write(
                root.join("include.j2.yaml"),
                &format!("{hot}description: {{% include 'linked/inc.yaml' %}}\n"),
            );
            symlink(outside.join("secret.j2.yaml"), root.join("leak.j2.yaml")).unwrap();
            symlink(outside.join("sources"), root.join("linked")).unwrap();
        }
        Linked::Roles => {
            std::fs::remove_file(&roles).unwrap();
            symlink(outside.join("roles.yaml"), roles).unwrap();
        }
        Linked::Network => {
            std::fs::remove_file(&network).unwrap();
            symlink(outside.join("networks.yaml"), network).unwrap();
        }
    }
    root
}

/// Runs `git` in `dir`; panics when it fails.
pub(crate) fn git(dir: &std::path::Path, args: &[&str]) -> String {
    let out = std::process::Command::new("git")
        .args([
            "-c",
            "user.name=heatcap",
            "-c",
            "user.email=heatcap@localhost",
        ])
        .args([
            "-c",
            "init.defaultBranch=main",
            "-c",
            "advice.detachedHead=false",
        ])
        .args(args)
        .current_dir(dir)
        .output()
        .expect("git runs");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}
