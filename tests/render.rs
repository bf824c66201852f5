//! `heatcap render` and raw TripleO trees, on the self-made trees of
//! fixtures/jinja/: each rendered output is what TripleO's own
//! tools/process-templates.py of that revision writes (the goldens under
//! tests/render/fixtures/ are Python's output: tests/render/README.md says
//! how they were made), copies follow `-o DIR`, and bad input refuses the
//! whole tree.

use std::path::{Path, PathBuf};
use std::process::Command;

fn heatcap(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_heatcap"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn files_below(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push(
                    p.strip_prefix(dir)
                        .unwrap()
                        .to_string_lossy()
                        .replace('\\', "/"),
                );
            }
        }
    }
    out.sort();
    out
}

/// Renders fixtures/jinja/NAME and compares every output with Python's.
fn renders_as_python(name: &str) -> PathBuf {
    let out = tempfile::tempdir().unwrap().keep().join("out");
    let tree = format!("fixtures/jinja/{name}");
    let (code, stdout, stderr) = heatcap(&["render", "--out", out.to_str().unwrap(), &tree]);
    assert_eq!(code, 0, "{stderr}");
    let golden = PathBuf::from(format!("tests/render/fixtures/{name}"));
    let expected = files_below(&golden);
    let mut listed: Vec<&str> = stdout.lines().collect();
    listed.sort_unstable();
    assert_eq!(listed, expected, "the outputs listed");
    for f in &expected {
        assert_eq!(
            std::fs::read(out.join(f)).unwrap(),
            std::fs::read(golden.join(f)).unwrap(),
            "{name}/{f} differs from Python's render"
        );
    }
    out
}

#[test]
fn the_latest_rules_render_as_python_does() {
    // idx, tags, name_lower, a disabled network, the {{role.name}} test,
    // NIC config names, `port`/`network` replaced in names, excludes,
    // includes (the output's directory first), CRLF, the mutation idiom.
    let out = renders_as_python("latest");
    let all = files_below(&out);
    // -o DIR: every other file copied, no source, nothing hidden.
    for copied in [
        "plain.yaml",
        "local.j2",
        "common/local.j2",
        "roles_data.yaml",
    ] {
        assert!(all.iter().any(|f| f == copied), "{copied} not copied");
    }
    assert!(!all.iter().any(|f| f.ends_with(".j2.yaml")), "{all:?}");
    assert!(!all.iter().any(|f| f.starts_with(".hidden")), "{all:?}");
    assert!(!out.join("puppet/cephstorage-excluded.yaml").exists());
}

#[test]
fn the_2018_rules_render_as_python_does() {
    // deprecated_nic_config_name, `name: [None]` excluding nothing, no
    // tags or idx, disable_constraints only for roles given by name.
    renders_as_python("2018");
}

#[test]
fn the_2017_rules_render_as_python_does() {
    // No network data: roles by name only, a `.network.j2.yaml` is a plain
    // template, j2_excludes.yaml honoured.
    let out = renders_as_python("2017");
    assert!(!out.join("puppet/compute-role.yaml").exists());
}

#[test]
fn bad_input_refuses_the_whole_tree_with_positions() {
    for (tree, expected) in [
        (
            "broken",
            &[
                "fixtures/jinja/broken/syntax.j2.yaml:3:17: E0020 error: syntax error",
                "fixtures/jinja/broken/undefined.j2.yaml:3:17: E0020 error: undefined value",
                "fixtures/jinja/broken/sub/include.j2.yaml:2:4: E0020 error: template not found",
                "fixtures/jinja/broken/sub/escape.j2.yaml:2:4: E0020 error: template not found",
            ][..],
        ),
        (
            "broken-roles",
            &["fixtures/jinja/broken-roles/roles_data.yaml:2:1: E0020 error: the role data must be a list of mappings"][..],
        ),
        (
            "broken-network",
            &[
                "fixtures/jinja/broken-network/roles_data.yaml:2:9: E0020 error: each role's `name` must be a string",
                "fixtures/jinja/broken-network/network-data-samples/default-network-isolation.yaml:3:1: E0004 error",
            ][..],
        ),
    ] {
        let out = tempfile::tempdir().unwrap();
        let target = out.path().join("rendered");
        let (code, stdout, stderr) =
            heatcap(&["render", "--out", target.to_str().unwrap(), &format!("fixtures/jinja/{tree}")]);
        assert_eq!(code, 1, "{stderr}");
        assert!(stdout.is_empty());
        for e in expected {
            assert!(stderr.lines().any(|l| l.starts_with(e)), "{tree}: no `{e}` in\n{stderr}");
        }
        assert!(!target.exists(), "{tree}: something was written");
        assert_eq!(std::fs::read_dir(out.path()).unwrap().count(), 0, "{tree}: staging left behind");
    }
}

#[test]
fn a_raw_tree_is_read_under_its_rendered_names() {
    let (code, stdout, stderr) =
        heatcap(&["index", "-r", "fixtures/jinja/latest", "--format", "json"]);
    assert_eq!(code, 0, "{stderr}");
    let doc: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let files = doc["files"].as_array().unwrap();
    let status = |p: &str| {
        files
            .iter()
            .find(|f| f["path"] == format!("fixtures/jinja/latest/{p}"))
            .map(|f| (f["status"].as_str().unwrap().to_owned(), f["kind"].clone()))
    };
    assert_eq!(status("overcloud.yaml").unwrap().0, "ok");
    assert_eq!(status("network/ports/internal_api.yaml").unwrap().0, "ok");
    assert_eq!(status("puppet/controller-role.yaml").unwrap().0, "ok");
    assert_eq!(status("overcloud.j2.yaml").unwrap().0, "skipped");
    assert!(status("puppet/cephstorage-excluded.yaml").is_none());
    // A finding in a rendered file names the file and its source.
    assert!(
        stderr.contains("fixtures/jinja/latest/common/services.yaml:12:1: W0010 warning: duplicate key `heat_template_version`")
            && stderr.contains("(rendered from `fixtures/jinja/latest/common/services.j2.yaml`)"),
        "{stderr}"
    );
}

#[test]
fn roles_and_network_data_can_be_given() {
    let dir = tempfile::tempdir().unwrap();
    let roles = dir.path().join("roles.yaml");
    std::fs::write(&roles, "- name: Solo\n  tags: [primary, controller]\n").unwrap();
    let nets = dir.path().join("nets.yaml");
    std::fs::write(&nets, "- name: Only\n").unwrap();
    let (code, stdout, stderr) = heatcap(&[
        "index",
        "-r",
        "fixtures/jinja/latest",
        "--roles-data",
        roles.to_str().unwrap(),
        "--network-data",
        nets.to_str().unwrap(),
        "--format",
        "plain",
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.contains("fixtures/jinja/latest/puppet/solo-role.yaml"),
        "{stdout}"
    );
    assert!(
        stdout.contains("fixtures/jinja/latest/network/ports/only.yaml"),
        "{stdout}"
    );
    assert!(!stdout.contains("controller-role.yaml"), "{stdout}");
}

/// Issue 29: `render` on a tree rendered in place with other data
/// (fixtures/jinja/rendered-other: its outputs on disk are what
/// 1393d39b's script wrote with `-n network_data_other.yaml`) writes
/// heatcap's render and says where the files on disk differ (W0026, at the
/// first differing line, naming the data it rendered with); with the data
/// the disk was rendered with it writes exactly the files on disk and says
/// nothing; with other data given it names the files it sets aside
/// (W0027).
#[test]
fn render_on_a_tree_rendered_in_place_says_where_the_disk_differs() {
    let tree = "fixtures/jinja/rendered-other";
    let out = tempfile::tempdir().unwrap();
    let default = out.path().join("default");
    let (code, _, stderr) = heatcap(&["render", "--out", default.to_str().unwrap(), tree]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains(
            "fixtures/jinja/rendered-other/environments/network-isolation.yaml:3:1: W0026 warning: this rendered file differs from heatcap's render of its Jinja source with roles data `fixtures/jinja/rendered-other/roles_data.yaml` and network data `fixtures/jinja/rendered-other/network-data-samples/default-network-isolation.yaml` (2 of the 2 outputs differ, 0 are not on disk): heatcap writes its own render"
        ),
        "{stderr}"
    );
    let written = std::fs::read_to_string(default.join("overcloud.yaml")).unwrap();
    assert!(written.contains("StorageNetCidr"), "{written}");

    let same = out.path().join("same");
    let (code, _, stderr) = heatcap(&[
        "render",
        "--out",
        same.to_str().unwrap(),
        "--network-data",
        "fixtures/jinja/rendered-other/network_data_other.yaml",
        tree,
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(!stderr.contains("W002"), "{stderr}");
    for f in ["overcloud.yaml", "environments/network-isolation.yaml"] {
        assert_eq!(
            std::fs::read(same.join(f)).unwrap(),
            std::fs::read(Path::new(tree).join(f)).unwrap(),
            "{f} is not what Python wrote"
        );
    }

    let aside = out.path().join("aside");
    let (code, _, stderr) = heatcap(&[
        "render",
        "--out",
        aside.to_str().unwrap(),
        "--network-data",
        "fixtures/jinja/rendered-other/network-data-samples/default-network-isolation.yaml",
        tree,
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains("fixtures/jinja/rendered-other: W0027 warning: heatcap writes its render with --network-data `fixtures/jinja/rendered-other/network-data-samples/default-network-isolation.yaml` instead of 2 rendered files on disk, which differ from it (set aside): `fixtures/jinja/rendered-other/environments/network-isolation.yaml`, `fixtures/jinja/rendered-other/overcloud.yaml`"),
        "{stderr}"
    );
}

/// The parameters of a `show_nested` document, its nested stacks' included.
fn count(s: &serde_json::Value) -> usize {
    s["Parameters"].as_object().map_or(0, serde_json::Map::len)
        + s["NestedParameters"]
            .as_object()
            .map_or(0, |n| n.values().map(count).sum())
}

/// With `HEATCAP_THT_CHECKOUTS` (tests/render/README.md): `parameters
/// --format heat` on a raw checkout is the same document as on the tree
/// `heatcap render` writes from it (paths aside), for the 2018 and 2023
/// deployments of tests/heat/later/README.md, whose Heat answers that
/// document matches (tools/heat-oracle/compare.py: 5,494 and 3,944
/// parameters identical).
#[test]
fn raw_checkouts_answer_as_their_rendered_trees() {
    let Some(checkouts) = std::env::var_os("HEATCAP_THT_CHECKOUTS") else {
        return;
    };
    let deployments: [(&str, &[&str]); 2] = [
        (
            "13d0057c",
            &[
                "overcloud-resource-registry-puppet.yaml",
                "environments/network-isolation.yaml",
                "environments/network-environment.yaml",
                "environments/docker-ha.yaml",
            ],
        ),
        (
            "1393d39b",
            &[
                "overcloud-resource-registry-puppet.yaml",
                "environments/deployed-network-environment.yaml",
            ],
        ),
    ];
    for (rev, envs) in deployments {
        let raw = std::fs::canonicalize(Path::new(&checkouts).join(rev)).unwrap();
        let out = tempfile::tempdir().unwrap();
        let rendered = out.path().join("rendered");
        let (code, _, stderr) = heatcap(&[
            "render",
            "--out",
            rendered.to_str().unwrap(),
            raw.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{stderr}");
        let answer = |tree: &Path| {
            let mut args: Vec<String> = vec![
                "parameters".into(),
                "-q".into(),
                "--format".into(),
                "heat".into(),
                "--max-nested-depth".into(),
                "7".into(),
                "-t".into(),
                tree.join("overcloud.yaml").to_string_lossy().into_owned(),
            ];
            for e in envs {
                args.push("-e".into());
                args.push(tree.join(e).to_string_lossy().into_owned());
            }
            let refs: Vec<&str> = args.iter().map(String::as_str).collect();
            let (code, stdout, stderr) = heatcap(&refs);
            assert_eq!(code, 0, "{rev}: {stderr}");
            stdout.replace(tree.to_str().unwrap(), "TREE")
        };
        let (a, b) = (answer(&raw), answer(&rendered));
        let doc: serde_json::Value = serde_json::from_str(&a).unwrap();
        assert!(count(&doc) > 3000, "{rev}: {} parameters", count(&doc));
        assert!(a == b, "{rev}: the raw checkout answers differently");
    }
}
