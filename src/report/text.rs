//! Diagnostics as `path:line:col: CODE severity: message` lines.

use std::io::{self, Write};

use crate::diag::{Diagnostic, Severity};

/// Writes every diagnostic at or above `min`, one per line.
pub fn write_diagnostics<'a>(
    out: &mut dyn Write,
    diagnostics: impl IntoIterator<Item = &'a Diagnostic>,
    min: Severity,
) -> io::Result<()> {
    for d in diagnostics {
        if d.severity >= min {
            writeln!(out, "{d}")?;
        }
    }
    Ok(())
}
