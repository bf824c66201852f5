//! `heatcap diff --format heat` against Heat's own update preview,
//! recorded by tools/heat-oracle/preview_update.py (Heat 27.0.1's
//! `EngineService.preview_update_stack(show_nested=True)` run offline on a
//! never-deployed old side; the commands are in tools/heat-oracle/README.md)
//! in tests/heat/diff/. No Python runs here: the recordings are the oracle.
//! Each list of both documents is sorted by (stack_name, resource_name):
//! Heat's order is Python set order.

use serde_json::Value as J;

mod common;

const NEW: &str = "fixtures/diff/new";
const OLD: &str = "fixtures/diff/old";

/// Runs `heatcap diff --format heat -t fixtures/diff/new/root.yaml` with
/// `args` and compares it with the recording `golden`.
fn assert_equal_to_heat(golden: &str, args: &[String]) {
    let heat: J = serde_json::from_str(
        &std::fs::read_to_string(format!("tests/heat/diff/{golden}")).unwrap(),
    )
    .unwrap();
    let mut words: Vec<String> = ["diff", "--format", "heat", "-q", "-t"]
        .iter()
        .map(|w| (*w).to_owned())
        .collect();
    words.push(format!("{NEW}/root.yaml"));
    words.extend(args.iter().cloned());
    let ours = common::json(&words);
    common::assert_same_as_heat(golden, &heat, &ours);
}

fn env(dir: &str, name: &str) -> String {
    format!("{dir}/{name}")
}

/// The same composition on both sides: stack resources (template
/// resources, a group) updated, the update wait-condition handle
/// replaced, everything else unchanged.
#[test]
fn no_change_is_heats() {
    assert_equal_to_heat("same.json", &["-e".to_owned(), env(NEW, "env.yaml")]);
}

/// New values: an `update_allowed` property (updated), one that is not
/// (replaced), a server's flavor (RESIZE: updated), metadata only
/// (updated), a group's count (a member added), a condition turned on
/// (added), a template resource's property (updated inside).
#[test]
fn a_change_of_values_is_heats() {
    assert_equal_to_heat(
        "values.json",
        &[
            "-e".to_owned(),
            env(NEW, "values.yaml"),
            "--from-environment".to_owned(),
            env(NEW, "env.yaml"),
        ],
    );
}

/// `user_data_update_policy` REPLACE (the default): the server is
/// replaced; a port's `replacement_policy` REPLACE_ALWAYS
/// (`needs_replace`): replaced.
#[test]
fn server_and_port_replacement_rules_are_heats() {
    assert_equal_to_heat(
        "user-data.json",
        &[
            "-e".to_owned(),
            env(NEW, "user-data.yaml"),
            "--from-environment".to_owned(),
            env(NEW, "env.yaml"),
        ],
    );
}

/// A switch of implementations by environment: a template for another
/// (updated; the old one's resources deleted, the new one's added) and a
/// template for `OS::Heat::None` (a change of class: replaced, its
/// resources deleted).
#[test]
fn a_switch_of_implementations_is_heats() {
    assert_equal_to_heat(
        "remap.json",
        &[
            "-e".to_owned(),
            env(NEW, "remap.yaml"),
            "--from-environment".to_owned(),
            env(NEW, "env.yaml"),
        ],
    );
}

/// A changed nested template (the old tree's role.yaml gives another
/// value): the resource inside is updated.
#[test]
fn a_changed_nested_template_is_heats() {
    assert_equal_to_heat(
        "nested.json",
        &[
            "-e".to_owned(),
            env(NEW, "env.yaml"),
            "--from-template".to_owned(),
            env(OLD, "root.yaml"),
            "--from-environment".to_owned(),
            env(OLD, "env.yaml"),
        ],
    );
}

/// heatcap's own document: the rule and the properties before → after.
#[test]
fn the_reasons_are_given() {
    let d = common::json(&[
        "diff",
        "--format",
        "json",
        "-q",
        "-t",
        &format!("{NEW}/root.yaml"),
        "-e",
        &env(NEW, "values.yaml"),
        "--from-environment",
        &env(NEW, "env.yaml"),
    ]);
    let salt = d["changes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["resource"] == "Salt")
        .unwrap();
    assert_eq!(salt["action"], "replaced");
    assert_eq!(salt["rule"], "not-update-allowed");
    assert_eq!(salt["properties"][0]["name"], "length");
    assert_eq!(salt["properties"][0]["before"], 16);
    assert_eq!(salt["properties"][0]["after"], 32);
    assert_eq!(d["summary"]["add"], 2);
    assert_eq!(d["summary"]["replace"], 2);
}

/// One resource per rule against another template: `OS::Heat::None`
/// never changes; `depends_on` only and `deletion_policy` only: updated;
/// a resource only the old side has: deleted; a plugin for another (a
/// change of class): replaced; a server's image with
/// `image_update_policy` REPLACE: replaced.
#[test]
fn the_decision_rules_are_heats() {
    let golden = "rules.json";
    let heat: J = serde_json::from_str(
        &std::fs::read_to_string(format!("tests/heat/diff/{golden}")).unwrap(),
    )
    .unwrap();
    let ours = common::json(&[
        "diff",
        "--format",
        "heat",
        "-q",
        "-t",
        &format!("{NEW}/rules.yaml"),
        "--from-template",
        &format!("{NEW}/rules-old.yaml"),
    ]);
    assert_eq!(heat, ours, "{golden}: differs from Heat");
}

/// A changed `immutable` property (a trunk's parent `port`): Heat refuses
/// the update preview, `NotSupported`; heatcap says so and exits 1.
#[test]
fn an_immutable_change_is_refused_as_heat_refuses_it() {
    let heat: J =
        serde_json::from_str(&std::fs::read_to_string("tests/heat/diff/immutable.json").unwrap())
            .unwrap();
    let words = [
        "diff",
        "--format",
        "heat",
        "-q",
        "-t",
        &format!("{NEW}/trunk.yaml"),
        "--from-template",
        &format!("{NEW}/trunk-old.yaml"),
    ];
    let (code, out, err) = common::heatcap(&words);
    assert_eq!(code, 1);
    assert_eq!(serde_json::from_str::<J>(&out).unwrap(), heat);
    assert!(err.contains("new side: NotSupported"), "{err}");
}
