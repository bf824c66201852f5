//! Round trip: the exported tree loads back in heatcap with no
//! `capabilities`, no list-valued entries and no `requires`, and resolves to
//! the same implementations as the original composition.

use std::path::Path;

mod common;
use common::heatcap;

/// `TYPE [RESOURCE] -> IMPLEMENTATION` lines, with paths made relative to `base`.
fn resolved(args: &[&str], base: &str) -> Vec<String> {
    let (code, out, err) = heatcap(args);
    assert_eq!(code, 0, "{args:?}\n{out}\n{err}");
    out.lines().map(|l| l.replace(base, "")).collect()
}

fn round_trip(root: &str, template: &str, envs: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("out");
    let out = out_dir.to_str().unwrap();
    let t = format!("{root}/{template}");
    let mut args = vec!["export", "-t", &t, "--out", out, "--format", "json"];
    let env_paths: Vec<String> = envs.iter().map(|e| format!("{root}/{e}")).collect();
    for e in &env_paths {
        args.extend(["-e", e]);
    }
    let (code, written, err) = heatcap(&args);
    assert_eq!(code, 0, "export failed: {err}");
    let written: serde_json::Value = serde_json::from_str(&written).unwrap();
    // Each environment is exported (edited), in the order given.
    let exported_envs: Vec<String> = written["environments"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| format!("{out}/{}", e.as_str().unwrap()))
        .collect();
    assert_eq!(exported_envs.len(), envs.len(), "{written}");
    // A file heatcap has nothing to remove from is copied byte for byte.
    for f in written["files"].as_array().unwrap() {
        let rel = f.as_str().unwrap();
        let original = std::fs::read(format!("{root}/{rel}"));
        let copy = std::fs::read(format!("{out}/{rel}")).unwrap();
        if let Ok(original) = original {
            let text = String::from_utf8_lossy(&original);
            if !text.contains("capabilities") && !text.contains("requires") {
                assert_eq!(original, copy, "{rel} changed");
            }
        }
    }

    // Nothing heatcap-specific is left.
    let (_, index, _) = heatcap(&["index", "-r", out]);
    let doc: serde_json::Value = serde_json::from_str(&index).unwrap();
    for f in doc["files"].as_array().unwrap() {
        assert!(
            f["capabilities"].is_null(),
            "capabilities left in {}",
            f["path"]
        );
        if f["kind"] == "environment" {
            assert_eq!(f["requires"], serde_json::json!({}), "requires left");
            for v in f["resource_registry"].as_object().unwrap().values() {
                assert!(!v.is_array(), "a list is left: {v}");
            }
        }
    }

    // Same implementations, from the exported tree.
    let mut before_args = vec!["resolve", "-t", &t, "--format", "plain", "--all"];
    for e in &env_paths {
        before_args.extend(["-e", e]);
    }
    let exported_root = Path::new(out).join(template);
    let exported_root = exported_root.to_str().unwrap();
    let mut after_args = vec!["resolve", "-t", exported_root, "--format", "plain", "--all"];
    for e in &exported_envs {
        after_args.extend(["-e", e]);
    }
    assert_eq!(
        resolved(&before_args, &format!("{root}/")),
        resolved(&after_args, &format!("{out}/")),
    );
}

#[test]
fn spec_example_round_trips() {
    round_trip(
        "fixtures/spec",
        "puppet/controller.yaml",
        &["environment.yaml"],
    );
}

#[test]
fn overcloud_round_trips() {
    round_trip(
        "fixtures/overcloud",
        "overcloud.yaml",
        &[
            "environments/overcloud-resource-registry-puppet.yaml",
            "environments/puppet-bond-with-vlans.yaml",
            "environments/storage-ceph.yaml",
        ],
    );
}

#[test]
fn unresolved_compositions_are_not_exported() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let (code, _, err) = heatcap(&[
        "export",
        "-t",
        "fixtures/overcloud/overcloud.yaml",
        "-e",
        "fixtures/overcloud/environments/overcloud-resource-registry-puppet.yaml",
        "-e",
        "fixtures/overcloud/environments/ambiguous-deployment.yaml",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 1);
    assert!(err.contains("nothing exported"), "{err}");
    assert!(!out.exists(), "something was written");
}

/// r12 `--templates-root`: a registry target named by its installed path
/// (`/usr/share/openstack-tripleo-heat-templates/...`) is read from the
/// checkout, and the API body names it as the client on the deployment
/// host would: by the path as written, in `files` and in the registry.
#[test]
fn remapped_targets_keep_their_installed_urls() {
    let root = "fixtures/cli/templates-root";
    let (t, e) = (
        format!("{root}/overcloud.yaml"),
        format!("{root}/environments/absolute.yaml"),
    );
    let remap = format!("/usr/share/openstack-tripleo-heat-templates={root}");
    let (code, out, err) = heatcap(&[
        "export",
        "-t",
        &t,
        "-e",
        &e,
        "--format",
        "heat-api",
        "--templates-root",
        &remap,
    ]);
    assert_eq!(code, 0, "{err}");
    let body: serde_json::Value = serde_json::from_str(&out).unwrap();
    let installed = "file:///usr/share/openstack-tripleo-heat-templates/net/port.yaml";
    assert!(body["files"][installed]
        .as_str()
        .unwrap()
        .contains("192.0.2.1"));
    assert_eq!(
        body["environment"]["resource_registry"]["OS::Test::Port"],
        installed
    );
    // Without the remap the target is missing and nothing is exported.
    let (code, _, err) = heatcap(&["export", "-t", &t, "-e", &e, "--format", "heat-api"]);
    assert_eq!(code, 1);
    assert!(err.contains("E7001"), "{err}");
}
