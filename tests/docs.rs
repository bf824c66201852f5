//! The docs stay true: every flag is in docs/cli.md, every diagnostic code
//! in docs/output.md.

use std::fs;
use std::path::Path;

use clap::CommandFactory;
use heatcap::cli::Cli;

fn read(p: &str) -> String {
    fs::read_to_string(p).unwrap_or_else(|e| panic!("{p}: {e}"))
}

#[test]
fn every_command_and_flag_is_documented() {
    let doc = read("docs/cli.md");
    let mut missing = Vec::new();
    for sub in Cli::command().get_subcommands() {
        if !doc.contains(&format!("`{}", sub.get_name())) {
            missing.push(sub.get_name().to_owned());
        }
        for arg in sub.get_arguments() {
            if let Some(long) = arg.get_long() {
                if long != "help" && !doc.contains(&format!("--{long}")) {
                    missing.push(format!("{} --{long}", sub.get_name()));
                }
            }
        }
    }
    assert!(missing.is_empty(), "not in docs/cli.md: {missing:?}");
}

fn codes_in(dir: &Path, found: &mut Vec<String>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            codes_in(&path, found);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let text = read(path.to_str().unwrap());
            for part in text.split("Code(\"").skip(1) {
                found.push(part[..5].to_owned());
            }
        }
    }
}

#[test]
fn every_diagnostic_code_is_documented() {
    // Load and resolution codes are in docs/output.md, rule codes in the
    // generated docs/rules.md.
    let doc = read("docs/output.md") + &read("docs/rules.md");
    let mut codes = Vec::new();
    codes_in(Path::new("src"), &mut codes);
    assert!(codes.len() > 10, "found only {codes:?}");
    let missing: Vec<_> = codes
        .iter()
        .filter(|c| !doc.contains(&format!("| {c} |")))
        .collect();
    assert!(
        missing.is_empty(),
        "not in docs/output.md or docs/rules.md: {missing:?}"
    );
}
