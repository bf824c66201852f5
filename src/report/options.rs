//! Renderer for `options`.

use std::fmt::Write as _;
use std::io::{self, Write};

use super::{json, table, wrap, write_data, Format, Look, KEEP, WRAP};
use crate::product::options::OptionsReport;
use crate::resolve::Candidate;

fn caps(c: &Candidate) -> String {
    c.capabilities.as_ref().map_or_else(
        || "-".to_owned(),
        |m| {
            m.iter()
                .filter(|(k, _)| k.as_str() != "resource_type")
                .map(|(k, v)| format!("{k}={}", json_text(&v.to_json())))
                .collect::<Vec<_>>()
                .join(", ")
        },
    )
}

fn json_text(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::String(s) => s.clone(),
        other => json::to_string(other),
    }
}

fn status(c: &Candidate, chosen: Option<&str>, mapped: bool) -> &'static str {
    if chosen == Some(c.name.as_str()) {
        if mapped {
            "mapped"
        } else {
            "chosen"
        }
    } else if c.unlisted {
        "not listed"
    } else if c.problem.is_some() {
        "missing"
    } else if c.excluded {
        "excluded"
    } else if c.matches {
        "matches"
    } else {
        ""
    }
}

fn selector(c: &Candidate) -> String {
    match &c.selected_by {
        None => "-".to_owned(),
        Some(m) if m.is_empty() => "(any)".to_owned(),
        Some(m) => m
            .iter()
            .map(|(k, v)| format!("{k}: {}", json_text(v)))
            .collect::<Vec<_>>()
            .join(", "),
    }
}

/// The conflicts of every choice, as a second table (none: nothing
/// printed); their number.
fn conflicts_table(out: &mut dyn Write, report: &OptionsReport, look: Look) -> io::Result<usize> {
    let conflicts: usize = report.choices.iter().map(|c| c.conflicts.len()).sum();
    if conflicts == 0 {
        return Ok(0);
    }
    // A catalogue was read (`options` on a TripleO tree): whether it
    // declares each pair mutually exclusive.
    let catalogued = report
        .choices
        .iter()
        .flat_map(|c| &c.conflicts)
        .any(|c| c.mutually_exclusive.is_some());
    let mut columns = vec![
        ("Type", WRAP),
        ("Environments (the later wins)", WRAP),
        ("Maps it to", WRAP),
        ("Order", KEEP),
    ];
    if catalogued {
        columns.push(("Exclusive in catalogue", KEEP));
    }
    let mut t = table(look, &columns);
    for ch in &report.choices {
        for (i, c) in ch.conflicts.iter().enumerate() {
            let mut row = vec![
                if i == 0 {
                    ch.type_name.clone()
                } else {
                    String::new()
                },
                c.environments.join("\n"),
                c.targets.join("\n"),
                c.order.to_owned(),
            ];
            if catalogued {
                row.push(
                    match c.mutually_exclusive {
                        Some(true) => "yes",
                        Some(false) => "no",
                        None => "-",
                    }
                    .to_owned(),
                );
            }
            t.add_row(row);
        }
    }
    writeln!(out, "{t}")?;
    Ok(conflicts)
}

/// `options`: one table row per candidate, grouped by choice.
pub(crate) fn render_options(
    out: &mut dyn Write,
    report: &OptionsReport,
    format: Format,
    look: Look,
) -> io::Result<()> {
    match format {
        Format::Plain => {
            for ch in &report.choices {
                let res = ch
                    .resource
                    .as_deref()
                    .map(|n| format!(" [{n}]"))
                    .unwrap_or_default();
                let chosen = ch.selection.chosen.as_deref();
                for c in &ch.selection.candidates {
                    let path = c.path.as_deref().unwrap_or(&c.name);
                    writeln!(
                        out,
                        "{}{res}\t{path}\t{}\t{}",
                        ch.type_name,
                        status(c, chosen, ch.mapped_to.is_some()),
                        selector(c)
                    )?;
                }
            }
            Ok(())
        }
        Format::Table => {
            // The environments column only when some environment maps a
            // candidate (the choices a tree offers, issue 17.2).
            let mapped = report
                .choices
                .iter()
                .flat_map(|c| &c.selection.candidates)
                .any(|c| !c.mapped_by.is_empty());
            let mut columns = vec![
                ("Type", WRAP),
                ("Candidate", WRAP),
                ("Capabilities", WRAP),
                ("Now", KEEP),
                ("Select with", WRAP),
            ];
            if mapped {
                columns.push(("Mapped by", WRAP));
            }
            let mut t = table(look, &columns);
            for ch in &report.choices {
                let mut label = ch.type_name.clone();
                if let Some(r) = &ch.resource {
                    let _ = write!(label, "\n[{r}]");
                }
                if let Some(p) = ch.problem {
                    let _ = write!(label, "\n({p})");
                }
                let chosen = ch.selection.chosen.as_deref();
                for (i, c) in ch.selection.candidates.iter().enumerate() {
                    let mut row = vec![
                        if i == 0 { label.clone() } else { String::new() },
                        c.path.clone().unwrap_or_else(|| c.name.clone()),
                        caps(c),
                        status(c, chosen, ch.mapped_to.is_some()).to_owned(),
                        selector(c),
                    ];
                    if mapped {
                        let sites: Vec<String> =
                            c.mapped_by.iter().map(ToString::to_string).collect();
                        row.push(if sites.is_empty() {
                            "-".to_owned()
                        } else {
                            sites.join("\n")
                        });
                    }
                    t.add_row(row);
                }
            }
            writeln!(out, "{t}")?;
            let conflicts = conflicts_table(out, report, look)?;
            let undecided = report
                .choices
                .iter()
                .filter(|c| c.problem.is_some())
                .count();
            let n = report.choices.len();
            let noun = if n == 1 { "choice" } else { "choices" };
            let mut line = format!("{n} {noun}, {undecided} undecided by the current requires");
            if conflicts > 0 {
                let _ = write!(
                    line,
                    ", {}",
                    super::counted(
                        conflicts,
                        "conflicting pair of environments",
                        "conflicting pairs of environments"
                    )
                );
            }
            writeln!(out, "{}", wrap(&line, look.width))
        }
        Format::Jsonl => super::write_lines(out, &report.choices),
        _ => {
            let v = serde_json::to_value(report).map_err(io::Error::other)?;
            write_data(out, &v, format)
        }
    }
}
