//! Renderer for `resolve`.

use std::io::{self, Write};

use super::{table, wrap, write_data, Format, Look, WRAP};
use crate::resolve::{Implementation, Resolution, ResolveReport, Step, StepKind};

fn implementation(r: &Resolution) -> String {
    match (&r.implementation, &r.error) {
        (_, Some(e)) => format!("error: {}", r.message().unwrap_or_else(|| e.message())),
        (Some(Implementation::Template(p)), None) => p.clone(),
        (Some(Implementation::Plugin(p)), None) => format!("{p} (Heat)"),
        (None, None) => "-".to_owned(),
    }
}

fn at(step: &Step) -> String {
    let env = step.environment.as_deref().unwrap_or("Heat");
    match step.span {
        Some(s) => format!("{env}:{}", s.start.line),
        None => env.to_owned(),
    }
}

/// How a candidate list was decided, in a few words.
fn selection(step: &Step) -> String {
    let Some(sel) = &step.selection else {
        return String::new();
    };
    let req: Vec<String> = sel
        .relevant
        .iter()
        .map(|(k, v)| format!("{k}={}", v.join("|")))
        .collect();
    let by = if req.is_empty() {
        "elimination".to_owned()
    } else {
        req.join(", ")
    };
    match &sel.chosen {
        Some(c) => format!(" chose {c} of {} by {by}", sel.candidates.len()),
        None => format!(" could not choose among {} by {by}", sel.candidates.len()),
    }
}

/// The chain in one line: which entries decided, in order.
fn chain(r: &Resolution) -> String {
    r.chain
        .iter()
        .map(|s| match s.kind {
            StepKind::PerResource => format!(
                "resources/{}/{} ({}){}",
                r.resource.as_deref().unwrap_or(""),
                s.key,
                at(s),
                selection(s)
            ),
            StepKind::Entry => format!("{} ({}){}", s.key, at(s), selection(s)),
            StepKind::Glob => format!("glob {} ({})", s.key, at(s)),
            StepKind::Path => "template path".to_owned(),
            StepKind::Plugin => "Heat plugin".to_owned(),
            StepKind::GlobalEntry => format!("Heat default {}", s.key),
            StepKind::FellThrough => format!("fell through {}", s.key),
            StepKind::Removed => format!("{} ({}) removed in this nested stack", s.key, at(s)),
            StepKind::Chosen => "chosen with --choose".to_owned(),
        })
        .collect::<Vec<_>>()
        .join(" → ")
}

/// A plain use of a Heat type, not mapped by any environment.
fn is_plain_plugin(r: &Resolution) -> bool {
    r.error.is_none() && matches!(r.chain.as_slice(), [s] if s.kind == StepKind::Plugin)
}

/// `resolve`: table (default), plain lines, or the whole report as JSON/YAML.
/// Tables and plain lines leave out types Heat provides and no environment
/// maps, unless `all`; JSON and YAML always carry every lookup.
pub(crate) fn render_resolve(
    out: &mut dyn Write,
    report: &ResolveReport,
    format: Format,
    all: bool,
    look: Look,
) -> io::Result<()> {
    let shown = || {
        report
            .resolutions
            .iter()
            .filter(move |r| all || !is_plain_plugin(r))
    };
    match format {
        Format::Plain => {
            for r in shown() {
                let res = r
                    .resource
                    .as_deref()
                    .map(|n| format!(" [{n}]"))
                    .unwrap_or_default();
                writeln!(out, "{}{res} -> {}", r.type_name, implementation(r))?;
            }
            Ok(())
        }
        Format::Table => {
            let mut t = table(
                look,
                &[
                    ("Type", WRAP),
                    ("Resource", WRAP),
                    ("Implementation", WRAP),
                    ("Decided by", WRAP),
                ],
            );
            for r in shown() {
                t.add_row(vec![
                    r.type_name.clone(),
                    r.resource.clone().unwrap_or_default(),
                    implementation(r),
                    chain(r),
                ]);
            }
            if shown().next().is_some() {
                writeln!(out, "{t}")?;
            }
            let unresolved = report
                .resolutions
                .iter()
                .filter(|r| !r.is_resolved())
                .count();
            let hidden = report.resolutions.len() - shown().count();
            let note = if hidden > 0 {
                format!(" ({hidden} plain Heat types not shown; --all shows them)")
            } else {
                String::new()
            };
            let line = format!(
                "{} lookups, {unresolved} unresolved{note}",
                report.resolutions.len()
            );
            writeln!(out, "{}", wrap(&line, look.width))
        }
        // Every lookup, as JSON has them.
        Format::Jsonl => super::write_lines(out, &report.resolutions),
        _ => {
            let v = serde_json::to_value(report).map_err(io::Error::other)?;
            write_data(out, &v, format)
        }
    }
}
