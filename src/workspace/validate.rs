//! `validate`: the files walked, loaded in parallel, each checked by the
//! selected rules in the worker (its tree dropped right after); under the
//! ONAP profile each directory checked as one package; with environments,
//! the composition of every template checked.

use std::collections::{BTreeMap, HashSet};
use std::path::PathBuf;

use super::interface::{identities, Contribution, Interface};
use super::{compose_check, packages, suppress};
use crate::diag::{codes, Code, Diagnostic, Severity, Span};
use crate::load::suppress::Directive;
use crate::load::{self, LoadOptions};
use crate::model::package::ModuleKind;
use crate::model::FileRecord;
use crate::validate::{check_file, MappedTypes, Profile, Selection};
use crate::walk::{self, WalkOptions};

/// What to check, and how.
#[derive(Debug, Clone)]
pub struct ValidateOptions {
    /// What to walk.
    pub walk: WalkOptions,
    /// How files are read.
    pub load: LoadOptions,
    /// Which codes to report.
    pub selection: Selection,
    /// Which rule sets run.
    pub profile: Profile,
    /// Environments to compose every checked template with (E7xxx, W6xxx).
    pub environments: Vec<PathBuf>,
    /// Heat's `max_nested_stack_depth` for those compositions.
    pub max_nested_depth: usize,
    /// Apply the files' `# heatcap: ignore[...]` comments (and report
    /// those that suppress nothing or cannot be read).
    pub inline_suppressions: bool,
}

impl ValidateOptions {
    /// Check `roots` (directories recursively) with every rule of
    /// `profile`; under the ONAP profile `*.env` files are read too.
    ///
    /// # Panics
    /// Never: the globs are constants that compile.
    pub fn new(roots: Vec<PathBuf>, profile: Profile) -> ValidateOptions {
        let mut walk = WalkOptions::new(roots).recursive();
        if profile == Profile::Onap {
            let mut include: Vec<&str> = walk::DEFAULT_INCLUDE.to_vec();
            include.push("*.env");
            walk = walk.include(&include).expect("constant globs compile");
        }
        ValidateOptions {
            walk,
            load: LoadOptions::default(),
            selection: Selection::default(),
            profile,
            environments: Vec::new(),
            max_nested_depth: crate::resolve::compose::MAX_NESTED_DEPTH,
            inline_suppressions: true,
        }
    }
}

/// The outcome: every finding, in file order, and what was checked.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct Validated {
    /// The files checked.
    pub files: usize,
    /// Under the ONAP profile, what each file is in its package.
    pub modules: Vec<(String, ModuleKind)>,
    /// Every finding, in file order (then the composition's, then those
    /// about suppression comments).
    pub findings: Vec<Diagnostic>,
    /// Findings that `# heatcap:` comments suppressed (not in `findings`).
    pub suppressed: usize,
    /// The files read instead of the disk's (the rendered outputs), to
    /// show their lines.
    overlay: crate::vfs::FileOverlay,
}

impl Validated {
    /// The text of every file the findings point into at a position (their
    /// own and their related places), read again, for output that shows
    /// source lines (`validate --format full`). A file that cannot be read
    /// now, or is longer than `max_size` characters, is left out.
    pub(crate) fn source_texts(&self, max_size: usize) -> BTreeMap<String, String> {
        let mut texts = BTreeMap::new();
        let places = self.findings.iter().flat_map(|d| {
            std::iter::once((&d.file, d.span)).chain(d.related.iter().map(|r| (&r.file, r.span)))
        });
        for (file, span) in places {
            if span.is_none() || texts.contains_key(file) {
                continue;
            }
            let Ok(bytes) = self.overlay.read(&walk::path_of(file)) else {
                continue;
            };
            let text = String::from_utf8_lossy(&bytes);
            if text.chars().count() <= max_size {
                texts.insert(file.clone(), text.into_owned());
            }
        }
        texts
    }

    /// The findings of one severity.
    pub fn count(&self, severity: Severity) -> usize {
        self.findings
            .iter()
            .filter(|d| d.severity == severity)
            .count()
    }

    /// The findings of each severity, counted in one pass: errors,
    /// warnings, notes.
    pub fn counts(&self) -> [usize; 3] {
        self.findings
            .iter()
            .fold([0; 3], |[errors, warnings, notes], d| match d.severity {
                Severity::Error => [errors + 1, warnings, notes],
                Severity::Warning => [errors, warnings + 1, notes],
                Severity::Info => [errors, warnings, notes + 1],
            })
    }
}

/// One checked file: its findings, and whether it is a template (the
/// roots the environments compose).
pub(super) struct Checked {
    pub(super) path: String,
    pub(super) template: bool,
    /// Under the ONAP profile, what the file is in its package.
    pub(super) module: Option<ModuleKind>,
    pub(super) found: Vec<Diagnostic>,
    /// What it tells about the properties parents pass (HOT profile).
    pub(super) contribution: Contribution,
    /// Its `# heatcap:` comments.
    pub(super) directives: Vec<Directive>,
}

impl Checked {
    pub(super) fn new(record: &FileRecord, found: Vec<Diagnostic>) -> Checked {
        Checked {
            path: record.path.clone(),
            template: record.template().is_some(),
            module: None,
            found,
            contribution: Contribution::of(record),
            directives: record.directives.clone(),
        }
    }
}

/// W2003: parameters a parent passes are not reported (see `interface`).
const UNUSED_PARAMETER: crate::diag::Code = crate::diag::Code("W2003");
/// E3018, the rule's code for a template checked on its own.
const TOO_MANY_RESOURCES_IN_TEMPLATE: crate::diag::Code = crate::diag::Code("E3018");

/// The types the environments `envs` map (nothing without environments):
/// the rules on Heat's own types leave those resources to the composition.
fn mapped_types(envs: &[PathBuf], opts: &LoadOptions) -> MappedTypes {
    if envs.is_empty() {
        return MappedTypes::default();
    }
    let sources: Vec<walk::Source> = envs
        .iter()
        .map(|p| walk::Source::new(p.clone(), walk::display(p), true))
        .collect();
    let records = load::load_all(&sources, opts, |l| FileRecord::from_loaded(l, false));
    let mut mapped = MappedTypes::of(records.iter().filter_map(FileRecord::environment));
    mapped.composed = true;
    mapped
}

/// One file's findings under the HOT profile: its own diagnostics, the
/// rules', and its references that cannot be read.
fn check_hot(
    record: &FileRecord,
    selection: &Selection,
    load: &LoadOptions,
    mapped: &MappedTypes,
    disk: &crate::vfs::Disk,
) -> Checked {
    let mut found: Vec<Diagnostic> = record.diagnostics.clone();
    found.extend(check_file(record, selection, &load.remap, mapped, disk));
    found.extend(super::references::unreadable(
        record,
        &load.remap,
        &load.overlay,
    ));
    found.retain(|d| selection.includes(d.code));
    Checked::new(record, found)
}

/// The options every stage of this run reads files through, after the
/// TripleO trees the paths are in are rendered and mounted, with what
/// rendering found (reported before the walk's diagnostics).
fn rendered_options(opts: &ValidateOptions) -> (ValidateOptions, Vec<Diagnostic>) {
    let mut rendered = opts.clone();
    if !opts.load.renders() {
        return (rendered, Vec::new());
    }
    let found = super::rendered::mount_trees(
        opts.walk
            .roots
            .iter()
            .chain(&opts.environments)
            .map(PathBuf::as_path),
        &mut rendered.load,
    );
    (rendered, found)
}

/// What the composition reports, looked up by hash: a finding of the
/// per-file rules it covers is not reported twice. (Each finding was
/// compared with every one of the composition's: quadratic when a large
/// template names many missing files.)
struct Reported<'a> {
    /// (code, file, span) of each.
    at: HashSet<(Code, &'a str, Option<Span>)>,
    /// (code, file, a name quoted in the message): every text between two
    /// consecutive backticks, so that `contains("`t`")` for a `t` without
    /// backticks is a lookup.
    quoted: HashSet<(Code, &'a str, &'a str)>,
}

impl<'a> Reported<'a> {
    fn of(composed: &'a [Diagnostic]) -> Reported<'a> {
        let mut r = Reported {
            at: HashSet::new(),
            quoted: HashSet::new(),
        };
        for c in composed {
            r.at.insert((c.code, c.file.as_str(), c.span));
            let segments: Vec<&str> = c.message.split('`').collect();
            if let [_, inner @ .., _] = segments.as_slice() {
                for t in inner {
                    r.quoted.insert((c.code, c.file.as_str(), t));
                }
            }
        }
        r
    }

    /// True when the composition reports `d`: the same code in the same
    /// file at the same place, or, for an unreadable template or file,
    /// naming the same target (in backticks).
    fn covers(&self, d: &Diagnostic) -> bool {
        let target = matches!(d.code, codes::MISSING_TEMPLATE | codes::MISSING_FILE)
            .then(|| d.message.split('`').nth(1))
            .flatten();
        self.at.contains(&(d.code, d.file.as_str(), d.span))
            || target.is_some_and(|t| self.quoted.contains(&(d.code, d.file.as_str(), t)))
    }
}

/// Runs `validate`.
pub fn validate(opts: &ValidateOptions) -> Validated {
    let (rendered, rendering) = rendered_options(opts);
    let opts = &rendered;
    let load = &opts.load;
    let selection = &opts.selection;
    let mapped = mapped_types(&opts.environments, load);
    let mut disk = crate::vfs::Disk::new(&load.overlay);
    let (mut walked, mut per_file): (walk::Walked, Vec<Checked>) = match opts.profile {
        // Each file is checked as the walk finds it.
        Profile::Hot => load::walk_and_load(&opts.walk, load, false, |l| {
            check_hot(
                &FileRecord::from_loaded(l, true),
                selection,
                load,
                &mapped,
                &disk,
            )
        }),
        Profile::Onap => {
            let walked = walk::walk(&opts.walk, &load.overlay);
            let per_file = packages::by_package(&walked.sources, load, selection);
            (walked, per_file)
        }
    };
    walked.diagnostics.splice(0..0, rendering);
    disk.learn_plain(walked.plain_files());
    let findings = crate::diag::gather(
        std::iter::once(&mut walked.diagnostics).chain(per_file.iter_mut().map(|c| &mut c.found)),
    );
    let mut out = Validated {
        files: per_file.len(),
        modules: Vec::new(),
        findings,
        suppressed: 0,
        overlay: load.overlay.clone(),
    };
    let mut templates: Vec<String> = Vec::new();
    let mut checked: Vec<String> = Vec::new();
    let mut contributions: Vec<Contribution> = Vec::new();
    let mut directives: Vec<(String, Vec<Directive>)> = Vec::new();
    for c in per_file {
        if let Some(kind) = c.module {
            out.modules.push((c.path.clone(), kind));
        }
        if c.template {
            templates.push(c.path.clone());
        }
        directives.push((c.path.clone(), c.directives));
        checked.push(c.path);
        contributions.push(c.contribution);
    }
    // Template-path types against their templates' parameters: names
    // (E7007, which the composition reports with `-e`) and literal values
    // (E7015).
    let names = opts.environments.is_empty() && selection.includes(codes::UNKNOWN_PROPERTY);
    let values = selection.includes(codes::INVALID_PROVIDER_PROPERTY);
    let missing = selection.includes(VALUE_MISSING_AT_VALIDATE);
    if names || values || missing {
        // Each template a path type names is read once for both checks.
        let path_uses = super::interface::path_targets(&contributions, load);
        if names || values {
            let mut found: Vec<Diagnostic> = super::interface::path_type_properties(&path_uses)
                .into_iter()
                .filter(|d| {
                    if d.code == codes::UNKNOWN_PROPERTY {
                        names
                    } else {
                        values
                    }
                })
                .collect();
            count_against_compliance(&mut found, opts.profile);
            out.findings.extend(found);
        }
        if missing {
            let mut found = super::interface::nested_values_missing(&path_uses);
            count_against_compliance(&mut found, opts.profile);
            out.findings.extend(found);
        }
    }
    drop_passed_parameters(&mut out.findings, &mut contributions, opts, &disk);
    // Freed on the workers that built them (on this thread alone, their
    // frees were a seventh of `validate`'s one-thread part).
    {
        use rayon::prelude::*;
        contributions.into_par_iter().for_each(drop);
    }
    if !opts.environments.is_empty() {
        let composed = compose_check::composition(
            &opts.environments,
            &templates,
            &checked,
            load,
            opts.max_nested_depth,
        );
        merge_composed(&mut out.findings, composed, opts);
    }
    out.findings = crate::diag::dedup(out.findings);
    load.overlay.name_origins(&mut out.findings);
    if opts.inline_suppressions {
        out.suppressed = suppress::apply(&mut out.findings, directives, opts);
    }
    out
}

/// Takes off the unused-parameter findings (W2003) of parameters that a
/// parent template or an environment passes: every file's contributions,
/// with the environments' own.
fn drop_passed_parameters(
    findings: &mut Vec<Diagnostic>,
    contributions: &mut Vec<Contribution>,
    opts: &ValidateOptions,
    disk: &crate::vfs::Disk,
) {
    // With `-e`, E2008 of a parameter the composition passes becomes a
    // note (I7016): Heat refuses the file only when validated alone.
    let composed = !opts.environments.is_empty();
    let wanted = |d: &Diagnostic| {
        d.code == UNUSED_PARAMETER || (composed && d.code == VALUE_MISSING_AT_VALIDATE)
    };
    if !findings.iter().any(wanted) {
        return;
    }
    let load = &opts.load;
    let sources: Vec<walk::Source> = opts
        .environments
        .iter()
        .map(|p| walk::Source::new(p.clone(), walk::display(p), true))
        .collect();
    // `parameter_defaults` reach every stack of the composition.
    let mut defaults: HashSet<String> = HashSet::new();
    for (c, names) in load::load_all(&sources, load, |l| {
        let record = FileRecord::from_loaded(l, false);
        let names: Vec<String> = record
            .environment()
            .map(|e| e.parameter_defaults.keys().cloned().collect())
            .unwrap_or_default();
        (Contribution::of(&record), names)
    }) {
        contributions.push(c);
        defaults.extend(names);
    }
    let interface = Interface::new(contributions, &load.remap, disk);
    // The files of those findings, each once.
    let files: Vec<&str> = {
        use rayon::prelude::*;
        super::interface::distinct(
            findings
                .par_iter()
                .filter(|d| wanted(d))
                .map(|d| d.file.as_str()),
        )
        .into_iter()
        .collect()
    };
    let ids = identities(&files, disk);
    // Which to keep, decided in parallel (one lookup each of 100,000
    // findings was a sixth of the one-thread part), then kept in place.
    let keep: Vec<bool> = {
        use rayon::prelude::*;
        findings
            .par_iter()
            .map(|d| {
                d.code != UNUSED_PARAMETER
                    || !d
                        .key_path
                        .get(1)
                        .is_some_and(|name| interface.passes(&ids[&d.file], name))
            })
            .collect()
    };
    let mut keep = keep.into_iter();
    findings.retain(|_| keep.next().unwrap_or(true));
    if !composed {
        return;
    }
    for d in findings.iter_mut() {
        if d.code != VALUE_MISSING_AT_VALIDATE {
            continue;
        }
        let Some(name) = crate::validate::hot::missing_value::parameter_of(d) else {
            continue;
        };
        if defaults.contains(name) || interface.passes(&ids[&d.file], name) {
            d.message = format!(
                "the composition passes `{name}`: Heat refuses this file only when it is validated alone (`openstack orchestration template validate -t FILE`): {}",
                d.message
            );
            d.code = codes::VALUE_MISSING_WHEN_ALONE;
            d.severity = d.code.severity();
        }
    }
}

/// E2008 (`validate::hot::missing_value`).
const VALUE_MISSING_AT_VALIDATE: Code = Code("E2008");

/// Under the ONAP profile, every error found across the package's files
/// (a template-path type's properties, the composition) counts against
/// R-92635 and says so, as the errors found in one file do
/// (`validate::check_package`).
fn count_against_compliance(found: &mut [Diagnostic], profile: Profile) {
    if profile != Profile::Onap {
        return;
    }
    for d in found {
        if d.severity == Severity::Error && d.requirements.is_empty() {
            d.requirements = vec![crate::validate::onap::OPENSTACK_COMPLIANCE];
        }
    }
}

/// Adds the composition's findings (`-e`) to those of the files: the
/// selected ones, each problem once.
fn merge_composed(
    findings: &mut Vec<Diagnostic>,
    mut composed: Vec<Diagnostic>,
    opts: &ValidateOptions,
) {
    composed.retain(|d| opts.selection.includes(d.code));
    // A template checked on its own already says it has too many
    // resources (E3018, at its `resources` key).
    composed.retain(|c| {
        c.code != codes::TOO_MANY_RESOURCES
            || !findings
                .iter()
                .any(|d| d.code == TOO_MANY_RESOURCES_IN_TEMPLATE && d.file == c.file)
    });
    // A reference the composition reports (in its words: `maps to`)
    // is not reported twice.
    {
        let reported = Reported::of(&composed);
        findings.retain(|d| !reported.covers(d));
    }
    count_against_compliance(&mut composed, opts.profile);
    findings.extend(composed);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(code: Code, file: &str, line: u32, message: &str) -> Diagnostic {
        Diagnostic::new(code, file, message).at(Span::point(line, 1))
    }

    /// One pass counts each severity as a pass for each would.
    #[test]
    fn the_counts_are_those_of_each_severity() {
        let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
        let mut opts = ValidateOptions::new(vec![fixtures], Profile::Hot);
        opts.walk = opts.walk.recursive();
        let validated = validate(&opts);
        let counts = validated.counts();
        assert_eq!(
            counts,
            [
                validated.count(Severity::Error),
                validated.count(Severity::Warning),
                validated.count(Severity::Info),
            ]
        );
        assert!(counts.iter().all(|&n| n > 0), "{counts:?}");
    }

    #[test]
    fn the_composition_covers_the_same_place_or_the_same_missing_target() {
        let composed = vec![
            at(
                codes::MISSING_TEMPLATE,
                "a.yaml",
                9,
                "resource `r` (`T`) maps to `x.yaml`: no such file",
            ),
            at(codes::UNKNOWN_PROPERTY, "a.yaml", 4, "other words"),
        ];
        let reported = Reported::of(&composed);
        // The same code, file and place.
        assert!(reported.covers(&at(codes::UNKNOWN_PROPERTY, "a.yaml", 4, "m")));
        // Elsewhere in the file, or another file, or another code.
        assert!(!reported.covers(&at(codes::UNKNOWN_PROPERTY, "a.yaml", 5, "m")));
        assert!(!reported.covers(&at(codes::UNKNOWN_PROPERTY, "b.yaml", 4, "m")));
        assert!(!reported.covers(&at(codes::MISSING_FILE, "a.yaml", 4, "m")));
        // An unreadable template named in backticks anywhere in the
        // composition's message, at another place.
        let missing = |t: &str| {
            at(
                codes::MISSING_TEMPLATE,
                "a.yaml",
                3,
                &format!("`{t}` cannot be read"),
            )
        };
        assert!(reported.covers(&missing("x.yaml")));
        assert!(reported.covers(&missing("T")));
        // Not a text outside backticks, nor part of a quoted name.
        assert!(!reported.covers(&missing("maps to")));
        assert!(!reported.covers(&missing(": no such file")));
        assert!(!reported.covers(&missing("x")));
        // Only unreadable templates and files are matched by name.
        assert!(!reported.covers(&at(codes::UNKNOWN_PROPERTY, "a.yaml", 3, "`x.yaml`")));
    }
}
