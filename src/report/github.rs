//! `validate --format github`: one GitHub Actions workflow command a
//! finding (`::error file=F,line=L,col=C,...::message`), which the runner
//! turns into annotations on the pull request.
//!
//! Escaping follows GitHub's actions toolkit (`@actions/core` command.ts):
//! in the message `%`, `\r` and `\n` become `%25`, `%0D` and `%0A`; in
//! properties `:` and `,` also become `%3A` and `%2C`.

use std::io::{self, Write};

use crate::diag::{CodeInfo, Diagnostic, Severity};

fn command(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "notice",
    }
}

/// A message (the part after `::`), escaped.
pub(crate) fn escape_data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// A property value, escaped.
pub(crate) fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

/// The properties of one finding: `file`, then its position (GitHub takes
/// columns only for a region on one line: a region over several lines is
/// `line` and `endLine`), then `title` (the code and its name).
fn properties(d: &Diagnostic, name: Option<&str>) -> String {
    let file = d.file.strip_prefix("./").unwrap_or(&d.file);
    let mut props = vec![format!("file={}", escape_property(file))];
    if let Some(s) = d.span.filter(|s| s.start.line > 0) {
        let (start, end) = (s.start, s.end);
        props.push(format!("line={}", start.line));
        if end.line <= start.line {
            if start.column > 0 {
                props.push(format!("col={}", start.column));
                // heatcap's end is exclusive; GitHub's endColumn is the
                // last column of the region.
                if end.line == start.line && end.column > start.column + 1 {
                    props.push(format!("endLine={}", end.line));
                    props.push(format!("endColumn={}", end.column - 1));
                }
            }
        } else {
            props.push(format!("endLine={}", end.line));
        }
    }
    let title = match name {
        Some(n) => format!("{} {n}", d.code),
        None => d.code.to_string(),
    };
    props.push(format!("title={}", escape_property(&title)));
    props.join(",")
}

/// Every finding as a workflow command, in order. Notes are `notice`s.
pub(crate) fn write(
    out: &mut dyn Write,
    findings: &[Diagnostic],
    catalogue: &[&CodeInfo],
) -> io::Result<()> {
    for d in findings {
        let name = catalogue.iter().find(|c| c.code == d.code).map(|c| c.name);
        let message = if d.requirements.is_empty() {
            d.message.clone()
        } else {
            format!("{} (ONAP {})", d.message, d.requirements.join(", "))
        };
        writeln!(
            out,
            "::{} {}::{}",
            command(d.severity),
            properties(d, name),
            escape_data(&message)
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::{codes, Pos, Span};

    fn render(d: &Diagnostic) -> String {
        let mut out = Vec::new();
        write(&mut out, std::slice::from_ref(d), &crate::catalogue()).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn message_and_properties_are_escaped_as_the_toolkit_does() {
        let d = Diagnostic::new(codes::DUPLICATE_KEY, "./a,b:c%.yaml", "50% of\r\nit: x,y");
        assert_eq!(
            render(&d),
            "::warning file=a%2Cb%3Ac%25.yaml,title=W0010 DuplicateKey::50%25 of%0D%0Ait: x,y\n"
        );
    }

    #[test]
    fn positions_on_one_line_have_columns_and_on_several_lines_do_not() {
        let span = |a: (u32, u32), b: (u32, u32)| Span {
            start: Pos {
                line: a.0,
                column: a.1,
            },
            end: Pos {
                line: b.0,
                column: b.1,
            },
        };
        let d = |s| Diagnostic::new(codes::YAML_SYNTAX, "t.yaml", "m").at(s);
        assert_eq!(
            render(&d(span((3, 5), (3, 9)))),
            "::error file=t.yaml,line=3,col=5,endLine=3,endColumn=8,title=E0004 YamlSyntax::m\n"
        );
        assert_eq!(
            render(&d(Span::point(3, 5))),
            "::error file=t.yaml,line=3,col=5,title=E0004 YamlSyntax::m\n"
        );
        assert_eq!(
            render(&d(span((3, 5), (6, 1)))),
            "::error file=t.yaml,line=3,endLine=6,title=E0004 YamlSyntax::m\n"
        );
        let info = Diagnostic::new(codes::JINJA_SKIPPED, "x.j2.yaml", "skipped");
        assert!(render(&info).starts_with("::notice file=x.j2.yaml,title=I0013 "));
    }

    #[test]
    fn onap_requirements_follow_the_message() {
        let mut d = Diagnostic::new(codes::YAML_SYNTAX, "base.yaml", "bad");
        d.requirements = vec!["R-92635"];
        assert!(render(&d).ends_with("::bad (ONAP R-92635)\n"));
    }
}
