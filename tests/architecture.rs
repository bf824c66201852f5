//! The pipeline order written in `src/lib.rs` is true: a module uses only
//! stages before it (`crate::x` paths, comments left out), and stages side
//! by side (index, resolve, validate; product, query) never use each other.
//! Unit tests (`#[cfg(test)]` modules, at the end of a file) may use any
//! stage to build their inputs.

use std::fs;
use std::path::Path;

/// Each top-level module with its rank; a module may use only lower ranks.
const STAGES: &[(&str, u32)] = &[
    ("diag", 0),
    ("error", 1),
    ("node", 1),
    ("encode", 2),
    ("heat_schema", 2),
    // Virtual files read instead of the disk (rendered outputs, buffers).
    ("vfs", 2),
    ("walk", 3),
    ("load", 4),
    // A git revision's tree read into the file overlay (beside load).
    ("git", 4),
    ("model", 5),
    // TripleO's Jinja sources rendered in memory (beside model).
    ("render", 5),
    ("eval", 6),
    ("index", 7),
    ("resolve", 7),
    ("validate", 7),
    ("product", 8),
    ("query", 8),
    ("workspace", 9),
    ("report", 10),
    // The HTTP service: an adapter beside the command line, which starts it.
    ("serve", 11),
    // The language server: an adapter beside the HTTP service.
    ("lsp", 11),
    ("cli", 12),
    // The fuzz harness's entry points drive the stages from outside.
    ("fuzzing", 13),
];

fn rank(module: &str) -> Option<u32> {
    STAGES.iter().find(|(m, _)| *m == module).map(|(_, r)| *r)
}

/// Every `crate::x` a file's code (not its comments) uses.
fn uses(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in text.lines() {
        if line.trim_start().starts_with("#[cfg(test)]") {
            break;
        }
        let code = line.split("//").next().unwrap_or("");
        for part in code.split("crate::").skip(1) {
            let name: String = part
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() {
                out.push(name);
            }
        }
    }
    out
}

fn files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for e in fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

#[test]
fn no_module_uses_a_later_stage() {
    let mut all = Vec::new();
    files(Path::new("src"), &mut all);
    let mut violations = Vec::new();
    let mut checked = 0;
    for path in all {
        let rel = path.strip_prefix("src").unwrap();
        let first = rel
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy();
        let module = first.trim_end_matches(".rs").to_owned();
        let Some(own) = rank(&module) else {
            // lib.rs and main.rs are the crate root and the binary.
            assert!(
                matches!(module.as_str(), "lib" | "main"),
                "{}: a module with no place in the pipeline",
                path.display()
            );
            continue;
        };
        checked += 1;
        for used in uses(&fs::read_to_string(&path).unwrap()) {
            if used == module {
                continue;
            }
            match rank(&used) {
                Some(r) if r < own => {}
                // Crate-root items (the façade's free functions).
                None if matches!(used.as_str(), "catalogue" | "rules" | "Workspace") => {
                    assert!(
                        own >= rank("workspace").unwrap(),
                        "{}: uses crate::{used}",
                        path.display()
                    );
                }
                _ => violations.push(format!("{} ({module}) uses crate::{used}", path.display())),
            }
        }
    }
    assert!(checked > 100, "only {checked} files");
    assert!(violations.is_empty(), "{violations:#?}");
}

/// Issue 22: `cargo test` passes on any fresh clone, so no test, bench or
/// example names a path outside the repository in a string: the shared
/// folder beside the checkout is there only in CI and here, never in
/// someone else's clone.
#[test]
fn nothing_reads_outside_the_repository() {
    let mut all = Vec::new();
    for dir in ["tests", "benches", "examples", "src"] {
        files(Path::new(dir), &mut all);
    }
    let outside: Vec<String> = all
        .iter()
        .filter(|p| fs::read_to_string(p).is_ok_and(|t| t.contains(concat!("\"..", "/shared"))))
        .map(|p| p.display().to_string())
        .collect();
    assert!(
        outside.is_empty(),
        "these read outside the repository: {outside:?}"
    );
}

/// What a file's rendered outputs, a request's files or an editor's
/// buffers are belongs to one workspace (`LoadOptions::overlay`), never to
/// the process: `heatcap serve` answers many roots in one process, and a
/// language server mounts each workspace's buffers. So the modules that
/// read files, render trees and hold the overlay declare no mutable
/// process-wide state (a `static` lock, cell or atomic, a thread-local).
#[test]
fn no_process_wide_file_overlay() {
    let mut all = Vec::new();
    for dir in ["src/render", "src/load"] {
        files(Path::new(dir), &mut all);
    }
    all.extend(
        [
            "src/vfs.rs",
            "src/walk.rs",
            "src/workspace/rendered.rs",
            "src/workspace/mod.rs",
        ]
        .map(std::path::PathBuf::from),
    );
    let mutable = [
        "Mutex", "RwLock", "Atomic", "OnceLock", "OnceCell", "LazyLock", "Cell<", "RefCell",
    ];
    let mut found = Vec::new();
    for p in &all {
        let text = fs::read_to_string(p).unwrap();
        for (n, line) in text.lines().enumerate() {
            if line.trim_start().starts_with("#[cfg(test)]") {
                break;
            }
            let code = line.split("//").next().unwrap_or("");
            let is_static = code.trim_start().starts_with("static ")
                || code.contains(" static ")
                    && !code.contains("&'static")
                    && !code.contains("'static ");
            if code.contains("thread_local!")
                || is_static && mutable.iter().any(|m| code.contains(m))
            {
                found.push(format!("{}:{}: {}", p.display(), n + 1, line.trim()));
            }
        }
    }
    assert!(all.len() > 10, "the modules were not found: {all:?}");
    assert!(
        found.is_empty(),
        "process-wide mutable state where files are read and rendered: {found:?}"
    );
}
