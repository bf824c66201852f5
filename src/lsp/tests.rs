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
