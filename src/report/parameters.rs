//! Renderer for `parameters`.

use std::io::{self, Write};

use super::{json, table, write_data, Format};
use crate::resolve::parameters::{ParameterInfo, ParametersReport, Source};

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
        let part = format!("{shown} ({})", source(v.source));
        if !parts.contains(&part) {
            parts.push(part);
        }
    }
    parts.join("\n")
}

/// `parameters`: one row per parameter name; JSON/YAML carry the tree too.
pub fn render_parameters(
    out: &mut dyn Write,
    report: &ParametersReport,
    format: Format,
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
            let mut t = table(&[
                "Parameter",
                "Type",
                "Required in",
                "Value (source)",
                "Declared by",
            ]);
            for (name, p) in &report.parameters {
                t.add_row(vec![
                    if p.hidden {
                        format!("{name} (hidden)")
                    } else {
                        name.clone()
                    },
                    p.type_name.clone().unwrap_or_default(),
                    p.required_in.join("\n"),
                    value_text(p),
                    p.declared_by.join("\n"),
                ]);
            }
            writeln!(out, "{t}")?;
            writeln!(
                out,
                "{} parameters, {} to provide: {}",
                report.parameters.len(),
                report.required.len(),
                report.required.join(", ")
            )
        }
        Format::Json => json::write_line(out, report),
        Format::Yaml => {
            let v = serde_json::to_value(report).map_err(io::Error::other)?;
            write_data(out, &v, format)
        }
    }
}
