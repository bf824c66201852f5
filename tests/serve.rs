//! `heatcap serve`, run as a process and spoken to over a socket (plain
//! HTTP/1.1 written here, so that nothing between the test and the server
//! smooths over what a client really sends): Heat's API answers what the
//! CLI answers (and so Heat's recorded documents, tests/heat_oracle.rs),
//! heatcap's own routes answer the commands' JSON, and the limits hold:
//! traversal, oversized bodies, a slow client, a request during shutdown.

use std::fmt::Write as _;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value as J;

mod common;
use common::stdout as cli;
use common::{client_body, corpus_2016_deployment, linked_tree, Linked};

/// A running `heatcap serve` on a free port; killed when dropped.
struct Server {
    child: Child,
    addr: String,
    stderr: BufReader<std::process::ChildStderr>,
}

impl Server {
    fn start(args: &[&str]) -> Server {
        Server::start_with(args, &[])
    }

    /// A server with these environment variables set.
    fn start_with(args: &[&str], vars: &[(&str, &str)]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_heatcap"))
            .args(["serve", "--listen", "127.0.0.1:0"])
            .args(args)
            .envs(vars.iter().copied())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stderr = BufReader::new(child.stderr.take().unwrap());
        let mut line = String::new();
        stderr.read_line(&mut line).unwrap();
        let addr = line
            .split("http://")
            .nth(1)
            .and_then(|s| s.split_whitespace().next())
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .to_owned();
        Server {
            child,
            addr,
            stderr,
        }
    }

    fn connect(&self) -> TcpStream {
        let s = TcpStream::connect(&self.addr).unwrap();
        s.set_read_timeout(Some(Duration::from_mins(1))).unwrap();
        s
    }

    fn request(&self, method: &str, path: &str, headers: &[(&str, &str)], body: &[u8]) -> Answer {
        let mut s = self.connect();
        s.write_all(&raw(method, path, headers, body)).unwrap();
        read_answer(&mut s)
    }

    fn get(&self, path: &str) -> Answer {
        self.request("GET", path, &[], b"")
    }

    fn post_json(&self, path: &str, body: &[u8]) -> Answer {
        self.request("POST", path, &[("Content-Type", "application/json")], body)
    }

    fn signal(&self, name: &str) {
        let ok = Command::new("kill")
            .args([&format!("-{name}"), &self.child.id().to_string()])
            .status()
            .unwrap()
            .success();
        assert!(ok);
    }

    /// Waits for the process to exit (at most 20 s): its exit code.
    fn wait(&mut self) -> i32 {
        let until = Instant::now() + Duration::from_secs(20);
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status.code().unwrap_or(-1);
            }
            assert!(Instant::now() < until, "still running");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn rest_of_stderr(&mut self) -> String {
        let mut s = String::new();
        let _ = self.stderr.read_to_string(&mut s);
        s
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn raw(method: &str, path: &str, headers: &[(&str, &str)], body: &[u8]) -> Vec<u8> {
    let mut r = format!("{method} {path} HTTP/1.1\r\nHost: test\r\nConnection: close\r\n");
    for (k, v) in headers {
        let _ = write!(r, "{k}: {v}\r\n");
    }
    if !body.is_empty() || method == "POST" {
        let _ = write!(r, "Content-Length: {}\r\n", body.len());
    }
    r.push_str("\r\n");
    let mut bytes = r.into_bytes();
    bytes.extend_from_slice(body);
    bytes
}

#[derive(Debug)]
struct Answer {
    status: u16,
    headers: Vec<(String, String)>,
    body: String,
}

impl Answer {
    fn json(&self) -> J {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {self:?}"))
    }

    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// A Heat fault document of this status and type.
    fn fault(&self, status: u16, kind: &str) {
        assert_eq!(self.status, status, "{self:?}");
        assert_eq!(self.header("content-type"), Some("application/json"));
        let f = self.json();
        assert_eq!(f["code"], status, "{f}");
        assert_eq!(f["error"]["type"], kind, "{f}");
        assert!(f["title"].is_string() && f["explanation"].is_string());
    }
}

fn read_answer(s: &mut TcpStream) -> Answer {
    let mut bytes = Vec::new();
    s.read_to_end(&mut bytes).unwrap();
    let text = String::from_utf8(bytes).unwrap();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|c| c.parse().ok())
        .unwrap_or_else(|| panic!("no status line: {text:?}"));
    let headers = lines
        .filter_map(|l| l.split_once(": "))
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect();
    Answer {
        status,
        headers,
        body: body.to_owned(),
    }
}

fn enc(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'/' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// The client's body posted to `/validate?show_nested=True` answers
/// exactly the CLI's `parameters --format heat` (which tests/heat_oracle.rs
/// compares with Heat's recorded document): every fixture deployment
/// python-heatclient can upload, and the 2016 TripleO deployment.
#[test]
fn validate_answers_what_the_cli_answers() {
    let server = Server::start(&["--max-nested-depth", "7"]);
    let mut cases: Vec<(PathBuf, Vec<PathBuf>)> = Vec::new();
    let mut dirs: Vec<PathBuf> = std::fs::read_dir("fixtures/heat")
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    for d in dirs {
        let env = d.join("env.yaml");
        cases.push((
            d.join("root.yaml"),
            if env.exists() { vec![env] } else { vec![] },
        ));
    }
    cases.push(common::corpus_2016_deployment());
    let mut compared = Vec::new();
    for (root, envs) in &cases {
        let body = common::client_body(root, envs);
        if body.trim().is_empty() {
            // export refuses what the client could not upload either
            // (a cycle between files, a missing template).
            continue;
        }
        let expected = common::heat_document(root, envs);
        let answer = server.post_json("/v1/demo/validate?show_nested=True", body.as_bytes());
        if let Some(message) = expected.get("Error").and_then(J::as_str) {
            assert_eq!(answer.status, 400, "{}: {answer:?}", root.display());
            assert_eq!(
                answer.json()["error"]["message"],
                message,
                "{}",
                root.display()
            );
        } else {
            assert_eq!(answer.status, 200, "{}: {}", root.display(), answer.body);
            assert_eq!(answer.json(), expected, "{}", root.display());
        }
        compared.push(root.display().to_string());
    }
    // export refuses the cycle, the too-deep nesting and the unknown
    // property (the client cannot upload them as a composition either).
    assert!(compared.len() >= 9, "only {compared:?}");
    assert!(compared
        .iter()
        .any(|c| c.contains("tripleo-heat-templates-2016")));
    assert!(compared.iter().any(|c| c.contains("invalid-version")));
    // Without show_nested, no NestedParameters (as Heat).
    let (root, envs) = &cases.last().unwrap();
    let flat = server.post_json(
        "/v1/demo/validate",
        common::client_body(root, envs).as_bytes(),
    );
    assert_eq!(flat.status, 200);
    assert!(flat.json().get("NestedParameters").is_none());
    assert!(common::heat_document(root, envs)
        .get("NestedParameters")
        .is_some());
}

/// heatcap's own composing routes take a body as Heat's validate does
/// (the client's body for the 2016 TripleO deployment, every file keyed by
/// its absolute `file://` URL) and answer from it alone, with no root
/// served: `parameters?format=heat` is Heat's document (the CLI's on the
/// tree, so Heat's recording, tests/heat_oracle.rs), `heat-resource-tree`
/// the CLI's flattening of it, and `resolve` the registry's picks.
#[test]
fn own_routes_answer_a_request_body() {
    let server = Server::start(&["--max-nested-depth", "7"]);
    let (root, envs) = common::corpus_2016_deployment();
    let body = common::client_body(&root, &envs);
    let heat = server.post_json("/heatcap/v1/parameters?format=heat", body.as_bytes());
    assert_eq!(heat.status, 200, "{}", heat.body);
    assert_eq!(heat.json(), common::heat_document(&root, &envs));
    let tree = server.post_json(
        "/heatcap/v1/parameters?format=heat-resource-tree",
        body.as_bytes(),
    );
    assert_eq!(tree.status, 200, "{}", tree.body);
    let options = [
        "--format",
        "heat-resource-tree",
        "-q",
        "--max-nested-depth",
        "7",
    ];
    let args = common::deployment_args("parameters", &root, &envs, &options);
    assert_eq!(tree.json(), common::json(&args));
    let described = server.post_json("/heatcap/v1/parameters", body.as_bytes());
    assert_eq!(described.status, 200);
    assert_eq!(described.json()["template"], "<template>");
    let resolved = server.post_json(
        "/heatcap/v1/resolve?type=OS::TripleO::Controller",
        body.as_bytes(),
    );
    assert_eq!(resolved.status, 200, "{}", resolved.body);
    let r = resolved.json();
    assert_eq!(r["resolved"], true, "{r}");
    assert_eq!(r["template"], "<template>");
    let picked = r["resolutions"][0]["implementation"]["template"]
        .as_str()
        .unwrap();
    assert!(picked.ends_with("puppet/controller.yaml"), "{picked}");
    // No body: Heat's 400; a GET still needs a served root.
    server
        .post_json("/heatcap/v1/parameters", b"")
        .fault(400, "HTTPBadRequest");
    server
        .get("/heatcap/v1/parameters?template=x.yaml")
        .fault(404, "NotFound");
    // Nothing is read from disk: a registry entry naming a file that
    // exists, but is not in `files`, is missing.
    let here = std::fs::canonicalize("fixtures/spec/puppet/controller.yaml").unwrap();
    let lone = serde_json::json!({
        "template": format!("heat_template_version: 2018-08-31\nresources:\n  c: {{type: 'file://{}'}}\n", here.display()),
    });
    let missing = server.post_json(
        "/heatcap/v1/parameters?format=heat",
        lone.to_string().as_bytes(),
    );
    assert!(missing.json().get("Error").is_some(), "{}", missing.body);
}

/// `serve --plan`: the plan's environments come first and its template is
/// the default root, so the answers are `parameters --plan`'s and
/// `resolve --plan`'s; a plan with an error is not served (exit 1, its
/// findings on stderr, as the commands print them).
#[test]
fn a_plan_is_served_as_the_commands_take_it() {
    let plan = "fixtures/plans/plan-environment.yaml";
    let s = Server::start(&["--plan", plan, "--root", "fixtures/plans"]);
    let heat = s.get("/heatcap/v1/parameters?format=heat");
    assert_eq!(heat.status, 200, "{}", heat.body);
    assert_eq!(
        heat.body,
        cli(&["parameters", "--plan", plan, "--format", "heat", "-q"])
    );
    assert_eq!(
        heat.json()["Environment"]["parameter_defaults"]["Shared"],
        "user"
    );
    // TripleO's flattened parameters: `environment_parameters` is the
    // plan's own `parameter_defaults`, as tripleo-common's
    // `validate_stack_and_flatten_parameters` answered them (none of the
    // environments', passwords or derived values).
    let tree = s.get("/heatcap/v1/parameters?format=heat-resource-tree");
    assert_eq!(tree.status, 200, "{}", tree.body);
    assert_eq!(
        tree.body,
        cli(&[
            "parameters",
            "--plan",
            plan,
            "--format",
            "heat-resource-tree",
            "-q"
        ])
    );
    assert_eq!(
        tree.json()["environment_parameters"],
        serde_json::json!({"AdminPassword": "chosen-by-user", "Tuning": {"b": 3}, "Shared": "user"})
    );
    let resolved = s.get("/heatcap/v1/resolve?all=true");
    assert_eq!(resolved.status, 200);
    assert_eq!(
        resolved.body,
        cli(&["resolve", "--plan", plan, "--all", "--format", "json", "-q"])
    );
    let out = Command::new(env!("CARGO_BIN_EXE_heatcap"))
        .args(["serve", "--listen", "127.0.0.1:0", "--plan"])
        .arg("fixtures/plans/plan-invalid.yaml")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("E9005") && err.contains("not serving it"),
        "{err}"
    );
    assert!(!err.contains("listening"), "{err}");
}

/// `?plan=` (a plan in a root) answers what the commands answer with
/// `--plan`: its environments first, then the request's, its template
/// unless `template` is given; `catalogue` enables the plan's environments
/// as `catalogue --plan` does (so does `serve --plan`); a plan
/// tripleo-common could not deploy is a 400 naming its error; a plan
/// outside the root a 403.
#[test]
fn a_plan_per_request_is_the_commands_plan() {
    let plan = "fixtures/plans/plan-environment.yaml";
    let s = Server::start(&["--root", "fixtures/plans"]);
    let cases: [(&str, Vec<&str>); 7] = [
        (
            "/heatcap/v1/parameters?plan=plan-environment.yaml&format=heat",
            vec!["parameters", "--plan", plan, "--format", "heat"],
        ),
        (
            "/heatcap/v1/parameters?plan=plan-environment.yaml&environment=extra.yaml",
            vec![
                "parameters",
                "--plan",
                plan,
                "-e",
                "fixtures/plans/extra.yaml",
                "--format",
                "json",
            ],
        ),
        (
            "/heatcap/v1/parameters?plan=plan-environment.yaml&template=nic/bond.yaml",
            vec![
                "parameters",
                "--plan",
                plan,
                "-t",
                "fixtures/plans/nic/bond.yaml",
                "--format",
                "json",
            ],
        ),
        (
            "/heatcap/v1/resolve?plan=plan-environment.yaml&all=true",
            vec!["resolve", "--plan", plan, "--all", "--format", "json"],
        ),
        (
            "/heatcap/v1/options?plan=plan-environment.yaml&templates=choices",
            vec![
                "options",
                "--plan",
                plan,
                "--templates",
                "fixtures/plans/choices",
                "--format",
                "json",
            ],
        ),
        (
            "/heatcap/v1/export?plan=plan-environment.yaml",
            vec!["export", "--plan", plan, "--format", "heat-api"],
        ),
        (
            "/heatcap/v1/catalogue?plan=plan-environment.yaml&environment=environments/custom.yaml",
            vec![
                "catalogue",
                "fixtures/plans",
                "--plan",
                plan,
                "-e",
                "fixtures/plans/environments/custom.yaml",
                "--format",
                "json",
            ],
        ),
    ];
    for (path, args) in &cases {
        let a = s.get(path);
        assert_eq!(a.status, 200, "{path}: {a:?}");
        assert_eq!(a.body, cli(args), "{path}");
    }
    // The plan's values are in the answer (its parameter_defaults part).
    let heat = s.get(cases[0].0).json();
    assert_eq!(heat["Environment"]["parameter_defaults"]["Shared"], "user");
    // The catalogue enables the plan's file environments, in its order.
    let cat = s.get(cases[6].0).json();
    assert_eq!(
        cat["enabled"],
        serde_json::json!([
            "fixtures/plans/overcloud-resource-registry.yaml",
            "fixtures/plans/environments/net-v4.yaml",
            "fixtures/plans/environments/bond.yaml",
            "fixtures/plans/environments/custom.yaml"
        ])
    );
    // A plan with an error, a plan outside the root.
    let bad = s.get("/heatcap/v1/parameters?plan=plan-bad-order.yaml");
    bad.fault(400, "HTTPBadRequest");
    assert!(bad.body.contains("E9003"), "{}", bad.body);
    s.get("/heatcap/v1/parameters?plan=../plans/plan-environment.yaml")
        .fault(403, "Forbidden");
    s.get("/heatcap/v1/options?plan=no-such-plan.yaml")
        .fault(404, "NotFound");
    // Without a plan, `template` is required as before.
    s.get("/heatcap/v1/parameters").fault(400, "HTTPBadRequest");

    // `serve --plan`: the catalogue enables the plan's environments too.
    let served = Server::start(&["--plan", plan, "--root", "fixtures/plans"]);
    let a = served.get("/heatcap/v1/catalogue?environment=environments/custom.yaml");
    assert_eq!(a.status, 200, "{a:?}");
    assert_eq!(a.body, s.get(cases[6].0).body);
}

/// `plans` lists the plan environments of a root (the files with
/// tripleo-common's plan shape) as `--plan` reads them: template,
/// environments in order, findings (a plan with an error is listed with
/// it).
#[test]
fn the_plans_of_a_root() {
    let s = Server::start(&["--root", "fixtures/plans"]);
    let listed = s.get("/heatcap/v1/plans").json();
    let plans = listed["plans"].as_array().unwrap();
    // Only the plans: not the environments, templates or the map.
    let paths: Vec<&str> = plans.iter().map(|p| p["path"].as_str().unwrap()).collect();
    assert_eq!(
        paths,
        [
            "fixtures/plans/plan-bad-order.yaml",
            "fixtures/plans/plan-environment.yaml",
            "fixtures/plans/plan-invalid.yaml"
        ]
    );
    let good = &plans[1];
    assert_eq!(good["name"], "overcloud");
    assert_eq!(good["template"], "fixtures/plans/overcloud.yaml");
    let envs: Vec<(&str, bool)> = good["environments"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["path"].as_str().unwrap(), e["file"].as_bool().unwrap()))
        .collect();
    assert_eq!(
        envs,
        [
            ("fixtures/plans/overcloud-resource-registry.yaml", true),
            ("fixtures/plans/environments/net-v4.yaml", true),
            ("fixtures/plans/environments/bond.yaml", true),
            (
                "fixtures/plans/plan-environment.yaml#environments[0]",
                false
            ),
            (
                "fixtures/plans/plan-environment.yaml#parameter_defaults",
                false
            ),
            (
                "fixtures/plans/plan-environment.yaml#resource_registry",
                false
            ),
        ]
    );
    assert_eq!(good["diagnostics"], serde_json::json!([]));
    let codes = |p: &J| -> Vec<String> {
        p["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["code"].as_str().unwrap().to_owned())
            .collect()
    };
    assert!(codes(&plans[0]).contains(&"E9003".to_owned()));
    assert!(codes(&plans[2]).contains(&"E9005".to_owned()));
    // The root named: the same; a root that does not exist: 404.
    assert_eq!(s.get("/heatcap/v1/plans?root=plans").json(), listed);
    s.get("/heatcap/v1/plans?root=nope").fault(404, "NotFound");
}

/// heat-api.md §1.2, §1.3, §2.4: the versions document, Heat's body rules,
/// faults with Heat's types and codes.
#[test]
fn heat_transport_rules() {
    let s = Server::start(&[]);
    for path in ["/", "/versions", "/v1", "/v1/demo"] {
        let a = s.get(path);
        assert_eq!(a.status, 300, "{path}");
        assert_eq!(a.json()["versions"][0]["id"], "v1.0");
    }
    let a = s.get("/v1/demo/validate");
    a.fault(405, "HTTPMethodNotAllowed");
    assert_eq!(a.header("allow"), Some("POST"));
    s.get("/v1/demo/nothing-here").fault(404, "NotFound");
    // Not parsed: a form content type; a body not starting with `{`.
    let form = s.request(
        "POST",
        "/v1/demo/validate",
        &[("Content-Type", "application/x-www-form-urlencoded")],
        br#"{"template": {}}"#,
    );
    form.fault(400, "HTTPBadRequest");
    // Plain text is parsed (bug 1887882).
    let plain = s.request(
        "POST",
        "/v1/demo/validate",
        &[("Content-Type", "text/plain")],
        br#"{"template": {"heat_template_version": "2016-10-14"}}"#,
    );
    assert_eq!(plain.status, 200, "{plain:?}");
    s.post_json("/v1/demo/validate", b"{not json")
        .fault(400, "HTTPBadRequest");
    s.post_json("/v1/demo/validate", b"{}")
        .fault(400, "HTTPBadRequest");
    assert_eq!(
        s.post_json("/v1/demo/validate", b"{}").json()["error"]["message"],
        "No template specified"
    );
    // tests/heat/invalid-version.json: Heat's InvalidTemplateVersion.
    let v = s.post_json(
        "/v1/demo/validate",
        br#"{"template": {"heat_template_version": "2099-01-01"}}"#,
    );
    v.fault(400, "InvalidTemplateVersion");
    let recorded: J =
        serde_json::from_str(&std::fs::read_to_string("tests/heat/invalid-version.json").unwrap())
            .unwrap();
    assert!(recorded["Error"]
        .as_str()
        .unwrap()
        .ends_with(v.json()["error"]["message"].as_str().unwrap()));
    // Booleans: true/false in any case, else ValueError without message.
    let b = s.post_json(
        "/v1/demo/validate?show_nested=yes",
        br#"{"template": {"heat_template_version": "2016-10-14"}}"#,
    );
    b.fault(400, "ValueError");
    assert!(b.json()["error"].get("message").is_none());
    s.get("/v1/demo/resource_types?with_description=yes")
        .fault(400, "ValueError");
    s.get("/v1/demo/template_versions/2016-10-14/functions")
        .fault(404, "NotFound");
    s.get("/v1/demo/resource_types/No::Such::Type")
        .fault(404, "EntityNotFound");
    s.get("/v1/demo/resource_types?support_status=NOPE")
        .fault(400, "Invalid");
    s.get("/v1/demo/resource_types/OS::Heat::RandomString/template?template_type=x")
        .fault(400, "HTTPBadRequest");
    // OPTIONS: 204 with the route's methods in `Allow`; another method
    // is a 405 fault (heat/api/openstack/v1/__init__.py `connect`).
    let options = s.request("OPTIONS", "/v1/demo/validate", &[], b"");
    assert_eq!(options.status, 204, "{options:?}");
    assert_eq!(options.header("allow"), Some("POST"));
    assert!(options.body.is_empty());
    let options = s.request("OPTIONS", "/v1/demo/resource_types", &[], b"");
    assert_eq!(
        (options.status, options.header("allow")),
        (204, Some("GET"))
    );
    s.request("PUT", "/v1/demo/validate", &[], b"")
        .fault(405, "HTTPMethodNotAllowed");
    // ignore_errors: only Heat's ERROR_CODE_MAP codes (99001) are taken
    // (heat/engine/service.py validate_template).
    let minimal = br#"{"template": {"heat_template_version": "2016-10-14"}}"#;
    assert_eq!(
        s.post_json("/v1/demo/validate?ignore_errors=99001", minimal)
            .status,
        200
    );
    let bad = s.post_json("/v1/demo/validate?ignore_errors=99001,E7001", minimal);
    bad.fault(400, "HTTPBadRequest");
    assert_eq!(
        bad.json()["error"]["message"],
        "Invalid codes in ignore_errors : ['E7001']"
    );
}

/// Each method on Heat's routes is answered as Heat 27 answers it
/// (tests/heat/methods.json, recorded from Heat's own WSGI pipeline by
/// tools/heat-oracle/methods.py): HEAD on a GET route is Heat's 405 (its
/// router takes only the methods a route names), OPTIONS is 204 with
/// `Allow`, `/` and `/versions` answer the versions document to any
/// method. Where heatcap differs on purpose: `/v1` and `/v1/{tenant}` are
/// the versions document (openstacksdk's discovery needs it), an unrouted
/// path is a JSON fault (Heat's is webob's bare text), and a 405 keeps
/// `Allow` (HTTP requires it; Heat's fault middleware drops it), the
/// route's own list as OPTIONS gives it.
#[test]
fn each_method_as_heat_answers_it() {
    let recorded: J =
        serde_json::from_str(&std::fs::read_to_string("tests/heat/methods.json").unwrap()).unwrap();
    let cases = recorded["cases"].as_array().unwrap();
    let allow_of = |path: &str| {
        cases
            .iter()
            .find(|c| c["path"] == path && c["method"] == "OPTIONS" && c["status"] == 204)
            .map(|c| c["headers"]["Allow"].as_str().unwrap().to_owned())
    };
    let s = Server::start(&[]);
    let mut checked = 0;
    for case in cases {
        let (method, path) = (
            case["method"].as_str().unwrap(),
            case["path"].as_str().unwrap(),
        );
        let a = s.request(method, path, &[], b"");
        let what = format!("{method} {path}: {a:?}");
        let heat_status = case["status"].as_u64().unwrap();
        if matches!(path, "/v1" | "/v1/demo") {
            assert_eq!(a.status, 300, "{what}");
            assert_eq!(heat_status, 404, "{what}");
            continue;
        }
        assert_eq!(u64::from(a.status), heat_status, "{what}");
        if heat_status == 404 {
            assert_eq!(a.header("content-type"), Some("application/json"), "{what}");
            continue;
        }
        assert_eq!(
            a.header("content-type"),
            case["headers"]["Content-Type"].as_str(),
            "{what}"
        );
        match heat_status {
            204 => assert_eq!(
                a.header("allow"),
                case["headers"]["Allow"].as_str(),
                "{what}"
            ),
            405 => assert_eq!(a.header("allow"), allow_of(path).as_deref(), "{what}"),
            _ => {}
        }
        if case["body_sent"] == true {
            assert!(!a.body.is_empty(), "{what}");
            if let Some(kind) = case["fault"].as_str() {
                assert_eq!(a.json()["error"]["type"], kind, "{what}");
            }
        } else {
            assert!(a.body.is_empty(), "{what}");
            // HEAD: the headers the body would have had.
            if method == "HEAD" && case["fault"].is_string() {
                let length: usize = a.header("content-length").unwrap().parse().unwrap();
                assert!(length > 0, "{what}");
            }
        }
        checked += 1;
    }
    assert!(checked >= 30, "{checked}");
}

/// heatcap's own routes and the page take HEAD wherever they take GET (the
/// GET's status and headers, no body, as HTTP has it), and OPTIONS is
/// answered as Heat answers it on its routes: 204 with the methods the
/// route takes, no body.
#[test]
fn own_routes_take_head_and_options() {
    let s = Server::start(&["--root", "fixtures/spec"]);
    for path in [
        "/heatcap/v1/options?environment=environment.yaml",
        "/heatcap/v1/roots",
        "/heatcap/v1/parameters",
        "/heatcap/v1/openapi.json",
        "/heatcap/page/",
        "/heatcap/v1/nothing-here",
    ] {
        let get = s.get(path);
        let head = s.request("HEAD", path, &[], b"");
        assert_eq!(head.status, get.status, "{path}");
        assert!(head.body.is_empty(), "{path}: {head:?}");
        for h in ["content-type", "content-length"] {
            assert_eq!(head.header(h), get.header(h), "{path}: {h}");
        }
    }
    // The question's own answer: a 400 for a missing template, alike.
    assert_eq!(s.get("/heatcap/v1/parameters").status, 400);
    for (path, allow) in [
        ("/heatcap/v1/options", "GET,HEAD"),
        ("/heatcap/v1/parameters", "GET,HEAD,POST"),
        ("/heatcap/v1/check", "POST"),
        ("/heatcap/v1/preview", "GET,HEAD"),
        ("/heatcap/v1/diff", "GET,HEAD,POST"),
        ("/heatcap/page/app.js", "GET,HEAD"),
    ] {
        let o = s.request("OPTIONS", path, &[], b"");
        assert_eq!((o.status, o.header("allow")), (204, Some(allow)), "{path}");
        assert!(o.body.is_empty(), "{path}");
        let put = s.request("PUT", path, &[], b"");
        put.fault(405, "HTTPMethodNotAllowed");
        assert_eq!(put.header("allow"), Some(allow), "{path}");
    }
    s.request("OPTIONS", "/heatcap/v1/nothing-here", &[], b"")
        .fault(404, "NotFound");
}

/// The resource-type routes answer `resource-type ... --format heat`.
/// `/` is Heat's versions document for every client but a browser, which
/// gets the composition page (issue 19; tests/page/ drives it in
/// Chromium); the page's files carry a policy that runs only the
/// service's own scripts, and `/heatcap/v1/check` gives Heat's words.
#[test]
fn the_page_only_for_browsers() {
    let tht = "fixtures/tripleo-heat-templates-2016";
    let s = Server::start(&["--root", "fixtures/spec", "--root", tht]);
    for accept in [None, Some("application/json"), Some("*/*")] {
        let headers: Vec<(&str, &str)> = accept.iter().map(|a| ("Accept", *a)).collect();
        let a = s.request("GET", "/", &headers, b"");
        assert_eq!(a.status, 300, "{accept:?}");
        assert_eq!(a.json()["versions"][0]["id"], "v1.0");
    }
    let html = s.request(
        "GET",
        "/",
        &[("Accept", "text/html,application/xhtml+xml,*/*;q=0.8")],
        b"",
    );
    assert_eq!(html.status, 200);
    assert_eq!(
        html.header("content-type"),
        Some("text/html; charset=utf-8")
    );
    assert!(html
        .header("content-security-policy")
        .is_some_and(|p| p.starts_with("default-src 'self'")));
    assert!(html
        .body
        .contains("<script type=\"module\" src=\"/heatcap/page/app.js\">"));
    assert_eq!(s.get("/heatcap/page/").body, html.body);
    let js = s.get("/heatcap/page/app.js");
    assert_eq!(js.status, 200);
    assert_eq!(
        js.header("content-type"),
        Some("text/javascript; charset=utf-8")
    );
    s.get("/heatcap/page/missing.js").fault(404, "NotFound");
    // tests/heat/env-value-verdicts.json: Heat refuses 20 for a number
    // with range 1..10 as "20 is out of range (min: 1, max: 10)".
    let a = s.post_json(
        "/heatcap/v1/check",
        br#"{"values": [{"name": "count", "type": "number", "constraints": [{"range": {"min": 1, "max": 10}}], "value": 20}, {"name": "count", "type": "number", "value": "3"}]}"#,
    );
    assert_eq!(a.status, 200, "{a:?}");
    assert_eq!(
        a.json(),
        serde_json::json!({"verdicts": [
            {"name": "count", "accepted": false, "error": "20 is out of range (min: 1, max: 10)"},
            {"name": "count", "accepted": true, "value": 3}
        ]})
    );
    s.post_json("/heatcap/v1/check", br#"{"values": 1}"#)
        .fault(400, "HTTPBadRequest");
    // Step 2's catalogue is the command's.
    let a = s.get(
        "/heatcap/v1/catalogue?root=tripleo-heat-templates-2016&environment=environments/puppet-pacemaker.yaml",
    );
    assert_eq!(a.status, 200, "{a:?}");
    let env = format!("{tht}/environments/puppet-pacemaker.yaml");
    assert_eq!(
        a.body,
        cli(&["catalogue", "--format", "json", tht, "-e", &env])
    );
    assert!(a.body.contains("\"code\": \"E9003\""));
    s.get("/heatcap/v1/catalogue?environment=../x")
        .fault(403, "Forbidden");
}

#[test]
fn resource_types_answer_what_the_cli_answers() {
    let s = Server::start(&[]);
    let pairs: [(&str, Vec<&str>); 5] = [
        (
            "/v1/demo/resource_types",
            vec!["resource-type", "list", "--format", "heat"],
        ),
        (
            "/v1/demo/resource_types?name=OS::Heat::&with_description=True",
            vec![
                "resource-type",
                "list",
                "--filter",
                "name=OS::Heat::",
                "--long",
                "--format",
                "heat",
            ],
        ),
        (
            "/v1/demo/resource_types/OS::Heat::RandomString",
            vec![
                "resource-type",
                "show",
                "OS::Heat::RandomString",
                "--format",
                "heat",
            ],
        ),
        (
            "/v1/demo/resource_types/OS::Nova::Server/template?template_type=hot",
            vec![
                "resource-type",
                "show",
                "OS::Nova::Server",
                "--template-type",
                "hot",
                "--format",
                "heat",
            ],
        ),
        (
            "/v1/demo/resource_types/OS%3A%3ANova%3A%3AServer/template",
            vec![
                "resource-type",
                "show",
                "OS::Nova::Server",
                "--template-type",
                "cfn",
                "--format",
                "heat",
            ],
        ),
    ];
    for (path, args) in pairs {
        let a = s.get(path);
        assert_eq!(a.status, 200, "{path}: {a:?}");
        assert_eq!(a.body.trim_end(), cli(&args).trim_end(), "{path}");
    }
    let versions = s.get("/v1/demo/template_versions").json();
    assert_eq!(versions["template_versions"].as_array().unwrap().len(), 13);
    let f = s.get("/v1/demo/template_versions/heat_template_version.2018-08-31/functions?with_condition_func=true");
    assert_eq!(f.status, 200);
    assert!(f.json()["template_functions"]
        .as_array()
        .unwrap()
        .iter()
        .any(|x| x["functions"] == "equals"));
    assert_eq!(
        s.get("/v1/demo/build_info").json()["api"]["revision"]
            .as_str()
            .unwrap()
            .split(' ')
            .next(),
        Some("heatcap")
    );
}

/// heatcap's own routes answer the commands' JSON for the same question.
#[test]
fn own_routes_answer_what_the_cli_answers() {
    let s = Server::start(&["--root", "fixtures/spec", "--root", "fixtures/heat"]);
    let roots = s.get("/heatcap/v1/roots").json();
    assert_eq!(roots["roots"][0]["name"], "spec");
    let cases: [(&str, Vec<&str>); 8] = [
        (
            "/heatcap/v1/options?environment=environment.yaml",
            vec!["options", "-e", "fixtures/spec/environment.yaml", "--format", "json"],
        ),
        (
            "/heatcap/v1/resolve?environment=environment.yaml&all=true",
            vec!["resolve", "-e", "fixtures/spec/environment.yaml", "--all", "--format", "json"],
        ),
        (
            "/heatcap/v1/index?recursive=true",
            vec!["index", "-r", "fixtures/spec", "--format", "json"],
        ),
        (
            "/heatcap/v1/capabilities/find?c=deployment=puppet&recursive=true",
            vec!["capabilities-find", "-r", "-c", "deployment=puppet", "fixtures/spec", "--format", "json"],
        ),
        (
            "/heatcap/v1/parameters?root=heat&template=remove-item/root.yaml&environment=remove-item/env.yaml",
            vec!["parameters", "-t", "fixtures/heat/remove-item/root.yaml", "-e", "fixtures/heat/remove-item/env.yaml", "--format", "json"],
        ),
        (
            "/heatcap/v1/parameters?root=heat&template=remove-item/root.yaml&environment=remove-item/env.yaml&format=heat-resource-tree",
            vec!["parameters", "-t", "fixtures/heat/remove-item/root.yaml", "-e", "fixtures/heat/remove-item/env.yaml", "--format", "heat-resource-tree"],
        ),
        (
            "/heatcap/v1/validate?root=heat&path=conditions&recursive=true&format=sarif",
            vec!["validate", "-r", "fixtures/heat/conditions", "--format", "sarif", "--no-config"],
        ),
        (
            "/heatcap/v1/export?root=heat&template=remove-item/root.yaml&environment=remove-item/env.yaml",
            vec!["export", "-t", "fixtures/heat/remove-item/root.yaml", "-e", "fixtures/heat/remove-item/env.yaml", "--format", "heat-api"],
        ),
    ];
    for (path, args) in cases {
        let a = s.get(path);
        assert_eq!(a.status, 200, "{path}: {a:?}");
        assert_eq!(a.body, cli(&args), "{path}");
    }
    let doc = s.get("/heatcap/v1/openapi.json");
    assert_eq!(
        doc.body,
        std::fs::read_to_string("docs/openapi.json").unwrap()
    );
}

/// `export?format=tarball` is the tree `export --out DIR` writes, file for
/// file, as a tar archive; the same question gives the same bytes.
#[test]
fn export_tarball_is_the_tree_export_writes() {
    let s = Server::start(&["--root", "fixtures/overcloud"]);
    let path = "/heatcap/v1/export?template=overcloud.yaml&environment=environments/overcloud-resource-registry-puppet.yaml&environment=environments/network-environment.yaml&format=tarball";
    let a = s.get(path);
    assert_eq!(a.status, 200, "{a:?}");
    assert_eq!(a.header("content-type"), Some("application/x-tar"));
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("tree");
    let (code, _, err) = common::heatcap(&[
        "export",
        "-t",
        "fixtures/overcloud/overcloud.yaml",
        "-e",
        "fixtures/overcloud/environments/overcloud-resource-registry-puppet.yaml",
        "-e",
        "fixtures/overcloud/environments/network-environment.yaml",
        "--out",
        out.to_str().unwrap(),
        "-q",
    ]);
    assert_eq!(code, 0, "{err}");
    let mut archive = tar::Archive::new(a.body.as_bytes());
    let mut names = Vec::new();
    for entry in archive.entries().unwrap() {
        let mut entry = entry.unwrap();
        let name = entry.path().unwrap().display().to_string();
        let mut bytes = Vec::new();
        entry.read_to_end(&mut bytes).unwrap();
        assert_eq!(bytes, std::fs::read(out.join(&name)).unwrap(), "{name}");
        names.push(name);
    }
    let mut written: Vec<String> = walk_files(&out)
        .iter()
        .map(|p| p.strip_prefix(&out).unwrap().display().to_string())
        .collect();
    written.sort();
    names.sort();
    assert_eq!(names, written);
    assert!(names.len() > 5, "{names:?}");
    assert_eq!(s.get(path).body, a.body);
    let bad = s.get("/heatcap/v1/export?template=overcloud.yaml&format=zip");
    bad.fault(400, "HTTPBadRequest");
}

fn walk_files(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            found.extend(walk_files(&p));
        } else {
            found.push(p);
        }
    }
    found
}

/// Nothing outside a root: `..`, absolute paths, `~`, URLs, a link out of
/// the root, and a registry entry naming a file outside.
#[test]
fn confined_to_the_roots() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    std::fs::create_dir(&root).unwrap();
    let outside = dir.path().join("secret.yaml");
    std::fs::write(
        &outside,
        "heat_template_version: 2016-10-14\nparameters: {Secret: {type: string}}\n",
    )
    .unwrap();
    std::os::unix::fs::symlink(&outside, root.join("link.yaml")).unwrap();
    std::fs::write(
        root.join("root.yaml"),
        "heat_template_version: 2016-10-14\nresources:\n  s: {type: OS::Out}\n",
    )
    .unwrap();
    std::fs::write(
        root.join("env.yaml"),
        "resource_registry:\n  OS::Out: ../secret.yaml\n",
    )
    .unwrap();
    let s = Server::start(&["--root", root.to_str().unwrap()]);
    for rel in [
        "../secret.yaml",
        "/etc/passwd",
        "sub/../../secret.yaml",
        "~/x.yaml",
        "link.yaml",
    ] {
        s.get(&format!("/heatcap/v1/parameters?template={}", enc(rel)))
            .fault(403, "Forbidden");
    }
    s.get(&format!(
        "/heatcap/v1/parameters?template={}",
        enc("file:///etc/passwd")
    ))
    .fault(400, "HTTPBadRequest");
    s.get(&format!("/heatcap/v1/index?path={}", enc("..")))
        .fault(403, "Forbidden");
    // A registry entry leading outside: not read, said so, no parameter
    // of the file outside leaks.
    let a = s.get("/heatcap/v1/parameters?template=root.yaml&environment=env.yaml");
    assert_eq!(a.status, 200, "{a:?}");
    assert!(
        a.body.contains("outside the directories heatcap serves"),
        "{}",
        a.body
    );
    assert!(!a.body.contains("Secret"), "{}", a.body);
}

/// issue 29: in a served raw tree, the renderer reads as every other
/// read does, confined to the roots: a Jinja source that is a link to a
/// file outside, an include through a linked directory, linked roles
/// data and linked network data are refused (E0001, "outside the
/// directories heatcap serves") and nothing of them is in any answer
/// (the CLI reads them as the tree's script does: tests/hostile.rs).
#[test]
fn render_reads_stay_inside_the_roots() {
    for (linked, refused) in [
        (
            Linked::Sources,
            &["leak.j2.yaml", "linked/inc.yaml", "linked/plain.yaml"][..],
        ),
        (Linked::Roles, &["roles_data.yaml"][..]),
        (
            Linked::Network,
            &["network-data-samples/default-network-isolation.yaml"][..],
        ),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let root = linked_tree(dir.path(), linked);
        let s = Server::start(&["--root", root.to_str().unwrap()]);
        let mut said = String::new();
        for path in [
            "/heatcap/v1/index?recursive=true",
            "/heatcap/v1/index?recursive=true&path=linked",
            "/heatcap/v1/parameters?template=overcloud.yaml",
            "/heatcap/v1/parameters?template=leak.yaml",
            "/heatcap/v1/validate?path=.&recursive=true",
            "/heatcap/v1/catalogue",
            "/heatcap/v1/capabilities/summary?path=.",
        ] {
            let a = s.get(path);
            assert!(
                !a.body.to_lowercase().contains("secret"),
                "{linked:?} {path}: {}",
                a.body
            );
            said.push_str(&a.body);
        }
        let index = s.get("/heatcap/v1/index?recursive=true").json();
        let found = diagnostics_of(&index);
        for file in refused {
            let shown = format!("{}/{file}", root.display());
            assert!(
                found.iter().any(|d| d["code"] == "E0001"
                    && d["file"] == shown.as_str()
                    && d["message"] == "outside the directories heatcap serves: not read"),
                "{linked:?}: {file} not refused in {found:#?}"
            );
        }
        // The rest of a tree whose data could be read is rendered.
        if matches!(linked, Linked::Sources) {
            assert_eq!(
                indexed(&index, &root.join("overcloud.yaml"))["parameters"][0]["name"],
                "ControllerCount"
            );
        }
    }
}

/// Every diagnostic in an answer, at any depth.
fn diagnostics_of(answer: &J) -> Vec<&J> {
    match answer {
        J::Object(m) if m.contains_key("code") && m.contains_key("severity") => vec![answer],
        J::Object(m) => m.values().flat_map(diagnostics_of).collect(),
        J::Array(a) => a.iter().flat_map(diagnostics_of).collect(),
        _ => Vec::new(),
    }
}

/// The entry of `path` in an index answer.
fn indexed<'a>(index: &'a J, path: &Path) -> &'a J {
    index["files"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["path"] == path.display().to_string().as_str())
        .unwrap_or_else(|| panic!("{} not in {index}", path.display()))
}

/// Hostile Jinja in a served raw tree: the request is answered in
/// seconds, each source refused (E0020), the rest of the tree rendered.
#[test]
fn hostile_jinja_is_answered_in_time() {
    let dir = tempfile::tempdir().unwrap();
    let root = linked_tree(dir.path(), Linked::Roles);
    std::fs::remove_file(root.join("roles_data.yaml")).unwrap();
    std::fs::write(root.join("roles_data.yaml"), "- name: Controller\n").unwrap();
    std::fs::write(
        root.join("loops.j2.yaml"),
        "{% for a in range(100) %}{% for b in range(10000) %}{% for c in range(10000) %}{% endfor %}{% endfor %}{% endfor %}",
    )
    .unwrap();
    std::fs::write(
        root.join("lines.j2.yaml"),
        "{% for a in range(9000) %}{% for b in range(9000) %}\n  r{{a}}_{{b}}: {type: OS::Heat::None}{% endfor %}{% endfor %}",
    )
    .unwrap();
    let s = Server::start(&["--root", root.to_str().unwrap()]);
    let started = Instant::now();
    let a = s.get("/heatcap/v1/index?recursive=true");
    let took = started.elapsed();
    assert_eq!(a.status, 200, "{a:?}");
    assert!(took < Duration::from_secs(10), "{took:?}");
    let index = a.json();
    let found = diagnostics_of(&index);
    for (file, said) in [
        (
            "loops.j2.yaml",
            "the render does more work than heatcap allows",
        ),
        (
            "lines.j2.yaml",
            "the rendered file grows past 524288 characters",
        ),
    ] {
        let shown = format!("{}/{file}", root.display());
        assert!(
            found.iter().any(|d| d["code"] == "E0020"
                && d["file"] == shown.as_str()
                && d["message"].as_str().unwrap().starts_with(said)),
            "{file}: {found:#?}"
        );
    }
    assert_eq!(
        indexed(&index, &root.join("overcloud.yaml"))["parameters"][0]["name"],
        "ControllerCount"
    );
}

/// Heat's 1 MiB body limit, answered as Heat answers it (400
/// RequestLimitExceeded, never 413), with or without a declared length.
#[test]
fn oversized_bodies() {
    let s = Server::start(&[]);
    let mut body = br#"{"template": ""#.to_vec();
    body.resize(1_048_577, b'x');
    body.extend_from_slice(br#""}"#);
    let a = s.post_json("/v1/demo/validate", &body);
    a.fault(400, "RequestLimitExceeded");
    assert_eq!(
        a.json()["error"]["message"],
        "Request limit exceeded: JSON body size (1048579 bytes) exceeds maximum allowed size (1048576 bytes)."
    );
    // Chunked, no length: read up to the limit, then refused.
    let mut c = s.connect();
    c.write_all(b"POST /v1/demo/validate HTTP/1.1\r\nHost: t\r\nConnection: close\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n").unwrap();
    let chunk = vec![b'x'; 65536];
    for _ in 0..20 {
        if c.write_all(format!("{:x}\r\n", chunk.len()).as_bytes())
            .is_err()
            || c.write_all(&chunk).is_err()
            || c.write_all(b"\r\n").is_err()
        {
            break;
        }
    }
    let _ = c.write_all(b"0\r\n\r\n");
    read_answer(&mut c).fault(400, "RequestLimitExceeded");
}

/// A client that sends half its headers is cut off after the header
/// timeout, and others are still served meanwhile.
#[test]
fn slow_client_is_timed_out() {
    let s = Server::start(&["--header-timeout", "1"]);
    let mut slow = s.connect();
    slow.write_all(b"GET /v1/demo/build_info HTTP/1.1\r\nHost: t\r\n")
        .unwrap();
    let started = Instant::now();
    assert_eq!(s.get("/v1/demo/build_info").status, 200);
    let mut rest = Vec::new();
    let _ = slow.read_to_end(&mut rest);
    let waited = started.elapsed();
    assert!(waited < Duration::from_secs(10), "held {waited:?}");
    // hyper answers 408 or just closes; either way no request is served.
    let text = String::from_utf8_lossy(&rest);
    assert!(!text.contains("200 OK"), "{text}");
}

/// SIGTERM while a request is being sent: it is answered in full, then
/// the server exits 0 and takes no new connection.
#[test]
fn request_in_flight_finishes_on_shutdown() {
    let mut s = Server::start(&[]);
    let body = br#"{"template": {"heat_template_version": "2016-10-14", "parameters": {"p": {"type": "string"}}}}"#;
    let mut c = s.connect();
    let full = raw(
        "POST",
        "/v1/demo/validate",
        &[("Content-Type", "application/json")],
        body,
    );
    let half = full.len() - body.len() / 2;
    c.write_all(&full[..half]).unwrap();
    std::thread::sleep(Duration::from_millis(300));
    s.signal("TERM");
    std::thread::sleep(Duration::from_millis(300));
    c.write_all(&full[half..]).unwrap();
    let a = read_answer(&mut c);
    assert_eq!(a.status, 200, "{a:?}");
    assert!(a.json()["Parameters"]["p"].is_object());
    assert_eq!(s.wait(), 0);
    assert!(TcpStream::connect(&s.addr).is_err());
    let log = s.rest_of_stderr();
    assert!(log.contains("POST /v1/demo/validate 200"), "{log}");
    assert!(log.contains("stopped"), "{log}");
}

/// Only loopback unless told otherwise.
#[test]
fn remote_listening_needs_a_flag() {
    let out = Command::new(env!("CARGO_BIN_EXE_heatcap"))
        .args(["serve", "--listen", "0.0.0.0:0"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--allow-remote"));
}

/// Warm: the second request is answered from the parsed files, and a file
/// changed on disk is seen by the next request.
#[test]
fn a_change_on_disk_is_seen_by_the_next_request() {
    let dir = tempfile::tempdir().unwrap();
    let t = dir.path().join("t.yaml");
    std::fs::write(
        &t,
        "heat_template_version: 2016-10-14\nparameters: {A: {type: string}}\n",
    )
    .unwrap();
    let s = Server::start(&["--root", dir.path().to_str().unwrap()]);
    let first = s.get("/heatcap/v1/parameters?template=t.yaml").json();
    assert!(first["parameters"].get("A").is_some(), "{first}");
    assert_eq!(
        s.get("/heatcap/v1/parameters?template=t.yaml").json(),
        first
    );
    std::fs::write(
        &t,
        "heat_template_version: 2016-10-14\nparameters: {B: {type: number}}\n",
    )
    .unwrap();
    let second = s.get("/heatcap/v1/parameters?template=t.yaml").json();
    assert!(second["parameters"].get("A").is_none(), "{second}");
    assert!(second["parameters"].get("B").is_some(), "{second}");
}

/// `options` without `templates` is kept whole as `parameters` is: a
/// change to an environment it read, or to a template an environment
/// maps, is seen by the next request.
#[test]
fn options_see_a_change_on_disk() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| std::fs::write(dir.path().join(name), text).unwrap();
    write("a.yaml", "heat_template_version: 2016-10-14\n");
    write("b.yaml", "heat_template_version: 2016-10-14\n");
    write("e1.yaml", "resource_registry:\n  OS::X: a.yaml\n");
    write("e2.yaml", "resource_registry:\n  OS::X: b.yaml\n");
    let s = Server::start(&["--root", dir.path().to_str().unwrap()]);
    let path = "/heatcap/v1/options?environment=e1.yaml&environment=e2.yaml";
    let choice = |a: &Answer| {
        assert_eq!(a.status, 200, "{a:?}");
        a.json()["choices"][0].clone()
    };
    let first = choice(&s.get(path));
    let mapped = |c: &J| c["mapped_to"].as_str().unwrap_or_default().to_owned();
    assert!(mapped(&first).ends_with("/b.yaml"), "{first}");
    assert_eq!(first["selection"]["candidates"][1]["capabilities"], J::Null);
    assert_eq!(choice(&s.get(path)), first);
    // The template the composition maps the type to gains capabilities.
    write(
        "b.yaml",
        "heat_template_version: 2016-10-14\ncapabilities: {deployment: puppet}\n",
    );
    let second = choice(&s.get(path));
    assert_eq!(
        second["selection"]["candidates"][1]["capabilities"]["deployment"], "puppet",
        "{second}"
    );
    // An environment maps the type elsewhere (a file that did not exist
    // when the answer was kept).
    write("c.yaml", "heat_template_version: 2016-10-14\n");
    write("e2.yaml", "resource_registry:\n  OS::X: c.yaml\n");
    let third = choice(&s.get(path));
    assert!(mapped(&third).ends_with("/c.yaml"), "{third}");
    let (e1, e2) = (dir.path().join("e1.yaml"), dir.path().join("e2.yaml"));
    assert_eq!(
        s.get(path).body,
        cli(&[
            "options",
            "-e",
            e1.to_str().unwrap(),
            "-e",
            e2.to_str().unwrap(),
            "--format",
            "json"
        ])
    );
}

/// A kept answer asked with `plan=` depends on the plan file too: a plan
/// whose environment list changed (no part of the plan the workspace
/// reads) is read again by the next request.
#[test]
fn a_changed_plan_is_seen_by_the_next_request() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("t");
    std::fs::create_dir(&root).unwrap();
    std::fs::write(
        root.join("t.yaml"),
        "heat_template_version: 2016-10-14\nparameters: {A: {type: string}}\n",
    )
    .unwrap();
    std::fs::write(root.join("a.yaml"), "parameter_defaults: {A: from-a}\n").unwrap();
    std::fs::write(root.join("b.yaml"), "parameter_defaults: {A: from-b}\n").unwrap();
    let plan = root.join("plan.yaml");
    std::fs::write(
        &plan,
        "template: t.yaml\nenvironments: [{path: a.yaml}, {path: b.yaml}]\n",
    )
    .unwrap();
    let s = Server::start(&["--root", root.to_str().unwrap()]);
    let path = "/heatcap/v1/parameters?plan=plan.yaml&format=heat";
    let value = |a: &Answer| a.json()["Parameters"]["A"]["Default"].clone();
    assert_eq!(value(&s.get(path)), "from-b");
    assert_eq!(value(&s.get(path)), "from-b");
    std::fs::write(&plan, "template: t.yaml\nenvironments: [{path: a.yaml}]\n").unwrap();
    assert_eq!(value(&s.get(path)), "from-a");
}

/// A raw TripleO checkout served as it is: each request's workspace
/// renders the tree (its own overlay, nothing shared with other requests)
/// and the answers are the commands' on the same raw tree.
#[test]
fn a_raw_checkout_answers_what_the_cli_answers() {
    let s = Server::start(&["--root", "fixtures/jinja/latest"]);
    let env = "environments/network-isolation.yaml";
    let cases: [(String, Vec<&str>); 3] = [
        (
            format!("/heatcap/v1/parameters?template=overcloud.yaml&environment={env}"),
            vec![
                "parameters",
                "-t",
                "fixtures/jinja/latest/overcloud.yaml",
                "-e",
                "fixtures/jinja/latest/environments/network-isolation.yaml",
                "--format",
                "json",
            ],
        ),
        (
            format!("/heatcap/v1/options?environment={env}&templates=."),
            vec![
                "options",
                "-e",
                "fixtures/jinja/latest/environments/network-isolation.yaml",
                "--templates",
                "fixtures/jinja/latest",
                "--format",
                "json",
            ],
        ),
        (
            format!("/heatcap/v1/resolve?environment={env}&all=true"),
            vec![
                "resolve",
                "-e",
                "fixtures/jinja/latest/environments/network-isolation.yaml",
                "--all",
                "--format",
                "json",
            ],
        ),
    ];
    for (path, args) in &cases {
        let a = s.get(path);
        assert_eq!(a.status, 200, "{path}: {a:?}");
        assert_eq!(a.body, cli(args), "{path}");
    }
    // The rendered outputs are really read: the roles' parameters are
    // there, and the environment maps the rendered ports.
    let params = s.get(&cases[0].0).json();
    assert!(
        params["parameters"].get("ControllerCount").is_some(),
        "{params}"
    );
    let resolved = s.get(&cases[2].0).json();
    assert!(
        resolved
            .to_string()
            .contains("network/ports/internal_api.yaml"),
        "{resolved}"
    );
}

/// Issue 29: a raw tree where one Jinja source fails to render
/// (fixtures/jinja/partial: `broken.j2.yaml` includes a file the tree
/// lacks) is served as the commands answer on it: every other output is
/// mounted and composed (tests/cmd/parameters-render-partial-json.stdout),
/// the failing source is E0020 at its place, and a composition that needs
/// its output says the file is missing (E7001).
#[test]
fn a_source_that_fails_to_render_loses_only_its_outputs() {
    let s = Server::start(&["--root", "fixtures/jinja/partial"]);
    let d = "fixtures/jinja/partial";
    let path = "/heatcap/v1/parameters?template=overcloud.yaml&environment=overcloud-resource-registry.yaml";
    let a = s.get(path);
    assert_eq!(a.status, 200, "{a:?}");
    assert_eq!(
        a.body,
        cli(&[
            "parameters",
            "-t",
            &format!("{d}/overcloud.yaml"),
            "-e",
            &format!("{d}/overcloud-resource-registry.yaml"),
            "--format",
            "json",
        ])
    );
    let params = a.json();
    for name in [
        "ControllerCount",
        "ComputeCount",
        "ControllerImage",
        "ComputeImage",
    ] {
        assert!(params["parameters"].get(name).is_some(), "{name}: {params}");
    }
    let failed = |answer: &J| {
        diagnostics_of(answer).iter().any(|d| {
            d["code"] == "E0020"
                && d["file"]
                    .as_str()
                    .unwrap()
                    .ends_with("partial/broken.j2.yaml")
                && d["span"]["start"]["line"] == 3
                && d["span"]["start"]["column"] == 4
        })
    };
    assert!(failed(&params), "{params}");

    let needs = s
        .get("/heatcap/v1/parameters?template=needs-broken.yaml&environment=broken-registry.yaml")
        .json();
    assert!(failed(&needs), "{needs}");
    assert!(
        diagnostics_of(&needs).iter().any(|d| d["code"] == "E7001"
            && d["file"].as_str().unwrap().ends_with("needs-broken.yaml")
            && d["message"]
                .as_str()
                .unwrap()
                .contains("partial/broken.yaml`: no such file")),
        "{needs}"
    );
    assert_eq!(needs["parameters"], serde_json::json!({}), "{needs}");

    let index = s.get("/heatcap/v1/index?recursive=true").json();
    assert!(failed(&index), "{index}");
    let root = Path::new(d);
    assert_eq!(
        indexed(&index, &root.join("overcloud.yaml"))["parameters"][0]["name"],
        "ControllerCount",
        "{index}"
    );
    assert_eq!(
        indexed(&index, &root.join("puppet/compute-role.yaml"))["status"],
        "ok"
    );
}

/// Issue 29: a tree rendered in place with other data than the script's
/// defaults (fixtures/jinja/rendered-other) is served as the commands
/// answer on it: for the files on disk (one network, not the default
/// data's two), W0026 among validate's findings.
#[test]
fn a_tree_rendered_on_disk_is_served_from_its_files_there() {
    let s = Server::start(&["--root", "fixtures/jinja/rendered-other"]);
    let path = "/heatcap/v1/parameters?template=overcloud.yaml&environment=overcloud-resource-registry.yaml&environment=environments/network-isolation.yaml";
    let a = s.get(path);
    assert_eq!(a.status, 200, "{a:?}");
    let d = "fixtures/jinja/rendered-other";
    assert_eq!(
        a.body,
        cli(&[
            "parameters",
            "-t",
            &format!("{d}/overcloud.yaml"),
            "-e",
            &format!("{d}/overcloud-resource-registry.yaml"),
            "-e",
            &format!("{d}/environments/network-isolation.yaml"),
            "--format",
            "json",
        ])
    );
    let params = a.json();
    assert!(
        params["parameters"].get("InternalApiNetCidr").is_some(),
        "{params}"
    );
    assert!(
        params["parameters"].get("StorageNetCidr").is_none(),
        "{params}"
    );
    let v = s
        .get("/heatcap/v1/validate?root=rendered-other&path=.&recursive=true")
        .json();
    let codes: Vec<&str> = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|f| f["code"].as_str())
        .collect();
    assert!(codes.contains(&"W0026"), "{v}");
}

/// A raw tree's Jinja source or roles file changed on disk is seen by
/// the next request (the tree is rendered again), as a changed file is.
#[test]
fn a_changed_source_or_roles_file_is_rendered_again() {
    let dir = tempfile::tempdir().unwrap();
    let roles = dir.path().join("roles_data.yaml");
    let source = dir.path().join("overcloud.j2.yaml");
    std::fs::write(&roles, "- name: Controller\n").unwrap();
    // The network data the script reads by default.
    let samples = dir.path().join("network-data-samples");
    std::fs::create_dir(&samples).unwrap();
    std::fs::write(
        samples.join("default-network-isolation.yaml"),
        "- name: InternalApi\n",
    )
    .unwrap();
    std::fs::write(
        &source,
        "heat_template_version: 2016-10-14\nparameters:\n{%- for role in roles %}\n  {{role.name}}Count: {type: number}\n{%- endfor %}\n",
    )
    .unwrap();
    let s = Server::start(&["--root", dir.path().to_str().unwrap()]);
    let path = "/heatcap/v1/parameters?template=overcloud.yaml";
    let names = |a: &Answer| -> Vec<String> {
        let j = a.json();
        assert_eq!(a.status, 200, "{j}");
        let mut names: Vec<String> = j["parameters"]
            .as_object()
            .unwrap()
            .keys()
            .cloned()
            .collect();
        names.sort();
        names
    };
    assert_eq!(names(&s.get(path)), ["ControllerCount"]);
    assert_eq!(names(&s.get(path)), ["ControllerCount"]);
    std::fs::write(&roles, "- name: Controller\n- name: Compute\n").unwrap();
    assert_eq!(names(&s.get(path)), ["ComputeCount", "ControllerCount"]);
    std::fs::write(
        &source,
        "heat_template_version: 2016-10-14\nparameters:\n{%- for role in roles %}\n  {{role.name}}Flavor: {type: string}\n{%- endfor %}\n",
    )
    .unwrap();
    assert_eq!(names(&s.get(path)), ["ComputeFlavor", "ControllerFlavor"]);
}

/// The per-request time limit: a body that stops arriving is answered
/// with Heat's 500 fault once `--request-timeout` has passed, and the
/// server goes on serving.
#[test]
fn request_time_limit() {
    let s = Server::start(&["--request-timeout", "1"]);
    let mut c = s.connect();
    c.write_all(b"POST /v1/demo/validate HTTP/1.1\r\nHost: t\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"template\":")
        .unwrap();
    let started = Instant::now();
    let a = read_answer(&mut c);
    a.fault(500, "Timeout");
    assert!(started.elapsed() < Duration::from_secs(10));
    assert_eq!(s.get("/v1/demo/build_info").status, 200);
}

/// `POST /heatcap/v1/check` against every declaration of a parameter
/// (fixtures/definitions: `Count` is a number of at least 1 at the root,
/// 1 to 3 in `small`, at least 3 in `large`): the page sends the
/// `definitions` the parameters answer gives, and each stack that refuses
/// the value is named with Heat's words
/// (tests/heat/env-value-verdicts.json: "20 is out of range (min: 1, max: 10)").
#[test]
fn check_against_every_definition() {
    let s = Server::start(&["--root", "fixtures/definitions"]);
    let a = s.get("/heatcap/v1/parameters?template=root.yaml&environment=env.yaml");
    assert_eq!(a.status, 200, "{a:?}");
    let count = &a.json()["parameters"]["Count"];
    let definitions = count["definitions"].as_array().unwrap();
    assert_eq!(definitions.len(), 3, "{count}");
    let judge = |value: J| {
        let defs: Vec<J> = definitions
            .iter()
            .map(|d| {
                let mut d = d.clone();
                let nested = d["stacks"] != serde_json::json!(["root"]);
                d["nested"] = J::Bool(nested);
                d
            })
            .collect();
        let body =
            serde_json::json!({"values": [{"name": "Count", "value": value, "definitions": defs}]});
        let a = s.post_json("/heatcap/v1/check", body.to_string().as_bytes());
        assert_eq!(a.status, 200, "{a:?}");
        a.json()["verdicts"][0].clone()
    };
    let v = judge(serde_json::json!(2));
    assert_eq!(v["accepted"], false);
    assert_eq!(v["error"], "2 is out of range (min: 3, max: None)");
    let refused: Vec<(J, J)> = v["definitions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["accepted"] == false)
        .map(|d| (d["stacks"].clone(), d["error"].clone()))
        .collect();
    assert_eq!(
        refused,
        [(
            serde_json::json!(["root/large"]),
            serde_json::json!("2 is out of range (min: 3, max: None)")
        )]
    );
    let v = judge(serde_json::json!(5));
    assert_eq!(v["error"], "5 is out of range (min: 1, max: 3)");
    assert_eq!(
        v["definitions"][1]["stacks"],
        serde_json::json!(["root/small"])
    );
    let v = judge(serde_json::json!(0));
    assert_eq!(
        v["definitions"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| d["accepted"] == false)
            .count(),
        3
    );
}

/// Heat's clock for the preview tests (`SOURCE_DATE_EPOCH`, 2026-01-01),
/// for the server and the command alike.
const EPOCH: (&str, &str) = ("SOURCE_DATE_EPOCH", "1767225600");

/// The CLI run as a process with Heat's clock fixed ([`EPOCH`]): its
/// standard output.
fn cli_at_epoch(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_heatcap"))
        .args(args)
        .env(EPOCH.0, EPOCH.1)
        .output()
        .unwrap();
    String::from_utf8(out.stdout).unwrap()
}

/// A validator for the OpenAPI document's (docs/openapi.json) schema
/// `name`, its references resolved in the document.
fn openapi_schema(name: &str) -> jsonschema::Validator {
    let doc: J =
        serde_json::from_str(&std::fs::read_to_string("docs/openapi.json").unwrap()).unwrap();
    let schema = serde_json::json!({
        "$ref": format!("#/components/schemas/{name}"),
        "components": doc["components"],
    });
    jsonschema::draft202012::options().build(&schema).unwrap()
}

/// `GET /heatcap/v1/preview` answers what `heatcap preview` prints for
/// the same question, byte for byte (`heat` at the same clock; Heat's
/// refusal as the command prints it, `{"Error": ...}`).
#[test]
fn preview_route_answers_what_the_cli_answers() {
    let s = Server::start_with(
        &["--root", "fixtures/preview", "--root", "fixtures/heat"],
        &[EPOCH],
    );
    let (tmpl, env) = (
        "fixtures/preview/basic/root.yaml",
        "fixtures/preview/basic/env.yaml",
    );
    let q = "template=basic/root.yaml&environment=basic/env.yaml";
    let cases: Vec<(String, Vec<&str>)> = vec![
        (format!("{q}&format=heat"), vec!["-t", tmpl, "-e", env, "--format", "heat"]),
        (q.to_owned(), vec!["-t", tmpl, "-e", env, "--format", "json"]),
        (
            format!("{q}&stack_name=overcloud&format=heat"),
            vec!["-t", tmpl, "-e", env, "--stack-name", "overcloud", "--format", "heat"],
        ),
        (
            "template=basic/root.yaml&choose=OS::Preview::Member=basic/inner.yaml&environment=basic/env.yaml&format=json".to_owned(),
            vec!["-t", tmpl, "-e", env, "--choose", "OS::Preview::Member=fixtures/preview/basic/inner.yaml", "--format", "json"],
        ),
        (
            "root=heat&template=invalid-version/root.yaml&format=heat".to_owned(),
            vec!["-t", "fixtures/heat/invalid-version/root.yaml", "--format", "heat"],
        ),
    ];
    for (query, args) in cases {
        let path = format!("/heatcap/v1/preview?{query}");
        let a = s.get(&path);
        assert_eq!(a.status, 200, "{path}: {a:?}");
        let mut cli_args = vec!["preview"];
        cli_args.extend(args);
        assert_eq!(a.body, cli_at_epoch(&cli_args), "{path}");
    }
    let heat = s
        .get(&format!("/heatcap/v1/preview?{q}&format=heat"))
        .json();
    assert!(openapi_schema("preview-heat").is_valid(&heat));
    assert!(openapi_schema("preview").is_valid(&s.get(&format!("/heatcap/v1/preview?{q}")).json()));
    let refused =
        s.get("/heatcap/v1/preview?root=heat&template=invalid-version/root.yaml&format=heat");
    assert!(openapi_schema("preview-heat").is_valid(&refused.json()));
    assert_eq!(heat["stack"]["creation_time"], "2026-01-01T00:00:00Z");
    assert_eq!(heat["stack"]["stack_name"], "root");
    s.get("/heatcap/v1/preview").fault(400, "HTTPBadRequest");
    s.get("/heatcap/v1/preview?template=basic/root.yaml&format=table")
        .fault(400, "HTTPBadRequest");
    s.get("/heatcap/v1/preview?template=../x.yaml")
        .fault(403, "Forbidden");
}

/// `GET /heatcap/v1/diff` answers what `heatcap diff` prints for the
/// same two sides, byte for byte, in both formats (tests/diff.rs checks
/// the command against Heat 27's recorded update previews): values,
/// a template for the old side, the old side's picks, plans, a stack
/// name, and a side Heat refuses (as the command prints it).
#[test]
fn diff_route_answers_what_the_cli_answers() {
    let s = Server::start_with(
        &["--root", "fixtures/diff/new", "--root", "fixtures/plans"],
        &[EPOCH],
    );
    let d = "fixtures/diff/new";
    let (root, env, values) = (
        format!("{d}/root.yaml"),
        format!("{d}/env.yaml"),
        format!("{d}/values.yaml"),
    );
    let role_b = format!("OS::Diff::Role={d}/role-b.yaml");
    let role = format!("{d}/role.yaml");
    let plans = "fixtures/plans";
    let plan = format!("{plans}/plan-environment.yaml");
    let registry = format!("{plans}/overcloud-resource-registry.yaml");
    let cases: Vec<(&str, Vec<&str>)> = vec![
        (
            "template=root.yaml&environment=values.yaml&from_environment=env.yaml",
            vec!["-t", &root, "-e", &values, "--from-environment", &env],
        ),
        (
            "template=root.yaml&environment=env.yaml&from_choose=OS::Diff::Role=role-b.yaml&stack_name=overcloud",
            vec!["-t", &root, "-e", &env, "--from-choose", &role_b, "--stack-name", "overcloud"],
        ),
        (
            "template=root.yaml&environment=env.yaml&choose=OS::Diff::Role=role-b.yaml",
            vec!["-t", &root, "-e", &env, "--choose", &role_b],
        ),
        (
            "template=root.yaml&environment=env.yaml&from_template=role.yaml",
            vec!["-t", &root, "-e", &env, "--from-template", &role],
        ),
        (
            "root=plans&plan=plan-environment.yaml&from_plan=plan-environment.yaml&from_environment=overcloud-resource-registry.yaml",
            vec!["--plan", &plan, "--from-plan", &plan, "--from-environment", &registry],
        ),
    ];
    for (query, args) in cases {
        for format in ["json", "heat"] {
            let path = format!("/heatcap/v1/diff?{query}&format={format}");
            let a = s.get(&path);
            assert_eq!(a.status, 200, "{path}: {a:?}");
            let mut cli_args = vec!["diff"];
            cli_args.extend(&args);
            cli_args.extend(["--format", format]);
            assert_eq!(a.body, cli_at_epoch(&cli_args), "{path}");
            let schema = if format == "heat" {
                "diff-heat"
            } else {
                "diff"
            };
            assert!(openapi_schema(schema).is_valid(&a.json()), "{path}");
        }
    }
    // The default format is json; the refused side is said as the command
    // says it.
    let refused = s
        .get("/heatcap/v1/diff?template=root.yaml&environment=env.yaml&from_template=role.yaml")
        .json();
    assert!(refused["heat_error"]
        .as_str()
        .is_some_and(|e| e.starts_with("old side: ")));
    s.get("/heatcap/v1/diff").fault(400, "HTTPBadRequest");
    s.get("/heatcap/v1/diff?template=root.yaml&format=table")
        .fault(400, "HTTPBadRequest");
    s.get("/heatcap/v1/diff?template=root.yaml&from_template=../x.yaml")
        .fault(403, "Forbidden");
    s.get("/heatcap/v1/diff?template=root.yaml&from_environment=/etc/passwd")
        .fault(403, "Forbidden");
    s.get("/heatcap/v1/diff?template=root.yaml&from_choose=nope")
        .fault(400, "HTTPBadRequest");
    s.get("/heatcap/v1/diff?template=root.yaml&from_plan=none.yaml")
        .fault(404, "NotFound");
    s.get("/heatcap/v1/diff?template=root.yaml&root=elsewhere")
        .fault(404, "NotFound");
    // `from` and `to` are left for naming both sides at once.
    s.get("/heatcap/v1/diff?from=v1&to=v2")
        .fault(400, "HTTPBadRequest");
}

/// `POST /heatcap/v1/diff`: each side a served root's files (with an
/// environment of the request's own, as the composition page sends its
/// picks and values) or Heat's preview body, answering what the command
/// answers for the same files; malformed bodies are Heat's 400s.
#[test]
#[allow(clippy::too_many_lines)] // one server, each kind of side in turn
fn diff_route_takes_both_sides_as_bodies() {
    let s = Server::start_with(&["--root", "fixtures/diff/new"], &[EPOCH]);
    let d = Path::new("fixtures/diff/new");
    let post = |query: &str, body: &J| {
        s.post_json(
            &format!("/heatcap/v1/diff{query}"),
            body.to_string().as_bytes(),
        )
    };
    let served = |envs: &[&str], own: Option<J>| {
        let mut side = serde_json::json!({"template": "root.yaml", "environments": envs});
        if let Some(own) = own {
            side["environment"] = own;
        }
        serde_json::json!({ "served": side })
    };
    // Served sides: what GET answers for the same files.
    let both = serde_json::json!({"from": served(&["env.yaml"], None), "to": served(&["values.yaml"], None)});
    let get =
        "/heatcap/v1/diff?template=root.yaml&environment=values.yaml&from_environment=env.yaml";
    for format in ["json", "heat"] {
        let a = post(&format!("?format={format}"), &both);
        assert_eq!(a.status, 200, "{a:?}");
        assert_eq!(a.body, s.get(&format!("{get}&format={format}")).body);
    }
    // The interface section as the command gives it; `"interface": false`
    // (the page's request) leaves it out, the resources the same.
    let full = post("", &both).json();
    assert_eq!(full["interface"]["counts"]["warning"], 6, "{full}");
    let mut lean = both.clone();
    lean["interface"] = J::Bool(false);
    let lean = post("", &lean).json();
    assert_eq!(lean["interface"]["findings"], serde_json::json!([]));
    assert_eq!(lean["interface"]["counts"]["warning"], 0);
    assert_eq!(lean["changes"], full["changes"]);
    let mut wrong = both.clone();
    wrong["interface"] = J::from("no");
    post("", &wrong).fault(400, "HTTPBadRequest");
    // The request's own environment, merged last (values.yaml's values
    // over env.yaml): the same update as values.yaml itself, and what the
    // command says with that file passed last.
    let own: J = serde_json::json!({"parameter_defaults": {
        "NetName": "net-b", "SaltLength": 32, "Count": 3, "Enabled": true, "Note": "b", "Flavor": "m1.large"
    }});
    let dir = tempfile::tempdir().unwrap();
    let own_file = dir.path().join("heatcap-environment.yaml");
    std::fs::write(&own_file, own.to_string()).unwrap();
    let with_own = serde_json::json!({"from": served(&["env.yaml"], None), "to": served(&["env.yaml"], Some(own.clone()))});
    let (root, env) = (d.join("root.yaml"), d.join("env.yaml"));
    let cli_args = |format: &str| -> String {
        cli_at_epoch(&[
            "diff",
            "-t",
            root.to_str().unwrap(),
            "-e",
            env.to_str().unwrap(),
            "-e",
            own_file.to_str().unwrap(),
            "--from-environment",
            env.to_str().unwrap(),
            "--format",
            format,
        ])
    };
    let heat = post("?format=heat", &with_own);
    assert_eq!(heat.status, 200, "{heat:?}");
    assert_eq!(heat.body, cli_args("heat"));
    let ours = post("", &with_own).json();
    // The command read the environment where it was written; the service
    // reads it as heatcap-environment.yaml in the root.
    let theirs: J = serde_json::from_str(&cli_args("json").replace(
        own_file.to_str().unwrap(),
        "fixtures/diff/new/heatcap-environment.yaml",
    ))
    .unwrap();
    assert_eq!(ours["changes"], theirs["changes"]);
    assert_eq!(ours["summary"]["replace"], 2);
    assert_eq!(
        ours["environments"][1],
        "fixtures/diff/new/heatcap-environment.yaml"
    );
    // The same text as YAML is the same environment.
    let text = J::from("parameter_defaults:\n  NetName: net-b\n  SaltLength: 32\n  Count: 3\n  Enabled: true\n  Note: b\n  Flavor: m1.large\n");
    let as_text = serde_json::json!({"from": served(&["env.yaml"], None), "to": served(&["env.yaml"], Some(text))});
    assert_eq!(post("?format=heat", &as_text).body, heat.body);
    // Heat's preview bodies (python-heatclient's, from the files alone):
    // the same update; the stack named by the new side's `stack_name`.
    let body_of = |envs: &[PathBuf], name: &str| {
        let mut b: J = serde_json::from_str(&client_body(&root, envs)).unwrap();
        b["stack_name"] = J::from(name);
        b
    };
    let bodies = serde_json::json!({
        "from": body_of(std::slice::from_ref(&env), "root"),
        "to": body_of(&[d.join("values.yaml")], "root"),
    });
    let a = post("?format=heat", &bodies);
    assert_eq!(a.status, 200, "{a:?}");
    assert_eq!(a.body, s.get(&format!("{get}&format=heat")).body);
    // Where each value is set differs (a body's files are its JSON text);
    // what changes does not.
    let unsourced = |mut v: J| {
        for c in v["changes"].as_array_mut().into_iter().flatten() {
            for p in c["properties"].as_array_mut().into_iter().flatten() {
                if let Some(p) = p.as_object_mut() {
                    p.remove("set_before");
                    p.remove("set_after");
                }
            }
        }
        v["changes"].take()
    };
    let ours = post("", &bodies).json();
    let served_json = s.get(get).json();
    assert_eq!(unsourced(ours.clone()), unsourced(served_json));
    assert_eq!(ours["from_template"], "<template>");
    // One side of each kind.
    let mixed = serde_json::json!({"from": served(&["env.yaml"], None), "to": body_of(&[d.join("values.yaml")], "root")});
    assert_eq!(post("?format=heat", &mixed).body, a.body);
    post("?format=table", &both).fault(400, "HTTPBadRequest");
}

/// `GET /heatcap/v1/diff?from=REV&to=REV` reads each side's files at a
/// git revision of the repository the served root is in, as `heatcap diff
/// --from REV --to REV` does (byte for byte), not the working tree; `to`
/// alone compares that revision with itself; an unknown revision is a
/// 400 naming it.
#[test]
fn diff_route_reads_sides_at_revisions() {
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path().join("repo");
    std::fs::create_dir(&repo).unwrap();
    for f in ["root.yaml", "env.yaml", "role.yaml", "thing.yaml"] {
        std::fs::copy(Path::new("fixtures/diff/new").join(f), repo.join(f)).unwrap();
    }
    let values = repo.join("values.yaml");
    common::git(&repo, &["init", "-q"]);
    std::fs::write(&values, "parameter_defaults: {}\n").unwrap();
    common::git(&repo, &["add", "-A"]);
    common::git(&repo, &["commit", "-qm", "v1"]);
    common::git(&repo, &["tag", "v1"]);
    std::fs::copy("fixtures/diff/new/values.yaml", &values).unwrap();
    common::git(&repo, &["commit", "-qam", "v2"]);
    common::git(&repo, &["tag", "v2"]);
    // The working tree differs from both.
    std::fs::write(&values, "parameter_defaults: {Count: 9}\n").unwrap();
    let s = Server::start(&["--root", repo.to_str().unwrap()]);
    let query = "template=root.yaml&environment=env.yaml&environment=values.yaml";
    let (root, env) = (repo.join("root.yaml"), repo.join("env.yaml"));
    for format in ["json", "heat"] {
        let a = s.get(&format!(
            "/heatcap/v1/diff?{query}&from=v1&to=v2&format={format}"
        ));
        assert_eq!(a.status, 200, "{a:?}");
        let cli = cli_at_epoch(&[
            "diff",
            "--from",
            "v1",
            "--to",
            "v2",
            "-t",
            root.to_str().unwrap(),
            "-e",
            env.to_str().unwrap(),
            "-e",
            values.to_str().unwrap(),
            "--format",
            format,
        ]);
        assert_eq!(a.body, cli, "{format}");
    }
    let a = s
        .get(&format!("/heatcap/v1/diff?{query}&from=v1&to=v2"))
        .json();
    assert_eq!(a["summary"]["replace"], 2, "{a}");
    assert_eq!(a["summary"]["add"], 2, "{a}");
    // v2 with itself, as `diff --to v2` (the disk's Count 9 is not read:
    // nothing added, the group's count the same).
    let same = s.get(&format!("/heatcap/v1/diff?{query}&to=v2"));
    let cli = cli_at_epoch(&[
        "diff",
        "--to",
        "v2",
        "-t",
        root.to_str().unwrap(),
        "-e",
        env.to_str().unwrap(),
        "-e",
        values.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(same.body, cli);
    let same = same.json();
    assert_eq!(same["summary"]["add"], 0, "{same}");
    assert_eq!(same["summary"]["delete"], 0, "{same}");
    s.get(&format!("/heatcap/v1/diff?{query}&from=nope"))
        .fault(400, "HTTPBadRequest");
}

/// A served side's preview is kept for the next comparison (the page
/// compares every pick with the same deployed side) only while its files
/// are unchanged: an environment edited on disk is read again.
#[test]
fn diff_route_sees_a_served_file_change() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("diff");
    std::fs::create_dir(&root).unwrap();
    for f in ["root.yaml", "env.yaml", "role.yaml", "thing.yaml"] {
        std::fs::copy(Path::new("fixtures/diff/new").join(f), root.join(f)).unwrap();
    }
    std::fs::write(root.join("values.yaml"), "parameter_defaults: {}\n").unwrap();
    let s = Server::start(&["--root", root.to_str().unwrap()]);
    let body = serde_json::json!({
        "from": {"served": {"template": "root.yaml", "environments": ["env.yaml"]}},
        "to": {"served": {"template": "root.yaml", "environments": ["env.yaml", "values.yaml"]}},
    })
    .to_string();
    let summary = || s.post_json("/heatcap/v1/diff", body.as_bytes()).json()["summary"].clone();
    let first = summary();
    assert_eq!(first["replace"], 1, "{first}");
    assert_eq!(summary(), first);
    // Another size and time: the kept preview is not used.
    std::thread::sleep(Duration::from_millis(20));
    std::fs::write(
        root.join("values.yaml"),
        "parameter_defaults:\n  SaltLength: 32\n",
    )
    .unwrap();
    assert_eq!(summary()["replace"], 2);
}

/// Malformed diff bodies: Heat's 400 (403, 404) fault documents.
#[test]
fn diff_route_refuses_malformed_bodies() {
    let s = Server::start(&["--root", "fixtures/diff/new"]);
    let post = |body: &J| s.post_json("/heatcap/v1/diff", body.to_string().as_bytes());
    s.post_json("/heatcap/v1/diff", b"")
        .fault(400, "HTTPBadRequest");
    for (body, status, kind) in [
        (serde_json::json!({}), 400, "HTTPBadRequest"),
        (
            serde_json::json!({"from": 1, "to": 2}),
            400,
            "HTTPBadRequest",
        ),
        (
            serde_json::json!({"from": {"template": "x"}}),
            400,
            "HTTPBadRequest",
        ),
        (
            serde_json::json!({"from": {"served": []}, "to": {}}),
            400,
            "HTTPBadRequest",
        ),
        (
            serde_json::json!({"from": {"served": {"template": "../x.yaml"}}, "to": {}}),
            403,
            "Forbidden",
        ),
        (
            serde_json::json!({"from": {"served": {"root": "none"}}, "to": {}}),
            404,
            "NotFound",
        ),
        (
            serde_json::json!({"from": {"served": {}}, "to": {}}),
            400,
            "HTTPBadRequest",
        ),
        (
            serde_json::json!({"from": {"served": {"template": "root.yaml", "environments": "env.yaml"}}, "to": {}}),
            400,
            "HTTPBadRequest",
        ),
        (
            serde_json::json!({"from": {"served": {"template": "root.yaml", "choose": {"T": 1}}}, "to": {}}),
            400,
            "HTTPBadRequest",
        ),
        (
            serde_json::json!({"from": {"served": {"template": "root.yaml", "environment": 5}}, "to": {}}),
            400,
            "HTTPBadRequest",
        ),
        (
            serde_json::json!({"from": {"served": {"template": "root.yaml"}}, "to": {"files": {}}}),
            400,
            "HTTPBadRequest",
        ),
        (
            serde_json::json!({"from": {"template": {"heat_template_version": "2018-08-31"}}, "to": {"template": {"heat_template_version": "2018-08-31"}}}),
            400,
            "HTTPBadRequest",
        ),
    ] {
        post(&body).fault(status, kind);
    }
}

/// The body `openstack stack create --dry-run NAME` sends for a
/// composition: what `export --format heat-api` writes (template, files,
/// environment_files: the client's shape), with the stack's name and
/// the client's `disable_rollback`.
fn dry_run_body(root: &Path, envs: &[PathBuf], name: &str) -> J {
    let mut body: J = serde_json::from_str(&client_body(root, envs)).unwrap();
    body["stack_name"] = J::from(name);
    body["disable_rollback"] = J::Bool(true);
    body
}

/// `POST /v1/{tenant}/stacks/preview` answers from the body alone what
/// `preview --format heat` prints for the same composition (which
/// tests/preview.rs finds equal to Heat 27's recorded answers,
/// tests/heat/preview/basic.json and corpus-2016.json), in the request's
/// context: the path's project, this server's address in `links`.
#[test]
fn heat_stack_preview_answers_what_the_cli_answers() {
    let s = Server::start_with(&[], &[EPOCH]);
    let basic = Path::new("fixtures/preview/basic");
    let (root_2016, mut envs_2016) = corpus_2016_deployment();
    envs_2016.push(PathBuf::from("fixtures/preview/passwords-2016.yaml"));
    let cases = [
        (
            basic.join("root.yaml"),
            vec![basic.join("env.yaml")],
            "root",
        ),
        (
            basic.join("root.yaml"),
            vec![basic.join("env.yaml")],
            "other-name",
        ),
        (root_2016, envs_2016, "overcloud"),
    ];
    for (root, envs, name) in &cases {
        let body = dry_run_body(root, envs, name).to_string();
        let a = s.post_json("/v1/heatcap/stacks/preview", body.as_bytes());
        assert_eq!(a.status, 200, "{}: {a:?}", root.display());
        let mut args = vec![
            "preview".to_owned(),
            "-t".to_owned(),
            root.display().to_string(),
            "--stack-name".to_owned(),
            (*name).to_owned(),
            "--format".to_owned(),
            "heat".to_owned(),
        ];
        for e in envs {
            args.extend(["-e".to_owned(), e.display().to_string()]);
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let ours = cli_at_epoch(&args);
        assert!(ours.starts_with("{\"stack\""), "{}", root.display());
        // The command ends its line; the API's body is the document alone.
        let got = a
            .body
            .replace("http://test/v1/", "http://localhost:8004/v1/")
            + "\n";
        assert!(
            got == ours,
            "{}: the answer differs from the command's",
            root.display()
        );
    }
    // Every answer fits the OpenAPI document's schema of it.
    let schema = openapi_schema("preview-heat");
    for (root, envs, name) in &cases {
        let body = dry_run_body(root, envs, name).to_string();
        let doc = s
            .post_json("/v1/heatcap/stacks/preview", body.as_bytes())
            .json();
        assert!(schema.is_valid(&doc), "{}", root.display());
    }
    // Another project: its name in the identities, links and
    // OS::project_id, as Heat's request context puts it.
    let body = dry_run_body(&basic.join("root.yaml"), &[basic.join("env.yaml")], "root");
    let doc = s
        .post_json("/v1/demo/stacks/preview", body.to_string().as_bytes())
        .json();
    assert_eq!(
        doc["stack"]["links"][0]["href"],
        "http://test/v1/demo/stacks/root/None"
    );
    assert_eq!(
        doc["stack"]["resources"][0]["stack_identity"]["tenant"],
        "demo"
    );
    // The stack's own arguments, as the engine keeps them.
    let mut with_args = body.clone();
    with_args["timeout_mins"] = J::from("30");
    with_args["tags"] = J::from("a,b");
    with_args["disable_rollback"] = J::from("False");
    let doc = s
        .post_json("/v1/demo/stacks/preview", with_args.to_string().as_bytes())
        .json();
    assert_eq!(doc["stack"]["timeout_mins"], 30);
    assert_eq!(doc["stack"]["tags"], serde_json::json!(["a", "b"]));
    assert_eq!(doc["stack"]["disable_rollback"], false);
}

/// Heat's refusals of a preview request, each its fault (class, status,
/// message) in Heat's order: the API's checks (heat/api/openstack/v1/
/// stacks.py `preview`, `prepare_args`, `InstantiationData`), then the
/// engine's (the template's version, the stack's name, heat/engine/
/// stack.py `_validate_stack_name`; `extract_args`), then the preview's
/// own (a parameter without a value, as `preview --format heat` prints
/// it; the template version, as tests/heat/preview/invalid-version.json
/// records it).
#[test]
fn heat_stack_preview_refusals() {
    let s = Server::start(&[]);
    let t = serde_json::json!({"heat_template_version": "2018-08-31",
        "parameters": {"x": {"type": "string"}},
        "resources": {"r": {"type": "OS::Heat::RandomString"}}});
    let post = |body: &J| s.post_json("/v1/demo/stacks/preview", body.to_string().as_bytes());
    let message = |a: &Answer| {
        a.json()["error"]["message"]
            .as_str()
            .unwrap_or_default()
            .to_owned()
    };
    let ok =
        serde_json::json!({"stack_name": "s", "template": t.clone(), "parameters": {"x": "v"}});
    assert_eq!(post(&ok).status, 200, "{:?}", post(&ok));
    let refused = [
        (serde_json::json!({"template": t.clone()}), 400, "HTTPBadRequest", "No stack name specified"),
        (serde_json::json!({"stack_name": "s"}), 400, "HTTPBadRequest", "No template specified"),
        (serde_json::json!({"stack_name": "s", "template": t.clone(), "timeout_mins": "x"}), 400, "HTTPBadRequest", "Only integer is acceptable by 'timeout_mins'."),
        (serde_json::json!({"stack_name": "s", "template": t.clone(), "timeout_mins": -1}), 400, "HTTPBadRequest", "Value '-1' is invalid for 'timeout_mins' which only accepts non-negative integer."),
        (serde_json::json!({"stack_name": "s", "template": t.clone(), "converge": true}), 400, "HTTPBadRequest", "converge flag only supported in stack update (or update preview) request."),
        (serde_json::json!({"stack_name": "1s", "template": t.clone(), "parameters": {"x": "v"}}), 400, "StackValidationFailed", "Invalid stack name 1s must contain only alphanumeric or \"_-.\" characters, must start with alpha and must be 255 characters or less."),
        (serde_json::json!({"stack_name": 5, "template": t.clone(), "parameters": {"x": "v"}}), 400, "StackValidationFailed", "Invalid stack name 5, must be a string"),
        (serde_json::json!({"stack_name": "s", "template": t.clone()}), 400, "UserParameterMissing", "The Parameter (x) was not provided."),
    ];
    for (body, status, kind, text) in &refused {
        let a = post(body);
        a.fault(*status, kind);
        assert_eq!(message(&a), *text, "{body}");
    }
    let a = post(
        &serde_json::json!({"stack_name": "s", "template": t.clone(), "parameters": {"x": "v"}, "disable_rollback": "maybe"}),
    );
    a.fault(400, "ValueError");
    // The template's version is checked before the stack's name.
    let recorded: J = serde_json::from_str(
        &std::fs::read_to_string("tests/heat/preview/invalid-version.json").unwrap(),
    )
    .unwrap();
    let template = std::fs::read_to_string("fixtures/heat/invalid-version/root.yaml").unwrap();
    let a = post(&serde_json::json!({"stack_name": "1s", "template": template}));
    a.fault(400, "InvalidTemplateVersion");
    assert_eq!(
        format!("InvalidTemplateVersion: {}", message(&a)),
        recorded["Error"].as_str().unwrap()
    );
    s.request("POST", "/v1/demo/stacks/preview", &[], b"")
        .fault(400, "HTTPBadRequest");
}
