//! `validate`'s inline suppressions (`# heatcap: ignore[CODE, ...]`,
//! `# heatcap: ignore-file[CODE, ...]`; `load::suppress` reads them): the
//! findings they cover are dropped, whichever stage reported them, and in
//! the files checked, a directive that suppressed nothing (W0018) or cannot
//! be read (W0019) is reported.
//!
//! The comments of a file that was not checked but has findings (an
//! environment given with `-e`, a nested template outside the paths) are
//! read when its first finding is met; such a file's unused or broken
//! directives are not reported, since not every rule ran on it.

use std::collections::HashMap;
use std::path::PathBuf;

use super::compose_check::identity;
use super::validate::ValidateOptions;
use crate::diag::{codes, Code, Diagnostic, Span};
use crate::load;
use crate::load::suppress::{Directive, Scope};
use crate::validate::Profile;
use crate::walk::{path_of, Source};

/// One file's directives and what each of their codes suppressed.
struct FileDirectives {
    display: String,
    directives: Vec<Directive>,
    /// Per directive, per code: it suppressed a finding.
    used: Vec<Vec<bool>>,
    /// Among the files checked (its directives are reported on).
    checked: bool,
}

impl FileDirectives {
    fn new(display: String, directives: Vec<Directive>, checked: bool) -> FileDirectives {
        let used = directives
            .iter()
            .map(|d| vec![false; d.codes.len()])
            .collect();
        FileDirectives {
            display,
            directives,
            used,
            checked,
        }
    }
}

struct Suppressions<'a> {
    opts: &'a ValidateOptions,
    /// Every code of the catalogue.
    known: HashMap<&'static str, Code>,
    files: Vec<FileDirectives>,
    /// A finding's file name → its directives, once looked up.
    by_name: foldhash::HashMap<String, Option<usize>>,
    /// The names of the files checked.
    checked: foldhash::HashSet<String>,
    /// Real paths of the files with directives, built on first need.
    identities: Option<HashMap<PathBuf, usize>>,
    /// The last name looked up and its answer: a file's findings come
    /// together, so most lookups are this one's.
    last: Option<(String, Option<usize>)>,
}

/// Drops the findings the `# heatcap:` comments suppress and reports, for
/// the files checked (`checked`: name and directives, in walk order),
/// the directives that suppressed nothing or cannot be read. Returns how
/// many findings were suppressed.
pub(super) fn apply(
    findings: &mut Vec<Diagnostic>,
    checked: Vec<(String, Vec<Directive>)>,
    opts: &ValidateOptions,
) -> usize {
    let mut s = Suppressions {
        opts,
        known: crate::validate::registry::catalogue()
            .into_iter()
            .map(|c| (c.code.0, c.code))
            .collect(),
        files: Vec::new(),
        by_name: foldhash::HashMap::default(),
        checked: foldhash::HashSet::default(),
        identities: None,
        last: None,
    };
    for (name, directives) in checked {
        s.checked.insert(name.clone());
        if !directives.is_empty() {
            s.by_name.insert(name.clone(), Some(s.files.len()));
            s.files.push(FileDirectives::new(name, directives, true));
        }
    }
    let before = findings.len();
    // Only a finding of a file with directives, or of a file not checked
    // under its name, can be suppressed: which those are is decided on
    // the workers (a lookup each of 470,000 findings was a tenth of
    // `validate`'s main-thread work), the rest asked here, in order.
    let maybe: Vec<bool> = {
        use rayon::prelude::*;
        let (checked, by_name) = (&s.checked, &s.by_name);
        findings
            .par_iter()
            .with_min_len(1024)
            .map(|d| !checked.contains(&d.file) || by_name.contains_key(&d.file))
            .collect()
    };
    let mut maybe = maybe.into_iter();
    findings.retain(|d| !(maybe.next().unwrap_or(true) && s.suppresses(d)));
    let mut reports = s.reports();
    reports.retain(|d| opts.selection.includes(d.code));
    let reported = reports.len();
    reports.retain(|d| !s.suppresses(d));
    let suppressed = before - findings.len() + reported - reports.len();
    findings.extend(reports);
    suppressed
}

impl Suppressions<'_> {
    /// True when a directive of the finding's file covers it (each such
    /// directive's code is marked used).
    fn suppresses(&mut self, d: &Diagnostic) -> bool {
        let Some(i) = self.index_of(&d.file) else {
            return false;
        };
        let file = &mut self.files[i];
        let line = d.span.map(|s| s.start.line);
        let mut hit = false;
        for (directive, used) in file.directives.iter().zip(&mut file.used) {
            let covers = match directive.scope {
                Scope::File => true,
                Scope::Line(l) => line == Some(l),
            };
            if !covers {
                continue;
            }
            for (code, used) in directive.codes.iter().zip(used.iter_mut()) {
                if code == d.code.0 {
                    *used = true;
                    hit = true;
                }
            }
        }
        hit
    }

    /// The directives of the file a finding names, read when first needed.
    fn index_of(&mut self, name: &str) -> Option<usize> {
        if let Some((last, found)) = &self.last {
            if last == name {
                return *found;
            }
        }
        let found = if let Some(&found) = self.by_name.get(name) {
            found
        } else if self.checked.contains(name) {
            // Checked, without directives (those with are in `by_name`).
            None
        } else {
            let found = self.unchecked(name);
            self.by_name.insert(name.to_owned(), found);
            found
        };
        match &mut self.last {
            Some((last, answer)) => {
                last.clear();
                last.push_str(name);
                *answer = found;
            }
            None => self.last = Some((name.to_owned(), found)),
        }
        found
    }

    /// A file not checked under this name: a checked one under another
    /// name (same real path), or one read now for its comments.
    fn unchecked(&mut self, name: &str) -> Option<usize> {
        let files = &self.files;
        let identities = self.identities.get_or_insert_with(|| {
            files
                .iter()
                .enumerate()
                .map(|(i, f)| (identity(&f.display, &self.opts.load.overlay), i))
                .collect()
        });
        let id = identity(name, &self.opts.load.overlay);
        if let Some(&i) = identities.get(&id) {
            return Some(i);
        }
        let source = Source::new(path_of(name), name.to_owned(), true);
        let directives = load::load_one(&source, &self.opts.load).directives;
        if directives.is_empty() {
            return None;
        }
        let i = self.files.len();
        identities.insert(id, i);
        self.files
            .push(FileDirectives::new(name.to_owned(), directives, false));
        Some(i)
    }

    /// Whether this run could have reported `code`: selected, its rule set
    /// run (ONAP's with `--profile onap`), and for what only composing
    /// finds (W6001, W6002, 7xxx), environments given.
    fn could_report(&self, code: Code) -> bool {
        let area = code.0.as_bytes()[1];
        let composing = area == b'7' || code.0 == "W6001" || code.0 == "W6002";
        self.opts.selection.includes(code)
            && (area != b'8' || self.opts.profile == Profile::Onap)
            && (!composing || !self.opts.environments.is_empty())
    }

    /// W0019 for each directive problem and unknown code, W0018 for each
    /// directive whose codes (those this run could report) suppressed
    /// nothing; files checked only, in order.
    fn reports(&self) -> Vec<Diagnostic> {
        let mut out = Vec::new();
        for file in self.files.iter().filter(|f| f.checked) {
            for (directive, used) in file.directives.iter().zip(&file.used) {
                let at = Span::point(directive.at.line, directive.at.column);
                let report = |code: Code, message: String| {
                    Diagnostic::new(code, file.display.clone(), message).at(at)
                };
                for problem in &directive.problems {
                    out.push(report(
                        codes::INVALID_SUPPRESSION,
                        format!("invalid suppression: {problem}"),
                    ));
                }
                let mut unused = Vec::new();
                for (code, used) in directive.codes.iter().zip(used) {
                    match self.known.get(code.as_str()) {
                        None => out.push(report(
                            codes::INVALID_SUPPRESSION,
                            format!("unknown code `{code}` in suppression (`heatcap rules` lists the codes)"),
                        )),
                        Some(&c)
                            if !used
                                && self.could_report(c)
                                && c != codes::UNUSED_SUPPRESSION
                                && c != codes::INVALID_SUPPRESSION =>
                        {
                            unused.push(format!("`{code}`"));
                        }
                        Some(_) => {}
                    }
                }
                if !unused.is_empty() {
                    let place = match directive.scope {
                        Scope::Line(l) => format!("on line {l}"),
                        Scope::File => "in this file".to_owned(),
                    };
                    out.push(report(
                        codes::UNUSED_SUPPRESSION,
                        format!(
                            "unused suppression of {}: no such finding {place}",
                            unused.join(", ")
                        ),
                    ));
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::super::validate::validate;
    use super::*;
    use crate::validate::Selection;

    /// `validate` on one file holding `text`: each finding as `line CODE`.
    fn run(text: &str, edit: impl FnOnce(&mut ValidateOptions)) -> (Vec<String>, usize) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.yaml");
        std::fs::write(&path, text).unwrap();
        let mut opts = ValidateOptions::new(vec![path], Profile::Hot);
        edit(&mut opts);
        let v = validate(&opts);
        let found = v
            .findings
            .iter()
            .map(|d| format!("{} {}", d.span.map_or(0, |s| s.start.line), d.code))
            .collect();
        (found, v.suppressed)
    }

    const TEMPLATE: &str = "heat_template_version: 2018-08-31\nparameters:\n  p: {type: string}  # heatcap: ignore[W2003]\n  q: {type: string}\n";

    #[test]
    fn a_directive_suppresses_its_line_only() {
        assert_eq!(run(TEMPLATE, |_| {}), (vec!["4 W2003".to_owned()], 1));
        // Switched off, every finding is back and nothing is said about the comment.
        assert_eq!(
            run(TEMPLATE, |o| o.inline_suppressions = false),
            (vec!["3 W2003".to_owned(), "4 W2003".to_owned()], 0)
        );
    }

    #[test]
    fn codes_the_run_leaves_out_are_not_called_unused() {
        let text = "heat_template_version: 2018-08-31\n# heatcap: ignore-file[W2003, E3004, E8005, E7004]\n";
        assert_eq!(run(text, |_| {}), (vec!["2 W0018".to_owned()], 0));
        // With W2003 and E3004 not selected, nothing is left to call unused.
        let none = run(text, |o| {
            o.selection = Selection::new(Vec::new(), vec!["W2".into(), "E3".into()]);
        });
        assert_eq!(none, (vec![], 0));
    }

    #[test]
    fn reports_about_suppressions_can_be_suppressed_and_ignored() {
        let text = "# heatcap: ignore-file[W0019]\nheat_template_version: 2018-08-31\nresources: {}  # heatcap: ignore[E9999]\n";
        assert_eq!(run(text, |_| {}), (vec![], 1));
        let text = "heat_template_version: 2018-08-31\nresources: {}  # heatcap: ignore[E9999]\n";
        assert_eq!(run(text, |_| {}), (vec!["2 W0019".to_owned()], 0));
        let ignored = run(text, |o| {
            o.selection = Selection::new(Vec::new(), vec!["W0019".into()]);
        });
        assert_eq!(ignored, (vec![], 0));
    }

    #[test]
    fn a_load_error_is_suppressed_by_a_file_directive() {
        let text = "# heatcap: ignore-file[E0004] a fixture that must stay broken\nheat_template_version: 2018-08-31\nresources: [\n";
        assert_eq!(run(text, |_| {}), (vec![], 1));
    }
}
