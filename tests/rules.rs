//! Every rule: each `fixtures/rules/<CODE>/good*` gives no finding of that
//! code, and each `bad*` gives exactly the positions its
//! `# expect: <CODE>:<COLUMN> ...` markers name, on the marker's line (the
//! rule run alone, through the library's `validate`). A fixture is a file,
//! or a directory checked as one package (the ONAP rules, 8xxx, run under
//! the ONAP profile). A directory no code names, or an entry that is
//! neither a fixture nor a file one names, fails rather than being skipped.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use heatcap::{validate, Profile, RuleSelection, ValidateOptions};

type Positions = BTreeSet<(String, u32, u32)>;

/// The files of a fixture: the file itself, or a directory's files.
fn members(path: &Path) -> Vec<PathBuf> {
    if !path.is_dir() {
        return vec![path.to_path_buf()];
    }
    let mut files: Vec<PathBuf> = fs::read_dir(path)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    files
}

/// Where the rule `code`, run alone, finds something in the fixture.
fn findings(path: &Path, code: &str) -> Positions {
    let profile = if code[1..].starts_with('8') {
        Profile::Onap
    } else {
        Profile::Hot
    };
    let mut opts = ValidateOptions::new(vec![path.to_path_buf()], profile);
    opts.selection = RuleSelection::new(vec![code.to_owned()], Vec::new());
    validate(&opts)
        .findings
        .into_iter()
        .filter(|d| d.code.0 == code)
        .map(|d| {
            let (line, col) = d.span.map_or((0, 0), |s| (s.start.line, s.start.column));
            (d.file, line, col)
        })
        .collect()
}

/// The positions the `# expect: CODE:COL CODE:COL` markers name.
fn expected(path: &Path, code: &str) -> Positions {
    members(path)
        .iter()
        .flat_map(|p| expected_in(p, code))
        .collect()
}

fn expected_in(path: &Path, code: &str) -> Positions {
    let mut want = BTreeSet::new();
    for (i, l) in fs::read_to_string(path).unwrap().lines().enumerate() {
        let Some((_, marks)) = l.split_once("# expect: ") else {
            continue;
        };
        let line = u32::try_from(i + 1).unwrap();
        for mark in marks.split_whitespace() {
            let (c, col) = mark.split_once(':').unwrap_or_else(|| {
                panic!("{}:{line}: `{mark}` is not CODE:COLUMN", path.display())
            });
            assert_eq!(
                c,
                code,
                "{}:{line}: marker for another code",
                path.display()
            );
            want.insert((
                path.display().to_string(),
                line,
                col.parse().expect("a column number"),
            ));
        }
    }
    want
}

/// Whether a good* or bad* file of `dir` names the entry `name`.
fn helper_is_named(dir: &Path, name: &str) -> bool {
    fs::read_dir(dir).unwrap().any(|e| {
        let p = e.unwrap().path();
        let own = p.file_name().unwrap().to_string_lossy().into_owned();
        (own.starts_with("good") || own.starts_with("bad"))
            && p.is_file()
            && fs::read_to_string(&p).is_ok_and(|t| t.contains(name))
    })
}

/// Every rule has fixtures, and so do the codes of the catalogue that
/// `validate` reports on one file without being a rule (the problems Heat
/// finds when it loads an environment, E6003–E6006).
#[test]
fn every_rule_has_good_and_bad_fixtures_that_behave() {
    let rules: Vec<&str> = heatcap::rules().iter().map(|m| m.code.0).collect();
    let with_fixtures = heatcap::catalogue().into_iter().filter(|m| {
        rules.contains(&m.code.0) || Path::new("fixtures/rules").join(m.code.0).is_dir()
    });
    let mut checked: Vec<&str> = Vec::new();
    for meta in with_fixtures {
        checked.push(meta.code.0);
        let code = meta.code.0;
        let dir = Path::new("fixtures/rules").join(code);
        let mut entries: Vec<_> = fs::read_dir(&dir)
            .unwrap_or_else(|_| panic!("{code}: no fixtures/rules/{code}/"))
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        let (mut good, mut bad) = (0, 0);
        for path in entries {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let got = findings(&path, code);
            if name.starts_with("good") {
                good += 1;
                assert!(
                    got.is_empty(),
                    "{code} {name}: unexpected findings at (line, column) {got:?}"
                );
            } else if name.starts_with("bad") {
                bad += 1;
                let want = expected(&path, code);
                assert!(
                    !want.is_empty(),
                    "{code} {name}: no `# expect: {code}` line"
                );
                assert_eq!(got, want, "{code} {name}: (line, column) found vs expected");
            } else {
                // Any other entry is a file the fixtures use (a nested
                // template, a registry's target): one of them names it.
                assert!(
                    helper_is_named(&dir, &name),
                    "{code} {name}: neither a fixture (good*, bad*) nor a file one of them names"
                );
            }
        }
        assert!(
            good > 0 && bad > 0,
            "{code}: needs a good and a bad fixture"
        );
    }
    assert!(
        checked.len() >= rules.len() + 3,
        "only {} codes checked",
        checked.len()
    );
    // A directory no code of the catalogue names (a typo, a renumbered
    // rule) would never be checked: it fails instead.
    let mut unknown: Vec<String> = fs::read_dir("fixtures/rules")
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| !checked.contains(&name.as_str()))
        .collect();
    unknown.sort();
    assert!(
        unknown.is_empty(),
        "fixtures/rules/ holds directories of no code in the catalogue: {unknown:?}"
    );
}
