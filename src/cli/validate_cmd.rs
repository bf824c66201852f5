//! `validate`: Heat's rules (and optionally ONAP's) on every file, as
//! `path:line:col` findings.

use std::io::Write;

use super::args::{FailOn, ProfileArg, ValidateArgs};
use super::config_file::{self, ConfigFile};
use super::{config, Ui};
use crate::error::{Error, Exit};
use crate::report::{self, Format};
use crate::validate::{Profile, Selection};
use crate::walk::Remap;
use crate::workspace::{validate as run_validate, ValidateOptions};

/// `validate`: exit 1 when a finding is at or above `--fail-on`.
pub(super) fn validate(
    a: &ValidateArgs,
    remap: &Remap,
    ui: &Ui,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<Exit, Error> {
    let file = config_file::load(&a.config, a.verbose, err)?;
    let file = file.as_ref();
    // A flag given wins over the file's key; the default comes last.
    let profile = a
        .profile
        .or(file.and_then(|f| f.profile))
        .unwrap_or(ProfileArg::Hot);
    let fail_on = a
        .fail_on
        .or(file.and_then(|f| f.fail_on))
        .unwrap_or(FailOn::Error);
    let selection = selection(a, file)?;
    if profile == ProfileArg::Onap {
        // A VNF package is a directory; standard input is in none.
        config::no_stdin(a.paths.iter().chain(&a.environments), "--profile onap")?;
    }
    let load = config::with_stdin(
        config::at_revision(
            crate::load::LoadOptions {
                remap: config::remap_with_file(remap, file)?,
                ..config::load_options(&a.walk.read)?
            },
            &a.walk.read.rev,
            a.paths
                .iter()
                .chain(&a.environments)
                .map(std::path::PathBuf::as_path),
        )?,
        a.paths.iter().chain(&a.environments),
    )?;
    let walk = config::validate_walk_options(a, profile, file)?;
    let progress = ui.progress(a.quiet, "validating");
    let validated = run_validate(&ValidateOptions {
        walk,
        load,
        selection,
        profile: match profile {
            ProfileArg::Hot => Profile::Hot,
            ProfileArg::Onap => Profile::Onap,
        },
        environments: a.environments.clone(),
        max_nested_depth: a.max_nested_depth,
        inline_suppressions: !a.no_inline_suppress,
    });
    let sources = if a.format == Format::Full {
        validated.source_texts(a.walk.read.max_size)
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
    let [errors, warnings, notes] = validated.counts();
    if validated.files == 0 {
        // A CI job pointed at the wrong folder must not pass.
        writeln!(
            err,
            "heatcap: nothing was checked: no template or environment file was found{}",
            if a.walk.recursive {
                ""
            } else {
                " (a directory is searched only with -r)"
            }
        )?;
        return Ok(Exit::Failure);
    }
    if !a.quiet {
        report::write_validate_summary(
            err,
            validated.files,
            [errors, warnings, notes, validated.suppressed],
            ui.err,
        )?;
    }
    let failing = match fail_on {
        FailOn::Error => errors,
        FailOn::Warning => errors + warnings,
    };
    let exit = if failing > 0 {
        Exit::NoMatchOrFindings
    } else {
        Exit::Ok
    };
    ui.release(sources);
    ui.release(validated);
    Ok(exit)
}

/// The rules `--select` and `--ignore` (or, for each one not given, the
/// configuration file's key) leave, once their prefixes check.
fn selection(a: &ValidateArgs, file: Option<&ConfigFile>) -> Result<Selection, Error> {
    for p in a.select.iter().chain(&a.ignore) {
        config::code_prefix(p).map_err(Error::Usage)?;
    }
    let or_file = |flag: &Vec<String>, key: Option<&Vec<String>>| {
        if flag.is_empty() {
            key.cloned().unwrap_or_default()
        } else {
            flag.clone()
        }
    };
    Ok(Selection {
        select: or_file(&a.select, file.and_then(|f| f.select.as_ref())),
        ignore: or_file(&a.ignore, file.and_then(|f| f.ignore.as_ref())),
    })
}
