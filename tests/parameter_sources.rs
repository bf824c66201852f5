//! `parameters --format json`: each value's `file` and `span` point at the
//! text that sets it. On the 2016 TripleO deployment (tests/heat/
//! corpus-2016.json's), the overcloud fixture and a plan, for every value
//! of every stack: the text at `file:line:column` is the parameter's name
//! (the key of an environment's `parameters`/`parameter_defaults`, or of
//! the parent resource's property) or `default` (the declaration's own).

mod common;

use std::collections::HashMap;

use serde_json::Value;

/// Checks every value of a `parameters` answer; returns how many per
/// source.
fn check(answer: &Value) -> HashMap<String, usize> {
    let mut texts: HashMap<String, Vec<String>> = HashMap::new();
    let mut seen: HashMap<String, usize> = HashMap::new();
    for (name, info) in answer["parameters"].as_object().unwrap() {
        for v in info["values"].as_array().unwrap() {
            let source = v["source"].as_str().unwrap();
            // A plan's parts are read from the plan file itself.
            let file = v["file"].as_str().unwrap();
            let on_disk = file.split('#').next().unwrap();
            let lines = texts.entry(on_disk.to_owned()).or_insert_with(|| {
                std::fs::read_to_string(on_disk)
                    .unwrap_or_else(|e| panic!("{file}: {e}"))
                    .lines()
                    .map(str::to_owned)
                    .collect()
            });
            let line = v["span"]["start"]["line"].as_u64().unwrap() as usize;
            let column = v["span"]["start"]["column"].as_u64().unwrap() as usize;
            let text: String = lines[line - 1].chars().skip(column - 1).collect();
            let key = if source == "default" {
                "default"
            } else {
                name.as_str()
            };
            assert!(
                text.starts_with(key) && text[key.len()..].trim_start().starts_with(':'),
                "{name} in {} ({source}): {file}:{line}:{column} is `{text}`",
                v["stack"]
            );
            *seen.entry(source.to_owned()).or_default() += 1;
        }
    }
    seen
}

#[test]
fn every_value_points_at_the_text_that_sets_it_in_the_2016_deployment() {
    let (root, envs) = common::corpus_2016_deployment();
    let args = common::deployment_args("parameters", &root, &envs, &["--format", "json"]);
    let answer = common::json(&args);
    let seen = check(&answer);
    for source in ["parameter_defaults", "property", "default"] {
        assert!(
            seen.get(source).copied().unwrap_or(0) > 0,
            "{source}: {seen:?}"
        );
    }
    // overcloud.yaml's `parameter_groups`, as Heat's validate shows them.
    assert_eq!(
        answer["tree"]["parameter_groups"],
        serde_json::json!([{"label": "deprecated",
            "description": "Do not use deprecated params, they will be removed.",
            "parameters": ["controllerExtraConfig"]}])
    );
}

#[test]
fn environment_parameters_and_group_members_are_located_too() {
    // fixtures/overcloud: `parameters` at the root, a group's members.
    let dir = "fixtures/overcloud";
    let args = [
        "parameters".to_owned(),
        "-t".to_owned(),
        format!("{dir}/overcloud.yaml"),
        "-e".to_owned(),
        format!("{dir}/environments/overcloud-resource-registry-puppet.yaml"),
        "-e".to_owned(),
        format!("{dir}/environments/network-environment.yaml"),
        "--format".to_owned(),
        "json".to_owned(),
    ];
    let seen = check(&common::json(&args));
    assert!(seen.get("parameters").copied().unwrap_or(0) > 0, "{seen:?}");
    // A plan: its parts are located in the plan file.
    let plan = common::json(&[
        "parameters",
        "--plan",
        "fixtures/plans/plan-environment.yaml",
        "--format",
        "json",
    ]);
    let seen = check(&plan);
    assert!(
        seen.get("parameter_defaults").copied().unwrap_or(0) > 0,
        "{seen:?}"
    );
}
