//! Stage 4: the capabilities index over a [`Corpus`]: capability key →
//! value → templates, and `resource_type` → templates (declared, or
//! inferred from the environments that map the type to the template), all
//! in first-seen order.

use indexmap::IndexMap;

use crate::model::{Corpus, Template};

/// One value of a capability key, with the templates that provide it.
#[derive(Debug, Clone, PartialEq)]
pub struct ValueEntry {
    /// The value as first written (a number stays a number).
    pub value: serde_json::Value,
    /// Indices into [`Index::templates`].
    pub templates: Vec<usize>,
}

pub use crate::model::registry::Site;

/// Types a template implements by inference: type → the entries mapping
/// it there, in the order found.
pub type Inferred = IndexMap<String, Vec<Site>>;

/// The capabilities index.
#[derive(Debug, Clone, Default)]
pub struct Index<'c> {
    /// Every template, in corpus order.
    pub templates: Vec<&'c Template>,
    /// key → canonical value text → entry (`resource_type` excluded).
    pub by_key: IndexMap<String, IndexMap<String, ValueEntry>>,
    /// resource type → templates declaring it in `resource_type`, or
    /// inferred to implement it.
    pub by_type: IndexMap<String, Vec<usize>>,
    /// Per template (same indices as `templates`): the types it implements
    /// by inference (empty when none, or when only declarations count).
    pub inferred: Vec<Inferred>,
}

impl<'c> Index<'c> {
    /// The index of a corpus; `inferred` holds, per corpus file index, the
    /// types the file implements by inference.
    pub fn build(
        corpus: &'c Corpus,
        inferred: &std::collections::HashMap<usize, Inferred>,
    ) -> Index<'c> {
        Index::from_parts(corpus.files.iter().enumerate().filter_map(|(i, f)| {
            f.template()
                .map(|t| (t, inferred.get(&i).cloned().unwrap_or_default()))
        }))
    }

    /// The index of templates with only their declarations.
    #[cfg(test)]
    pub fn from_templates(templates: impl IntoIterator<Item = &'c Template>) -> Index<'c> {
        Index::from_parts(templates.into_iter().map(|t| (t, Inferred::new())))
    }

    /// The index of templates, each with the types it implements by inference.
    pub fn from_parts(templates: impl IntoIterator<Item = (&'c Template, Inferred)>) -> Index<'c> {
        let mut ix = Index::default();
        for (i, (t, inferred)) in templates.into_iter().enumerate() {
            ix.templates.push(t);
            for ty in t.resource_type.iter().chain(inferred.keys()) {
                let list = ix.by_type.entry(ty.clone()).or_default();
                if !list.contains(&i) {
                    list.push(i);
                }
            }
            ix.inferred.push(inferred);
            let Some(caps) = &t.capabilities else {
                continue;
            };
            for (key, value) in caps {
                if key == "resource_type" {
                    continue;
                }
                let values = ix.by_key.entry(key.clone()).or_default();
                let scalars = value.scalars();
                if scalars.is_empty() {
                    // A mapping (or null): reported as written, never matched.
                    let v = value.to_json();
                    add(values, format!("\u{0}{v}"), v, i);
                }
                for s in scalars {
                    add(values, s.text.clone(), s.value.clone(), i);
                }
            }
        }
        ix
    }
}

fn add(
    values: &mut IndexMap<String, ValueEntry>,
    text: String,
    value: serde_json::Value,
    i: usize,
) {
    let entry = values.entry(text).or_insert_with(|| ValueEntry {
        value,
        templates: Vec::new(),
    });
    if !entry.templates.contains(&i) {
        entry.templates.push(i);
    }
}
