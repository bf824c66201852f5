//! Entry points for the fuzz harness (`cargo run --release --example fuzz`):
//! each runs one stage chain on arbitrary bytes, in memory. Not part of the
//! public API; a panic here is a bug.

use crate::load::{parse_text, ParseOptions};
use crate::model::template::{Format, Template};
use crate::model::Environment;
use crate::resolve::compose::compose;
use crate::resolve::merge::merge;
use crate::resolve::registry::Registry;
use crate::resolve::{Catalog, TemplateRef};

/// The loader and the typed views: bytes → YAML tree → template or
/// environment view.
pub fn loader(data: &[u8]) -> usize {
    let text = String::from_utf8_lossy(data);
    let parsed = parse_text(&text, "fuzz.yaml", &ParseOptions::default());
    let directives = crate::load::suppress::scan(&text, parsed.root.as_ref()).len()
        + crate::load::suppress::scan(&text, None).len();
    let Some(root) = parsed.root else {
        return parsed.diagnostics.len() + directives;
    };
    let Some(map) = root.as_map() else { return 0 };
    let mut out = Vec::new();
    let t = Template::from_node("fuzz.yaml", Format::Hot, map, &mut out);
    let e = Environment::from_node("fuzz.yaml", map);
    t.resources.len() + e.entries.len() + out.len() + directives
}

/// Heat's second YAML stage alone (the port of PyYAML's pure-Python
/// scanner and parser), on any text, whether libyaml reads it or not.
pub fn second_stage(data: &[u8]) -> usize {
    let text = String::from_utf8_lossy(data);
    match crate::load::second_stage_tree(&text) {
        Ok(v) => v.to_string().len().min(64),
        Err(e) => e.len(),
    }
}

/// One template in memory, for the composition walk.
struct One(Option<Template>);

impl Catalog for One {
    fn template(&self, _from: &str, target: &str) -> TemplateRef<'_> {
        TemplateRef {
            display: target.to_owned(),
            template: self.0.as_ref().filter(|_| target == "root.yaml"),
            problem: None,
        }
    }
    fn file_problem(&self, _from: &str, _target: &str) -> Option<String> {
        None
    }
    fn file(&self, _from: &str, _target: &str) -> Option<String> {
        None
    }
    fn url(&self, _from: &str, _target: &str) -> Option<String> {
        None
    }
}

/// The environment and registry pipeline: the bytes as two environments
/// (the first and second half) merged, every entry looked up, and the same
/// bytes as a root template composed with them (functions evaluated,
/// groups and chains expanded).
pub fn environment_pipeline(data: &[u8]) -> usize {
    let half = data.len() / 2;
    let mut envs = Vec::new();
    for (i, part) in [&data[..half], &data[half..], data].iter().enumerate() {
        let text = String::from_utf8_lossy(part);
        if let Some(root) = parse_text(&text, "e.yaml", &ParseOptions::default()).root {
            if let Some(m) = root.as_map() {
                envs.push(Environment::from_node(&format!("env{i}.yaml"), m));
            }
        }
    }
    let merged = merge(&envs);
    let text = String::from_utf8_lossy(data);
    let template = parse_text(&text, "root.yaml", &ParseOptions::default())
        .root
        .and_then(|r| {
            r.as_map()
                .map(|m| Template::from_node("root.yaml", Format::Hot, m, &mut Vec::new()))
        });
    let catalog = One(template);
    let registry = Registry::new(&envs, &merged, &catalog);
    let lookups = registry.lookup_all().len();
    let c = compose("root.yaml", &registry, &catalog, 5);
    lookups + c.diagnostics.len()
}

/// Every `validate` rule on one file (templates: HOT, CFN, Heat's plugin
/// schemas, custom constraints; environments): bytes → loaded file →
/// findings.
pub fn rules(data: &[u8]) -> usize {
    let text = String::from_utf8_lossy(data);
    let parsed = parse_text(&text, "fuzz.yaml", &ParseOptions::default());
    let (status, kind) = match &parsed.root {
        Some(root) => (
            crate::load::Status::Ok,
            Some(crate::load::classify::classify(root).0),
        ),
        None => (crate::load::Status::Error, None),
    };
    let loaded = crate::load::Loaded {
        source: crate::walk::Source::new("fuzz.yaml".into(), "fuzz.yaml".to_owned(), true),
        status,
        kind,
        reason: None,
        root: parsed.root,
        diagnostics: parsed.diagnostics,
        bytes: data.len() as u64,
        directives: Vec::new(),
    };
    let record = crate::model::FileRecord::from_loaded(loaded, true);
    crate::validate::check_file(
        &record,
        &crate::validate::Selection::new(Vec::new(), Vec::new()),
        &crate::walk::Remap::default(),
        &crate::validate::MappedTypes::default(),
        &crate::vfs::Disk::default(),
    )
    .len()
}

#[cfg(test)]
mod tests {
    /// Each target runs its chain: a template with problems gives findings.
    #[test]
    fn targets_reach_their_stages() {
        let bad = b"heat_template_version: 2016-10-14\nresources:\n  r:\n    type: OS::Heat::RandomString\n    properties: {lenght: 600}\n";
        // E3011 (unknown property `lenght`).
        assert_eq!(super::rules(bad), 1);
        assert!(super::loader(bad) >= 1);
        assert_eq!(super::rules(b"\xff\xfe: ["), 0);
    }
}
