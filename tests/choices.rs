//! The choices a tree already offers (issue 17.2): `capabilities-find -r -c
//! resource_type=T TREE` returns, for every type T an environment of the
//! tree maps to a template, exactly the existing templates environments map
//! it to, and `options -r TREE` counts what the recording counts.
//!
//! The expected answers are computed independently of heatcap by
//! `tools/choices/expected.py` (tripleo-plans.md §5's method) and recorded
//! in tests/choices/<tree>.json. The 2016 TripleO tree is in the
//! repository and always checked; the rendered 2018 and 2023 trees are
//! checked when `HEATCAP_THT_RENDERED` names the directory holding
//! `13d0057c/` and `1393d39b/` (each rendered in place by its own
//! `tools/process-templates.py`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use clap::Parser;
use heatcap::cli::{run, Cli};
use heatcap::{Condition, WalkOptions, Workspace};
use serde_json::Value as J;

fn recording(name: &str) -> J {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/choices")
        .join(format!("{name}.json"));
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// `path` shown under `root` → relative to it.
fn relative(root: &str, path: &str) -> String {
    path.strip_prefix(root)
        .unwrap_or(path)
        .trim_start_matches('/')
        .to_owned()
}

fn cli(args: &[&str]) -> (i32, String) {
    let mut words = vec!["heatcap"];
    words.extend(args);
    let cli = Cli::try_parse_from(words).unwrap();
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = run(cli, &mut out, &mut err).unwrap();
    (code as i32, String::from_utf8(out).unwrap())
}

/// Every recorded type: heatcap's answer equals the recorded list. The
/// workspace is opened once, as `capabilities-find` opens it; the first
/// types also go through the command line.
fn check_find(tree: &Path, name: &str) {
    let expected = recording(name);
    let types = expected["types"].as_object().unwrap();
    assert!(!types.is_empty());
    let root = tree.display().to_string();
    let ws = Workspace::builder()
        .walk(WalkOptions::new(vec![PathBuf::from(&root)]).recursive())
        .prefilter("capabilities")
        .infer_candidates()
        .open();
    let mut differences = Vec::new();
    for (ty, want) in types {
        let cond = Condition::parse(&format!("resource_type={ty}")).unwrap();
        let mut got: Vec<String> = ws
            .find(&[cond])
            .iter()
            .map(|m| relative(&root, m.path))
            .collect();
        got.sort();
        let want: Vec<String> = want
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_str().unwrap().to_owned())
            .collect();
        if got != want {
            differences.push(format!("{ty}: heatcap {got:?}, recorded {want:?}"));
        }
    }
    assert!(
        differences.is_empty(),
        "{name}: {} of {} types differ:\n{}",
        differences.len(),
        types.len(),
        differences.join("\n")
    );
    for (ty, want) in types.iter().take(3) {
        let (code, out) = cli(&[
            "capabilities-find",
            "-q",
            "-r",
            "-c",
            &format!("resource_type={ty}"),
            &root,
        ]);
        assert_eq!(code, 0);
        let mut got: Vec<String> = out.lines().map(|l| relative(&root, l)).collect();
        got.sort();
        assert_eq!(J::from(got), *want, "{ty}");
    }
}

/// `options -r TREE`: types with two or more candidates, and the
/// conflicting pairs of environment files, as the recording counts them.
fn check_options(tree: &Path, name: &str) {
    let counts = &recording(name)["counts"];
    let root = tree.display().to_string();
    let (_, out) = cli(&["options", "-q", "-r", &root, "--format", "json"]);
    let report: J = serde_json::from_str(&out).unwrap();
    let choices = report["choices"].as_array().unwrap();
    let with_two = choices
        .iter()
        .filter(|c| c["selection"]["candidates"].as_array().unwrap().len() >= 2)
        .count();
    assert_eq!(
        J::from(with_two),
        counts["types_with_2_or_more_candidates"],
        "{name}"
    );
    let mut pairs: BTreeMap<(String, String), usize> = BTreeMap::new();
    let mut instances = 0;
    for c in choices {
        for conflict in c["conflicts"].as_array().into_iter().flatten() {
            let envs = conflict["environments"].as_array().unwrap();
            let a = relative(&root, envs[0].as_str().unwrap());
            let b = relative(&root, envs[1].as_str().unwrap());
            let key = if a < b { (a, b) } else { (b, a) };
            *pairs.entry(key).or_default() += 1;
            instances += 1;
        }
    }
    assert_eq!(
        J::from(instances),
        counts["conflicting_pair_type_instances"]
    );
    assert_eq!(J::from(pairs.len()), counts["conflicting_pairs"]);
    let top = |p: &str| !p.contains('/');
    let outside = pairs
        .keys()
        .filter(|(a, b)| !top(a) && !top(b))
        .filter(|(a, b)| !a.starts_with("ci/") && !b.starts_with("ci/"))
        .count();
    assert_eq!(
        J::from(outside),
        counts["conflicting_pairs_without_root_and_ci"]
    );
}

fn tht_2016() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/tripleo-heat-templates-2016")
}

#[test]
fn find_on_the_2016_tree_equals_the_recording() {
    check_find(&tht_2016(), "tht-2016");
}

#[test]
fn options_on_the_2016_tree_counts_as_the_recording() {
    check_options(&tht_2016(), "tht-2016");
}

/// The rendered 2018 and 2023 trees, when `HEATCAP_THT_RENDERED` names
/// their directory.
#[test]
fn rendered_trees_equal_their_recordings() {
    // Without it, the rendered trees are not checked (they are not in the
    // repository); the 2016 tree's tests above always run.
    let Some(dir) = std::env::var_os("HEATCAP_THT_RENDERED") else {
        return;
    };
    for rev in ["13d0057c", "1393d39b"] {
        let tree = Path::new(&dir).join(rev);
        let name = format!("tht-{rev}");
        check_find(&tree, &name);
        check_options(&tree, &name);
    }
}

/// Issue 17: `options` says of each conflicting pair whether the tree's
/// catalogue (capabilities-map.yaml) declares the two environments
/// mutually exclusive; a pair the map does not list both of is unknown.
/// The 2016 map never writes `mutually_exclusive`, so a group of several
/// environments is exclusive (its header says so).
#[test]
fn options_on_the_2016_tree_says_what_the_catalogue_excludes() {
    let root = tht_2016().display().to_string();
    let (_, out) = cli(&["options", "-q", "-r", &root, "--format", "json"]);
    let report: J = serde_json::from_str(&out).unwrap();
    let mut said: BTreeMap<(String, String), J> = BTreeMap::new();
    for c in report["choices"].as_array().unwrap() {
        for conflict in c["conflicts"].as_array().into_iter().flatten() {
            let envs = conflict["environments"].as_array().unwrap();
            let a = relative(&root, envs[0].as_str().unwrap());
            let b = relative(&root, envs[1].as_str().unwrap());
            let key = if a < b { (a, b) } else { (b, a) };
            said.insert(key, conflict["mutually_exclusive"].clone());
        }
    }
    let pair = |a: &str, b: &str| said[&(a.to_owned(), b.to_owned())].clone();
    // One group ("Network Interface Configuration"): exclusive.
    assert_eq!(
        pair(
            "environments/net-bond-with-vlans.yaml",
            "environments/net-single-nic-with-vlans.yaml"
        ),
        J::Bool(true)
    );
    // Both in the map, in different groups: not exclusive.
    assert_eq!(
        pair(
            "environments/cinder-netapp-config.yaml",
            "environments/neutron-ml2-bigswitch.yaml"
        ),
        J::Bool(false)
    );
    // network-environment.yaml is in no topic: unknown, so absent.
    assert_eq!(
        pair(
            "environments/net-bond-with-vlans.yaml",
            "environments/network-environment.yaml"
        ),
        J::Null
    );
    let exclusive = said.values().filter(|v| **v == J::Bool(true)).count();
    assert_eq!(exclusive, 2);
}
