//! `diff`: what an update does, as a list of the resources it touches
//! with why (table), or heatcap's document (json, yaml).

use std::io::{self, Write};

use super::{write_data, Format, Look};
use crate::encode::json;
use crate::product::diff::{Action, Change, Diff};

/// Renders the diff in `format` (`heat` is written by the command).
pub(crate) fn render_diff(
    out: &mut dyn Write,
    d: &Diff,
    format: Format,
    look: Look,
) -> io::Result<()> {
    if super::interface::render_one(out, d, format)? {
        return Ok(());
    }
    match format {
        Format::Table => {
            let _ = look;
            // Heat refuses: stderr says which side and why.
            if d.heat_error.is_none() {
                for c in d.changes.iter().filter(|c| c.action != Action::Unchanged) {
                    change(out, c)?;
                }
                writeln!(out, "{}", summary(d))?;
            }
            super::interface::table(out, &d.interface)
        }
        Format::Yaml => {
            let v = serde_json::to_value(d).map_err(io::Error::other)?;
            write_data(out, &v, format)
        }
        _ => json::write_line(out, d),
    }
}

/// The summary line: `2 to add, 1 to replace, 3 to update, 0 to delete
/// (9 unchanged)`.
fn summary(d: &Diff) -> String {
    let s = &d.summary;
    format!(
        "{} to add, {} to replace, {} to update, {} to delete ({} unchanged)",
        s.add, s.replace, s.update, s.delete, s.unchanged
    )
}

/// One resource: its marker, stack/name, type, action and rule; then
/// each changed property, before → after.
fn change(out: &mut dyn Write, c: &Change) -> io::Result<()> {
    let marker = match c.action {
        Action::Added => "+",
        Action::Deleted => "-",
        Action::Replaced => "-/+",
        Action::Updated => "~",
        Action::Unchanged => "=",
    };
    let rule = serde_json::to_value(c.rule)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default();
    writeln!(
        out,
        "{marker} {}/{} ({}): {} [{rule}]",
        c.stack,
        c.resource,
        c.type_name,
        c.action.as_str()
    )?;
    for p in &c.properties {
        let forces = if p.update_allowed {
            ""
        } else {
            " (not update_allowed)"
        };
        writeln!(
            out,
            "      {}: {} → {}{forces}",
            p.name,
            serde_json::to_string(&p.before).unwrap_or_default(),
            serde_json::to_string(&p.after).unwrap_or_default()
        )?;
    }
    for k in &c.changed {
        writeln!(out, "      {k} changed")?;
    }
    Ok(())
}
