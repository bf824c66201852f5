"""`heatcap lsp` driven by a real client: pytest-lsp (pygls), impersonating
the client capabilities it recorded from VS Code 1.65.2 (UTF-16 columns)
and Neovim 0.11.0 (which offers UTF-8). Run by .ci/lsp; HEATCAP names the
binary. Every expected answer comes from the CLI run on the same files
(`heatcap validate`, `heatcap resolve`, `heatcap parameters`) or from the
file's text, never written down here.
"""

import asyncio
import glob
import json
import os
import pathlib
import subprocess
import sys

import pytest
import pytest_lsp
from lsprotocol import types as t
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

ROOT = pathlib.Path(__file__).resolve().parents[2]
HEATCAP = os.environ.get("HEATCAP", str(ROOT / "target" / "debug" / "heatcap"))
CORPUS = ROOT / "fixtures" / "tripleo-heat-templates-2016"
# The deployment tests/heat_oracle.rs records (corpus_2016_deployment_matches_heat).
ENVIRONMENTS = [
    CORPUS / "overcloud-resource-registry-puppet.yaml",
    CORPUS / "environments" / "network-isolation.yaml",
    CORPUS / "environments" / "storage-environment.yaml",
    CORPUS / "environments" / "puppet-pacemaker.yaml",
]
CLIENTS = ["visual-studio-code@v1.65.2", "neovim@v0.11.0"]

# Fixture templates with findings: every rule's bad example, and non-ASCII text.
TEMPLATES = sorted(
    glob.glob(str(ROOT / "fixtures" / "rules" / "E*" / "bad.yaml"))
    + glob.glob(str(ROOT / "fixtures" / "rules" / "W*" / "bad.yaml"))
    + [str(ROOT / "fixtures" / "lsp" / "unicode.yaml")]
)


def heatcap(*args):
    run = subprocess.run(
        [HEATCAP, *args], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert run.returncode in (0, 1), run.stderr
    return json.loads(run.stdout)


@pytest_lsp.fixture(
    params=CLIENTS,
    config=ClientServerConfig(server_command=[HEATCAP, "lsp", "--no-config"]),
)
async def client(lsp_client: LanguageClient, request):
    result = await lsp_client.initialize_session(
        t.InitializeParams(
            capabilities=client_capabilities(request.param),
            root_uri=ROOT.as_uri(),
            initialization_options={"environments": [str(e) for e in ENVIRONMENTS]},
        )
    )
    lsp_client.position_encoding = result.capabilities.position_encoding or "utf-16"
    yield
    await lsp_client.shutdown_session()


def units(text, encoding):
    """The length of `text` in the encoding's code units."""
    if encoding == "utf-8":
        return len(text.encode("utf-8"))
    if encoding == "utf-32":
        return len(text)
    return len(text.encode("utf-16-le")) // 2


def lsp_position(lines, line, column, encoding):
    """heatcap's 1-based line and character column → the protocol's."""
    text = lines[line - 1] if line - 1 < len(lines) else ""
    chars = column - 1
    return (line - 1, units(text[:chars], encoding) + max(0, chars - len(text)))


async def opened(client, path, text=None):
    uri = pathlib.Path(path).as_uri()
    text = pathlib.Path(path).read_text() if text is None else text
    client.text_document_did_open(
        t.DidOpenTextDocumentParams(
            text_document=t.TextDocumentItem(
                uri=uri, language_id="yaml", version=1, text=text
            )
        )
    )
    await client.wait_for_notification(t.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    return uri


def server_encoding(client):
    """The position encoding the server chose for this client."""
    return client.position_encoding


@pytest.mark.asyncio(loop_scope="module")
async def test_diagnostics_on_open_equal_validate(client: LanguageClient):
    enc = server_encoding(client)
    checked = 0
    for path in TEMPLATES:
        expected = heatcap("validate", "--no-config", path, "--format", "json")
        lines = pathlib.Path(path).read_text().split("\n")
        def place(d):
            if "span" not in d:
                return (0, 0, 0, 0)
            s, e = d["span"]["start"], d["span"]["end"]
            return (
                *lsp_position(lines, s["line"], s["column"], enc),
                *lsp_position(lines, e["line"], e["column"], enc),
            )

        want = sorted(
            (d["code"], *place(d), d["message"])
            for d in expected["diagnostics"]
            if d["file"] == path
        )
        uri = await opened(client, path)
        got = sorted(
            (
                d.code,
                d.range.start.line,
                d.range.start.character,
                d.range.end.line,
                d.range.end.character,
                d.message,
            )
            for d in client.diagnostics[uri]
        )
        assert got == want, path
        checked += len(want)
    assert checked > 50


@pytest.mark.asyncio(loop_scope="module")
async def test_an_edit_that_fixes_a_finding_clears_it(client: LanguageClient):
    path = ROOT / "fixtures" / "lsp" / "unicode.yaml"
    text = path.read_text()
    uri = await opened(client, path, text)
    assert {d.code for d in client.diagnostics[uri]} == {"E3008", "E3011"}
    # The quick fix the server offers for the misspelt type, applied.
    e3008 = next(d for d in client.diagnostics[uri] if d.code == "E3008")
    actions = await client.text_document_code_action_async(
        t.CodeActionParams(
            text_document=t.TextDocumentIdentifier(uri=uri),
            range=e3008.range,
            context=t.CodeActionContext(diagnostics=[e3008]),
        )
    )
    edit = actions[0].edit.changes[uri][0]
    assert edit.new_text == "OS::Nova::Server"
    client.text_document_did_change(
        t.DidChangeTextDocumentParams(
            text_document=t.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[
                t.TextDocumentContentChangeWholeDocument(
                    text=text.replace("OS::Nova::Sever", "OS::Nova::Server").replace("nme:", "name:")
                )
            ],
        )
    )
    await client.wait_for_notification(t.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    assert list(client.diagnostics[uri]) == []


@pytest.mark.asyncio(loop_scope="module")
async def test_a_half_typed_buffer_keeps_the_server_up(client: LanguageClient):
    path = ROOT / "fixtures" / "lsp" / "unicode.yaml"
    uri = await opened(client, path, "heat_template_version: 2016-10-14\nresources:\n  a: {type: [\n")
    assert any(d.severity == t.DiagnosticSeverity.Error for d in client.diagnostics[uri])
    hover = await client.text_document_hover_async(
        t.HoverParams(text_document=t.TextDocumentIdentifier(uri=uri), position=t.Position(line=2, character=5))
    )
    assert hover is None


@pytest.mark.asyncio(loop_scope="module")
async def test_completion_at_a_property_lists_the_types_properties(client: LanguageClient):
    path = ROOT / "fixtures" / "lsp" / "unicode.yaml"
    text = path.read_text().replace("      network: private\n", "      network: private\n      \n")
    uri = await opened(client, path, text)
    line = text.split("\n").index("      ")
    items = await client.text_document_completion_async(
        t.CompletionParams(
            text_document=t.TextDocumentIdentifier(uri=uri), position=t.Position(line=line, character=6)
        )
    )
    labels = {i.label for i in items.items}
    shown = heatcap("resource-type", "show", "OS::Neutron::Port", "--format", "json")
    # Heat still lists its hidden properties; they are not proposed.
    properties = {
        p for p, s in shown["properties"].items() if s.get("support_status", {}).get("status") != "HIDDEN"
    }
    assert properties and properties <= labels, properties - labels


@pytest.mark.asyncio(loop_scope="module")
async def test_definition_of_a_registry_type_goes_to_the_template_picked(client: LanguageClient):
    path = CORPUS / "overcloud.yaml"
    text = path.read_text()
    uri = await opened(client, path, text)
    lines = text.split("\n")
    line = next(i for i, l in enumerate(lines) if l.strip() == "type: OS::TripleO::Controller")
    character = units(lines[line][: lines[line].index("OS::")], server_encoding(client)) + 3
    found = await client.text_document_definition_async(
        t.DefinitionParams(
            text_document=t.TextDocumentIdentifier(uri=uri), position=t.Position(line=line, character=character)
        )
    )
    envs = [a for e in ENVIRONMENTS for a in ("-e", str(e))]
    resolved = heatcap("resolve", "-t", str(path), *envs, "--type", "OS::TripleO::Controller", "--format", "json")
    picked = resolved["resolutions"][0]["implementation"]["template"]
    assert [pathlib.Path(l.uri.removeprefix("file://")) for l in found] == [
        pathlib.Path(os.path.normpath(ROOT / picked))
    ]


@pytest.mark.asyncio(loop_scope="module")
async def test_hover_on_a_parameter_shows_its_effective_value_and_where(client: LanguageClient):
    path = CORPUS / "overcloud.yaml"
    text = path.read_text()
    uri = await opened(client, path, text)
    lines = text.split("\n")
    line = next(i for i, l in enumerate(lines) if "{get_param: GnocchiBackend}" in l)
    character = lines[line].index("GnocchiBackend}") + 2
    hover = await client.text_document_hover_async(
        t.HoverParams(text_document=t.TextDocumentIdentifier(uri=uri), position=t.Position(line=line, character=character))
    )
    envs = [a for e in ENVIRONMENTS for a in ("-e", str(e))]
    report = heatcap("parameters", "-t", str(path), *envs, "--format", "json")
    value = next(
        v["value"] for v in report["parameters"]["GnocchiBackend"]["values"] if v["source"] == "parameter_defaults"
    )
    env = CORPUS / "environments" / "storage-environment.yaml"
    set_at = next(i + 1 for i, l in enumerate(env.read_text().split("\n")) if l.strip().startswith("GnocchiBackend:"))
    md = hover.contents.value
    assert f"**Effective value**: `{json.dumps(value)}`" in md, md
    assert f"storage-environment.yaml:{set_at}` (parameter_defaults)" in md, md


COMPOSE = ROOT / "fixtures" / "lsp" / "compose"


def without_parameter(text, name):
    """The template `text` without the declaration of parameter `name`."""
    out, skip = [], False
    for line in text.split("\n"):
        if line.startswith("  ") and not line.startswith("   "):
            skip = line == f"  {name}:"
        elif not line.startswith(" "):
            skip = False
        if not skip:
            out.append(line)
    return "\n".join(out)


async def published(client, uri, timeout=30):
    """The next diagnostics published for `uri` (read from the client's
    record of them: two notifications may arrive together)."""
    before = client.diagnostics.get(uri)

    async def wait():
        while client.diagnostics.get(uri) is before:
            await asyncio.sleep(0.02)
        return client.diagnostics[uri]

    return await asyncio.wait_for(wait(), timeout)


@pytest.mark.asyncio(loop_scope="module")
async def test_an_unsaved_edit_that_breaks_the_composition_is_found_when_typing_pauses(
    client: LanguageClient, tmp_path
):
    client.workspace_did_change_configuration(
        t.DidChangeConfigurationParams(
            settings={"heatcap": {"environments": [str(COMPOSE / "env.yaml")], "template": str(COMPOSE / "root.yaml")}}
        )
    )
    app, root = COMPOSE / "app.yaml", COMPOSE / "root.yaml"
    text = app.read_text()
    broken = without_parameter(text, "size")
    # What `heatcap validate -e` says of the same files on disk.
    for f in ("root.yaml", "env.yaml"):
        (tmp_path / f).write_text((COMPOSE / f).read_text())
    (tmp_path / "app.yaml").write_text(broken)
    report = heatcap("validate", "--no-config", "-e", str(tmp_path / "env.yaml"), str(tmp_path / "root.yaml"), "--format", "json")
    want = sorted(
        (d["code"], d["span"]["start"]["line"] - 1, d["message"].replace(str(tmp_path) + "/", ""))
        for d in report["diagnostics"]
        if d["file"] == str(tmp_path / "root.yaml")
    )
    assert [w[0] for w in want] == ["E7007"], want
    uri = await opened(client, app, text)
    client.text_document_did_change(
        t.DidChangeTextDocumentParams(
            text_document=t.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[t.TextDocumentContentChangeWholeDocument(text=broken)],
        )
    )
    # No save: the composition is checked when typing pauses.
    found = await published(client, root.as_uri())
    got = sorted(
        (d.code, d.range.start.line, d.message.replace(str(COMPOSE) + "/", "")) for d in found
    )
    assert got == want
    client.text_document_did_change(
        t.DidChangeTextDocumentParams(
            text_document=t.VersionedTextDocumentIdentifier(uri=uri, version=3),
            content_changes=[t.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )
    assert list(await published(client, root.as_uri())) == []


async def labels_at(client, uri, line, character):
    items = await client.text_document_completion_async(
        t.CompletionParams(
            text_document=t.TextDocumentIdentifier(uri=uri), position=t.Position(line=line, character=character)
        )
    )
    return [i.label for i in items.items]


@pytest.mark.asyncio(loop_scope="module")
async def test_registry_keys_and_targets_are_completed_in_an_environment(client: LanguageClient):
    env = CORPUS / "environments" / "network-isolation.yaml"
    text = env.read_text()
    lines = text.split("\n")
    # A new key: the types the deployment looks up (`heatcap resolve`) are proposed.
    at = lines.index("resource_registry:") + 1
    edited = "\n".join(lines[:at] + ["  "] + lines[at:])
    uri = await opened(client, env, edited)
    keys = await labels_at(client, uri, at, 2)
    envs = [a for e in ENVIRONMENTS for a in ("-e", str(e))]
    resolved = heatcap("resolve", "-t", str(CORPUS / "overcloud.yaml"), *envs, "--format", "json")
    looked_up = {r["type"] for r in resolved["resolutions"] if "::" in r["type"]}
    assert "OS::TripleO::Controller" in looked_up
    assert looked_up <= set(keys), looked_up - set(keys)
    # Targets: each template the file maps a type to (a path relative to
    # the environment, as Heat resolves it) is proposed, and OS::Heat::None.
    uri = await opened(client, env, text)
    checked = 0
    for i, l in enumerate(lines):
        key, _, target = l.strip().partition(": ")
        if not key.startswith("OS::") or not target.endswith(".yaml"):
            continue
        if not (env.parent / target).is_file():
            continue
        targets = await labels_at(client, uri, i, units(l, server_encoding(client)))
        assert target in targets and "OS::Heat::None" in targets, (target, targets[:20])
        checked += 1
    assert checked >= 10


@pytest.mark.asyncio(loop_scope="module")
async def test_hover_on_a_nested_parameter_shows_the_parents_property(client: LanguageClient):
    overcloud = CORPUS / "overcloud.yaml"
    client.workspace_did_change_configuration(
        t.DidChangeConfigurationParams(settings={"heatcap": {"template": str(overcloud)}})
    )
    path = CORPUS / "puppet" / "controller.yaml"
    text = path.read_text()
    uri = await opened(client, path, text)
    lines = text.split("\n")
    name = "CinderEnableRbdBackend"
    line = lines.index(f"  {name}:")
    hover = await client.text_document_hover_async(
        t.HoverParams(text_document=t.TextDocumentIdentifier(uri=uri), position=t.Position(line=line, character=4))
    )
    envs = [a for e in ENVIRONMENTS for a in ("-e", str(e))]
    report = heatcap("parameters", "-t", str(overcloud), *envs, "--format", "json")
    # The controller is a member of the group `Controller` in overcloud.yaml.
    stack = next(
        s["id"]
        for g in report["tree"]["children"]
        for s in g.get("children", [])
        if s.get("template", "").endswith("puppet/controller.yaml") and g.get("name") == "Controller"
    )
    supplied = next(v for v in report["parameters"][name]["values"] if v["stack"] == stack)
    assert supplied["source"] == "property"
    # Where overcloud.yaml's `Controller` passes it (its resource_def's properties).
    olines = overcloud.read_text().split("\n")
    group = olines.index("  Controller:")
    set_at = next(i + 1 for i, l in enumerate(olines) if i > group and l.strip().startswith(f"{name}:"))
    md = hover.contents.value
    assert f"**Effective value**: `{json.dumps(supplied['value'])}`" in md, md
    assert f"overcloud.yaml:{set_at}` (property of resource `Controller`, stack `{stack}`)" in md, md
