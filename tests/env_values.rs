//! `validate -e`: the values environments give parameters, against Heat
//! itself. Each template of fixtures/env-values with its `NAME.env.yaml`,
//! and Heat 27.0.1's verdict on the pair (tests/heat/env-value-verdicts.json,
//! recorded by tools/heat-oracle/verdicts.py, which gives the environment
//! as the client's `-e` does): Heat checks no value at `template
//! validate` and refuses these at `stack create`; heatcap reports E7014 at
//! the environment's key, in Heat's words, for each template Heat refuses,
//! and nothing for one it accepts.

use std::path::{Path, PathBuf};

use heatcap::{validate, Profile, Severity, ValidateOptions};
use serde_json::Value;

#[test]
fn environment_values_agree_with_heat() {
    let text = std::fs::read_to_string("tests/heat/env-value-verdicts.json").unwrap();
    let doc: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(doc["heat"], "27.0.1");
    let verdicts = doc["verdicts"].as_object().unwrap();
    let (mut refused, mut accepted) = (0, 0);
    for (name, verdict) in verdicts {
        let dir = Path::new("fixtures/env-values");
        let env = dir.join(name.replace(".yaml", ".env.yaml"));
        let mut opts = ValidateOptions::new(vec![dir.join(name)], Profile::Hot);
        opts.environments = vec![PathBuf::from(&env)];
        let errors: Vec<_> = validate(&opts)
            .findings
            .into_iter()
            .filter(|d| d.severity == Severity::Error)
            .collect();
        assert!(
            verdict["validate"].is_null(),
            "{name}: Heat checks no value at validate"
        );
        let Some(message) = verdict["create"].as_str() else {
            accepted += 1;
            assert!(
                errors.is_empty(),
                "{name}: Heat accepts it; heatcap: {errors:?}"
            );
            continue;
        };
        refused += 1;
        // Heat's words, without the class and the nested stack's path.
        let words = message
            .strip_prefix("StackValidationFailed: ")
            .unwrap_or(message);
        let words = words.split_once(">: ").map_or(words, |(_, w)| w);
        assert!(
            errors.iter().any(|d| d.code.0 == "E7014"
                && d.file == env.display().to_string()
                && d.span.is_some()
                && d.message.contains(&format!("(Heat at create: {words})"))),
            "{name}: Heat says `{words}`; heatcap: {errors:?}"
        );
    }
    assert!(
        refused >= 7 && accepted >= 1,
        "{refused} refused, {accepted} accepted"
    );
}
