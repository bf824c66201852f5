//! `validate --format sarif` on the fixture trees is valid SARIF 2.1.0: each
//! log is checked against the official schema (tests/schemas/, with its
//! licence note), formats included, and the logs together use what the
//! schema is asked to check: regions with ends, related locations, the
//! column kind, percent-encoded URIs, standard input's location.

use clap::Parser;
use heatcap::cli::{run, Cli};
use serde_json::Value;

fn schema() -> jsonschema::Validator {
    let text = std::fs::read_to_string("tests/schemas/sarif-schema-2.1.0.json").unwrap();
    let schema: Value = serde_json::from_str(&text).unwrap();
    jsonschema::options()
        .with_draft(jsonschema::Draft::Draft4)
        .should_validate_formats(true)
        .build(&schema)
        .expect("the SARIF schema compiles")
}

fn sarif(paths: &[&str]) -> Value {
    let mut argv = vec!["heatcap", "validate", "--format", "sarif", "-q"];
    argv.extend(paths);
    let cli = Cli::try_parse_from(&argv).unwrap();
    let (mut out, mut err) = (Vec::new(), Vec::new());
    run(cli, &mut out, &mut err).unwrap();
    serde_json::from_slice(&out).unwrap_or_else(|e| panic!("{argv:?}: {e}"))
}

fn errors(v: &jsonschema::Validator, log: &Value) -> Vec<String> {
    v.iter_errors(log)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect()
}

/// The fixture trees, under every profile and with environments, and a
/// file whose name needs percent-encoding.
fn logs() -> Vec<(String, Value)> {
    let dir = tempfile::tempdir().unwrap();
    let odd = dir.path().join("a b#1").join("café.yaml");
    std::fs::create_dir(odd.parent().unwrap()).unwrap();
    std::fs::write(
        &odd,
        "heat_template_version: 2018-08-31\nresources: {}\nresources: {}\n",
    )
    .unwrap();
    let odd = odd.to_str().unwrap();
    let runs: [&[&str]; 7] = [
        &[odd],
        &["-r", "fixtures/rules"],
        &["-r", "fixtures/overcloud"],
        &["-r", "fixtures/hot"],
        &["--profile", "onap", "-r", "fixtures/onap"],
        &["-e", "fixtures/compose/env.yaml", "-r", "fixtures/compose"],
        &["-r", "fixtures/hostile"],
    ];
    runs.iter()
        .map(|args| (args.join(" "), sarif(args)))
        .collect()
}

#[test]
fn validate_sarif_matches_the_sarif_2_1_0_schema() {
    let v = schema();
    let mut results = 0;
    let (mut ends, mut related, mut encoded) = (0, 0, 0);
    for (args, log) in logs() {
        let found = errors(&v, &log);
        assert!(found.is_empty(), "validate {args}: {found:#?}");
        let run = &log["runs"][0];
        assert_eq!(run["columnKind"], "unicodeCodePoints", "{args}");
        for r in run["results"].as_array().unwrap() {
            results += 1;
            let region = &r["locations"][0]["physicalLocation"]["region"];
            ends += usize::from(region.get("endColumn").is_some());
            related += r
                .get("relatedLocations")
                .and_then(Value::as_array)
                .map_or(0, Vec::len);
            let uri = r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                .as_str()
                .unwrap_or_default();
            encoded += usize::from(uri.contains('%'));
        }
    }
    // The fixtures exercise every part of a result the schema checks.
    assert!(results > 100, "only {results} results");
    assert!(ends > 50, "only {ends} regions with an end");
    assert!(related > 0, "no related locations");
    assert!(encoded > 0, "no percent-encoded URI");
}

#[test]
fn standard_input_is_a_location_without_a_uri() {
    // `validate -` reads the process's standard input: the test runs the
    // binary, with a template that has a finding, for a schema-valid log.
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_heatcap"))
        .args(["validate", "--format", "sarif", "-q", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"heat_template_version: 2018-08-31\nresources:\n  a: {type: OS::Heat::None}\n  a: {type: OS::Heat::None}\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let log: Value = serde_json::from_slice(&out.stdout).unwrap();
    let found = errors(&schema(), &log);
    assert!(found.is_empty(), "{found:#?}");
    let location = &log["runs"][0]["results"][0]["locations"][0]["physicalLocation"];
    assert_eq!(
        location["artifactLocation"],
        serde_json::json!({"description": {"text": "standard input"}})
    );
    assert_eq!(location["region"]["startLine"], 4);
}

#[test]
fn the_schema_check_can_fail() {
    let v = schema();
    let (_, mut log) = logs().swap_remove(0);
    let result = &mut log["runs"][0]["results"][0];
    result["level"] = "fatal".into();
    result["locations"][0]["physicalLocation"]["region"]["startLine"] = 0.into();
    let found = errors(&v, &log);
    assert!(found.len() >= 2, "{found:#?}");
    let mut log = logs().swap_remove(0).1;
    log["runs"][0]["tool"]["driver"]["rules"][0]["helpUri"] = "docs/rules.md#e0001".into();
    assert!(
        !errors(&v, &log).is_empty(),
        "a relative helpUri must be refused (SARIF wants an absolute URI)"
    );
}

/// `diff --format sarif` (the interface section) on every fixture pair is
/// valid SARIF 2.1.0, the old side a related location.
#[test]
fn diff_sarif_matches_the_sarif_2_1_0_schema() {
    let v = schema();
    let mut results = 0;
    for entry in std::fs::read_dir("fixtures/interface").unwrap() {
        let pair = entry.unwrap().path();
        if !pair.join("new/root.yaml").is_file() {
            continue;
        }
        let (new, old) = (pair.join("new"), pair.join("old"));
        let path = |p: std::path::PathBuf| p.to_str().unwrap().to_owned();
        let argv = [
            "heatcap".to_owned(),
            "diff".to_owned(),
            "--format".to_owned(),
            "sarif".to_owned(),
            "-q".to_owned(),
            "--all".to_owned(),
            "-t".to_owned(),
            path(new.join("root.yaml")),
            "-e".to_owned(),
            path(new.join("env.yaml")),
            "--from-template".to_owned(),
            path(old.join("root.yaml")),
            "--from-environment".to_owned(),
            path(old.join("env.yaml")),
        ];
        let cli = Cli::try_parse_from(argv).unwrap();
        let (mut out, mut err) = (Vec::new(), Vec::new());
        run(cli, &mut out, &mut err).unwrap();
        let log: Value = serde_json::from_slice(&out).unwrap();
        let found = errors(&v, &log);
        assert!(found.is_empty(), "{}: {found:#?}", pair.display());
        results += log["runs"][0]["results"].as_array().unwrap().len();
    }
    assert!(results >= 12, "only {results} results");
}
