//! `heatcap validate`: load in parallel, run the selected rules on each
//! file in the worker (the tree is dropped right after), report.

use std::io::Write;
use std::path::Path;

use rayon::prelude::*;

use super::args::{FailOn, ProfileArg, ValidateArgs, ValidateFormat};
use super::{config, validate_compose};
use crate::diag::{Diagnostic, Severity};
use crate::error::{Error, Exit};
use crate::load;
use crate::model::FileRecord;
use crate::report;
use crate::validate::onap::ModuleKind;
use crate::validate::{check_file, check_package, Profile, Selection};
use crate::walk::{self, Source};

pub(super) fn run(
    a: &ValidateArgs,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<Exit, Error> {
    let selection = selection(a)?;
    let mut walk_args = a.walk.clone();
    if a.profile == ProfileArg::Onap && walk_args.include.is_empty() {
        walk_args.include = config::DEFAULT_INCLUDE
            .iter()
            .chain(&["*.env"])
            .map(|s| (*s).to_owned())
            .collect();
    }
    let walked = walk::walk(&config::walk_options(&walk_args, a.paths.clone())?);
    let opts = config::load_options(&a.walk)?;
    let per_file: Vec<Checked> = match a.profile {
        ProfileArg::Hot => load::load_all(&walked.sources, &opts, |l| {
            let record = FileRecord::from_loaded(l, true);
            let mut found: Vec<Diagnostic> = record.diagnostics.clone();
            found.extend(check_file(&record, &selection));
            found.retain(|d| selection.includes(d.code));
            Checked::new(&record, found)
        }),
        ProfileArg::Onap => by_package(&walked.sources, &opts, &selection),
    };
    let files = per_file.len();
    let mut templates: Vec<String> = Vec::new();
    let mut checked: Vec<String> = Vec::new();
    let mut modules: Vec<report::Module> = Vec::new();
    let mut findings: Vec<Diagnostic> = walked.diagnostics;
    for c in per_file {
        if let Some(kind) = c.module {
            modules.push(report::Module {
                file: c.path.clone(),
                kind,
            });
        }
        if c.template {
            templates.push(c.path.clone());
        }
        checked.push(c.path);
        findings.extend(c.found);
    }
    if !a.environments.is_empty() {
        let composed = composition(a, (&templates, &checked), &opts, &selection);
        findings.extend(composed);
    }
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
            &report::ValidateReport {
                files,
                summary: report::Summary {
                    errors,
                    warnings,
                    notes,
                },
                modules: &modules,
                diagnostics: &findings,
            },
        )?,
        ValidateFormat::Sarif => report::sarif::write(out, &findings)?,
        ValidateFormat::Table => report::write_findings_table(out, &findings)?,
    }
    if !a.quiet {
        writeln!(
            err,
            "{files} files: {errors} errors, {warnings} warnings, {notes} notes"
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

/// `-e`: the composition findings, selected.
fn composition(
    a: &ValidateArgs,
    (templates, checked): (&[String], &[String]),
    opts: &load::LoadOptions,
    selection: &Selection,
) -> Vec<Diagnostic> {
    let mut composed = validate_compose::composition(&a.environments, templates, checked, opts);
    composed.retain(|d| selection.includes(d.code));
    composed
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

/// One checked file: its findings, and whether it is a template (the
/// roots `-e` composes).
struct Checked {
    path: String,
    template: bool,
    /// Under the ONAP profile, what the file is in its package.
    module: Option<ModuleKind>,
    found: Vec<Diagnostic>,
}

impl Checked {
    fn new(record: &FileRecord, found: Vec<Diagnostic>) -> Checked {
        Checked {
            path: record.path.clone(),
            template: record.template().is_some(),
            module: None,
            found,
        }
    }
}

/// The ONAP profile: each directory's files loaded together and checked as
/// one package (packages in parallel); results in walk order. Trees are
/// held only while their package is checked. A package is the whole directory even when only some of its
/// files are named: the others (`.yaml`, `.yml`, `.env`) are loaded as
/// context, so pairing and cross-file rules see them, but not reported.
fn by_package(sources: &[Source], opts: &load::LoadOptions, selection: &Selection) -> Vec<Checked> {
    let mut packages: indexmap::IndexMap<&Path, Vec<(usize, &Source)>> = indexmap::IndexMap::new();
    for (i, s) in sources.iter().enumerate() {
        let dir = s.path.parent().unwrap_or(Path::new(""));
        packages.entry(dir).or_default().push((i, s));
    }
    let packages: Vec<(&Path, Vec<(usize, &Source)>)> = packages.into_iter().collect();
    let mut out: Vec<(usize, Checked)> = packages
        .par_iter()
        .flat_map_iter(|(dir, members)| {
            let mut group: Vec<Source> = members.iter().map(|(_, s)| (*s).clone()).collect();
            group.extend(siblings(dir, &group));
            let records = load::load_all(&group, opts, |l| FileRecord::from_loaded(l, true));
            let found = check_package(&records, selection, Profile::Onap);
            members
                .iter()
                .zip(&records)
                .zip(found)
                .map(|(((i, _), record), (found, module))| {
                    let mut c = Checked::new(record, found);
                    c.module = module;
                    (*i, c)
                })
                .collect::<Vec<_>>()
        })
        .collect();
    out.sort_by_key(|(i, _)| *i);
    out.into_iter().map(|(_, c)| c).collect()
}

/// The package files of `dir` that `named` does not hold, in name order.
fn siblings(dir: &Path, named: &[Source]) -> Vec<Source> {
    let Some(first) = named.first() else {
        return Vec::new();
    };
    let shown_dir = Path::new(&first.display)
        .parent()
        .unwrap_or(Path::new(""))
        .to_path_buf();
    let have: std::collections::HashSet<&std::ffi::OsStr> =
        named.iter().filter_map(|s| s.path.file_name()).collect();
    let listing = std::fs::read_dir(if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    });
    let mut found: Vec<std::ffi::OsString> = listing
        .into_iter()
        .flatten()
        .flatten()
        // A symbolic link to a file counts, as it does in the walk.
        .filter(|e| std::fs::metadata(e.path()).is_ok_and(|m| m.is_file()))
        .map(|e| e.file_name())
        .filter(|n| {
            let p = Path::new(n);
            let ext = p
                .extension()
                .map(|e| e.to_string_lossy().to_ascii_lowercase());
            let name = n.to_string_lossy();
            !name.starts_with('.')
                && !name.ends_with(".j2.yaml")
                && matches!(ext.as_deref(), Some("yaml" | "yml" | "env"))
                && !have.contains(&n.as_os_str())
        })
        .collect();
    found.sort();
    found
        .into_iter()
        .map(|n| Source {
            display: shown_dir.join(&n).display().to_string(),
            path: dir.join(&n),
            explicit: false,
            jinja: false,
        })
        .collect()
}
