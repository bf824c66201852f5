//! Choosing among the candidates of a list-valued registry entry
//! (capabilities.md §2, rules 1–4). Resolution never guesses.

use indexmap::IndexMap;

use super::{Candidate, Catalog, Selection};
use crate::model::capability::{CapValue, Requirement};

/// A type name rather than a template path (heat-semantics §2.3: a value is
/// a template when it ends in `.yaml` or `.template`).
// Heat's test is a case-sensitive suffix test: `.YAML` is not a template.
#[allow(clippy::case_sensitive_file_extension_comparisons)]
pub fn is_template_path(s: &str) -> bool {
    s.ends_with(".yaml") || s.ends_with(".template")
}

/// Decides a candidate list for `type_name`. `from` is the environment
/// file the list came from (candidate paths are relative to it).
pub fn choose(
    type_name: &str,
    names: &[String],
    from: &str,
    requires: &IndexMap<String, (Requirement, CapValue, super::merge::Origin)>,
    catalog: &dyn Catalog,
) -> Selection {
    let mut candidates: Vec<Candidate> = names
        .iter()
        .map(|name| {
            if is_template_path(name) {
                let found = catalog.template(from, name);
                let capabilities = found.template.and_then(|t| t.capabilities.clone());
                // Rule 1: a declared resource_type that does not include the type.
                let excluded = found
                    .template
                    .is_some_and(|t| !t.resource_type.is_empty() && !t.implements(type_name));
                Candidate {
                    name: name.clone(),
                    path: Some(found.display),
                    capabilities,
                    excluded: excluded || found.problem.is_some(),
                    matches: false,
                    problem: found.problem,
                }
            } else {
                Candidate {
                    name: name.clone(),
                    path: None,
                    capabilities: None,
                    excluded: false,
                    matches: false,
                    problem: None,
                }
            }
        })
        .collect();
    // Rule 2: keys of requires that some remaining candidate declares.
    let declares = |c: &Candidate, key: &str| {
        c.capabilities
            .as_ref()
            .is_some_and(|caps| caps.contains_key(key))
    };
    let relevant: Vec<(&String, &Requirement)> = requires
        .iter()
        .filter(|(k, _)| candidates.iter().any(|c| !c.excluded && declares(c, k)))
        .map(|(k, (r, _, _))| (k, r))
        .collect();
    // Rule 3: every relevant key declared with a value that meets it.
    for c in &mut candidates {
        if c.excluded {
            continue;
        }
        c.matches = relevant.iter().all(|(k, req)| {
            c.capabilities
                .as_ref()
                .and_then(|caps| caps.get(k.as_str()))
                .is_some_and(|v| v.meets(req))
        });
    }
    let matching: Vec<&Candidate> = candidates.iter().filter(|c| c.matches).collect();
    let chosen = (matching.len() == 1).then(|| matching[0].name.clone());
    Selection {
        relevant: relevant
            .iter()
            .map(|(k, r)| ((*k).clone(), r.any_of.clone()))
            .collect(),
        candidates,
        chosen,
    }
}
