//! `diff`: what an update does, as a list of the resources it touches
//! with why (table), or heatcap's document (json, yaml).

use std::fmt::Write as _;
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
            // Heat refuses: stderr says which side and why; what can be
            // compared is still shown.
            for c in d
                .changes
                .iter()
                .filter(|c| c.action != Action::Unchanged || !c.follows.is_empty())
            {
                change(out, c)?;
            }
            writeln!(out, "{}", summary(d))?;
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
    let mut line = format!(
        "{} to add, {} to replace, {} to update, {} to delete ({} unchanged)",
        s.add, s.replace, s.update, s.delete, s.unchanged
    );
    for (n, what) in [
        (s.refused, "refused by Heat's update"),
        (s.destructive, "destructive to a server"),
        (s.follows, "changing with a replaced resource"),
        (s.nothing_inside, "stack updates with nothing inside"),
    ] {
        if n > 0 {
            let _ = write!(line, "; {n} {what}");
        }
    }
    line
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
    if let Some(why) = &c.refused {
        let at = c
            .refused_at
            .as_ref()
            .map(|a| format!(" (restricted at {a})"))
            .unwrap_or_default();
        writeln!(out, "      ! refused at update: {why}{at}")?;
    }
    if let Some(why) = &c.destructive {
        writeln!(out, "      ! destructive: {why}")?;
    }
    if !c.follows.is_empty() {
        writeln!(
            out,
            "      changes with replaced {} (Heat lists it {})",
            c.follows.join(", "),
            c.action.as_str()
        )?;
    }
    if c.nothing_inside {
        writeln!(out, "      nothing changes inside")?;
    }
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
        for (side, sites, unset) in [
            ("before", &p.set_before, &p.unset_before),
            ("after", &p.set_after, &p.unset_after),
        ] {
            if !sites.is_empty() {
                writeln!(out, "        {side} set at {}", sites.join(" ← "))?;
            }
            if !unset.is_empty() {
                writeln!(
                    out,
                    "        {side} unset: {} has no value (Heat: Property {} not assigned)",
                    unset.join(", "),
                    unset[0]
                )?;
            }
        }
    }
    for k in &c.changed {
        writeln!(out, "      {k} changed")?;
    }
    Ok(())
}
