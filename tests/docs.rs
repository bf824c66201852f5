//! The docs stay true: every flag is in docs/cli.md; every diagnostic code
//! the source defines has one entry in the catalogue, and docs/rules.md is
//! the catalogue as `heatcap rules --format markdown` prints it.

use std::fs;
use std::path::Path;

use clap::{CommandFactory, Parser};
use heatcap::cli::{run, Cli};

fn read(p: &str) -> String {
    fs::read_to_string(p).unwrap_or_else(|e| panic!("{p}: {e}"))
}

#[test]
fn every_command_and_flag_is_documented() {
    let doc = read("docs/cli.md");
    let mut missing = Vec::new();
    // Commands and their own subcommands (`resource-type list`).
    let top = Cli::command();
    let mut commands: Vec<(String, &clap::Command)> = Vec::new();
    for sub in top.get_subcommands() {
        commands.push((sub.get_name().to_owned(), sub));
        for nested in sub.get_subcommands() {
            commands.push((format!("{} {}", sub.get_name(), nested.get_name()), nested));
        }
    }
    for (name, sub) in commands {
        if !doc.contains(&format!("`{name}")) && !doc.contains(&format!("`heatcap {name}")) {
            missing.push(name.clone());
        }
        for arg in sub.get_arguments() {
            if let Some(long) = arg.get_long() {
                if long != "help" && !doc.contains(&format!("--{long}")) {
                    missing.push(format!("{name} --{long}"));
                }
            }
        }
    }
    // The options every command takes (`--color`, `--max-width`).
    for arg in Cli::command().get_arguments() {
        if let Some(long) = arg.get_long() {
            if !["help", "version"].contains(&long) && !doc.contains(&format!("`--{long}")) {
                missing.push(format!("--{long}"));
            }
        }
    }
    assert!(missing.is_empty(), "not in docs/cli.md: {missing:?}");
}

/// The cells of a Markdown table row: split at `|` outside code spans
/// too, as GitHub does (a `|` in a cell must be written `\|`).
fn cells(row: &str) -> usize {
    let inner = row.trim().trim_start_matches('|').trim_end_matches('|');
    inner.replace("\\|", "").split('|').count()
}

/// Every table in the docs has as many cells in each row as in its header
/// (a `|` inside backticks once broke the table of options).
#[test]
fn markdown_tables_are_well_formed() {
    for page in ["docs/cli.md", "docs/output.md", "README.md"] {
        let text = read(page);
        let mut header: Option<usize> = None;
        for (n, line) in text.lines().enumerate() {
            let row = line.trim_start();
            if !row.starts_with('|') {
                header = None;
                continue;
            }
            match header {
                None => header = Some(cells(row)),
                Some(want) => assert_eq!(
                    cells(row),
                    want,
                    "{page}:{}: a row with another number of cells than its header",
                    n + 1
                ),
            }
        }
    }
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
fn every_code_in_the_source_has_one_catalogue_entry() {
    let mut codes = Vec::new();
    codes_in(Path::new("src"), &mut codes);
    assert!(codes.len() > 50, "found only {codes:?}");
    let catalogue: Vec<&str> = heatcap::catalogue().iter().map(|c| c.code.0).collect();
    let missing: Vec<_> = codes
        .iter()
        .filter(|c| !catalogue.contains(&c.as_str()))
        .collect();
    assert!(missing.is_empty(), "not in the catalogue: {missing:?}");
    let mut unique = catalogue.clone();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(unique.len(), catalogue.len(), "a code with two entries");
    for c in heatcap::catalogue() {
        for (field, text) in [
            ("summary", c.summary),
            ("what", c.what),
            ("why", c.why),
            ("example", c.example),
            ("source", c.source),
        ] {
            assert!(!text.trim().is_empty(), "{}: empty {field}", c.code);
        }
    }
}

#[test]
fn rules_page_is_the_catalogue() {
    let cli = Cli::try_parse_from(["heatcap", "rules", "--format", "markdown"]).unwrap();
    let (mut out, mut err) = (Vec::new(), Vec::new());
    run(cli, &mut out, &mut err).unwrap();
    let want = String::from_utf8(out).unwrap();
    if std::env::var_os("HEATCAP_UPDATE_DOCS").is_some() {
        fs::write("docs/rules.md", &want).unwrap();
    }
    assert!(
        read("docs/rules.md") == want,
        "docs/rules.md is stale: run `HEATCAP_UPDATE_DOCS=1 cargo test --test docs`"
    );
    // Every code, with its explanation.
    for c in heatcap::catalogue() {
        assert!(
            want.contains(&format!("### {} {}", c.code, c.name)),
            "{}",
            c.code
        );
    }
}

fn heatcap(args: &[&str]) -> String {
    let line = [&["heatcap"][..], args].concat();
    let cli = Cli::try_parse_from(&line).unwrap();
    let (mut out, mut err) = (Vec::new(), Vec::new());
    run(cli, &mut out, &mut err).unwrap();
    String::from_utf8(out).unwrap()
}

/// docs/schemas/ holds exactly the schemas `heatcap schema` lists, each as
/// `heatcap schema NAME` prints it.
#[test]
fn schemas_are_published() {
    let update = std::env::var_os("HEATCAP_UPDATE_DOCS").is_some();
    let names: Vec<String> = heatcap(&["schema"])
        .lines()
        .map(|l| l.split('\t').next().unwrap().to_owned())
        .collect();
    assert!(names.len() >= 20, "{names:?}");
    let dir = Path::new("docs/schemas");
    if update {
        fs::create_dir_all(dir).unwrap();
        for entry in fs::read_dir(dir).unwrap() {
            fs::remove_file(entry.unwrap().path()).unwrap();
        }
    }
    let mut stale = Vec::new();
    for name in &names {
        let want = heatcap(&["schema", name]);
        let path = dir.join(format!("{name}.schema.json"));
        if update {
            fs::write(&path, &want).unwrap();
        }
        if fs::read_to_string(&path).ok().as_deref() != Some(want.as_str()) {
            stale.push(path.display().to_string());
        }
    }
    for entry in fs::read_dir(dir).unwrap() {
        let file = entry.unwrap().file_name().into_string().unwrap();
        let name = file.strip_suffix(".schema.json").unwrap_or(&file);
        if !names.iter().any(|n| n == name) {
            stale.push(format!("docs/schemas/{file} (no such schema)"));
        }
    }
    assert!(
        stale.is_empty(),
        "stale: {stale:?}: run `HEATCAP_UPDATE_DOCS=1 cargo test --test docs`"
    );
    // docs/output.md points to each one.
    let doc = read("docs/output.md");
    let missing: Vec<&String> = names
        .iter()
        .filter(|n| !doc.contains(&format!("schemas/{n}.schema.json")))
        .collect();
    assert!(missing.is_empty(), "not in docs/output.md: {missing:?}");
}
