//! The benchmark's bare parse as a program: walks the directory given,
//! reads every file and takes libyaml's events of it through heatcap's
//! event reader, on rayon's threads (`RAYON_NUM_THREADS`), and prints how
//! many events there were. The floor `index` is held to, for tools that
//! run a program (valgrind's cachegrind, `perf`; docs/performance.md,
//! issue 30's fourth pass). Not part of the product.

use std::io::Write;

/// The allocator heatcap's binary and the benchmark use, so that counts and
/// profiles compare like with like.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let Some(dir) = std::env::args().nth(1) else {
        let _ = writeln!(std::io::stderr(), "usage: bare_parse DIR");
        std::process::exit(2);
    };
    let events = heatcap::bench_bare_parse(std::path::Path::new(&dir));
    let _ = writeln!(std::io::stdout(), "{events}");
}
