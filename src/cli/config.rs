//! Flags → a validated configuration, before any file is read. Every usage
//! error comes from here.

use std::path::PathBuf;

use globset::GlobSet;

use super::args::{OutputArgs, ReadArgs, WalkArgs};
use super::config_file::ConfigFile;
use crate::diag::Severity;
use crate::error::Error;
use crate::load::{LoadOptions, ParseOptions};
use crate::query::Condition;
use crate::report::Format;
use crate::walk::WalkOptions;

pub use crate::walk::{default_include, DEFAULT_INCLUDE};

fn globs(patterns: &[String], flag: &str) -> Result<GlobSet, Error> {
    crate::walk::globs(patterns, flag).map_err(Error::Usage)
}

/// Walk options from the flags and the configuration file: `--include`
/// and `--exclude`, when given, replace the file's `include` and `exclude`
/// (whose globs match below the file's directory).
pub fn walk_options(
    args: &WalkArgs,
    roots: Vec<PathBuf>,
    file: Option<&ConfigFile>,
) -> Result<WalkOptions, Error> {
    walk_options_with(args, roots, file, &DEFAULT_INCLUDE)
}

fn walk_options_with(
    args: &WalkArgs,
    roots: Vec<PathBuf>,
    file: Option<&ConfigFile>,
    default_include: &[&str],
) -> Result<WalkOptions, Error> {
    let base = file.and_then(ConfigFile::base);
    let pick = |flag: &[String], key: Option<&Vec<String>>| match key {
        Some(k) if flag.is_empty() => (k.clone(), base.clone()),
        _ => (flag.to_vec(), None),
    };
    let (mut include, include_base) = pick(&args.include, file.and_then(|f| f.include.as_ref()));
    if include.is_empty() {
        include = default_include.iter().map(|s| (*s).to_owned()).collect();
    }
    let (exclude, exclude_base) = pick(&args.exclude, file.and_then(|f| f.exclude.as_ref()));
    Ok(WalkOptions {
        roots,
        recursive: args.recursive,
        include: globs(&include, "--include")?,
        exclude: globs(&exclude, "--exclude")?,
        hidden: args.hidden,
        include_base,
        exclude_base,
    })
}

/// `validate`'s walk: under the ONAP profile `*.env` files are read too,
/// unless `--include` (or the file's `include`) says otherwise.
pub fn validate_walk_options(
    a: &super::args::ValidateArgs,
    profile: super::args::ProfileArg,
    file: Option<&ConfigFile>,
) -> Result<WalkOptions, Error> {
    let onap: Vec<&str> = DEFAULT_INCLUDE.iter().copied().chain(["*.env"]).collect();
    let default: &[&str] = if profile == super::args::ProfileArg::Onap {
        &onap
    } else {
        &DEFAULT_INCLUDE
    };
    walk_options_with(&a.walk, a.paths.clone(), file, default)
}

/// Checks a `--select`/`--ignore` code prefix (or the config file's):
/// its shape, and that some code of the catalogue starts with it.
pub fn code_prefix(p: &str) -> Result<(), String> {
    let shaped = p.len() <= 5
        && p.starts_with(['E', 'W', 'I'])
        && p.bytes().skip(1).all(|b| b.is_ascii_digit());
    if !shaped {
        return Err(format!(
            "`{p}` is not a rule code prefix (like E3 or W5001)"
        ));
    }
    if !crate::catalogue().iter().any(|c| c.code.0.starts_with(p)) {
        return Err(format!(
            "`{p}` matches no code (`heatcap rules` lists them)"
        ));
    }
    Ok(())
}

/// `--templates-root FROM=TO` pairs, checked.
pub fn remap(specs: &[String]) -> Result<crate::walk::Remap, Error> {
    let pairs = specs
        .iter()
        .map(|s| {
            crate::walk::Remap::parse_pair(s)
                .map_err(|e| Error::Usage(format!("--templates-root: {e}")))
        })
        .collect::<Result<Vec<_>, Error>>()?;
    Ok(crate::walk::Remap::new(pairs))
}

/// The `--templates-root` pairs, or the config file's when the flag is
/// not given (a flag wins over the file's key, as every flag does).
pub fn remap_with_file(
    flag: &crate::walk::Remap,
    file: Option<&super::config_file::ConfigFile>,
) -> Result<crate::walk::Remap, Error> {
    match file.and_then(|f| f.templates_root.as_ref()) {
        Some(pairs) if flag.is_empty() => remap(pairs),
        _ => Ok(flag.clone()),
    }
}

/// Load options from the flags.
pub fn load_options(args: &ReadArgs) -> Result<LoadOptions, Error> {
    let mut load = sized_load_options(args.max_size)?;
    load.render = render_options(&args.render);
    Ok(load)
}

/// `load` reading the tree at `--rev` (when given) of the repository the
/// first of `paths` (not standard input) is in; the working directory's
/// when there is none.
pub fn at_revision<'a>(
    mut load: LoadOptions,
    rev: &super::args::RevArgs,
    paths: impl IntoIterator<Item = &'a std::path::Path>,
) -> Result<LoadOptions, Error> {
    if let Some(rev) = &rev.rev {
        load.overlay = revision_files(rev, paths, load.max_size)?;
    }
    Ok(load)
}

/// The files of the tree at `rev` in the repository the first of `paths`
/// (not standard input) is in.
pub fn revision_files<'a>(
    rev: &str,
    paths: impl IntoIterator<Item = &'a std::path::Path>,
    max_chars: usize,
) -> Result<crate::vfs::FileOverlay, Error> {
    let anchor = paths
        .into_iter()
        .find(|p| !crate::walk::is_stdin(p) && !p.as_os_str().is_empty())
        .unwrap_or(std::path::Path::new("."));
    Ok(crate::git::tree_at(anchor, rev, max_chars)?)
}

/// The files of `--rev` for a composition: the repository the template
/// (else the plan, else the first environment) is in; nothing without
/// `--rev`.
pub fn composition_files(
    rev: &super::args::RevArgs,
    composition: &super::args::CompositionArgs,
) -> Result<crate::vfs::FileOverlay, Error> {
    match &rev.rev {
        Some(rev) => revision_files(
            rev,
            composition
                .template
                .iter()
                .chain(&composition.plan)
                .chain(&composition.environments)
                .map(std::path::PathBuf::as_path),
            crate::load::DEFAULT_MAX_SIZE,
        ),
        None => Ok(crate::vfs::FileOverlay::default()),
    }
}

/// `--roles-data`, `--network-data`.
pub fn render_options(args: &super::args::RenderArgs) -> crate::load::RenderOptions {
    crate::load::RenderOptions {
        roles_data: args.roles_data.clone(),
        network_data: args.network_data.clone(),
    }
}

/// Load options for a `--max-size` (characters, at least 1).
pub fn sized_load_options(max_size: usize) -> Result<LoadOptions, Error> {
    if max_size == 0 {
        return Err(Error::Usage("--max-size must be at least 1".into()));
    }
    Ok(LoadOptions {
        max_size,
        parse: ParseOptions::default(),
        prefilter: Vec::new(),
        remap: crate::walk::Remap::default(),
        stdin: None,
        render: crate::load::RenderOptions::default(),
        memory: None,
        confine: None,
        cache: None,
        overlay: crate::vfs::FileOverlay::default(),
    })
}

/// `load` with standard input read, when one of `paths` is `-`. `-` may be
/// given once in a run: standard input can be read only once.
pub fn with_stdin<'a>(
    mut load: LoadOptions,
    paths: impl IntoIterator<Item = &'a PathBuf>,
) -> Result<LoadOptions, Error> {
    let times = paths
        .into_iter()
        .filter(|p| crate::walk::is_stdin(p))
        .count();
    if times > 1 {
        return Err(Error::Usage(format!(
            "`-` (standard input) is given {times} times; it can be read only once"
        )));
    }
    if times == 1 {
        load.stdin = Some(read_stdin(load.max_size)?);
    }
    Ok(load)
}

/// Standard input, read once for the whole run (so it lives as long as the
/// run): at most one byte more than `max_size` characters can take, which
/// the loader then reports as too large.
fn read_stdin(max_size: usize) -> Result<&'static [u8], Error> {
    use std::io::Read;
    let ceiling = (max_size as u64).saturating_mul(4).saturating_add(1);
    let mut buf = Vec::new();
    std::io::stdin()
        .lock()
        .take(ceiling)
        .read_to_end(&mut buf)
        .map_err(|e| Error::Usage(format!("cannot read standard input: {e}")))?;
    Ok(Box::leak(buf.into_boxed_slice()))
}

/// A usage error when `paths` name standard input, for a command that
/// reads its files by path (`what` says which).
pub fn no_stdin<'a>(paths: impl IntoIterator<Item = &'a PathBuf>, what: &str) -> Result<(), Error> {
    if paths.into_iter().any(|p| crate::walk::is_stdin(p)) {
        return Err(Error::Usage(format!(
            "{what} cannot read standard input (`-`): save it to a file first"
        )));
    }
    Ok(())
}

/// Output choices from the flags.
#[derive(Debug, Clone, Copy)]
pub struct Output {
    pub format: Format,
    /// Diagnostics below this are not printed; `None` prints none.
    pub min_severity: Option<Severity>,
}

pub fn output(args: &OutputArgs, default: Format) -> Output {
    Output {
        format: args.format.unwrap_or(default),
        min_severity: verbosity(args.quiet, args.verbose),
    }
}

/// Which diagnostics to print: none (`-q`), notes too (`-v`), or warnings
/// and errors.
pub fn verbosity(quiet: bool, verbose: bool) -> Option<Severity> {
    if quiet {
        None
    } else if verbose {
        Some(Severity::Info)
    } else {
        Some(Severity::Warning)
    }
}

/// `-c KEY=VALUE` conditions.
pub fn conditions(raw: &[String]) -> Result<Vec<Condition>, Error> {
    raw.iter()
        .map(|c| {
            Condition::parse(c)
                .ok_or_else(|| Error::Usage(format!("-c takes KEY=VALUE, got `{c}`")))
        })
        .collect()
}
