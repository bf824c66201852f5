//! The only module that knows the whole pipeline order: it runs the stages
//! for each command and hands the result to a renderer.

pub mod args;
pub mod catalog;
pub mod config;
mod export_cmd;
mod resolve_cmd;
mod validate_cmd;
mod validate_compose;

use std::io::Write;

pub use args::{Cli, Command};

use crate::diag::Diagnostic;
use crate::error::{Error, Exit};
use crate::index::Index;
use crate::load::{self, LoadOptions, Status};
use crate::model::{Corpus, FileRecord};
use crate::query;
use crate::report::{self, Format};
use crate::walk::{self, Walked};

/// Runs one command: results to `out`, diagnostics to `err`.
pub fn run(cli: Cli, out: &mut dyn Write, err: &mut dyn Write) -> Result<Exit, Error> {
    match cli.command {
        Command::CapabilitiesFind(a) => {
            let conditions = config::conditions(&a.conditions)?;
            let walk_opts = config::walk_options(&a.walk, a.paths)?;
            let mut load_opts = config::load_options(&a.walk)?;
            // A file without the word cannot have the section: skip parsing it.
            load_opts.prefilter = Some("capabilities");
            let output = config::output(&a.output, Format::Plain);
            let corpus = load_corpus(walk::walk(&walk_opts), &load_opts);
            let index = Index::build(&corpus);
            let matches = query::find(&index, &conditions);
            report::render_find(out, &matches, output.format)?;
            print_diagnostics(err, corpus.diagnostics(), output)?;
            Ok(if matches.is_empty() {
                Exit::NoMatchOrFindings
            } else {
                Exit::Ok
            })
        }
        Command::TemplateCapabilities(a) => {
            let output = config::output(&a.output, Format::Json);
            let load_opts = config::load_options(&a.walk)?;
            let walked = walk::walk(&config::walk_options(&a.walk, a.files)?);
            let env_walk = walk::walk(&config::walk_options(&a.walk, a.environments)?);
            // Environments first, so that the templates they name join the set.
            let envs = load_corpus(env_walk, &load_opts);
            let mut diagnostics: Vec<Diagnostic> = envs.diagnostics().cloned().collect();
            for f in &envs.files {
                if f.status == Status::Ok && f.environment().is_none() {
                    diagnostics.push(Diagnostic::new(
                        crate::diag::codes::NOT_HEAT_FILE,
                        f.path.clone(),
                        "given with -e but is not an environment",
                    ));
                }
            }
            let corpus = load_corpus_with_registry(walked, &envs, &load_opts);
            diagnostics.extend(corpus.diagnostics().cloned());
            let index = Index::build(&corpus);
            if a.by_type {
                report::render_by_type(out, &query::by_type(&index), output.format)?;
            } else {
                report::render_summary(out, &query::summary(&index), output.format)?;
            }
            print_diagnostics(err, &diagnostics, output)?;
            Ok(exit_for_errors(&diagnostics))
        }
        Command::Resolve(a) => resolve_cmd::run(&a, out, err),
        Command::Options(a) => resolve_cmd::run_options(&a, out, err),
        Command::Export(a) => export_cmd::run_export(&a, out, err),
        Command::Parameters(a) => resolve_cmd::run_parameters(&a, out, err),
        Command::Validate(a) => validate_cmd::run(&a, out, err),
        Command::Index(a) => {
            let output = config::output(&a.output, Format::Json);
            let walk_opts = config::walk_options(&a.walk, a.paths)?;
            let load_opts = config::load_options(&a.walk)?;
            let corpus = load_corpus(walk::walk(&walk_opts), &load_opts);
            report::render_index(out, &query::index_document(&corpus), output.format)?;
            print_diagnostics(err, corpus.diagnostics(), output)?;
            let diagnostics: Vec<&Diagnostic> = corpus.diagnostics().collect();
            Ok(exit_for_errors(diagnostics.iter().copied()))
        }
    }
}

fn exit_for_errors<'a>(diagnostics: impl IntoIterator<Item = &'a Diagnostic>) -> Exit {
    if diagnostics
        .into_iter()
        .any(|d| d.severity == crate::diag::Severity::Error)
    {
        Exit::NoMatchOrFindings
    } else {
        Exit::Ok
    }
}

pub(crate) fn print_diagnostics<'a>(
    err: &mut dyn Write,
    diagnostics: impl IntoIterator<Item = &'a Diagnostic>,
    output: config::Output,
) -> Result<(), Error> {
    if let Some(min) = output.min_severity {
        report::write_diagnostics(err, diagnostics, min)?;
    }
    Ok(())
}

/// Loads every walked file (in parallel, in order) into a corpus.
pub fn load_corpus(walked: Walked, opts: &LoadOptions) -> Corpus {
    let files = load::load_all(&walked.sources, opts, |l| {
        FileRecord::from_loaded(l, false).slimmed()
    });
    Corpus {
        files,
        walk_diagnostics: walked.diagnostics,
    }
}

/// Loads the walked files plus every template the environments' registries
/// name (resolved against each environment's real directory, as
/// python-heatclient does). `Walked` remembers every file it listed, so a
/// template named twice, or also given with `-f`, is loaded once.
fn load_corpus_with_registry(mut walked: Walked, envs: &Corpus, opts: &LoadOptions) -> Corpus {
    let given = walked.sources.len();
    let mut files = load::load_all(&walked.sources, opts, |l| {
        FileRecord::from_loaded(l, false).slimmed()
    });
    // Environments given with -f count as -e.
    for env_file in envs.files.iter().chain(files.iter()) {
        let Some(env) = env_file.environment() else {
            continue;
        };
        for target in env.template_paths() {
            if let Some((path, display)) = catalog::locate(&env_file.path, target) {
                walked.add_file(path, display);
            }
        }
    }
    let named = load::load_all(&walked.sources[given..], opts, |l| {
        FileRecord::from_loaded(l, false)
    });
    files.extend(named);
    Corpus {
        files,
        walk_diagnostics: walked.diagnostics,
    }
}

pub(crate) use crate::walk::normalize;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registry_targets_skip_remote_urls() {
        assert!(catalog::locate("env.yaml", "https://example.org/t.yaml").is_none());
        let (_, shown) = catalog::locate("./envs/e.yaml", "../t/x.yaml").unwrap();
        assert_eq!(shown, "./t/x.yaml");
        let (_, shown) = catalog::locate("envs/e.yaml", "file:///abs/x.yaml").unwrap();
        assert_eq!(shown, "/abs/x.yaml");
    }
}
