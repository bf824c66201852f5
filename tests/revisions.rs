//! `--rev REV` and diff's revision sides against checkouts: each test
//! builds a small git repository of fixture trees (three commits, and
//! uncommitted changes in the working tree that `--rev` must not see),
//! runs every command that reads a tree with `--rev` in the repository and
//! without it in a checkout of that revision (`git worktree add`), and
//! asks for the same exit code, standard output and standard error. The
//! failures (no repository, an unknown revision, a shallow or a partial
//! clone) each have a test. CI has the `git` command.
//!
//! Opt-in (`--ignored`): `HEATCAP_THT_GIT=/path/to/a/clone/of/tripleo-heat-templates`
//! with `HEATCAP_THT_CHECKOUTS=/dir/holding/rocky-eol` compares
//! `parameters --rev rocky-eol` of a 2018-style deployment with the same
//! command on the `rocky-eol` checkout.

use std::path::{Path, PathBuf};
use std::process::Command;

mod common;
use common::git;

const HEATCAP: &str = env!("CARGO_BIN_EXE_heatcap");

/// Copies the directory `from` to `to` (created).
fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), &target).unwrap();
        }
    }
}

/// Replaces everything but `.git` in `repo` with `trees` (fixture
/// directory → directory below the repository).
fn lay(repo: &Path, trees: &[(&str, &str)]) {
    for e in std::fs::read_dir(repo).unwrap() {
        let e = e.unwrap();
        if e.file_name() != ".git" {
            std::fs::remove_dir_all(e.path()).unwrap();
        }
    }
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    for (from, to) in trees {
        copy_dir(&fixtures.join(from), &repo.join(to));
    }
}

/// A repository of three commits (`v1`, `v2`, `v3` tags): a raw TripleO
/// tree (`tht`: the 2017, 2018 and latest fixtures, each rendered with
/// its own roles and network data), plain templates (`plain`: diff's old
/// and new sides, then a file removed and a value changed), a
/// capabilities tree (`spec`) and a tree with a capabilities map (`oc`).
/// The working tree then differs from every commit.
fn repository() -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let repo = std::fs::canonicalize(tmp.path()).unwrap().join("repo");
    std::fs::create_dir(&repo).unwrap();
    git(&repo, &["init", "-q"]);
    let revisions: [(&str, [(&str, &str); 4]); 3] = [
        (
            "v1",
            [
                ("jinja/2017", "tht"),
                ("diff/old", "plain"),
                ("spec", "spec"),
                ("overcloud", "oc"),
            ],
        ),
        (
            "v2",
            [
                ("jinja/2018", "tht"),
                ("diff/new", "plain"),
                ("spec", "spec"),
                ("overcloud", "oc"),
            ],
        ),
        (
            "v3",
            [
                ("jinja/latest", "tht"),
                ("diff/new", "plain"),
                ("spec", "spec"),
                ("overcloud", "oc"),
            ],
        ),
    ];
    for (tag, trees) in revisions {
        lay(&repo, &trees);
        if tag == "v3" {
            std::fs::remove_file(repo.join("spec/docker/controller.yaml")).unwrap();
            let env = repo.join("plain/env.yaml");
            let text = std::fs::read_to_string(&env).unwrap();
            std::fs::write(&env, format!("{text}\nparameter_defaults:\n  Added: 1\n")).unwrap();
        }
        git(&repo, &["add", "-A"]);
        git(&repo, &["commit", "-q", "-m", tag]);
        git(&repo, &["tag", tag]);
    }
    // Uncommitted changes: --rev reads none of them.
    std::fs::write(
        repo.join("plain/root.yaml"),
        "heat_template_version: 2016-10-14\nresources: {}\n",
    )
    .unwrap();
    std::fs::write(repo.join("tht/extra.yaml"), "heat_template_version: [\n").unwrap();
    std::fs::remove_file(repo.join("spec/environment.yaml")).unwrap();
    (tmp, repo)
}

/// A checkout of `rev` beside the repository.
fn checkout(repo: &Path, rev: &str) -> PathBuf {
    let dir = repo.parent().unwrap().join(format!("co-{rev}"));
    if !dir.exists() {
        git(
            repo,
            &[
                "worktree",
                "add",
                "-q",
                "--detach",
                dir.to_str().unwrap(),
                rev,
            ],
        );
    }
    dir
}

/// heatcap's exit code, standard output and standard error, run in `dir`.
fn run(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(HEATCAP)
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Every command that reads a tree, as run from the repository's top.
const COMMANDS: &[&[&str]] = &[
    &["index", "-r", "tht", "plain", "spec"],
    &[
        "capabilities-find",
        "-r",
        "-c",
        "resource_type=OS::TripleO::Controller",
        "spec",
    ],
    &[
        "template-capabilities",
        "-f",
        "spec/puppet/controller.yaml",
        "-e",
        "spec/environment.yaml",
        "--format",
        "json",
    ],
    &[
        "resolve",
        "-t",
        "tht/overcloud.yaml",
        "-e",
        "spec/environment.yaml",
        "--format",
        "json",
    ],
    &["parameters", "-t", "tht/overcloud.yaml", "--format", "json"],
    &[
        "parameters",
        "-t",
        "plain/root.yaml",
        "-e",
        "plain/env.yaml",
        "--format",
        "heat",
    ],
    &["validate", "-r", "tht", "plain", "spec", "--format", "json"],
    &[
        "preview",
        "-t",
        "plain/root.yaml",
        "-e",
        "plain/env.yaml",
        "--format",
        "json",
    ],
    &[
        "options",
        "-e",
        "spec/environment.yaml",
        "-r",
        "spec",
        "--format",
        "json",
    ],
    &["catalogue", "oc", "--format", "json"],
    &[
        "export",
        "-t",
        "plain/root.yaml",
        "-e",
        "plain/env.yaml",
        "--format",
        "json",
        "--out",
        "out",
    ],
];

/// `--rev REV` in the repository answers as the command does in a checkout
/// of REV, for every command and three revisions.
#[test]
fn every_command_at_a_revision_answers_as_on_its_checkout() {
    let (_tmp, repo) = repository();
    for rev in ["v1", "v2", "HEAD"] {
        let co = checkout(&repo, rev);
        for command in COMMANDS {
            let mut with_rev: Vec<&str> = command.to_vec();
            with_rev.insert(1, rev);
            with_rev.insert(1, "--rev");
            let export = command[0] == "export";
            if export {
                let _ = std::fs::remove_dir_all(repo.join("out"));
                let _ = std::fs::remove_dir_all(co.join("out"));
            }
            let at_rev = run(&repo, &with_rev);
            // Absolute paths (`file://` keys) name where each tree is.
            let (code, out, err) = run(&co, command);
            let here = |t: String| t.replace(co.to_str().unwrap(), repo.to_str().unwrap());
            let on_checkout = (code, here(out), here(err));
            assert_eq!(at_rev, on_checkout, "{rev}: {command:?}");
            if export {
                assert_same_trees(&repo.join("out"), &co.join("out"));
            }
        }
        // The render: the same files written.
        let (rendered_rev, rendered_co) = (repo.join("r-rev"), co.join("r-co"));
        let at_rev = run(
            &repo,
            &["render", "--rev", rev, "tht", "--out", "r-rev", "-q"],
        );
        let on_checkout = run(&co, &["render", "tht", "--out", "r-co", "-q"]);
        assert_eq!(at_rev, on_checkout, "{rev}: render");
        assert_same_trees(&rendered_rev, &rendered_co);
        std::fs::remove_dir_all(&rendered_rev).unwrap();
    }
}

/// The words as `&str`s.
fn args(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

/// Every file below `a` is below `b` with the same bytes, and no other.
fn assert_same_trees(a: &Path, b: &Path) {
    fn files(root: &Path, dir: &Path, out: &mut Vec<(PathBuf, Vec<u8>)>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                files(root, &p, out);
            } else {
                out.push((
                    p.strip_prefix(root).unwrap().to_path_buf(),
                    std::fs::read(&p).unwrap(),
                ));
            }
        }
    }
    let (mut x, mut y) = (Vec::new(), Vec::new());
    files(a, a, &mut x);
    files(b, b, &mut y);
    assert!(!x.is_empty(), "{} is empty", a.display());
    assert_eq!(x.len(), y.len(), "{} vs {}", a.display(), b.display());
    for ((pa, ba), (pb, bb)) in x.iter().zip(&y) {
        assert_eq!(pa, pb);
        assert!(ba == bb, "{} differs", pa.display());
    }
}

/// `diff` between revisions answers as `diff --from DIR` between their
/// checkouts: `--from REV` (to the working tree), `--from A --to B`,
/// `A..B`, `A...B` (from the merge base), and `REV` alone.
#[test]
fn diff_sides_from_revisions_answer_as_their_checkouts() {
    let (_tmp, repo) = repository();
    let deployment = [
        "-t",
        "plain/root.yaml",
        "-e",
        "plain/env.yaml",
        "--format",
        "json",
    ];
    let with = |first: &[&str]| -> Vec<String> {
        let mut v: Vec<String> = vec!["diff".into()];
        v.extend(first.iter().map(|s| (*s).to_owned()));
        v.extend(deployment.iter().map(|s| (*s).to_owned()));
        v
    };
    let (v1, v3) = (checkout(&repo, "v1"), checkout(&repo, "v3"));
    // In v3's checkout, the old side is v1's checkout.
    let from_v1 = with(&["--from", v1.to_str().unwrap()]);
    // The old side's paths are named as given: in the checkout, below it.
    let named_as_given = |(code, out, err): (i32, String, String)| {
        let mut named = (code, out, err);
        for dir in [&v1, &v3] {
            let prefix = format!("{}/", dir.display());
            named = (
                named.0,
                named.1.replace(&prefix, ""),
                named.2.replace(&prefix, ""),
            );
        }
        named
    };
    let expected = named_as_given(run(&v3, &args(&from_v1)));
    assert!(expected.1.contains("\"changes\""), "{expected:?}");
    for spec in [
        vec!["v1..v3"],
        vec!["--from", "v1", "--to", "v3"],
        vec!["v1...v3"],
    ] {
        let got = run(&repo, &args(&with(&spec)));
        assert_eq!(got, expected, "{spec:?}");
    }
    // A revision with itself says nothing has changed but what Heat
    // always updates, as the same directory does.
    let same = run(&repo, &args(&with(&["v3..v3"])));
    let same_dir = named_as_given(run(&v3, &args(&with(&["--from", v3.to_str().unwrap()]))));
    assert!(same.1.contains("\"add\": 0, \"replace\": 1"), "{same:?}");
    assert_eq!(same, same_dir);
    // `REV` alone, and `--from REV`: to the working tree as on disk.
    let on_disk = named_as_given(run(&repo, &args(&with(&["--from", v1.to_str().unwrap()]))));
    assert_eq!(run(&repo, &args(&with(&["v1"]))), on_disk);
    assert_eq!(run(&repo, &args(&with(&["--from", "v1"]))), on_disk);
    // A directory side beside a revision side.
    assert_eq!(
        named_as_given(run(
            &repo,
            &args(&with(&["--from", v1.to_str().unwrap(), "--to", "v3"]))
        )),
        expected
    );
}

/// `A...B` starts from the merge base: on a branch from v2, `v3...topic`
/// compares v2 (the base) with the branch.
#[test]
fn three_dots_diff_from_the_merge_base() {
    let (_tmp, repo) = repository();
    git(&repo, &["stash", "-u", "-q"]);
    git(&repo, &["checkout", "-q", "-b", "topic", "v2"]);
    let env = repo.join("plain/env.yaml");
    let text = std::fs::read_to_string(&env).unwrap();
    std::fs::write(&env, format!("{text}\nparameter_defaults:\n  Topic: 1\n")).unwrap();
    git(&repo, &["commit", "-q", "-a", "-m", "topic"]);
    let deployment = [
        "-t",
        "plain/root.yaml",
        "-e",
        "plain/env.yaml",
        "--format",
        "json",
    ];
    let mut three = vec!["diff", "v3...topic"];
    three.extend(deployment);
    let mut two = vec!["diff", "v2..topic"];
    two.extend(deployment);
    let (a, b) = (run(&repo, &three), run(&repo, &two));
    assert_eq!(a, b);
    let mut other = vec!["diff", "v3..topic"];
    other.extend(deployment);
    assert_eq!(a.0, run(&repo, &other).0);
}

/// Not in a repository: E0031, naming the revision, exit 2.
#[test]
fn outside_a_repository_is_e0031() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("t");
    copy_dir(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/diff/old"),
        &dir,
    );
    let (code, out, err) = run(
        tmp.path(),
        &["parameters", "--rev", "HEAD~1", "-t", "t/root.yaml"],
    );
    assert_eq!((code, out.as_str()), (2, ""), "{err}");
    assert!(err.contains("E0031") && err.contains("`HEAD~1`"), "{err}");
    assert!(err.contains("not in a git repository"), "{err}");
}

/// An unknown revision: E0032 naming it and what to fetch, exit 2; the
/// same for diff's sides.
#[test]
fn an_unknown_revision_is_e0032() {
    let (_tmp, repo) = repository();
    for args in [
        vec!["index", "-r", "--rev", "no-such-tag", "plain"],
        vec!["diff", "-t", "plain/root.yaml", "v1..no-such-tag"],
        vec!["diff", "-t", "plain/root.yaml", "--from", "no-such-tag"],
        vec!["diff", "-t", "plain/root.yaml", "--to", "no-such-tag"],
    ] {
        let (code, out, err) = run(&repo, &args);
        assert_eq!((code, out.as_str()), (2, ""), "{args:?}: {err}");
        assert!(
            err.contains("E0032") && err.contains("`no-such-tag`") && err.contains("git -C"),
            "{args:?}: {err}"
        );
    }
    // A `--from` that is neither a directory nor a revision says both.
    let (_, _, err) = run(
        &repo,
        &["diff", "-t", "plain/root.yaml", "--from", "no-such-tag"],
    );
    assert!(
        err.contains("nor is there a directory `no-such-tag`"),
        "{err}"
    );
}

/// A shallow clone lacks history: the message says it is shallow and how
/// to deepen it.
#[test]
fn a_shallow_clone_says_to_fetch_more_history() {
    let (_tmp, repo) = repository();
    let shallow = repo.parent().unwrap().join("shallow");
    let url = format!("file://{}", repo.display());
    git(
        repo.parent().unwrap(),
        &[
            "clone",
            "-q",
            "--depth",
            "1",
            &url,
            shallow.to_str().unwrap(),
        ],
    );
    let (code, _, err) = run(
        &shallow,
        &["parameters", "--rev", "HEAD~1", "-t", "plain/root.yaml"],
    );
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("`HEAD~1`"), "{err}");
    assert!(
        err.contains("shallow clone") && err.contains("--deepen"),
        "{err}"
    );
    // What the clone has is read.
    let (code, out, err) = run(&shallow, &["index", "-r", "--rev", "HEAD", "plain"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("plain/root.yaml"), "{out}");
}

/// A partial clone without its blobs: E0033 naming the revision and how
/// to get the objects.
#[test]
fn a_partial_clone_says_which_objects_to_fetch() {
    let (_tmp, repo) = repository();
    git(&repo, &["config", "uploadpack.allowFilter", "true"]);
    let partial = repo.parent().unwrap().join("partial");
    let url = format!("file://{}", repo.display());
    git(
        repo.parent().unwrap(),
        &[
            "clone",
            "-q",
            "--no-checkout",
            "--filter=blob:none",
            &url,
            partial.to_str().unwrap(),
        ],
    );
    let (code, out, err) = run(
        &partial,
        &["parameters", "--rev", "v2", "-t", "plain/root.yaml"],
    );
    assert_eq!((code, out.as_str()), (2, ""), "{err}");
    assert!(err.contains("E0033") && err.contains("`v2`"), "{err}");
    assert!(err.contains("archive v2"), "{err}");
}

/// A path the revision does not hold is missing at that revision, even
/// where the working tree has it; a directory only the revision holds is
/// read.
#[test]
fn the_revision_not_the_disk_says_what_exists() {
    let (_tmp, repo) = repository();
    let (code, _, err) = run(
        &repo,
        &["index", "--rev", "v3", "spec/docker/controller.yaml"],
    );
    assert_eq!(code, 1);
    assert!(err.contains("no such file or directory"), "{err}");
    std::fs::remove_dir_all(repo.join("oc")).unwrap();
    let (code, out, err) = run(&repo, &["index", "-r", "--rev", "v1", "oc/environments"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("oc/environments/network-environment.yaml"),
        "{out}"
    );
}

/// A file of the revision larger than `--max-size` allows is not read
/// from git's objects (only its size is): it is E0003 with its size, the
/// revision and the limit, and the rest of the tree is still read, as on
/// the disk.
#[test]
fn a_revision_file_over_the_size_limit_is_too_large_and_the_rest_is_read() {
    let tmp = tempfile::tempdir().unwrap();
    let repo = std::fs::canonicalize(tmp.path()).unwrap();
    git(&repo, &["init", "-q"]);
    let small = "heat_template_version: 2016-10-14\nresources: {}\n";
    let big = format!(
        "heat_template_version: 2016-10-14\n#{}\n",
        "x".repeat(5_000)
    );
    std::fs::write(repo.join("small.yaml"), small).unwrap();
    std::fs::write(repo.join("big.yaml"), &big).unwrap();
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "-q", "-m", "one"]);
    std::fs::remove_file(repo.join("big.yaml")).unwrap();
    let (code, out, err) = run(
        &repo,
        &[
            "index",
            "-r",
            "--rev",
            "HEAD",
            "--max-size",
            "1000",
            "--format",
            "json",
            ".",
        ],
    );
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("small.yaml"), "{out}");
    let size = big.len();
    assert!(
        err.contains(&format!(
            "./big.yaml: E0003 error: the file is {size} bytes at revision `HEAD`, so more than \
             1000 characters (a character is at most 4 bytes), the limit; it was not read"
        )),
        "{err}"
    );
    // Within the limit, it is read.
    let (code, out, err) = run(
        &repo,
        &["index", "-r", "--rev", "HEAD", "--format", "json", "."],
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("big.yaml"), "{out}");
}

/// Opt-in: `parameters --rev rocky-eol` of a 2018-style deployment in a
/// clone of tripleo-heat-templates (`HEATCAP_THT_GIT`) equals the same
/// command on the `rocky-eol` checkout (`HEATCAP_THT_CHECKOUTS/rocky-eol`).
#[test]
#[ignore = "set HEATCAP_THT_GIT (a clone of tripleo-heat-templates) and HEATCAP_THT_CHECKOUTS (holding rocky-eol)"]
fn tripleo_rocky_eol_from_git_equals_its_checkout() {
    let (Ok(clone), Ok(checkouts)) = (
        std::env::var("HEATCAP_THT_GIT"),
        std::env::var("HEATCAP_THT_CHECKOUTS"),
    ) else {
        return;
    };
    let deployment = [
        "parameters",
        "-t",
        "overcloud.yaml",
        "-e",
        "overcloud-resource-registry-puppet.yaml",
        "-e",
        "environments/docker.yaml",
        "-e",
        "environments/docker-ha.yaml",
        "-e",
        "environments/network-isolation.yaml",
        "-e",
        "environments/network-environment.yaml",
        "--format",
        "heat",
        "--max-nested-depth",
        "7",
    ];
    let mut at_rev = deployment.to_vec();
    at_rev.insert(1, "rocky-eol");
    at_rev.insert(1, "--rev");
    let clone = std::fs::canonicalize(clone).unwrap();
    let checkout = std::fs::canonicalize(Path::new(&checkouts).join("rocky-eol")).unwrap();
    let from_git = run(&clone, &at_rev);
    // Nested templates are named by absolute `file://` paths.
    let (code, out, err) = run(&checkout, &deployment);
    let here = |t: String| t.replace(checkout.to_str().unwrap(), clone.to_str().unwrap());
    let on_checkout = (code, here(out), here(err));
    assert!(from_git.1.len() > 100_000, "{}", from_git.2);
    assert_eq!(from_git, on_checkout);
}
