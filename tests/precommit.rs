//! `.pre-commit-hooks.yaml`: the hooks template repositories use. pre-commit
//! runs `entry` + `args` + the staged files its `files` and `exclude`
//! regexes select; this test does the same on fixture trees.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn hooks() -> Vec<Value> {
    let text = std::fs::read_to_string(".pre-commit-hooks.yaml").unwrap();
    let parsed = heatcap::parse_text(
        &text,
        ".pre-commit-hooks.yaml",
        &heatcap::ParseOptions::default(),
    );
    assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
    let Value::Array(hooks) = parsed.root.unwrap().value.to_json() else {
        panic!("the file is a list of hooks");
    };
    hooks
}

fn text<'a>(hook: &'a Value, key: &str) -> &'a str {
    hook[key]
        .as_str()
        .unwrap_or_else(|| panic!("{key} in {hook}"))
}

/// The files under `dir` a hook selects, as pre-commit passes them.
fn selected(hook: &Value, dir: &Path) -> Vec<PathBuf> {
    let files = regex::Regex::new(text(hook, "files")).unwrap();
    let exclude = regex::Regex::new(text(hook, "exclude")).unwrap();
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            let name = p.to_string_lossy().into_owned();
            if p.is_dir() {
                stack.push(p);
            } else if files.is_match(&name) && !exclude.is_match(&name) {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// Runs a hook as pre-commit would: its exit status.
fn run(hook: &Value, files: &[PathBuf]) -> i32 {
    let entry: Vec<&str> = text(hook, "entry").split_whitespace().collect();
    assert_eq!(entry[0], "heatcap");
    let args: Vec<&str> = hook["args"]
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    Command::new(env!("CARGO_BIN_EXE_heatcap"))
        .args(&entry[1..])
        .args(args)
        .args(files)
        .output()
        .unwrap()
        .status
        .code()
        .unwrap()
}

#[test]
fn the_hooks_are_declared_as_pre_commit_reads_them() {
    let hooks = hooks();
    let ids: Vec<&str> = hooks.iter().map(|h| text(h, "id")).collect();
    assert_eq!(ids, ["heatcap-validate", "heatcap-validate-system"]);
    let languages: Vec<&str> = hooks.iter().map(|h| text(h, "language")).collect();
    assert_eq!(languages, ["rust", "system"]);
    for h in &hooks {
        assert_eq!(text(h, "entry"), "heatcap validate");
        assert_eq!(h["require_serial"], true);
        let files = regex::Regex::new(text(h, "files")).unwrap();
        for name in ["a.yaml", "d/b.yml", "c.template", "e.json"] {
            assert!(files.is_match(name), "{name}");
        }
        for name in ["a.txt", "yaml", "a.yaml.orig", "Cargo.toml"] {
            assert!(!files.is_match(name), "{name}");
        }
        let exclude = regex::Regex::new(text(h, "exclude")).unwrap();
        assert!(exclude.is_match("roles/role.role.j2.yaml"));
        assert!(!exclude.is_match("roles/role.yaml"));
    }
}

#[test]
fn a_clean_tree_passes_and_a_broken_one_fails() {
    let hook = &hooks()[0];
    // The spec tree, plus this repository's own YAML that is not Heat's
    // (W0011 is ignored: pre-commit, not the user, named those files).
    let mut clean = selected(hook, Path::new("fixtures/spec"));
    assert_eq!(clean.len(), 3, "{clean:?}");
    clean.push(".pre-commit-hooks.yaml".into());
    assert_eq!(run(hook, &clean), 0);
    // Jinja sources are left out, so a TripleO tree's are never named.
    let overcloud = selected(hook, Path::new("fixtures/overcloud/puppet"));
    assert!(overcloud
        .iter()
        .all(|p| !p.to_string_lossy().contains(".j2.")));
    let broken = selected(hook, Path::new("fixtures/overcloud/broken"));
    assert!(!broken.is_empty());
    assert_eq!(run(hook, &broken), 1);
}
