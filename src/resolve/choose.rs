//! Choosing among the candidates of a list-valued registry entry
//! (capabilities.md §2, rules 1–4). Resolution never guesses.

use indexmap::IndexMap;

use super::{Candidate, Catalog, Selection};
use crate::model::capability::{CapValue, Requirement};
use crate::model::Template;

/// A candidate template no `requires` can select: it declares no
/// capabilities while it shares a list with others.
pub(crate) use crate::diag::codes::UNSELECTABLE;

/// The candidates of `r`'s list-valued entries that declare no
/// capabilities beside others (rule 2 makes them unselectable: any relevant
/// requirement is one they do not declare), each at its entry.
pub(crate) fn unselectable(r: &super::Resolution) -> Vec<crate::diag::Diagnostic> {
    let mut out = Vec::new();
    for step in &r.chain {
        let Some(sel) = &step.selection else { continue };
        // Only candidates still in the running compete (rule 1 excludes the
        // rest); a lone one is chosen by elimination.
        let in_running = sel
            .candidates
            .iter()
            .filter(|c| !c.excluded && c.problem.is_none())
            .count();
        if in_running < 2 {
            continue;
        }
        // `resource_type` is the annotation rule 1 reads, not a capability
        // `requires` can name.
        let declares_nothing = |c: &super::Candidate| {
            c.capabilities
                .as_ref()
                .is_none_or(|caps| caps.keys().all(|k| k == "resource_type"))
        };
        for c in &sel.candidates {
            if c.path.is_some() && c.problem.is_none() && !c.excluded && declares_nothing(c) {
                let mut d = crate::diag::Diagnostic::new(
                    UNSELECTABLE,
                    step.environment.clone().unwrap_or_default(),
                    format!(
                        "candidate `{}` of `{}` declares no capabilities, so no `requires` can select it among {} candidates",
                        c.name,
                        step.key,
                        in_running
                    ),
                );
                if let Some(sp) = step.span {
                    d = d.at(sp);
                }
                out.push(d);
            }
        }
    }
    out
}

pub(crate) use crate::model::registry::is_template_path;

/// The merged `requires`: key → requirement.
pub(crate) type Requires = IndexMap<String, (Requirement, CapValue, super::merge::Origin)>;

/// A candidate as written, with its template (if it is a path), before
/// deciding. Rule 1 is applied here.
pub(crate) fn candidate(
    type_name: &str,
    name: &str,
    display: Option<String>,
    template: Option<&Template>,
    problem: Option<String>,
) -> Candidate {
    // Rule 1: a declared resource_type that does not include the type.
    let excluded =
        template.is_some_and(|t| !t.resource_type.is_empty() && !t.implements(type_name));
    Candidate {
        name: name.to_owned(),
        path: display,
        capabilities: template.and_then(|t| t.capabilities.clone()),
        excluded: excluded || problem.is_some(),
        matches: false,
        problem,
        unlisted: false,
        selected_by: None,
        mapped_by: Vec::new(),
    }
}

/// Locates the candidates of a list written in the environment `from`.
pub(crate) fn locate(
    type_name: &str,
    names: &[String],
    from: &str,
    catalog: &dyn Catalog,
) -> Vec<Candidate> {
    names
        .iter()
        .map(|name| {
            if is_template_path(name) {
                let found = catalog.template(from, name);
                candidate(
                    type_name,
                    name,
                    Some(found.display),
                    found.template,
                    found.problem,
                )
            } else {
                candidate(type_name, name, None, None, None)
            }
        })
        .collect()
}

/// Decides a candidate list for `type_name`. `from` is the environment
/// file the list came from (candidate paths are relative to it).
pub(crate) fn choose(
    type_name: &str,
    names: &[String],
    from: &str,
    requires: &Requires,
    catalog: &dyn Catalog,
) -> Selection {
    decide(
        locate(type_name, names, from, catalog),
        requires.iter().map(|(k, (r, _, _))| (k, r)),
    )
}

/// Rules 2–4 over located candidates.
pub(crate) fn decide<'r>(
    mut candidates: Vec<Candidate>,
    requires: impl Iterator<Item = (&'r String, &'r Requirement)>,
) -> Selection {
    // Rule 2: keys of requires that some remaining candidate declares.
    let declares = |c: &Candidate, key: &str| {
        c.capabilities
            .as_ref()
            .is_some_and(|caps| caps.contains_key(key))
    };
    let relevant: Vec<(&String, &Requirement)> = requires
        .filter(|(k, _)| candidates.iter().any(|c| !c.excluded && declares(c, k)))
        .collect();
    // Rule 3: every relevant key declared with a value that meets it.
    for c in &mut candidates {
        c.matches = !c.excluded
            && relevant.iter().all(|(k, req)| {
                c.capabilities
                    .as_ref()
                    .and_then(|caps| caps.get(k.as_str()))
                    .is_some_and(|v| v.meets(req))
            });
    }
    // Rule 4: exactly one.
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

/// For each candidate, the smallest `requires` (on its own) that selects
/// it: one of its capabilities if one suffices, else all of them; `None`
/// when no `requires` can (another candidate declares the same values, or
/// it declares nothing while others declare something).
pub(crate) fn selectors(candidates: &mut [Candidate]) {
    let snapshot: Vec<Candidate> = candidates.to_vec();
    for (i, c) in candidates.iter_mut().enumerate() {
        if c.excluded {
            continue;
        }
        let own: Vec<(String, CapValue)> = c
            .capabilities
            .iter()
            .flatten()
            .filter(|(k, v)| k.as_str() != "resource_type" && !v.scalars().is_empty())
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        let selects = |keys: &[(String, CapValue)]| {
            let reqs: Vec<(String, Requirement)> = keys
                .iter()
                .map(|(k, v)| {
                    (
                        k.clone(),
                        Requirement {
                            any_of: vec![v.scalars()[0].text.clone()],
                        },
                    )
                })
                .collect();
            let sel = decide(snapshot.clone(), reqs.iter().map(|(k, r)| (k, r)));
            sel.chosen.as_deref() == Some(snapshot[i].name.as_str())
        };
        let as_map = |keys: &[(String, CapValue)]| -> IndexMap<String, serde_json::Value> {
            keys.iter()
                .map(|(k, v)| (k.clone(), v.scalars()[0].value.clone()))
                .collect()
        };
        c.selected_by = own
            .iter()
            .map(|kv| vec![kv.clone()])
            .find(|one| selects(one))
            .or_else(|| (!own.is_empty() && selects(&own)).then(|| own.clone()))
            .or_else(|| (own.is_empty() && selects(&[])).then(Vec::new))
            .map(|keys| as_map(&keys));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::{parse_text, ParseOptions};
    use crate::model::Format;

    fn template(caps: &str) -> Template {
        let text = format!("heat_template_version: 2015-10-15\ncapabilities: {caps}\n");
        let root = parse_text(&text, "t.yaml", &ParseOptions::default())
            .root
            .unwrap();
        Template::from_node(
            "t.yaml",
            Format::Hot,
            root.as_map().unwrap(),
            &mut Vec::new(),
        )
    }

    fn selector_of(c: &Candidate) -> Option<String> {
        c.selected_by
            .as_ref()
            .map(|m| serde_json::to_string(m).unwrap())
    }

    #[test]
    fn selectors_prefer_one_key_then_all_keys() {
        let a = template("{deployment: puppet, tls: false}");
        let b = template("{deployment: docker, tls: false}");
        let c = template("{deployment: docker, tls: true}");
        let mut cs = vec![
            candidate("T", "a", None, Some(&a), None),
            candidate("T", "b", None, Some(&b), None),
            candidate("T", "c", None, Some(&c), None),
        ];
        selectors(&mut cs);
        assert_eq!(
            selector_of(&cs[0]).as_deref(),
            Some(r#"{"deployment":"puppet"}"#)
        );
        // Neither key alone singles b out; both together do.
        assert_eq!(
            selector_of(&cs[1]).as_deref(),
            Some(r#"{"deployment":"docker","tls":false}"#)
        );
        assert_eq!(selector_of(&cs[2]).as_deref(), Some(r#"{"tls":true}"#));
    }

    #[test]
    fn identical_or_silent_candidates_cannot_be_selected() {
        let a = template("{deployment: puppet}");
        let b = template("{deployment: puppet}");
        let mut cs = vec![
            candidate("T", "a", None, Some(&a), None),
            candidate("T", "b", None, Some(&b), None),
            candidate("T", "OS::Heat::None", None, None, None),
        ];
        selectors(&mut cs);
        assert!(cs.iter().all(|c| c.selected_by.is_none()), "{cs:?}");
        // A lone type candidate needs no requires at all.
        let mut alone = vec![candidate("T", "OS::Heat::None", None, None, None)];
        selectors(&mut alone);
        assert_eq!(selector_of(&alone[0]).as_deref(), Some("{}"));
    }

    #[test]
    fn excluded_candidates_get_no_selector() {
        let other = template("{deployment: puppet, resource_type: Other::Type}");
        let mut cs = vec![candidate("T", "x", None, Some(&other), None)];
        assert!(cs[0].excluded);
        selectors(&mut cs);
        assert!(cs[0].selected_by.is_none());
    }
}
