//! The renderer against TripleO's own: the sha256 of every file each
//! revision's `tools/process-templates.py` wrote (tests/render/REV.sha256,
//! recorded as tests/render/README.md says), compared when
//! `HEATCAP_THT_CHECKOUTS` names a directory holding the raw checkouts
//! (one directory per revision); the fixtures under fixtures/jinja/ cover
//! each rule in CI.

use super::*;
use sha2::{Digest, Sha256};

fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    Sha256::digest(bytes)
        .iter()
        .fold(String::new(), |mut s, b| {
            let _ = write!(s, "{b:02x}");
            s
        })
}

#[test]
fn every_recorded_revision_renders_byte_for_byte_as_python() {
    let Some(checkouts) = std::env::var_os("HEATCAP_THT_CHECKOUTS") else {
        return;
    };
    let mut compared = 0;
    let mut manifests: Vec<_> = std::fs::read_dir("tests/render")
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "sha256"))
        .collect();
    manifests.sort();
    assert_eq!(manifests.len(), 5);
    let mut failures = Vec::new();
    for manifest in manifests {
        let rev = manifest.file_stem().unwrap().to_string_lossy().into_owned();
        let root = Path::new(&checkouts).join(&rev);
        assert!(
            root.is_dir(),
            "no checkout of {rev} in HEATCAP_THT_CHECKOUTS"
        );
        let tree = render_tree(&root, &rev, &RenderOptions::default());
        assert!(
            tree.diagnostics.is_empty(),
            "{rev}: {:#?}",
            tree.diagnostics
        );
        let ours: HashMap<&str, String> = tree
            .outputs
            .iter()
            .map(|f| (f.path.as_str(), hex(f.text.as_bytes())))
            .collect();
        let text = std::fs::read_to_string(&manifest).unwrap();
        let theirs: Vec<(&str, &str)> = text
            .lines()
            .map(|l| {
                let (h, p) = l.split_once("  ").unwrap();
                (p, h)
            })
            .collect();
        assert_eq!(ours.len(), theirs.len(), "{rev}: output count");
        for (path, hash) in theirs {
            compared += 1;
            if ours.get(path).map(String::as_str) != Some(hash) {
                failures.push(format!("{rev}/{path}"));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} differ: {failures:#?}",
        failures.len()
    );
    assert_eq!(compared, 22 + 123 + 101 + 114 + 70);
}

#[test]
fn sources_are_found_by_the_scripts_naming_rules_without_data() {
    let sources: Vec<String> = [
        "environments/plain.j2.yaml",
        "puppet/role.role.j2.yaml",
        "network/config/bond/role.role.j2.yaml",
        "network/network.network.j2.yaml",
        "network/ports/port.network.j2.yaml",
        "network/ports/deployed_vip_port.network.j2.yaml",
    ]
    .map(str::to_owned)
    .to_vec();
    let rules = super::ScriptRules::latest();
    let named = |n: &str| super::sources_named(n, &sources, &rules);
    assert_eq!(
        named("environments/plain.yaml"),
        ["environments/plain.j2.yaml"]
    );
    assert_eq!(
        named("puppet/compute-role.yaml"),
        ["puppet/role.role.j2.yaml"]
    );
    assert_eq!(
        named("network/config/bond/anything.yaml"),
        ["network/config/bond/role.role.j2.yaml"]
    );
    assert_eq!(
        named("network/storage.yaml"),
        ["network/network.network.j2.yaml"]
    );
    // In ports/, `port` is replaced; both templates could give a name
    // ending as the plain one does.
    assert_eq!(
        named("network/ports/deployed_vip_tenant.yaml"),
        [
            "network/ports/port.network.j2.yaml",
            "network/ports/deployed_vip_port.network.j2.yaml"
        ]
    );
    assert_eq!(
        named("network/ports/tenant.yaml"),
        ["network/ports/port.network.j2.yaml"]
    );
    // No rule: a role template needs a role before its name, a plain
    // source its exact stem; another directory is never a match.
    assert!(named("puppet/role.yaml").is_empty());
    assert!(named("environments/other.yaml").is_empty());
    assert!(named("other/controller-role.yaml").is_empty());
    // Before network templates (early 2017) a `.network.j2.yaml` is plain.
    let mut old = super::ScriptRules::latest();
    old.network_templates = false;
    assert_eq!(
        super::sources_named("network/network.network.yaml", &sources, &old),
        ["network/network.network.j2.yaml"]
    );
}
