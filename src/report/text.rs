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
    // foldhash: std's SipHash of each finding's file and message was most
    // of `validate --format plain`'s main-thread time on 270,000 findings.
    let mut seen: foldhash::HashSet<_> = foldhash::HashSet::default();
    for d in diagnostics {
        if d.severity < min || !seen.insert((d.code, &d.file, d.span, &d.message)) {
            continue;
        }
        write_line(out, d, look)?;
    }
    Ok(())
}

/// [`write_diagnostics`] of every finding of a command's report, byte for
/// byte: which are repeats is decided as [`crate::diag::dedup`] decides it,
/// and the lines are rendered in parallel a few thousand at a time (one
/// thread writing `validate`'s 270,000 lines took 0.4 s while the other
/// waited).
pub(crate) fn write_findings(
    out: &mut dyn Write,
    findings: &[Diagnostic],
    look: Look,
) -> io::Result<()> {
    let firsts = crate::diag::firsts(findings);
    crate::encode::json::write_rendered(out, findings, b"", |buf, start, group| {
        for (d, _) in group
            .iter()
            .zip(&firsts[start..])
            .filter(|(_, first)| **first)
        {
            write_line(buf, d, look)?;
        }
        Ok(())
    })
}

/// One diagnostic's line (see [`write_diagnostics`]).
fn write_line<W: Write + ?Sized>(out: &mut W, d: &Diagnostic, look: Look) -> io::Result<()> {
    if !look.color {
        return writeln!(out, "{d}");
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
    writeln!(out)
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

    /// A report's findings rendered in parallel are the lines
    /// `write_diagnostics` writes, repeats left out alike, with and
    /// without colour: the findings of the fixtures, each given three
    /// times (in turn, so that repeats cross the rendering's groups and
    /// chunks), and findings with no place or with ONAP requirements.
    #[test]
    fn findings_rendered_in_parallel_are_the_lines_written_in_turn() {
        let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
        let mut opts = crate::workspace::ValidateOptions::new(
            vec![fixtures.join("onap")],
            crate::Profile::Onap,
        );
        opts.walk = opts.walk.recursive();
        let mut findings = crate::workspace::validate(&opts).findings;
        assert!(findings.iter().any(|d| !d.requirements.is_empty()));
        let mut opts = crate::workspace::ValidateOptions::new(vec![fixtures], crate::Profile::Hot);
        opts.walk = opts.walk.recursive();
        findings.extend(crate::workspace::validate(&opts).findings);
        findings.push(Diagnostic::new(codes::DUPLICATE_KEY, "a.yaml", "no place"));
        let once = findings.len();
        assert!(once > 100, "{once}");
        let thrice: Vec<Diagnostic> = findings
            .iter()
            .chain(&findings)
            .chain(&findings)
            .cloned()
            .collect();
        for color in [false, true] {
            let look = Look { width: None, color };
            let (mut parallel, mut in_turn) = (Vec::new(), Vec::new());
            write_findings(&mut parallel, &thrice, look).unwrap();
            write_diagnostics(&mut in_turn, &thrice, Severity::Info, look).unwrap();
            assert_eq!(
                String::from_utf8(parallel).unwrap(),
                String::from_utf8(in_turn).unwrap()
            );
        }
    }

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
