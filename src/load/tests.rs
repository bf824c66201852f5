//! Loader tests: Heat's YAML dialect (heat-semantics §1.2), duplicate and
//! merge keys, positions, JSON detection (§1.1), and the limits.

use std::fmt::Write as _;

use super::*;
use crate::diag::Pos;
use crate::node::Value;

fn parse(text: &str) -> Parsed {
    parse_text(text, "t.yaml", &ParseOptions::default())
}

fn json(text: &str) -> String {
    let p = parse(text);
    match p.root {
        Some(r) => r.value.to_json().to_string(),
        None => panic!("did not parse: {:?}", p.diagnostics),
    }
}

fn fatal(text: &str) -> Diagnostic {
    let p = parse(text);
    assert!(p.root.is_none(), "parsed: {text}");
    p.diagnostics.into_iter().last().expect("a diagnostic")
}

#[test]
fn heat_version_dates_stay_strings() {
    // heat-semantics §1.2: `heat_template_version: 2016-10-14` works unquoted.
    assert_eq!(
        json("heat_template_version: 2016-10-14\n"),
        r#"{"heat_template_version":"2016-10-14"}"#
    );
}

#[test]
fn yaml11_scalars_in_a_document() {
    assert_eq!(
        json("a: [yes, off, 0755, 1e3, 1.0e+3, ~, '0755', 1:20]\n"),
        r#"{"a":[true,false,493,"1e3",1000.0,null,"0755",80]}"#
    );
}

#[test]
fn duplicate_keys_keep_last_value_first_position_and_warn() {
    let p = parse("a: 1\nb: 2\na: 3\n");
    assert_eq!(
        p.root.unwrap().value.to_json().to_string(),
        r#"{"a":3,"b":2}"#
    );
    assert_eq!(p.diagnostics.len(), 1);
    let d = &p.diagnostics[0];
    assert_eq!(d.code, codes::DUPLICATE_KEY);
    assert_eq!(d.span.unwrap().start, Pos { line: 3, column: 1 });
    assert_eq!(d.related[0].span.unwrap().start, Pos { line: 1, column: 1 });
}

#[test]
fn duplicate_keys_across_python_key_identity() {
    // Python: `1` and `true` are the same dict key.
    let p = parse("1: a\ntrue: b\n");
    assert_eq!(p.root.unwrap().value.to_json().to_string(), r#"{"1":"b"}"#);
    assert_eq!(p.diagnostics.len(), 1);
}

#[test]
fn duplicates_are_found_in_small_and_large_mappings_but_merge_overrides_are_not() {
    for n in [3usize, 40] {
        let mut text = String::from("base: &b {k0: merged}\nm:\n  <<: *b\n  k0: own\n");
        for i in 1..n {
            let _ = writeln!(text, "  k{i}: {i}");
        }
        text.push_str("  k1: again\n");
        let p = parse(&text);
        let dups: Vec<_> = p.diagnostics.iter().map(|d| d.message.clone()).collect();
        assert_eq!(dups.len(), 1, "{n}: {dups:?}");
        assert!(dups[0].contains("`k1`"), "{dups:?}");
        let m = p.root.unwrap();
        let m = m
            .as_map()
            .unwrap()
            .get("m")
            .unwrap()
            .as_map()
            .unwrap()
            .clone();
        assert_eq!(m.get("k0").unwrap().value, Value::Str("own".into()), "{n}");
        assert_eq!(
            m.get("k1").unwrap().value,
            Value::Str("again".into()),
            "{n}"
        );
        assert_eq!(m.len(), n, "{n}");
    }
}

#[test]
fn merge_keys_merge_and_own_keys_win() {
    let text = "base: &b {x: 1, y: 2}\nother: &o {y: 3, z: 4}\nm:\n  <<: [*b, *o]\n  x: 9\n";
    let p = parse(text);
    assert!(p.diagnostics.is_empty(), "{:?}", p.diagnostics);
    let root = p.root.unwrap();
    // PyYAML: earlier merge sources win over later ones; own keys win over all.
    assert_eq!(
        root.as_map()
            .unwrap()
            .get("m")
            .unwrap()
            .value
            .to_json()
            .to_string(),
        r#"{"y":2,"z":4,"x":9}"#
    );
}

#[test]
fn merge_of_a_scalar_is_an_error() {
    let d = fatal("m:\n  <<: 3\n");
    assert_eq!(d.code, codes::YAML_SYNTAX);
    assert!(d.message.contains("for merging"), "{}", d.message);
}

#[test]
fn positions_are_one_based_lines_and_character_columns() {
    let root = parse("a:\n  b: [x, é, z]\n").root.unwrap();
    let path = |p: &[&str]| root.span_of(&p.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>());
    assert_eq!(path(&["a"]).start, Pos { line: 2, column: 3 });
    // `é` is two bytes but one column.
    assert_eq!(
        path(&["a", "b", "2"]).start,
        Pos {
            line: 2,
            column: 13
        }
    );
}

#[test]
fn syntax_errors_carry_position() {
    let d = fatal("a: {b: 1\n");
    assert_eq!(d.code, codes::YAML_SYNTAX);
    assert_eq!(d.span.unwrap().start, Pos { line: 2, column: 1 });
    assert!(d.message.contains("flow mapping"), "{}", d.message);
}

#[test]
fn unknown_tags_and_multiple_documents_are_errors() {
    assert!(fatal("a: !foo bar\n").message.contains("!foo"));
    assert_eq!(fatal("a: 1\n---\nb: 2\n").code, codes::MULTI_DOCUMENT);
    assert!(fatal("? [a, b]\n: c\n").message.contains("unhashable"));
    assert!(fatal("a: =\n").message.contains("value"));
}

#[test]
fn control_characters_are_reported_where_they_are() {
    let d = fatal("a: 1\nb: x\u{7}y\n");
    assert_eq!(d.span.unwrap().start, Pos { line: 2, column: 5 });
    assert!(
        d.message.starts_with("unacceptable character #x0007"),
        "{}",
        d.message
    );
}

#[test]
fn final_block_scalar_without_newline_is_accepted() {
    // PyYAML gives 'foo' (no newline); libyaml-safer panicked here.
    assert_eq!(json("a: |\n  foo"), r#"{"a":"foo"}"#);
}

#[test]
fn empty_and_null_documents_are_null() {
    for t in ["", "# only a comment\n", "~\n", "---\n"] {
        assert_eq!(parse(t).root.unwrap().value, Value::Null, "{t:?}");
    }
}

#[test]
fn json_when_the_first_character_is_a_brace() {
    // JSON numbers, not YAML 1.1: 1e3 is a float in JSON.
    assert_eq!(
        json("  {\"a\": 1e3, \"b\": [true, null]}"),
        r#"{"a":1000.0,"b":[true,null]}"#
    );
    // Not JSON, but YAML flow: Heat's server falls back to YAML.
    assert_eq!(json("{a: 1e3}"), r#"{"a":"1e3"}"#);
    let d = fatal("{\"a\": [1,}\n");
    assert_eq!(d.code, codes::JSON_SYNTAX);
    assert_eq!(d.span.unwrap().start.line, 1);
    // Columns count characters, as everywhere else (serde_json counts bytes).
    let d = fatal("{\"é€\": [1,}\n");
    assert_eq!(
        d.span.unwrap().start,
        fatal("{\"ab\": [1,}\n").span.unwrap().start
    );
}

#[test]
fn alias_bombs_are_bounded() {
    let mut text = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x]\n");
    for i in 1..10 {
        let refs = vec![format!("*a{}", i - 1); 9].join(", ");
        let _ = writeln!(text, "a{i}: &a{i} [{refs}]");
    }
    assert_eq!(fatal(&text).code, codes::ALIAS_EXPANSION);
    // Ordinary aliases still work.
    assert_eq!(json("a: &x [1]\nb: *x\n"), r#"{"a":[1],"b":[1]}"#);
}

#[test]
fn deep_nesting_is_refused_quickly() {
    let flow = format!("a: {}1{}", "{b: ".repeat(100_000), "}".repeat(100_000));
    assert_eq!(fatal(&flow).code, codes::TOO_DEEP);
    let seq = "[".repeat(100_000);
    assert_eq!(fatal(&seq).code, codes::TOO_DEEP);
    // Brackets inside quotes and comments do not count.
    let quoted = format!("a: '{}'\n# {}\n", "[".repeat(300), "{".repeat(300));
    assert!(parse(&quoted).root.is_some());
}

#[test]
fn block_nesting_beyond_the_limit_is_refused() {
    let mut text = String::new();
    for i in 0..300 {
        text.push_str(&" ".repeat(i));
        text.push_str("k:\n");
    }
    assert_eq!(fatal(&text).code, codes::TOO_DEEP);
}

/// Heat's second stage (heat/common/template_format.py `simple_parse`):
/// where libyaml refuses, PyYAML's pure-Python SafeLoader reads, with W0009
/// at libyaml's position; recorded: fixtures/yaml-dialect (`fb_*`).
#[test]
fn what_only_the_fallback_reads_is_read_with_a_warning() {
    let p = parse("a: 1\nHOSTNAME: {get_attr:[Controller, name]}\n");
    assert_eq!(
        p.root.unwrap().value.to_json().to_string(),
        r#"{"a":1,"HOSTNAME":{"get_attr":["Controller","name"]}}"#
    );
    assert_eq!(p.diagnostics.len(), 1, "{:?}", p.diagnostics);
    let w = &p.diagnostics[0];
    assert_eq!(w.code, codes::FALLBACK_YAML);
    assert_eq!(
        w.span.unwrap().start,
        Pos {
            line: 2,
            column: 20
        }
    );
    assert!(w.message.contains("found unexpected ':'"), "{}", w.message);
    // The plain SafeConstructor's dates, as the client sends them
    // (tests/heat/yaml-fallback.json); libyaml's reading keeps the text.
    assert_eq!(
        json("a: {b:[1]}\nd: 2016-10-14\nt: 2001-12-14 21:59:43.10 -5\n"),
        r#"{"a":{"b":[1]},"d":"2016-10-14","t":"2001-12-14T21:59:43.100000"}"#
    );
    assert_eq!(
        json("t: 2001-12-14 21:59:43.10 -5\n"),
        r#"{"t":"2001-12-14 21:59:43.10 -5"}"#
    );
    // A duplicate key found by the second stage is still reported.
    let p = parse("a: {b:[1]}\nc: 1\nc: 2\n");
    let codes: Vec<_> = p.diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(codes, [codes::FALLBACK_YAML, codes::DUPLICATE_KEY]);
}

#[test]
fn where_both_loaders_refuse_the_error_is_pyyaml_s() {
    // libyaml: "did not find expected ',' or '}'"; Heat shows PyYAML's.
    let d = fatal("a: {b: 1\n");
    assert_eq!(
        d.message,
        "expected ',' or '}', but got '<stream end>' (while parsing a flow mapping that starts at line 1, column 4)"
    );
    assert_eq!(d.span.unwrap().start, Pos { line: 2, column: 1 });
    // An impossible date is Python's ValueError (tests/heat/yaml-fallback-errors.json).
    let d = fatal("a: {b:[1]}\nd: 2016-13-01\n");
    assert_eq!(d.message, "month must be in 1..12");
    assert_eq!(d.span.unwrap().start, Pos { line: 2, column: 4 });
    // heatcap's own bounds hold in the second stage too.
    let mut deep = String::from("x: {a:[1]}\n");
    for i in 0..300 {
        deep.push_str(&" ".repeat(i));
        deep.push_str("k:\n");
    }
    assert_eq!(fatal(&deep).code, codes::TOO_DEEP);
}

#[test]
fn the_fallback_reads_a_large_file_quickly() {
    let mut text = String::from("heat_template_version: 2016-10-14\nresources:\n");
    for i in 0..8000 {
        let _ = writeln!(
            text,
            "  r{i}: {{type: OS::Heat::None, properties: {{a:[{i}, x]}}}}"
        );
    }
    assert!(text.len() > 400_000);
    let start = std::time::Instant::now();
    let p = parse(&text);
    assert!(p.root.is_some());
    assert!(
        start.elapsed() < std::time::Duration::from_secs(5),
        "{:?}",
        start.elapsed()
    );
}

mod files {
    use super::*;
    use crate::walk::Source;

    fn source(dir: &std::path::Path, name: &str, bytes: &[u8]) -> Source {
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        Source {
            display: name.to_owned(),
            path,
            explicit: false,
            jinja: name.contains(".j2."),
            entry: crate::walk::Entry::Unseen,
        }
    }

    #[test]
    fn size_limit_is_checked_in_characters() {
        let dir = tempfile::tempdir().unwrap();
        let opts = LoadOptions {
            max_size: 10,
            ..LoadOptions::default()
        };
        // 10 characters, 20 bytes: within Heat's limit.
        let ok = load_one(
            &source(dir.path(), "ok.yaml", "a: ééééééé".as_bytes()),
            &opts,
        );
        assert_eq!(ok.status, Status::Ok, "{:?}", ok.diagnostics);
        let big = load_one(&source(dir.path(), "big.yaml", b"a: 123456789"), &opts);
        assert_eq!(big.status, Status::Error);
        assert_eq!(big.diagnostics[0].code, codes::TOO_LARGE);
    }

    #[test]
    fn binary_and_invalid_utf8_are_diagnosed_with_position() {
        let dir = tempfile::tempdir().unwrap();
        let l = load_one(
            &source(dir.path(), "bin.yaml", b"a: 1\nb: \xff\xfe\n"),
            &LoadOptions::default(),
        );
        assert_eq!(l.status, Status::Error);
        assert_eq!(l.diagnostics[0].code, codes::NOT_UTF8);
        assert_eq!(
            l.diagnostics[0].span.unwrap().start,
            Pos { line: 2, column: 4 }
        );
    }

    #[test]
    fn unreadable_and_jinja_files() {
        let dir = tempfile::tempdir().unwrap();
        let mut missing = source(dir.path(), "gone.yaml", b"");
        missing.path = dir.path().join("does-not-exist.yaml");
        let l = load_one(&missing, &LoadOptions::default());
        assert_eq!(
            (l.status, l.diagnostics[0].code),
            (Status::Error, codes::NOT_FOUND)
        );
        let j = load_one(
            &source(dir.path(), "t.j2.yaml", b"{% for x in y %}"),
            &LoadOptions::default(),
        );
        assert_eq!(
            (j.status, j.diagnostics[0].code),
            (Status::Skipped, codes::JINJA_SKIPPED)
        );
    }

    #[test]
    fn prefilter_skips_files_without_the_word() {
        let dir = tempfile::tempdir().unwrap();
        let opts = LoadOptions {
            prefilter: vec!["capabilities"],
            ..LoadOptions::default()
        };
        let l = load_one(&source(dir.path(), "a.yaml", b"broken: [\n"), &opts);
        assert_eq!(l.status, Status::Skipped);
        assert!(l.diagnostics.is_empty());
        let l = load_one(
            &source(dir.path(), "b.yaml", b"capabilities: {a: 1}\n"),
            &opts,
        );
        assert_eq!(l.status, Status::Ok);
    }

    /// A file the walk found regular is opened without a `stat` first,
    /// non-blocking: a FIFO put at its path since is refused, not waited
    /// on, and a regular file there is read as usual.
    #[cfg(unix)]
    #[test]
    fn a_walked_file_replaced_by_a_fifo_is_refused_without_blocking() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("t.yaml");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if !made.is_ok_and(|s| s.success()) {
            return; // no mkfifo here (tests/hostile.rs needs it too)
        }
        let walked = |path: std::path::PathBuf| Source {
            display: "t.yaml".into(),
            path,
            explicit: false,
            jinja: false,
            entry: crate::walk::Entry::Plain,
        };
        let l = load_one(&walked(fifo), &LoadOptions::default());
        assert_eq!(
            l.diagnostics[0].code,
            codes::NOT_REGULAR,
            "{:?}",
            l.diagnostics
        );
        let file = source(dir.path(), "r.yaml", b"heat_template_version: 2018-08-31\n");
        let l = load_one(&walked(file.path), &LoadOptions::default());
        assert_eq!(l.kind, Some(FileKind::HotTemplate), "{:?}", l.diagnostics);
    }

    #[test]
    fn standard_input_is_read_from_the_bytes_given() {
        let stdin = Source {
            display: "<stdin>".into(),
            path: "-".into(),
            explicit: true,
            jinja: false,
            entry: crate::walk::Entry::Unseen,
        };
        let text: &'static [u8] = b"heat_template_version: 2018-08-31\nresources: {}\n";
        let opts = LoadOptions {
            stdin: Some(text),
            ..LoadOptions::default()
        };
        let l = load_one(&stdin, &opts);
        assert_eq!(l.status, Status::Ok, "{:?}", l.diagnostics);
        assert_eq!(l.kind, Some(FileKind::HotTemplate));
        assert_eq!(l.bytes, text.len() as u64);
        // Not given: a read error, never a read of the process's stdin.
        let l = load_one(&stdin, &LoadOptions::default());
        assert_eq!(l.diagnostics[0].code, codes::READ_ERROR);
        assert_eq!(l.diagnostics[0].file, "<stdin>");
        let small = LoadOptions {
            max_size: 2,
            ..opts
        };
        assert_eq!(
            load_one(&stdin, &small).diagnostics[0].code,
            codes::TOO_LARGE
        );
    }
}

/// The cache answers a file unchanged on disk without reading it, and
/// reads it again once it changed (size, time or inode).
#[test]
fn cache_sees_changes_on_disk() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.yaml");
    std::fs::write(&path, "heat_template_version: 2016-10-14\n").unwrap();
    let cache = LoadCache::default();
    let opts = LoadOptions {
        cache: Some(cache.clone()),
        ..LoadOptions::default()
    };
    let src = crate::walk::Source::new(path.clone(), "t.yaml".into(), true);
    let first = load_one(&src, &opts);
    assert_eq!(first.status, Status::Ok);
    assert_eq!(cache.len(), 1);
    // A hit: the same tree, and no second entry.
    let again = load_one(&src, &opts);
    assert_eq!(again.root, first.root);
    assert_eq!(cache.len(), 1);
    std::fs::write(
        &path,
        "heat_template_version: 2016-10-14\ndescription: changed\n",
    )
    .unwrap();
    let changed = load_one(&src, &opts);
    assert_ne!(changed.root, first.root);
    let text = format!("{:?}", changed.root);
    assert!(text.contains("changed"), "{text}");
}

#[test]
fn a_rendered_file_is_read_through_the_overlay_within_confinement_and_never_from_memory() {
    // The order of reads after the merge of `render` and `serve`: files
    // given in memory answer alone; otherwise a mounted (rendered) file is
    // read from the overlay, and confinement still applies to it by its
    // real path.
    let dir = tempfile::tempdir().unwrap();
    let real = std::fs::canonicalize(dir.path()).unwrap();
    std::fs::create_dir(real.join("served")).unwrap();
    std::fs::create_dir(real.join("other")).unwrap();
    let text = "heat_template_version: 2016-10-14\n";
    let mut overlay = crate::vfs::FileOverlay::new();
    overlay.mount(
        ["served/r.yaml", "other/r.yaml"].map(|p| {
            (
                real.join(p),
                crate::vfs::VirtualFile {
                    text: text.into(),
                    origin: Some(p.replace(".yaml", ".j2.yaml")),
                },
            )
        }),
        [],
    );
    let confined = LoadOptions {
        confine: Some(vec![real.join("served")].into()),
        overlay: overlay.clone(),
        ..LoadOptions::default()
    };
    // Rendering happens under confinement too (serve renders raw trees
    // inside its roots); never with files given in memory.
    assert!(confined.renders() && LoadOptions::default().renders());
    let inside = Source::new(real.join("served/r.yaml"), "served/r.yaml".into(), true);
    let loaded = load_one(&inside, &confined);
    assert_eq!(loaded.status, Status::Ok, "{:?}", loaded.diagnostics);
    let outside = Source::new(real.join("other/r.yaml"), "other/r.yaml".into(), true);
    let loaded = load_one(&outside, &confined);
    assert_eq!(loaded.status, Status::Error);
    assert_eq!(loaded.diagnostics[0].code, codes::READ_ERROR);
    let memory = LoadOptions {
        memory: Some(crate::walk::MemoryFiles::new([(
            "elsewhere.yaml".to_owned(),
            text.as_bytes().to_vec(),
        )])),
        overlay,
        ..LoadOptions::default()
    };
    assert!(!memory.renders());
    let loaded = load_one(&inside, &memory);
    assert_eq!(loaded.diagnostics[0].code, codes::NOT_FOUND);
}

#[test]
fn a_kept_rendering_is_reused_until_an_input_changes() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("roles_data.yaml");
    std::fs::write(&input, "- name: A\n").unwrap();
    let (cache, touched) = LoadCache::default().tracking();
    let key = (dir.path().to_path_buf(), "with".to_owned());
    let inputs = [dir.path().to_path_buf(), input.clone()];
    let renders = std::cell::Cell::new(0);
    let render = || {
        renders.set(renders.get() + 1);
        let mut part = crate::vfs::FileOverlay::new();
        part.insert(&dir.path().join("out.yaml"), "rendered")
            .unwrap();
        (part, Vec::new())
    };
    let (first, _) = cache.rendered(key.clone(), &inputs, render);
    let (again, _) = cache.rendered(key.clone(), &inputs, render);
    assert_eq!(renders.get(), 1);
    assert_eq!(first.len(), 1);
    assert_eq!(
        again.read(&dir.path().join("out.yaml")).unwrap(),
        b"rendered"
    );
    // Every input is noted, so an answer computed from it is dropped too.
    assert!(touched.len() >= 2 && touched.unchanged());
    std::fs::write(&input, "- name: A\n- name: B\n").unwrap();
    assert!(!touched.unchanged());
    cache.rendered(key, &inputs, render);
    assert_eq!(renders.get(), 2);
}

/// Reading files while the walk goes on lists and reads exactly what the
/// walk and then the loads do, in the same order, on 1 and 2 threads: a
/// file reached by a link and by its own name, overlapping roots (a file
/// found twice), a root named as a file, a file mounted in the overlay,
/// and more files than one batch.
#[cfg(unix)]
#[test]
fn walking_and_loading_at_once_is_walking_then_loading() {
    let dir = tempfile::tempdir().unwrap();
    let tree = dir.path().join("tree");
    std::fs::create_dir_all(tree.join("sub")).unwrap();
    for i in 0..=(3 * LOAD_BATCH) {
        std::fs::write(
            tree.join(format!("sub/t{i:02}.yaml")),
            format!("heat_template_version: 2016-04-08\nparameters: {{p{i}: {{type: string}}}}\n"),
        )
        .unwrap();
    }
    std::fs::write(tree.join("broken.yaml"), "a: [\n").unwrap();
    std::fs::write(tree.join("overcloud.yaml"), "resource_registry: {}\n").unwrap();
    std::os::unix::fs::symlink("overcloud.yaml", tree.join("overcloud-link.yaml")).unwrap();
    let mut opts = LoadOptions::default();
    opts.overlay
        .insert(
            &tree.join("sub/t03.yaml"),
            "heat_template_version: 2018-08-31\n",
        )
        .unwrap();
    opts.overlay
        .insert(
            &tree.join("sub/virtual.yaml"),
            "heat_template_version: 2018-08-31\n",
        )
        .unwrap();
    let walk = crate::walk::WalkOptions::new(vec![
        tree.join("broken.yaml"),
        tree.clone(),
        tree.join("sub"),
    ])
    .recursive();
    let record = |l: Loaded| {
        format!(
            "{} {:?} {:?} {:?} {:?}",
            l.source.display,
            l.status,
            l.kind,
            l.diagnostics,
            l.root.map(|r| r.value.to_json())
        )
    };
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let (walked, records) = pool.install(|| walk_and_load(&walk, &opts, false, record));
        let then = crate::walk::walk(&walk, &opts.overlay);
        assert_eq!(walked.sources, then.sources);
        assert_eq!(walked.diagnostics, then.diagnostics);
        assert_eq!(
            records,
            load_all(&then.sources, &opts, record),
            "{threads} threads"
        );
        assert_eq!(records.len(), 3 * LOAD_BATCH + 4, "{records:?}");
    }
}
