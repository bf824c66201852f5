//! E3007 `CircularDependency`.
//!
//! Its catalogue entry (`META`) says what it checks, why, and gives an
//! example; `docs/rules.md` and `heatcap rules` print it.

use std::collections::HashMap;

use super::declared_sections;
use crate::diag::{Code, Diagnostic};
use crate::model::{Format, Mapping, Node};
use crate::validate::{function_args, reference_name, Context, Rule, RuleMeta};

pub(crate) struct CircularDependency;

static META: RuleMeta = RuleMeta {
    code: Code("E3007"),
    name: "CircularDependency",
    summary: "resources depend on each other in a cycle (`depends_on`, `get_resource`, `get_attr`)",
    what: "The resources' dependencies form no cycle: a resource depends on those its `depends_on` names (CFN `DependsOn`) and on those its definition reads with `get_resource` or `get_attr` (CFN `Ref`, `Fn::GetAtt`).",
    why: "Heat cannot order the resources and refuses the template (CircularDependencyException: \"Circular Dependency Found\").",
    example: "`a` with `depends_on: b` and `b` with `properties: {x: {get_resource: a}}`.",
    source: "heat-semantics §0.1 step 8, §1.6 (explicit dependency graph)",
};

/// The resources one resource depends on, in document order, once each.
fn dependencies(body: &Node, format: Format, resources: &Mapping) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut add = |name: &str| {
        if resources.contains_key(name) && !out.iter().any(|o| o == name) {
            out.push(name.to_owned());
        }
    };
    let depends_key = if format == Format::Hot {
        "depends_on"
    } else {
        "DependsOn"
    };
    if let Some(dep) = body.as_map().and_then(|b| b.get(depends_key)) {
        match dep.as_seq() {
            Some(items) => items.iter().filter_map(Node::as_str).for_each(&mut add),
            None => dep.as_str().into_iter().for_each(&mut add),
        }
    }
    let functions: &[&str] = if format == Format::Hot {
        &["get_resource", "get_attr"]
    } else {
        &["Ref", "Fn::GetAtt"]
    };
    for f in functions {
        let mut args = Vec::new();
        function_args(body, f, &mut args);
        for a in args {
            if let Some((name, _)) = reference_name(a) {
                add(name);
            }
        }
    }
    out
}

impl Rule for CircularDependency {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
        let (_, res_key) = declared_sections(cx.template);
        let Some(resources) = cx.root.get(res_key).and_then(Node::as_map) else {
            return;
        };
        let names: Vec<String> = resources
            .entries
            .iter()
            .map(|(k, _)| k.value.key_text())
            .collect();
        let index: HashMap<&str, usize> = names
            .iter()
            .enumerate()
            .map(|(i, n)| (n.as_str(), i))
            .collect();
        let edges: Vec<Vec<usize>> = resources
            .entries
            .iter()
            .map(|(_, body)| {
                dependencies(body, cx.template.format, resources)
                    .iter()
                    .filter_map(|d| index.get(d.as_str()).copied())
                    .collect()
            })
            .collect();
        // Depth-first search; each cycle is reported once, at the first of
        // its members in document order.
        let mut state = vec![0u8; names.len()]; // 0 new, 1 on the path, 2 done
        let mut reported: Vec<Vec<usize>> = Vec::new();
        for start in 0..names.len() {
            let mut path: Vec<(usize, usize)> = vec![(start, 0)];
            if state[start] != 0 {
                continue;
            }
            state[start] = 1;
            while let Some(&mut (node, ref mut next)) = path.last_mut() {
                if let Some(&to) = edges[node].get(*next) {
                    *next += 1;
                    match state[to] {
                        0 => {
                            state[to] = 1;
                            path.push((to, 0));
                        }
                        1 => {
                            let at = path.iter().position(|(n, _)| *n == to).unwrap_or(0);
                            let mut cycle: Vec<usize> =
                                path[at..].iter().map(|(n, _)| *n).collect();
                            let first = cycle.iter().copied().min().unwrap_or(to);
                            let pos = cycle.iter().position(|n| *n == first).unwrap_or(0);
                            cycle.rotate_left(pos);
                            if !reported.contains(&cycle) {
                                reported.push(cycle);
                            }
                        }
                        _ => {}
                    }
                } else {
                    state[node] = 2;
                    path.pop();
                }
            }
        }
        for cycle in reported {
            let first = cycle[0];
            let mut chain: Vec<&str> = cycle.iter().map(|i| names[*i].as_str()).collect();
            chain.push(&names[first]);
            let (key, _) = &resources.entries[first];
            out.push(
                Diagnostic::new(
                    META.code,
                    cx.file.path.clone(),
                    format!("circular dependency: {}", chain.join(" -> ")),
                )
                .with_key_path(vec![res_key.to_owned(), names[first].clone()])
                .at(key.span),
            );
        }
    }
}
