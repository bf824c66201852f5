//! Heat's `POST /validate` answered from a request body alone: the
//! template, `files`, `environment` and `environment_files` as the clients
//! send them become files in memory ([`crate::walk::MemoryFiles`]), and
//! the same composition `parameters --format heat` walks is built on them.
//! Nothing is read from disk.

use std::path::PathBuf;

use serde_json::Value as J;

use super::Workspace;
use crate::load::LoadOptions;
use crate::walk::MemoryFiles;

/// The name the body's template is read under (not a `files` key a client
/// can send: it is no URL and no relative path a template would write).
pub(crate) const BODY_TEMPLATE: &str = "<template>";
/// The name the body's `environment` (with `parameters` merged into it)
/// is read under.
pub(crate) const BODY_ENVIRONMENT: &str = "<environment>";

/// What a validate request carries, as Heat's `InstantiationData` reads it.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub(crate) struct HeatRequest {
    /// The template's text (a JSON object is sent as its JSON text).
    pub template: String,
    /// `files`: key (as the client wrote it) → text.
    pub files: Vec<(String, String)>,
    /// The user environment: `environment` (unless `environment_files` is
    /// non-empty, where Heat ignores it) with `parameters` merged into its
    /// `parameters`, as JSON text; `None` when empty.
    pub environment: Option<String>,
    /// `environment_files`: keys into `files`, merged in order after the
    /// environment above.
    pub environment_files: Vec<String>,
}

impl HeatRequest {
    /// The request as files in memory (the template read as
    /// [`BODY_TEMPLATE`]): the load options that read only them, and the
    /// environments in Heat's order (the body's `environment`, then
    /// `environment_files`).
    pub(crate) fn in_memory(&self) -> (LoadOptions, Vec<PathBuf>) {
        let mut files: Vec<(String, Vec<u8>)> = self
            .files
            .iter()
            .map(|(k, v)| (k.clone(), v.clone().into_bytes()))
            .collect();
        files.push((BODY_TEMPLATE.to_owned(), self.template.clone().into_bytes()));
        let mut environments: Vec<PathBuf> = Vec::new();
        if let Some(env) = &self.environment {
            files.push((BODY_ENVIRONMENT.to_owned(), env.clone().into_bytes()));
            environments.push(PathBuf::from(BODY_ENVIRONMENT));
        }
        environments.extend(
            self.environment_files
                .iter()
                .map(|k| PathBuf::from(crate::walk::strip_file_scheme(k))),
        );
        let load = LoadOptions {
            memory: Some(MemoryFiles::new(files)),
            ..LoadOptions::default()
        };
        (load, environments)
    }

    /// A request from its parts.
    pub(crate) fn new(
        template: String,
        files: Vec<(String, String)>,
        environment: Option<String>,
        environment_files: Vec<String>,
    ) -> HeatRequest {
        HeatRequest {
            template,
            files,
            environment,
            environment_files,
        }
    }
}

pub(crate) use crate::product::heat_validate::{error_class, heat_resource_tree};

/// Heat's validate document for a request (or `{"Error": message}`), as
/// `parameters --format heat` builds it; without `show_nested`, the
/// top-level `NestedParameters` is left out, as Heat leaves it out.
pub(crate) fn validate_request(req: &HeatRequest, show_nested: bool, max_depth: usize) -> J {
    let (load, environments) = req.in_memory();
    let ws = Workspace::builder()
        .load_options(load)
        .environments(&environments)
        .roots(&[BODY_TEMPLATE])
        .max_nested_depth(max_depth)
        .open();
    let (_, doc) = ws.parameters(BODY_TEMPLATE);
    if show_nested {
        doc
    } else {
        crate::product::heat_validate::without_nested(doc)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req(
        template: &str,
        files: &[(&str, &str)],
        env: Option<&str>,
        env_files: &[&str],
    ) -> HeatRequest {
        HeatRequest::new(
            template.to_owned(),
            files
                .iter()
                .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
                .collect(),
            env.map(str::to_owned),
            env_files.iter().map(|s| (*s).to_owned()).collect(),
        )
    }

    /// A nested template and an environment file, keyed by absolute
    /// `file://` URLs as OSC sends them, none of which exists on disk.
    #[test]
    fn answers_from_the_body_alone() {
        let root = "heat_template_version: 2018-08-31\nparameters: {a: {type: string, default: x}}\nresources:\n  n: {type: 'OS::My::Nested'}\n";
        let nested = r#"{"heat_template_version": "2018-08-31", "description": "nested one", "parameters": {"b": {"type": "number"}}}"#;
        let env = r#"{"resource_registry": {"OS::My::Nested": "file:///nowhere/on/disk/nested.yaml"}, "parameter_defaults": {"b": 3}}"#;
        let r = req(
            root,
            &[
                ("file:///nowhere/on/disk/nested.yaml", nested),
                ("file:///nowhere/on/disk/env.yaml", env),
            ],
            None,
            &["file:///nowhere/on/disk/env.yaml"],
        );
        let doc = validate_request(&r, true, 5);
        assert!(doc.get("Error").is_none(), "{doc}");
        assert_eq!(doc["Parameters"]["a"]["Default"], "x");
        let n = &doc["NestedParameters"]["n"];
        assert_eq!(n["Description"], "nested one");
        assert_eq!(n["Parameters"]["b"]["Default"], 3, "{doc}");
        assert_eq!(
            doc["Environment"]["resource_registry"]["OS::My::Nested"],
            "file:///nowhere/on/disk/nested.yaml"
        );
        let flat = validate_request(&r, false, 5);
        assert!(flat.get("NestedParameters").is_none());
    }

    /// A file the request lacks is missing, even when it exists on disk.
    #[test]
    fn never_reads_the_disk() {
        let here = std::fs::canonicalize("fixtures/spec/puppet/controller.yaml").unwrap();
        let root = format!(
            "heat_template_version: 2018-08-31\nresources:\n  c: {{type: 'file://{}'}}\n",
            here.display()
        );
        let doc = validate_request(&req(&root, &[], None, &[]), true, 5);
        assert!(doc.get("Error").is_some(), "{doc}");
    }
}
