//! An index file entry's JSON written directly: `index` writes one for
//! every file of the tree, and serde spent most of their time on the
//! entry's flattened view (serde's `flatten` goes through a map
//! serializer) and on the fixed keys of every parameter, escaped anew
//! each time. The bytes are serde's, in [`crate::encode::json::write_line`]'s style:
//! the tests below compare them, entry by entry, on the fixtures' trees
//! and on entries with every optional field and text that needs escaping.

use std::io;

use crate::encode::json::{write_compact, write_list, write_object, write_str, Record};
use crate::model::environment::EntryObject;
use crate::model::template::Parameter;
use crate::model::{Content, Environment, Template};
use crate::node::Value;
use crate::query::FileEntry;

impl Record for FileEntry<'_> {
    fn write_json(&self, buf: &mut Vec<u8>) -> io::Result<()> {
        // The fields in `FileEntry`'s order, empty ones left out as its
        // `skip_serializing_if` says, the view's fields in its place.
        buf.extend_from_slice(b"{\"path\": ");
        write_str(buf, self.path)?;
        buf.extend_from_slice(b", \"status\": ");
        write_compact(buf, &self.status)?;
        if let Some(kind) = self.kind {
            buf.extend_from_slice(b", \"kind\": ");
            write_str(buf, kind.as_str())?;
        }
        if let Some(reason) = self.reason {
            buf.extend_from_slice(b", \"reason\": ");
            write_str(buf, reason)?;
        }
        match self.content {
            Content::Template(t) => write_template(buf, t)?,
            Content::Environment(e) => write_environment(buf, e)?,
            Content::None => {}
        }
        if let Some(inferred) = self.inferred_resource_type {
            buf.extend_from_slice(b", \"inferred_resource_type\": ");
            write_compact(buf, inferred)?;
        }
        buf.extend_from_slice(b", \"diagnostics\": ");
        write_list(buf, self.diagnostics, |buf, d| d.write_json(buf))?;
        buf.push(b'}');
        Ok(())
    }
}

/// A template's fields, in [`Template`]'s order.
fn write_template(buf: &mut Vec<u8>, t: &Template) -> io::Result<()> {
    buf.extend_from_slice(b", \"format\": ");
    write_compact(buf, &t.format)?;
    buf.extend_from_slice(b", \"version\": ");
    write_opt_str(buf, t.version.as_deref())?;
    buf.extend_from_slice(b", \"description\": ");
    write_opt_str(buf, t.description.as_deref())?;
    buf.extend_from_slice(b", \"capabilities\": ");
    write_compact(buf, &t.capabilities)?;
    buf.extend_from_slice(b", \"resource_type\": ");
    write_list(buf, &t.resource_type, |buf, s| write_str(buf, s))?;
    buf.extend_from_slice(b", \"uses\": ");
    write_list(buf, &t.uses, |buf, s| write_str(buf, s))?;
    buf.extend_from_slice(b", \"parameters\": ");
    write_list(buf, &t.parameters, write_parameter)
}

fn write_parameter(buf: &mut Vec<u8>, p: &Parameter) -> io::Result<()> {
    buf.extend_from_slice(b"{\"name\": ");
    write_str(buf, &p.name)?;
    buf.extend_from_slice(b", \"type\": ");
    write_opt_str(buf, p.type_.as_deref())?;
    buf.extend_from_slice(b", \"required\": ");
    write_bool(buf, p.required);
    buf.extend_from_slice(b", \"hidden\": ");
    write_bool(buf, p.hidden);
    buf.push(b'}');
    Ok(())
}

/// An environment's fields, in the order its `Serialize` writes them.
fn write_environment(buf: &mut Vec<u8>, e: &Environment) -> io::Result<()> {
    let (registry, resources) = e.registry_objects();
    buf.extend_from_slice(b", \"resource_registry\": ");
    write_entries(buf, &registry)?;
    buf.extend_from_slice(b", \"resources\": ");
    write_object(buf, &resources, write_entries)?;
    buf.extend_from_slice(b", \"requires\": ");
    write_object(
        buf,
        e.requires.iter().map(|(k, r)| (k, &r.value)),
        write_compact,
    )?;
    buf.extend_from_slice(b", \"parameters\": ");
    write_list(buf, e.parameters.keys(), |buf, k| write_str(buf, k))?;
    buf.extend_from_slice(b", \"parameter_defaults\": ");
    write_list(buf, e.parameter_defaults.keys(), |buf, k| write_str(buf, k))
}

/// Registry entries: key → the value as written (most are strings).
fn write_entries(buf: &mut Vec<u8>, entries: &EntryObject<'_>) -> io::Result<()> {
    write_object(buf, entries, |buf, v| match v.0 {
        Value::Str(s) => write_str(buf, s),
        _ => write_compact(buf, v),
    })
}

fn write_opt_str(buf: &mut Vec<u8>, s: Option<&str>) -> io::Result<()> {
    if let Some(s) = s {
        write_str(buf, s)
    } else {
        buf.extend_from_slice(b"null");
        Ok(())
    }
}

fn write_bool(buf: &mut Vec<u8>, b: bool) {
    buf.extend_from_slice(if b { b"true" } else { b"false" });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn serdes(entry: &FileEntry<'_>) -> String {
        let mut whole = Vec::new();
        crate::encode::json::write_line(&mut whole, entry).unwrap();
        whole.pop();
        String::from_utf8(whole).unwrap()
    }

    fn written(entry: &FileEntry<'_>) -> String {
        let mut buf = Vec::new();
        entry.write_json(&mut buf).unwrap();
        String::from_utf8(buf).unwrap()
    }

    fn entries_of(dir: &std::path::Path) -> Vec<(String, String)> {
        let ws = crate::Workspace::builder()
            .walk(crate::WalkOptions::new(vec![dir.to_path_buf()]).recursive())
            .infer_candidates()
            .open();
        let doc = ws.index();
        doc.files.iter().map(|e| (written(e), serdes(e))).collect()
    }

    /// Every file entry of the fixtures' trees (templates with and without
    /// capabilities or inferred types, environments with per-resource
    /// entries and `requires`, broken, skipped and other files): the bytes
    /// serde writes.
    #[test]
    fn every_fixture_entry_is_written_as_serde_writes_it() {
        let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
        let entries = entries_of(&fixtures);
        assert!(entries.len() > 1000);
        for (written, serdes) in &entries {
            assert_eq!(written, serdes);
        }
    }

    const TEMPLATE: &str = r#"heat_template_version: 2016-10-14
description: "tab\there \"quoted\" \u0001 \u00e9"
capabilities:
  resource_type: [OS::X::"Y"]
  tls: yes
  n: [1, 2.5, null]
parameters:
  "a\\b": {type: string, default: x}
  hid: {type: number, hidden: true}
  bare: {}
resources:
  r: {type: "OS::\u00e9"}
  g:
    type: OS::Heat::ResourceGroup
    properties: {resource_def: {type: OS::Member}}
"#;

    const ENVIRONMENT: &str = r#"resource_registry:
  "OS::X::\"Y\"": "t\"q\u00e9.yaml"
  OS::Inferred: "t\"q\u00e9.yaml"
  OS::List: [a.yaml, b.yaml]
  OS::Null: null
  1: one
  '1': two
  OS::Map: {a: 1}
  OS::G::*: OS::Heat::None
  resources:
    "r\"1": {OS::Y: y.yaml}
    r2: {"OS::\u00e9": t.yaml}
requires:
  tls: true
  "k\"": [1, x]
parameters: {p: 1}
parameter_defaults: {"q\"": 2}
"#;

    /// Entries with every optional field, text that needs escaping and
    /// text beyond ASCII, registry values of every kind, a key written
    /// twice (`1` and `'1'`) and inferred types: the bytes serde writes.
    #[test]
    fn entries_with_every_field_are_written_as_serde_writes_them() {
        let dir = tempfile::tempdir().unwrap();
        let write = |name: &str, text: &str| std::fs::write(dir.path().join(name), text).unwrap();
        write("t\"q\u{e9}.yaml", TEMPLATE);
        write("env.yaml", ENVIRONMENT);
        write("broken.yaml", "a: [\n");
        write("other.yaml", "- hosts: all\n");
        let entries = entries_of(dir.path());
        assert_eq!(entries.len(), 4);
        for (written, serdes) in &entries {
            assert_eq!(written, serdes);
        }
        let all: String = entries.iter().map(|(w, _)| w.as_str()).collect();
        for part in [
            r#""inferred_resource_type": {"#,
            r#""capabilities": {"#,
            r#""requires": {"tls": true"#,
            r#""1": "two""#,
            r#""hidden": true"#,
            r#""type": null"#,
            "\\\"",
            "\u{e9}",
        ] {
            assert!(all.contains(part), "{part} not in {all}");
        }
    }
}
