//! heatcap's throughput benchmark: `cargo bench --bench throughput`.
//!
//! Generates a deterministic TripleO-shaped tree in a temp directory (mostly
//! small HOT templates, 10% of them with `capabilities`, environments, and
//! ansible-like YAML noise), then measures, with 1 and 2 threads, median of
//! `HEATCAP_BENCH_RUNS` runs (default 3):
//!
//! - floor: walk + read every file;
//! - bare parse: floor + libyaml events for every file;
//! - index: `heatcap index -r DIR --format json`;
//! - capabilities-find: `heatcap capabilities-find -r -c ... DIR`;
//! - validate: `heatcap validate -r DIR --format json` (every rule), and
//!   with `--profile onap` (each directory loaded and checked as a package);
//! - resolve: `heatcap resolve -t ROOT -e ENV --format json` (loads only the
//!   composition), and the resolution alone on loaded data.
//!
//! Then issue 30's three ratios again, each taken within one repetition
//! (floor, bare parse, `index`, `capabilities-find`, `validate` one after
//! the other; the median of the per-repetition ratios), which a change of
//! the machine's load between the blocks of the first table does not move.
//!
//! Last, issue 27's previews on the rendered end-2018 TripleO deployment
//! (`previews`), when `HEATCAP_THT_RENDERED` names the directory holding
//! `18d77c17/` rendered in place (tests/heat/later/README.md): `preview`
//! and `diff --format heat`, against Heat's offline create and update
//! previews (tools/heat-oracle) run in the same run when
//! `HEATCAP_BENCH_HEAT_VENV` names Heat's venv.
//!
//! With `HEATCAP_BENCH_THT_GIT=/path/to/a/clone/of/tripleo-heat-templates`
//! (tags `queens-eol`, `rocky-eol`), the revisions table: one tripleo
//! revision read from git's objects (`--rev`'s read, in process), and
//! `heatcap diff` of a 2018-style deployment between two raw revisions
//! (two renders, two compositions) on 1 and 2 threads.
//!
//! First, the start-up cost of Heat's resource types (the embedded data,
//! parsed once per run by the commands that use it): median and slowest
//! of 50 parses, and the heap they hold. `HEATCAP_BENCH_SIZES=none` prints
//! only that.
//!
//! Commands are timed as the release binary runs them (`RAYON_NUM_THREADS`),
//! output to /dev/null; their peak heap comes from one in-process run.
//!
//! Peak heap comes from a counting allocator. Sizes: `HEATCAP_BENCH_SIZES`
//! (default `2000,30000`). Prints a Markdown report. With
//! `HEATCAP_BENCH_BASELINE=/path/to/an/older/heatcap`, every command is
//! also timed with that binary, runs interleaved, and a before/after table
//! follows (the same run, so the same machine load).
//!
//! `HEATCAP_BENCH_KEEP=1` keeps each generated tree (its path is printed)
//! for a profiler: `perf record -g target/release/heatcap index -r PATH`.
// The counting allocator is the only unsafe code, and only in this bench.
#![allow(unsafe_code)]
// A benchmark report is printed; that is its purpose. Figures are
// approximate by nature (byte counts as f64).
#![allow(clippy::print_stdout, clippy::cast_precision_loss)]

use std::alloc::{GlobalAlloc, Layout};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicIsize, Ordering};
use std::time::Instant;

use clap::Parser;
use heatcap::cli::{run, Cli};
use heatcap::Workspace;
use rayon::prelude::*;

struct Counting;

/// The heap in use and its peak since the last [`reset_peak`] (signed: a
/// block allocated while counting was off may be freed while it is on).
static CURRENT: AtomicIsize = AtomicIsize::new(0);
static PEAK: AtomicIsize = AtomicIsize::new(0);
/// Whether allocations are counted. The counters are shared by every
/// thread, and their contention slows a parallel run down (the bare parse
/// took twice the CPU on 2 threads as on 1): timed runs turn it off, and
/// the peak heap comes from one more, counted, run.
static COUNTING: AtomicBool = AtomicBool::new(true);

// SAFETY: forwards to mimalloc, the allocator heatcap's binary uses (so
// the in-process baselines allocate as the commands do); only counts
// sizes.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = mimalloc::MiMalloc.alloc(layout);
        if !p.is_null() && COUNTING.load(Ordering::Relaxed) {
            let size = layout.size().cast_signed();
            let now = CURRENT.fetch_add(size, Ordering::Relaxed) + size;
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        mimalloc::MiMalloc.dealloc(ptr, layout);
        if COUNTING.load(Ordering::Relaxed) {
            CURRENT.fetch_sub(layout.size().cast_signed(), Ordering::Relaxed);
        }
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

/// Starts a peak measurement: the heap in use now, which [`peak_since`]
/// subtracts.
fn reset_peak() -> isize {
    let now = CURRENT.load(Ordering::Relaxed);
    PEAK.store(now, Ordering::Relaxed);
    now
}

/// The peak heap since [`reset_peak`] returned `base`, in bytes.
fn peak_since(base: isize) -> usize {
    (PEAK.load(Ordering::Relaxed) - base).max(0).cast_unsigned()
}

/// xorshift64*: a tiny deterministic generator.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

const WORDS: [&str; 12] = [
    "nova",
    "neutron",
    "keystone",
    "glance",
    "cinder",
    "swift",
    "heat",
    "ceilometer",
    "horizon",
    "ironic",
    "manila",
    "sahara",
];

fn template(rng: &mut Rng, i: usize, caps: bool, uses: &[String]) -> String {
    let mut t = String::from("heat_template_version: 2016-04-08\n\ndescription: >\n  A generated role or service template.\n\n");
    if caps {
        let dep = ["puppet", "docker", "ansible"][i % 3];
        let _ = write!(
            t,
            "capabilities:\n  deployment: {dep}\n  resource_type: OS::Bench::Type{}\n\n",
            i % 97
        );
    }
    t.push_str("parameters:\n");
    for p in 0..(3 + rng.below(10)) {
        let w = WORDS[(rng.below(12)) as usize];
        let _ = write!(t, "  {w}Param{p}:\n    type: string\n    default: '{w}'\n    description: The {w} setting number {p}.\n");
    }
    t.push_str("\nresources:\n");
    for (r, ty) in uses.iter().enumerate() {
        let _ = write!(t, "  Res{r}:\n    type: {ty}\n");
    }
    for r in 0..=rng.below(4) {
        let w = WORDS[(rng.below(12)) as usize];
        let _ = write!(
            t,
            "  Config{r}:\n    type: OS::Heat::SoftwareConfig\n    properties:\n      group: script\n      config: |\n        #!/bin/bash\n        set -eux\n        echo configuring {w} {r}\n        systemctl restart openstack-{w}\n"
        );
    }
    t.push_str("\noutputs:\n  role_data:\n    value: {get_attr: [Config0, config]}\n");
    t
}

fn noise(rng: &mut Rng) -> String {
    let mut t = String::from("- hosts: all\n  tasks:\n");
    for k in 0..(5 + rng.below(20)) {
        let w = WORDS[(rng.below(12)) as usize];
        let _ = write!(
            t,
            "    - name: configure {w} {k}\n      yum: name=openstack-{w} state=present\n"
        );
    }
    t
}

/// Writes `n` files; returns the directory, the total bytes, and the
/// root template and environment of a composition inside it.
/// Four environments of 12,000 registry entries each (half of them
/// globs), every one under Heat's size limit: resolve, validate -e and
/// export of a one-resource root with them (the registry lookups must stay
/// near linear).
fn measure_large_registry(dir: &Path, runs: usize) {
    let base = dir.join("bigreg");
    std::fs::create_dir_all(&base).unwrap();
    let mut envs = Vec::new();
    for j in 0..4 {
        let mut e = String::from("resource_registry:\n");
        for i in 0..12_000 {
            if i % 2 == 1 {
                let _ = writeln!(e, "  OS::Big{j}::T{i}: OS::Heat::None");
            } else {
                let _ = writeln!(e, "  OS::Glob{j}::T{i}::*: OS::Heat::None");
            }
        }
        let p = base.join(format!("env{j}.yaml"));
        std::fs::write(&p, e).unwrap();
        envs.push(p.to_str().unwrap().to_owned());
    }
    let root = base.join("root.yaml");
    std::fs::write(
        &root,
        "heat_template_version: 2016-10-14\nresources:\n  a: {type: OS::Big0::T1}\n",
    )
    .unwrap();
    let root = root.to_str().unwrap().to_owned();
    let with_envs = |mut args: Vec<String>| {
        for e in &envs {
            args.push("-e".to_owned());
            args.push(e.clone());
        }
        args
    };
    let cases = [
        (
            "resolve -e x4",
            with_envs(vec![
                "heatcap".into(),
                "resolve".into(),
                "--format".into(),
                "json".into(),
                "-q".into(),
            ]),
        ),
        (
            "validate -e x4 ROOT",
            with_envs(vec![
                "heatcap".into(),
                "validate".into(),
                root.clone(),
                "-q".into(),
            ]),
        ),
        (
            "export --format heat-api -e x4",
            with_envs(vec![
                "heatcap".into(),
                "export".into(),
                "-t".into(),
                root.clone(),
                "--format".into(),
                "heat-api".into(),
                "-q".into(),
            ]),
        ),
    ];
    println!(
        "\nLarge registry: 4 environments of 12,000 entries (half globs), medians of {runs}:\n"
    );
    println!("| command | seconds (2 threads) |");
    println!("|---|---|");
    for (name, args) in cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let secs: Vec<f64> = (0..runs)
            .map(|_| {
                let start = Instant::now();
                exe_run(2, &args);
                start.elapsed().as_secs_f64()
            })
            .collect();
        println!("| `{name}` | {:.3} |", median(secs));
    }
}

/// Templates of 100,000 resources and of 100,000 parameters (`--max-size`
/// raised): `index`, `validate` and `validate -e ENV` (the composition of
/// the template with an environment giving one parameter a value; issue
/// 22.3) time and peak heap, per megabyte, beside
/// the ordinary tree's (`ordinary[threads - 1][command]`: seconds and peak
/// heap per MB of `index` and `validate` on the generated tree). One file
/// is parsed on one core, so the 1-thread figure is the like-for-like one
/// for time.
fn measure_huge_templates(dir: &Path, runs: usize, ordinary: [[(f64, f64); 2]; 2]) {
    let base = dir.join("huge");
    std::fs::create_dir_all(&base).unwrap();
    let mut res = String::from("heat_template_version: 2016-10-14\nparameters:\n  p: {type: string, default: x}\nresources:\n");
    for i in 0..100_000 {
        let _ = write!(res, "  r{i}:\n    type: OS::Heat::Value\n    depends_on: r{}\n    properties:\n      value: {{get_param: p}}\n", i + 1);
    }
    let mut par = String::from("heat_template_version: 2016-10-14\nparameters:\n");
    for i in 0..100_000 {
        let _ = writeln!(
            par,
            "  p{i}: {{type: string, default: v{i}, description: Parameter {i}.}}"
        );
    }
    par.push_str("resources: {}\n");
    let env = base.join("env.yaml");
    std::fs::write(&env, "parameter_defaults:\n  p: y\n").unwrap();
    let env = env.to_str().unwrap().to_owned();
    println!("\nTemplates of 100,000 entries (`--max-size 100000000`), 2 threads, medians of {runs}; per MB beside the ordinary tree's:\n");
    println!("| template | command | seconds | s/MB (ordinary: 1 thread, 2) | peak heap | heap/MB (ordinary) | target |");
    println!("|---|---|---|---|---|---|---|");
    for (name, text) in [("100,000 resources", res), ("100,000 parameters", par)] {
        let file = base.join(format!("{}.yaml", name.replace([',', ' '], "")));
        std::fs::write(&file, &text).unwrap();
        let mb = text.len() as f64 / 1e6;
        let f = file.to_str().unwrap().to_owned();
        // (label, subcommand, the ordinary tree's row it compares with,
        // environments).
        let commands = [
            ("index", "index", 0, None),
            ("validate", "validate", 1, None),
            ("validate -e ENV", "validate", 1, Some(env.as_str())),
        ];
        for (label, cmd, k, env) in commands {
            let mut args = vec![
                "heatcap",
                cmd,
                &f,
                "--max-size",
                "100000000",
                "-q",
                "--format",
                "json",
            ];
            if let Some(env) = env {
                args.extend(["-e", env]);
            }
            let secs: Vec<f64> = (0..runs)
                .map(|_| {
                    let start = Instant::now();
                    exe_run(2, &args);
                    start.elapsed().as_secs_f64()
                })
                .collect();
            let t = median(secs);
            let before = reset_peak();
            sink_run(&args);
            let peak = peak_since(before) as f64;
            // The index of a huge template holds what it reports, not the
            // template: its heap per MB within 4× the ordinary tree's.
            let target = if label == "index" && name.contains("resources") {
                let times = peak / 1e6 / mb / ordinary[1][k].1;
                format!(
                    "heap/MB {times:.1}× the ordinary's, ≤ {HUGE_HEAP_TARGET}×: {}",
                    verdict(times, HUGE_HEAP_TARGET)
                )
            } else {
                String::new()
            };
            println!(
                "| {name} ({mb:.1} MB) | `{label}` | {t:.2} | {:.3} ({:.3}, {:.3}) | {:.0} MB | {:.1} ({:.1}) | {target} |",
                t / mb,
                ordinary[0][k].0,
                ordinary[1][k].0,
                peak / 1e6,
                peak / 1e6 / mb,
                ordinary[1][k].1
            );
        }
    }
}

/// The stacks of a Heat validate document (the root and every nested one).
fn stacks(v: &serde_json::Value) -> usize {
    1 + v["NestedParameters"]
        .as_object()
        .map_or(0, |m| m.values().map(stacks).sum())
}

/// `parameters --format heat` of the TripleO-shaped deployment: time,
/// peak heap, stacks, values not evaluated; and Heat's own time on it.
fn measure_tripleo_shaped(dir: &Path, runs: usize) {
    // The evaluated composition of a TripleO-shaped deployment.
    let (tht_root, tht_env) = tripleo_shaped(dir);
    let (r, e) = (
        tht_root.to_str().unwrap().to_owned(),
        tht_env.to_str().unwrap().to_owned(),
    );
    let params_args = [
        "heatcap",
        "parameters",
        "-t",
        &r,
        "-e",
        &e,
        "--format",
        "heat",
        "-q",
    ];
    let mut secs = Vec::new();
    for _ in 0..runs {
        let start = Instant::now();
        exe_run(2, &params_args);
        secs.push(start.elapsed().as_secs_f64());
    }
    let t_params = median(secs);
    let (mut doc, mut err) = (Vec::new(), Vec::new());
    let base = reset_peak();
    run(
        Cli::try_parse_from(params_args).unwrap(),
        &mut doc,
        &mut err,
    )
    .unwrap();
    let peak = peak_since(base);
    let doc: serde_json::Value = serde_json::from_slice(&doc).unwrap();
    let unevaluated = String::from_utf8_lossy(&serde_json::to_vec(&doc).unwrap())
        .matches("heatcap:Unevaluated")
        .count();
    println!(
        "\n`parameters --format heat` of a TripleO-shaped deployment ({} stacks, 10 role groups, chains of 45 services from parameter_defaults): {t_params:.3} s (2 threads), peak heap {:.1} MB, {unevaluated} values heatcap could not evaluate.",
        stacks(&doc),
        peak as f64 / 1e6
    );
    // Heat's own offline validate of the same deployment, when the oracle
    // is installed (tools/heat-oracle/README.md).
    if let Ok(python) = std::env::var("HEATCAP_BENCH_HEAT_PYTHON") {
        let start = Instant::now();
        let status = std::process::Command::new(python)
            .args([
                concat!(env!("CARGO_MANIFEST_DIR"), "/tools/heat-oracle/oracle.py"),
                "-t",
                &r,
                "-e",
                &e,
            ])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status()
            .unwrap();
        let t_heat = start.elapsed().as_secs_f64();
        println!(
            "Heat's offline validate of it (tools/heat-oracle, one run, {status}): {t_heat:.2} s; heatcap takes {:.3}× Heat's time.",
            t_params / t_heat
        );
    }
}

/// A deployment shaped like TripleO's (rendered 2018 tree): 10 roles,
/// each a ResourceGroup of a role template (hostname by `str_replace` of
/// the index), whose ServiceChain is a provider template holding an
/// `OS::Heat::ResourceChain` of the role's 45 services, the lists given
/// in `parameter_defaults`; every service takes the endpoint and network
/// maps, evaluates conditions and `if`s and `str_replace`s. About 500
/// stacks. Written under `dir/tht`; returns (root, environment).
fn tripleo_shaped(dir: &Path) -> (PathBuf, PathBuf) {
    let base = dir.join("tht");
    std::fs::create_dir_all(base.join("services")).unwrap();
    let write = |rel: &str, text: &str| std::fs::write(base.join(rel), text).unwrap();
    let roles = 10;
    let services = 45;
    let mut env = String::from(
        "resource_registry:\n  OS::Bench::Role: role.yaml\n  OS::Bench::Services: services.yaml\n",
    );
    for k in 0..services {
        let _ = writeln!(env, "  OS::Bench::Service{k}: services/service{k}.yaml");
        let mut t = String::from("heat_template_version: rocky\ndescription: A generated service.\nparameters:\n  EndpointMap: {type: json, default: {}}\n  ServiceNetMap: {type: json, default: {}}\n  RoleName: {type: string, default: ''}\n  EnableDebug: {type: boolean, default: false}\n");
        for p in 0..8 {
            let _ = writeln!(t, "  Service{k}Param{p}: {{type: string, default: value{p}, description: Parameter {p} of service {k}.}}");
        }
        t.push_str("conditions:\n  debug: {equals: [{get_param: EnableDebug}, true]}\nresources:\n  Config:\n    type: OS::Heat::Value\n    properties:\n      value:\n        str_replace:\n          template: ROLE-service-NET\n          params:\n            ROLE: {get_param: RoleName}\n            NET: {get_param: [ServiceNetMap, InternalApiNetwork]}\n  DebugOnly:\n    type: OS::Heat::None\n    condition: debug\noutputs:\n  role_data:\n    value:\n      service_name: {if: [debug, debug, normal]}\n");
        write(&format!("services/service{k}.yaml"), &t);
    }
    env.push_str("parameter_defaults:\n  ServiceNetMap: {InternalApiNetwork: internal_api}\n");
    for r in 0..roles {
        let list: Vec<String> = (0..services)
            .map(|k| format!("OS::Bench::Service{k}"))
            .collect();
        let _ = writeln!(env, "  Role{r}Services: [{}]", list.join(", "));
    }
    write("env.yaml", &env);
    write("services.yaml", "heat_template_version: rocky\ndescription: A role's service chain.\nparameters:\n  Services: {type: comma_delimited_list, default: []}\n  EndpointMap: {type: json, default: {}}\n  ServiceNetMap: {type: json, default: {}}\n  RoleName: {type: string, default: ''}\nresources:\n  ServiceChain:\n    type: OS::Heat::ResourceChain\n    properties:\n      resources: {get_param: Services}\n      concurrent: true\n      resource_properties:\n        EndpointMap: {get_param: EndpointMap}\n        ServiceNetMap: {get_param: ServiceNetMap}\n        RoleName: {get_param: RoleName}\n");
    write("role.yaml", "heat_template_version: rocky\ndescription: A generated role.\nparameters:\n  Hostname: {type: string, default: ''}\n  RoleName: {type: string}\n  Services: {type: comma_delimited_list, default: []}\n  EndpointMap: {type: json, default: {}}\n  ServiceNetMap: {type: json, default: {}}\nresources:\n  ServiceChain:\n    type: OS::Bench::Services\n    properties:\n      Services: {get_param: Services}\n      EndpointMap: {get_param: EndpointMap}\n      ServiceNetMap: {get_param: ServiceNetMap}\n      RoleName: {get_param: RoleName}\n  Server:\n    type: OS::Heat::None\n    properties:\n      name: {get_param: Hostname}\n");
    let mut root = String::from("heat_template_version: rocky\ndescription: A TripleO-shaped deployment.\nparameters:\n  EndpointMap: {type: json, default: {Keystone: {host: keystone}}}\n");
    for r in 0..roles {
        let _ = writeln!(root, "  Role{r}Count: {{type: number, default: 1}}\n  Role{r}Services: {{type: comma_delimited_list, default: []}}");
    }
    root.push_str("resources:\n");
    for r in 0..roles {
        let _ = write!(root, "  Role{r}:\n    type: OS::Heat::ResourceGroup\n    properties:\n      count: {{get_param: Role{r}Count}}\n      resource_def:\n        type: OS::Bench::Role\n        properties:\n          Hostname: {{str_replace: {{template: role{r}-%index%, params: {{}}}}}}\n          RoleName: Role{r}\n          Services: {{get_param: Role{r}Services}}\n          EndpointMap: {{get_param: EndpointMap}}\n");
    }
    write("root.yaml", &root);
    (base.join("root.yaml"), base.join("env.yaml"))
}

fn generate(n: usize) -> (tempfile::TempDir, u64, PathBuf, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ n as u64);
    let mut bytes = 0u64;
    let mut write = |rel: &str, text: &str| {
        let p = dir.path().join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, text).unwrap();
        bytes += text.len() as u64;
    };
    // The composition: a root using 100 custom types; each maps to a
    // template using 3 more custom types, each mapping to a leaf.
    let mut registry = String::from("resource_registry:\n");
    let roles: Vec<String> = (0..100).map(|i| format!("OS::Bench::Role{i}")).collect();
    for i in 0..100 {
        let inner: Vec<String> = (0..3).map(|j| format!("OS::Bench::Svc{i}x{j}")).collect();
        write(
            &format!("comp/role{i}.yaml"),
            &template(&mut rng, i, false, &inner),
        );
        let _ = writeln!(registry, "  OS::Bench::Role{i}: role{i}.yaml");
        for (j, ty) in inner.iter().enumerate() {
            write(
                &format!("comp/svc{i}x{j}.yaml"),
                &template(&mut rng, j, false, &[]),
            );
            let _ = writeln!(registry, "  {ty}: svc{i}x{j}.yaml");
        }
    }
    write("comp/root.yaml", &template(&mut rng, 0, false, &roles));
    write("comp/env.yaml", &registry);
    let made = 100 * 4 + 2;
    for i in made..n {
        let sub = format!("d{}/s{}", i % 50, i % 7);
        match i % 20 {
            0..=10 => write(
                &format!("{sub}/t{i}.yaml"),
                &template(&mut rng, i, i % 10 == 0, &[]),
            ),
            11..=14 => {
                let mut e = String::from("resource_registry:\n");
                for k in 0..(10 + rng.below(30)) {
                    let _ = writeln!(e, "  OS::Bench::Type{k}: ../../d{}/s0/t{}.yaml", k % 50, k);
                }
                e.push_str("parameter_defaults:\n  NtpServer: pool.ntp.org\n");
                write(&format!("{sub}/env{i}.yaml"), &e);
            }
            _ => write(&format!("{sub}/play{i}.yaml"), &noise(&mut rng)),
        }
    }
    let root = dir.path().join("comp/root.yaml");
    let env = dir.path().join("comp/env.yaml");
    (dir, bytes, root, env)
}

/// `index` against the bare parse, with 1 and 2 threads (issue 30).
const INDEX_TARGET: [f64; 2] = [1.5, 1.3];
/// `capabilities-find` against walk + read, with 2 threads.
const FIND_TARGET: f64 = 2.0;
/// `validate` against `index`.
const VALIDATE_TARGET: f64 = 1.5;
/// `index`'s peak heap per MB of a 100,000-resource template against the
/// ordinary tree's.
const HUGE_HEAP_TARGET: f64 = 4.0;

/// CPU seconds (user + system) this process has used, or, with
/// `children`, its children that ended (the commands run): what a loaded
/// machine moves least. From `/proc/self/stat` (Linux); 0 elsewhere.
fn cpu_seconds(children: bool) -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return 0.0;
    };
    // After the command name's closing parenthesis: state is field 3;
    // utime, stime, cutime, cstime are fields 14 to 17, in clock ticks
    // (USER_HZ, 100 on Linux).
    let Some((_, rest)) = stat.rsplit_once(')') else {
        return 0.0;
    };
    let fields: Vec<f64> = rest
        .split_whitespace()
        .skip(11)
        .take(4)
        .map(|f| f.parse().unwrap_or(0.0))
        .collect();
    let ticks = if children {
        fields.get(2).copied().unwrap_or(0.0) + fields.get(3).copied().unwrap_or(0.0)
    } else {
        fields.first().copied().unwrap_or(0.0) + fields.get(1).copied().unwrap_or(0.0)
    };
    ticks / 100.0
}

/// Whether a ratio meets its target, in the report's words.
fn verdict(ratio: f64, limit: f64) -> &'static str {
    if ratio <= limit {
        "met"
    } else {
        "**not met**"
    }
}

/// The three ratios issue 30 holds, each taken within one repetition:
/// the floor and the bare parse in process, then `index`,
/// `capabilities-find` and `validate` as the release binary runs them,
/// `runs` times. Returns, per repetition, index / bare parse,
/// capabilities-find / floor and validate / index.
fn paired(pool: &rayon::ThreadPool, threads: usize, dir: &str, runs: usize) -> [Vec<f64>; 3] {
    let timed = |f: &dyn Fn()| {
        let start = Instant::now();
        f();
        start.elapsed().as_secs_f64()
    };
    COUNTING.store(false, Ordering::Relaxed);
    let mut out = [Vec::new(), Vec::new(), Vec::new()];
    for _ in 0..runs {
        let t_floor = timed(&|| pool.install(|| assert!(floor(Path::new(dir)) > 0)));
        let t_parse = timed(&|| pool.install(|| assert!(bare_parse(Path::new(dir)) > 0)));
        let t_index = timed(&|| exe_run(threads, &["heatcap", "index", "-r", dir, "-q"]));
        let t_find = timed(&|| {
            exe_run(
                threads,
                &[
                    "heatcap",
                    "capabilities-find",
                    "-r",
                    "-c",
                    "deployment=puppet",
                    dir,
                    "-q",
                ],
            );
        });
        let t_validate = timed(&|| {
            exe_run(
                threads,
                &["heatcap", "validate", "-r", dir, "-q", "--format", "json"],
            );
        });
        out[0].push(t_index / t_parse);
        out[1].push(t_find / t_floor);
        out[2].push(t_validate / t_index);
    }
    COUNTING.store(true, Ordering::Relaxed);
    out
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

/// Runs the release binary, as a user would, with `threads` rayon threads.
fn exe_run(threads: usize, args: &[&str]) {
    exe_run_with(env!("CARGO_BIN_EXE_heatcap"), threads, args);
}

/// Runs `exe` (this build's binary, or the baseline's) the same way.
fn exe_run_with(exe: &str, threads: usize, args: &[&str]) {
    let status = std::process::Command::new(exe)
        .args(&args[1..])
        .env("RAYON_NUM_THREADS", threads.to_string())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .unwrap();
    assert!(status.code().is_some_and(|c| c < 2), "{args:?}: {status}");
}

fn sink_run(args: &[&str]) {
    let cli = Cli::try_parse_from(args).unwrap();
    run(cli, &mut std::io::sink(), &mut std::io::sink()).unwrap();
}

fn floor(dir: &Path) -> usize {
    heatcap::bench_files(dir)
        .par_iter()
        .map(|p| std::fs::read(p).map_or(0, |b| b.len()))
        .sum()
}

fn bare_parse(dir: &Path) -> usize {
    heatcap::bench_bare_parse(dir)
}

/// Lookups and the composition walk on an opened workspace (files loaded,
/// environments merged).
fn resolution_only(root: &str, env: &str) -> (f64, usize) {
    let ws = Workspace::builder()
        .environments(&[PathBuf::from(env)])
        .roots(&[root])
        .open();
    assert_eq!(ws.environments().len(), 1);
    let start = Instant::now();
    let c = ws.compose(root);
    (start.elapsed().as_secs_f64(), c.resolutions.len())
}

fn main() {
    let sizes: Vec<usize> = std::env::var("HEATCAP_BENCH_SIZES")
        .unwrap_or_else(|_| "2000,30000".into())
        .split(',')
        .filter_map(|s| s.trim().parse().ok())
        .collect();
    let runs: usize = std::env::var("HEATCAP_BENCH_RUNS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(3);
    println!("# heatcap throughput (cargo bench --bench throughput)\n");
    println!(
        "{} cores; median of {runs} runs; a shared, noisy machine: compare ratios, not seconds.\n",
        std::thread::available_parallelism().map_or(0, usize::from)
    );
    heat_schema_startup();
    measure_revisions(runs);
    for n in sizes {
        measure(n, runs);
    }
    previews::measure(runs);
}

/// The embedded Heat data's parse: the start-up cost every run that needs
/// it pays once (the budget is 5 ms).
fn heat_schema_startup() {
    let mut secs = Vec::new();
    let mut heap = 0;
    for _ in 0..50 {
        let base = reset_peak();
        let start = Instant::now();
        assert!(heatcap::bench_heat_schema_parse() > 200);
        secs.push(start.elapsed().as_secs_f64());
        heap = heap.max(peak_since(base));
    }
    let slowest = secs.iter().copied().fold(0.0, f64::max);
    println!("## Start-up: Heat's resource types (embedded data)\n");
    println!("| measurement | median | slowest | peak heap |");
    println!("|---|---|---|---|");
    println!(
        "| parse the embedded data (50 runs) | {:.2} ms | {:.2} ms | {:.1} MB |\n",
        median(secs) * 1e3,
        slowest * 1e3,
        heap as f64 / 1e6
    );
}

/// Generates a tree of `n` files and prints its table (a linear script:
/// one measurement after another).
#[allow(clippy::too_many_lines)]
fn measure(n: usize, runs: usize) {
    let (tmp, bytes, root, env) = generate(n);
    let dir = tmp.path().to_path_buf();
    // Removed at the end of the measurement, unless kept.
    let _tmp = if std::env::var_os("HEATCAP_BENCH_KEEP").is_some() {
        println!(
            "(The {n}-file tree is kept at `{}`.)\n",
            tmp.keep().display()
        );
        None
    } else {
        Some(tmp)
    };
    let d = dir.to_str().unwrap().to_owned();
    let root = root.to_str().unwrap().to_owned();
    let env = env.to_str().unwrap().to_owned();
    let mb = bytes as f64 / 1e6;
    let baseline = std::env::var("HEATCAP_BENCH_BASELINE").ok();
    // (command, threads, wall before, wall after, CPU before, CPU after)
    let before_after = std::sync::Mutex::new(Vec::<(String, usize, f64, f64, f64, f64)>::new());
    println!("## {n} files, {mb:.1} MB\n");
    println!("| measurement | threads | seconds | files/s | MB/s | ratio | target | CPU s (ratio) | peak heap |");
    println!("|---|---|---|---|---|---|---|---|---|");
    let mut ordinary = [[(0.0, 0.0); 2]; 2];
    // (threads, index / bare parse, capabilities-find / floor, validate /
    // index): each ratio's median over the repetitions of `paired`.
    let mut paired_rows = Vec::new();
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        // In-process: the floor and the bare parse, timed with the
        // allocation counters off (their contention would slow 2 threads
        // down), then one counted run for the peak heap.
        let time = |f: &(dyn Fn() + Sync)| -> (f64, usize, f64) {
            let mut secs = Vec::new();
            let mut cpu = Vec::new();
            COUNTING.store(false, Ordering::Relaxed);
            for _ in 0..runs {
                let (start, cpu_start) = (Instant::now(), cpu_seconds(false));
                pool.install(f);
                secs.push(start.elapsed().as_secs_f64());
                cpu.push(cpu_seconds(false) - cpu_start);
            }
            COUNTING.store(true, Ordering::Relaxed);
            let base = reset_peak();
            pool.install(f);
            (median(secs), peak_since(base), median(cpu))
        };
        // Commands: timed as the release binary runs them (the counting
        // allocator's shared counters would slow threads down in-process);
        // peak heap from one in-process run.
        let command = |args: &[&str]| -> (f64, usize, f64) {
            let (mut base_secs, mut base_cpu, mut cpu) = (Vec::new(), Vec::new(), Vec::new());
            let secs: Vec<f64> = (0..runs)
                .map(|_| {
                    if let Some(b) = &baseline {
                        let (start, cpu_start) = (Instant::now(), cpu_seconds(true));
                        exe_run_with(b, threads, args);
                        base_secs.push(start.elapsed().as_secs_f64());
                        base_cpu.push(cpu_seconds(true) - cpu_start);
                    }
                    let (start, cpu_start) = (Instant::now(), cpu_seconds(true));
                    exe_run(threads, args);
                    cpu.push(cpu_seconds(true) - cpu_start);
                    start.elapsed().as_secs_f64()
                })
                .collect();
            if baseline.is_some() {
                before_after.lock().unwrap().push((
                    args[1..].join(" ").replace(&d, "DIR"),
                    threads,
                    median(base_secs),
                    median(secs.clone()),
                    median(base_cpu),
                    median(cpu.clone()),
                ));
            }
            let base = reset_peak();
            pool.install(|| sink_run(args));
            (median(secs), peak_since(base), median(cpu))
        };
        let (t_floor, p_floor, c_floor) = time(&|| {
            assert!(floor(Path::new(&d)) > 0);
        });
        let (t_parse, p_parse, c_parse) = time(&|| {
            assert!(bare_parse(Path::new(&d)) > 0);
        });
        let (t_index, p_index, c_index) = command(&["heatcap", "index", "-r", &d, "-q"]);
        let (t_plain, p_plain, c_plain) =
            command(&["heatcap", "index", "-r", &d, "-q", "--format", "plain"]);
        let (t_find, p_find, c_find) = command(&[
            "heatcap",
            "capabilities-find",
            "-r",
            "-c",
            "deployment=puppet",
            &d,
            "-q",
        ]);
        let (t_validate, p_validate, c_validate) =
            command(&["heatcap", "validate", "-r", &d, "-q", "--format", "json"]);
        ordinary[threads - 1] = [
            (t_index / mb, p_index as f64 / 1e6 / mb),
            (t_validate / mb, p_validate as f64 / 1e6 / mb),
        ];
        let (t_onap, p_onap, c_onap) = command(&[
            "heatcap",
            "validate",
            "--profile",
            "onap",
            "-r",
            &d,
            "-q",
            "--format",
            "json",
        ]);
        let (t_resolve, p_resolve, c_resolve) = command(&[
            "heatcap", "resolve", "-t", &root, "-e", &env, "--format", "json", "-q",
        ]);
        // The ratio each row is held to (docs/performance.md "Against the
        // targets"), printed beside it with whether this run meets it.
        // Each row: (wall, CPU) of the measurement and of its baseline.
        let row = |name: &str,
                   (t, c): (f64, f64),
                   base: Option<(&str, f64, f64)>,
                   target: Option<f64>,
                   peak: usize| {
            let ratio = base.map_or("floor".to_owned(), |(b, bt, _)| {
                format!("{:.2}× {b}", t / bt)
            });
            let target = match (base, target) {
                (Some((_, bt, _)), Some(limit)) => {
                    format!("≤ {limit}×: {}", verdict(t / bt, limit))
                }
                _ => String::new(),
            };
            let cpu = base.map_or(format!("{c:.2}"), |(_, _, bc)| {
                format!("{c:.2} ({:.2}×)", c / bc)
            });
            println!(
                "| {name} | {threads} | {t:.3} | {:.0} | {:.1} | {ratio} | {target} | {cpu} | {:.1} MB |",
                n as f64 / t,
                mb / t,
                peak as f64 / 1e6
            );
        };
        row("walk + read", (t_floor, c_floor), None, None, p_floor);
        row(
            "bare parse (libyaml events)",
            (t_parse, c_parse),
            Some(("floor", t_floor, c_floor)),
            None,
            p_parse,
        );
        row(
            "index",
            (t_index, c_index),
            Some(("bare parse", t_parse, c_parse)),
            Some(INDEX_TARGET[threads - 1]),
            p_index,
        );
        row(
            "  of which load + model (index --format plain)",
            (t_plain, c_plain),
            Some(("bare parse", t_parse, c_parse)),
            None,
            p_plain,
        );
        row(
            "capabilities-find",
            (t_find, c_find),
            Some(("floor", t_floor, c_floor)),
            (threads == 2).then_some(FIND_TARGET),
            p_find,
        );
        row(
            "validate (every rule)",
            (t_validate, c_validate),
            Some(("index", t_index, c_index)),
            Some(VALIDATE_TARGET),
            p_validate,
        );
        row(
            "validate --profile onap (per-directory packages)",
            (t_onap, c_onap),
            Some(("validate", t_validate, c_validate)),
            None,
            p_onap,
        );
        row(
            "resolve -t (403 templates)",
            (t_resolve, c_resolve),
            Some(("index", t_index, c_index)),
            None,
            p_resolve,
        );
        paired_rows.push((threads, paired(&pool, threads, &d, runs)));
    }
    println!("\nTargets, paired: each ratio taken within one repetition (the floor, the bare parse, `index`, `capabilities-find` and `validate` run one after the other), median of {runs}. A machine whose load changes between the blocks of the table above moves its ratios; within one repetition, both sides see about the same load.\n");
    println!("| ratio | threads | median | lowest | highest | target |");
    println!("|---|---|---|---|---|---|");
    for (threads, [index, find, validate]) in paired_rows {
        let targets = [
            ("index / bare parse", index, Some(INDEX_TARGET[threads - 1])),
            (
                "capabilities-find / walk + read",
                find,
                (threads == 2).then_some(FIND_TARGET),
            ),
            ("validate / index", validate, Some(VALIDATE_TARGET)),
        ];
        for (name, ratios, limit) in targets {
            let (low, high) = (
                ratios.iter().copied().fold(f64::INFINITY, f64::min),
                ratios.iter().copied().fold(0.0, f64::max),
            );
            let m = median(ratios);
            let target = limit.map_or(String::new(), |l| format!("≤ {l}×: {}", verdict(m, l)));
            println!("| {name} | {threads} | {m:.2}× | {low:.2}× | {high:.2}× | {target} |");
        }
    }
    let pairs = before_after.into_inner().unwrap();
    if !pairs.is_empty() {
        println!("\nBefore/after (baseline binary vs this build, same run, median of {runs}; CPU is user + system):\n");
        println!("| command | threads | before s | after s | after / before | CPU before s | CPU after s | after / before |");
        println!("|---|---|---|---|---|---|---|---|");
        for (name, threads, before, after, cpu_before, cpu_after) in pairs {
            println!(
                "| `{name}` | {threads} | {before:.3} | {after:.3} | {:.2}× | {cpu_before:.2} | {cpu_after:.2} | {:.2}× |",
                after / before,
                cpu_after / cpu_before
            );
        }
    }
    measure_tripleo_shaped(&dir, runs);
    measure_large_registry(&dir, runs);
    measure_huge_templates(&dir, runs, ordinary);
    let mut only = Vec::new();
    let mut lookups = 0;
    for _ in 0..runs {
        let (s, l) = resolution_only(&root, &env);
        only.push(s);
        lookups = l;
    }
    println!(
        "\nResolution alone (merge done, files loaded; {lookups} lookups): {:.4} s.\n",
        median(only)
    );
}

/// Issue 27's speed rows: `heatcap preview` of the rendered end-2018
/// deployment and `heatcap diff` of two compositions of it (the
/// deployment, then with tests/heat/later/diff-2018-change.yaml), each
/// against Heat 27's offline create preview (`preview.py`) and update
/// preview (`preview_update.py`, with and without `--show-nested`) timed in
/// the same run: Heat's figure is the engine's own time (`--timing`: the
/// request handled, Python's start-up and the client's file reading left
/// out), heatcap's the whole process (reading the files included).
mod previews {
    use super::{exe_run, median};
    use std::path::{Path, PathBuf};
    use std::time::Instant;

    const ENVS: [&str; 4] = [
        "overcloud-resource-registry-puppet.yaml",
        "environments/network-isolation.yaml",
        "environments/network-environment.yaml",
        "environments/docker-ha.yaml",
    ];

    /// The median and slowest wall time of `runs` runs of `args` (2
    /// threads).
    fn heatcap(args: &[String], runs: usize) -> (f64, f64) {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let secs: Vec<f64> = (0..runs)
            .map(|_| {
                let start = Instant::now();
                exe_run(2, &args);
                start.elapsed().as_secs_f64()
            })
            .collect();
        let slowest = secs.iter().copied().fold(0.0, f64::max);
        (median(secs), slowest)
    }

    /// Heat's engine time (what `--timing` writes after `label: `), the
    /// process's wall time, and whether Heat answered or failed; run in
    /// `tree` as the recordings are.
    fn heat(venv: &Path, tree: &Path, script: &str, args: &[String]) -> (f64, f64, String) {
        let start = Instant::now();
        let out = std::process::Command::new(venv.join("bin/python"))
            .arg(script)
            .args(args)
            .arg("--timing")
            .current_dir(tree)
            .output()
            .unwrap();
        let wall = start.elapsed().as_secs_f64();
        let err = String::from_utf8_lossy(&out.stderr);
        let line = err
            .lines()
            .find(|l| l.starts_with("preview"))
            .unwrap_or_else(|| panic!("{script}: no timing in {err}"));
        let engine: f64 = line
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        let outcome = match serde_json::from_str::<serde_json::Value>(&stdout) {
            Ok(v) if v.get("Error").is_some() => format!(
                "fails: {}",
                v["Error"]
                    .as_str()
                    .unwrap_or("")
                    .chars()
                    .take(60)
                    .collect::<String>()
            ),
            Ok(_) => "answers".to_owned(),
            Err(_) => "no JSON".to_owned(),
        };
        (engine, wall, outcome)
    }

    pub(super) fn measure(runs: usize) {
        let Some(dir) = std::env::var_os("HEATCAP_THT_RENDERED") else {
            return;
        };
        let tree = Path::new(&dir).join("18d77c17");
        let here = std::env::current_dir().unwrap();
        let values = here.join("tests/heat/later/preview-2018-values.yaml");
        let change = here.join("tests/heat/later/diff-2018-change.yaml");
        let mut envs: Vec<PathBuf> = ENVS.iter().map(|e| tree.join(e)).collect();
        envs.push(values);
        let show = |p: &Path| p.display().to_string();
        let common = |command: &str| -> Vec<String> {
            let mut a = vec![
                "heatcap".to_owned(),
                command.to_owned(),
                "--format".to_owned(),
            ];
            a.extend(["heat", "-q", "--max-nested-depth", "7", "-t"].map(str::to_owned));
            a.push(show(&tree.join("overcloud.yaml")));
            for e in &envs {
                a.extend(["-e".to_owned(), show(e)]);
            }
            a
        };
        let preview = common("preview");
        let mut diff = common("diff");
        for e in &envs {
            diff.extend(["--from-environment".to_owned(), show(e)]);
        }
        diff.extend(["-e".to_owned(), show(&change)]);

        println!("## Previews: the rendered end-2018 TripleO deployment (18d77c17)\n");
        let (p, p_slow) = heatcap(&preview, runs);
        let (d, d_slow) = heatcap(&diff, runs);
        let Some(venv) = std::env::var_os("HEATCAP_BENCH_HEAT_VENV") else {
            println!("| command | median | slowest |\n|---|---|---|");
            println!("| `preview --format heat` | {p:.3} s | {p_slow:.3} s |");
            println!("| `diff --format heat` | {d:.3} s | {d_slow:.3} s |\n");
            println!("(Heat not run: `HEATCAP_BENCH_HEAT_VENV` names its venv.)\n");
            return;
        };
        let venv = PathBuf::from(venv);
        let oracle = here.join("tools/heat-oracle");
        let mut heat_args: Vec<String> = vec!["-t".to_owned(), "overcloud.yaml".to_owned()];
        for e in &envs {
            heat_args.extend(["-e".to_owned(), show(e)]);
        }
        heat_args.extend(["--max-depth".to_owned(), "7".to_owned()]);
        let create = heat(&venv, &tree, &show(&oracle.join("preview.py")), &heat_args);
        for e in &envs {
            heat_args.extend(["--from-environment".to_owned(), show(e)]);
        }
        heat_args.extend(["-e".to_owned(), show(&change)]);
        let update = show(&oracle.join("preview_update.py"));
        let nested = heat(&venv, &tree, &update, &heat_args);
        heat_args.push("--no-show-nested".to_owned());
        let root_only = heat(&venv, &tree, &update, &heat_args);
        println!("| heatcap command | median | slowest | Heat's | Heat (engine) | Heat (process) | heatcap / Heat engine | target |");
        println!("|---|---|---|---|---|---|---|---|");
        let row = |command: &str,
                   (ours, slowest): (f64, f64),
                   what: &str,
                   (engine, wall, outcome): &(f64, f64, String),
                   target: &str| {
            println!(
                "| `{command}` | {ours:.3} s | {slowest:.3} s | {what} ({outcome}) | {engine:.2} s | {wall:.2} s | {:.3}× | {target} |",
                ours / engine
            );
        };
        row(
            "preview --format heat",
            (p, p_slow),
            "create preview",
            &create,
            "≤ 0.05×",
        );
        row(
            "diff --format heat",
            (d, d_slow),
            "update preview, show_nested",
            &nested,
            "≤ 0.1×",
        );
        row(
            "diff --format heat",
            (d, d_slow),
            "update preview, root stack only",
            &root_only,
            "≤ 0.1×",
        );
        println!();
    }
}

/// The revisions table (`HEATCAP_BENCH_THT_GIT`): reading a tripleo
/// revision from git, and diffing a deployment between two raw revisions.
fn measure_revisions(runs: usize) {
    let Ok(clone) = std::env::var("HEATCAP_BENCH_THT_GIT") else {
        return;
    };
    let clone = PathBuf::from(clone);
    println!("## Revisions: tripleo-heat-templates read from git\n");
    println!("| measurement | threads | median | slowest | files |");
    println!("|---|---|---|---|---|");
    for rev in ["rocky-eol", "stein-eol"] {
        let mut secs = Vec::new();
        let mut files = 0;
        for _ in 0..runs.max(5) {
            let start = Instant::now();
            let tree = heatcap::git::tree_at(&clone, rev, heatcap::DEFAULT_MAX_SIZE).unwrap();
            secs.push(start.elapsed().as_secs_f64());
            files = tree.len();
        }
        let slowest = secs.iter().copied().fold(0.0, f64::max);
        println!(
            "| read `{rev}` from git (every file of its tree) | all | {:.1} ms | {:.1} ms | {files} |",
            median(secs) * 1e3,
            slowest * 1e3,
        );
    }
    let dir = clone.to_str().unwrap();
    let at = |f: &str| format!("{dir}/{f}");
    let words: Vec<String> = [
        "heatcap".to_owned(),
        "diff".into(),
        "--from".into(),
        "queens-eol".into(),
        "--to".into(),
        "rocky-eol".into(),
        "-t".into(),
        at("overcloud.yaml"),
        "-e".into(),
        at("overcloud-resource-registry-puppet.yaml"),
        "-e".into(),
        at("environments/docker.yaml"),
        "-e".into(),
        at("environments/docker-ha.yaml"),
        "-e".into(),
        at("environments/network-isolation.yaml"),
        "-e".into(),
        at("environments/network-environment.yaml"),
        "--max-nested-depth".into(),
        "7".into(),
        "--format".into(),
        "json".into(),
    ]
    .to_vec();
    let args: Vec<&str> = words.iter().map(String::as_str).collect();
    for threads in [1, 2] {
        let mut secs = Vec::new();
        for _ in 0..runs {
            let start = Instant::now();
            exe_run(threads, &args);
            secs.push(start.elapsed().as_secs_f64());
        }
        let slowest = secs.iter().copied().fold(0.0, f64::max);
        println!(
            "| `diff --from queens-eol --to rocky-eol` (2018-style deployment, raw trees: two renders, two compositions) | {threads} | {:.2} s | {:.2} s | |",
            median(secs),
            slowest,
        );
    }
    println!();
}
