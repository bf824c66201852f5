//! The composite GitHub Action (action.yml) runs as a runner would run it:
//! its steps' scripts, in order, with the environment each step declares,
//! on a git repository whose base commit is fixtures/interface/ci/old and
//! whose head is fixtures/interface/ci/new (.heatcap.yaml names its
//! deployments). The markdown lands in the job summary, the annotations
//! on stdout, and the breaking change fails the job.

use std::path::Path;
use std::process::Command;

use heatcap::node::Node;

fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@localhost"])
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap().trim().to_owned()
}

fn copy(from: &Path, to: &Path) {
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
    }
}

/// Each step: its `run` script and its `env` names and values as written.
fn steps() -> Vec<(String, Vec<(String, String)>)> {
    let text = std::fs::read_to_string("action.yml").unwrap();
    let parsed = heatcap::parse_text(&text, "action.yml", &heatcap::ParseOptions::default());
    let root = parsed.root.unwrap();
    let steps = root
        .as_map()
        .unwrap()
        .get("runs")
        .unwrap()
        .as_map()
        .unwrap();
    assert_eq!(steps.get("using").and_then(Node::as_str), Some("composite"));
    steps
        .get("steps")
        .unwrap()
        .as_seq()
        .unwrap()
        .iter()
        .map(|s| {
            let s = s.as_map().unwrap();
            assert_eq!(s.get("shell").and_then(Node::as_str), Some("bash"));
            let env = s
                .get("env")
                .and_then(Node::as_map)
                .map(|m| {
                    m.entries
                        .iter()
                        .map(|(k, v)| {
                            (
                                k.as_str().unwrap().to_owned(),
                                v.as_str().unwrap_or_default().to_owned(),
                            )
                        })
                        .collect()
                })
                .unwrap_or_default();
            (s.get("run").unwrap().as_str().unwrap().to_owned(), env)
        })
        .collect()
}

#[test]
fn the_action_writes_the_summary_and_fails_on_a_breaking_change() {
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path().join("repo");
    let temp = dir.path().join("runner");
    std::fs::create_dir_all(&repo).unwrap();
    std::fs::create_dir_all(&temp).unwrap();
    git(&repo, &["init", "-q"]);
    git(&repo, &["config", "uploadpack.allowAnySHA1InWant", "true"]);
    copy(Path::new("fixtures/interface/ci/old"), &repo);
    std::fs::copy(
        "fixtures/interface/ci/new/.heatcap.yaml",
        repo.join(".heatcap.yaml"),
    )
    .unwrap();
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "-qm", "base"]);
    let base = git(&repo, &["rev-parse", "HEAD"]);
    copy(Path::new("fixtures/interface/ci/new"), &repo);
    git(&repo, &["commit", "-qam", "head"]);
    let origin = repo.to_str().unwrap().to_owned();
    git(&repo, &["remote", "add", "origin", &origin]);
    let summary = temp.join("summary.md");
    let inputs = |value: &str| -> String {
        // The expressions the runner fills in, as this test's inputs.
        match value {
            v if v.contains("inputs.heatcap") => env!("CARGO_BIN_EXE_heatcap").to_owned(),
            v if v.contains("inputs.base") => base.clone(),
            v if v.contains("inputs.fail-on") => "breaking".to_owned(),
            v if v.contains("inputs.args") => String::new(),
            v => panic!("an input this test does not give: {v}"),
        }
    };
    let mut last = None;
    for (script, env) in steps() {
        let out = Command::new("bash")
            .args(["-e", "-c", &script])
            .current_dir(&repo)
            .env("RUNNER_TEMP", &temp)
            .env("GITHUB_STEP_SUMMARY", &summary)
            .env("GITHUB_PATH", temp.join("path"))
            .env("GITHUB_ACTION_PATH", std::env::current_dir().unwrap())
            .envs(env.iter().map(|(k, v)| (k.clone(), inputs(v))))
            .output()
            .unwrap();
        last = Some(out);
        let out = last.as_ref().unwrap();
        if !out.status.success() {
            break;
        }
    }
    let out = last.unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("::error file=root.yaml,line=3,col=3,title=heatcap diff value-refused::"),
        "{stdout}"
    );
    assert!(
        stdout.contains("::warning file=other.yaml,line=8,col=5,"),
        "{stdout}"
    );
    let md = std::fs::read_to_string(&summary).unwrap();
    assert!(
        md.starts_with("### heatcap diff: `main`\n\n**1 breaking** · 0 warnings"),
        "{md}"
    );
    assert!(md.contains("### heatcap diff: `other`"), "{md}");
}
