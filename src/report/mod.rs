//! Stage 6: renderers. Each is a pure function from a result to a writer;
//! nothing outside this module and `main.rs` prints.

mod catalogue;
mod full;
mod introspect;
pub(crate) use crate::encode::{json, yaml};
mod diff;
mod file_entry;
mod github;
mod interface;
mod look;
mod options;
mod parameters;
mod preview;
mod resolve;
mod resource_types;
mod rules;
pub(crate) mod sarif;
mod schema;
mod text;

use std::io::{self, Write};

pub(crate) use catalogue::render_catalogue;
pub(crate) use diff::render_diff;
pub(crate) use interface::render_deployments;
pub(crate) use introspect::{render_by_type, render_find, render_index, render_summary};
pub(crate) use options::render_options;
pub(crate) use parameters::{render_parameters, render_parameters_diff};
pub(crate) use preview::render_preview;
pub(crate) use resolve::render_resolve;
pub(crate) use resource_types::{render_template, render_type_list, render_type_show};
pub(crate) use rules::render_rules;
pub(crate) use schema::{schema, write_schema, write_schema_list, SCHEMAS};
pub(crate) use text::{write_diagnostics, write_findings_table, write_validate_summary};

pub(crate) use full::Sources;
pub(crate) use look::Look;
use look::{table, wrap, KEEP, NARROW, VALUE, WRAP};

/// Every output format (`--format`). Each command takes a subset of them
/// (see the CLI reference); the renderers take the ones their command does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Format {
    /// One JSON document on one line (Python `json.dumps` spacing).
    Json,
    /// The same document as YAML.
    Yaml,
    /// A table for people.
    Table,
    /// Plain lines for shell pipelines and editors (`path:line:col: ...`
    /// for findings); `text` is another name for it.
    Plain,
    /// SARIF 2.1.0 (`validate`).
    Sarif,
    /// What Heat's own API answers (`parameters`: the validate document;
    /// `resource-type`: the resource type API's bodies).
    Heat,
    /// python-heatclient's stack-create body (`export`).
    HeatApi,
    /// TripleO's flattened parameters (`parameters`: tripleo-common's
    /// `heat_resource_tree`, as its UI reads them).
    HeatResourceTree,
    /// Markdown (`rules`: the page docs/rules.md).
    Markdown,
    // Machine formats for CI and pipelines (`--format github`, `jsonl`).
    /// GitHub Actions workflow commands, one annotation a finding (`validate`).
    Github,
    /// JSON Lines: one record a line (`validate`'s findings, `rules`'
    /// codes, the query commands' matches, files, lookups and choices).
    Jsonl,
    /// Each finding with its source lines and a marker under its span, as
    /// rustc and ruff show them (`validate`).
    Full,
}

impl Format {
    /// Every format, in the order help lists them.
    pub const ALL: [Format; 12] = [
        Format::Plain,
        Format::Json,
        Format::Yaml,
        Format::Table,
        Format::Sarif,
        Format::Heat,
        Format::HeatApi,
        Format::HeatResourceTree,
        Format::Markdown,
        Format::Github,
        Format::Jsonl,
        Format::Full,
    ];

    /// The name `--format` takes.
    pub fn name(self) -> &'static str {
        match self {
            Format::Json => "json",
            Format::Yaml => "yaml",
            Format::Table => "table",
            Format::Plain => "plain",
            Format::Sarif => "sarif",
            Format::Heat => "heat",
            Format::HeatApi => "heat-api",
            Format::HeatResourceTree => "heat-resource-tree",
            Format::Markdown => "markdown",
            Format::Github => "github",
            Format::Jsonl => "jsonl",
            Format::Full => "full",
        }
    }

    /// Other names a format answers to.
    pub fn aliases(self) -> &'static [&'static str] {
        match self {
            Format::Plain => &["text"],
            Format::Jsonl => &["json-lines"],
            _ => &[],
        }
    }

    /// The format a name (or an alias) stands for.
    pub fn from_name(name: &str) -> Option<Format> {
        Format::ALL
            .into_iter()
            .find(|f| f.name() == name || f.aliases().contains(&name))
    }

    /// What the format is, for `--help`.
    pub fn help(self) -> &'static str {
        match self {
            Format::Json => "one JSON document on one line",
            Format::Yaml => "the same document as YAML",
            Format::Table => "a table for people",
            Format::Plain => "plain lines for shell pipelines (alias: text)",
            Format::Sarif => "SARIF 2.1.0, for code scanning",
            Format::Heat => "the JSON Heat's own API returns for the same question",
            Format::HeatApi => "python-heatclient's stack-create body (nothing written)",
            Format::HeatResourceTree => {
                "TripleO's flattened parameters (tripleo-common's heat_resource_tree)"
            }
            Format::Markdown => "Markdown",
            Format::Github => "GitHub Actions annotations (workflow commands)",
            Format::Jsonl => "JSON Lines: one record a line (alias: json-lines)",
            Format::Full => "each finding with its source lines, marked (as rustc and ruff)",
        }
    }
}

/// Writes `value` as JSON or YAML.
/// `n` and the noun, singular for one: `1 file`, `2 files`, `0 errors`.
pub(crate) fn counted(n: usize, singular: &str, plural: &str) -> String {
    if n == 1 {
        format!("{n} {singular}")
    } else {
        format!("{n} {plural}")
    }
}

pub(crate) fn write_data(
    out: &mut dyn Write,
    value: &serde_json::Value,
    format: Format,
) -> io::Result<()> {
    match format {
        Format::Yaml => yaml::write(out, value),
        _ => json::write_line(out, value),
    }
}

/// JSON Lines: each record as JSON on its own line, written one by one
/// (no document is built around them).
pub(crate) fn write_lines<T: serde::Serialize>(
    out: &mut dyn Write,
    records: impl IntoIterator<Item = T>,
) -> io::Result<()> {
    records
        .into_iter()
        .try_for_each(|r| json::write_line(out, &r))
}

/// `validate`'s result in `format` (plain: `path:line:col` lines; full:
/// each with the lines of `sources` it points at).
pub(crate) fn render_validate(
    out: &mut dyn Write,
    validated: &crate::workspace::Validated,
    format: Format,
    catalogue: &[&crate::diag::CodeInfo],
    look: Look,
    sources: &Sources,
) -> io::Result<()> {
    let findings = &validated.findings;
    match format {
        Format::Json => {
            let [errors, warnings, notes] = validated.counts();
            write_validate_json(
                out,
                &ValidateReport {
                    files: validated.files,
                    summary: Summary {
                        errors,
                        warnings,
                        notes,
                        suppressed: validated.suppressed,
                    },
                    modules: &validated
                        .modules
                        .iter()
                        .map(|(file, kind)| Module {
                            file: file.clone(),
                            kind: *kind,
                        })
                        .collect::<Vec<_>>(),
                    diagnostics: findings,
                },
            )
        }
        Format::Sarif => sarif::write(out, findings, catalogue),
        Format::Github => github::write(out, findings, catalogue),
        Format::Jsonl => json::write_record_lines(out, findings),
        Format::Table => write_findings_table(out, findings, look),
        Format::Full => full::write_full(out, findings, sources, look),
        _ => text::write_findings(out, findings, look),
    }
}

/// `validate --format json` as [`json::write_line`] writes the report,
/// byte for byte, with the findings rendered in parallel (on 2 threads, the
/// JSON of 100,000 findings was a seventh of `validate`'s time, on one).
fn write_validate_json(out: &mut dyn Write, report: &ValidateReport<'_>) -> io::Result<()> {
    // [`ValidateReport`]'s fields, in its order.
    let mut o = json::Object::new(out);
    o.field("files", &report.files)?;
    o.field("summary", &report.summary)?;
    if !report.modules.is_empty() {
        o.field("modules", report.modules)?;
    }
    o.records("diagnostics", report.diagnostics)?;
    o.end()
}

/// `validate --format json`: the files checked, the counts, every finding.
#[derive(Debug, serde::Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub(crate) struct ValidateReport<'a> {
    /// The files checked.
    pub files: usize,
    /// The findings by severity.
    pub summary: Summary,
    /// `--profile onap`: what each file is in its VNF package.
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    #[schemars(length(min = 1))]
    pub modules: &'a [Module],
    /// Every finding not suppressed, in order.
    pub diagnostics: &'a [crate::diag::Diagnostic],
}

/// One file's kind in its VNF package.
#[derive(Debug, serde::Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub(crate) struct Module {
    /// The file, as given.
    pub file: String,
    /// What it is in its package.
    pub kind: crate::model::package::ModuleKind,
}

/// Findings by severity, and those `# heatcap:` comments suppressed.
#[derive(Debug, serde::Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub(crate) struct Summary {
    /// Errors found.
    pub errors: usize,
    /// Warnings found.
    pub warnings: usize,
    /// Notes found.
    pub notes: usize,
    /// Findings `# heatcap:` comments suppressed (absent when none was).
    #[serde(skip_serializing_if = "is_zero")]
    #[schemars(range(min = 1))]
    pub suppressed: usize,
}

/// `export --format json`: what was written.
#[derive(Debug, serde::Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub(crate) struct ExportReport<'a> {
    /// Every file written, relative to `--out`.
    pub files: &'a [String],
    /// The exported environments, relative to `--out`, in the order to give
    /// them to Heat (`-e`).
    pub environments: &'a [String],
}

#[allow(clippy::trivially_copy_pass_by_ref)] // serde passes a reference
fn is_zero(n: &usize) -> bool {
    *n == 0
}

#[cfg(test)]
mod validate_json_tests {
    use super::*;

    /// `validate --format json` with its findings rendered in parallel is
    /// the report as serde writes it, byte for byte: Heat's rules on trees
    /// with many kinds of finding, and the ONAP profile (its modules).
    #[test]
    fn the_parallel_validate_json_is_the_reports() {
        let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
        for (tree, profile) in [
            ("hostile", crate::Profile::Hot),
            ("rules", crate::Profile::Hot),
            ("tripleo-heat-templates-2016", crate::Profile::Hot),
            ("onap", crate::Profile::Onap),
        ] {
            let mut opts =
                crate::workspace::ValidateOptions::new(vec![fixtures.join(tree)], profile);
            opts.walk = opts.walk.recursive();
            let validated = crate::workspace::validate(&opts);
            assert!(!validated.findings.is_empty(), "{tree}");
            let modules: Vec<Module> = validated
                .modules
                .iter()
                .map(|(file, kind)| Module {
                    file: file.clone(),
                    kind: *kind,
                })
                .collect();
            let report = ValidateReport {
                files: validated.files,
                summary: Summary {
                    errors: 1,
                    warnings: 2,
                    notes: 3,
                    suppressed: 4,
                },
                modules: &modules,
                diagnostics: &validated.findings,
            };
            let (mut whole, mut parallel) = (Vec::new(), Vec::new());
            json::write_line(&mut whole, &report).unwrap();
            write_validate_json(&mut parallel, &report).unwrap();
            assert_eq!(
                String::from_utf8(parallel).unwrap(),
                String::from_utf8(whole).unwrap(),
                "{tree}"
            );
        }
    }
}
