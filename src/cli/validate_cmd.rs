//! `heatcap validate`: load in parallel, run the selected rules on each
//! file in the worker (the tree is dropped right after), report.

use std::io::Write;

use super::args::{FailOn, ValidateArgs, ValidateFormat};
use super::config;
use crate::diag::{Diagnostic, Severity};
use crate::error::{Error, Exit};
use crate::load;
use crate::model::FileRecord;
use crate::report;
use crate::validate::{check_file, Selection};
use crate::walk;

pub(super) fn run(
    a: &ValidateArgs,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<Exit, Error> {
    let selection = Selection {
        select: a.select.clone(),
        ignore: a.ignore.clone(),
    };
    for p in a.select.iter().chain(&a.ignore) {
        let valid = !p.is_empty()
            && p.len() <= 5
            && "EWI".contains(&p[..1])
            && p[1..].bytes().all(|b| b.is_ascii_digit());
        if !valid {
            return Err(Error::Usage(format!(
                "`{p}` is not a rule code prefix (like E3 or W5001)"
            )));
        }
    }
    let walked = walk::walk(&config::walk_options(&a.walk, a.paths.clone())?);
    let opts = config::load_options(&a.walk)?;
    let per_file: Vec<(String, Vec<Diagnostic>)> = load::load_all(&walked.sources, &opts, |l| {
        let record = FileRecord::from_loaded(l, true);
        let mut found: Vec<Diagnostic> = record.diagnostics.clone();
        found.extend(check_file(&record, &selection));
        found.retain(|d| selection.includes(d.code));
        (record.path, found)
    });
    let mut findings: Vec<Diagnostic> = walked.diagnostics;
    findings.extend(per_file.iter().flat_map(|(_, d)| d.iter().cloned()));
    let count = |s: Severity| findings.iter().filter(|d| d.severity == s).count();
    let (errors, warnings, notes) = (
        count(Severity::Error),
        count(Severity::Warning),
        count(Severity::Info),
    );
    match a.format {
        ValidateFormat::Text => report::write_diagnostics(out, &findings, Severity::Info)?,
        ValidateFormat::Json => report::json::write_line(
            out,
            &serde_json::json!({
                "files": per_file.len(),
                "summary": {"errors": errors, "warnings": warnings, "notes": notes},
                "diagnostics": findings,
            }),
        )?,
        ValidateFormat::Sarif => report::sarif::write(out, &findings)?,
        ValidateFormat::Table => {
            let mut t = report::table(&["Path", "Line", "Code", "Severity", "Message"]);
            for d in &findings {
                let line = d
                    .span
                    .map(|s| format!("{}:{}", s.start.line, s.start.column))
                    .unwrap_or_default();
                t.add_row(vec![
                    d.file.clone(),
                    line,
                    d.code.to_string(),
                    d.severity.to_string(),
                    d.message.clone(),
                ]);
            }
            writeln!(out, "{t}")?;
        }
    }
    if !a.quiet {
        writeln!(
            err,
            "{} files: {errors} errors, {warnings} warnings, {notes} notes",
            per_file.len()
        )?;
    }
    let threshold = match a.fail_on {
        FailOn::Error => Severity::Error,
        FailOn::Warning => Severity::Warning,
    };
    Ok(if findings.iter().any(|d| d.severity >= threshold) {
        Exit::NoMatchOrFindings
    } else {
        Exit::Ok
    })
}
