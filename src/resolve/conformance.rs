//! Conformance cases: each Heat behaviour heatcap implements, stated as
//! input environments, a lookup and the expected result, with the section
//! of ../shared/docs/heat-semantics.md (§) or capabilities.md (cap §) that
//! defines it.

use std::collections::HashMap;

use super::merge::merge;
use super::registry::Registry;
use super::{Catalog, Implementation, ResolveError, StepKind, TemplateRef};
use crate::load::{parse_text, ParseOptions};
use crate::model::Environment;
use crate::model::{Format, Template};
use crate::node::Node;

/// In-memory templates keyed by normalized path.
struct Mem(HashMap<String, Template>);

fn normalize(path: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for p in path.split('/') {
        match p {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            other => parts.push(other),
        }
    }
    parts.join("/")
}

impl Catalog for Mem {
    fn file_problem(&self, _from: &str, _target: &str) -> Option<String> {
        None
    }

    fn file(&self, _from: &str, _target: &str) -> Option<String> {
        None
    }

    fn url(&self, _from: &str, _target: &str) -> Option<String> {
        None
    }

    fn template(&self, from: &str, target: &str) -> TemplateRef<'_> {
        let dir = from.rsplit_once('/').map_or("", |(d, _)| d);
        let display = normalize(&format!("{dir}/{target}"));
        let template = self.0.get(&display);
        TemplateRef {
            problem: template.is_none().then(|| "no such file".to_owned()),
            display,
            template,
        }
    }
}

fn node(text: &str) -> Node {
    let p = parse_text(text, "case.yaml", &ParseOptions::default());
    p.root
        .unwrap_or_else(|| panic!("bad case yaml: {:?}", p.diagnostics))
}

fn catalog(templates: &[(&str, &str)]) -> Mem {
    Mem(templates
        .iter()
        .map(|(path, caps)| {
            let text = format!("heat_template_version: 2015-10-15\n{caps}\n");
            let root = node(&text);
            let t = Template::from_node(path, Format::Hot, root.as_map().unwrap(), &mut Vec::new());
            ((*path).to_owned(), t)
        })
        .collect())
}

#[derive(Debug, PartialEq)]
enum Want {
    Template(&'static str),
    Plugin(&'static str),
    NotFound(&'static str),
    AliasLoop,
    NoMatch,
    Ambiguous,
    Invalid,
}

/// Runs one lookup over environments (YAML texts, named env0.yaml, ...).
fn run(
    envs: &[&str],
    templates: &[(&str, &str)],
    type_name: &str,
    resource: Option<&str>,
) -> super::Resolution {
    let roots: Vec<Node> = envs.iter().map(|e| node(e)).collect();
    let names: Vec<String> = (0..envs.len()).map(|i| format!("env{i}.yaml")).collect();
    let inputs: Vec<Environment> = roots
        .iter()
        .zip(&names)
        .map(|(root, path)| Environment::from_node(path, root.as_map().unwrap()))
        .collect();
    let merged = merge(&inputs);
    let cat = catalog(templates);
    let reg = Registry::new(&inputs, &merged, &cat);
    reg.lookup(type_name, resource, Some("root.yaml"))
}

fn check(
    cite: &str,
    envs: &[&str],
    templates: &[(&str, &str)],
    type_name: &str,
    resource: Option<&str>,
    want: &Want,
) {
    let r = run(envs, templates, type_name, resource);
    let got = match (&r.implementation, &r.error) {
        (Some(Implementation::Template(p)), None) => {
            Want::Template(Box::leak(p.clone().into_boxed_str()))
        }
        (Some(Implementation::Plugin(p)), None) => {
            Want::Plugin(Box::leak(p.clone().into_boxed_str()))
        }
        (_, Some(ResolveError::NotFound { type_name })) => {
            Want::NotFound(Box::leak(type_name.clone().into_boxed_str()))
        }
        (_, Some(ResolveError::AliasLoop { .. })) => Want::AliasLoop,
        (_, Some(ResolveError::NoMatch(_))) => Want::NoMatch,
        (_, Some(ResolveError::Ambiguous(_))) => Want::Ambiguous,
        (_, Some(ResolveError::InvalidValue { .. })) => Want::Invalid,
        other => panic!("{cite}: unexpected {other:?}"),
    };
    assert_eq!(
        &got, want,
        "{cite}: lookup {type_name} {resource:?}\nchain: {:#?}",
        r.chain
    );
}

// ---- Registry classification (§2.3) ----

#[test]
fn template_value_is_a_template() {
    check(
        "§2.3 value ending .yaml",
        &["resource_registry: {OS::A: a.yaml}"],
        &[],
        "OS::A",
        None,
        &Want::Template("a.yaml"),
    );
    check(
        "§2.3 value ending .template",
        &["resource_registry: {OS::A: a.template}"],
        &[],
        "OS::A",
        None,
        &Want::Template("a.template"),
    );
}

#[test]
fn template_key_is_the_template_and_the_value_is_ignored() {
    check(
        "§2.3 key ending .yaml",
        &["resource_registry: {a.yaml: whatever.yaml}"],
        &[],
        "a.yaml",
        None,
        &Want::Template("a.yaml"),
    );
}

#[test]
fn yml_is_not_a_template_extension() {
    // Heat treats `x.yml` as a type alias, which then cannot be found.
    check(
        "§2.3 .yml is an alias",
        &["resource_registry: {OS::A: a.yml}"],
        &[],
        "OS::A",
        None,
        &Want::NotFound("OS::A"),
    );
}

#[test]
fn non_string_values_are_invalid() {
    check(
        "§2.3 number value",
        &["resource_registry: {OS::A: 3}"],
        &[],
        "OS::A",
        None,
        &Want::Invalid,
    );
    check(
        "§2.3 mapping under a type",
        &["resource_registry: {OS::A: {b: c.yaml}}"],
        &[],
        "OS::A",
        None,
        &Want::Invalid,
    );
}

// ---- Lookup order (§2.4) ----

#[test]
fn matching_glob_beats_exact_key() {
    let env =
        "resource_registry:\n  OS::TripleO::Foo: foo.yaml\n  OS::TripleO::*: OS::Heat::None\n";
    check(
        "§2.4 '*' sorts before letters",
        &[env],
        &[],
        "OS::TripleO::Foo",
        None,
        &Want::Plugin("OS::Heat::None"),
    );
}

#[test]
fn exact_key_wins_when_glob_prefix_is_the_whole_type() {
    let env =
        "resource_registry:\n  OS::TripleO::Foo*: OS::Heat::None\n  OS::TripleO::Foo: foo.yaml\n";
    check(
        "§2.4 OS::Nova::Server* vs exact",
        &[env],
        &[],
        "OS::TripleO::Foo",
        None,
        &Want::Template("foo.yaml"),
    );
}

#[test]
fn broadest_glob_wins() {
    let env =
        "resource_registry:\n  OS::TripleO::*: OS::Heat::None\n  OS::*: OS::Heat::ResourceGroup\n";
    check(
        "§2.4 OS::* beats OS::TripleO::*",
        &[env],
        &[],
        "OS::TripleO::Foo",
        None,
        &Want::Plugin("OS::Heat::ResourceGroup"),
    );
}

#[test]
fn failing_candidate_falls_through() {
    let env =
        "resource_registry:\n  OS::TripleO::Foo: foo.yaml\n  OS::TripleO::*: OS::Missing::*\n";
    let r = run(&[env], &[], "OS::TripleO::Foo", None);
    assert_eq!(
        r.implementation,
        Some(Implementation::Template("foo.yaml".into())),
        "§2.4 fall-through"
    );
    assert!(
        r.chain.iter().any(|s| s.kind == StepKind::FellThrough),
        "{:?}",
        r.chain
    );
}

#[test]
fn user_entries_beat_heat_plugins() {
    check(
        "§2.4 user before global",
        &["resource_registry: {OS::Nova::*: OS::Heat::None}"],
        &[],
        "OS::Nova::Server",
        None,
        &Want::Plugin("OS::Heat::None"),
    );
    check(
        "§2.4 plugin when unmapped",
        &["resource_registry: {}"],
        &[],
        "OS::Nova::Server",
        None,
        &Want::Plugin("OS::Nova::Server"),
    );
}

// ---- Globs (§2.5) ----

#[test]
fn prefix_to_prefix_glob_rewrites_the_type() {
    check(
        "§2.5 prefix glob",
        &["resource_registry: {OS::Networking::*: OS::Nova::*}"],
        &[],
        "OS::Networking::Server",
        None,
        &Want::Plugin("OS::Nova::Server"),
    );
}

#[test]
fn glob_mapped_to_a_template_never_matches() {
    check(
        "§2.5 glob → template",
        &["resource_registry: {OS::TripleO::*: noop.yaml}"],
        &[],
        "OS::TripleO::Foo",
        None,
        &Want::NotFound("OS::TripleO::Foo"),
    );
}

#[test]
fn leading_or_middle_star_is_literal() {
    check(
        "§2.5 middle *",
        &["resource_registry: {OS::*::Server: OS::Heat::None}"],
        &[],
        "OS::Nova::Server",
        None,
        &Want::Plugin("OS::Nova::Server"),
    );
    check(
        "§2.5 leading *",
        &["resource_registry: {'*::Server': OS::Heat::None}"],
        &[],
        "OS::Nova::Server",
        None,
        &Want::Plugin("OS::Nova::Server"),
    );
}

#[test]
fn globs_inside_resources_are_ignored_for_types() {
    let env = "resource_registry:\n  resources:\n    r1:\n      OS::TripleO::*: OS::Heat::None\n";
    check(
        "§2.5 resources globs",
        &[env],
        &[],
        "OS::TripleO::Foo",
        Some("r1"),
        &Want::NotFound("OS::TripleO::Foo"),
    );
}

// ---- Per-resource entries (§2.6, §2.9) ----

#[test]
fn per_resource_entry_beats_top_level_and_does_not_leak() {
    let env = "resource_registry:\n  OS::A: a.yaml\n  resources:\n    r1:\n      OS::A: r.yaml\n";
    check(
        "§2.4 longer path first",
        &[env],
        &[],
        "OS::A",
        Some("r1"),
        &Want::Template("r.yaml"),
    );
    // Heat leaks a per-resource *alias* to the top level after first use;
    // heatcap does not (§2.9): r2 sees the top-level entry.
    check(
        "§2.9 no leak",
        &[env],
        &[],
        "OS::A",
        Some("r2"),
        &Want::Template("a.yaml"),
    );
    let alias = "resource_registry:\n  resources:\n    r1:\n      OS::A: OS::Heat::None\n";
    check(
        "§2.9 alias leak not reproduced (r1)",
        &[alias],
        &[],
        "OS::A",
        Some("r1"),
        &Want::Plugin("OS::Heat::None"),
    );
    check(
        "§2.9 alias leak not reproduced (r2)",
        &[alias],
        &[],
        "OS::A",
        Some("r2"),
        &Want::NotFound("OS::A"),
    );
}

// ---- Aliases (§2.7) ----

#[test]
fn alias_chains_resolve() {
    check(
        "§2.7 chain",
        &["resource_registry: {OS::A: OS::B, OS::B: b.yaml}"],
        &[],
        "OS::A",
        None,
        &Want::Template("b.yaml"),
    );
}

#[test]
fn alias_loops_are_reported_not_recursed() {
    check(
        "§2.7 loop",
        &["resource_registry: {A::B: C::D, C::D: A::B}"],
        &[],
        "A::B",
        None,
        &Want::AliasLoop,
    );
    check(
        "§2.7 self loop",
        &["resource_registry: {A::B: A::B}"],
        &[],
        "A::B",
        None,
        &Want::AliasLoop,
    );
}

#[test]
fn unknown_types_report_the_requested_name() {
    check(
        "§2.7 unknown",
        &["resource_registry: {}"],
        &[],
        "OS::TripleO::Nope",
        None,
        &Want::NotFound("OS::TripleO::Nope"),
    );
    check(
        "§2.7 alias to unknown",
        &["resource_registry: {OS::A: OS::Nope}"],
        &[],
        "OS::A",
        None,
        &Want::NotFound("OS::A"),
    );
}

// ---- Global environment (§2.8) ----

#[test]
fn heat_default_environment_applies() {
    check(
        "§2.8 OS::Quantum*",
        &["resource_registry: {}"],
        &[],
        "OS::Quantum::Net",
        None,
        &Want::Plugin("OS::Neutron::Net"),
    );
}

// ---- Merging several files (§2.11) ----

#[test]
fn later_entry_replaces_earlier() {
    check(
        "§2.11 later wins",
        &[
            "resource_registry: {OS::A: a.yaml}",
            "resource_registry: {OS::A: b.yaml}",
        ],
        &[],
        "OS::A",
        None,
        &Want::Template("b.yaml"),
    );
}

#[test]
fn later_null_does_not_undo_a_mapping_but_a_first_null_deletes() {
    check(
        "§2.11 later null ignored",
        &[
            "resource_registry: {OS::A: a.yaml}",
            "resource_registry: {OS::A: null}",
        ],
        &[],
        "OS::A",
        None,
        &Want::Template("a.yaml"),
    );
    check(
        "§2.3 null deletes (first file)",
        &["resource_registry: {OS::A: a.yaml}"],
        &[],
        "OS::A",
        None,
        &Want::Template("a.yaml"),
    );
    let glob_null =
        "resource_registry:\n  OS::X::A: a.yaml\n  OS::X::*: null\n  OS::X::B: b.yaml\n";
    check(
        "§2.9 glob null deletes earlier siblings",
        &[glob_null],
        &[],
        "OS::X::A",
        None,
        &Want::NotFound("OS::X::A"),
    );
    check(
        "§2.9 glob null spares later siblings",
        &[glob_null],
        &[],
        "OS::X::B",
        None,
        &Want::Template("b.yaml"),
    );
}

#[test]
fn later_resources_section_replaces_the_earlier() {
    let a = "resource_registry:\n  resources:\n    r1: {OS::A: a.yaml}\n";
    let b = "resource_registry:\n  resources:\n    r2: {OS::A: b.yaml}\n";
    check(
        "§2.11 resources replaced",
        &[a, b],
        &[],
        "OS::A",
        Some("r1"),
        &Want::NotFound("OS::A"),
    );
    check(
        "§2.11 resources replaced (r2)",
        &[a, b],
        &[],
        "OS::A",
        Some("r2"),
        &Want::Template("b.yaml"),
    );
}

#[test]
fn relative_paths_are_relative_to_their_environment() {
    // §2.12: the client resolves each file's paths against that file.
    let r = {
        let roots = [node("resource_registry: {OS::A: ../t/a.yaml}")];
        let inputs = [Environment::from_node(
            "envs/e.yaml",
            roots[0].as_map().unwrap(),
        )];
        let merged = merge(&inputs);
        let cat = catalog(&[]);
        Registry::new(&inputs, &merged, &cat).lookup("OS::A", None, None)
    };
    assert_eq!(
        r.implementation,
        Some(Implementation::Template("t/a.yaml".into()))
    );
}

// ---- Child environments (§3.4) ----

#[test]
fn nested_stack_does_not_see_the_entry_that_produced_it() {
    let roots = [node(
        "resource_registry: {OS::Heat::RandomString: nested.yaml}",
    )];
    let inputs = [Environment::from_node(
        "env0.yaml",
        roots[0].as_map().unwrap(),
    )];
    let merged = merge(&inputs);
    let cat = catalog(&[]);
    let root = Registry::new(&inputs, &merged, &cat);
    assert_eq!(
        root.lookup("OS::Heat::RandomString", Some("r"), None)
            .implementation,
        Some(Implementation::Template("nested.yaml".into()))
    );
    let child = root.child("r", Some(&vec!["OS::Heat::RandomString".to_owned()]));
    assert_eq!(
        child
            .lookup("OS::Heat::RandomString", Some("inner"), None)
            .implementation,
        Some(Implementation::Plugin("OS::Heat::RandomString".into())),
        "§3.4 item_to_remove"
    );
}

#[test]
fn per_resource_entries_drill_down_with_exact_name_last() {
    let env = "resource_registry:\n  resources:\n    group:\n      \"0\": {OS::A: zero.yaml}\n    'gr*':\n      \"0\": {OS::A: glob.yaml}\n      \"1\": {OS::A: one.yaml}\n";
    let roots = [node(env)];
    let inputs = [Environment::from_node(
        "env0.yaml",
        roots[0].as_map().unwrap(),
    )];
    let merged = merge(&inputs);
    let cat = catalog(&[]);
    let child = Registry::new(&inputs, &merged, &cat).child("group", None);
    let got = |n: &str| child.lookup("OS::A", Some(n), None).implementation;
    assert_eq!(
        got("0"),
        Some(Implementation::Template("zero.yaml".into())),
        "§3.4 exact wins"
    );
    assert_eq!(
        got("1"),
        Some(Implementation::Template("one.yaml".into())),
        "§3.4 fnmatch entries apply"
    );
}

// ---- Capabilities resolution (capabilities.md §2) ----

const PUPPET: (&str, &str) = (
    "puppet/c.yaml",
    "capabilities: {deployment: puppet, resource_type: OS::TripleO::Controller}",
);
const DOCKER: (&str, &str) = (
    "docker/c.yaml",
    "capabilities: {deployment: docker, resource_type: OS::TripleO::Controller}",
);
const COMPUTE_POST: (&str, &str) = (
    "post/compute.yaml",
    "capabilities: {deployment: puppet, resource_type: OS::TripleO::ComputePostDeployment}",
);
const PLAIN: (&str, &str) = ("plain.yaml", "resources: {}");

fn list_env(requires: &str, list: &str) -> String {
    format!("requires: {requires}\nresource_registry:\n  OS::TripleO::Controller: {list}\n")
}

#[test]
fn one_match_resolves() {
    let env = list_env("{deployment: puppet}", "[puppet/c.yaml, docker/c.yaml]");
    check(
        "cap §2 one match",
        &[&env],
        &[PUPPET, DOCKER],
        "OS::TripleO::Controller",
        None,
        &Want::Template("puppet/c.yaml"),
    );
}

#[test]
fn no_match_and_several_matches_are_errors() {
    let none = list_env("{deployment: ansible}", "[puppet/c.yaml, docker/c.yaml]");
    check(
        "cap §2 no match",
        &[&none],
        &[PUPPET, DOCKER],
        "OS::TripleO::Controller",
        None,
        &Want::NoMatch,
    );
    let both = list_env(
        "{deployment: [puppet, docker]}",
        "[puppet/c.yaml, docker/c.yaml]",
    );
    check(
        "cap §2 several",
        &[&both],
        &[PUPPET, DOCKER],
        "OS::TripleO::Controller",
        None,
        &Want::Ambiguous,
    );
}

#[test]
fn keys_no_candidate_declares_are_ignored() {
    let env = list_env(
        "{deployment: docker, nic_layout: bond}",
        "[puppet/c.yaml, docker/c.yaml]",
    );
    check(
        "cap §2 rule 2",
        &[&env],
        &[PUPPET, DOCKER],
        "OS::TripleO::Controller",
        None,
        &Want::Template("docker/c.yaml"),
    );
}

#[test]
fn resource_type_excludes_candidates() {
    let env = list_env("{deployment: puppet}", "[post/compute.yaml, puppet/c.yaml]");
    check(
        "cap §2 rule 1",
        &[&env],
        &[PUPPET, COMPUTE_POST],
        "OS::TripleO::Controller",
        None,
        &Want::Template("puppet/c.yaml"),
    );
}

#[test]
fn type_candidates_declare_nothing() {
    let alone = list_env("{deployment: puppet}", "[OS::Heat::None]");
    check(
        "cap §2 type candidate alone",
        &[&alone],
        &[],
        "OS::TripleO::Controller",
        None,
        &Want::Plugin("OS::Heat::None"),
    );
    let with_template = list_env("{deployment: puppet}", "[puppet/c.yaml, OS::Heat::None]");
    check(
        "cap §2 type candidate loses to a declared match",
        &[&with_template],
        &[PUPPET],
        "OS::TripleO::Controller",
        None,
        &Want::Template("puppet/c.yaml"),
    );
    let undecided = list_env("{other: x}", "[plain.yaml, OS::Heat::None]");
    check(
        "cap §2 nothing relevant, two left",
        &[&undecided],
        &[PLAIN],
        "OS::TripleO::Controller",
        None,
        &Want::Ambiguous,
    );
}

#[test]
fn missing_candidate_files_are_excluded() {
    let env = list_env("{deployment: puppet}", "[gone.yaml, puppet/c.yaml]");
    let r = run(&[&env], &[PUPPET], "OS::TripleO::Controller", None);
    assert_eq!(
        r.implementation,
        Some(Implementation::Template("puppet/c.yaml".into()))
    );
    let sel = r.chain[0].selection.as_ref().unwrap();
    assert_eq!(sel.candidates[0].problem.as_deref(), Some("no such file"));
}

#[test]
fn lists_under_resources_resolve_the_same_way() {
    let env = "requires: {deployment: docker}\nresource_registry:\n  OS::TripleO::Controller: puppet/c.yaml\n  resources:\n    ctl:\n      OS::TripleO::Controller: [puppet/c.yaml, docker/c.yaml]\n";
    check(
        "cap §2 per-resource list",
        &[env],
        &[PUPPET, DOCKER],
        "OS::TripleO::Controller",
        Some("ctl"),
        &Want::Template("docker/c.yaml"),
    );
    check(
        "cap §2 other resources use the top level",
        &[env],
        &[PUPPET, DOCKER],
        "OS::TripleO::Controller",
        Some("other"),
        &Want::Template("puppet/c.yaml"),
    );
}

#[test]
fn requires_merge_across_files_later_winning() {
    let a = list_env("{deployment: puppet}", "[puppet/c.yaml, docker/c.yaml]");
    let b = "requires: {deployment: docker}\n";
    check(
        "cap §2 requires merged",
        &[&a, b],
        &[PUPPET, DOCKER],
        "OS::TripleO::Controller",
        None,
        &Want::Template("docker/c.yaml"),
    );
}

#[test]
fn a_later_scalar_replaces_a_list_and_vice_versa() {
    let list = list_env("{deployment: puppet}", "[puppet/c.yaml, docker/c.yaml]");
    let scalar = "resource_registry: {OS::TripleO::Controller: docker/c.yaml}\n";
    check(
        "cap §2 scalar after list",
        &[&list, scalar],
        &[PUPPET, DOCKER],
        "OS::TripleO::Controller",
        None,
        &Want::Template("docker/c.yaml"),
    );
    check(
        "cap §2 list after scalar",
        &[scalar, &list],
        &[PUPPET, DOCKER],
        "OS::TripleO::Controller",
        None,
        &Want::Template("puppet/c.yaml"),
    );
}

#[test]
fn unresolved_errors_carry_every_candidate_and_the_requirement() {
    let env = list_env(
        "{deployment: [puppet, docker]}",
        "[puppet/c.yaml, docker/c.yaml]",
    );
    let r = run(&[&env], &[PUPPET, DOCKER], "OS::TripleO::Controller", None);
    let Some(ResolveError::Ambiguous(u)) = &r.error else {
        panic!("{:?}", r.error)
    };
    assert_eq!(u.environment, "env0.yaml");
    assert_eq!(u.entry, "OS::TripleO::Controller");
    assert_eq!(u.selection.candidates.len(), 2);
    assert_eq!(u.selection.relevant["deployment"], ["puppet", "docker"]);
    let json = serde_json::to_value(&r.error).unwrap();
    assert_eq!(json["error"], "ambiguous");
    assert_eq!(
        json["selection"]["candidates"][0]["capabilities"]["deployment"],
        "puppet"
    );
}

// ---- Hooks and restricted actions (§2.3) ----

/// `get_rsrc_restricted_actions` (environment.py L377): every matching
/// key adds its actions (a string or a list); a nested stack sees those
/// under its resource's keys (`remove_resources_except`, L441).
#[test]
fn restricted_actions_match_by_fnmatch_and_drill_down() {
    let env = "resource_registry:\n  resources:\n    salt:\n      restricted_actions: replace\n    's*':\n      restricted_actions: [update]\n    role:\n      '*':\n        restricted_actions: update\n";
    let roots = [node(env)];
    let inputs = [Environment::from_node(
        "env0.yaml",
        roots[0].as_map().unwrap(),
    )];
    let merged = merge(&inputs);
    let cat = catalog(&[]);
    let root = Registry::new(&inputs, &merged, &cat);
    assert_eq!(
        root.restricted_actions("salt"),
        Some((
            vec!["replace".to_owned(), "update".to_owned()],
            "env0.yaml:4".to_owned()
        ))
    );
    assert_eq!(root.restricted_actions("role"), None);
    let child = root.child("role", None);
    assert_eq!(
        child.restricted_actions("inner").map(|(a, _)| a),
        Some(vec!["update".to_owned()])
    );
}

#[test]
fn invalid_hooks_and_restricted_actions_are_reported_as_heat_does() {
    let env = "resource_registry:\n  resources:\n    r1:\n      hooks: [pre-create, pre-launch]\n      restricted_actions: delete\n    r2:\n      hooks: post-update\n      restricted_actions: [update, replace]\n";
    let roots = [node(env)];
    let inputs = [Environment::from_node(
        "env0.yaml",
        roots[0].as_map().unwrap(),
    )];
    let merged = merge(&inputs);
    let msgs: Vec<String> = merged
        .diagnostics
        .iter()
        .map(|d| format!("{} {}", d.span.unwrap().start.line, d.message))
        .collect();
    assert_eq!(
        msgs,
        [
            "4 invalid hook type \"pre-launch\" for resource breakpoint, acceptable hook types are: ('pre-create', 'pre-update', 'pre-delete', 'post-create', 'post-update', 'post-delete')",
            "5 invalid restricted_action type \"delete\" for resource, acceptable restricted_action types are: ('update', 'replace')",
        ]
    );
}

// ---- Environment sections (§2.1) ----

#[test]
fn wrong_and_empty_sections_are_reported_as_heat_does() {
    let roots = [node(
        "requires: {a: b}\nresource_registry: {}\nparameter_defaults:\nextra: 1\n",
    )];
    let inputs = [Environment::from_node(
        "env0.yaml",
        roots[0].as_map().unwrap(),
    )];
    let merged = merge(&inputs);
    let msgs: Vec<String> = merged
        .diagnostics
        .iter()
        .map(|d| format!("{} {}", d.code, d.message))
        .collect();
    assert_eq!(
        msgs,
        [
            "E6006 environment has empty section \"parameter_defaults\"",
            "E6005 environment has wrong section \"extra\"",
        ]
    );
}
