//! `resource-type list|show`: Heat's resource types, from the data embedded
//! in the binary (`heat_schema`), as `openstack orchestration resource
//! type list|show` answers them.

use std::fmt::Write as _;
use std::io::Write;

use regex::Regex;

use super::args::{
    ResourceTypeArgs, ResourceTypeCommand, TemplateTypeArg, TypeListArgs, TypeShowArgs,
};
use super::Ui;
use crate::error::{Error, Exit};
use crate::heat_schema::api::{self, ListFilter, Refusal, TemplateType};
use crate::heat_schema::{self, Found, HeatTypes, Status};
use crate::report::{self, json, Format};

/// Dispatches `list` and `show`.
pub(super) fn resource_type(
    a: &ResourceTypeArgs,
    ui: &Ui,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<Exit, Error> {
    match &a.command {
        ResourceTypeCommand::List(a) => list(a, ui, out),
        ResourceTypeCommand::Show(a) => show(a, ui, out, err),
    }
}

/// `--filter KEY=VALUE ...` as python-heatclient reads it (one value is
/// split at `;`), then as Heat's API does (the last value of a key wins).
/// Heat ignores unknown keys and answers an invalid regular expression
/// with an empty list; heatcap calls both a usage error.
fn list_filter(filters: &[String]) -> Result<ListFilter, Error> {
    let items: Vec<&str> = match filters {
        [one] => one.split(';').collect(),
        many => many.iter().map(String::as_str).collect(),
    };
    let mut filter = ListFilter::default();
    for item in items {
        let Some((key, value)) = item.split_once('=') else {
            return Err(Error::Usage(format!(
                "--filter `{item}`: use KEY=VALUE (name, support_status or version)"
            )));
        };
        match key {
            "name" => {
                let re = Regex::new(value).map_err(|e| {
                    Error::Usage(format!(
                        "--filter name=`{value}`: not a regular expression: {e}"
                    ))
                })?;
                filter.name = Some(re);
            }
            "support_status" => {
                let status = Status::from_name(&value.to_ascii_uppercase()).ok_or_else(|| {
                    Error::Usage(format!(
                        "--filter support_status=`{value}`: one of UNKNOWN, SUPPORTED, DEPRECATED, UNSUPPORTED, HIDDEN"
                    ))
                })?;
                filter.support_status = Some(status);
            }
            "version" => filter.version = Some(value.to_owned()),
            other => {
                return Err(Error::Usage(format!(
                    "--filter `{other}`: not a filter (name, support_status or version)"
                )))
            }
        }
    }
    Ok(filter)
}

fn list(a: &TypeListArgs, ui: &Ui, out: &mut dyn Write) -> Result<Exit, Error> {
    let filter = list_filter(&a.filter)?;
    let heat = heat_schema::heat();
    if a.format == Format::Heat {
        if a.all {
            return Err(Error::Usage(
                "--all lists hidden types, which Heat's list API never shows: not with --format heat"
                    .into(),
            ));
        }
        json::write_line(out, &api::list_document(heat, &filter, a.long))?;
        return Ok(Exit::Ok);
    }
    let types: Vec<_> = heat
        .types
        .iter()
        .filter(|(name, ty)| (a.all || !ty.support_status.is_hidden()) && filter.matches(name, ty))
        .map(|(name, ty)| (name.as_str(), ty))
        .collect();
    report::render_type_list(out, &types, a.long, a.all, a.format, ui.out)?;
    Ok(Exit::Ok)
}

fn show(
    a: &TypeShowArgs,
    ui: &Ui,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<Exit, Error> {
    let format = match (a.template_type, a.format) {
        (Some(_), None) => Format::Yaml,
        (None, None) => Format::Table,
        (Some(_), Some(Format::Table | Format::Plain)) => {
            return Err(Error::Usage(
                "--template-type prints a template: --format yaml, json or heat".into(),
            ))
        }
        (_, Some(f)) => f,
    };
    let heat = heat_schema::heat();
    let Some(found) = heat.lookup(&a.type_name) else {
        writeln!(err, "heatcap: {}", not_found(heat, &a.type_name))?;
        return Ok(Exit::NoMatchOrFindings);
    };
    let answer = match a.template_type {
        Some(t) => {
            let dialect = match t {
                TemplateTypeArg::Hot => TemplateType::Hot,
                TemplateTypeArg::Cfn => TemplateType::Cfn,
            };
            api::template_document(found, dialect)
                .map(|doc| report::render_template(out, &doc, format))
        }
        None if format == Format::Heat => {
            api::schema_document(found, a.long).map(|doc| json::write_line(out, &doc))
        }
        None => Ok(report::render_type_show(
            out,
            &heat.heat_version,
            found,
            a.long,
            format,
            ui.out,
        )),
    };
    match answer {
        Ok(written) => {
            written?;
            Ok(Exit::Ok)
        }
        Err(refusal) => {
            writeln!(err, "heatcap: {}", refused(heat, found, &refusal))?;
            Ok(Exit::NoMatchOrFindings)
        }
    }
}

/// Heat's client says "Resource type not found: TYPE"; heatcap adds the
/// release and the nearest real name.
fn not_found(heat: &HeatTypes, name: &str) -> String {
    let mut msg = format!(
        "resource type not found: `{name}` (Heat {} has no such type)",
        heat.heat_version
    );
    if let Some(near) = heat.suggest(name) {
        let _ = write!(msg, "; did you mean `{near}`?");
    } else if !heat.is_heat_namespace(name) {
        msg.push_str("; types an environment maps are answered by `heatcap resolve`");
    }
    msg
}

fn refused(heat: &HeatTypes, found: Found<'_>, refusal: &Refusal) -> String {
    match refusal {
        Refusal::Hidden => {
            let s = &found.ty.support_status;
            let mut msg = format!(
                "`{}` is not supported: Heat {} hides it",
                found.asked, heat.heat_version
            );
            if let Some(v) = &s.version {
                let _ = write!(msg, " since {v}");
            }
            if let Some(m) = s.any_message() {
                let _ = write!(msg, " ({})", m.trim_end_matches('.'));
            }
            msg.push_str(" and refuses to describe it; `--format table` shows what heatcap knows");
            msg
        }
        Refusal::NoParameterType { property } => format!(
            "Heat {} cannot generate a template for `{}`: its property `{property}` has type `any`, which no template parameter type takes (Heat fails with an internal error)",
            heat.heat_version, found.asked
        ),
    }
}
