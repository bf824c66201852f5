//! Stage 6: renderers. Each is a pure function from a result to a writer;
//! nothing outside this module and `main.rs` prints.

mod introspect;
pub mod json;
mod options;
mod parameters;
mod resolve;
pub mod sarif;
mod text;
pub mod yaml;

use std::io::{self, Write};

pub use introspect::{render_by_type, render_find, render_index, render_summary};
pub use options::render_options;
pub use parameters::{render_parameters, render_parameters_diff};
pub use resolve::render_resolve;
pub use text::{write_diagnostics, write_findings_table};

/// Output formats every command takes (`--format`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// One JSON document on one line (Python `json.dumps` spacing).
    Json,
    /// The same document as YAML.
    Yaml,
    /// A table for people.
    Table,
    /// Plain lines for shell pipelines.
    Plain,
}

/// Writes `value` as JSON or YAML.
pub fn write_data(
    out: &mut dyn Write,
    value: &serde_json::Value,
    format: Format,
) -> io::Result<()> {
    match format {
        Format::Yaml => yaml::write(out, value),
        _ => json::write_line(out, value),
    }
}

/// A comfy-table with heatcap's look (no terminal detection, so output is
/// the same in a pipe and in a test).
/// `validate --format json`: the files checked, the counts, every finding.
#[derive(Debug, serde::Serialize)]
pub struct ValidateReport<'a> {
    pub files: usize,
    pub summary: Summary,
    /// `--profile onap`: what each file is in its VNF package.
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pub modules: &'a [Module],
    pub diagnostics: &'a [crate::diag::Diagnostic],
}

/// One file's kind in its VNF package.
#[derive(Debug, serde::Serialize)]
pub struct Module {
    pub file: String,
    pub kind: crate::validate::onap::ModuleKind,
}

/// Findings by severity.
#[derive(Debug, serde::Serialize)]
pub struct Summary {
    pub errors: usize,
    pub warnings: usize,
    pub notes: usize,
}

pub fn table(header: &[&str]) -> comfy_table::Table {
    let mut t = comfy_table::Table::new();
    t.load_style(comfy_table::presets::UTF8_FULL_CONDENSED);
    t.set_header(header.to_vec());
    t
}
