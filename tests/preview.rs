//! `heatcap preview --format heat` against Heat's own answer, recorded by
//! tools/heat-oracle/preview.py (Heat 27.0.1's `EngineService.preview_stack`
//! run offline, python-heatclient preparing the request; the commands are
//! in tools/heat-oracle/README.md) in tests/heat/preview/. No Python runs
//! here: the recordings are the oracle.
//!
//! Equal means equal values, but for what Heat itself leaves to chance:
//! the order of a stack's resources and outputs and of `required_by`
//! (Python set order: it changes with every engine process), which both
//! sides have sorted before comparing; and `creation_time`, Heat's clock
//! (the recordings' is fixed with `--clock`; heatcap's is taken from them).

use serde_json::Value as J;

mod common;

/// The document with Heat's unordered lists sorted.
fn normalize(v: &J) -> J {
    match v {
        J::Object(m) => J::Object({
            let mut keys: Vec<&String> = m.keys().collect();
            keys.sort();
            keys.into_iter()
                .map(|k| (k, &m[k]))
                .map(|(k, x)| {
                    let x = normalize(x);
                    let x = match (k.as_str(), x) {
                        ("resources" | "outputs" | "required_by", J::Array(items)) => {
                            J::Array(sorted(items))
                        }
                        (_, x) => x,
                    };
                    (k.clone(), x)
                })
                .collect()
        }),
        J::Array(items) => J::Array(items.iter().map(normalize).collect()),
        other => other.clone(),
    }
}

/// A list of resources (nested lists too), sorted by their text.
fn sorted(items: Vec<J>) -> Vec<J> {
    let mut items: Vec<J> = items
        .into_iter()
        .map(|x| match x {
            J::Array(inner) => J::Array(sorted(inner.iter().map(normalize).collect())),
            other => other,
        })
        .collect();
    items.sort_by_key(|x| serde_json::to_string(x).unwrap());
    items
}

/// Runs `heatcap preview --format heat` with `args` and compares it with
/// the recording `golden`.
fn assert_equal_to_heat(golden: &str, args: &[String]) {
    let heat: J = serde_json::from_str(
        &std::fs::read_to_string(format!("tests/heat/preview/{golden}")).unwrap(),
    )
    .unwrap();
    let mut words = vec![
        "preview".to_owned(),
        "--format".to_owned(),
        "heat".to_owned(),
        "-q".to_owned(),
    ];
    words.extend(args.iter().cloned());
    let mut ours = common::json(&words);
    if let (Some(t), Some(s)) = (
        heat.pointer("/stack/creation_time"),
        ours.pointer_mut("/stack/creation_time"),
    ) {
        *s = t.clone();
    }
    common::assert_same_as_heat(golden, &normalize(&heat), &normalize(&ours));
}

fn args(words: &[&str]) -> Vec<String> {
    words.iter().map(|w| (*w).to_owned()).collect()
}

/// get_resource (a name, or null for a Neutron net in the root stack),
/// get_attr (null; `OS::Heat::Value` shows its value), properties with
/// their schema's defaults and conversions, a false condition, depends_on,
/// metadata, a template resource nesting a template resource (two levels),
/// a ResourceGroup of 3 (count from parameter_defaults) of a template
/// mapped in the registry, OS::Heat::None, an output, parameters from
/// `parameters`, `parameter_defaults` and defaults, a hidden one.
#[test]
fn basic_equals_heat() {
    assert_equal_to_heat(
        "basic.json",
        &args(&[
            "-t",
            "fixtures/preview/basic/root.yaml",
            "-e",
            "fixtures/preview/basic/env.yaml",
        ]),
    );
}

/// Deprecated property names Heat moves to their replacement (a port's
/// `network_id`, a server's `networks[].uuid`), the subnets a port and a
/// server wait for (`add_dependencies`), a server's and a volume's
/// defaults and conversions.
#[test]
fn translations_equal_heat() {
    assert_equal_to_heat(
        "translation.json",
        &args(&["-t", "fixtures/preview/translation/root.yaml"]),
    );
}

/// Conditions switching resources and nested templates, in the root and
/// in a nested stack (an empty nested stack is an empty list).
#[test]
fn conditions_equal_heat() {
    assert_equal_to_heat(
        "conditions.json",
        &args(&[
            "-t",
            "fixtures/heat/conditions/root.yaml",
            "-e",
            "fixtures/heat/conditions/env.yaml",
        ]),
    );
}

/// The 2016 TripleO deployment (tests/heat/corpus-2016.json's), with
/// values for the passwords and the one other parameter it leaves unset
/// (Heat refuses a preview without them), named `overcloud`.
#[test]
fn corpus_2016_equals_heat() {
    let (root, mut envs) = common::corpus_2016_deployment();
    envs.push("fixtures/preview/passwords-2016.yaml".into());
    let mut words = common::deployment_args(
        "x",
        &root,
        &envs,
        &["--stack-name", "overcloud", "--max-nested-depth", "7"],
    );
    words.remove(0);
    assert_equal_to_heat("corpus-2016.json", &words);
}

/// A nested stack's parameter nothing gives a value: Heat never validates
/// a preview's nested stacks, so it answers, with `null` where the value
/// was needed (here in a `str_replace`).
#[test]
fn an_unset_nested_parameter_is_null() {
    assert_equal_to_heat(
        "unset-nested.json",
        &args(&[
            "-t",
            "fixtures/preview/basic/root.yaml",
            "-e",
            "fixtures/preview/basic/env-unset.yaml",
        ]),
    );
}

/// Heat's refusals, as its API reports them (the exception's class, then
/// its message): a type nothing maps, an unknown template version.
#[test]
fn refusals_equal_heats() {
    for (golden, words) in [
        (
            "no-registry.json",
            args(&["-t", "fixtures/preview/basic/root.yaml"]),
        ),
        (
            "invalid-version.json",
            args(&["-t", "fixtures/heat/invalid-version/root.yaml"]),
        ),
    ] {
        let mut all = vec![
            "preview".to_owned(),
            "--format".to_owned(),
            "heat".to_owned(),
            "-q".to_owned(),
        ];
        all.extend(words);
        let (code, out, _) = common::heatcap(&all);
        let heat: J = serde_json::from_str(
            &std::fs::read_to_string(format!("tests/heat/preview/{golden}")).unwrap(),
        )
        .unwrap();
        assert_eq!(serde_json::from_str::<J>(&out).unwrap(), heat, "{golden}");
        assert_eq!(code, 1, "{golden}");
    }
}

/// Heat refuses a preview whose root parameter has no value; so does
/// heatcap, with Heat's error document.
#[test]
fn a_missing_root_parameter_is_heats_error() {
    let (root, envs) = common::corpus_2016_deployment();
    let mut words = common::deployment_args("preview", &root, &envs, &["--format", "heat", "-q"]);
    words.retain(|w| !w.is_empty());
    let (code, out, _) = common::heatcap(&words);
    let v: J = serde_json::from_str(&out).unwrap();
    assert_eq!(
        v["Error"],
        "UserParameterMissing: The Parameter (AdminPassword) was not provided."
    );
    assert_eq!(code, 1);
}

/// The rendered end-2018 and 2023 deployments (tests/heat/later/README.md),
/// each with values for the parameters it leaves unset
/// (tests/heat/later/preview-YYYY-values.yaml), when
/// `HEATCAP_THT_RENDERED` names the directory holding `18d77c17/` and
/// `1393d39b/`, each rendered in place by its own
/// `tools/process-templates.py` (2023 with `-n network_data_default.yaml`,
/// which heatcap's in-memory render is given too). Heat's answers:
/// tests/heat/later/preview-2018.json and preview-2023.json.
#[test]
fn rendered_deployments_equal_heat() {
    let Some(dir) = std::env::var_os("HEATCAP_THT_RENDERED") else {
        return;
    };
    let here = std::env::current_dir().unwrap();
    let cases: [(&str, &str, &[&str], &[&str]); 2] = [
        (
            "18d77c17",
            "2018",
            &[
                "overcloud-resource-registry-puppet.yaml",
                "environments/network-isolation.yaml",
                "environments/network-environment.yaml",
                "environments/docker-ha.yaml",
            ],
            &[],
        ),
        (
            "1393d39b",
            "2023",
            &[
                "overcloud-resource-registry-puppet.yaml",
                "environments/deployed-network-environment.yaml",
            ],
            &["--network-data", "network_data_default.yaml"],
        ),
    ];
    for (rev, year, envs, extra) in cases {
        let tree = std::path::Path::new(&dir).join(rev);
        let at = |p: &str| tree.join(p).display().to_string();
        let mut words = vec!["-t".to_owned(), at("overcloud.yaml")];
        for e in envs {
            words.extend(["-e".to_owned(), at(e)]);
        }
        let values = here.join(format!("tests/heat/later/preview-{year}-values.yaml"));
        words.extend(["-e".to_owned(), values.display().to_string()]);
        words.extend(["--max-nested-depth".to_owned(), "7".to_owned()]);
        for (i, w) in extra.iter().enumerate() {
            words.push(if i % 2 == 1 { at(w) } else { (*w).to_owned() });
        }
        assert_equal_to_heat(&format!("../later/preview-{year}.json"), &words);
    }
}
