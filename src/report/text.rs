//! Diagnostics as `path:line:col: CODE severity: message` lines, or as a table.

use std::io::{self, Write};

use super::look::{code_style, paint, table, Look, BOLD, KEEP, WRAP};
use crate::diag::{Diagnostic, Severity};

/// Writes every diagnostic at or above `min`, one per line, each once;
/// coloured, the place is bold and the code and severity take the
/// severity's colour.
pub(crate) fn write_diagnostics<'a>(
    out: &mut dyn Write,
    diagnostics: impl IntoIterator<Item = &'a Diagnostic>,
    min: Severity,
    look: Look,
) -> io::Result<()> {
    let mut seen = std::collections::HashSet::new();
    for d in diagnostics {
        if d.severity < min || !seen.insert((d.code, &d.file, d.span, &d.message)) {
            continue;
        }
        if !look.color {
            writeln!(out, "{d}")?;
            continue;
        }
        let place = match d.span {
            Some(s) => format!("{}:{}:{}:", d.file, s.start.line, s.start.column),
            None => format!("{}:", d.file),
        };
        let style = code_style(d.severity);
        write!(
            out,
            "{} {} {} {}",
            paint(look, BOLD, &place),
            paint(look, style, d.code.0),
            paint(look, style, &format!("{}:", d.severity)),
            d.message
        )?;
        if !d.requirements.is_empty() {
            write!(out, " (ONAP {})", d.requirements.join(", "))?;
        }
        writeln!(out)?;
    }
    Ok(())
}

/// `validate`'s summary line on stderr: `N files: E errors, W warnings, I
/// notes`, each count above zero in its severity's colour.
pub(crate) fn write_validate_summary(
    err: &mut dyn Write,
    files: usize,
    [errors, warnings, notes, suppressed]: [usize; 4],
    look: Look,
) -> io::Result<()> {
    let count = |n: usize, (one, many): (&str, &str), severity| {
        let text = super::counted(n, one, many);
        if n > 0 {
            paint(look, code_style(severity), &text)
        } else {
            text
        }
    };
    write!(
        err,
        "{}: {}, {}, {}",
        super::counted(files, "file", "files"),
        count(errors, ("error", "errors"), Severity::Error),
        count(warnings, ("warning", "warnings"), Severity::Warning),
        count(notes, ("note", "notes"), Severity::Info)
    )?;
    if suppressed > 0 {
        write!(err, ", {suppressed} suppressed")?;
    }
    writeln!(err)
}

/// `validate --format table`: one row a finding (requirement IDs after the
/// message, as in the text form).
pub(crate) fn write_findings_table(
    out: &mut dyn Write,
    findings: &[Diagnostic],
    look: Look,
) -> io::Result<()> {
    let mut t = table(
        look,
        &[
            ("Path", WRAP),
            ("Line", KEEP),
            ("Code", KEEP),
            ("Severity", KEEP),
            ("Message", WRAP),
        ],
    );
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::{codes, Span};

    #[test]
    fn coloured_lines_read_the_same_once_the_escapes_go() {
        let d = Diagnostic::new(codes::DUPLICATE_KEY, "a.yaml", "duplicate key `x`")
            .at(Span::point(3, 5));
        let (mut plain, mut coloured) = (Vec::new(), Vec::new());
        write_diagnostics(&mut plain, [&d], Severity::Info, Look::default()).unwrap();
        let look = Look {
            width: None,
            color: true,
        };
        write_diagnostics(&mut coloured, [&d], Severity::Info, look).unwrap();
        let coloured = String::from_utf8(coloured).unwrap();
        // Warnings are yellow.
        assert!(coloured.contains("\x1b[33m"), "{coloured:?}");
        let mut stripped = String::new();
        let mut rest = coloured.as_str();
        while let Some(i) = rest.find('\x1b') {
            stripped.push_str(&rest[..i]);
            rest = &rest[i + rest[i..].find('m').unwrap() + 1..];
        }
        stripped.push_str(rest);
        assert_eq!(stripped, String::from_utf8(plain).unwrap());
    }
}
