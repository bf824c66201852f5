//! r11: hostile inputs never hang and never slip by silently. A FIFO named
//! like a template, and a `.yaml` link to a FIFO or to /dev/zero, are
//! reported (E0017) by every command and never opened; the good file beside
//! them is still read.

use std::path::Path;
use std::sync::mpsc;
use std::time::Duration;

use clap::Parser;
use heatcap::cli::{run, Cli};

/// Runs heatcap in a thread; fails when it does not finish in time.
fn heatcap(args: Vec<String>) -> (String, String) {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let cli = Cli::try_parse_from(std::iter::once("heatcap".to_owned()).chain(args)).unwrap();
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
            all.contains("good.yaml") || all.contains("1 files:"),
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
