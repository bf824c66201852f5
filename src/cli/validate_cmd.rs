//! `validate`: Heat's rules (and optionally ONAP's) on every file, as
//! `path:line:col` findings.

use std::io::Write;

use super::args::{FailOn, ProfileArg, ValidateArgs};
use super::{config, Ui};
use crate::diag::Severity;
use crate::error::{Error, Exit};
use crate::report::{self, Format};
use crate::validate::{Profile, Selection};
use crate::workspace::{validate as run_validate, ValidateOptions};

/// `validate`: exit 1 when a finding is at or above `--fail-on`.
pub(super) fn validate(
    a: &ValidateArgs,
    ui: &Ui,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<Exit, Error> {
    let selection = selection(a)?;
    let (walk, load) = (
        config::validate_walk_options(a)?,
        config::load_options(&a.walk)?,
    );
    let progress = ui.progress(a.quiet, "validating");
    let validated = run_validate(&ValidateOptions {
        walk,
        load,
        selection,
        profile: match a.profile {
            ProfileArg::Hot => Profile::Hot,
            ProfileArg::Onap => Profile::Onap,
        },
        environments: a.environments.clone(),
        max_nested_depth: a.max_nested_depth,
    });
    let sources = if a.format == Format::Full {
        validated.source_texts(a.walk.max_size)
    } else {
        report::Sources::new()
    };
    drop(progress);
    report::render_validate(
        out,
        &validated,
        a.format,
        &crate::catalogue(),
        ui.out,
        &sources,
    )?;
    let (errors, warnings, notes) = (
        validated.count(Severity::Error),
        validated.count(Severity::Warning),
        validated.count(Severity::Info),
    );
    let findings = &validated.findings;
    if !a.quiet {
        report::write_validate_summary(err, validated.files, [errors, warnings, notes], ui.err)?;
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

/// The rules `--select` and `--ignore` leave, once their prefixes check.
fn selection(a: &ValidateArgs) -> Result<Selection, Error> {
    for p in a.select.iter().chain(&a.ignore) {
        let valid = p.len() <= 5
            && p.starts_with(['E', 'W', 'I'])
            && p.bytes().skip(1).all(|b| b.is_ascii_digit());
        if !valid {
            return Err(Error::Usage(format!(
                "`{p}` is not a rule code prefix (like E3 or W5001)"
            )));
        }
    }
    Ok(Selection {
        select: a.select.clone(),
        ignore: a.ignore.clone(),
    })
}
