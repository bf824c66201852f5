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

/// Heat's document with what depends on Python's set order or its random
/// names normalised: each `required_by` sorted; the members of
/// `random_stack` (an `OS::Heat::AutoScalingGroup`'s stack, whose members
/// Heat names at random) named `*`; each list sorted.
fn normalised(mut d: J, random_stack: Option<&str>) -> J {
    if let Some(J::Object(lists)) = d.get_mut("resource_changes") {
        for list in lists.values_mut() {
            let J::Array(entries) = list else { continue };
            for e in entries.iter_mut() {
                if let Some(J::Array(r)) = e.get_mut("required_by") {
                    r.sort_by(|a, b| a.as_str().cmp(&b.as_str()));
                }
                if random_stack.is_some() && e["stack_name"].as_str() == random_stack {
                    e["resource_name"] = J::from("*");
                    e["resource_identity"]["path"] = J::from("*");
                }
            }
            entries.sort_by_key(canonical);
        }
    }
    d
}

/// `v` as text with every object's keys sorted.
fn canonical(v: &J) -> String {
    match v {
        J::Object(m) => {
            let mut keys: Vec<&String> = m.keys().collect();
            keys.sort();
            let inner: Vec<String> = keys
                .into_iter()
                .map(|k| format!("{k:?}:{}", canonical(&m[k])))
                .collect();
            format!("{{{}}}", inner.join(","))
        }
        J::Array(items) => format!(
            "[{}]",
            items.iter().map(canonical).collect::<Vec<_>>().join(",")
        ),
        other => other.to_string(),
    }
}

/// Runs `heatcap diff --format heat -t NEW --from-template OLD` (both in
/// fixtures/diff/new, with `args`) against the recording `golden`.
fn assert_pair_equal_to_heat(
    golden: &str,
    new: &str,
    old: &str,
    args: &[&str],
    random: Option<&str>,
) {
    let heat: J = serde_json::from_str(
        &std::fs::read_to_string(format!("tests/heat/diff/{golden}")).unwrap(),
    )
    .unwrap();
    let (new, old) = (format!("{NEW}/{new}"), format!("{NEW}/{old}"));
    let mut words = vec![
        "diff",
        "--format",
        "heat",
        "-q",
        "-t",
        &new,
        "--from-template",
        &old,
    ];
    words.extend_from_slice(args);
    let ours = common::json(&words);
    common::assert_same_as_heat(golden, &normalised(heat, random), &normalised(ours, random));
}

/// Group sizes and removal policies (tests/heat/diff/groups.json): a
/// `ResourceGroup` shrunk (its last member deleted); one whose
/// `removal_policies` list member `0` (deleted, `2` added, `1` kept); one
/// whose `index_var` changes (not update_allowed: the group replaced, its
/// members deleted and added); an `OS::Heat::AutoScalingGroup` grown to
/// `desired_capacity` 3 (Heat names members at random before create:
/// every old member deleted, every new one added).
#[test]
fn group_counts_and_removal_policies_are_heats() {
    assert_pair_equal_to_heat(
        "groups.json",
        "groups.yaml",
        "groups-old.yaml",
        &[],
        Some("groups-Scaled"),
    );
}

/// The replace rules rules.json leaves out (tests/heat/diff/more-rules.json):
/// a LaunchConfiguration whose metadata changes (`needs_replace_with_tmpl_diff`),
/// a TestResource's `value` with `update_replace` and an EIPAssociation's
/// `EIP` with a new `InstanceId` (`needs_replace_with_prop_diff`): replaced;
/// a TestResource's `value` alone: updated.
#[test]
fn launch_configuration_and_property_diff_rules_are_heats() {
    assert_pair_equal_to_heat(
        "more-rules.json",
        "more-rules.yaml",
        "more-rules-old.yaml",
        &[],
        None,
    );
}

/// `restricted_actions` (tests/heat/diff/restricted.json): Heat's preview
/// lists the salt replaced and the net updated as if nothing forbade it.
#[test]
fn restricted_actions_preview_as_heats() {
    let heat: J =
        serde_json::from_str(&std::fs::read_to_string("tests/heat/diff/restricted.json").unwrap())
            .unwrap();
    let ours = common::json(&[
        "diff",
        "--format",
        "heat",
        "-q",
        "-t",
        &format!("{NEW}/root.yaml"),
        "-e",
        &env(NEW, "restricted.yaml"),
        "--from-environment",
        &env(NEW, "env.yaml"),
    ]);
    common::assert_same_as_heat("restricted.json", &heat, &ours);
}

/// ... and heatcap marks each refused, in Heat's words
/// (`ResourceActionRestricted`, heat/engine/resource.py L1512), with the
/// environment line; a nested stack's resource through the drill-down
/// (`resources: {Role: {"*": ...}}`); exit 1: the update would fail.
#[test]
fn restricted_actions_are_marked_refused() {
    let words = [
        "diff",
        "--format",
        "json",
        "-q",
        "-t",
        &format!("{NEW}/root.yaml"),
        "-e",
        &env(NEW, "restricted.yaml"),
        "--from-environment",
        &env(NEW, "env.yaml"),
    ];
    let (code, out, err) = common::heatcap(&words);
    assert_eq!(code, 1, "{err}");
    let d: J = serde_json::from_str(&out).unwrap();
    let change = |stack: &str, name: &str| {
        d["changes"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["stack"] == stack && c["resource"] == name)
            .unwrap()
            .clone()
    };
    let salt = change("root", "Salt");
    assert_eq!(
        salt["refused"],
        "ResourceActionRestricted: resources.Salt: replace is restricted for resource."
    );
    assert_eq!(salt["refused_at"], format!("{NEW}/restricted.yaml:9"));
    assert_eq!(
        change("root", "Net")["refused"],
        "ResourceActionRestricted: resources.Net: update is restricted for resource."
    );
    assert_eq!(
        change("root-Role", "Config")["refused_at"],
        format!("{NEW}/restricted.yaml:14")
    );
    assert!(change("root", "Server").get("refused").is_none());
    assert_eq!(d["summary"]["refused"], 3);
    assert!(err.contains("ResourceActionRestricted"), "{err}");
}

/// What Heat never says (tests/heat/diff/follows.json is Heat's answer:
/// the salt replaced, its consumers unchanged, the server updated): the
/// consumers change with the salt; the server's image change rebuilds it
/// (destructive); each changed property's lines on both sides, through
/// the parameter's default.
#[test]
fn consumers_of_a_replaced_resource_and_destructive_servers_are_named() {
    assert_pair_equal_to_heat(
        "follows.json",
        "follows.yaml",
        "follows-old.yaml",
        &[],
        None,
    );
    let d = common::json(&[
        "diff",
        "--format",
        "json",
        "-q",
        "-t",
        &format!("{NEW}/follows.yaml"),
        "--from-template",
        &format!("{NEW}/follows-old.yaml"),
    ]);
    let change = |name: &str| {
        d["changes"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["resource"] == name)
            .unwrap()
            .clone()
    };
    for consumer in ["Consumer", "Named"] {
        let c = change(consumer);
        assert_eq!(c["action"], "unchanged");
        assert_eq!(c["follows"], serde_json::json!(["Salt"]));
    }
    let server = change("Rebuilt");
    assert_eq!(server["action"], "updated");
    assert!(server["destructive"]
        .as_str()
        .unwrap()
        .starts_with("rebuilt"));
    let length = &change("Salt")["properties"][0];
    assert_eq!(
        length["set_before"],
        serde_json::json!([
            format!("{NEW}/follows-old.yaml:9"),
            format!("{NEW}/follows-old.yaml:4")
        ])
    );
    assert_eq!(
        length["set_after"],
        serde_json::json!([
            format!("{NEW}/follows.yaml:9"),
            format!("{NEW}/follows.yaml:4")
        ])
    );
    assert_eq!(d["summary"]["follows"], 2);
    assert_eq!(d["summary"]["destructive"], 1);
}

/// A value set by an environment, through a nested template: the nested
/// resource's line, its parent's property, then the environment's
/// `parameter_defaults` line; a stack resource with nothing changed
/// inside is said so; a replaced server is destructive.
#[test]
fn where_values_are_set_is_followed_outward() {
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
    let change = |stack: &str, name: &str| {
        d["changes"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["stack"] == stack && c["resource"] == name)
            .unwrap()
            .clone()
    };
    let config = change("root-Role", "Config");
    assert_eq!(
        config["properties"][0]["set_after"],
        serde_json::json!([
            format!("{NEW}/role.yaml:8"),
            format!("{NEW}/root.yaml:51"),
            format!("{NEW}/values.yaml:8")
        ])
    );
    assert_eq!(
        config["properties"][0]["set_before"][2],
        format!("{NEW}/root.yaml:4")
    );
    assert_eq!(change("root", "Thing")["nothing_inside"], true);
    assert!(change("root", "Role").get("nothing_inside").is_none());
    let d = common::json(&[
        "diff",
        "--format",
        "json",
        "-q",
        "-t",
        &format!("{NEW}/root.yaml"),
        "-e",
        &env(NEW, "user-data.yaml"),
        "--from-environment",
        &env(NEW, "env.yaml"),
    ]);
    let server = d["changes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["resource"] == "Server")
        .unwrap();
    assert_eq!(server["action"], "replaced");
    assert!(server["destructive"]
        .as_str()
        .unwrap()
        .starts_with("replaced"));
}

/// A side Heat refuses for a nested parameter nothing sets
/// (tests/heat/diff/unset-new.json, unset-old.json: the old side built as
/// a create, `UserParameterMissing`; the new one for the update,
/// `Property Deep not assigned`): heatcap gives Heat's words with the
/// side, the positioned diagnostic with the side, exit 1, and still shows
/// what can be compared (the unset value `null`).
#[test]
fn a_refused_side_is_named_and_the_rest_still_shown() {
    const P: &str = "fixtures/preview/basic";
    for (golden, new_env, old_env, side) in [
        ("unset-new.json", "env-unset.yaml", "env.yaml", "new side"),
        ("unset-old.json", "env.yaml", "env-unset.yaml", "old side"),
    ] {
        let heat: J = serde_json::from_str(
            &std::fs::read_to_string(format!("tests/heat/diff/{golden}")).unwrap(),
        )
        .unwrap();
        let (t, e, f) = (
            format!("{P}/root.yaml"),
            format!("{P}/{new_env}"),
            format!("{P}/{old_env}"),
        );
        let base = ["diff", "-t", &t, "-e", &e, "--from-environment", &f];
        let mut words = base.to_vec();
        words.extend(["--format", "heat"]);
        let (code, out, err) = common::heatcap(&words);
        assert_eq!(code, 1);
        assert_eq!(serde_json::from_str::<J>(&out).unwrap(), heat, "{golden}");
        assert!(
            err.contains(&format!("{P}/role.yaml:10:11: W7008 warning: {side}: ")),
            "{err}"
        );
        assert!(
            err.contains(&format!("Heat refuses the update preview: {side}: ")),
            "{err}"
        );
        let (code, out, _) = common::heatcap(&base);
        assert_eq!(code, 1);
        assert!(out.contains("root-Role-Inner/Leaf"), "{out}");
        let marked = if side == "new side" {
            "after unset: Deep has no value"
        } else {
            "before unset: Deep has no value"
        };
        assert!(out.contains(marked), "{out}");
        // The summary line, before the interface section.
        assert!(
            out.lines()
                .any(|l| l.contains(" to add, ") && l.contains(" to update")),
            "{out}"
        );
    }
}

/// Where Heat refuses and heatcap still answers: a yaql expression fed
/// `get_attr` (`None` before create) fails inside Heat's update preview
/// (tests/heat/diff/yaql-null.json: `StackValidationFailed`), as on every
/// TripleO tree from 2018 on; heatcap leaves the value as it cannot know
/// it, the same on both sides, and answers (exit 0).
#[test]
fn heatcap_answers_where_heat_refuses_a_yaql_fed_null() {
    let heat: J =
        serde_json::from_str(&std::fs::read_to_string("tests/heat/diff/yaql-null.json").unwrap())
            .unwrap();
    assert!(heat["Error"]
        .as_str()
        .unwrap()
        .contains("for receiver None"));
    let (t, f) = (format!("{NEW}/yaql.yaml"), format!("{NEW}/yaql-old.yaml"));
    let (code, out, err) = common::heatcap(&[
        "diff",
        "--format",
        "json",
        "-q",
        "-t",
        &t,
        "--from-template",
        &f,
    ]);
    assert_eq!(code, 0, "{err}");
    let d: J = serde_json::from_str(&out).unwrap();
    let actions: Vec<(&str, &str)> = d["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["resource"].as_str().unwrap(),
                c["action"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        actions,
        [("R", "unchanged"), ("V", "unchanged"), ("W", "updated")]
    );
}

/// What else of a definition Heat compares (tests/heat/diff/definition.json):
/// another condition, both true (`render_hot` keeps its name): updated; a
/// new `description` alone: unchanged (not compared); a group's
/// `update_policy`: updated, its member unchanged.
#[test]
fn conditions_descriptions_and_update_policies_are_heats() {
    assert_pair_equal_to_heat(
        "definition.json",
        "definition.yaml",
        "definition-old.yaml",
        &[],
        None,
    );
}

/// A name in the new side's `parameters` the root template does not
/// declare (tests/heat/diff/unknown-parameter.json: Heat refuses,
/// `UnknownUserParameter`): E7018 at the environment's key, with the
/// side; exit 1; the comparison still shown (Net's new name).
#[test]
fn an_unknown_parameter_refuses_its_side_with_a_position() {
    let heat: J = serde_json::from_str(
        &std::fs::read_to_string("tests/heat/diff/unknown-parameter.json").unwrap(),
    )
    .unwrap();
    let (t, e, f) = (
        format!("{NEW}/root.yaml"),
        env(NEW, "unknown.yaml"),
        env(NEW, "env.yaml"),
    );
    let base = ["diff", "-t", &t, "-e", &e, "--from-environment", &f];
    let mut words = base.to_vec();
    words.extend(["--format", "heat"]);
    let (code, out, err) = common::heatcap(&words);
    assert_eq!(code, 1);
    assert_eq!(serde_json::from_str::<J>(&out).unwrap(), heat);
    assert!(
        err.contains(&format!("{NEW}/unknown.yaml:8:3: E7018 error: new side: ")),
        "{err}"
    );
    let (code, out, _) = common::heatcap(&base);
    assert_eq!(code, 1);
    assert!(out.contains("name: \"net-a\" → \"net-b\""), "{out}");
}

/// The document with what Heat leaves to chance made the same on both
/// sides: each entry's `required_by` (Python set order, which changes
/// with every engine process), sorted.
fn without_set_order(v: &J) -> J {
    match v {
        J::Object(m) => J::Object(
            m.iter()
                .map(|(k, x)| {
                    let x = match (k.as_str(), x) {
                        ("required_by", J::Array(items)) => {
                            let mut items = items.clone();
                            items.sort_by_key(ToString::to_string);
                            J::Array(items)
                        }
                        _ => without_set_order(x),
                    };
                    (k.clone(), x)
                })
                .collect(),
        ),
        J::Array(items) => J::Array(items.iter().map(without_set_order).collect()),
        other => other.clone(),
    }
}

/// `heatcap diff --format heat` on the 2016 deployment
/// (tests/heat/preview/corpus-2016.json's, named `overcloud`), its new
/// side given `change` (fixtures/diff/corpus-2016/) on top, against the
/// recording `golden`. Returns heatcap's exit code.
fn corpus_2016_against_heat(change: &str, golden: &str) -> i32 {
    let (root, mut envs) = common::corpus_2016_deployment();
    envs.push("fixtures/preview/passwords-2016.yaml".into());
    let mut words = common::deployment_args(
        "diff",
        &root,
        &envs,
        &["--format", "heat", "-q", "--stack-name", "overcloud"],
    );
    for e in &envs {
        words.extend(["--from-environment".to_owned(), e.display().to_string()]);
    }
    words.extend([
        "-e".to_owned(),
        format!("fixtures/diff/corpus-2016/{change}"),
    ]);
    let heat: J = serde_json::from_str(
        &std::fs::read_to_string(format!("tests/heat/diff/{golden}")).unwrap(),
    )
    .unwrap();
    let (code, out, err) = common::heatcap(&words);
    let ours: J = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {err}"));
    common::assert_same_as_heat(golden, &without_set_order(&heat), &without_set_order(&ours));
    code
}

/// The 2016 deployment with new values: the controllers' flavor (the
/// server updated, RESIZE) and the internal API network's name (the
/// network updated, each port on it replaced: `network` is not
/// `update_allowed`); every stack resource updated.
#[test]
fn a_change_of_values_on_the_2016_deployment_is_heats() {
    assert_eq!(
        corpus_2016_against_heat("values.yaml", "corpus-2016-values.json"),
        0
    );
}

/// The 2016 deployment with implementations switched by environment: a
/// chain's service mapped to `OS::Heat::None` (replaced, its stack's
/// resources deleted) and the controllers' storage port to the no-op
/// port template (updated, the old template's resources deleted).
#[test]
fn a_switch_of_implementations_on_the_2016_deployment_is_heats() {
    assert_eq!(
        corpus_2016_against_heat("remap.yaml", "corpus-2016-remap.json"),
        0
    );
}

/// A second compute node: the group's new member, a nested stack holding
/// nested stacks, is added with all it contains. Heat 27 itself cannot
/// show this (HTTP 500, recorded with the oracle's `--crash` in
/// corpus-2016-scale-heat-crash.json); the recording heatcap equals is the
/// oracle's, which gives the never-stored nested stacks the id `None`.
#[test]
fn an_added_nested_stack_on_the_2016_deployment_is_heats_where_heat_crashes() {
    let crash: J = serde_json::from_str(
        &std::fs::read_to_string("tests/heat/diff/corpus-2016-scale-heat-crash.json").unwrap(),
    )
    .unwrap();
    assert_eq!(
        crash["Error"],
        "500: TypeError: 'NoneType' object is not iterable"
    );
    assert_eq!(
        corpus_2016_against_heat("scale.yaml", "corpus-2016-scale.json"),
        0
    );
}

/// The rendered end-2018 deployment (tests/heat/later/README.md, "Update
/// previews"; opt-in: `HEATCAP_THT_RENDERED` names the directory holding
/// `18d77c17/` rendered in place), from itself to itself with
/// tests/heat/later/diff-2018-change.yaml (a second compute node, the
/// Redis VIP port switched off). Heat 27's update preview with
/// `show_nested` fails there (a yaql expression fed `get_attr`'s null,
/// diff-2018-change.json); without it, it answers for the root stack
/// (diff-2018-change-root.json), which heatcap's root stack entries equal;
/// heatcap answers for every nested stack too.
#[test]
fn a_change_of_the_rendered_2018_deployment_is_heats_where_heat_answers() {
    let Some(dir) = std::env::var_os("HEATCAP_THT_RENDERED") else {
        return;
    };
    let tree = std::path::Path::new(&dir).join("18d77c17");
    let here = std::env::current_dir().unwrap();
    let at = |p: &str| tree.join(p).display().to_string();
    let mut envs: Vec<String> = [
        "overcloud-resource-registry-puppet.yaml",
        "environments/network-isolation.yaml",
        "environments/network-environment.yaml",
        "environments/docker-ha.yaml",
    ]
    .iter()
    .map(|e| at(e))
    .collect();
    envs.push(
        here.join("tests/heat/later/preview-2018-values.yaml")
            .display()
            .to_string(),
    );
    let mut words: Vec<String> = ["diff", "--format", "heat", "-q", "--max-nested-depth", "7"]
        .iter()
        .map(|w| (*w).to_owned())
        .collect();
    words.extend(["-t".to_owned(), at("overcloud.yaml")]);
    for e in &envs {
        words.extend([
            "-e".to_owned(),
            e.clone(),
            "--from-environment".to_owned(),
            e.clone(),
        ]);
    }
    words.extend([
        "-e".to_owned(),
        here.join("tests/heat/later/diff-2018-change.yaml")
            .display()
            .to_string(),
    ]);
    let read = |name: &str| -> J {
        serde_json::from_str(&std::fs::read_to_string(format!("tests/heat/later/{name}")).unwrap())
            .unwrap()
    };
    let failed = read("diff-2018-change.json");
    assert!(
        failed["Error"]
            .as_str()
            .unwrap()
            .contains("NoMatchingMethodException"),
        "{failed}"
    );
    let (code, out, err) = common::heatcap(&words);
    assert_eq!(code, 0, "{err}");
    let ours: J = serde_json::from_str(&out).unwrap();
    let lists = ours["resource_changes"].as_object().unwrap();
    let nested = lists
        .values()
        .flat_map(|v| v.as_array().unwrap())
        .filter(|e| e["stack_name"] != "overcloud")
        .count();
    assert!(nested > 500, "{nested} entries in nested stacks");
    let root = J::Object(
        lists
            .iter()
            .map(|(k, v)| {
                let entries: Vec<J> = v
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter(|e| e["stack_name"] == "overcloud")
                    .cloned()
                    .collect();
                (k.clone(), J::Array(entries))
            })
            .collect(),
    );
    common::assert_same_as_heat(
        "diff-2018-change-root.json",
        &without_set_order(&read("diff-2018-change-root.json")),
        &without_set_order(&serde_json::json!({ "resource_changes": root })),
    );
}
