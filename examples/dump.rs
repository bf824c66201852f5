//! Prints each file's loaded tree as one JSON line (`{"path", "value"}` or
//! `{"path", "error"}`), for comparing heatcap's loader with PyYAML
//! (tools/pyyaml_diff.py). With `--second-stage` first, the tree of Heat's
//! second YAML stage alone (the port of PyYAML's pure-Python SafeLoader),
//! whatever libyaml makes of the file. Not part of the product.

use std::io::Write;

use heatcap::{parse_text, ParseOptions};

fn main() {
    let out = std::io::stdout();
    let mut out = out.lock();
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let second = args.first().is_some_and(|a| a == "--second-stage");
    if second {
        args.remove(0);
    }
    for path in args {
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) => {
                let _ = writeln!(
                    out,
                    "{}",
                    serde_json::json!({"path": path, "error": e.to_string()})
                );
                continue;
            }
        };
        if second {
            let line = match heatcap::second_stage_tree(&text) {
                Ok(v) => serde_json::json!({"path": path, "value": v}),
                Err(e) => serde_json::json!({"path": path, "error": e}),
            };
            let _ = writeln!(out, "{line}");
            continue;
        }
        let parsed = parse_text(&text, &path, &ParseOptions::default());
        let line = match parsed.root {
            Some(root) => serde_json::json!({"path": path, "value": root.value.to_json()}),
            None => serde_json::json!({"path": path, "error": parsed.diagnostics[0].to_string()}),
        };
        let _ = writeln!(out, "{line}");
    }
}
