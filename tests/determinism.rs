//! Parallel loading, deterministic output: the same tree gives the same
//! bytes whatever the number of threads.

use clap::Parser;
use heatcap::cli::{run, Cli};

fn index_with_threads(threads: usize, args: &[&str]) -> (Vec<u8>, Vec<u8>) {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    pool.install(|| {
        let cli = Cli::try_parse_from(args).unwrap();
        let (mut out, mut err) = (Vec::new(), Vec::new());
        run(cli, &mut out, &mut err).unwrap();
        (out, err)
    })
}

#[test]
fn output_does_not_depend_on_thread_count() {
    for args in [
        &["heatcap", "index", "-r", "fixtures/overcloud"][..],
        &[
            "heatcap",
            "template-capabilities",
            "-r",
            "-f",
            "fixtures/overcloud",
        ][..],
        &[
            "heatcap",
            "capabilities-find",
            "-r",
            "-c",
            "deployment=puppet",
            "fixtures",
        ][..],
    ] {
        let one = index_with_threads(1, args);
        assert!(!one.0.is_empty());
        for threads in [2, 4, 8] {
            assert_eq!(
                one,
                index_with_threads(threads, args),
                "{args:?} with {threads} threads"
            );
        }
    }
}
