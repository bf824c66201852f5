//! The configuration file, `.heatcap.yaml`: the first one found from the
//! working directory up to the filesystem root, or the one `--config`
//! names; `--no-config` reads none. It is read with heatcap's own YAML
//! loader, so every mistake in it (bad YAML, an unknown key, a value of
//! the wrong type, a code prefix that matches no code) is a usage error
//! naming the file, line and column; nothing in it is silently ignored.
//!
//! Flags win: a flag given on the command line replaces the key of the same
//! name, lists included (docs/cli.md, "Configuration file").

use std::io::Write;
use std::path::{Path, PathBuf};

use super::args::{ConfigArgs, FailOn, ProfileArg};
use crate::diag::{Severity, Span};
use crate::error::Error;
use crate::load::{parse_text, ParseOptions};
use crate::node::{Node, Value};

/// The name looked for in the working directory and each directory above.
pub const FILE_NAME: &str = ".heatcap.yaml";

/// Every key, as docs/cli.md lists them.
const KEYS: &[&str] = &[
    "select",
    "ignore",
    "fail-on",
    "profile",
    "include",
    "exclude",
    "templates-root",
    "environments",
    "template",
    "deployments",
];

/// A configuration file's settings: `None` where it does not set the key.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ConfigFile {
    /// The file, as shown: relative to the working directory when found
    /// upwards (`../.heatcap.yaml`), as given with `--config`.
    pub path: PathBuf,
    /// `select`: code prefixes, as `validate --select`.
    pub select: Option<Vec<String>>,
    /// `ignore`: code prefixes, as `validate --ignore`.
    pub ignore: Option<Vec<String>>,
    /// `fail-on`, as `validate --fail-on`.
    pub fail_on: Option<FailOn>,
    /// `profile`, as `validate --profile`.
    pub profile: Option<ProfileArg>,
    /// `include` globs, matched below the file's directory.
    pub include: Option<Vec<String>>,
    /// `exclude` globs, matched below the file's directory.
    pub exclude: Option<Vec<String>>,
    /// `templates-root`: `FROM=TO` entries as `--templates-root` takes
    /// them, a relative `TO` already joined to the file's directory (so it
    /// is relative to the working directory, as the flag's is).
    pub templates_root: Option<Vec<String>>,
    /// `environments`: the environment files `heatcap lsp` composes and
    /// resolves with, joined to the file's directory.
    pub environments: Option<Vec<PathBuf>>,
    /// `template`: the root template whose composition `heatcap lsp`
    /// checks, joined to the file's directory.
    pub template: Option<PathBuf>,
    /// `deployments`: the deployments `heatcap diff` checks when no
    /// template is given, their paths as written (relative to the file's
    /// directory, and to `--from DIR` on the old side).
    pub deployments: Option<Vec<Deployment>>,
}

/// One deployment a repository serves (`deployments` entry).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Deployment {
    /// `name`: how reports name it.
    pub name: String,
    /// `template`: the root template (or the plan's).
    pub template: Option<PathBuf>,
    /// `environments`, merged in order.
    pub environments: Vec<PathBuf>,
    /// `plan`: a TripleO plan environment.
    pub plan: Option<PathBuf>,
}

impl ConfigFile {
    /// The directory relative paths and globs in the file are relative to,
    /// as an absolute path (`None` when it cannot be resolved).
    pub fn base(&self) -> Option<PathBuf> {
        let dir = self.path.parent().unwrap_or(Path::new(""));
        let dir = if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            dir
        };
        std::fs::canonicalize(dir).ok()
    }
}

/// The configuration `args` ask for: the file `--config` names, else the
/// first `.heatcap.yaml` from the working directory up, unless
/// `--no-config`. With `verbose`, says on `err` which file is used.
pub fn load(
    args: &ConfigArgs,
    verbose: bool,
    err: &mut dyn Write,
) -> Result<Option<ConfigFile>, Error> {
    let path = if args.no_config {
        None
    } else {
        args.config.clone().or_else(discover)
    };
    let Some(path) = path else {
        if verbose {
            if args.no_config {
                writeln!(err, "no config file (--no-config)")?;
            } else {
                writeln!(
                    err,
                    "no config file ({FILE_NAME} not found from the working directory up)"
                )?;
            }
        }
        return Ok(None);
    };
    let shown = crate::walk::display(&path);
    let bytes = crate::walk::read_regular(&path).map_err(|e| {
        Error::Config(format!(
            "{shown}: cannot read the config file: {}",
            crate::walk::io_message(&e)
        ))
    })?;
    let text = String::from_utf8(bytes)
        .map_err(|_| Error::Config(format!("{shown}: the config file is not UTF-8 text")))?;
    let config = parse(&text, path)?;
    if verbose {
        writeln!(err, "using config file {shown}")?;
    }
    Ok(Some(config))
}

/// The first `.heatcap.yaml` from the working directory up, shown relative
/// to it (`.heatcap.yaml`, `../.heatcap.yaml`, ...).
fn discover() -> Option<PathBuf> {
    let cwd = std::env::current_dir().ok()?;
    let mut shown = PathBuf::new();
    for dir in cwd.ancestors() {
        if dir.join(FILE_NAME).is_file() {
            return Some(shown.join(FILE_NAME));
        }
        shown.push("..");
    }
    None
}

/// Reads a configuration file's text; `path` is the file, as shown.
pub fn parse(text: &str, path: PathBuf) -> Result<ConfigFile, Error> {
    let shown = crate::walk::display(&path);
    let parsed = parse_text(text, &shown, &ParseOptions::default());
    // Any problem the loader finds (a duplicate key too) is a mistake.
    if let Some(d) = parsed.diagnostics.first() {
        let message = if d.severity == Severity::Error {
            format!("invalid YAML: {}", d.message)
        } else {
            // A duplicate key (the loader's only warning): no value wins here.
            let what = d.message.split(": ").next().unwrap_or(&d.message);
            format!("{what}: a setting is given once")
        };
        return Err(located(&shown, d.span, &message));
    }
    let mut config = ConfigFile {
        path,
        ..ConfigFile::default()
    };
    if let Some(root) = &parsed.root {
        settings(root, &mut config).map_err(|(span, m)| located(&shown, Some(span), &m))?;
    }
    Ok(config)
}

fn located(shown: &str, span: Option<Span>, message: &str) -> Error {
    Error::Config(match span {
        Some(s) => format!("{shown}:{}:{}: {message}", s.start.line, s.start.column),
        None => format!("{shown}: {message}"),
    })
}

/// A problem and where it is.
type Located<T> = Result<T, (Span, String)>;

fn settings(root: &Node, config: &mut ConfigFile) -> Located<()> {
    let map = match &root.value {
        Value::Null => return Ok(()),
        Value::Map(m) => m,
        _ => {
            return Err((
                root.span,
                format!(
                    "a config file is a mapping of settings ({}), not {}",
                    KEYS.join(", "),
                    root.value.kind_name()
                ),
            ))
        }
    };
    for (k, v) in &map.entries {
        let Some(key) = k.as_str() else {
            return Err((
                k.span,
                format!("a setting's name is a string, not {}", k.value.kind_name()),
            ));
        };
        match key {
            "select" => config.select = Some(code_prefixes(key, v)?),
            "ignore" => config.ignore = Some(code_prefixes(key, v)?),
            "fail-on" => {
                config.fail_on = Some(match word(key, v, &["error", "warning"])? {
                    "error" => FailOn::Error,
                    _ => FailOn::Warning,
                });
            }
            "profile" => {
                config.profile = Some(match word(key, v, &["hot", "onap"])? {
                    "hot" => ProfileArg::Hot,
                    _ => ProfileArg::Onap,
                });
            }
            "include" => config.include = Some(globs(key, v)?),
            "exclude" => config.exclude = Some(globs(key, v)?),
            "templates-root" => {
                config.templates_root = Some(templates_roots(key, v, &config.path)?);
            }
            "environments" => {
                let dir = config.path.parent().unwrap_or(Path::new("")).to_path_buf();
                config.environments = Some(
                    strings(key, "paths", v)?
                        .into_iter()
                        .map(|(s, _)| dir.join(s))
                        .collect(),
                );
            }
            "template" => {
                let dir = config.path.parent().unwrap_or(Path::new("")).to_path_buf();
                let Some(s) = v.as_str() else {
                    return Err((
                        v.span,
                        format!("`template` takes a path, not {}", v.value.kind_name()),
                    ));
                };
                config.template = Some(dir.join(s));
            }
            "deployments" => config.deployments = Some(deployments(v)?),
            _ => return Err((k.span, unknown_key(key))),
        }
    }
    Ok(())
}

/// `deployments`: a list of mappings with `name` and `template` or
/// `plan` (and `environments`).
fn deployments(v: &Node) -> Located<Vec<Deployment>> {
    const FIELDS: &[&str] = &["name", "template", "environments", "plan"];
    let Some(items) = v.as_seq() else {
        return Err((
            v.span,
            format!(
                "`deployments` takes a list of deployments (mappings of {}), not {}",
                FIELDS.join(", "),
                v.value.kind_name()
            ),
        ));
    };
    let mut out: Vec<Deployment> = Vec::new();
    for item in items {
        let Some(m) = item.as_map() else {
            return Err((
                item.span,
                format!(
                    "a deployment is a mapping of {}, not {}",
                    FIELDS.join(", "),
                    item.value.kind_name()
                ),
            ));
        };
        let mut d = Deployment::default();
        for (k, v) in &m.entries {
            let path = |what: &str| match v.as_str() {
                Some(s) => Ok(PathBuf::from(s)),
                None => Err((
                    v.span,
                    format!("`{what}` takes a path, not {}", v.value.kind_name()),
                )),
            };
            match k.as_str() {
                Some("name") => match v.as_str() {
                    Some(s) if !s.is_empty() => s.clone_into(&mut d.name),
                    _ => return Err((v.span, "`name` takes a non-empty string".to_owned())),
                },
                Some("template") => d.template = Some(path("template")?),
                Some("plan") => d.plan = Some(path("plan")?),
                Some("environments") => {
                    d.environments = strings("environments", "paths", v)?
                        .into_iter()
                        .map(|(s, _)| PathBuf::from(s))
                        .collect();
                }
                _ => {
                    return Err((
                        k.span,
                        format!(
                            "unknown deployment key `{}` (the keys are {})",
                            k.value.key_text(),
                            FIELDS.join(", ")
                        ),
                    ))
                }
            }
        }
        if d.name.is_empty() {
            return Err((item.span, "a deployment needs a `name`".to_owned()));
        }
        if d.template.is_none() && d.plan.is_none() {
            return Err((
                item.span,
                format!("deployment `{}` needs a `template` or a `plan`", d.name),
            ));
        }
        if out.iter().any(|o| o.name == d.name) {
            return Err((item.span, format!("deployment `{}` is named twice", d.name)));
        }
        out.push(d);
    }
    Ok(out)
}

fn unknown_key(key: &str) -> String {
    let dashed = key.replace('_', "-");
    if KEYS.contains(&dashed.as_str()) {
        format!("unknown key `{key}`: did you mean `{dashed}`?")
    } else {
        format!("unknown key `{key}` (the keys are {})", KEYS.join(", "))
    }
}

/// A list of strings (a single string is a list of one), each with its span.
fn strings<'a>(key: &str, what: &str, v: &'a Node) -> Located<Vec<(&'a str, Span)>> {
    let items: Vec<&Node> = match &v.value {
        Value::Seq(items) => items.iter().collect(),
        Value::Str(_) => vec![v],
        other => {
            return Err((
                v.span,
                format!("`{key}` takes a list of {what}, not {}", other.kind_name()),
            ))
        }
    };
    items
        .into_iter()
        .map(|n| match n.as_str() {
            Some(s) => Ok((s, n.span)),
            None => Err((
                n.span,
                format!("`{key}` takes {what}, not {}", n.value.kind_name()),
            )),
        })
        .collect()
}

fn code_prefixes(key: &str, v: &Node) -> Located<Vec<String>> {
    strings(key, "code prefixes (like E3 or W5001)", v)?
        .into_iter()
        .map(|(s, span)| {
            super::config::code_prefix(s)
                .map(|()| s.to_owned())
                .map_err(|m| (span, m))
        })
        .collect()
}

fn word<'a>(key: &str, v: &'a Node, allowed: &[&str]) -> Located<&'a str> {
    let choices = allowed
        .iter()
        .map(|a| format!("`{a}`"))
        .collect::<Vec<_>>()
        .join(" or ");
    match v.as_str() {
        Some(s) if allowed.contains(&s) => Ok(s),
        Some(s) => Err((v.span, format!("`{key}` takes {choices}, not `{s}`"))),
        None => Err((
            v.span,
            format!("`{key}` takes {choices}, not {}", v.value.kind_name()),
        )),
    }
}

fn globs(key: &str, v: &Node) -> Located<Vec<String>> {
    strings(key, "globs", v)?
        .into_iter()
        .map(|(s, span)| match globset::Glob::new(s) {
            Ok(_) => Ok(s.to_owned()),
            Err(e) => Err((span, format!("invalid glob `{s}`: {}", e.kind()))),
        })
        .collect()
}

fn templates_roots(key: &str, v: &Node, file: &Path) -> Located<Vec<String>> {
    let dir = file.parent().unwrap_or(Path::new(""));
    strings(key, "FROM=TO entries", v)?
        .into_iter()
        .map(|(s, span)| match s.split_once('=') {
            Some((from, to)) if !from.is_empty() && !to.is_empty() => {
                let to = Path::new(to);
                let to = if to.is_absolute() {
                    to.to_path_buf()
                } else {
                    dir.join(to)
                };
                Ok(format!("{from}={}", crate::walk::display(&to)))
            }
            _ => Err((
                span,
                format!("`{key}` takes FROM=TO (both non-empty), not `{s}`"),
            )),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(text: &str) -> Result<ConfigFile, String> {
        parse(text, PathBuf::from("conf/.heatcap.yaml")).map_err(|e| e.to_string())
    }

    #[test]
    fn every_key_is_read() {
        let c = parsed(concat!(
            "# settings\n",
            "select: [E3, W2003]\n",
            "ignore: E3004\n",
            "fail-on: warning\n",
            "profile: onap\n",
            "include: ['*.yaml', '*.env']\n",
            "exclude: [vendor/**]\n",
            "templates-root: [/usr/share/tht=tht, /a=/b]\n",
        ))
        .unwrap();
        assert_eq!(
            c.select.as_deref(),
            Some(&["E3".to_owned(), "W2003".to_owned()][..])
        );
        assert_eq!(c.ignore.as_deref(), Some(&["E3004".to_owned()][..]));
        assert_eq!(c.fail_on, Some(FailOn::Warning));
        assert_eq!(c.profile, Some(ProfileArg::Onap));
        assert_eq!(c.include.unwrap(), ["*.yaml", "*.env"]);
        assert_eq!(c.exclude.unwrap(), ["vendor/**"]);
        assert_eq!(
            c.templates_root.unwrap(),
            ["/usr/share/tht=conf/tht", "/a=/b"]
        );
    }

    #[test]
    fn the_documented_example_is_valid() {
        let doc = std::fs::read_to_string("docs/cli.md").unwrap();
        let start = doc.find("```yaml\n# .heatcap.yaml\n").unwrap() + "```yaml\n".len();
        let end = start + doc[start..].find("```").unwrap();
        let c = parsed(&doc[start..end]).unwrap();
        assert_eq!(c.fail_on, Some(FailOn::Warning));
        assert_eq!(c.exclude.unwrap(), ["vendor/**", "*.j2.yaml"]);
        let keys: Vec<&str> = doc[start..end]
            .lines()
            .filter_map(|l| l.split_once(':').map(|(k, _)| k))
            .filter(|k| !k.starts_with([' ', '#']))
            .collect();
        assert_eq!(keys, KEYS, "the example shows every key, in order");
    }

    #[test]
    fn deployments_are_read_as_written() {
        let c = parsed(concat!(
            "deployments:\n",
            "  - name: ha\n",
            "    template: overcloud.yaml\n",
            "    environments: [a.yaml, env/b.yaml]\n",
            "  - name: planned\n",
            "    plan: plan-environment.yaml\n",
        ))
        .unwrap();
        let d = c.deployments.unwrap();
        assert_eq!(d.len(), 2);
        assert_eq!(d[0].name, "ha");
        assert_eq!(d[0].template, Some(PathBuf::from("overcloud.yaml")));
        assert_eq!(
            d[0].environments,
            [PathBuf::from("a.yaml"), PathBuf::from("env/b.yaml")]
        );
        assert_eq!(d[1].plan, Some(PathBuf::from("plan-environment.yaml")));
        assert_eq!(d[1].template, None);
    }

    #[test]
    fn a_deployment_mistake_names_its_line() {
        for (text, want) in [
            ("deployments: x\n", "1:14: `deployments` takes a list"),
            (
                "deployments:\n  - template: t.yaml\n",
                "2:5: a deployment needs a `name`",
            ),
            (
                "deployments:\n  - name: a\n",
                "2:5: deployment `a` needs a `template` or a `plan`",
            ),
            (
                "deployments:\n  - {name: a, template: t}\n  - {name: a, template: u}\n",
                "3:5: deployment `a` is named twice",
            ),
            (
                "deployments:\n  - {name: a, tempate: t}\n",
                "2:15: unknown deployment key `tempate`",
            ),
        ] {
            let e = parsed(text).unwrap_err();
            assert!(e.contains(want), "{text:?}: {e}");
        }
    }

    #[test]
    fn empty_and_comment_only_files_set_nothing() {
        for text in ["", "# nothing yet\n", "~\n"] {
            let c = parsed(text).unwrap();
            assert_eq!(c.select, None);
            assert_eq!(c.path, PathBuf::from("conf/.heatcap.yaml"));
        }
    }

    #[test]
    fn mistakes_name_the_file_line_and_column() {
        for (text, want) in [
            (
                "select: [E3\nignore: x\n",
                "conf/.heatcap.yaml:2:7: invalid YAML: ",
            ),
            (
                "fail_on: warning\n",
                "conf/.heatcap.yaml:1:1: unknown key `fail_on`: did you mean `fail-on`?",
            ),
            (
                "# x\nselct: [E3]\n",
                "conf/.heatcap.yaml:2:1: unknown key `selct` (the keys are select, ignore, fail-on, profile, include, exclude, templates-root, environments, template, deployments)",
            ),
            (
                "select: {E3: 1}\n",
                "conf/.heatcap.yaml:1:9: `select` takes a list of code prefixes (like E3 or W5001), not a mapping",
            ),
            (
                "ignore: [W2003, 3004]\n",
                "conf/.heatcap.yaml:1:17: `ignore` takes code prefixes (like E3 or W5001), not an integer",
            ),
            (
                "ignore: [X1]\n",
                "conf/.heatcap.yaml:1:10: `X1` is not a rule code prefix (like E3 or W5001)",
            ),
            (
                "select:\n  - I9\n",
                "conf/.heatcap.yaml:2:5: `I9` matches no code (`heatcap rules` lists them)",
            ),
            (
                "fail-on: never\n",
                "conf/.heatcap.yaml:1:10: `fail-on` takes `error` or `warning`, not `never`",
            ),
            (
                "profile: [onap]\n",
                "conf/.heatcap.yaml:1:10: `profile` takes `hot` or `onap`, not a list",
            ),
            (
                "exclude: ['a[']\n",
                "conf/.heatcap.yaml:1:11: invalid glob `a[`: ",
            ),
            (
                "templates-root: [tht]\n",
                "conf/.heatcap.yaml:1:18: `templates-root` takes FROM=TO (both non-empty), not `tht`",
            ),
            (
                "- select\n",
                "conf/.heatcap.yaml:1:1: a config file is a mapping of settings (select, ignore, fail-on, profile, include, exclude, templates-root, environments, template, deployments), not a list",
            ),
            (
                "select: [E3]\nselect: [E2]\n",
                "conf/.heatcap.yaml:2:1: duplicate key `select`: a setting is given once",
            ),
        ] {
            let got = parsed(text).unwrap_err();
            assert!(got.starts_with(want), "{text:?}: {got}");
        }
    }
}
