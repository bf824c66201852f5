//! End-to-end tests: the real binary on fixture trees, exit code, stdout and
//! stderr compared byte for byte with golden files in tests/cmd/.
//!
//! Each case is `tests/cmd/NAME.toml` (args, working directory, exit code)
//! with `NAME.stdout` and `NAME.stderr`. Regenerate the golden files after
//! an intended change with `TRYCMD=overwrite cargo test --test cli` and
//! review the diff.

#[test]
fn cli_golden() {
    // Goldens are what a pipe gets, whatever the environment of the run;
    // cases that test these variables set them.
    for var in [
        "COLUMNS",
        "NO_COLOR",
        "CLICOLOR",
        "CLICOLOR_FORCE",
        "FORCE_COLOR",
        "HEATCAP_PROGRESS_DELAY_MS",
    ] {
        std::env::remove_var(var);
    }
    trycmd::TestCases::new()
        .default_bin_name("heatcap")
        .case("tests/cmd/*.toml");
}
