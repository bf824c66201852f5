//! The JSON Schema (draft 2020-12) of every JSON output: `heatcap schema
//! NAME` prints one, and docs/schemas/NAME.schema.json holds each (a test
//! keeps them equal). They are generated from the output types (schemars'
//! derives beside `Serialize`, or a hand-written `JsonSchema` impl beside a
//! hand-written `Serialize`), so they follow every rename and skip; the
//! two documents built as JSON values (Heat's validate document and the
//! stack-create body) have their schema written beside the code that
//! builds them. Nothing here runs unless a schema is asked for.

use std::io::{self, Write};

use indexmap::IndexMap;
use schemars::generate::SchemaSettings;
use schemars::transform::RecursiveTransform;
use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde_json::{Map, Value};

use super::introspect::{CapabilityRecord, TypeRecord};
use super::resource_types::{Listed, Shown};
use super::rules::RuleEntry;
use super::{ExportReport, ValidateReport};
use crate::diag::Diagnostic;
use crate::product::catalogue::{CatalogueRecord, CatalogueReport};
use crate::product::options::{Choice, OptionsReport};
use crate::product::parameters::{ChoiceDiff, ParametersReport};
use crate::query::{FileEntry, IndexDocument, Match};
use crate::resolve::{Resolution, ResolveReport};

/// One output and its schema.
#[derive(Debug)]
pub(crate) struct OutputSchema {
    /// `COMMAND[-VARIANT]`, with `.jsonl` for the schema of one line of
    /// `--format jsonl`; the file is docs/schemas/NAME.schema.json.
    pub name: &'static str,
    /// The invocations whose output it describes.
    pub output: &'static str,
    /// What the output is, for the schema's description.
    about: &'static str,
    generate: fn() -> Schema,
}

/// Every schema, in the order `heatcap schema` lists them.
pub(crate) const SCHEMAS: &[OutputSchema] = &[
    OutputSchema {
        name: "capabilities-find",
        output: "capabilities-find --format json",
        about: "The templates whose capabilities meet every condition, in walk order.",
        generate: derived::<Vec<Match<'static>>>,
    },
    OutputSchema {
        name: "capabilities-find.jsonl",
        output: "capabilities-find --format jsonl (each line)",
        about: "One matching template.",
        generate: derived::<Match<'static>>,
    },
    OutputSchema {
        name: "template-capabilities",
        output: "template-capabilities --format json",
        about: "Capability key -> every value offered (first-seen order, each once, `resource_type` excluded).",
        generate: derived::<IndexMap<String, Vec<Value>>>,
    },
    OutputSchema {
        name: "template-capabilities.jsonl",
        output: "template-capabilities --format jsonl (each line)",
        about: "One capability key and the values offered.",
        generate: derived::<CapabilityRecord<'static>>,
    },
    OutputSchema {
        name: "template-capabilities-by-type",
        output: "template-capabilities --by-type --format json",
        about: "Resource type -> the templates whose `capabilities.resource_type` names it.",
        generate: derived::<IndexMap<String, Vec<String>>>,
    },
    OutputSchema {
        name: "template-capabilities-by-type.jsonl",
        output: "template-capabilities --by-type --format jsonl (each line)",
        about: "One resource type and the templates that declare it.",
        generate: derived::<TypeRecord<'static>>,
    },
    OutputSchema {
        name: "index",
        output: "index --format json",
        about: "Every file with its status, kind and typed view, the counts, and the problems found while walking.",
        generate: derived::<IndexDocument<'static>>,
    },
    OutputSchema {
        name: "index.jsonl",
        output: "index --format jsonl (each line)",
        about: "One file of the index.",
        generate: derived::<FileEntry<'static>>,
    },
    OutputSchema {
        name: "resolve",
        output: "resolve --format json",
        about: "What the environments pick for every type looked up, and why.",
        generate: derived::<ResolveReport>,
    },
    OutputSchema {
        name: "resolve.jsonl",
        output: "resolve --format jsonl (each line)",
        about: "One lookup.",
        generate: derived::<Resolution>,
    },
    OutputSchema {
        name: "catalogue",
        output: "catalogue --format json",
        about: "A TripleO capabilities map in the shape tripleo-common's GetCapabilitiesAction returned, with each entry's drift from the tree, and the enabled environments checked and ordered.",
        generate: derived::<CatalogueReport>,
    },
    OutputSchema {
        name: "catalogue.jsonl",
        output: "catalogue --format jsonl (each line)",
        about: "One environment of the catalogue, with its topic and group.",
        generate: derived::<CatalogueRecord<'static>>,
    },
    OutputSchema {
        name: "options",
        output: "options --format json",
        about: "Every choice a user can make: the types with several implementations.",
        generate: derived::<OptionsReport>,
    },
    OutputSchema {
        name: "options.jsonl",
        output: "options --format jsonl (each line)",
        about: "One choice.",
        generate: derived::<Choice>,
    },
    OutputSchema {
        name: "parameters",
        output: "parameters --format json",
        about: "Every parameter of the chosen composition, and where each value comes from.",
        generate: derived::<ParametersReport>,
    },
    OutputSchema {
        name: "parameters-diff",
        output: "parameters --diff --format json",
        about: "What switching one choice costs in parameters.",
        generate: derived::<ChoiceDiff>,
    },
    OutputSchema {
        name: "parameters-heat",
        output: "parameters --format heat",
        about: "The document Heat's template validate API returns with show_nested, as heatcap builds it offline, or Heat's refusal.",
        generate: || hand(crate::product::heat_validate::schema),
    },
    OutputSchema {
        name: "parameters-heat-resource-tree",
        output: "parameters --format heat-resource-tree",
        about: "TripleO's flattened parameters: tripleo-common's heat_resource_tree built from the validate document, as its UI reads them.",
        generate: || hand(crate::product::heat_validate::resource_tree_schema),
    },
    OutputSchema {
        name: "preview",
        output: "preview --format json",
        about: "Heat's create preview: every resource of every nested stack, its properties as Heat resolves them before create.",
        generate: derived::<crate::product::preview::Preview>,
    },
    OutputSchema {
        name: "diff",
        output: "diff --format json",
        about: "What an update from one composition to another does, as Heat's update preview decides it: every resource's action, the rule that decided, the properties that change.",
        generate: derived::<crate::product::diff::Diff>,
    },
    OutputSchema {
        name: "diff-deployments",
        output: "diff --format json (no template: .heatcap.yaml's deployments)",
        about: "Each deployment the configuration file names, with its diff.",
        generate: derived::<crate::product::interface::Deployments>,
    },
    OutputSchema {
        name: "export",
        output: "export --format json",
        about: "The files export wrote, and the environments to give Heat.",
        generate: derived::<ExportReport<'static>>,
    },
    OutputSchema {
        name: "export-heat-api",
        output: "export --format heat-api",
        about: "python-heatclient's stack-create body.",
        generate: || hand(crate::workspace::heat_api_schema),
    },
    OutputSchema {
        name: "validate",
        output: "validate --format json",
        about: "The files checked, the findings by severity, and every finding.",
        generate: derived::<ValidateReport<'static>>,
    },
    OutputSchema {
        name: "validate.jsonl",
        output: "validate --format jsonl (each line)",
        about: "One finding.",
        generate: derived::<Diagnostic>,
    },
    OutputSchema {
        name: "rules",
        output: "rules --format json",
        about: "The catalogue of codes (or the codes asked for), in code order.",
        generate: derived::<Vec<RuleEntry>>,
    },
    OutputSchema {
        name: "rules.jsonl",
        output: "rules --format jsonl (each line)",
        about: "One code of the catalogue.",
        generate: derived::<RuleEntry>,
    },
    OutputSchema {
        name: "resource-type-list",
        output: "resource-type list --format json",
        about: "Heat's resource types, in name order, with their support status (and descriptions with --long). `--format heat` prints Heat's own API body instead.",
        generate: derived::<Vec<Listed<'static>>>,
    },
    OutputSchema {
        name: "resource-type-list.jsonl",
        output: "resource-type list --format jsonl (each line)",
        about: "One resource type.",
        generate: derived::<Listed<'static>>,
    },
    OutputSchema {
        name: "resource-type-show",
        output: "resource-type show TYPE --format json",
        about: "One resource type from the embedded Heat data: its properties (nested schemas, constraints), attributes and support status. `--format heat` and `--template-type` print Heat's own API shapes instead.",
        generate: derived::<Shown<'static>>,
    },
];

/// Draft 2020-12, describing what heatcap writes: a field without
/// `skip_serializing_if` is required (an `Option` of them may be null), and
/// one with it may be absent, never null.
fn generator() -> SchemaGenerator {
    SchemaSettings::draft2020_12()
        .for_serialize()
        .with_transform(RecursiveTransform(absent_not_null))
        .into_generator()
}

/// Every field heatcap may leave out has `skip_serializing_if` (an
/// `Option` is skipped when `None`), so an optional property is absent
/// rather than `null`: `null` is taken out of what it may be.
fn absent_not_null(schema: &mut Schema) {
    let Some(obj) = schema.as_object_mut() else {
        return;
    };
    let required: Vec<Value> = obj
        .get("required")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let Some(Value::Object(properties)) = obj.get_mut("properties") else {
        return;
    };
    let null = serde_json::json!({"type": "null"});
    for (name, property) in properties {
        let Value::Object(p) = property else { continue };
        if required.iter().any(|r| r == name.as_str()) {
            continue;
        }
        if let Some(Value::Array(types)) = p.get_mut("type") {
            types.retain(|t| t != "null");
            if types.len() == 1 {
                let only = types.remove(0);
                p.insert("type".to_owned(), only);
            }
        }
        if let Some(Value::Array(any)) = p.get("anyOf") {
            let rest: Vec<Value> = any.iter().filter(|s| **s != null).cloned().collect();
            if let [Value::Object(only)] = &rest[..] {
                if rest.len() < any.len() {
                    p.remove("anyOf");
                    for (k, v) in only {
                        p.entry(k.clone()).or_insert_with(|| v.clone());
                    }
                }
            }
        }
    }
}

fn derived<T: JsonSchema>() -> Schema {
    generator().into_root_schema_for::<T>()
}

/// A root schema from a hand-written one, with the definitions it used.
fn hand(f: fn(&mut SchemaGenerator) -> Schema) -> Schema {
    let mut g = generator();
    let mut schema = f(&mut g);
    let defs = g.take_definitions(false);
    if !defs.is_empty() {
        schema.insert("$defs".to_owned(), Value::Object(defs));
    }
    schema
}

/// The schema called `name`, as docs/schemas/NAME.schema.json holds it.
pub(crate) fn schema(name: &str) -> Option<Value> {
    let s = SCHEMAS.iter().find(|s| s.name == name)?;
    let generated = (s.generate)().to_value();
    let Value::Object(mut body) = generated else {
        unreachable!("a root schema is an object")
    };
    body.remove("$schema");
    body.remove("title");
    body.remove("description");
    let mut root = Map::new();
    root.insert(
        "$schema".to_owned(),
        "https://json-schema.org/draft/2020-12/schema".into(),
    );
    root.insert(
        "$id".to_owned(),
        format!("urn:heatcap:schema:{name}").into(),
    );
    root.insert("title".to_owned(), format!("heatcap {}", s.output).into());
    root.insert("description".to_owned(), s.about.into());
    root.insert(
        "$comment".to_owned(),
        format!("Generated from heatcap's output types by `heatcap schema {name}`; docs/output.md describes the shape.").into(),
    );
    root.extend(body);
    Some(Value::Object(root))
}

/// `heatcap schema`: each schema's name and the output it describes.
pub(crate) fn write_schema_list(out: &mut dyn Write) -> io::Result<()> {
    SCHEMAS
        .iter()
        .try_for_each(|s| writeln!(out, "{}\t{}", s.name, s.output))
}

/// A schema as the published file holds it: indented by two spaces, for
/// people to read, then a newline.
pub(crate) fn write_schema(out: &mut dyn Write, schema: &Value) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, schema).map_err(|e| match e.io_error_kind() {
        Some(kind) => io::Error::from(kind),
        None => io::Error::other(e),
    })?;
    out.write_all(b"\n")
}
