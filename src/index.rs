//! Stage 4: the capabilities index over a [`Corpus`]: capability key →
//! value → templates, and declared `resource_type` → templates, all in
//! first-seen order.

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

/// The capabilities index.
#[derive(Debug, Clone, Default)]
pub struct Index<'c> {
    /// Every template, in corpus order.
    pub templates: Vec<&'c Template>,
    /// key → canonical value text → entry (`resource_type` excluded).
    pub by_key: IndexMap<String, IndexMap<String, ValueEntry>>,
    /// resource type → templates declaring it in `resource_type`.
    pub by_type: IndexMap<String, Vec<usize>>,
}

impl<'c> Index<'c> {
    pub fn build(corpus: &'c Corpus) -> Index<'c> {
        Index::from_templates(corpus.templates())
    }

    pub fn from_templates(templates: impl IntoIterator<Item = &'c Template>) -> Index<'c> {
        let mut ix = Index::default();
        for (i, t) in templates.into_iter().enumerate() {
            ix.templates.push(t);
            for ty in &t.resource_type {
                let list = ix.by_type.entry(ty.clone()).or_default();
                if !list.contains(&i) {
                    list.push(i);
                }
            }
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
