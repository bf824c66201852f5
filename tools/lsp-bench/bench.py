#!/usr/bin/env python3
"""Latency of `heatcap lsp`, measured from a client (standard library only).

    python3 tools/lsp-bench/bench.py [--heatcap target/release/heatcap]
        [--tree /work/tht-rendered/13d0057c] [--runs 50] [--no-pause]

In a rendered tripleo-heat-templates tree (default: the 2018 one) it opens
`common/post.yaml` (2,964 lines) and measures, as the client sees them
(request sent → answer read, pipe and JSON included):

- diagnostics after an edit: `didChange` → the `publishDiagnostics` of
  that version;
- completion, hover and definition at fixed places of `overcloud.yaml`
  (a property, a `get_param`, a registry type);
- composition findings after a save of `overcloud.yaml`, with
  `overcloud-resource-registry-puppet.yaml`: `didSave` → the answer to a
  request sent right after it (the server handles messages in order, so
  that answer comes after every finding the save published);
- hover on a parameter of `common/post.yaml` (which `overcloud.yaml`
  instantiates): the first evaluates the composition, the others reuse it;
- completion of a registry target in `environments/network-isolation.yaml`
  (the first reads the tree's templates, the others reuse them);
- composition findings when typing pauses: an unsaved edit of
  `overcloud.yaml` → its second `publishDiagnostics` of that version (the
  first is the buffer's own findings, the second comes with the
  composition's, checked on a thread after the pause, 500 ms by default);
  printed with and without the pause.

`--no-pause` starts the server with `compositionPause: false` (the
composition on save only; the figure "when typing pauses" then fails).
Prints p50/p95/max in milliseconds; docs/performance.md records a run.
Not a test: the machine decides the figures.
"""

import argparse
import json
import pathlib
import statistics
import subprocess
import time


class Server:
    def __init__(self, heatcap, cwd, init_options):
        self.p = subprocess.Popen(
            [heatcap, "lsp", "--no-config"],
            cwd=cwd,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        )
        self.next = 1
        self.request("initialize", {"capabilities": {}, "initializationOptions": init_options})
        self.notify("initialized", {})

    def send(self, obj):
        body = json.dumps(obj).encode()
        self.p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.p.stdin.flush()

    def read(self):
        length = None
        while True:
            line = self.p.stdout.readline()
            if line in (b"\r\n", b""):
                break
            name, _, value = line.decode().partition(":")
            if name.lower() == "content-length":
                length = int(value)
        return json.loads(self.p.stdout.read(length))

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method, params):
        rid = self.next
        self.next += 1
        self.send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        while True:
            m = self.read()
            if m.get("id") == rid:
                return m.get("result")

    def diagnostics(self, uri, version):
        while True:
            m = self.read()
            p = m.get("params", {})
            if m.get("method") == "textDocument/publishDiagnostics" and p.get("uri") == uri and p.get("version") == version:
                return p["diagnostics"]

    def stop(self):
        self.request("shutdown", None)
        self.notify("exit", None)
        self.p.wait(timeout=10)


def figures(name, samples):
    ms = sorted(s * 1000 for s in samples)
    p95 = ms[min(len(ms) - 1, int(round(0.95 * (len(ms) - 1))))]
    print(f"{name:<44} n={len(ms):<4} p50={statistics.median(ms):7.1f} ms  p95={p95:7.1f} ms  max={ms[-1]:7.1f} ms")


def position(lines, needle, offset=0):
    line = next(i for i, l in enumerate(lines) if needle in l)
    return {"line": line, "character": lines[line].index(needle) + offset}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--heatcap", default="target/release/heatcap")
    ap.add_argument("--tree", default="/work/tht-rendered/13d0057c")
    ap.add_argument("--runs", type=int, default=50)
    ap.add_argument("--no-pause", action="store_true")
    a = ap.parse_args()
    heatcap = str(pathlib.Path(a.heatcap).resolve())
    tree = pathlib.Path(a.tree).resolve()
    overcloud = tree / "overcloud.yaml"
    registry = tree / "overcloud-resource-registry-puppet.yaml"
    big = tree / "common" / "post.yaml"

    s = Server(heatcap, tree, {"environments": [str(registry)], "template": str(overcloud), **({"compositionPause": False} if a.no_pause else {})})
    # Diagnostics after an edit of a 3,000-line template.
    text = big.read_text()
    uri = big.as_uri()
    s.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": text}})
    s.diagnostics(uri, 1)
    samples = []
    for v in range(2, a.runs + 2):
        edited = text + f"# edit {v}\n"
        t0 = time.perf_counter()
        s.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": v}, "contentChanges": [{"text": edited}]})
        s.diagnostics(uri, v)
        samples.append(time.perf_counter() - t0)
    figures(f"diagnostics after an edit ({len(text.splitlines())} lines)", samples)

    # Interactive requests in overcloud.yaml.
    otext = overcloud.read_text()
    ouri = overcloud.as_uri()
    s.notify("textDocument/didOpen", {"textDocument": {"uri": ouri, "languageId": "yaml", "version": 1, "text": otext}})
    s.diagnostics(ouri, 1)
    lines = otext.split("\n")
    doc = {"uri": ouri}
    get_param = position(lines, "{get_param: ", len("{get_param: ") + 2)
    at = next(i for i, l in enumerate(lines) if l.strip() == "type: OS::TripleO::Controller")
    registry_type = {"line": at, "character": lines[at].index("OS::") + 4}
    prop_line = next(i for i, l in enumerate(lines) if l.strip() == "properties:" and i > registry_type["line"])
    prop = {"line": prop_line + 1, "character": len(lines[prop_line + 1]) - len(lines[prop_line + 1].lstrip())}
    for name, method, pos in [
        ("completion (property names)", "textDocument/completion", prop),
        ("hover (get_param: effective value)", "textDocument/hover", get_param),
        ("definition (registry type → template)", "textDocument/definition", registry_type),
    ]:
        samples = []
        for _ in range(a.runs):
            t0 = time.perf_counter()
            result = s.request(method, {"textDocument": doc, "position": pos})
            samples.append(time.perf_counter() - t0)
        assert result, (name, result)
        figures(name, samples)

    # Hover on a parameter of a nested template (common/post.yaml, which
    # overcloud.yaml instantiates): the first evaluates the composition as
    # `heatcap parameters` does; the others reuse it.
    blines = text.split("\n")
    nested = {"line": blines.index("  stack_name:"), "character": 4}
    samples = []
    for _ in range(a.runs):
        t0 = time.perf_counter()
        result = s.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": nested})
        samples.append(time.perf_counter() - t0)
    assert result and "property of resource" in result["contents"]["value"], result
    print(f"hover (nested parameter): the first {samples[0] * 1000:.1f} ms (evaluation), then:")
    figures("  hover (nested parameter → parent's property)", samples[1:])

    # Completion of a registry target in an environment: the project's
    # templates are read at the first, then kept until a save.
    env = tree / "environments" / "network-isolation.yaml"
    etext = env.read_text()
    elines = etext.split("\n")
    euri = env.as_uri()
    s.notify("textDocument/didOpen", {"textDocument": {"uri": euri, "languageId": "yaml", "version": 1, "text": etext}})
    at = next(i for i, l in enumerate(elines) if l.startswith("  OS::TripleO::") and l.endswith(".yaml"))
    target = {"line": at, "character": len(elines[at])}
    samples = []
    for _ in range(a.runs):
        t0 = time.perf_counter()
        result = s.request("textDocument/completion", {"textDocument": {"uri": euri}, "position": target})
        samples.append(time.perf_counter() - t0)
    assert elines[at].split(": ")[1] in {i["label"] for i in result["items"]}, elines[at]
    print(f"registry targets: the first {samples[0] * 1000:.1f} ms (reads the tree), then:")
    figures(f"  completion of a registry target ({len(result['items'])} items)", samples[1:])

    # Composition findings after a save.
    samples = []
    for _ in range(max(3, a.runs // 10)):
        t0 = time.perf_counter()
        s.notify("textDocument/didSave", {"textDocument": {"uri": ouri}})
        s.request("textDocument/documentSymbol", {"textDocument": doc})
        samples.append(time.perf_counter() - t0)
    figures("composition findings after a save", samples)

    # Composition findings when typing pauses (no save).
    pause = 0.5
    samples = []
    for v in range(2, 2 + max(3, a.runs // 10)):
        t0 = time.perf_counter()
        s.notify("textDocument/didChange", {"textDocument": {"uri": ouri, "version": v}, "contentChanges": [{"text": otext + f"# edit {v}\n"}]})
        s.diagnostics(ouri, v)
        s.diagnostics(ouri, v)
        samples.append(time.perf_counter() - t0)
    figures("composition findings when typing pauses", samples)
    figures("  the same, less the 500 ms pause", [x - pause for x in samples])
    s.stop()


if __name__ == "__main__":
    main()
