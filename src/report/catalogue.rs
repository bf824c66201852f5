//! Renderer for `catalogue`.

use std::io::{self, Write};

use super::{counted, table, wrap, write_data, Format, Look, KEEP, WRAP};
use crate::product::catalogue::{CapabilitiesEnvironment, CatalogueReport, DriftKind};

fn text(v: Option<&serde_json::Value>) -> String {
    match v {
        Some(serde_json::Value::String(s)) => s.trim_end().to_owned(),
        Some(serde_json::Value::Null) | None => String::new(),
        Some(other) => super::json::to_string(other),
    }
}

fn drift(k: Option<DriftKind>) -> &'static str {
    match k {
        None => "",
        Some(DriftKind::Missing) => "missing",
        Some(DriftKind::SourceOnly) => "source-only",
        Some(DriftKind::NotEnvironment) => "not-environment",
    }
}

/// Every environment with its topic key and group title, in order.
fn rows(r: &CatalogueReport) -> Vec<(&str, String, &CapabilitiesEnvironment)> {
    r.capabilities
        .iter()
        .flat_map(|(t, topic)| {
            topic.environment_groups.iter().flat_map(move |g| {
                let title = text(g.written.get("title"));
                g.environments
                    .iter()
                    .map(move |e| (t.as_str(), title.clone(), e))
            })
        })
        .collect()
}

/// `catalogue`: a row per environment (topic, group, file, title,
/// enabled, drift), then the enabled ones in order.
pub(crate) fn render_catalogue(
    out: &mut dyn Write,
    r: &CatalogueReport,
    format: Format,
    look: Look,
) -> io::Result<()> {
    match format {
        Format::Plain => {
            for (topic, _, e) in rows(r) {
                let mut flags: Vec<&str> = Vec::new();
                if e.enabled {
                    flags.push("enabled");
                }
                if e.drift.is_some() {
                    flags.push(drift(e.drift));
                }
                writeln!(
                    out,
                    "{}\t{topic}\t{}",
                    text(e.written.get("file")),
                    if flags.is_empty() {
                        "-".to_owned()
                    } else {
                        flags.join(",")
                    }
                )?;
            }
            Ok(())
        }
        Format::Table => render_table(out, r, look),
        Format::Jsonl => super::write_lines(out, r.records()),
        _ => {
            let v = serde_json::to_value(r).map_err(io::Error::other)?;
            write_data(out, &v, format)
        }
    }
}

/// `catalogue --format table`.
fn render_table(out: &mut dyn Write, r: &CatalogueReport, look: Look) -> io::Result<()> {
    let mut t = table(
        look,
        &[
            ("Topic", WRAP),
            ("Group", WRAP),
            ("File", WRAP),
            ("Title", WRAP),
            ("Enabled", KEEP),
            ("Drift", KEEP),
        ],
    );
    let mut last = ("", String::new());
    for (topic, group, e) in rows(r) {
        let same_topic = last.0 == topic;
        let same_group = same_topic && last.1 == group && topic != "Other";
        t.add_row(vec![
            if same_topic {
                String::new()
            } else {
                topic.to_owned()
            },
            if same_group || topic == "Other" {
                String::new()
            } else {
                group.clone()
            },
            text(e.written.get("file")),
            if topic == "Other" {
                String::new()
            } else {
                text(e.written.get("title"))
            },
            if e.enabled {
                "yes".to_owned()
            } else {
                String::new()
            },
            drift(e.drift).to_owned(),
        ]);
        last = (topic, group);
    }
    writeln!(out, "{t}")?;
    let listed = rows(r).iter().filter(|(t, _, _)| *t != "Other").count();
    let other = r
        .capabilities
        .get("Other")
        .map_or(0, |t| t.environment_groups.len());
    let line = format!(
        "{} in the map ({} drifted), {} of the tree in no topic",
        counted(listed, "environment", "environments"),
        r.drift.iter().filter(|d| d.required_by.is_none()).count(),
        other
    );
    writeln!(out, "{}", wrap(&line, look.width))?;
    if !r.order.is_empty() {
        let line = format!("order: {}", r.order.join(", "));
        writeln!(out, "{}", wrap(&line, look.width))?;
    }
    Ok(())
}
