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
