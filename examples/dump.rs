//! Prints each file's loaded tree as one JSON line (`{"path", "value"}` or
//! `{"path", "error"}`), for comparing heatcap's loader with PyYAML
//! (tools/pyyaml_diff.py). Not part of the product.

use std::io::Write;

use heatcap::{parse_text, ParseOptions};

fn main() {
    let out = std::io::stdout();
    let mut out = out.lock();
    for path in std::env::args().skip(1) {
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
        let parsed = parse_text(&text, &path, &ParseOptions::default());
        let line = match parsed.root {
            Some(root) => serde_json::json!({"path": path, "value": root.value.to_json()}),
            None => serde_json::json!({"path": path, "error": parsed.diagnostics[0].to_string()}),
        };
        let _ = writeln!(out, "{line}");
    }
}
