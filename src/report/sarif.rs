//! SARIF 2.1.0 output for `validate`, so code-scanning services can show
//! findings inline. ONAP requirement IDs ride in `properties.requirements`
//! of rules and results (SARIF's property bags).
//!
//! Rules carry no `helpUri`: SARIF requires an absolute URI there, and
//! heatcap has no public address for docs/rules.md (Cargo.toml names no
//! `repository`); each rule's `help` holds its whole catalogue entry instead.

use std::io::{self, Write};

use serde_json::json;

use crate::diag::{CodeInfo, Diagnostic, Severity, Span};

fn level(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

/// A file, and the region of it when known. SARIF's regions, like
/// heatcap's spans, end before `endLine:endColumn`; a span that is a point
/// (the start only) has no end.
pub(crate) fn physical_location(file: &str, span: Option<Span>) -> serde_json::Value {
    let artifact = if file == crate::walk::STDIN {
        // Standard input has no URI.
        json!({"description": {"text": "standard input"}})
    } else {
        json!({"uri": crate::walk::uri_path(file.trim_start_matches("./"))})
    };
    let mut location = json!({ "artifactLocation": artifact });
    if let Some(s) = span.filter(|s| s.start.line > 0) {
        let mut region = serde_json::Map::new();
        region.insert("startLine".into(), json!(s.start.line));
        if s.start.column > 0 {
            region.insert("startColumn".into(), json!(s.start.column));
        }
        if s.end > s.start && s.end.column > 0 {
            region.insert("endLine".into(), json!(s.end.line));
            region.insert("endColumn".into(), json!(s.end.column));
        }
        location["region"] = serde_json::Value::Object(region);
    }
    location
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
            let mut result = json!({
                "ruleId": d.code.0,
                "ruleIndex": ids.iter().position(|i| *i == d.code.0),
                "level": level(d.severity),
                "message": {"text": d.message},
                "locations": [{"physicalLocation": physical_location(&d.file, d.span)}],
            });
            if !d.related.is_empty() {
                result["relatedLocations"] = d
                    .related
                    .iter()
                    .enumerate()
                    .map(|(i, r)| {
                        json!({
                            "id": i,
                            "physicalLocation": physical_location(&r.file, r.span),
                            "message": {"text": r.message},
                        })
                    })
                    .collect();
            }
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
            // heatcap's columns count characters (Unicode code points).
            "columnKind": "unicodeCodePoints",
        }],
    });
    super::json::write_line(out, &log)
}
