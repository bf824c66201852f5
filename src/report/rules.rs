//! Renderers for `heatcap rules`: the catalogue of codes as a list, one
//! code explained, or the Markdown page `docs/rules.md`.

use std::fmt::Write as _;
use std::io::{self, Write};

use super::{json, table, wrap, Format, Look, KEEP, WRAP};
use crate::diag::{Code, CodeInfo, Severity};

/// The catalogue (or one code of it) in `format`. `plain` and `table` list
/// the codes; with a single code they explain it.
pub(crate) fn render_rules(
    out: &mut dyn Write,
    codes: &[&CodeInfo],
    format: Format,
    look: Look,
) -> io::Result<()> {
    match format {
        Format::Markdown => out.write_all(markdown(codes).as_bytes()),
        Format::Json => {
            let v: Vec<RuleEntry> = codes.iter().map(|c| RuleEntry::of(c)).collect();
            json::write_line(out, &v)
        }
        Format::Jsonl => super::write_lines(out, codes.iter().map(|c| RuleEntry::of(c))),
        Format::Table => {
            let mut t = table(
                look,
                &[
                    ("Code", KEEP),
                    ("Severity", KEEP),
                    ("Name", WRAP),
                    ("Summary", WRAP),
                ],
            );
            for c in codes {
                t.add_row(vec![
                    c.code.to_string(),
                    c.severity().to_string(),
                    c.name.to_owned(),
                    c.summary.to_owned(),
                ]);
            }
            writeln!(out, "{t}")
        }
        _ if codes.len() == 1 => {
            let c = codes[0];
            // Prose, wrapped to the table width when there is one.
            let w = |text: String| wrap(&text, look.width);
            writeln!(out, "{} {} ({})", c.code, c.name, c.severity())?;
            writeln!(out, "\n{}\n", w(c.summary.to_owned()))?;
            writeln!(out, "{}\n", w(format!("What it checks: {}", c.what)))?;
            writeln!(out, "{}\n", w(format!("Why: {}", c.why)))?;
            writeln!(out, "{}\n", w(format!("Example: {}", c.example)))?;
            writeln!(out, "{}", w(format!("Source: {}", c.source)))
        }
        _ => codes.iter().try_for_each(|c| {
            writeln!(
                out,
                "{}\t{}\t{}\t{}",
                c.code,
                c.severity(),
                c.name,
                c.summary
            )
        }),
    }
}

/// One code of `rules --format json` (and one line of `jsonl`).
#[derive(Debug, serde::Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub(crate) struct RuleEntry {
    /// The code.
    pub code: Code,
    /// The severity its letter stands for.
    pub severity: Severity,
    /// Names the pattern the code flags.
    pub name: &'static str,
    /// One line.
    pub summary: &'static str,
    /// What is checked.
    pub what: &'static str,
    /// Why it matters.
    pub why: &'static str,
    /// A short example of input that gets the code.
    pub example: &'static str,
    /// Where the behaviour is defined.
    pub source: &'static str,
    /// The ONAP requirement IDs (`R-92635`) the source names.
    #[schemars(inner(pattern(r"^R-[0-9]+$")))]
    pub requirements: Vec<&'static str>,
}

impl RuleEntry {
    fn of(c: &CodeInfo) -> RuleEntry {
        RuleEntry {
            code: c.code,
            severity: c.severity(),
            name: c.name,
            summary: c.summary,
            what: c.what,
            why: c.why,
            example: c.example,
            source: c.source,
            requirements: c.requirements(),
        }
    }
}

/// `docs/rules.md`: the table of every code, then each code explained.
fn markdown(codes: &[&CodeInfo]) -> String {
    let mut s = String::from(
        "# heatcap codes\n\nGenerated from the catalogue of codes (`src/diag/codes.rs` and every rule's\nentry, listed in `src/validate/registry.rs`) by `heatcap rules --format\nmarkdown`; do not edit (tests/docs.rs fails when it is stale; refresh with\n`HEATCAP_UPDATE_DOCS=1 cargo test --test docs`). `heatcap rules CODE` prints\none entry. The letter of a code is its severity (E error, W warning, I note);\nthe first digit its area (0 loading, 1 template and version, 2 parameters, 3\nresources, 4 outputs, 5 the `capabilities` annotation, 6 environments, 7\ncomposition, 8 the ONAP profile: `validate --profile onap`, with the ONAP\nrequirement ID in the source and in every finding, 9 TripleO plans and\ncapabilities maps).\n\n| code | severity | name | summary | source |\n|---|---|---|---|---|\n",
    );
    for m in codes {
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} |",
            m.code,
            m.severity(),
            m.name,
            m.summary,
            m.source
        );
    }
    s.push_str("\n## Every code\n");
    for m in codes {
        let _ = write!(
            s,
            "\n### {} {}\n\n{} ({})\n\n**What it checks.** {}\n\n**Why.** {}\n\n**Example.** {}\n\n**Source.** {}\n",
            m.code,
            m.name,
            m.summary,
            m.severity(),
            m.what,
            m.why,
            m.example,
            m.source
        );
    }
    s
}
