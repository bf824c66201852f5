//! Renderers for `capabilities-find`, `template-capabilities` and `index`.

use std::io::{self, Write};

use indexmap::IndexMap;

use super::{json, table, wrap, write_data, Format, Look, KEEP, WRAP};
use crate::index::Inferred;
use crate::model::capability::CapValue;
use crate::model::Content;
use crate::query::{IndexDocument, Match, TypeImplementation};

fn cap_text(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::String(s) => s.clone(),
        other => json::to_string(other),
    }
}

fn caps_inline(caps: &IndexMap<String, CapValue>) -> String {
    caps.iter()
        .map(|(k, v)| match v.to_json() {
            serde_json::Value::Array(items) => {
                format!(
                    "{k}=[{}]",
                    items.iter().map(cap_text).collect::<Vec<_>>().join(", ")
                )
            }
            other => format!("{k}={}", cap_text(&other)),
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// Types implemented by inference, each with where it came from:
/// `resource_type=T (inferred from env.yaml:12, other.yaml:3)`.
fn inferred_inline(inferred: &Inferred) -> String {
    inferred
        .iter()
        .map(|(ty, sites)| {
            let from: Vec<String> = sites.iter().map(ToString::to_string).collect();
            format!("resource_type={ty} (inferred from {})", from.join(", "))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// One implementation with its origin, for tables: `path (declared)`,
/// `path (inferred from env.yaml:12)`.
fn implementation_text(i: &TypeImplementation) -> String {
    let mut from: Vec<String> = Vec::new();
    if i.declared {
        from.push("declared".to_owned());
    }
    if !i.inferred_from.is_empty() {
        let sites: Vec<String> = i.inferred_from.iter().map(ToString::to_string).collect();
        from.push(format!("inferred from {}", sites.join(", ")));
    }
    format!("{} ({})", i.template, from.join("; "))
}

/// `capabilities-find`: plain prints one path per line.
pub(crate) fn render_find(
    out: &mut dyn Write,
    matches: &[Match<'_>],
    format: Format,
    look: Look,
) -> io::Result<()> {
    match format {
        Format::Plain => {
            for m in matches {
                writeln!(out, "{}", m.path)?;
            }
            Ok(())
        }
        Format::Table => {
            let mut t = table(look, &[("Template", WRAP), ("Capabilities", WRAP)]);
            for m in matches {
                let mut caps = caps_inline(m.capabilities);
                let inferred = inferred_inline(&m.inferred);
                if !inferred.is_empty() {
                    if !caps.is_empty() {
                        caps.push('\n');
                    }
                    caps.push_str(&inferred);
                }
                t.add_row(vec![m.path.to_owned(), caps]);
            }
            writeln!(out, "{t}")
        }
        Format::Jsonl => super::write_lines(out, matches),
        _ => {
            let v = serde_json::to_value(matches).map_err(io::Error::other)?;
            write_data(out, &v, format)
        }
    }
}

/// `template-capabilities`: JSON is the map of capabilities.md §3.
pub(crate) fn render_summary(
    out: &mut dyn Write,
    summary: &IndexMap<String, Vec<serde_json::Value>>,
    format: Format,
    look: Look,
) -> io::Result<()> {
    if format == Format::Jsonl {
        return super::write_lines(
            out,
            summary.iter().map(|(k, vs)| CapabilityRecord {
                capability: k,
                values: vs,
            }),
        );
    }
    let rows = summary
        .iter()
        .map(|(k, vs)| (k.clone(), vs.iter().map(cap_text).collect::<Vec<_>>()));
    render_map(out, rows, ["Capability", "Values"], format, look, || {
        serde_json::to_value(summary).map_err(io::Error::other)
    })
}

/// `template-capabilities --format jsonl`: one capability key a line.
#[derive(Debug, serde::Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub(crate) struct CapabilityRecord<'a> {
    /// The capability key.
    pub capability: &'a str,
    /// Every value offered, first-seen order, each once.
    pub values: &'a [serde_json::Value],
}

/// `template-capabilities --by-type --format jsonl`: one resource type a line.
#[derive(Debug, serde::Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub(crate) struct TypeRecord<'a> {
    /// The resource type.
    #[serde(rename = "type")]
    pub type_name: &'a str,
    /// The templates whose `capabilities.resource_type` names it, or that
    /// an environment maps it to.
    pub templates: Vec<&'a str>,
    /// The same templates, each with where it came from.
    pub implementations: &'a [TypeImplementation],
}

/// `template-capabilities --by-type`: JSON and YAML are capabilities.md
/// §3's map (type → templates); `jsonl` and `table` also say where each
/// template came from.
pub(crate) fn render_by_type(
    out: &mut dyn Write,
    by_type: &IndexMap<String, Vec<TypeImplementation>>,
    format: Format,
    look: Look,
) -> io::Result<()> {
    let paths = |vs: &[TypeImplementation]| -> Vec<String> {
        vs.iter().map(|i| i.template.clone()).collect()
    };
    if format == Format::Jsonl {
        return super::write_lines(
            out,
            by_type.iter().map(|(k, vs)| TypeRecord {
                type_name: k,
                templates: vs.iter().map(|i| i.template.as_str()).collect(),
                implementations: vs,
            }),
        );
    }
    if format == Format::Table {
        let rows = by_type
            .iter()
            .map(|(k, vs)| (k.clone(), vs.iter().map(implementation_text).collect()));
        return render_map(
            out,
            rows,
            ["Resource type", "Templates"],
            format,
            look,
            || unreachable!("tables are not data"),
        );
    }
    let rows = by_type.iter().map(|(k, vs)| (k.clone(), paths(vs)));
    render_map(
        out,
        rows,
        ["Resource type", "Templates"],
        format,
        look,
        || {
            let map: IndexMap<&str, Vec<String>> = by_type
                .iter()
                .map(|(k, vs)| (k.as_str(), paths(vs)))
                .collect();
            serde_json::to_value(map).map_err(io::Error::other)
        },
    )
}

fn render_map(
    out: &mut dyn Write,
    rows: impl Iterator<Item = (String, Vec<String>)>,
    header: [&str; 2],
    format: Format,
    look: Look,
    data: impl FnOnce() -> io::Result<serde_json::Value>,
) -> io::Result<()> {
    match format {
        Format::Plain => {
            for (k, vs) in rows {
                writeln!(out, "{k}: {}", vs.join(", "))?;
            }
            Ok(())
        }
        Format::Table => {
            let mut t = table(look, &[(header[0], WRAP), (header[1], WRAP)]);
            for (k, vs) in rows {
                t.add_row(vec![k, vs.join("\n")]);
            }
            writeln!(out, "{t}")
        }
        _ => write_data(out, &data()?, format),
    }
}

/// `index`: JSON/YAML carry everything; plain and table one line per file.
pub(crate) fn render_index(
    out: &mut dyn Write,
    doc: &IndexDocument<'_>,
    format: Format,
    look: Look,
) -> io::Result<()> {
    let kind = |f: &crate::query::FileEntry<'_>| f.kind.map_or("-", |k| k.as_str());
    let detail = |f: &crate::query::FileEntry<'_>| match f.content {
        Content::Template(t) => {
            let mut d = t.capabilities.as_ref().map(caps_inline).unwrap_or_default();
            if let Some(inferred) = f.inferred_resource_type {
                if !d.is_empty() {
                    d.push('\n');
                }
                d.push_str(&inferred_inline(inferred));
            }
            d
        }
        Content::Environment(e) => {
            let entries = e.entries.len();
            let plural = |n: usize, one: &str, many: &str| {
                format!("{n} {}", if n == 1 { one } else { many })
            };
            format!(
                "{}, {}",
                plural(entries, "registry entry", "registry entries"),
                plural(e.requires.len(), "requirement", "requirements")
            )
        }
        Content::None => f
            .diagnostics
            .iter()
            .find(|d| d.severity == crate::diag::Severity::Error)
            .map_or_else(
                || f.reason.unwrap_or_default().to_owned(),
                |d| d.message.clone(),
            ),
    };
    let status = |f: &crate::query::FileEntry<'_>| {
        serde_json::to_value(f.status)
            .ok()
            .and_then(|v| v.as_str().map(str::to_owned))
            .unwrap_or_default()
    };
    match format {
        Format::Plain => {
            for f in &doc.files {
                writeln!(out, "{}\t{}\t{}", status(f), kind(f), f.path)?;
            }
            Ok(())
        }
        Format::Table => {
            let mut t = table(
                look,
                &[
                    ("Path", WRAP),
                    ("Status", KEEP),
                    ("Kind", KEEP),
                    ("Details", WRAP),
                ],
            );
            for f in &doc.files {
                t.add_row(vec![
                    f.path.to_owned(),
                    status(f),
                    kind(f).to_owned(),
                    detail(f),
                ]);
            }
            writeln!(out, "{t}")?;
            let s = &doc.summary;
            let line = format!(
                "{}: {}, {}, {} other, {} skipped, {}",
                super::counted(s.files, "file", "files"),
                super::counted(s.templates, "template", "templates"),
                super::counted(s.environments, "environment", "environments"),
                s.other,
                s.skipped,
                super::counted(s.errors, "error", "errors")
            );
            writeln!(out, "{}", wrap(&line, look.width))
        }
        // One file entry a line (walk diagnostics go to stderr only).
        Format::Jsonl => json::write_record_lines(out, &doc.files),
        // JSON streams straight from the structs: no intermediate tree.
        Format::Yaml => {
            let v = serde_json::to_value(doc).map_err(io::Error::other)?;
            write_data(out, &v, format)
        }
        _ => write_index_json(out, doc),
    }
}

/// The index document as [`json::write_line`] writes it, byte for byte,
/// with the file entries rendered in parallel (on one thread, the JSON of
/// 30,000 files was a twentieth of `index`'s time).
fn write_index_json(out: &mut dyn Write, doc: &IndexDocument<'_>) -> io::Result<()> {
    // [`IndexDocument`]'s fields, in its order.
    let mut o = json::Object::new(out);
    o.field("heatcap_index", &doc.heatcap_index)?;
    o.field("summary", &doc.summary)?;
    o.records("files", &doc.files)?;
    o.field("walk_diagnostics", doc.walk_diagnostics)?;
    o.end()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The index's JSON with its files rendered in parallel is the
    /// document as serde writes it, byte for byte, on trees of every kind
    /// of file (templates, environments, broken and other files).
    #[test]
    fn the_parallel_index_json_is_the_documents() {
        let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
        for tree in [
            "spec",
            "overcloud",
            "hostile",
            "tripleo-heat-templates-2016",
        ] {
            let ws = crate::Workspace::builder()
                .walk(crate::WalkOptions::new(vec![fixtures.join(tree)]).recursive())
                .open();
            let doc = ws.index();
            assert!(!doc.files.is_empty(), "{tree}");
            let (mut whole, mut parallel) = (Vec::new(), Vec::new());
            json::write_line(&mut whole, &doc).unwrap();
            write_index_json(&mut parallel, &doc).unwrap();
            assert_eq!(
                String::from_utf8(parallel).unwrap(),
                String::from_utf8(whole).unwrap(),
                "{tree}"
            );
        }
    }
}
