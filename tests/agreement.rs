//! r9: the same registry gives the same answer in every command. With
//! `OS::A: foo.yml` (fixtures/agree/env.yaml), Heat's suffix test makes
//! `foo.yml` a type name, never a template (heat-semantics §2.3, the
//! conformance case `yml_is_not_a_template_extension`): `template-capabilities`
//! must not count its capabilities, `resolve` must say `OS::A` is not
//! found, `validate` must warn that Heat takes it for a type (W6007),
//! `options` must not offer it for `OS::A`, and `export` must refuse.
//! Before the one registry model, `template-capabilities -e` counted
//! `foo.yml` as the template of `OS::A`.

use clap::Parser;
use heatcap::cli::{run, Cli};

const DIR: &str = "fixtures/agree";

fn heatcap(args: &[&str]) -> (i32, String, String) {
    let mut words = vec!["heatcap"];
    words.extend_from_slice(args);
    let cli = Cli::try_parse_from(words).unwrap();
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = run(cli, &mut out, &mut err).unwrap() as i32;
    (
        code,
        String::from_utf8(out).unwrap(),
        String::from_utf8(err).unwrap(),
    )
}

fn path(name: &str) -> String {
    format!("{DIR}/{name}")
}

#[test]
fn every_command_agrees_that_a_yml_target_is_not_a_template() {
    let env = path("env.yaml");
    let root = path("root.yaml");

    // What exists: only b.yaml is a template the registry names.
    let (_, summary, _) = heatcap(&["template-capabilities", "-e", &env]);
    assert_eq!(summary.trim(), r#"{"deployment": ["yaml"]}"#);
    let (_, by_type, _) = heatcap(&["template-capabilities", "--by-type", "-e", &env]);
    assert_eq!(by_type.trim(), r#"{"OS::B": ["fixtures/agree/b.yaml"]}"#);

    // What the registry picks: OS::A is not found, OS::B is b.yaml.
    let (code, resolved, _) = heatcap(&["resolve", "-e", &env, "--format", "plain"]);
    assert_eq!(code, 1);
    assert!(
        resolved.contains("OS::A -> error: the resource type `OS::A` could not be found"),
        "{resolved}"
    );
    assert!(
        resolved.contains("OS::B -> fixtures/agree/b.yaml"),
        "{resolved}"
    );
    let (code, composed, _) = heatcap(&["resolve", "-t", &root, "-e", &env, "--format", "plain"]);
    assert_eq!(code, 1);
    assert!(composed.contains("OS::A [a] -> error"), "{composed}");

    // What Heat refuses: the file says so, and the composition agrees.
    let (_, findings, _) = heatcap(&["validate", &env]);
    assert!(findings.contains("env.yaml:5:10: W6007"), "{findings}");
    let (_, composed, _) = heatcap(&["validate", "-e", &env, &root]);
    assert!(
        composed.contains("root.yaml:4:11: E7004 error: resource `a`"),
        "{composed}"
    );
    assert!(!composed.contains("foo.yml`:"), "{composed}");

    // No choice offers foo.yml for OS::A, and nothing is exported.
    let (_, choices, _) = heatcap(&["options", "-e", &env, "--format", "json"]);
    assert!(!choices.contains("foo.yml\""), "{choices}");
    let (code, body, err) = heatcap(&["export", "-t", &root, "-e", &env, "--format", "heat-api"]);
    assert_eq!((code, body.as_str()), (1, ""));
    assert!(err.contains("E7004 error: resource `a`"), "{err}");

    // The parameters of the composition: the same failure, at the same place.
    let (code, _, err) = heatcap(&["parameters", "-t", &root, "-e", &env]);
    assert_eq!(code, 1);
    assert!(err.contains("root.yaml:4:11: E7004"), "{err}");
}
