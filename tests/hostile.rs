//! r11: hostile inputs never hang and never slip by silently. A FIFO named
//! like a template, and a `.yaml` link to a FIFO or to /dev/zero, are
//! reported (E0017) by every command and never opened; the good file beside
//! them is still read.

use std::ffi::OsString;
use std::os::unix::ffi::OsStringExt;
use std::path::Path;
use std::sync::mpsc;
use std::time::Duration;

use clap::Parser;
use heatcap::cli::{run, Cli};

mod common;
use common::{linked_tree, Linked};

/// Runs heatcap in a thread; fails when it does not finish in time.
fn heatcap(args: Vec<String>) -> (String, String) {
    heatcap_os(args.into_iter().map(OsString::from).collect())
}

/// [`heatcap`] with arguments that need not be UTF-8.
fn heatcap_os(args: Vec<OsString>) -> (String, String) {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let cli =
            Cli::try_parse_from(std::iter::once(OsString::from("heatcap")).chain(args)).unwrap();
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let _ = run(cli, &mut out, &mut err);
        let _ = tx.send((
            String::from_utf8_lossy(&out).into_owned(),
            String::from_utf8_lossy(&err).into_owned(),
        ));
    });
    rx.recv_timeout(Duration::from_secs(30))
        .expect("heatcap hung on a FIFO or a device")
}

fn tree(dir: &Path) {
    let fifo = dir.join("fifo.yaml");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    std::os::unix::fs::symlink(&fifo, dir.join("to-fifo.yaml")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", dir.join("zero.yaml")).unwrap();
    std::fs::write(
        dir.join("good.yaml"),
        "heat_template_version: 2016-10-14\ncapabilities: {deployment: puppet}\nresources: {}\n",
    )
    .unwrap();
}

#[test]
fn fifos_and_devices_are_reported_never_opened() {
    let dir = tempfile::tempdir().unwrap();
    tree(dir.path());
    let d = dir.path().display().to_string();
    let p = |n: &str| format!("{d}/{n}");
    // Walking commands list the good file and report the others.
    for args in [
        vec![
            "index".to_owned(),
            "-r".to_owned(),
            d.clone(),
            "--format".to_owned(),
            "plain".to_owned(),
        ],
        vec![
            "capabilities-find".to_owned(),
            "-r".to_owned(),
            "-c".to_owned(),
            "deployment=puppet".to_owned(),
            d.clone(),
        ],
        vec!["validate".to_owned(), "-r".to_owned(), d.clone()],
    ] {
        let (out, err) = heatcap(args.clone());
        let all = format!("{out}{err}");
        // The good file is still read (validate: counted, with no finding).
        assert!(
            all.contains("good.yaml") || all.contains("1 file:"),
            "{args:?}: {all}"
        );
        for bad in ["fifo.yaml", "to-fifo.yaml", "zero.yaml"] {
            assert!(
                all.lines().any(|l| l.contains(bad) && l.contains("E0017")),
                "{args:?}: no E0017 for {bad}: {all}"
            );
        }
    }
    // Commands given the FIFO as a root or an environment.
    for bad in ["fifo.yaml", "to-fifo.yaml", "zero.yaml"] {
        for args in [
            vec!["resolve", "-t", &p(bad), "-e", &p(bad)],
            vec!["options", "-e", &p(bad)],
            vec!["parameters", "-t", &p(bad), "-e", &p("good.yaml")],
            vec![
                "export",
                "-t",
                &p("good.yaml"),
                "-e",
                &p(bad),
                "--format",
                "heat-api",
            ],
            vec!["validate", "-e", &p(bad), &p("good.yaml")],
        ] {
            let args: Vec<String> = args.into_iter().map(str::to_owned).collect();
            let (out, err) = heatcap(args.clone());
            let all = format!("{out}{err}");
            assert!(
                all.contains("E0017") || all.contains("not a regular file"),
                "{args:?}: {all}"
            );
        }
    }
}

fn write(p: &Path, text: &str) {
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

/// r11: export reads only under the root template's and the environments'
/// directories (E7011 otherwise, unless --allow-outside), never writes
/// through a link, and leaves OUT as it was when it refuses.
#[test]
fn export_stays_inside_its_tree() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let t = d.join("tree");
    write(&t.join("env.yaml"), "resource_registry: {}\n");
    std::os::unix::fs::symlink("/etc/passwd", t.join("passwd-link.txt")).unwrap();
    write(&t.join("inner.txt"), "in the tree\n");
    std::os::unix::fs::symlink(t.join("inner.txt"), t.join("inner-link.txt")).unwrap();
    let leaky = [
        "/etc/passwd",
        "../../../../../../../../etc/passwd",
        "file:///etc/passwd",
        "passwd-link.txt",
    ];
    for (i, target) in leaky.iter().enumerate() {
        let root = t.join(format!("leak{i}.yaml"));
        write(
            &root,
            &format!("heat_template_version: 2016-10-14\nresources:\n  a:\n    type: OS::Heat::Value\n    properties:\n      value: {{get_file: \"{target}\"}}\n"),
        );
        let out = d.join(format!("out{i}"));
        std::fs::create_dir_all(&out).unwrap();
        write(&out.join("keep.txt"), "mine\n");
        let args: Vec<String> = [
            "export",
            "-t",
            root.to_str().unwrap(),
            "-e",
            t.join("env.yaml").to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--force",
        ]
        .iter()
        .map(|s| (*s).to_owned())
        .collect();
        let (_, err) = heatcap(args);
        assert!(err.contains("E7011"), "{target}: {err}");
        // Refused: OUT is as it was.
        let names: Vec<String> = std::fs::read_dir(&out)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, ["keep.txt"], "{target}");
    }
    // An in-tree link is exported under the name the template uses, and
    // --force replaces a link in OUT instead of writing through it.
    let root = t.join("ok.yaml");
    write(
        &root,
        "heat_template_version: 2016-10-14\nresources:\n  a:\n    type: OS::Heat::Value\n    properties:\n      value: {get_file: inner-link.txt}\n",
    );
    let out = d.join("out-ok");
    std::fs::create_dir_all(&out).unwrap();
    let victim = d.join("victim.txt");
    write(&victim, "untouched\n");
    std::os::unix::fs::symlink(&victim, out.join("inner-link.txt")).unwrap();
    let args: Vec<String> = [
        "export",
        "-t",
        root.to_str().unwrap(),
        "-e",
        t.join("env.yaml").to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--force",
    ]
    .iter()
    .map(|s| (*s).to_owned())
    .collect();
    let (_, err) = heatcap(args);
    assert!(!err.contains("error"), "{err}");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "untouched\n");
    let copy = out.join("inner-link.txt");
    assert!(!std::fs::symlink_metadata(&copy)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(std::fs::read_to_string(copy).unwrap(), "in the tree\n");
}

/// r11: Heat's per-stack limits: 1,000 resources (E7012, and Heat's error
/// document), 524,288 characters for every uploaded file, `get_file`
/// targets included (E7013, export refused).
#[test]
fn heats_limits_apply() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(&d.join("big.sh"), &"x".repeat(600_000));
    write(
        &d.join("root.yaml"),
        "heat_template_version: 2016-10-14\nresources:\n  a: {type: OS::Heat::Value, properties: {value: {get_file: big.sh}}}\n",
    );
    write(&d.join("env.yaml"), "resource_registry: {}\n");
    let many: String =
        std::iter::once("heat_template_version: 2016-10-14\nresources:\n".to_owned())
            .chain((0..1001).map(|i| format!("  r{i}: {{type: OS::Heat::None}}\n")))
            .collect();
    write(&d.join("many.yaml"), &many);
    let s = |p: &str| d.join(p).display().to_string();
    let (out, err) = heatcap(vec![
        "export".into(),
        "-t".into(),
        s("root.yaml"),
        "-e".into(),
        s("env.yaml"),
        "--format".into(),
        "heat-api".into(),
    ]);
    assert!(out.is_empty() && err.contains("E7013"), "{out}{err}");
    let (out, err) = heatcap(vec![
        "parameters".into(),
        "-t".into(),
        s("many.yaml"),
        "--format".into(),
        "heat".into(),
    ]);
    assert!(err.contains("E7012"), "{err}");
    assert_eq!(
        out.trim(),
        r#"{"Error": "Request limit exceeded: Maximum resources per stack exceeded."}"#
    );
}

/// r11: a name with a newline or bytes that are not UTF-8 is shown in
/// Bash's ANSI-C quoting in every format (docs/output.md, "File names"):
/// one line per file in plain output, the exact bytes recoverable from
/// JSON, percent-encoded in SARIF, and the file can be opened again.
#[test]
fn odd_file_names_stay_whole() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let os = |b: &[u8]| d.join(OsString::from_vec(b.to_vec()));
    let template = "heat_template_version: 2016-10-14\ncapabilities: {deployment: puppet}\n";
    std::fs::write(os(b"new\nline.yaml"), template).unwrap();
    std::fs::write(os(b"caf\xe9.yaml"), template).unwrap();
    std::fs::write(d.join("good.yaml"), template).unwrap();
    std::fs::create_dir(os(b"d\xff")).unwrap();
    std::fs::create_dir(os(b"d\xff/sub\nx")).unwrap();
    std::fs::write(
        os(b"d\xff/sub\nx/inner.yaml"),
        "heat_template_version: 2016-10-14\nparameters:\n  p: {type: string}\n",
    )
    .unwrap();
    std::fs::write(
        os(b"d\xff/root.yaml"),
        "heat_template_version: 2016-10-14\nresources:\n  x: {type: \"sub\\nx/inner.yaml\"}\n",
    )
    .unwrap();
    let base = d.display().to_string();
    let strings = |a: &[&str]| a.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();

    let (out, _) = heatcap(strings(&["index", "-r", &base, "--format", "plain"]));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 5, "{out}");
    for shown in [
        r"$'new\nline.yaml'",
        r"$'caf\xe9.yaml'",
        r"$'d\xff'/root.yaml",
        r"$'d\xff'/$'sub\nx'/inner.yaml",
        "good.yaml",
    ] {
        let want = format!("{base}/{shown}");
        assert!(lines.iter().any(|l| l.ends_with(&want)), "{want}: {out}");
    }

    let (out, _) = heatcap(strings(&[
        "capabilities-find",
        "-r",
        "-c",
        "deployment=puppet",
        &base,
        "--format",
        "json",
    ]));
    let found: serde_json::Value = serde_json::from_str(&out).unwrap();
    let paths: Vec<&str> = found
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap())
        .collect();
    assert_eq!(
        paths,
        [
            format!("{base}/$'caf\\xe9.yaml'"),
            format!("{base}/good.yaml"),
            format!("{base}/$'new\\nline.yaml'"),
        ]
    );

    let (out, _) = heatcap(strings(&["validate", "-r", &base, "--format", "sarif"]));
    assert!(
        out.contains("/d%FF/sub%0Ax/inner.yaml\""),
        "the SARIF uri is not percent-encoded"
    );

    // Opened again by its real name: as -f and as a root template whose
    // nested template is named by a path with a newline.
    let (out, err) = heatcap_os(vec![
        "template-capabilities".into(),
        "-f".into(),
        os(b"caf\xe9.yaml").into_os_string(),
        "--format".into(),
        "json".into(),
    ]);
    assert_eq!(out.trim(), r#"{"deployment": ["puppet"]}"#, "{err}");
    let root = os(b"d\xff/root.yaml").into_os_string();
    let (out, err) = heatcap_os(vec![
        "parameters".into(),
        "-t".into(),
        root.clone(),
        "--format".into(),
        "plain".into(),
    ]);
    assert_eq!(out, "p\trequired\troot/x\n", "{err}");
    let (out, _) = heatcap_os(vec![
        "parameters".into(),
        "-t".into(),
        root,
        "--format".into(),
        "json".into(),
    ]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["tree"]["template"], format!("{base}/$'d\\xff'/root.yaml"));
    assert_eq!(
        v["tree"]["children"][0]["template"],
        format!("{base}/$'d\\xff'/$'sub\\nx'/inner.yaml")
    );
}

/// The export tree of `export_force_*`: a root, its environment and a
/// nested template in `sub/`; returns the arguments of `export --force`
/// into `out`.
fn force_export_args(d: &Path, out: &Path) -> Vec<String> {
    let t = d.join("tree");
    write(&t.join("env.yaml"), "resource_registry: {}\n");
    write(
        &t.join("root.yaml"),
        "heat_template_version: 2016-10-14\nresources:\n  a:\n    type: sub/x.yaml\n",
    );
    write(
        &t.join("sub/x.yaml"),
        "heat_template_version: 2016-10-14\nresources: {}\n",
    );
    [
        "export",
        "-t",
        t.join("root.yaml").to_str().unwrap(),
        "-e",
        t.join("env.yaml").to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--force",
    ]
    .iter()
    .map(|s| (*s).to_owned())
    .collect()
}

/// Every entry below `dir`: its path, and its contents (a file), its
/// target (a link) or nothing (a directory); links are not followed.
fn snapshot(dir: &Path) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for e in walkdir::WalkDir::new(dir).sort_by_file_name() {
        let e = e.unwrap();
        let m = std::fs::symlink_metadata(e.path()).unwrap();
        let what = if m.file_type().is_symlink() {
            format!("-> {}", std::fs::read_link(e.path()).unwrap().display())
        } else if m.is_file() {
            std::fs::read_to_string(e.path()).unwrap()
        } else {
            String::new()
        };
        out.push((e.path().display().to_string(), what));
    }
    out
}

/// Issue 22.5: an export --force that cannot write every file (here a
/// file `sub` where the nested template's directory goes) writes none:
/// OUT is left as it was, where the files before `sub/x.yaml` used to be
/// moved in before the write failed.
#[test]
fn export_force_that_fails_leaves_out_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let out = d.join("out");
    write(&out.join("root.yaml"), "mine\n");
    write(&out.join("sub"), "a file where a directory goes\n");
    let before = snapshot(&out);
    let (_, err) = heatcap(force_export_args(d, &out));
    assert_eq!(snapshot(&out), before, "{err}");
    assert!(err.contains("is not a directory"), "{err}");
}

/// Issue 22.5: --force replaces a symbolic link to a directory in OUT (as
/// it replaces a link to a file) with a real directory, and writes nothing
/// through it: what it pointed to is untouched.
#[test]
fn export_force_replaces_a_link_to_a_directory() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let victim = d.join("victim");
    write(&victim.join("keep.yaml"), "untouched\n");
    let out = d.join("out");
    write(&out.join("keep.txt"), "mine\n");
    std::os::unix::fs::symlink(&victim, out.join("sub")).unwrap();
    let victim_before = snapshot(&victim);
    let (_, err) = heatcap(force_export_args(d, &out));
    assert!(!err.contains("error") && !err.contains("cannot"), "{err}");
    assert_eq!(snapshot(&victim), victim_before);
    let sub = std::fs::symlink_metadata(out.join("sub")).unwrap();
    assert!(sub.is_dir() && !sub.file_type().is_symlink());
    assert!(out.join("sub/x.yaml").is_file());
    assert!(!out.join("sub/keep.yaml").exists());
    assert_eq!(
        std::fs::read_to_string(out.join("keep.txt")).unwrap(),
        "mine\n"
    );
}

/// issue 29: a raw tree's links to files outside it, read by the CLI as
/// the tree's own script reads them (the CLI has no roots: it reads what
/// its user's files name, as every other read of the CLI does): a linked
/// source and the roles and network data are read, an include through a
/// linked directory too, and the sources in a linked directory are not
/// rendered (`os.walk` does not enter it). `heatcap serve` refuses each
/// (tests/serve.rs, `render_reads_stay_inside_the_roots`).
#[test]
fn a_raw_trees_links_are_read_by_the_cli_as_the_script_reads_them() {
    for (linked, read) in [
        (Linked::Sources, &["SECRET-SOURCE", "SECRET-INCLUDE"][..]),
        (Linked::Roles, &["SecretRoleCount"][..]),
        (Linked::Network, &["SecretNetNetName"][..]),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let root = linked_tree(dir.path(), linked);
        let (out, err) = heatcap(vec![
            "index".into(),
            "-r".into(),
            root.display().to_string(),
            "--format".into(),
            "json".into(),
        ]);
        assert!(
            !err.contains("E0001") && !err.contains("E0020"),
            "{linked:?}: {err}"
        );
        for r in read {
            assert!(out.contains(r), "{linked:?}: no {r} in {out}");
        }
        assert!(!out.contains("SECRET-INNER"), "{out}");
    }
}

/// A tree beside hostile Jinja sources: loops that multiply (100 x 10,000
/// x 10,000 iterations, each range under minijinja's limit) and loops that
/// write 81 million resource lines. The first runs out of the engine's
/// fuel, the second grows past Heat's 524,288 characters and is stopped
/// there (E0020 each); the command ends in seconds and the rest of the
/// tree is rendered and read.
#[test]
fn hostile_jinja_is_refused_in_time() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(&d.join("roles_data.yaml"), "- name: Controller\n");
    write(
        &d.join("network-data-samples/default-network-isolation.yaml"),
        "- name: InternalApi\n",
    );
    write(
        &d.join("overcloud.j2.yaml"),
        "heat_template_version: 2016-10-14\nparameters:\n{%- for role in roles %}\n  {{role.name}}Count: {type: number}\n{%- endfor %}\n",
    );
    write(
        &d.join("loops.j2.yaml"),
        "heat_template_version: 2016-10-14\nresources:\n{%- for a in range(100) %}{% for b in range(10000) %}{% for c in range(10000) %}{% endfor %}{% endfor %}{% endfor %}\n  r: {type: OS::Heat::None}\n",
    );
    write(
        &d.join("lines.j2.yaml"),
        "heat_template_version: 2016-10-14\nresources:\n{%- for a in range(9000) %}{% for b in range(9000) %}\n  r{{a}}_{{b}}: {type: OS::Heat::None}\n{%- endfor %}{% endfor %}\n",
    );
    let started = std::time::Instant::now();
    let (out, err) = heatcap(vec![
        "index".into(),
        "-r".into(),
        d.display().to_string(),
        "--format".into(),
        "json".into(),
    ]);
    let took = started.elapsed();
    assert!(took < Duration::from_secs(10), "{took:?}");
    let shown = d.display();
    assert!(
        err.contains(&format!("{shown}/loops.j2.yaml:3:1: E0020 error: the render does more work than heatcap allows for one file")),
        "{err}"
    );
    assert!(
        err.contains(&format!("{shown}/lines.j2.yaml: E0020 error: the rendered file grows past 524288 characters, Heat's limit for a template (max_template_size): rendering stopped there")),
        "{err}"
    );
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    let overcloud = doc["files"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["path"] == format!("{shown}/overcloud.yaml"))
        .unwrap();
    assert_eq!(overcloud["status"], "ok");
    assert_eq!(overcloud["parameters"][0]["name"], "ControllerCount");
}
