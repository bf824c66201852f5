//! `diff`'s interface section: a table (counts first, by severity), a
//! pull-request comment (markdown: counts first, details collapsed, the
//! most severe first), GitHub workflow annotations at the lines, SARIF; and
//! the answer for every deployment of the configuration file.

use std::io::{self, Write};

use serde_json::json;

use super::github::{escape_data, escape_property};
use super::sarif::physical_location;
use super::{write_data, Format, Look};
use crate::diag::Span;
use crate::encode::json;
use crate::product::diff::{Action, Diff};
use crate::product::interface::{Deployments, Finding, Interface, Rule, Severity, Site};

const SEVERITIES: [Severity; 3] = [Severity::Breaking, Severity::Warning, Severity::Info];

fn count(i: &Interface, s: Severity) -> usize {
    match s {
        Severity::Breaking => i.counts.breaking,
        Severity::Warning => i.counts.warning,
        Severity::Info => i.counts.info,
    }
}

/// `2 breaking, 1 warning, 5 info`.
pub(crate) fn counts_line(i: &Interface) -> String {
    let word = |n: usize, s: Severity| match (s, n) {
        (Severity::Warning, 1) => "1 warning".to_owned(),
        (Severity::Warning, n) => format!("{n} warnings"),
        (s, n) => format!("{n} {}", s.as_str()),
    };
    SEVERITIES
        .iter()
        .map(|s| word(count(i, *s), *s))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The table: the counts, then each finding (the most severe first) with
/// where it is on each side.
pub(crate) fn table(out: &mut dyn Write, i: &Interface) -> io::Result<()> {
    writeln!(out, "interface: {}", counts_line(i))?;
    for f in &i.findings {
        writeln!(
            out,
            "{:<8} {} [{}]",
            f.severity.as_str(),
            f.message,
            f.rule.as_str()
        )?;
        let mut at = Vec::new();
        if let Some(s) = &f.before {
            at.push(format!("before {s}"));
        }
        if let Some(s) = &f.after {
            at.push(format!("after {s}"));
        }
        if let Some(s) = f.set_at.as_ref().filter(|s| Some(*s) != f.after.as_ref()) {
            at.push(format!("set at {s}"));
        }
        if !at.is_empty() {
            writeln!(out, "         {}", at.join(", "))?;
        }
    }
    if i.counts.info > 0 && !i.findings.iter().any(|f| f.severity == Severity::Info) {
        writeln!(out, "(info findings not listed: --all lists them)")?;
    }
    Ok(())
}

/// A Markdown table cell: one line, `|` escaped.
fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

fn code(s: Option<&Site>) -> String {
    s.map_or_else(String::new, |s| format!("`{}`", cell(&s.to_string())))
}

/// The resource section's summary in one line.
fn resources_line(d: &Diff) -> String {
    if d.heat_error.is_some() {
        return "resources: Heat refuses the update preview".to_owned();
    }
    let s = &d.summary;
    format!(
        "resources: {} to add, {} to replace, {} to update, {} to delete",
        s.add, s.replace, s.update, s.delete
    )
}

/// One deployment as a pull-request comment section.
fn markdown_one(out: &mut dyn Write, name: Option<&str>, d: &Diff) -> io::Result<()> {
    let i = &d.interface;
    let title = name.map_or_else(String::new, |n| format!(": `{}`", cell(n)));
    writeln!(out, "### heatcap diff{title}")?;
    writeln!(out)?;
    let counts = SEVERITIES
        .iter()
        .map(|s| {
            let n = count(i, *s);
            let text = match (s, n) {
                (Severity::Warning, 1) => "1 warning".to_owned(),
                (Severity::Warning, n) => format!("{n} warnings"),
                (s, n) => format!("{n} {}", s.as_str()),
            };
            if *s == Severity::Breaking && n > 0 {
                format!("**{text}**")
            } else {
                text
            }
        })
        .collect::<Vec<_>>()
        .join(" · ");
    writeln!(out, "{counts} · {}", resources_line(d))?;
    for s in SEVERITIES {
        let listed: Vec<&Finding> = i.findings.iter().filter(|f| f.severity == s).collect();
        if listed.is_empty() {
            continue;
        }
        writeln!(out)?;
        writeln!(
            out,
            "<details><summary>{} ({})</summary>",
            s.as_str(),
            listed.len()
        )?;
        writeln!(out)?;
        writeln!(out, "| rule | what | old side | new side |")?;
        writeln!(out, "| --- | --- | --- | --- |")?;
        for f in listed {
            let new_side = match (&f.after, &f.set_at) {
                (Some(a), Some(e)) if a != e => {
                    format!(
                        "{} (set at `{}`)",
                        code(f.after.as_ref()),
                        cell(&e.to_string())
                    )
                }
                (None, Some(_)) => code(f.set_at.as_ref()),
                _ => code(f.after.as_ref()),
            };
            writeln!(
                out,
                "| `{}` | {} | {} | {} |",
                f.rule.as_str(),
                cell(&f.message),
                code(f.before.as_ref()),
                new_side
            )?;
        }
        writeln!(out)?;
        writeln!(out, "</details>")?;
    }
    let changed = d
        .changes
        .iter()
        .filter(|c| c.action != Action::Unchanged)
        .count();
    if changed > 0 {
        writeln!(out)?;
        writeln!(out, "<details><summary>resources ({changed})</summary>")?;
        writeln!(out)?;
        writeln!(out, "| action | resource | type |")?;
        writeln!(out, "| --- | --- | --- |")?;
        for c in d.changes.iter().filter(|c| c.action != Action::Unchanged) {
            writeln!(
                out,
                "| {} | `{}/{}` | `{}` |",
                c.action.as_str(),
                cell(&c.stack),
                cell(&c.resource),
                cell(&c.type_name)
            )?;
        }
        writeln!(out)?;
        writeln!(out, "</details>")?;
    }
    Ok(())
}

fn command(s: Severity) -> &'static str {
    match s {
        Severity::Breaking => "error",
        Severity::Warning => "warning",
        Severity::Info => "notice",
    }
}

/// One finding as a GitHub workflow command, at the new side's line.
fn annotation(out: &mut dyn Write, f: &Finding) -> io::Result<()> {
    let mut props = Vec::new();
    if let Some(s) = f.site() {
        let file = s.file.strip_prefix("./").unwrap_or(&s.file);
        props.push(format!("file={}", escape_property(file)));
        if s.line > 0 {
            props.push(format!("line={}", s.line));
            if s.column > 0 {
                props.push(format!("col={}", s.column));
            }
        }
    }
    props.push(format!(
        "title={}",
        escape_property(&format!("heatcap diff {}", f.rule.as_str()))
    ));
    let message = match &f.before {
        Some(b) => format!("{} (before: {b})", f.message),
        None => f.message.clone(),
    };
    writeln!(
        out,
        "::{} {}::{}",
        command(f.severity),
        props.join(","),
        escape_data(&message)
    )
}

fn level(s: Severity) -> &'static str {
    match s {
        Severity::Breaking => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

fn span(s: &Site) -> Option<Span> {
    (s.line > 0).then(|| Span::point(s.line, s.column.max(1)))
}

/// Every finding as one SARIF 2.1.0 run: the rules heatcap's interface
/// section has, each finding at its new side's site, the old side's as a
/// related location.
fn sarif(out: &mut dyn Write, findings: &[&Finding]) -> io::Result<()> {
    let mut ids: Vec<Rule> = findings.iter().map(|f| f.rule).collect();
    ids.sort();
    ids.dedup();
    let rules: Vec<serde_json::Value> = ids
        .iter()
        .map(|r| {
            let level = findings
                .iter()
                .filter(|f| f.rule == *r)
                .map(|f| f.severity)
                .min()
                .unwrap_or_default();
            json!({
                "id": r.as_str(),
                "defaultConfiguration": {"level": super::interface::level(level)},
            })
        })
        .collect();
    let results: Vec<serde_json::Value> = findings
        .iter()
        .map(|f| {
            let mut result = json!({
                "ruleId": f.rule.as_str(),
                "ruleIndex": ids.iter().position(|r| *r == f.rule),
                "level": level(f.severity),
                "message": {"text": f.message},
            });
            if let Some(s) = f.site() {
                result["locations"] =
                    json!([{"physicalLocation": physical_location(&s.file, span(s))}]);
            }
            if let Some(b) = f.before.as_ref().filter(|b| Some(*b) != f.site()) {
                result["relatedLocations"] = json!([{
                    "id": 0,
                    "physicalLocation": physical_location(&b.file, span(b)),
                    "message": {"text": "the old side"},
                }]);
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
            "columnKind": "unicodeCodePoints",
        }],
    });
    json::write_line(out, &log)
}

/// The formats only the interface section answers in (`markdown`,
/// `github`, `sarif`), for one diff; `false` for any other format.
pub(crate) fn render_one(out: &mut dyn Write, d: &Diff, format: Format) -> io::Result<bool> {
    match format {
        Format::Markdown => markdown_one(out, None, d)?,
        Format::Github => {
            for f in &d.interface.findings {
                annotation(out, f)?;
            }
        }
        Format::Sarif => sarif(out, &d.interface.findings.iter().collect::<Vec<_>>())?,
        _ => return Ok(false),
    }
    Ok(true)
}

/// Every configured deployment's diff (`diff` with `.heatcap.yaml`'s
/// `deployments`).
pub(crate) fn render_deployments(
    out: &mut dyn Write,
    report: &Deployments,
    format: Format,
    look: Look,
) -> io::Result<()> {
    let all: Vec<(&String, &Diff)> = report
        .deployments
        .iter()
        .map(|d| (&d.name, &d.diff))
        .collect();
    match format {
        Format::Markdown => {
            for (i, (name, d)) in all.iter().copied().enumerate() {
                if i > 0 {
                    writeln!(out)?;
                }
                markdown_one(out, Some(name), d)?;
            }
            Ok(())
        }
        Format::Github => {
            for (_, d) in &all {
                for f in &d.interface.findings {
                    annotation(out, f)?;
                }
            }
            Ok(())
        }
        Format::Sarif => sarif(
            out,
            &all.iter()
                .flat_map(|(_, d)| &d.interface.findings)
                .collect::<Vec<_>>(),
        ),
        Format::Json => json::write_line(out, report),
        Format::Yaml => {
            let v = serde_json::to_value(report).map_err(io::Error::other)?;
            write_data(out, &v, format)
        }
        _ => {
            for (i, (name, d)) in all.iter().copied().enumerate() {
                if i > 0 {
                    writeln!(out)?;
                }
                writeln!(out, "deployment {name}:")?;
                super::render_diff(out, d, Format::Table, look)?;
            }
            Ok(())
        }
    }
}
