//! `rules`: the catalogue of codes, or the codes asked for explained;
//! `schema`: the JSON Schema of an output, or the list of them.

use std::io::Write;

use super::args::{RulesArgs, SchemaArgs};
use super::Ui;
use crate::error::{Error, Exit};
use crate::report;

/// `rules [CODE...]`: a usage error when a code matches nothing.
pub(super) fn rules(a: &RulesArgs, ui: &Ui, out: &mut dyn Write) -> Result<Exit, Error> {
    let all = crate::catalogue();
    let mut shown = Vec::new();
    for wanted in &a.codes {
        let upper = wanted.to_ascii_uppercase();
        let matching: Vec<_> = all
            .iter()
            .filter(|c| c.code.0.starts_with(&upper) && !shown.contains(*c))
            .copied()
            .collect();
        if matching.is_empty() && !shown.iter().any(|c| c.code.0.starts_with(&upper)) {
            return Err(Error::Usage(format!("no code starts with `{wanted}`")));
        }
        shown.extend(matching);
    }
    if a.codes.is_empty() {
        shown = all;
    }
    report::render_rules(out, &shown, a.format, ui.out)?;
    Ok(Exit::Ok)
}

/// `schema [NAME]`: a usage error when no schema has that name.
pub(super) fn schema(a: &SchemaArgs, out: &mut dyn Write) -> Result<Exit, Error> {
    match &a.name {
        None => report::write_schema_list(out)?,
        Some(name) => {
            let schema = report::schema(name).ok_or_else(|| {
                let names: Vec<&str> = report::SCHEMAS.iter().map(|s| s.name).collect();
                Error::Usage(format!(
                    "no schema `{name}` (the schemas are {})",
                    names.join(", ")
                ))
            })?;
            report::write_schema(out, &schema)?;
        }
    }
    Ok(Exit::Ok)
}
