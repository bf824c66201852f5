//! Renderers for `resource-type list` and `resource-type show`: Heat's
//! resource types in heatcap's formats, and the provider-template skeleton
//! as python-heatclient prints it.

use std::io::{self, Write};

use serde::Serialize;
use serde_json::Value;

use super::{json, table, write_data, yaml, Format, Look, KEEP, NARROW, VALUE, WRAP};
use crate::heat_schema::{
    AttributeSchema, ConstraintKind, Found, PropertySchema, ResourceType, SupportStatus,
};

/// The first paragraph of a description, on one line.
fn summary(description: &str) -> String {
    description
        .split("\n\n")
        .next()
        .unwrap_or("")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// `DEPRECATED since 2014.2`, `SUPPORTED`.
fn status_short(s: &SupportStatus) -> String {
    match &s.version {
        Some(v) => format!("{} since {v}", s.status.name()),
        None => s.status.name().to_owned(),
    }
}

/// The short form, then the message Heat gives (the replacement).
fn status_long(s: &SupportStatus) -> String {
    match s.any_message() {
        Some(m) => format!("{}: {m}", status_short(s)),
        None => status_short(s),
    }
}

/// One entry of `list`'s JSON, YAML and JSON Lines.
#[derive(Serialize, schemars::JsonSchema)]
pub(crate) struct Listed<'a> {
    resource_type: &'a str,
    support_status: Value,
    #[serde(skip_serializing_if = "Option::is_none")]
    description: Option<&'a str>,
}

/// `resource-type list`: the types given (already filtered), in name
/// order. `long` adds descriptions; `all` (hidden types shown) adds a
/// Status column to the table and plain lines.
pub(crate) fn render_type_list(
    out: &mut dyn Write,
    types: &[(&str, &ResourceType)],
    long: bool,
    all: bool,
    format: Format,
    look: Look,
) -> io::Result<()> {
    let records = || {
        types.iter().map(|(name, ty)| Listed {
            resource_type: name,
            support_status: ty.support_status.to_heat(),
            description: long.then_some(ty.description.as_str()),
        })
    };
    let cells = |name: &str, ty: &ResourceType| {
        let mut row = vec![name.to_owned()];
        if all {
            row.push(status_short(&ty.support_status));
        }
        if long {
            row.push(summary(&ty.description));
        }
        row
    };
    match format {
        Format::Table => {
            let mut columns = vec![("Resource Type", WRAP)];
            if all {
                columns.push(("Status", KEEP));
            }
            if long {
                columns.push(("Description", WRAP));
            }
            let mut t = table(look, &columns);
            for (name, ty) in types {
                t.add_row(cells(name, ty));
            }
            writeln!(out, "{t}")
        }
        Format::Plain => types
            .iter()
            .try_for_each(|(name, ty)| writeln!(out, "{}", cells(name, ty).join("\t"))),
        Format::Jsonl => super::write_lines(out, records()),
        _ => {
            let v =
                serde_json::to_value(records().collect::<Vec<_>>()).map_err(io::Error::other)?;
            write_data(out, &v, format)
        }
    }
}

/// `show`'s JSON and YAML: the data file's entry, named.
#[derive(Serialize, schemars::JsonSchema)]
pub(crate) struct Shown<'a> {
    resource_type: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    alias_for: Option<&'a str>,
    heat_version: &'a str,
    #[serde(flatten)]
    ty: &'a ResourceType,
}

/// A property's row: its path, then its cells.
struct Row {
    path: String,
    kind: String,
    required: &'static str,
    update: &'static str,
    default: String,
    constraints: String,
    status: String,
    description: String,
}

fn value_text(v: &Value) -> String {
    match v {
        Value::String(s) if !s.is_empty() => s.clone(),
        other => json::to_string(other),
    }
}

fn constraints_text(p: &PropertySchema) -> String {
    let bounds = |b: crate::heat_schema::Bounds| match (b.min, b.max) {
        (Some(min), Some(max)) => format!("{min}..{max}"),
        (Some(min), None) => format!("min {min}"),
        (None, Some(max)) => format!("max {max}"),
        (None, None) => String::new(),
    };
    p.constraints
        .iter()
        .map(|c| match c.kind() {
            ConstraintKind::AllowedValues(v) => {
                let values: Vec<String> = v.iter().map(value_text).collect();
                format!("one of: {}", values.join(", "))
            }
            ConstraintKind::Range(b) => format!("range: {}", bounds(b)),
            ConstraintKind::Length(b) => format!("length: {}", bounds(b)),
            ConstraintKind::Modulo(m) => format!("modulo: step {}, offset {}", m.step, m.offset),
            ConstraintKind::AllowedPattern(p) => format!("pattern: {p}"),
            ConstraintKind::Custom(n) => format!("custom: {n}"),
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// Every shown property, depth first, nested ones as `parent.*.child`
/// (a list's items are `*`, as in Heat's schema).
fn rows(
    props: &indexmap::IndexMap<String, PropertySchema>,
    prefix: &str,
    top: bool,
    out: &mut Vec<Row>,
) {
    for (name, p) in props {
        let shown = if top {
            p.is_shown()
        } else {
            !p.support_status.is_hidden()
        };
        if !shown {
            continue;
        }
        let path = if prefix.is_empty() {
            name.clone()
        } else {
            format!("{prefix}.{name}")
        };
        out.push(Row {
            path: path.clone(),
            kind: p.kind.name().to_owned(),
            required: if p.required { "yes" } else { "no" },
            update: if p.immutable {
                "immutable"
            } else if p.update_allowed {
                "in place"
            } else {
                "replace"
            },
            default: p.default.as_ref().map(value_text).unwrap_or_default(),
            constraints: constraints_text(p),
            status: if p.support_status.is_plain() {
                String::new()
            } else {
                status_long(&p.support_status)
            },
            description: p.description.clone().unwrap_or_default(),
        });
        if let Some(s) = &p.schema {
            rows(s, &path, false, out);
        }
    }
}

fn shown_attributes(ty: &ResourceType) -> impl Iterator<Item = (&String, &AttributeSchema)> {
    ty.attributes
        .iter()
        .filter(|(_, a)| !a.support_status.is_hidden())
}

fn or_dash(s: &str) -> &str {
    if s.is_empty() {
        "-"
    } else {
        s
    }
}

/// `resource-type show`: one type in heatcap's formats (`heat` and the
/// template skeleton are [`render_template`]'s and the command's).
pub(crate) fn render_type_show(
    out: &mut dyn Write,
    heat_version: &str,
    found: Found<'_>,
    long: bool,
    format: Format,
    look: Look,
) -> io::Result<()> {
    let ty = found.ty;
    let mut props = Vec::new();
    rows(&ty.properties, "", true, &mut props);
    match format {
        Format::Table => show_table(out, heat_version, found, &props, long, look),
        Format::Plain => show_plain(out, found, &props, long),
        _ => {
            let shown = Shown {
                resource_type: found.asked,
                alias_for: found.is_alias().then_some(found.name),
                heat_version,
                ty,
            };
            let v = serde_json::to_value(&shown).map_err(io::Error::other)?;
            write_data(out, &v, format)
        }
    }
}

/// `show --format plain`: one tab-separated line for the type, each
/// property and each attribute.
fn show_plain(out: &mut dyn Write, found: Found<'_>, props: &[Row], long: bool) -> io::Result<()> {
    let ty = found.ty;
    writeln!(
        out,
        "type\t{}\t{}\t{}\t{}",
        found.asked,
        found.name,
        ty.support_status.status.name(),
        ty.support_status.version.as_deref().unwrap_or("-")
    )?;
    for r in props {
        let mut line = format!(
            "property\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
            r.path,
            r.kind,
            if r.required == "yes" {
                "required"
            } else {
                "optional"
            },
            r.update,
            or_dash(&r.default),
            or_dash(&r.constraints),
            or_dash(&r.status)
        );
        if long {
            line.push('\t');
            line.push_str(or_dash(&summary(&r.description)));
        }
        writeln!(out, "{}", line.replace('\n', " "))?;
    }
    for (name, a) in shown_attributes(ty) {
        let mut line = format!(
            "attribute\t{name}\t{}\t{}",
            a.kind.as_deref().unwrap_or("-"),
            if a.support_status.is_plain() {
                "-".to_owned()
            } else {
                status_long(&a.support_status)
            }
        );
        if long {
            line.push('\t');
            line.push_str(or_dash(&summary(a.description.as_deref().unwrap_or(""))));
        }
        writeln!(out, "{}", line.replace('\n', " "))?;
    }
    Ok(())
}

/// The properties table of `show`: a Status column when a property is not
/// plainly supported, a Description column with `--long`.
fn properties_table(props: &[Row], long: bool, look: Look) -> super::look::Grid {
    let with_status = props.iter().any(|r| !r.status.is_empty());
    let mut columns = vec![
        ("Property", WRAP),
        ("Type", NARROW),
        ("Required", KEEP),
        ("Update", KEEP),
        ("Default", VALUE),
        ("Constraints", WRAP),
    ];
    if with_status {
        columns.push(("Status", WRAP));
    }
    if long {
        columns.push(("Description", WRAP));
    }
    let mut t = table(look, &columns);
    for r in props {
        let mut row = vec![
            r.path.clone(),
            r.kind.clone(),
            r.required.to_owned(),
            r.update.to_owned(),
            r.default.clone(),
            r.constraints.clone(),
        ];
        if with_status {
            row.push(r.status.clone());
        }
        if long {
            row.push(r.description.clone());
        }
        t.add_row(row);
    }
    t
}

fn show_table(
    out: &mut dyn Write,
    heat_version: &str,
    found: Found<'_>,
    props: &[Row],
    long: bool,
    look: Look,
) -> io::Result<()> {
    let ty = found.ty;
    let w = |text: String| super::wrap(&text, look.width);
    writeln!(out, "{} (Heat {heat_version})", found.asked)?;
    if found.is_alias() {
        writeln!(
            out,
            "{}",
            w(format!(
                "An alias of {} (Heat's default environment).",
                found.name
            ))
        )?;
    }
    if let Some(t) = &ty.template {
        writeln!(out, "{}", w(format!("Implemented by the template {t}.")))?;
    }
    writeln!(
        out,
        "{}",
        w(format!("Status: {}", status_long(&ty.support_status)))
    )?;
    if ty.support_status.is_hidden() {
        writeln!(
            out,
            "{}",
            w("Heat refuses this type in a template.".to_owned())
        )?;
    }
    let description = if long {
        ty.description.clone()
    } else {
        summary(&ty.description)
    };
    writeln!(out, "\n{}\n", w(description))?;

    if props.is_empty() {
        writeln!(out, "No properties.")?;
    } else {
        writeln!(out, "{}", properties_table(props, long, look))?;
    }
    writeln!(out)?;
    let attrs: Vec<_> = shown_attributes(ty).collect();
    let with_status = attrs.iter().any(|(_, a)| !a.support_status.is_plain());
    let mut columns = vec![("Attribute", WRAP), ("Type", NARROW)];
    if with_status {
        columns.push(("Status", WRAP));
    }
    if long {
        columns.push(("Description", WRAP));
    }
    let mut t = table(look, &columns);
    for (name, a) in attrs {
        let mut row = vec![name.clone(), a.kind.clone().unwrap_or_default()];
        if with_status {
            row.push(if a.support_status.is_plain() {
                String::new()
            } else {
                status_long(&a.support_status)
            });
        }
        if long {
            row.push(a.description.clone().unwrap_or_default());
        }
        t.add_row(row);
    }
    writeln!(out, "{t}")?;
    if ty.dynamic_attributes {
        writeln!(
            out,
            "{}",
            w("The type computes attributes of its own: get_attr accepts any name.".to_owned())
        )?;
    }
    Ok(())
}

/// A provider-template skeleton: `yaml` and `json` as python-heatclient
/// prints it (`openstack orchestration resource type show --template-type`:
/// YAML one top-level key at a time, `-f json` with indent 2); `heat` the
/// API's body on one line.
pub(crate) fn render_template(out: &mut dyn Write, doc: &Value, format: Format) -> io::Result<()> {
    match format {
        Format::Yaml => {
            let Value::Object(map) = doc else {
                return yaml::write_pyyaml(out, doc);
            };
            // cliff's YAML formatter dumps each column on its own.
            for (k, v) in map {
                let mut one = serde_json::Map::new();
                one.insert(k.clone(), v.clone());
                yaml::write_pyyaml(out, &Value::Object(one))?;
            }
            Ok(())
        }
        Format::Json => json::write_indented(out, doc),
        _ => json::write_line(out, doc),
    }
}
