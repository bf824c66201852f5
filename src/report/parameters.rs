//! Renderer for `parameters`.

use std::io::{self, Write};

use super::{json, table, wrap, write_data, Format, Look, KEEP, NARROW, VALUE, WRAP};
use crate::product::feeds::{ConstraintBounds, PropertyConstraint};
use crate::product::parameters::{ChoiceDiff, ParameterInfo, ParametersReport, Source};

fn source(s: Source) -> &'static str {
    match s {
        Source::Parameters => "parameters",
        Source::Property => "parent property",
        Source::ParameterDefaults => "parameter_defaults",
        Source::Default => "default",
    }
}

fn value_text(p: &ParameterInfo) -> String {
    let mut parts: Vec<String> = Vec::new();
    for v in &p.values {
        let shown = if p.hidden {
            "******".to_owned()
        } else {
            match &v.value {
                serde_json::Value::String(s) => s.clone(),
                other => json::to_string(other),
            }
        };
        let part = format!(
            "{shown} ({}, {}:{})",
            source(v.source),
            v.file,
            v.span.start.line
        );
        if !parts.contains(&part) {
            parts.push(part);
        }
    }
    parts.join("\n")
}

/// The type, then a line `→ CONSTRAINT` for each distinct constraint of
/// the properties it lands in (`→ nova.flavor`, `→ 1..512`).
fn type_text(p: &ParameterInfo) -> String {
    let mut lines = vec![p.type_name.clone().unwrap_or_default()];
    for c in p.feeds.iter().flat_map(|f| &f.constraints) {
        let line = format!("→ {}", constraint_text(c));
        if !lines.contains(&line) {
            lines.push(line);
        }
    }
    lines.join("\n")
}

/// A constraint in a few characters.
fn constraint_text(c: &PropertyConstraint) -> String {
    let bounds = |b: &ConstraintBounds| {
        let side = |n: &Option<serde_json::Number>| n.as_ref().map(ToString::to_string);
        format!(
            "{}..{}",
            side(&b.min).unwrap_or_default(),
            side(&b.max).unwrap_or_default()
        )
    };
    match c {
        PropertyConstraint::Custom {
            custom_constraint, ..
        } => custom_constraint.clone(),
        PropertyConstraint::Range { range, .. } => bounds(range),
        PropertyConstraint::Length { length, .. } => format!("length {}", bounds(length)),
        PropertyConstraint::AllowedValues { allowed_values, .. } => {
            let listed: Vec<String> = allowed_values
                .iter()
                .map(|v| match v {
                    serde_json::Value::String(s) => s.clone(),
                    other => json::to_string(other),
                })
                .collect();
            let text = listed.join("|");
            if text.chars().count() <= 20 {
                text
            } else {
                format!("one of {} values", listed.len())
            }
        }
        PropertyConstraint::Modulo { modulo, .. } => {
            format!("modulo {} offset {}", modulo.step, modulo.offset)
        }
        PropertyConstraint::AllowedPattern {
            allowed_pattern, ..
        } => format!("pattern {allowed_pattern}"),
    }
}

/// `parameters`: one row per parameter name; JSON/YAML carry the tree too.
pub(crate) fn render_parameters(
    out: &mut dyn Write,
    report: &ParametersReport,
    format: Format,
    look: Look,
) -> io::Result<()> {
    match format {
        Format::Plain => {
            for (name, p) in &report.parameters {
                let state = if p.required_in.is_empty() {
                    "supplied"
                } else {
                    "required"
                };
                writeln!(out, "{name}\t{state}\t{}", p.declared_by.join(","))?;
            }
            Ok(())
        }
        Format::Table => {
            let mut t = table(
                look,
                &[
                    ("Parameter", WRAP),
                    ("Type", NARROW),
                    ("Required in", WRAP),
                    ("Value (source)", VALUE),
                    ("Declared by", WRAP),
                ],
            );
            for (name, p) in &report.parameters {
                t.add_row(vec![
                    if p.hidden {
                        format!("{name} (hidden)")
                    } else {
                        name.clone()
                    },
                    type_text(p),
                    p.required_in.join("\n"),
                    value_text(p),
                    p.declared_by.join("\n"),
                ]);
            }
            if !report.parameters.is_empty() {
                writeln!(out, "{t}")?;
            }
            if report.required.is_empty() {
                writeln!(
                    out,
                    "{}, none to provide",
                    super::counted(report.parameters.len(), "parameter", "parameters")
                )
            } else {
                let line = format!(
                    "{}, {} to provide: {}",
                    super::counted(report.parameters.len(), "parameter", "parameters"),
                    report.required.len(),
                    report.required.join(", ")
                );
                writeln!(out, "{}", wrap(&line, look.width))
            }
        }
        Format::Yaml => {
            let v = serde_json::to_value(report).map_err(io::Error::other)?;
            write_data(out, &v, format)
        }
        _ => json::write_line(out, report),
    }
}

/// `parameters --diff`: what switching a choice adds, removes and changes.
pub(crate) fn render_parameters_diff(
    out: &mut dyn Write,
    d: &ChoiceDiff,
    format: Format,
    look: Look,
) -> io::Result<()> {
    let need = |p: &ParameterInfo| {
        if p.required_in.is_empty() {
            "supplied"
        } else {
            "required"
        }
    };
    match format {
        Format::Plain => {
            for (n, p) in &d.added {
                writeln!(out, "+\t{n}\t{}", need(p))?;
            }
            for (n, p) in &d.removed {
                writeln!(out, "-\t{n}\t{}", need(p))?;
            }
            for (n, [a, b]) in &d.changed {
                writeln!(out, "~\t{n}\t{} -> {}", need(a), need(b))?;
            }
            Ok(())
        }
        Format::Table => {
            writeln!(out, "{}: {} -> {}", d.type_name, d.from, d.to)?;
            let mut t = table(
                look,
                &[
                    ("", KEEP),
                    ("Parameter", WRAP),
                    ("Type", NARROW),
                    ("Need", KEEP),
                ],
            );
            for (n, p) in &d.added {
                t.add_row(vec![
                    "+".to_owned(),
                    n.clone(),
                    p.type_name.clone().unwrap_or_default(),
                    need(p).to_owned(),
                ]);
            }
            for (n, p) in &d.removed {
                t.add_row(vec![
                    "-".to_owned(),
                    n.clone(),
                    p.type_name.clone().unwrap_or_default(),
                    need(p).to_owned(),
                ]);
            }
            for (n, [a, b]) in &d.changed {
                let ty = |p: &ParameterInfo| p.type_name.clone().unwrap_or_default();
                let types = if ty(a) == ty(b) {
                    ty(a)
                } else {
                    format!("{} -> {}", ty(a), ty(b))
                };
                t.add_row(vec![
                    "~".to_owned(),
                    n.clone(),
                    types,
                    format!("{} -> {}", need(a), need(b)),
                ]);
            }
            writeln!(out, "{t}")?;
            let line = format!(
                "to provide: +[{}] -[{}]",
                d.newly_required.join(", "),
                d.no_longer_required.join(", ")
            );
            writeln!(out, "{}", wrap(&line, look.width))
        }
        Format::Yaml => {
            let v = serde_json::to_value(d).map_err(io::Error::other)?;
            write_data(out, &v, format)
        }
        _ => json::write_line(out, d),
    }
}
