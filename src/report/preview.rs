//! `preview`: Heat's create preview as a tree (table), or heatcap's
//! document (json, yaml).

use std::io::{self, Write};

use super::{write_data, Format, Look};
use crate::encode::json;
use crate::product::preview::{Preview, PreviewStack};

/// Renders the preview in `format` (`heat` is written by the command).
pub(crate) fn render_preview(
    out: &mut dyn Write,
    p: &Preview,
    format: Format,
    look: Look,
) -> io::Result<()> {
    match format {
        Format::Table => {
            let _ = look;
            writeln!(out, "{}", p.stack.name)?;
            let mut counts = (0usize, 0usize);
            tree(out, &p.stack, "", &mut counts)?;
            writeln!(
                out,
                "{}, {}",
                super::counted(counts.0, "resource", "resources"),
                super::counted(counts.1, "nested stack", "nested stacks")
            )
        }
        Format::Yaml => {
            let v = serde_json::to_value(p).map_err(io::Error::other)?;
            write_data(out, &v, format)
        }
        _ => json::write_line(out, p),
    }
}

/// One stack's resources under `prefix`, each with its type, its
/// implementation and, for a nested stack, its name and resources.
fn tree(
    out: &mut dyn Write,
    s: &PreviewStack,
    prefix: &str,
    counts: &mut (usize, usize),
) -> io::Result<()> {
    let n = s.resources.len();
    for (i, r) in s.resources.iter().enumerate() {
        counts.0 += 1;
        let last = i + 1 == n;
        let (branch, next) = if last {
            ("└── ", "    ")
        } else {
            ("├── ", "│   ")
        };
        let what = match (&r.nested, &r.plugin) {
            (Some(n), _) => {
                let from = n.template.as_deref().unwrap_or("group");
                format!("{} ({from}) → stack {}", r.type_name, n.name)
            }
            (None, Some(p)) if *p != r.type_name => format!("{} → {p}", r.type_name),
            _ => r.type_name.clone(),
        };
        writeln!(out, "{prefix}{branch}{}: {what}", r.name)?;
        if let Some(nested) = &r.nested {
            counts.1 += 1;
            tree(out, nested, &format!("{prefix}{next}"), counts)?;
        }
    }
    Ok(())
}
