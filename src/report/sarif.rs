//! SARIF 2.1.0 output for `validate`, so code-scanning services can show
//! findings inline. ONAP requirement IDs ride in `properties.requirements`
//! of rules and results (SARIF's property bags).

use std::io::{self, Write};

use serde_json::json;

use crate::diag::{CodeInfo, Diagnostic, Severity};

fn level(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

/// One SARIF log with one run: every code of the catalogue as a rule, with
/// its full entry (what it checks, why, an example, the source), and every
/// finding with its location.
pub(crate) fn write(
    out: &mut dyn Write,
    findings: &[Diagnostic],
    catalogue: &[&CodeInfo],
) -> io::Result<()> {
    let metas = catalogue;
    let mut rules: Vec<serde_json::Value> = metas
        .iter()
        .map(|m| {
            let mut properties = json!({"source": m.source});
            let requirements = m.requirements();
            if !requirements.is_empty() {
                properties["requirements"] = json!(requirements);
            }
            json!({
                "id": m.code.0,
                "name": m.name,
                "shortDescription": {"text": m.summary},
                "fullDescription": {"text": m.what},
                "help": {
                    "text": format!("{} Why: {} Example: {}", m.what, m.why, m.example),
                    "markdown": format!("{}\n\n**Why:** {}\n\n**Example:** {}", m.what, m.why, m.example),
                },
                "defaultConfiguration": {"level": level(m.severity())},
                "properties": properties,
            })
        })
        .collect();
    let mut ids: Vec<&str> = metas.iter().map(|m| m.code.0).collect();
    for d in findings {
        if !ids.contains(&d.code.0) {
            ids.push(d.code.0);
            rules.push(
                json!({"id": d.code.0, "defaultConfiguration": {"level": level(d.severity)}}),
            );
        }
    }
    let results: Vec<serde_json::Value> = findings
        .iter()
        .map(|d| {
            let mut region = serde_json::Map::new();
            if let Some(s) = d.span {
                region.insert("startLine".into(), json!(s.start.line));
                region.insert("startColumn".into(), json!(s.start.column));
            }
            let mut location =
                json!({"artifactLocation": {"uri": crate::walk::uri_path(d.file.trim_start_matches("./"))}});
            if !region.is_empty() {
                location["region"] = serde_json::Value::Object(region);
            }
            let mut result = json!({
                "ruleId": d.code.0,
                "ruleIndex": ids.iter().position(|i| *i == d.code.0),
                "level": level(d.severity),
                "message": {"text": d.message},
                "locations": [{"physicalLocation": location}],
            });
            if !d.requirements.is_empty() {
                result["properties"] = json!({"requirements": d.requirements});
            }
            result
        })
        .collect();
    let log = json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "heatcap", "version": env!("CARGO_PKG_VERSION"), "rules": rules}},
            "results": results,
        }],
    });
    super::json::write_line(out, &log)
}
