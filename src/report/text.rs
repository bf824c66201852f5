//! Diagnostics as `path:line:col: CODE severity: message` lines, or as a table.

use std::io::{self, Write};

use crate::diag::{Diagnostic, Severity};

/// Writes every diagnostic at or above `min`, one per line, each once.
pub(crate) fn write_diagnostics<'a>(
    out: &mut dyn Write,
    diagnostics: impl IntoIterator<Item = &'a Diagnostic>,
    min: Severity,
) -> io::Result<()> {
    let mut seen = std::collections::HashSet::new();
    for d in diagnostics {
        if d.severity >= min && seen.insert((d.code, &d.file, d.span, &d.message)) {
            writeln!(out, "{d}")?;
        }
    }
    Ok(())
}

/// `validate --format table`: one row a finding (requirement IDs after the
/// message, as in the text form).
pub(crate) fn write_findings_table(out: &mut dyn Write, findings: &[Diagnostic]) -> io::Result<()> {
    let mut t = super::table(&["Path", "Line", "Code", "Severity", "Message"]);
    for d in findings {
        let line = d
            .span
            .map(|s| format!("{}:{}", s.start.line, s.start.column))
            .unwrap_or_default();
        let message = if d.requirements.is_empty() {
            d.message.clone()
        } else {
            format!("{} (ONAP {})", d.message, d.requirements.join(", "))
        };
        t.add_row(vec![
            d.file.clone(),
            line,
            d.code.to_string(),
            d.severity.to_string(),
            message,
        ]);
    }
    writeln!(out, "{t}")
}
