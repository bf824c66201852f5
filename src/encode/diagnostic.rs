//! A finding's JSON written directly: `validate --format json` writes
//! hundreds of thousands of them, and serde spent most of its time on
//! their fixed keys (a third of the records' bytes, each escaped anew) and
//! on the four numbers of each span. The bytes are serde's, in
//! [`crate::encode::json::write_line`]'s style: the tests below compare
//! them for findings with every field.

use std::io;

use super::json::{write_list as list, write_str, Record};
use crate::diag::{Diagnostic, Related, Span};

impl Record for Diagnostic {
    fn write_json(&self, buf: &mut Vec<u8>) -> io::Result<()> {
        // The fields in `Diagnostic`'s order, empty ones left out as its
        // `skip_serializing_if` says.
        buf.extend_from_slice(b"{\"code\": ");
        write_str(buf, self.code.0)?;
        buf.extend_from_slice(b", \"severity\": ");
        write_str(buf, self.severity.as_str())?;
        buf.extend_from_slice(b", \"file\": ");
        write_str(buf, &self.file)?;
        if !self.key_path.is_empty() {
            buf.extend_from_slice(b", \"key_path\": ");
            list(buf, &self.key_path, |buf, k| write_str(buf, k))?;
        }
        if let Some(span) = &self.span {
            buf.extend_from_slice(b", \"span\": ");
            write_span(buf, span);
        }
        buf.extend_from_slice(b", \"message\": ");
        write_str(buf, &self.message)?;
        if !self.related.is_empty() {
            buf.extend_from_slice(b", \"related\": ");
            list(buf, &self.related, write_related)?;
        }
        if !self.requirements.is_empty() {
            buf.extend_from_slice(b", \"requirements\": ");
            list(buf, &self.requirements, |buf, r| write_str(buf, r))?;
        }
        buf.push(b'}');
        Ok(())
    }
}

fn write_related(buf: &mut Vec<u8>, r: &Related) -> io::Result<()> {
    buf.extend_from_slice(b"{\"file\": ");
    write_str(buf, &r.file)?;
    if let Some(span) = &r.span {
        buf.extend_from_slice(b", \"span\": ");
        write_span(buf, span);
    }
    buf.extend_from_slice(b", \"message\": ");
    write_str(buf, &r.message)?;
    buf.push(b'}');
    Ok(())
}

fn write_span(buf: &mut Vec<u8>, span: &Span) {
    let n = |buf: &mut Vec<u8>, prefix: &[u8], v: u32| {
        buf.extend_from_slice(prefix);
        buf.extend_from_slice(itoa::Buffer::new().format(v).as_bytes());
    };
    n(buf, b"{\"start\": {\"line\": ", span.start.line);
    n(buf, b", \"column\": ", span.start.column);
    n(buf, b"}, \"end\": {\"line\": ", span.end.line);
    n(buf, b", \"column\": ", span.end.column);
    buf.extend_from_slice(b"}}");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::{Code, Pos};
    use crate::encode::json::write_line;

    fn serdes(d: &Diagnostic) -> String {
        let mut whole = Vec::new();
        write_line(&mut whole, d).unwrap();
        whole.pop();
        String::from_utf8(whole).unwrap()
    }

    fn written(d: &Diagnostic) -> String {
        let mut buf = Vec::new();
        d.write_json(&mut buf).unwrap();
        String::from_utf8(buf).unwrap()
    }

    /// Findings with no optional field, with every one (and text that
    /// needs escaping, and text beyond ASCII, and the largest numbers):
    /// the bytes serde writes.
    #[test]
    fn a_finding_is_written_as_serde_writes_it() {
        let bare = Diagnostic::new(Code("E0001"), "t.yaml", "bad");
        let span = Span {
            start: Pos { line: 1, column: 2 },
            end: Pos {
                line: u32::MAX,
                column: 40,
            },
        };
        let mut full = Diagnostic::new(
            Code("W6011"),
            "dir/\"odd\"\\ \u{e9}\u{1}.yaml",
            "line\nbreak\t`x` \u{1f600} \u{7f}",
        )
        .at(span)
        .with_related(Related {
            file: "g.yaml".to_owned(),
            span: Some(Span::point(3, 4)),
            message: "the glob".to_owned(),
        })
        .with_related(Related {
            file: "h.yaml".to_owned(),
            span: None,
            message: "\"quoted\"".to_owned(),
        });
        full.key_path = vec!["resources".to_owned(), "a\"b".to_owned(), "0".to_owned()];
        full.requirements = vec!["R-92635", "R-1"];
        for d in [&bare, &full] {
            assert_eq!(written(d), serdes(d));
        }
        assert!(written(&full).contains(r#""requirements": ["R-92635", "R-1"]"#));
    }
}
