//! The renderer against TripleO's own: the sha256 of every file each
//! revision's `tools/process-templates.py` wrote (tests/render/REV.sha256,
//! recorded as tests/render/README.md says), compared when
//! `HEATCAP_THT_CHECKOUTS` names a directory holding the raw checkouts
//! (one directory per revision); the fixtures under fixtures/jinja/ cover
//! each rule in CI.

use super::*;
use sha2::{Digest, Sha256};

fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    Sha256::digest(bytes)
        .iter()
        .fold(String::new(), |mut s, b| {
            let _ = write!(s, "{b:02x}");
            s
        })
}

#[test]
fn every_recorded_revision_renders_byte_for_byte_as_python() {
    let Some(checkouts) = std::env::var_os("HEATCAP_THT_CHECKOUTS") else {
        return;
    };
    let mut compared = 0;
    let mut manifests: Vec<_> = std::fs::read_dir("tests/render")
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "sha256"))
        .collect();
    manifests.sort();
    assert_eq!(manifests.len(), 5);
    let mut failures = Vec::new();
    let (mut most_fuel, mut figures) = (0, Vec::new());
    for manifest in manifests {
        let rev = manifest.file_stem().unwrap().to_string_lossy().into_owned();
        let root = Path::new(&checkouts).join(&rev);
        assert!(
            root.is_dir(),
            "no checkout of {rev} in HEATCAP_THT_CHECKOUTS"
        );
        let tree = render_tree(&root, &rev, &RenderOptions::default(), &Bounds::default());
        assert!(
            tree.diagnostics.is_empty(),
            "{rev}: {:#?}",
            tree.diagnostics
        );
        let biggest = tree.outputs.iter().max_by_key(|f| f.fuel).unwrap();
        figures.push(format!(
            "{rev}: {} fuel ({}, {} bytes)",
            biggest.fuel,
            biggest.path,
            biggest.text.len()
        ));
        most_fuel = most_fuel.max(biggest.fuel);
        let ours: HashMap<&str, String> = tree
            .outputs
            .iter()
            .map(|f| (f.path.as_str(), hex(f.text.as_bytes())))
            .collect();
        let text = std::fs::read_to_string(&manifest).unwrap();
        let theirs: Vec<(&str, &str)> = text
            .lines()
            .map(|l| {
                let (h, p) = l.split_once("  ").unwrap();
                (p, h)
            })
            .collect();
        assert_eq!(ours.len(), theirs.len(), "{rev}: output count");
        for (path, hash) in theirs {
            compared += 1;
            if ours.get(path).map(String::as_str) != Some(hash) {
                failures.push(format!("{rev}/{path}"));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} differ: {failures:#?}",
        failures.len()
    );
    assert_eq!(compared, 22 + 123 + 101 + 114 + 70);
    // The engine's budget leaves a wide margin over the largest real
    // render (FUEL's comment gives the figure).
    assert!(
        most_fuel.saturating_mul(20) <= FUEL,
        "the largest render takes {most_fuel} fuel, FUEL is {FUEL}: {figures:#?}"
    );
}

#[test]
fn sources_are_found_by_the_scripts_naming_rules_without_data() {
    let sources: Vec<String> = [
        "environments/plain.j2.yaml",
        "puppet/role.role.j2.yaml",
        "network/config/bond/role.role.j2.yaml",
        "network/network.network.j2.yaml",
        "network/ports/port.network.j2.yaml",
        "network/ports/deployed_vip_port.network.j2.yaml",
    ]
    .map(str::to_owned)
    .to_vec();
    let rules = super::ScriptRules::latest();
    let named = |n: &str| super::sources_named(n, &sources, &rules);
    assert_eq!(
        named("environments/plain.yaml"),
        ["environments/plain.j2.yaml"]
    );
    assert_eq!(
        named("puppet/compute-role.yaml"),
        ["puppet/role.role.j2.yaml"]
    );
    assert_eq!(
        named("network/config/bond/anything.yaml"),
        ["network/config/bond/role.role.j2.yaml"]
    );
    assert_eq!(
        named("network/storage.yaml"),
        ["network/network.network.j2.yaml"]
    );
    // In ports/, `port` is replaced; both templates could give a name
    // ending as the plain one does.
    assert_eq!(
        named("network/ports/deployed_vip_tenant.yaml"),
        [
            "network/ports/port.network.j2.yaml",
            "network/ports/deployed_vip_port.network.j2.yaml"
        ]
    );
    assert_eq!(
        named("network/ports/tenant.yaml"),
        ["network/ports/port.network.j2.yaml"]
    );
    // No rule: a role template needs a role before its name, a plain
    // source its exact stem; another directory is never a match.
    assert!(named("puppet/role.yaml").is_empty());
    assert!(named("environments/other.yaml").is_empty());
    assert!(named("other/controller-role.yaml").is_empty());
    // Before network templates (early 2017) a `.network.j2.yaml` is plain.
    let mut old = super::ScriptRules::latest();
    old.network_templates = false;
    assert_eq!(
        super::sources_named("network/network.network.yaml", &sources, &old),
        ["network/network.network.j2.yaml"]
    );
}

/// A tree of `files` (path, text) in a temporary directory, with one
/// role and one network.
fn tree(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let mut all = vec![
        ("roles_data.yaml", "- name: Controller\n"),
        (
            "network-data-samples/default-network-isolation.yaml",
            "- name: InternalApi\n",
        ),
    ];
    all.extend_from_slice(files);
    for (path, text) in all {
        let p = dir.path().join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    dir
}

fn outputs(t: &RenderedTree) -> Vec<&str> {
    t.outputs.iter().map(|f| f.path.as_str()).collect()
}

/// Heat refuses a template of more than `max_template_size` characters
/// (`len(contain_str) > cfg.CONF.max_template_size`, Python's `len`,
/// characters not bytes: tests/heat/template-size-limit.json, where Heat
/// measures the `str` of the parsed template, within 0.80 to 1 of the
/// text on real files). heatcap counts the text, as E0003 does when the
/// file is read: an output of exactly the limit is rendered, one
/// character more is refused, counted in characters, not bytes.
#[test]
fn an_output_past_the_size_limit_is_refused() {
    let dir = tree(&[
        ("exact.j2.yaml", "{{ 'é' * 10 }}"),
        ("over.j2.yaml", "{{ 'é' * 10 }}x"),
        ("loop.j2.yaml", "{% for i in range(100) %}é{% endfor %}"),
    ]);
    let bounds = Bounds {
        max_chars: 10,
        ..Bounds::default()
    };
    let t = render_tree(dir.path(), "t", &RenderOptions::default(), &bounds);
    assert_eq!(outputs(&t), ["exact.yaml"]);
    assert_eq!(t.outputs[0].text.chars().count(), 10);
    let mut refused: Vec<(&str, &str)> = t
        .diagnostics
        .iter()
        .map(|d| (d.file.as_str(), d.code.0))
        .collect();
    refused.sort_unstable();
    assert_eq!(
        refused,
        [("t/loop.j2.yaml", "E0020"), ("t/over.j2.yaml", "E0020")]
    );
    assert!(t.diagnostics.iter().all(|d| d
        .message
        .starts_with("the rendered file grows past 10 characters, Heat's limit for a template")));
}

/// The writer stops at the first write past the limit: nothing more is
/// kept.
#[test]
fn the_output_writer_stops_at_the_limit() {
    use std::io::Write;
    let mut out = Bounded {
        text: Vec::new(),
        chars: 0,
        max: 4,
        over: false,
    };
    out.write_all("ab".as_bytes()).unwrap();
    out.write_all("çd".as_bytes()).unwrap();
    assert!(!out.over);
    assert!(out.write_all(b"e").is_err());
    assert!(out.over);
    assert_eq!(out.text, "abçd".as_bytes());
}

/// Loops that multiply (each under minijinja's range limit) run out of
/// fuel within a fraction of a second; huge ranges, string products and
/// unbounded recursion stay refused; the other outputs are rendered.
#[test]
fn a_render_runs_out_of_fuel_in_time() {
    let dir = tree(&[
        (
            "loops.j2.yaml",
            "a: 1\n{% for a in range(100) %}{% for b in range(10000) %}{% for c in range(10000) %}{% endfor %}{% endfor %}{% endfor %}",
        ),
        (
            "alloc.j2.yaml",
            "{% set l = [] %}{% for a in range(100000) %}{% set _ = l.append('x' * 60000) %}{% endfor %}",
        ),
        (
            "capture.j2.yaml",
            "{% set big %}{% for a in range(10000) %}{% for b in range(10000) %}xxxxxxxxxx{% endfor %}{% endfor %}{% endset %}",
        ),
        ("product.j2.yaml", "{{ 'x' * 1000000000 }}"),
        ("padding.j2.yaml", "{{ '{:>2000000000}'.format(1) }}"),
        ("precision.j2.yaml", "{{ '{{}} {:.2000000000f}'.format(1.5) }}"),
        ("printf.j2.yaml", "{{ '%2000000000d' | format(1) }}"),
        ("join.j2.yaml", "{{ (['x' * 1000000] * 100000) | join | length }}"),
        (
            "join-lists.j2.yaml",
            "{% set l = range(100000) | list %}{{ ([l] * 100000) | join | length }}",
        ),
        (
            "join-attribute.j2.yaml",
            "{% set u = {'name': 'x' * 1000000} %}{{ ([u] * 100000) | join(attribute='name') | length }}",
        ),
        (
            "joined.j2.yaml",
            "{{ ['a', 'b'] | join(', ') }} {{ [{'n': 'c'}, {'n': 'd'}] | join('-', attribute='n') }} {{ [1, [2]] | join }}",
        ),
        ("range.j2.yaml", "{% for a in range(100000000) %}{% endfor %}"),
        ("recursion.j2.yaml", "{% macro f(n) %}{{ f(n + 1) }}{% endmacro %}{{ f(0) }}"),
        ("good.j2.yaml", "{% for role in roles %}{{ role.name }}{% endfor %}"),
    ]);
    let started = std::time::Instant::now();
    let t = render_tree(
        dir.path(),
        "t",
        &RenderOptions::default(),
        &Bounds::default(),
    );
    let took = started.elapsed();
    assert!(took < std::time::Duration::from_secs(5), "{took:?}");
    assert_eq!(outputs(&t), ["good.yaml", "joined.yaml"]);
    assert_eq!(t.outputs[0].text, "Controller");
    assert_eq!(t.outputs[1].text, "a, b c-d 1[2]");
    let found = |file: &str| {
        t.diagnostics
            .iter()
            .find(|d| d.file == format!("t/{file}"))
            .map_or_else(
                || panic!("{file}: {:#?}", t.diagnostics),
                |d| (d.code.0, d.message.clone(), d.span),
            )
    };
    for file in [
        "loops.j2.yaml",
        "alloc.j2.yaml",
        "capture.j2.yaml",
        "product.j2.yaml",
        "padding.j2.yaml",
        "precision.j2.yaml",
        "printf.j2.yaml",
        "join.j2.yaml",
        "join-lists.j2.yaml",
        "join-attribute.j2.yaml",
    ] {
        let (code, message, span) = found(file);
        assert_eq!(code, "E0020");
        assert!(
            message.starts_with(
                "the render does more work than heatcap allows for one file (500000 fuel"
            ),
            "{file}: {message}"
        );
        assert!(span.is_some(), "{file}");
    }
    assert_eq!(found("loops.j2.yaml").2, Some(Span::point(2, 1)));
    assert!(found("range.j2.yaml")
        .1
        .contains("range has too many elements"));
    assert!(found("recursion.j2.yaml")
        .1
        .contains("recursion limit exceeded"));
}

/// A root whose sources, roles, network, excludes and script may be
/// links to files outside it, which hold secrets.
struct Linked {
    _base: tempfile::TempDir,
    root: PathBuf,
    outside: PathBuf,
}

impl Linked {
    fn new() -> Linked {
        let base = tempfile::tempdir().unwrap();
        let real = std::fs::canonicalize(base.path()).unwrap();
        let (root, outside) = (real.join("root"), real.join("outside"));
        std::fs::create_dir_all(outside.join("sources")).unwrap();
        for (name, text) in [
            ("secret.j2.yaml", "SECRET-SOURCE"),
            ("sources/inc.yaml", "SECRET-INCLUDE"),
            ("sources/inner.j2.yaml", "SECRET-INNER"),
            ("roles.yaml", "- name: SecretRole\n"),
            ("networks.yaml", "- name: SecretNet\n"),
            ("excludes.yaml", "name: [SECRET-EXCLUDE]\n"),
            ("script.py", "SECRET-SCRIPT"),
        ] {
            std::fs::write(outside.join(name), text).unwrap();
        }
        let dir = tree(&[
            (
                "overcloud.j2.yaml",
                "{% for r in roles %}{{ r.name }}{% endfor %} {% for n in networks %}{{ n.name }}{% endfor %}",
            ),
            ("include.j2.yaml", "{% include 'linked/inc.yaml' %}"),
            (
                "ignoring.j2.yaml",
                "{% include 'linked/inc.yaml' ignore missing %}",
            ),
        ]);
        std::fs::rename(dir.path(), &root).unwrap();
        let linked = Linked {
            _base: base,
            root,
            outside,
        };
        linked.link("secret.j2.yaml", "leak.j2.yaml");
        linked.link("sources", "linked");
        linked
    }

    /// `at` (in the root, replaced) made a link to `target` outside.
    fn link(&self, target: &str, at: &str) {
        let at = self.root.join(at);
        let _ = std::fs::remove_file(&at);
        std::fs::create_dir_all(at.parent().unwrap()).unwrap();
        std::os::unix::fs::symlink(self.outside.join(target), at).unwrap();
    }

    fn confined(&self) -> Bounds {
        Bounds {
            confine: Some(vec![self.root.clone()].into()),
            ..Bounds::default()
        }
    }

    fn render(&self, bounds: &Bounds) -> RenderedTree {
        render_tree(&self.root, "t", &RenderOptions::default(), bounds)
    }
}

/// All a rendering says, outputs and diagnostics.
fn said(t: &RenderedTree) -> String {
    format!("{:?}{:?}", t.outputs, t.diagnostics)
}

/// The files refused, each as the loader refuses a file outside the
/// roots.
fn refused(t: &RenderedTree) -> Vec<String> {
    assert!(!said(t).to_lowercase().contains("secret"), "{}", said(t));
    let mut v: Vec<String> = t
        .diagnostics
        .iter()
        .map(|d| {
            assert_eq!(d.code.0, "E0001", "{d:?}");
            assert!(d
                .message
                .starts_with("outside the directories heatcap serves: not read"));
            d.file.clone()
        })
        .collect();
    v.sort();
    v
}

/// Under confinement (`heatcap serve`) a source and an include through a
/// linked directory that lead outside are refused as the loader refuses
/// a file outside the roots (E0001); nothing of them is in any output or
/// message. Without confinement (the CLI) they are read, as the script
/// reads them (a linked directory is not walked, as `os.walk` does not
/// enter it).
#[test]
fn a_linked_source_or_include_outside_the_confinement_is_refused() {
    let l = Linked::new();
    let t = l.render(&l.confined());
    // For each source including it: `ignore missing` does not hide it.
    assert_eq!(
        refused(&t),
        ["t/leak.j2.yaml", "t/linked/inc.yaml", "t/linked/inc.yaml"]
    );
    assert_eq!(outputs(&t), ["overcloud.yaml"]);
    assert_eq!(t.outputs[0].text, "Controller InternalApi");
    let by: Vec<(&str, Option<Span>)> = t
        .diagnostics
        .iter()
        .filter(|d| d.file == "t/linked/inc.yaml")
        .map(|d| (d.related[0].file.as_str(), d.related[0].span))
        .collect();
    assert_eq!(
        by,
        [
            ("t/ignoring.j2.yaml", Some(Span::point(1, 4))),
            ("t/include.j2.yaml", Some(Span::point(1, 4)))
        ]
    );
    let t = l.render(&Bounds::default());
    assert!(t.diagnostics.is_empty(), "{:?}", t.diagnostics);
    assert_eq!(
        outputs(&t),
        [
            "ignoring.yaml",
            "include.yaml",
            "leak.yaml",
            "overcloud.yaml"
        ]
    );
    assert_eq!(t.outputs[2].text, "SECRET-SOURCE");
}

/// Linked roles and network data outside the confinement: refused, no
/// output rendered and no output named with them.
#[test]
fn linked_roles_or_network_data_outside_the_confinement_are_refused() {
    for (target, at) in [
        ("roles.yaml", "roles_data.yaml"),
        (
            "networks.yaml",
            "network-data-samples/default-network-isolation.yaml",
        ),
    ] {
        let l = Linked::new();
        l.link(target, at);
        let t = l.render(&l.confined());
        assert_eq!(refused(&t), [format!("t/{at}")]);
        assert!(t.outputs.is_empty());
        let names = output_names(
            &l.root,
            &RenderOptions::default(),
            Some(std::slice::from_ref(&l.root)),
            &crate::vfs::FileOverlay::default(),
        );
        assert!(names.is_none());
        assert!(said(&l.render(&Bounds::default())).contains("Secret"));
    }
}

/// Linked excludes and script outside the confinement: refused too (the
/// latest script's rules are used instead of the script's).
#[test]
fn linked_excludes_or_script_outside_the_confinement_are_refused() {
    let l = Linked::new();
    std::fs::remove_file(l.root.join("leak.j2.yaml")).unwrap();
    l.link("excludes.yaml", "j2_excludes.yaml");
    l.link("script.py", "tools/process-templates.py");
    let t = l.render(&l.confined());
    let files: Vec<&str> = t.diagnostics.iter().map(|d| d.file.as_str()).collect();
    assert_eq!(
        files,
        ["t/tools/process-templates.py", "t/j2_excludes.yaml"]
    );
    refused(&t);
}

/// A source that is a FIFO, and roles data that is a link to a device,
/// are refused as the loader refuses them (E0017), never opened: the
/// render does not block nor read forever.
#[test]
fn a_source_or_data_that_is_not_a_regular_file_is_never_opened() {
    let dir = tree(&[("good.j2.yaml", "{{ roles | length }}")]);
    let made = std::process::Command::new("mkfifo")
        .arg(dir.path().join("fifo.j2.yaml"))
        .status()
        .unwrap();
    assert!(made.success());
    let t = render_tree(
        dir.path(),
        "t",
        &RenderOptions::default(),
        &Bounds::default(),
    );
    assert_eq!(outputs(&t), ["good.yaml"]);
    assert_eq!(t.diagnostics.len(), 1);
    assert_eq!(
        (t.diagnostics[0].code.0, t.diagnostics[0].file.as_str()),
        ("E0017", "t/fifo.j2.yaml")
    );
    std::fs::remove_file(dir.path().join("roles_data.yaml")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", dir.path().join("roles_data.yaml")).unwrap();
    let t = render_tree(
        dir.path(),
        "t",
        &RenderOptions::default(),
        &Bounds::default(),
    );
    assert!(t.outputs.is_empty());
    assert_eq!(
        (t.diagnostics[0].code.0, t.diagnostics[0].file.as_str()),
        ("E0017", "t/roles_data.yaml")
    );
}

/// Python's list and dict methods are charged for their work: a list that
/// doubles itself by `extend` in a loop runs out of fuel after a few
/// hundred thousand items, not out of memory.
#[test]
fn mutable_lists_and_dicts_are_charged_for_their_work() {
    let dir = tree(&[
        (
            "double.j2.yaml",
            "{% set l = [1] %}{% for i in range(64) %}{% set _ = l.extend(l) %}{% endfor %}{{ l | length }}",
        ),
        (
            "dict.j2.yaml",
            "{% set d = {} %}{% for i in range(64) %}{% set _ = d.update(d.copy()) %}{% set _ = d.update({i: i}) %}{% endfor %}{{ d | length }}",
        ),
        (
            "copies.j2.yaml",
            "{% set l = [] %}{% for i in range(50000) %}{% set _ = l.append(i) %}{% endfor %}{% for i in range(100000) %}{% set _ = l.copy() %}{% endfor %}",
        ),
        (
            "fine.j2.yaml",
            "{% set l = [] %}{% set d = {} %}{% for i in range(100) %}{% set _ = l.append(i) %}{% set _ = l.extend([i]) %}{% set _ = d.update({i: l.pop()}) %}{% endfor %}{{ l | length }} {{ d | length }}",
        ),
    ]);
    let t = render_tree(
        dir.path(),
        "t",
        &RenderOptions::default(),
        &Bounds::default(),
    );
    assert_eq!(outputs(&t), ["dict.yaml", "fine.yaml"]);
    assert_eq!(t.outputs[0].text, "64");
    assert_eq!(t.outputs[1].text, "100 100");
    let mut refused: Vec<&str> = t.diagnostics.iter().map(|d| d.file.as_str()).collect();
    refused.sort_unstable();
    assert_eq!(refused, ["t/copies.j2.yaml", "t/double.j2.yaml"]);
    assert!(t
        .diagnostics
        .iter()
        .all(|d| d.message.starts_with("the render does more work")));
}

#[test]
fn format_specs_are_measured_before_formatting() {
    assert_eq!(super::format_widths("{:>20} {{:99}} {0:08.3f} {name}"), 31);
    assert_eq!(super::format_widths("plain {} text 12345"), 0);
    assert_eq!(super::format_widths("{:99999999999999999999999}"), u64::MAX);
}
