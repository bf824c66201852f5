//! A mutation fuzzer on stable Rust for heatcap's loader, its
//! environment/registry/composition pipeline, and every `validate` rule on
//! one file (`rules`: Heat's plugin schemas and custom constraints too):
//!
//! ```text
//! cargo run --release --example fuzz -- [--execs N] [--seed S] [--target loader|yaml2|pipeline|rules|all] [SEED_DIR...]
//! ```
//!
//! Seeds are every `.yaml`/`.json`/`.env` file under the given directories
//! (default `fixtures/`). Each execution takes a seed (or a previous
//! mutant), applies a few mutations (byte flips, insertions of YAML
//! syntax, deletions, duplications, splices with another seed), and runs
//! the target on it; a panic is a finding, saved under `fuzz-findings/`.
//! Inputs that reach new diagnostic codes or output sizes are kept as
//! seeds (a coarse coverage signal). Runs on all cores (rayon); prints the
//! executions, inputs kept and findings.
// A harness prints its report; that is its purpose.
#![allow(
    clippy::print_stdout,
    clippy::print_stderr,
    clippy::cast_precision_loss
)]

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use rayon::prelude::*;

/// xorshift64*.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        usize::try_from(self.next() % (n.max(1) as u64)).unwrap_or(0)
    }
}

/// Snippets of YAML and Heat syntax worth inserting.
const TOKENS: &[&str] = &[
    "{",
    "}",
    "[",
    "]",
    ": ",
    "- ",
    "\n",
    "\n  ",
    "&a ",
    "*a",
    "<<: *a\n",
    "!!str ",
    "!!binary ",
    "!foo ",
    "? ",
    "|\n",
    ">-\n",
    "'",
    "\"",
    "#",
    "~",
    "null",
    "yes",
    "0x1F",
    "1e3",
    ".inf",
    "2015-10-15",
    "{get_param: x}",
    "{get_attr: [a, b]}",
    "{get_resource: a}",
    "{str_replace: {template: a, params: {a: b}}}",
    "{list_join: [',', [a, b]]}",
    "{repeat: {for_each: {x: [1, 2]}, template: x}}",
    "{if: [c, a, b]}",
    "{yaql: {expression: $.data, data: 1}}",
    "{get_file: x.yaml}",
    "{map_merge: [{a: 1}, {b: 2}]}",
    "type: OS::Heat::ResourceGroup\n",
    "type: OS::Heat::ResourceChain\n",
    "resource_def: {type: x.yaml}\n",
    "resources: {get_param: Services}\n",
    "condition: c\n",
    "OS::X::*: OS::Y::*\n",
    "OS::A: [a.yaml, b.yaml]\n",
    "requires: {deployment: puppet}\n",
    "resource_registry:\n  ",
    "parameter_defaults:\n  ",
    "conditions:\n  c: true\n",
    "heat_template_version: 2016-10-14\n",
    "heat_template_version: wallaby\n",
    "\u{feff}",
    "\t",
    "\r\n",
    "\u{0}",
];

fn mutate(rng: &mut Rng, input: &[u8], seeds: &[Vec<u8>]) -> Vec<u8> {
    let mut out = input.to_vec();
    for _ in 0..=rng.below(4) {
        let at = rng.below(out.len() + 1);
        match rng.below(7) {
            0 if !out.is_empty() => {
                let i = rng.below(out.len());
                out[i] ^= 1 << rng.below(8);
            }
            1 | 2 => {
                let t = TOKENS[rng.below(TOKENS.len())].as_bytes();
                out.splice(at..at, t.iter().copied());
            }
            3 if !out.is_empty() => {
                let end = (at + rng.below(32)).min(out.len());
                out.drain(at.min(end)..end);
            }
            4 if !out.is_empty() => {
                let start = rng.below(out.len());
                let end = (start + rng.below(64)).min(out.len());
                let chunk: Vec<u8> = out[start..end].to_vec();
                out.splice(at..at, chunk);
            }
            5 => {
                let other = &seeds[rng.below(seeds.len())];
                if !other.is_empty() {
                    let start = rng.below(other.len());
                    let end = (start + rng.below(256)).min(other.len());
                    out.splice(at..at, other[start..end].iter().copied());
                }
            }
            _ => {
                // Repeat a line: deep and wide structures.
                let line_end = out[at.min(out.len())..]
                    .iter()
                    .position(|b| *b == b'\n')
                    .map_or(out.len(), |p| at + p);
                let chunk: Vec<u8> = out[at.min(line_end)..line_end].to_vec();
                for _ in 0..rng.below(8) {
                    out.splice(at..at, chunk.iter().copied());
                }
            }
        }
    }
    out.truncate(64 * 1024);
    out
}

fn seeds_in(dir: &Path, out: &mut Vec<Vec<u8>>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for p in paths {
        if p.is_dir() {
            seeds_in(&p, out);
        } else if p
            .extension()
            .is_some_and(|e| e == "yaml" || e == "json" || e == "env")
        {
            if let Ok(b) = std::fs::read(&p) {
                if b.len() < 64 * 1024 {
                    out.push(b);
                }
            }
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut execs: usize = 1_000_000;
    let mut seed: u64 = 0x5EED;
    let mut target = "all".to_owned();
    let mut dirs: Vec<PathBuf> = Vec::new();
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--execs" => {
                execs = args[i + 1].parse().expect("--execs N");
                i += 1;
            }
            "--seed" => {
                seed = args[i + 1].parse().expect("--seed S");
                i += 1;
            }
            "--target" => {
                target.clone_from(&args[i + 1]);
                i += 1;
            }
            d => dirs.push(PathBuf::from(d)),
        }
        i += 1;
    }
    if dirs.is_empty() {
        dirs.push(PathBuf::from("fixtures"));
    }
    let mut seeds = Vec::new();
    for d in &dirs {
        seeds_in(d, &mut seeds);
    }
    assert!(!seeds.is_empty(), "no seeds");
    println!(
        "{} seeds from {dirs:?}; {execs} executions; target {target}",
        seeds.len()
    );
    // A panic is a finding, not the end of the run.
    std::panic::set_hook(Box::new(|_| {}));
    let corpus = Mutex::new(seeds);
    let signals: Mutex<HashSet<(usize, usize)>> = Mutex::new(HashSet::new());
    let findings = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let start = Instant::now();
    let batch = 10_000;
    (0..execs.div_ceil(batch)).into_par_iter().for_each(|b| {
        let mut rng = Rng(seed ^ (b as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let snapshot: Vec<Vec<u8>> = corpus.lock().unwrap().clone();
        let n = batch.min(execs - b * batch);
        for _ in 0..n {
            let base = &snapshot[rng.below(snapshot.len())];
            let input = mutate(&mut rng, base, &snapshot);
            let which = match target.as_str() {
                "loader" => 0,
                "pipeline" => 1,
                "rules" => 2,
                "yaml2" => 3,
                _ => rng.below(4),
            };
            let result = std::panic::catch_unwind(|| match which {
                0 => heatcap::fuzzing::loader(&input),
                1 => heatcap::fuzzing::environment_pipeline(&input),
                2 => heatcap::fuzzing::rules(&input),
                _ => heatcap::fuzzing::second_stage(&input),
            });
            if let Ok(size) = result {
                let signal = (which, size.min(64));
                if signals.lock().unwrap().insert(signal) {
                    corpus.lock().unwrap().push(input);
                }
            } else {
                let k = findings.fetch_add(1, Ordering::Relaxed);
                let _ = std::fs::create_dir_all("fuzz-findings");
                let _ = std::fs::write(format!("fuzz-findings/crash-{k}.yaml"), &input);
            }
        }
        let total = done.fetch_add(n, Ordering::Relaxed) + n;
        if total % 1_000_000 < n {
            eprintln!(
                "{total} executions, {:.0}/s",
                total as f64 / start.elapsed().as_secs_f64()
            );
        }
    });
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{} executions in {secs:.0} s ({:.0}/s); {} inputs kept; {} findings (saved in fuzz-findings/)",
        done.load(Ordering::Relaxed),
        done.load(Ordering::Relaxed) as f64 / secs,
        corpus.lock().unwrap().len(),
        findings.load(Ordering::Relaxed)
    );
}
