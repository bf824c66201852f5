//! `heatcap completions SHELL` and `heatcap man`: generated from the same
//! clap definition that parses the command line, so every command is in
//! them.

use clap::{CommandFactory, Parser};
use heatcap::cli::{run, Cli};

fn heatcap(words: &[&str]) -> String {
    let mut argv = vec!["heatcap"];
    argv.extend(words);
    let cli = Cli::try_parse_from(&argv).unwrap();
    let (mut out, mut err) = (Vec::new(), Vec::new());
    run(cli, &mut out, &mut err).unwrap();
    assert!(
        err.is_empty(),
        "{argv:?}: {}",
        String::from_utf8_lossy(&err)
    );
    String::from_utf8(out).unwrap()
}

fn commands() -> Vec<String> {
    Cli::command()
        .get_subcommands()
        .map(|c| c.get_name().to_owned())
        .collect()
}

#[test]
fn every_shell_completes_every_command() {
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let script = heatcap(&["completions", shell]);
        for c in commands() {
            assert!(script.contains(&c), "{shell}: no `{c}`");
        }
    }
    let bash = heatcap(&["completions", "bash"]);
    assert!(bash.contains("-F _heatcap") && bash.contains("heatcap,validate)"));
    // Values are completed too: validate's formats.
    assert!(
        bash.contains("plain json table sarif github jsonl"),
        "{bash}"
    );
}

#[test]
fn the_man_page_has_its_sections_and_every_command() {
    let page = heatcap(&["man"]);
    assert!(page.contains(".TH heatcap 1"), "{page}");
    for section in [".SH NAME", ".SH SYNOPSIS", ".SH DESCRIPTION", ".SH OPTIONS"] {
        assert!(page.contains(section), "no {section}");
    }
    assert!(page.contains("heatcap \\- Discover, resolve and validate"));
    for c in commands() {
        // roff escapes `-` as `\-`.
        let entry = format!("heatcap\\-{}(1)", c.replace('-', "\\-"));
        assert!(page.contains(&entry), "no {entry}");
    }
    // The exit statuses, as --help has them.
    assert!(page.contains("Exit status:"));
}

#[test]
fn a_command_has_its_own_page() {
    let page = heatcap(&["man", "validate"]);
    assert!(page.contains(".TH heatcap-validate 1"), "{page}");
    assert!(page.contains(".SH NAME\nheatcap\\-validate \\- "));
    assert!(page.contains(".SH SYNOPSIS\n\\fBheatcap validate\\fR"));
    assert!(page.contains("\\-\\-format"));
    assert!(page.contains("github"));
}
