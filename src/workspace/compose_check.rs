//! `validate -e ENV`: the composition rules. The environments are merged as
//! Heat merges them, every registry entry is looked up, and every template
//! checked is composed with them, as `resolve -t` composes one root.
//!
//! Every template is a candidate root, but a template another one nests
//! is checked through that one (its child registry is the one Heat would
//! give it); the roots are the templates no other nests, plus, in walk
//! order, any template no chosen root reaches (one inside a cycle, say).
//! Findings are reported once each.

use std::collections::HashSet;
use std::path::PathBuf;

use super::Workspace;
use crate::diag::{codes, Diagnostic};
use crate::load::LoadOptions;
use crate::resolve::choose::unselectable;
use crate::resolve::compose::{compose, Composition, TreeNode};
use crate::resolve::merge::Merged;
use crate::validate::env::shadowed_entry;
use crate::vfs::FileOverlay;
use crate::walk::{normalize, path_of};

/// A file's identity: its real path, or its path without `.` and `..`
/// when it cannot be resolved.
pub(super) fn identity(path: &str, overlay: &FileOverlay) -> PathBuf {
    let path = path_of(path);
    overlay
        .canonicalize(&path)
        .unwrap_or_else(|_| PathBuf::from(normalize(&path)))
}

/// The composition findings for `templates` (display paths, walk order)
/// under the environments `envs`. `checked` are every file the per-file
/// rules saw (their own diagnostics are not repeated).
pub(super) fn composition(
    envs: &[PathBuf],
    templates: &[String],
    checked: &[String],
    opts: &LoadOptions,
    max_depth: usize,
) -> Vec<Diagnostic> {
    let ws = Workspace::builder()
        .load_options(opts.clone())
        .environments(envs)
        .roots(templates)
        .max_nested_depth(max_depth)
        .open();
    let overlay = &ws.load.overlay;
    let walked: HashSet<PathBuf> = checked.iter().map(|t| identity(t, overlay)).collect();
    // An environment also among the paths checked has had its own file
    // diagnostics (reading, parsing) reported already; not what only its
    // use as an environment says (E6014: its top level is not a mapping,
    // which the walk skips as a file that is not Heat's; W0011).
    let mut out: Vec<Diagnostic> = Vec::new();
    for f in ws.environment_files() {
        let checked = walked.contains(&identity(&f.path, overlay));
        out.extend(
            super::file_diagnostics(std::slice::from_ref(f))
                .into_iter()
                .filter(|d| !(checked && f.diagnostics.contains(d))),
        );
    }
    // Composing without one of the environments would report what it
    // maps as missing: its own problem is the finding.
    if ws.environments().len() < envs.len() {
        return dedup(out, overlay);
    }
    out.extend(ws.merged().diagnostics.iter().cloned());
    let env_paths: Vec<&str> = ws.environments().iter().map(|e| e.path.as_str()).collect();
    for f in ws.catalog().records() {
        if walked.contains(&identity(&f.path, overlay)) {
            continue;
        }
        // A missing file is reported where it is named (E7001).
        let missing = |d: &&Diagnostic| {
            matches!(d.code, codes::READ_ERROR | codes::NOT_FOUND)
                && !overlay.exists(&path_of(&f.path))
        };
        out.extend(f.diagnostics.iter().filter(|d| !missing(d)).cloned());
    }
    let registry = ws.registry();
    let env_checked: Vec<bool> = env_paths
        .iter()
        .map(|p| walked.contains(&identity(p, overlay)))
        .collect();
    // An absent target of a checked environment is its E6012 already.
    for (d, absent) in registry.missing_target_entries() {
        if !(absent && walked.contains(&identity(&d.file, overlay))) {
            out.push(d);
        }
    }
    out.extend(shadowed(ws.merged(), &env_paths, &env_checked));
    let fallback = env_paths.last().copied().unwrap_or("-");
    for r in registry.lookup_all() {
        out.extend(r.diagnostic(fallback));
        out.extend(unselectable(&r));
    }
    let composed: Vec<(PathBuf, Composition)> = templates
        .iter()
        .map(|t| {
            (
                identity(t, overlay),
                compose(t, &registry, ws.catalog(), ws.max_nested_depth()),
            )
        })
        .collect();
    for i in choose_roots(&composed, ws.max_nested_depth(), overlay) {
        let c = &composed[i].1;
        out.extend(c.diagnostics.iter().cloned());
        out.extend(c.resolutions.iter().flat_map(unselectable));
        out.extend(super::env_values::check(
            &c.root,
            ws.environments(),
            ws.merged(),
            ws.catalog(),
        ));
    }
    let mut out = dedup(out, overlay);
    out.sort_by(|a, b| (&a.file, a.span).cmp(&(&b.file, b.span)));
    out
}

/// Exact keys a glob shadows, across the merged registry. A pair within
/// one file is that file's W6011 already when the file was checked.
fn shadowed(merged: &Merged, env_paths: &[&str], env_checked: &[bool]) -> Vec<Diagnostic> {
    let all: Vec<&crate::resolve::merge::Entry> = merged.entries.values().collect();
    let entries: Vec<&crate::model::registry::RegistryEntry> =
        all.iter().map(|e| &e.entry).collect();
    let mut pairs = shadowed_entry::shadowed_pairs(&entries);
    pairs.sort_by_key(|(e, g)| (*g, *e));
    let mut out = Vec::new();
    for (ei, gi) in pairs {
        let (e, glob) = (all[ei], all[gi]);
        let same_checked_file = e.origin.env == glob.origin.env && env_checked[e.origin.env];
        if !same_checked_file {
            out.push(shadowed_entry::finding(
                env_paths[e.origin.env],
                e,
                env_paths[glob.origin.env],
                glob,
            ));
        }
    }
    out
}

/// Every template a composition tree nests and walks into (not its root,
/// nor a template beyond the depth limit, which is not walked), by
/// identity.
fn nested(node: &TreeNode, max_depth: usize, overlay: &FileOverlay, out: &mut HashSet<PathBuf>) {
    for c in &node.children {
        if let (Some(t), true) = (&c.template, c.depth <= max_depth) {
            out.insert(identity(t, overlay));
        }
        nested(c, max_depth, overlay, out);
    }
}

/// The compositions to report, by index: the templates nothing else
/// nests, then, in order, any template no chosen root reaches.
fn choose_roots(
    composed: &[(PathBuf, Composition)],
    max_depth: usize,
    overlay: &FileOverlay,
) -> Vec<usize> {
    let reach: Vec<HashSet<PathBuf>> = composed
        .iter()
        .map(|(_, c)| {
            let mut s = HashSet::new();
            nested(&c.root, max_depth, overlay, &mut s);
            s
        })
        .collect();
    // The templates another template (one of another identity) nests:
    // one pass over the reaches, where asking every other composition for
    // each template was quadratic.
    let nested_by_other: HashSet<&PathBuf> = composed
        .iter()
        .zip(&reach)
        .flat_map(|((me, _), r)| r.iter().filter(move |p| *p != me))
        .collect();
    let mut roots: Vec<usize> = (0..composed.len())
        .filter(|&i| !nested_by_other.contains(&composed[i].0))
        .collect();
    let mut covered: HashSet<&PathBuf> = HashSet::new();
    for &i in &roots {
        covered.insert(&composed[i].0);
        covered.extend(reach[i].iter());
    }
    for (i, (path, _)) in composed.iter().enumerate() {
        if !covered.contains(path) {
            roots.push(i);
            covered.insert(path);
            covered.extend(reach[i].iter());
        }
    }
    roots.sort_unstable();
    roots
}

/// Each finding once, first occurrence kept: the same code at the same
/// place of the same file, with the same message once paths in it are
/// spelled alike (a template reached as `./x.yaml` and as `x.yaml`).
fn dedup(found: Vec<Diagnostic>, overlay: &FileOverlay) -> Vec<Diagnostic> {
    let mut seen = HashSet::new();
    found
        .into_iter()
        .filter(|d| {
            let message = d.message.replace("`./", "`").replace(" ./", " ");
            seen.insert((d.code, identity(&d.file, overlay), d.span, message))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::{Code, Span};
    use crate::resolve::compose::MAX_NESTED_DEPTH;

    fn tree(children: &[&str]) -> TreeNode {
        TreeNode {
            resource: None,
            type_name: "root".into(),
            template: None,
            depth: 0,
            children: children
                .iter()
                .map(|c| TreeNode {
                    resource: Some("r".into()),
                    type_name: "T".into(),
                    template: Some((*c).to_owned()),
                    depth: 1,
                    children: Vec::new(),
                    ..TreeNode::default()
                })
                .collect(),
            ..TreeNode::default()
        }
    }

    fn comp(path: &str, children: &[&str]) -> (PathBuf, Composition) {
        (
            identity(path, &FileOverlay::new()),
            Composition {
                root: tree(children),
                resolutions: Vec::new(),
                diagnostics: Vec::new(),
                unevaluated: Vec::new(),
                heat_error: None,
                root_stack: crate::resolve::compose::RootStack::default(),
                unassigned: Vec::new(),
            },
        )
    }

    #[test]
    fn roots_are_the_unnested_then_whatever_they_miss() {
        // root nests a and b; c is alone; x and y nest each other only.
        let composed = vec![
            comp("a.yaml", &[]),
            comp("root.yaml", &["a.yaml", "./b.yaml"]),
            comp("b.yaml", &[]),
            comp("c.yaml", &[]),
            comp("x.yaml", &["y.yaml"]),
            comp("y.yaml", &["x.yaml"]),
        ];
        assert_eq!(
            choose_roots(&composed, MAX_NESTED_DEPTH, &FileOverlay::new()),
            vec![1, 3, 4]
        );
    }

    #[test]
    fn a_template_beyond_the_depth_limit_is_a_root_of_its_own() {
        let mut deep = comp("root.yaml", &["near.yaml"]);
        deep.1.root.children[0].children.push(TreeNode {
            resource: Some("next".into()),
            type_name: "T".into(),
            template: Some("far.yaml".to_owned()),
            depth: MAX_NESTED_DEPTH + 1,
            children: Vec::new(),
            ..TreeNode::default()
        });
        let composed = vec![deep, comp("near.yaml", &[]), comp("far.yaml", &[])];
        assert_eq!(
            choose_roots(&composed, MAX_NESTED_DEPTH, &FileOverlay::new()),
            vec![0, 2]
        );
    }

    #[test]
    fn dedup_keeps_the_first_of_identical_findings() {
        let d = Diagnostic::new(Code("E7007"), "a.yaml", "m").at(Span::point(1, 1));
        let other = Diagnostic::new(Code("E7007"), "a.yaml", "m").at(Span::point(2, 1));
        let kept = dedup(vec![d.clone(), other.clone(), d], &FileOverlay::new());
        assert_eq!(
            kept,
            vec![
                Diagnostic::new(Code("E7007"), "a.yaml", "m").at(Span::point(1, 1)),
                other
            ]
        );
    }
}
