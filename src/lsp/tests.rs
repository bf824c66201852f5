//! The protocol in process (`Connection::memory`): what a client sees.

use std::time::Duration;

use lsp_server::{Connection, Message, Notification, Request, RequestId};
use serde_json::{json, Value as J};

use super::{serve, Settings};

struct Client {
    conn: Connection,
    next: i32,
    server: Option<std::thread::JoinHandle<Result<(), String>>>,
}

impl Client {
    fn start(settings: Settings, init: J) -> Client {
        let (server, client) = Connection::memory();
        let handle = std::thread::spawn(move || serve(&server, settings));
        let mut c = Client {
            conn: client,
            next: 1,
            server: Some(handle),
        };
        let r = c.request("initialize", init);
        assert!(r["capabilities"]["hoverProvider"].as_bool().unwrap(), "{r}");
        c.notify("initialized", json!({}));
        c
    }

    fn notify(&self, method: &str, params: J) {
        self.conn
            .sender
            .send(Message::Notification(Notification::new(
                method.to_owned(),
                params,
            )))
            .unwrap();
    }

    fn recv(&self) -> Message {
        self.conn
            .receiver
            .recv_timeout(Duration::from_mins(1))
            .unwrap()
    }

    /// The answer to a request (notifications before it are dropped).
    fn answer(&mut self, method: &str, params: J) -> Result<J, (i32, String)> {
        let id = RequestId::from(self.next);
        self.next += 1;
        self.conn
            .sender
            .send(Message::Request(Request::new(
                id.clone(),
                method.to_owned(),
                params,
            )))
            .unwrap();
        loop {
            if let Message::Response(r) = self.recv() {
                assert_eq!(r.id, id);
                return r.response_result.map_err(|e| (e.code, e.message));
            }
        }
    }

    fn request(&mut self, method: &str, params: J) -> J {
        self.answer(method, params).unwrap()
    }

    /// The next diagnostics published for `uri`.
    fn diagnostics(&self, uri: &str) -> Vec<J> {
        loop {
            if let Message::Notification(n) = self.recv() {
                if n.method == "textDocument/publishDiagnostics" && n.params["uri"] == uri {
                    return n.params["diagnostics"].as_array().unwrap().clone();
                }
            }
        }
    }

    fn stop(mut self) {
        self.request("shutdown", J::Null);
        self.notify("exit", J::Null);
        self.server.take().unwrap().join().unwrap().unwrap();
    }
}

const BROKEN: &str =
    "heat_template_version: 2016-10-14\nresources:\n  server:\n    type: OS::Nova::Sever\n";

#[test]
fn findings_follow_the_buffer_and_bad_input_is_answered() {
    let dir = tempfile::tempdir().unwrap();
    let path = std::fs::canonicalize(dir.path()).unwrap().join("t.yaml");
    std::fs::write(&path, "heat_template_version: 2016-10-14\n").unwrap();
    let uri = super::uri_of(&path);
    let mut c = Client::start(Settings::default(), json!({"capabilities": {}}));
    // The buffer, not the disk.
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": BROKEN}}),
    );
    let found = c.diagnostics(&uri);
    let e3008 = found.iter().find(|d| d["code"] == "E3008").unwrap();
    assert_eq!(e3008["range"]["start"], json!({"line": 3, "character": 10}));
    assert!(e3008["message"]
        .as_str()
        .unwrap()
        .contains("did you mean `OS::Nova::Server`"));
    // The quick fixes: the suggestion, and a suppression.
    let actions = c.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri}, "range": e3008["range"], "context": {"diagnostics": [e3008]}}),
    );
    assert_eq!(
        actions[0]["edit"]["changes"][&uri][0]["newText"],
        "OS::Nova::Server"
    );
    assert_eq!(
        actions[1]["edit"]["changes"][&uri][0]["newText"],
        "    # heatcap: ignore[E3008]\n"
    );
    // A half-typed buffer: findings, and answers, not a crash.
    let half = "heat_template_version: 2016-10-14\nresources:\n  server:\n    type: OS::Nova::Server\n    properties:\n      fla\n  x: [\n";
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": half}]}),
    );
    assert!(c.diagnostics(&uri).iter().any(|d| d["severity"] == 1));
    let items = c.request(
        "textDocument/completion",
        json!({"textDocument": {"uri": uri}, "position": {"line": 5, "character": 9}}),
    );
    let labels: Vec<&str> = items["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["label"].as_str().unwrap())
        .collect();
    assert!(labels.contains(&"flavor"), "{labels:?}");
    assert_eq!(
        c.request(
            "textDocument/hover",
            json!({"textDocument": {"uri": uri}, "position": {"line": 99, "character": 99}})
        ),
        J::Null
    );
    // Bad parameters and unknown methods are answered as the protocol says.
    assert_eq!(
        c.answer("textDocument/hover", json!({"nonsense": 1}))
            .unwrap_err()
            .0,
        -32602
    );
    assert_eq!(c.answer("heatcap/none", J::Null).unwrap_err().0, -32601);
    // Fixed: cleared.
    let fixed =
        "heat_template_version: 2016-10-14\nresources:\n  server:\n    type: OS::Heat::None\n";
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 3}, "contentChanges": [{"text": fixed}]}),
    );
    assert_eq!(c.diagnostics(&uri), Vec::<J>::new());
    let symbols = c.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": uri}}),
    );
    assert_eq!(symbols[1]["children"][0]["name"], "server");
    assert_eq!(symbols[1]["children"][0]["detail"], "OS::Heat::None");
    c.notify(
        "textDocument/didClose",
        json!({"textDocument": {"uri": uri}}),
    );
    assert_eq!(c.diagnostics(&uri), Vec::<J>::new());
    c.stop();
}

/// A buffer in a raw TripleO tree beside hostile Jinja sources (loops
/// that multiply, loops that write 81 million lines): the tree is
/// rendered within the same bounds as for every command, so the buffer's
/// findings come in seconds.
#[test]
fn hostile_jinja_beside_a_buffer_is_bounded() {
    let dir = tempfile::tempdir().unwrap();
    let root = std::fs::canonicalize(dir.path()).unwrap();
    for (name, text) in [
        ("roles_data.yaml", "- name: Controller\n"),
        (
            "network-data-samples/default-network-isolation.yaml",
            "- name: InternalApi\n",
        ),
        (
            "loops.j2.yaml",
            "{% for a in range(100) %}{% for b in range(10000) %}{% for c in range(10000) %}{% endfor %}{% endfor %}{% endfor %}",
        ),
        (
            "lines.j2.yaml",
            "{% for a in range(9000) %}{% for b in range(9000) %}\n  r{{a}}_{{b}}: {type: OS::Heat::None}{% endfor %}{% endfor %}",
        ),
        ("t.yaml", BROKEN),
    ] {
        let path = root.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    let uri = super::uri_of(&root.join("t.yaml"));
    let c = Client::start(Settings::default(), json!({"capabilities": {}}));
    let started = std::time::Instant::now();
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": BROKEN}}),
    );
    let found = c.diagnostics(&uri);
    let took = started.elapsed();
    assert!(took < Duration::from_secs(10), "{took:?}");
    assert!(found.iter().any(|d| d["code"] == "E3008"), "{found:?}");
    c.stop();
}

#[test]
fn utf8_is_used_when_offered() {
    let dir = tempfile::tempdir().unwrap();
    let path = std::fs::canonicalize(dir.path()).unwrap().join("u.yaml");
    let uri = super::uri_of(&path);
    let mut c = Client::start(
        Settings::default(),
        json!({"capabilities": {"general": {"positionEncodings": ["utf-8", "utf-16"]}}}),
    );
    let text = "heat_template_version: 2016-10-14\ndescription: é\nresources:\n  é: {type: OS::Nova::Sever}\n";
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": text}}),
    );
    let found = c.diagnostics(&uri);
    let d = found.iter().find(|d| d["code"] == "E3008").unwrap();
    // `  é: {type: ` is 12 characters, 13 bytes.
    assert_eq!(d["range"]["start"], json!({"line": 3, "character": 13}));
    let _ = c.request("shutdown", J::Null);
    c.notify("exit", J::Null);
}

/// A small composition in a temporary directory: `root.yaml` gives
/// `My::App` (`app.yaml`, by `env.yaml`) the properties `flavor` and `size`.
fn composition() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let base = std::fs::canonicalize(dir.path()).unwrap();
    for f in ["root.yaml", "app.yaml", "env.yaml"] {
        let from = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/lsp/compose")
            .join(f);
        std::fs::copy(from, base.join(f)).unwrap();
    }
    (dir, base)
}

/// `app.yaml` without the parameters named.
fn without(text: &str, names: &[&str]) -> String {
    let mut out = String::new();
    let mut skip = false;
    for l in text.lines() {
        if l.starts_with("  ") && !l.starts_with("   ") {
            skip = names.iter().any(|n| l == format!("  {n}:"));
        } else if !l.starts_with(' ') {
            skip = false;
        }
        if !skip {
            out.push_str(l);
            out.push('\n');
        }
    }
    out
}

#[test]
fn the_composition_is_checked_when_typing_pauses() {
    let (_dir, base) = composition();
    let settings = Settings::new(
        vec![base.join("env.yaml")],
        Some(base.join("root.yaml")),
        crate::validate::Selection::default(),
    );
    let c = Client::start(
        settings,
        json!({"capabilities": {}, "initializationOptions": {"compositionPause": 1000}}),
    );
    let app = super::uri_of(&base.join("app.yaml"));
    let root = super::uri_of(&base.join("root.yaml"));
    let text = std::fs::read_to_string(base.join("app.yaml")).unwrap();
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": app, "languageId": "yaml", "version": 1, "text": text}}),
    );
    assert_eq!(c.diagnostics(&app), Vec::<J>::new());
    // Two quick changes, unsaved: one check, after the second.
    for (version, names) in [(2, vec!["size"]), (3, vec!["size", "flavor"])] {
        c.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": app, "version": version}, "contentChanges": [{"text": without(&text, &names)}]}),
        );
    }
    let found = c.diagnostics(&root);
    let e7007: Vec<&str> = found
        .iter()
        .filter(|d| d["code"] == "E7007")
        .map(|d| d["message"].as_str().unwrap())
        .collect();
    assert_eq!(e7007.len(), 2, "{found:?}");
    assert!(e7007.iter().any(|m| m.contains("`flavor`")), "{e7007:?}");
    // Fixed, unsaved: cleared.
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": app, "version": 4}, "contentChanges": [{"text": text}]}),
    );
    assert_eq!(c.diagnostics(&root), Vec::<J>::new());
    // On save only: a change is not checked.
    c.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"heatcap": {"compositionPause": false}}}),
    );
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": app, "version": 5}, "contentChanges": [{"text": without(&text, &["size"])}]}),
    );
    // Its own finding (`get_param` of the removed parameter), at once.
    assert_eq!(c.diagnostics(&app)[0]["code"], "E2002");
    std::thread::sleep(Duration::from_millis(900));
    while let Ok(m) = c.conn.receiver.try_recv() {
        if let Message::Notification(n) = m {
            assert_ne!(n.params["uri"], root, "{n:?}");
        }
    }
    c.notify(
        "textDocument/didSave",
        json!({"textDocument": {"uri": app}}),
    );
    assert_eq!(c.diagnostics(&root).len(), 1);
    c.stop();
}

/// Issue 29: in a tree rendered on disk with other data than the script's
/// defaults, the editor's file is checked as on disk and W0026 is among
/// the findings of the file it names (the first that differs from
/// heatcap's render).
#[test]
fn a_tree_rendered_on_disk_is_checked_from_its_files_there() {
    let dir = tempfile::tempdir().unwrap();
    let root = std::fs::canonicalize(dir.path()).unwrap().join("tree");
    let from =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/jinja/rendered-other");
    for f in [
        "roles_data.yaml",
        "network_data_other.yaml",
        "network-data-samples/default-network-isolation.yaml",
        "overcloud.j2.yaml",
        "overcloud.yaml",
        "environments/network-isolation.j2.yaml",
        "environments/network-isolation.yaml",
        "network/port.yaml",
        "overcloud-resource-registry.yaml",
    ] {
        let to = root.join(f);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(from.join(f), to).unwrap();
    }
    let path = root.join("environments/network-isolation.yaml");
    let uri = super::uri_of(&path);
    let text = std::fs::read_to_string(&path).unwrap();
    let c = Client::start(Settings::default(), json!({"capabilities": {}}));
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": text}}),
    );
    let found = c.diagnostics(&uri);
    let w = found
        .iter()
        .find(|d| d["code"] == "W0026")
        .unwrap_or_else(|| panic!("{found:?}"));
    assert_eq!(w["range"]["start"]["line"], 2);
    assert!(w["message"]
        .as_str()
        .unwrap()
        .contains("default-network-isolation.yaml"));
    c.stop();
}
