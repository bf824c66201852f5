//! `catalogue` and `--plan` against independent answers: the drift of a
//! capabilities map as `tools/tripleo/catalogue_drift.py` lists it, and a
//! plan's environment list and generated environments as
//! `tools/tripleo/plan_env_paths.py` builds them with python-heatclient's
//! own `deep_update` (both recorded in tests/tripleo/). The 2018 TripleO
//! tree is read only when a variable names a checkout:
//! `HEATCAP_THT_13D0057C` (raw, tripleo-heat-templates 13d0057c) and
//! `HEATCAP_THT_13D0057C_RENDERED` (the same rendered in place by its
//! tools/process-templates.py).

use clap::Parser;
use heatcap::cli::{run, Cli};
use serde_json::Value as J;

fn heatcap(args: &[&str]) -> (J, String, i32) {
    let cli = Cli::try_parse_from(std::iter::once("heatcap").chain(args.iter().copied())).unwrap();
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = run(cli, &mut out, &mut err).unwrap() as i32;
    let json = serde_json::from_slice(&out).unwrap_or_else(|e| panic!("not JSON ({e}): {out:?}"));
    (json, String::from_utf8(err).unwrap(), code)
}

fn recorded(name: &str) -> J {
    let text = std::fs::read_to_string(format!("tests/tripleo/{name}")).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// The drift `catalogue` reports for `tree`, as the script lists it.
fn drift(tree: &str) -> J {
    let (r, _, _) = heatcap(&["catalogue", tree, "--format", "json", "-q"]);
    J::Array(
        r["drift"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| {
                serde_json::json!({
                    "file": d["file"],
                    "kind": d["kind"],
                    "required_by": d.get("required_by").cloned().unwrap_or(J::Null),
                })
            })
            .collect(),
    )
}

#[test]
fn fixture_drift_is_what_the_script_lists() {
    let found = drift("fixtures/plans");
    assert_eq!(found, recorded("drift-plans.json"));
    // One of each kind, and a `requires` name.
    let kinds: Vec<&str> = found
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["kind"].as_str().unwrap())
        .collect();
    assert_eq!(
        kinds,
        ["missing", "source-only", "missing", "not-environment"]
    );
}

/// The drift `catalogue` reports for `tree`, by kind (files sorted), and
/// the sources it names.
fn by_kind(tree: &str) -> (impl Fn(&str) -> Vec<String>, Vec<String>) {
    let (r, _, _) = heatcap(&["catalogue", tree, "--format", "json", "-q"]);
    let drift = r["drift"].as_array().unwrap().clone();
    let sources = drift
        .iter()
        .filter_map(|d| d["source"].as_str().map(str::to_owned))
        .collect();
    let of_kind = move |k: &str| -> Vec<String> {
        let mut v: Vec<String> = drift
            .iter()
            .filter(|d| d["kind"] == k)
            .map(|d| d["file"].as_str().unwrap().to_owned())
            .collect();
        v.sort();
        v
    };
    (of_kind, sources)
}

/// Issue 29: a map naming files that exist only once the tree is rendered,
/// under every naming rule of tools/process-templates.py (a role's, a NIC
/// config's, a network's, a port's, a plain source's), in a raw tree
/// heatcap renders: they are read as heatcap renders them, as every
/// command reads the tree, so none is source-only (the rendered
/// environment is no drift at all; the role, NIC, network and port
/// templates are not environments); a role or network the data lacks, a
/// disabled network, an excluded output and a name without source are
/// missing.
#[test]
fn rendered_names_are_read_as_heatcap_renders_them() {
    let (of_kind, _) = by_kind("fixtures/tripleo-names");
    assert_eq!(of_kind("source-only"), Vec::<String>::new());
    let written: Vec<String> =
        serde_json::from_value(recorded("names-outputs.json")["written"].clone()).unwrap();
    let not_environment = of_kind("not-environment");
    for name in &written {
        assert!(
            name == "environments/plain.yaml" || not_environment.contains(name),
            "{name}: {not_environment:?}"
        );
    }
    assert_eq!(
        of_kind("missing"),
        [
            "environments/absent.yaml",
            "network/storage.yaml",
            "puppet/compute-role.yaml",
            "puppet/controller-excluded.yaml"
        ]
    );
}

/// Where no rendered file exists (here every source fails to render, so
/// heatcap has no output and the disk none), source-only follows every
/// naming rule of the script: exactly what TripleO's own script writes on
/// this tree (tests/tripleo/names-outputs.json, recorded by running it).
#[test]
fn source_only_follows_every_naming_rule_of_the_script() {
    let tmp = tempfile::tempdir().unwrap();
    let tree = tmp.path().join("tree");
    copy_tree(std::path::Path::new("fixtures/tripleo-names"), &tree);
    for source in walk_files(&tree) {
        if source.to_string_lossy().ends_with(".j2.yaml") {
            let text = std::fs::read_to_string(&source).unwrap();
            std::fs::write(&source, format!("{text}\n{{% endfor %}}\n")).unwrap();
        }
    }
    let (of_kind, sources) = by_kind(tree.to_str().unwrap());
    let written: Vec<String> =
        serde_json::from_value(recorded("names-outputs.json")["written"].clone()).unwrap();
    assert_eq!(of_kind("source-only"), written);
    assert_eq!(
        of_kind("missing"),
        [
            "environments/absent.yaml",
            "network/storage.yaml",
            "puppet/compute-role.yaml",
            "puppet/controller-excluded.yaml"
        ]
    );
    assert!(
        sources.contains(&"network/ports/deployed_vip_port.network.j2.yaml".to_owned()),
        "{sources:?}"
    );
    assert!(
        sources.contains(&"network/config/bond/role.role.j2.yaml".to_owned()),
        "{sources:?}"
    );
}

fn walk_files(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(walk_files(&p));
        } else {
            out.push(p);
        }
    }
    out
}

fn copy_tree(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let p = e.unwrap().path();
        let target = to.join(p.file_name().unwrap());
        if p.is_dir() {
            copy_tree(&p, &target);
        } else {
            std::fs::copy(&p, &target).unwrap();
        }
    }
}

/// The 2016 map (tripleo-heat-templates d9409b48) names 16 environments,
/// every one there: no drift; 35 environments of the tree are in no topic.
#[test]
fn the_2016_tree_has_no_drift_and_35_environments_in_no_topic() {
    assert_eq!(
        drift("fixtures/tripleo-heat-templates-2016"),
        recorded("drift-2016.json")
    );
    let (r, _, code) = heatcap(&[
        "catalogue",
        "fixtures/tripleo-heat-templates-2016",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0);
    assert_eq!(
        r["capabilities"]["Other"]["environment_groups"]
            .as_array()
            .unwrap()
            .len(),
        35
    );
    let listed: usize = r["capabilities"]
        .as_object()
        .unwrap()
        .iter()
        .filter(|(k, _)| *k != "Other")
        .flat_map(|(_, t)| t["environment_groups"].as_array().unwrap())
        .map(|g| g["environments"].as_array().unwrap().len())
        .sum();
    assert_eq!(listed, 16);
}

/// The recorded 2018 lists (tripleo-heat-templates 13d0057c, by
/// tools/tripleo/catalogue_drift.py): raw, 12 entries exist only as Jinja
/// sources, 4 entries and one required file exist nowhere; rendered, the
/// same 5 are missing and nothing else drifted.
#[test]
fn the_2018_recordings_hold_the_drift_the_study_found() {
    let kinds = |j: &J, k: &str| {
        j.as_array()
            .unwrap()
            .iter()
            .filter(|d| d["kind"] == k)
            .count()
    };
    let raw = recorded("drift-13d0057c.json");
    assert_eq!(
        (kinds(&raw, "source-only"), kinds(&raw, "missing")),
        (12, 5)
    );
    let rendered = recorded("drift-13d0057c-rendered.json");
    assert_eq!(
        (kinds(&rendered, "source-only"), kinds(&rendered, "missing")),
        (0, 5)
    );
}

/// `catalogue` on the 2018 checkouts reports exactly the recorded drift
/// of the rendered tree: on the raw checkout too, since heatcap reads the
/// tree as it renders it (issue 29: the 12 source-only entries of the raw
/// recording, the script's reading of the files on disk alone, are there
/// once rendered, and every command reads them).
#[test]
#[ignore = "set HEATCAP_THT_13D0057C and HEATCAP_THT_13D0057C_RENDERED to the checkouts"]
fn the_2018_tree_drift_is_the_recorded_list() {
    for (var, file) in [
        ("HEATCAP_THT_13D0057C", "drift-13d0057c-rendered.json"),
        (
            "HEATCAP_THT_13D0057C_RENDERED",
            "drift-13d0057c-rendered.json",
        ),
    ] {
        let tree = std::env::var(var).expect(var);
        assert_eq!(drift(&tree), recorded(file), "{var}={tree}");
    }
}

/// `--plan`: the list tripleo-common built (paths in order, the `data`
/// environment listed first after them, the merged parameter_defaults,
/// the plan's registry), each generated environment the document
/// python-heatclient's `deep_update` makes (tests/tripleo/plan-environment.json).
#[test]
fn a_plan_becomes_tripleo_commons_environment_list() {
    let want = recorded("plan-environment.json");
    let (body, err, code) = heatcap(&[
        "export",
        "--plan",
        "fixtures/plans/plan-environment.yaml",
        "--format",
        "heat-api",
    ]);
    assert_eq!(code, 0, "{err}");
    let urls: Vec<&str> = body["environment_files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| u.as_str().unwrap())
        .collect();
    let names = want["environments"].as_array().unwrap();
    assert_eq!(urls.len(), names.len());
    let plans = std::fs::canonicalize("fixtures/plans").unwrap();
    for (url, name) in urls.iter().zip(names) {
        let name = name.as_str().unwrap();
        let file = match (name, name.split_once(':')) {
            (_, Some(("data", i))) => format!("plan-environment.environments-{i}.json"),
            ("parameter_defaults" | "resource_registry", _) => {
                format!("plan-environment.{name}.json")
            }
            _ => name.to_owned(),
        };
        assert!(
            url.ends_with(&format!("/fixtures/plans/{file}")),
            "{url} is not {name}"
        );
        if let Some(doc) = want["documents"].get(name) {
            // Uploaded as the client uploads an environment file: its
            // registry paths made absolute URLs (the recording keeps them
            // as the plan wrote them).
            let text = body["files"][*url]
                .as_str()
                .unwrap()
                .replace(&format!("file://{}/", plans.display()), "");
            let ours: J = serde_json::from_str(&text).unwrap();
            assert_eq!(&ours, doc, "{name}");
        }
    }
}

/// Plan findings point into the plan; what tripleo-common fails on fails
/// the run, and `export` writes nothing.
#[test]
fn an_invalid_plan_is_reported_where_it_is_wrong() {
    let (_, err, code) = heatcap(&[
        "resolve",
        "--plan",
        "fixtures/plans/plan-invalid.yaml",
        "--format",
        "json",
    ]);
    assert_eq!(code, 1);
    let lines: Vec<&str> = err.lines().collect();
    assert!(lines.contains(&"fixtures/plans/plan-invalid.yaml:8:12: E9005 error: `passwords` is null, not a mapping; tripleo-common's `dict.update` fails on it"), "{err}");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("fixtures/plans/plan-invalid.yaml:7:5: W9006")),
        "{err}"
    );
    let out = tempfile::tempdir().unwrap();
    let dir = out.path().join("tree");
    let dir_s = dir.display().to_string();
    let cli = Cli::try_parse_from([
        "heatcap",
        "export",
        "--plan",
        "fixtures/plans/plan-invalid.yaml",
        "--out",
        &dir_s,
    ])
    .unwrap();
    let code = run(cli, &mut Vec::new(), &mut Vec::new()).unwrap() as i32;
    assert_eq!(code, 1);
    assert!(!dir.exists());
}
