//! `heatcap resource-type` against Heat's own answers, recorded by
//! tools/heat-schema/record.py (Heat 27.0.1's engine run offline, its
//! output shaped as Heat's API sends it and as python-heatclient prints
//! it) in tests/heat/resource-types/. No Python runs here: the recordings
//! are the oracle. `record.py check` compares every type the same way.

use std::fs;

use clap::Parser;
use heatcap::cli::{run, Cli};
use serde_json::Value;

const DIR: &str = "tests/heat/resource-types";

#[test]
fn heatcap_answers_as_heat_does() {
    let cases: Vec<Value> =
        serde_json::from_str(&fs::read_to_string(format!("{DIR}/cases.json")).unwrap()).unwrap();
    assert!(cases.len() >= 15, "{} cases", cases.len());
    let mut failures = Vec::new();
    for case in &cases {
        let name = case["name"].as_str().unwrap();
        let mut args = vec!["heatcap".to_owned()];
        args.extend(
            case["args"]
                .as_array()
                .unwrap()
                .iter()
                .map(|a| a.as_str().unwrap().to_owned()),
        );
        let cli = Cli::try_parse_from(&args).unwrap();
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let exit = run(cli, &mut out, &mut err).unwrap() as i64;
        let status = case["status"].as_i64().unwrap();
        if exit != status {
            failures.push(format!(
                "{name}: exit {exit}, want {status} ({})",
                case["heat_error"]
            ));
            continue;
        }
        if status == 0 {
            let want = fs::read_to_string(format!("{DIR}/{name}")).unwrap();
            if out != want.as_bytes() {
                failures.push(format!(
                    "{name}: `{}` differs from Heat's answer:\n{}",
                    args[1..].join(" "),
                    String::from_utf8_lossy(&out)
                ));
            }
        } else {
            assert!(out.is_empty(), "{name}: output on a refusal");
            assert!(!err.is_empty(), "{name}: a refusal says why");
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
