//! `validate`: the files walked, loaded in parallel, each checked by the
//! selected rules in the worker (its tree dropped right after); under the
//! ONAP profile each directory checked as one package; with environments,
//! the composition of every template checked.

use std::collections::BTreeMap;
use std::path::PathBuf;

use super::interface::{Contribution, Interface};
use super::{compose_check, packages, suppress};
use crate::diag::{codes, Diagnostic, Severity};
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
            let Ok(bytes) = walk::read_regular(&walk::path_of(file)) else {
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

/// The walk, after the TripleO trees the paths are in are rendered and
/// mounted (their rendering's diagnostics first).
fn walk_rendered(opts: &ValidateOptions) -> walk::Walked {
    let rendered = super::rendered::mount_trees(
        opts.walk
            .roots
            .iter()
            .chain(&opts.environments)
            .map(PathBuf::as_path),
        &opts.load.render,
    );
    let mut walked = walk::walk(&opts.walk);
    walked.diagnostics.splice(0..0, rendered);
    walked
}

/// Runs `validate`.
pub fn validate(opts: &ValidateOptions) -> Validated {
    let walked = walk_rendered(opts);
    let selection = &opts.selection;
    let mapped = mapped_types(&opts.environments, &opts.load);
    let per_file: Vec<Checked> = match opts.profile {
        Profile::Hot => load::load_all(&walked.sources, &opts.load, |l| {
            let record = FileRecord::from_loaded(l, true);
            let mut found: Vec<Diagnostic> = record.diagnostics.clone();
            found.extend(check_file(&record, selection, &opts.load.remap, &mapped));
            found.extend(super::references::unreadable(&record, &opts.load.remap));
            found.retain(|d| selection.includes(d.code));
            Checked::new(&record, found)
        }),
        Profile::Onap => packages::by_package(&walked.sources, &opts.load, selection),
    };
    let mut out = Validated {
        files: per_file.len(),
        modules: Vec::new(),
        findings: walked.diagnostics,
        suppressed: 0,
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
        out.findings.extend(c.found);
        contributions.push(c.contribution);
    }
    // Template-path types against their templates' parameters: names
    // (E7007, which the composition reports with `-e`) and literal values
    // (E7015).
    let names = opts.environments.is_empty() && selection.includes(codes::UNKNOWN_PROPERTY);
    let values = selection.includes(codes::INVALID_PROVIDER_PROPERTY);
    if names || values {
        out.findings.extend(
            super::interface::path_type_properties(&contributions, &opts.load)
                .into_iter()
                .filter(|d| {
                    if d.code == codes::UNKNOWN_PROPERTY {
                        names
                    } else {
                        values
                    }
                }),
        );
    }
    if out.findings.iter().any(|d| d.code == UNUSED_PARAMETER) {
        let sources: Vec<walk::Source> = opts
            .environments
            .iter()
            .map(|p| walk::Source::new(p.clone(), walk::display(p), true))
            .collect();
        contributions.extend(load::load_all(&sources, &opts.load, |l| {
            Contribution::of(&FileRecord::from_loaded(l, false))
        }));
        let interface = Interface::new(&contributions, &opts.load.remap);
        out.findings.retain(|d| {
            d.code != UNUSED_PARAMETER
                || !d
                    .key_path
                    .get(1)
                    .is_some_and(|name| interface.passes(&d.file, name))
        });
    }
    if !opts.environments.is_empty() {
        let mut composed = compose_check::composition(
            &opts.environments,
            &templates,
            &checked,
            &opts.load,
            opts.max_nested_depth,
        );
        composed.retain(|d| selection.includes(d.code));
        // A reference the composition reports (in its words: `maps to`)
        // is not reported twice.
        out.findings.retain(|d| {
            let target = matches!(d.code, codes::MISSING_TEMPLATE | codes::MISSING_FILE)
                .then(|| d.message.split('`').nth(1))
                .flatten();
            !composed.iter().any(|c| {
                c.code == d.code
                    && c.file == d.file
                    && (c.span == d.span
                        || target.is_some_and(|t| c.message.contains(&format!("`{t}`"))))
            })
        });
        out.findings.extend(composed);
    }
    out.findings = crate::diag::dedup(out.findings);
    crate::vfs::name_origins(&mut out.findings);
    if opts.inline_suppressions {
        out.suppressed = suppress::apply(&mut out.findings, directives, opts);
    }
    out
}
