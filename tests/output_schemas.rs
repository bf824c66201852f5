//! Every JSON output matches its published schema (docs/schemas/, draft
//! 2020-12): the goldens of tests/cmd/ whose stdout is JSON (JSON Lines line
//! by line), and the JSON outputs on the fixture trees. The schemas are
//! strict (required fields, closed objects, enums), and broken outputs fail
//! them (the control tests at the end).

use std::collections::{BTreeMap, BTreeSet};
use std::fs;

use clap::Parser;
use heatcap::cli::args::{Command, ResourceTypeCommand};
use heatcap::cli::{run, Cli};
use heatcap::Format;
use serde_json::{json, Value};

fn schema_names() -> Vec<String> {
    let (out, _) = heatcap(&["schema"]);
    out.lines()
        .map(|l| l.split('\t').next().unwrap().to_owned())
        .collect()
}

fn schema(name: &str) -> Value {
    let path = format!("docs/schemas/{name}.schema.json");
    let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn validator(name: &str) -> jsonschema::Validator {
    jsonschema::draft202012::options()
        .build(&schema(name))
        .unwrap_or_else(|e| panic!("{name}: the schema does not compile: {e}"))
}

/// The validators, built once each.
struct Schemas(BTreeMap<String, jsonschema::Validator>);

impl Schemas {
    fn new() -> Schemas {
        Schemas(
            schema_names()
                .into_iter()
                .map(|n| {
                    let v = validator(&n);
                    (n, v)
                })
                .collect(),
        )
    }

    fn errors(&self, name: &str, value: &Value) -> Vec<String> {
        self.0[name]
            .iter_errors(value)
            .map(|e| format!("{e} at {}", e.instance_path()))
            .collect()
    }

    /// Checks `stdout` (a document, JSON Lines for a `.jsonl` schema, or
    /// YAML read as Heat reads it); returns how many values were checked.
    fn check(&self, what: &str, (name, yaml): &(String, bool), stdout: &str) -> usize {
        let values: Vec<Value> = if *yaml {
            let parsed = heatcap::parse_text(stdout, "-", &heatcap::ParseOptions::default());
            vec![parsed
                .root
                .unwrap_or_else(|| panic!("{what}: no YAML"))
                .value
                .to_json()]
        } else if std::path::Path::new(name)
            .extension()
            .is_some_and(|e| e == "jsonl")
        {
            stdout
                .lines()
                .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{what}: {e}: {l}")))
                .collect()
        } else {
            vec![serde_json::from_str(stdout).unwrap_or_else(|e| panic!("{what}: {e}"))]
        };
        for v in &values {
            let found = self.errors(name, v);
            assert!(found.is_empty(), "{what} against {name}: {found:#?}");
        }
        values.len()
    }
}

fn heatcap(args: &[&str]) -> (String, String) {
    let line = [&["heatcap"][..], args].concat();
    let cli = Cli::try_parse_from(&line).unwrap_or_else(|e| panic!("{line:?}: {e}"));
    let (mut out, mut err) = (Vec::new(), Vec::new());
    run(cli, &mut out, &mut err).unwrap_or_else(|e| panic!("{line:?}: {e}"));
    (
        String::from_utf8(out).unwrap(),
        String::from_utf8(err).unwrap(),
    )
}

/// The schema of what an invocation prints on stdout, if it is JSON (each
/// command's default format as the command has it), or YAML (the same
/// data).
fn schema_of(command: &Command) -> Option<(String, bool)> {
    let (base, format) = match command {
        Command::CapabilitiesFind(a) => (
            "capabilities-find",
            a.query.output.format.unwrap_or(Format::Plain),
        ),
        Command::TemplateCapabilities(a) if a.by_type => (
            "template-capabilities-by-type",
            a.query.output.format.unwrap_or(Format::Json),
        ),
        Command::TemplateCapabilities(a) => (
            "template-capabilities",
            a.query.output.format.unwrap_or(Format::Json),
        ),
        Command::Index(a) => ("index", a.query.output.format.unwrap_or(Format::Json)),
        Command::Resolve(a) => ("resolve", a.output.format.unwrap_or(Format::Table)),
        Command::Options(a) => ("options", a.output.format.unwrap_or(Format::Table)),
        Command::Catalogue(a) => ("catalogue", a.output.format.unwrap_or(Format::Table)),
        Command::Parameters(a) => match (a.diff.is_some(), a.format.unwrap_or(Format::Table)) {
            // `--diff` prints its JSON for `heat` too.
            (true, Format::Json | Format::Heat | Format::HeatResourceTree) => {
                ("parameters-diff", Format::Json)
            }
            (true, _) => return None,
            (false, Format::Heat) => ("parameters-heat", Format::Json),
            (false, Format::HeatResourceTree) => ("parameters-heat-resource-tree", Format::Json),
            (false, f) => ("parameters", f),
        },
        Command::Preview(a) => match a.format.unwrap_or(Format::Table) {
            // Heat's document is checked against Heat's recordings
            // (tests/preview.rs).
            Format::Heat => return None,
            f => ("preview", f),
        },
        Command::Diff(a) => match a.format.unwrap_or(Format::Table) {
            // Heat's document is checked against Heat's recordings
            // (tests/diff.rs).
            Format::Heat => return None,
            f if a.composition.template.is_none() => ("diff-deployments", f),
            f => ("diff", f),
        },
        Command::Export(a) if a.format == Format::HeatApi => ("export-heat-api", Format::Json),
        Command::Export(a) => ("export", a.format),
        Command::Validate(a) => ("validate", a.format),
        Command::Rules(a) => ("rules", a.format),
        Command::ResourceType(a) => match &a.command {
            ResourceTypeCommand::List(l) => ("resource-type-list", l.format),
            // `--template-type` prints a template; Heat's API shapes are
            // checked against Heat's recordings (tests/heat_resource_types.rs).
            ResourceTypeCommand::Show(s) if s.template_type.is_some() => return None,
            ResourceTypeCommand::Show(s) => {
                ("resource-type-show", s.format.unwrap_or(Format::Table))
            }
        },
        _ => return None,
    };
    match format {
        Format::Json => Some((base.to_owned(), false)),
        Format::Yaml => Some((base.to_owned(), true)),
        Format::Jsonl => Some((format!("{base}.jsonl"), false)),
        _ => None,
    }
}

/// Every golden of tests/cmd/ run again, as trycmd runs it (the binary,
/// in its directory, with its standard input and variables): each whose
/// stdout is JSON has a schema and matches it. (The .stdout files cannot
/// be read instead: trycmd writes every backslash in them as `/`.)
fn check_goldens(schemas: &Schemas, used: &mut BTreeSet<String>) -> usize {
    let mut checked = 0;
    let mut paths: Vec<_> = fs::read_dir("tests/cmd")
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    paths.sort();
    for toml in paths {
        let case = golden::parse(&fs::read_to_string(&toml).unwrap());
        let what = toml.display().to_string();
        let mut argv = vec![case.bin.clone()];
        argv.extend(case.args.iter().cloned());
        let name = Cli::try_parse_from(&argv)
            .ok()
            .and_then(|cli| schema_of(&cli.command));
        let stdout = golden::run(&toml, &case);
        // SARIF has its official schema (tests/sarif_schema.rs); Heat's own
        // API shapes (`resource-type --format heat`, `--template-type`) are
        // compared with Heat's recordings (tests/heat_resource_types.rs).
        // `preview --format heat` too (tests/preview.rs).
        let sarif = case.args.iter().any(|a| a == "sarif")
            || (case.args.first().is_some_and(|a| a == "resource-type")
                && case
                    .args
                    .iter()
                    .any(|a| a == "heat" || a == "--template-type"))
            || (case
                .args
                .first()
                .is_some_and(|a| a == "preview" || a == "diff")
                && case.args.iter().any(|a| a == "heat"));
        let Some(name) = name else {
            // SARIF has its official schema (tests/sarif_schema.rs).
            assert!(
                sarif
                    || serde_json::from_str::<Value>(&stdout).is_err()
                    || stdout.trim().is_empty(),
                "{what}: JSON on stdout, but no schema is known for it"
            );
            continue;
        };
        if stdout.is_empty() {
            continue;
        }
        schemas.check(&what, &name, &stdout);
        used.insert(name.0);
        checked += 1;
    }
    checked
}

/// Just enough of trycmd's TOML as tests/cmd/ writes it (`bin.name`,
/// `args`, `fs.cwd` one a line, `[env.add]` last), and running a case.
mod golden {
    use std::path::Path;
    use std::process::{Command, Stdio};

    pub(super) struct Case {
        pub(super) bin: String,
        pub(super) args: Vec<String>,
        cwd: String,
        env: Vec<(String, String)>,
    }

    fn string(v: &str) -> String {
        serde_json::from_str(v).unwrap_or_else(|e| panic!("not a basic string: {e}: {v}"))
    }

    pub(super) fn parse(text: &str) -> Case {
        let mut case = Case {
            bin: "heatcap".to_owned(),
            args: Vec::new(),
            cwd: ".".to_owned(),
            env: Vec::new(),
        };
        let mut in_env = false;
        for line in text.lines() {
            if line.trim() == "[env.add]" {
                in_env = true;
            } else if let Some(v) = line.strip_prefix("bin.name = ") {
                case.bin = string(v);
            } else if let Some(v) = line.strip_prefix("args = ") {
                case.args = serde_json::from_str(v)
                    .unwrap_or_else(|e| panic!("args: not an array of basic strings: {e}: {v}"));
            } else if let Some(v) = line.strip_prefix("fs.cwd = ") {
                case.cwd = string(v);
            } else if let (true, Some((k, v))) = (in_env, line.split_once(" = ")) {
                case.env.push((k.trim().to_owned(), string(v)));
            }
        }
        case
    }

    /// The case's stdout.
    pub(super) fn run(toml: &Path, case: &Case) -> String {
        let stdin = toml.with_extension("stdin");
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_heatcap"));
        cmd.args(&case.args)
            .current_dir(Path::new("tests/cmd").join(&case.cwd))
            .stdin(if stdin.exists() {
                Stdio::from(std::fs::File::open(&stdin).unwrap())
            } else {
                Stdio::null()
            });
        for var in [
            "COLUMNS",
            "NO_COLOR",
            "CLICOLOR",
            "CLICOLOR_FORCE",
            "FORCE_COLOR",
        ] {
            cmd.env_remove(var);
        }
        cmd.envs(case.env.iter().map(|(k, v)| (k, v)));
        let out = cmd.output().unwrap();
        String::from_utf8(out.stdout).unwrap()
    }
}

#[test]
fn every_schema_is_a_valid_draft_2020_12_schema() {
    let names = schema_names();
    assert!(names.len() >= 20, "{names:?}");
    for name in names {
        let s = schema(&name);
        assert_eq!(s["$schema"], "https://json-schema.org/draft/2020-12/schema");
        assert_eq!(s["$id"], format!("urn:heatcap:schema:{name}"));
        if let Err(e) = jsonschema::meta::validate(&s) {
            panic!("{name}: {e}");
        }
    }
}

/// An invocation, as owned words.
fn words(args: &[&str]) -> Vec<String> {
    args.iter().map(|s| (*s).to_owned()).collect()
}

/// The environments of the overcloud fixture's goldens.
const OVERCLOUD_ENVS: [&str; 6] = [
    "-e",
    "fixtures/overcloud/environments/overcloud-resource-registry-puppet.yaml",
    "-e",
    "fixtures/overcloud/environments/puppet-bond-with-vlans.yaml",
    "-e",
    "fixtures/overcloud/environments/network-environment.yaml",
];

/// The query commands and `validate` on every fixture tree.
fn tree_runs() -> Vec<Vec<String>> {
    let mut runs = Vec::new();
    for tree in [
        "fixtures/spec",
        "fixtures/overcloud",
        "fixtures/heat",
        "fixtures/onap",
        "fixtures/hot",
        "fixtures/rules",
        "fixtures/hostile",
    ] {
        for f in ["json", "jsonl", "yaml"] {
            runs.push(words(&["index", "-r", tree, "--format", f]));
            runs.push(words(&[
                "template-capabilities",
                "-r",
                "-f",
                tree,
                "--format",
                f,
            ]));
            let by_type = ["template-capabilities", "--by-type", "-r", "-f", tree];
            runs.push(words(&[&by_type[..], &["--format", f]].concat()));
        }
        for f in ["json", "jsonl"] {
            runs.push(words(&["validate", "-r", tree, "--format", f]));
        }
    }
    let spec_env = "fixtures/spec/environment.yaml";
    for f in ["json", "jsonl"] {
        runs.push(words(&[
            "validate",
            "--profile",
            "onap",
            "-r",
            "fixtures/onap",
            "--format",
            f,
        ]));
        runs.push(words(&["rules", "--format", f]));
        runs.push(words(&["resolve", "-e", spec_env, "--format", f]));
        runs.push(words(&[
            "options",
            "-e",
            spec_env,
            "-r",
            "fixtures/spec",
            "--format",
            f,
        ]));
        runs.push(words(&[
            "template-capabilities",
            "-e",
            spec_env,
            "--format",
            f,
        ]));
        let find = ["capabilities-find", "-r", "-c"];
        runs.push(words(
            &[
                &find[..],
                &["deployment=puppet", "fixtures/spec", "--format", f],
            ]
            .concat(),
        ));
        let controller = "resource_type=OS::TripleO::Controller";
        runs.push(words(
            &[
                &find[..],
                &[controller, "fixtures/overcloud", "--format", f],
            ]
            .concat(),
        ));
    }
    runs
}

/// The composition commands on the overcloud fixture (the export written
/// under `out`).
fn overcloud_runs(out: &std::path::Path) -> Vec<Vec<String>> {
    let root = "fixtures/overcloud/overcloud.yaml";
    let with_envs = |args: &[&str]| words(&[args, &OVERCLOUD_ENVS[..]].concat());
    let mut runs = Vec::new();
    for f in ["json", "jsonl", "yaml"] {
        runs.push(with_envs(&["resolve", "-t", root, "--format", f]));
        runs.push(with_envs(&[
            "options",
            "-r",
            "fixtures/overcloud",
            "--format",
            f,
        ]));
    }
    for f in ["json", "heat", "yaml"] {
        runs.push(with_envs(&["parameters", "-t", root, "--format", f]));
    }
    for f in ["json", "yaml"] {
        runs.push(with_envs(&["preview", "-t", root, "--format", f]));
    }
    let diff = "OS::TripleO::Controller=fixtures/overcloud/puppet/controller.yaml,fixtures/overcloud/docker/controller.yaml";
    runs.push(words(
        &[
            &["parameters", "-t", root, "--format", "json", "--diff", diff][..],
            &OVERCLOUD_ENVS[..2],
        ]
        .concat(),
    ));
    runs.push(with_envs(&["export", "-t", root, "--format", "heat-api"]));
    let dir = out.join("overcloud").display().to_string();
    runs.push(with_envs(&[
        "export", "-t", root, "--format", "json", "--out", &dir,
    ]));
    runs
}

/// Each small deployment of fixtures/heat (Heat's refusals included).
fn deployment_runs() -> Vec<Vec<String>> {
    let mut dirs: Vec<_> = fs::read_dir("fixtures/heat")
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    let mut runs = Vec::new();
    for dir in &dirs {
        let root = dir.join("root.yaml").display().to_string();
        let env = dir.join("env.yaml");
        let mut envs = Vec::new();
        if env.exists() {
            envs = vec!["-e".to_owned(), env.display().to_string()];
        }
        let with_envs = |args: &[&str]| [words(args), envs.clone()].concat();
        for f in ["json", "heat"] {
            runs.push(with_envs(&["parameters", "-t", &root, "--format", f]));
        }
        runs.push(with_envs(&["preview", "-t", &root, "--format", "json"]));
        for f in ["json", "jsonl"] {
            runs.push(with_envs(&["resolve", "-t", &root, "--format", f]));
            runs.push(with_envs(&["validate", &root, "--format", f]));
        }
        runs.push(with_envs(&["export", "-t", &root, "--format", "heat-api"]));
    }
    runs
}

/// The JSON outputs on the fixture trees, and the goldens': every schema is
/// used, and every output matches.
#[test]
fn outputs_match_their_schemas() {
    let schemas = Schemas::new();
    let mut used = BTreeSet::new();
    let goldens = check_goldens(&schemas, &mut used);
    assert!(goldens >= 40, "only {goldens} goldens are JSON");
    let out = tempfile::tempdir().unwrap();
    let runs = [tree_runs(), overcloud_runs(out.path()), deployment_runs()].concat();
    let mut values = 0;
    for args in &runs {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let cli = Cli::try_parse_from(std::iter::once("heatcap").chain(args.iter().copied()))
            .unwrap_or_else(|e| panic!("{args:?}: {e}"));
        let name = schema_of(&cli.command).unwrap_or_else(|| panic!("{args:?}: no schema"));
        let (stdout, _) = heatcap(&args);
        if stdout.is_empty() {
            continue;
        }
        values += schemas.check(&args.join(" "), &name, &stdout);
        used.insert(name.0);
    }
    assert!(values > 500, "only {values} values checked");
    let unused: Vec<String> = schema_names()
        .into_iter()
        .filter(|n| !used.contains(n))
        .collect();
    assert!(unused.is_empty(), "no output checked against {unused:?}");
}

/// A way to break an output, and what it breaks.
type Break = (&'static str, fn(&mut Value));

/// Real output, then broken: the schema accepts the one and refuses each
/// of the others.
fn refuses(name: &str, args: &[&str], breaks: &[Break]) {
    let schemas = Schemas::new();
    let good: Value = serde_json::from_str(&heatcap(args).0).unwrap();
    let found = schemas.errors(name, &good);
    assert!(
        found.is_empty(),
        "{name}: the real output fails: {found:#?}"
    );
    for (what, f) in breaks {
        let mut bad = good.clone();
        f(&mut bad);
        assert_ne!(bad, good, "{name}: {what} changed nothing");
        assert!(
            !schemas.errors(name, &bad).is_empty(),
            "{name}: {what} still validates"
        );
    }
}

/// The first file entry of an index that `pick` selects.
fn file(v: &mut Value, pick: fn(&Value) -> bool) -> &mut Value {
    let files = v["files"].as_array_mut().unwrap();
    files.iter_mut().find(|f| pick(f)).expect("such a file")
}

/// The first entry of an object.
fn first(v: &mut Value) -> &mut Value {
    v.as_object_mut().unwrap().values_mut().next().unwrap()
}

#[test]
fn broken_index_fails() {
    refuses(
        "index",
        &["index", "-r", "fixtures/spec", "fixtures/overcloud/broken"],
        &[
            ("a required field removed", |v| {
                v.as_object_mut().unwrap().remove("summary");
            }),
            ("an unknown field added", |v| {
                v["files"][0]["extra"] = json!(1);
            }),
            ("a status outside the set", |v| {
                v["files"][0]["status"] = json!("fine");
            }),
            ("a kind outside the set", |v| {
                v["files"][0]["kind"] = json!("template");
            }),
            ("an optional field written null", |v| {
                v["files"][0]["reason"] = Value::Null;
            }),
            ("a template's field removed", |v| {
                let t = file(v, |f| f["kind"] == "hot-template");
                t.as_object_mut().unwrap().remove("uses");
            }),
            ("an environment's field on a template", |v| {
                file(v, |f| f["kind"] == "hot-template")["resource_registry"] = json!({});
            }),
            ("an environment's field removed", |v| {
                let e = file(v, |f| f["kind"] == "environment");
                e.as_object_mut().unwrap().remove("requires");
            }),
            ("a diagnostic code outside the pattern", |v| {
                file(v, |f| f["diagnostics"][0].is_object())["diagnostics"][0]["code"] =
                    json!("X10");
            }),
            ("a column of 0", |v| {
                let f = file(v, |f| f["diagnostics"][0]["span"].is_object());
                f["diagnostics"][0]["span"]["start"]["column"] = json!(0);
            }),
            ("another index version", |v| v["heatcap_index"] = json!(2)),
        ],
    );
}

#[test]
fn broken_resolve_fails() {
    let env = "fixtures/overcloud/environments/ambiguous-deployment.yaml";
    refuses(
        "resolve",
        &["resolve", "-e", env, "--format", "json"],
        &[
            ("an implementation of another kind", |v| {
                v["resolutions"][0]["implementation"] = json!({"module": "x"});
            }),
            ("an error outside the set", |v| {
                v["resolutions"][0]["error"] = json!({"error": "broken"});
            }),
            ("a step kind outside the set", |v| {
                v["resolutions"][0]["chain"][0]["kind"] = json!("guess");
            }),
            ("`resolved` as text", |v| v["resolved"] = json!("yes")),
        ],
    );
}

#[test]
fn broken_validate_fails() {
    refuses(
        "validate",
        &[
            "validate",
            "-r",
            "fixtures/overcloud/broken",
            "--format",
            "json",
        ],
        &[
            ("a severity outside the set", |v| {
                v["diagnostics"][0]["severity"] = json!("fatal");
            }),
            ("an empty key path written", |v| {
                v["diagnostics"][0]["key_path"] = json!([]);
            }),
            ("suppressed written as 0", |v| {
                v["summary"]["suppressed"] = json!(0);
            }),
            ("a module kind outside the set", |v| {
                v["modules"] = json!([{"file": "a.yaml", "kind": "main"}]);
            }),
        ],
    );
}

#[test]
fn broken_heat_documents_fail() {
    let root = "fixtures/heat/function-values/root.yaml";
    refuses(
        "parameters-heat",
        &["parameters", "-t", root, "--format", "heat"],
        &[
            ("NoEcho as a boolean", |v| {
                first(&mut v["Parameters"])["NoEcho"] = json!(false);
            }),
            ("a parameter key Heat does not write", |v| {
                first(&mut v["Parameters"])["Hidden"] = json!(true);
            }),
            ("both a value and the unevaluated marker", |v| {
                let p = first(&mut v["Parameters"]);
                p["Value"] = json!(1);
                p["heatcap:Unevaluated"] = json!("yaql: not evaluated");
            }),
            ("the environment left out", |v| {
                v.as_object_mut().unwrap().remove("Environment");
            }),
            ("a nested stack without its type", |v| {
                let s = first(&mut v["NestedParameters"]);
                s.as_object_mut().unwrap().remove("Type");
            }),
            ("a refusal with more than its message", |v| {
                *v = json!({"Error": "x", "Parameters": {}});
            }),
        ],
    );
    let dir = "fixtures/heat/remove-item";
    refuses(
        "export-heat-api",
        &[
            "export",
            "-t",
            &format!("{dir}/root.yaml"),
            "-e",
            &format!("{dir}/env.yaml"),
            "--format",
            "heat-api",
        ],
        &[
            ("a file that is not a file:// URL", |v| {
                v["files"]["deployment.yaml"] = json!("x");
            }),
            ("an environment section Heat does not know", |v| {
                v["environment"]["requires"] = json!({});
            }),
        ],
    );
}

#[test]
fn broken_rules_fail() {
    refuses(
        "rules",
        &["rules", "--format", "json"],
        &[
            ("a requirement that is not an ONAP ID", |v| {
                v[0]["requirements"] = json!(["R1"]);
            }),
            ("a code outside the pattern", |v| {
                v[0]["code"] = json!("E1");
            }),
        ],
    );
}
