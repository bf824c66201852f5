"""The wheel, installed with the OpenStack client: the spec's examples through
``openstack orchestration template capabilities find|summary``, with no
cloud and no OS_* variables, answer what the ``heatcap`` CLI answers.

Run by .ci/python in a fresh virtual environment holding the wheel and
tests/python/requirements.txt; the ``openstack`` and ``heatcap`` commands are
the ones pip installed beside this interpreter.
"""

import importlib.metadata
import json
import os
import subprocess
import sysconfig
import tomllib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SPEC = REPO / "fixtures" / "spec"
SCRIPTS = Path(sysconfig.get_path("scripts"))
HEATCAP = str(SCRIPTS / "heatcap")
OPENSTACK = str(SCRIPTS / "openstack")
FIND = [OPENSTACK, "orchestration", "template", "capabilities", "find"]
SUMMARY = [OPENSTACK, "orchestration", "template", "capabilities", "summary"]


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    """The caller's environment without any OS_* variable nor clouds.yaml."""
    home = tmp_path_factory.mktemp("home")
    clean = {k: v for k, v in os.environ.items() if not k.startswith("OS_")}
    clean.pop("XDG_CONFIG_HOME", None)
    clean.update(HOME=str(home), COLUMNS="200")
    return clean


def run(argv, env, cwd=SPEC):
    assert not [k for k in env if k.startswith("OS_")]
    return subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, check=False)


def plugin_json(argv, env, cwd=SPEC):
    """The plugin's `-f json` listing, and its exit status."""
    proc = run([*argv, "-f", "json"], env, cwd)
    assert proc.returncode in (0, 1), proc.stderr
    return proc.returncode, json.loads(proc.stdout)


def test_the_wheel_carries_cargo_tomls_version(env):
    version = tomllib.loads((REPO / "Cargo.toml").read_text())["package"]["version"]
    assert importlib.metadata.version("heatcap") == version
    assert run([HEATCAP, "--version"], env).stdout == f"heatcap {version}\n"


def test_authenticated_commands_fail_here(env):
    # The environment really has no credentials: python-heatclient's own
    # commands, which talk to Heat, refuse to run in it; ours run.
    proc = run([OPENSTACK, "orchestration", "template", "version", "list"], env)
    assert proc.returncode != 0
    assert "auth" in proc.stderr.lower()


def test_find_answers_the_specs_example_as_the_cli_does(env):
    # capabilities.md §3: heatcap capabilities-find -r -c resource_type=OS::TripleO::Controller ./*
    paths = sorted(p.name for p in SPEC.iterdir())
    paths = [f"./{name}" for name in paths]
    condition = ["-r", "-c", "resource_type=OS::TripleO::Controller"]
    cli = run([HEATCAP, "capabilities-find", *condition, *paths], env)
    assert cli.returncode == 0, cli.stderr
    # The spec's answer (order aside: heatcap walks in sorted order).
    assert sorted(line.removeprefix("./") for line in cli.stdout.splitlines()) == [
        "docker/controller.yaml",
        "puppet/controller.yaml",
    ]
    # The plugin's plain listing is heatcap's, line for line.
    plain = run([*FIND, *condition, *paths, "-f", "value", "-c", "Path"], env)
    assert plain.returncode == 0, plain.stderr
    assert plain.stdout == cli.stdout
    # Its JSON carries heatcap's JSON: every match with its capabilities.
    cli_json = json.loads(run([HEATCAP, "capabilities-find", "--format", "json", *condition, *paths], env).stdout)
    status, rows = plugin_json([*FIND, *condition, *paths], env)
    assert status == 0
    assert [
        {"path": r["Path"], "capabilities": r["Capabilities"]}
        | ({"inferred": r["Inferred from"]} if r["Inferred from"] is not None else {})
        for r in rows
    ] == cli_json
    # The environment maps the type to both: each says where it was inferred from.
    assert all(r["Inferred from"] for r in rows)
    assert [m["capabilities"]["deployment"] for m in cli_json] == ["docker", "puppet"]


def test_find_table_shows_paths_and_capabilities(env):
    proc = run([*FIND, "-r", "-c", "deployment=puppet", "."], env)
    assert proc.returncode == 0, proc.stderr
    assert "./puppet/controller.yaml" in proc.stdout
    assert "deployment=puppet" in proc.stdout
    assert "docker" not in proc.stdout


def test_find_nothing_matched_exits_1_as_heatcap_does(env):
    condition = ["-r", "-c", "deployment=ansible", "."]
    assert run([HEATCAP, "capabilities-find", *condition], env).returncode == 1
    assert plugin_json([*FIND, *condition], env) == (1, [])


def test_find_keeps_going_past_broken_files_as_heatcap_does(env):
    # fixtures/overcloud/broken/ is broken on purpose: the same matches, the
    # same diagnostics on stderr, from both.
    condition = ["-r", "-c", "resource_type=OS::TripleO::Controller", "fixtures/overcloud"]
    cli = run([HEATCAP, "capabilities-find", *condition], env, cwd=REPO)
    plugin = run([*FIND, *condition, "-f", "value", "-c", "Path"], env, cwd=REPO)
    assert (plugin.returncode, plugin.stdout) == (cli.returncode, cli.stdout)
    assert len(cli.stdout.splitlines()) == 4
    diagnostics = [line for line in cli.stderr.splitlines() if "fixtures/overcloud/broken/" in line]
    assert diagnostics
    assert all(line in plugin.stderr.splitlines() for line in diagnostics)
    # The client's -q is heatcap's: the same answer, no diagnostics.
    quiet = run([OPENSTACK, "-q", *FIND[1:], *condition, "-f", "value", "-c", "Path"], env, cwd=REPO)
    assert (quiet.returncode, quiet.stdout) == (cli.returncode, cli.stdout)
    assert "fixtures/overcloud/broken/" not in quiet.stderr


def test_a_refusal_is_an_error(env):
    # An empty key is a usage error for heatcap (exit 2): the plugin fails too.
    proc = run([*FIND, "--capability", "=puppet", "."], env)
    assert proc.returncode != 0
    assert "heatcap capabilities-find exited 2" in proc.stderr


@pytest.mark.parametrize(
    ("flags", "spec_answer"),
    [
        # capabilities.md §3, both examples.
        ([], {"deployment": ["puppet", "docker"]}),
        (["--by-type"], {"OS::TripleO::Controller": ["puppet/controller.yaml", "docker/controller.yaml"]}),
    ],
)
def test_summary_answers_the_specs_examples_as_the_cli_does(env, flags, spec_answer):
    files = ["-f", "puppet/controller.yaml", "-f", "docker/controller.yaml"]
    cli = run([HEATCAP, "template-capabilities", *flags, *files], env)
    assert cli.returncode == 0, cli.stderr
    assert json.loads(cli.stdout) == spec_answer
    status, rows = plugin_json([*SUMMARY, *flags, *files], env)
    assert status == 0
    key, values = ("Resource type", "Templates") if flags else ("Capability", "Values")
    answer = {r[key]: r[values] for r in rows}
    assert answer == spec_answer
    assert list(answer) == list(spec_answer)


def test_summary_of_an_environment_is_the_clis(env):
    cli = run([HEATCAP, "template-capabilities", "--by-type", "-e", "environment.yaml"], env)
    status, rows = plugin_json([*SUMMARY, "--by-type", "-e", "environment.yaml"], env)
    assert status == cli.returncode == 0
    assert {r["Resource type"]: r["Templates"] for r in rows} == json.loads(cli.stdout)
    assert rows


def test_f_is_a_file_or_a_format_c_a_condition_or_a_column(env):
    # -f yaml is cliff's format, -f FILE a template; -c Values a column.
    proc = run(
        [*SUMMARY, "-f", "puppet/controller.yaml", "-f", "yaml", "-c", "Values", "--file", "docker/controller.yaml"],
        env,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "- Values:\n  - puppet\n  - docker\n"


OPTIONS = [OPENSTACK, "orchestration", "template", "capabilities", "options"]
RESOLVE = [OPENSTACK, "orchestration", "template", "capabilities", "resolve"]
OVERCLOUD = REPO / "fixtures" / "overcloud"
# tests/cmd/options-overcloud-plain-with-broken-dir.toml: every status
# (chosen, excluded, not listed, mapped), per-resource entries, a type as a
# candidate, a broken directory scanned.
OVERCLOUD_ENVS = [
    "-e", "environments/overcloud-resource-registry-puppet.yaml",
    "-e", "environments/puppet-bond-with-vlans.yaml",
]


def test_options_answers_as_the_cli_does(env):
    args = [*OVERCLOUD_ENVS, "-r", "."]
    plain = run([HEATCAP, "options", "--format", "plain", *args], env, cwd=OVERCLOUD)
    cli = json.loads(run([HEATCAP, "options", "--format", "json", *args], env, cwd=OVERCLOUD).stdout)
    status, rows = plugin_json([*OPTIONS, *args], env, cwd=OVERCLOUD)
    assert status == plain.returncode == 1  # heatcap's: a file could not be read
    # Type [resource], candidate and "Now": heatcap's plain lines.
    shown = [
        "\t".join([r["Type"] + (f" [{r['Resource']}]" if r["Resource"] else ""), r["Candidate"], r["Now"]])
        for r in rows
    ]
    assert shown == ["\t".join(line.split("\t")[:3]) for line in plain.stdout.splitlines()]
    assert {"chosen", "excluded", "not listed", "mapped", ""} == {r["Now"] for r in rows}
    # Capabilities and selectors: heatcap's JSON values.
    candidates = [c for choice in cli["choices"] for c in choice["selection"]["candidates"]]
    assert [r["Select with"] for r in rows] == [c.get("selected_by") for c in candidates]
    assert [r["Capabilities"] for r in rows] == [c["capabilities"] or {} for c in candidates]


def test_options_of_the_spec_environment(env):
    status, rows = plugin_json([*OPTIONS, "-e", "environment.yaml"], env)
    assert status == 0
    assert [(r["Candidate"], r["Now"], r["Select with"]) for r in rows] == [
        ("puppet/controller.yaml", "chosen", {"deployment": "puppet"}),
        ("docker/controller.yaml", "", {"deployment": "docker"}),
    ]


def test_resolve_answers_as_the_cli_does(env):
    cli = json.loads(run([HEATCAP, "resolve", "--format", "json", *OVERCLOUD_ENVS], env, cwd=OVERCLOUD).stdout)
    status, rows = plugin_json([*RESOLVE, *OVERCLOUD_ENVS], env, cwd=OVERCLOUD)
    assert status == 0
    expected = []
    for lookup in cli["resolutions"]:
        implementation = lookup["implementation"] or {}
        expected.append([lookup["type"], lookup.get("resource"), implementation.get("template") or implementation.get("plugin")])
    assert [[r["Type"], r["Resource"], r["Implementation"]] for r in rows] == expected
    assert ["OS::TripleO::ComputePostDeployment", "ComputeNodesPostDeployment", "puppet/compute-post.yaml"] in expected
    # The spec's environment picks puppet (capabilities.md §2).
    status, rows = plugin_json([*RESOLVE, "-e", "environment.yaml"], env)
    assert (status, [(r["Type"], r["Implementation"], r["Error"]) for r in rows]) == (
        0,
        [("OS::TripleO::Controller", "puppet/controller.yaml", None)],
    )


def test_resolve_an_undecided_choice_exits_1_with_its_error(env):
    args = ["-e", "environments/ambiguous-deployment.yaml"]
    cli = run([HEATCAP, "resolve", "--format", "json", *args], env, cwd=OVERCLOUD)
    status, rows = plugin_json([*RESOLVE, *args], env, cwd=OVERCLOUD)
    assert status == cli.returncode == 1
    errors = [r["Error"] for r in rows if r["Error"]]
    assert errors
    assert errors == [x["error"]["error"] for x in json.loads(cli.stdout)["resolutions"] if "error" in x]


def test_the_readmes_examples(env):
    # README.md, "In the OpenStack client": each `$ openstack ...` line run
    # by a shell in fixtures/spec prints the lines under it.
    readme = (REPO / "README.md").read_text()
    section = readme.split("## In the OpenStack client", 1)[1].split("\n## ", 1)[0]
    block = section.split("```\n$ cd fixtures/spec\n", 1)[1].split("```", 1)[0]
    examples = []
    for line in block.splitlines():
        if line.startswith("$ "):
            examples.append((line[2:], []))
        else:
            examples[-1][1].append(line)
    assert len(examples) == 2
    path = {**env, "PATH": f"{SCRIPTS}{os.pathsep}{env['PATH']}"}
    for command, expected in examples:
        proc = subprocess.run(["bash", "-c", command], cwd=SPEC, env=path, capture_output=True, text=True, check=False)
        assert (proc.returncode, proc.stdout) == (0, "".join(f"{x}\n" for x in expected)), command


PARAMETERS = [OPENSTACK, "orchestration", "template", "capabilities", "parameters"]


@pytest.mark.parametrize("choose", [[], ["--choose", "OS::TripleO::Controller=docker/controller.yaml"]])
def test_parameters_answers_as_the_cli_does(env, choose):
    # tests/cmd/parameters-overcloud*.toml's composition, and a UI's pick.
    args = ["-t", "overcloud.yaml", *OVERCLOUD_ENVS, "-e", "environments/network-environment.yaml", *choose]
    plain = run([HEATCAP, "parameters", "--format", "plain", *args], env, cwd=OVERCLOUD)
    cli = json.loads(run([HEATCAP, "parameters", "--format", "json", *args], env, cwd=OVERCLOUD).stdout)
    status, rows = plugin_json([*PARAMETERS, *args], env, cwd=OVERCLOUD)
    assert status == plain.returncode
    # heatcap's plain lines: name, required or supplied, declaring stacks.
    shown = [
        f"{r['Parameter']}\t{'required' if r['Required in'] else 'supplied'}\t{','.join(r['Declared by'])}"
        for r in rows
    ]
    assert shown == plain.stdout.splitlines()
    assert [r["Values"] for r in rows] == [p["values"] for p in cli["parameters"].values()]
    assert [r["Parameter"] for r in rows if r["Required in"]] == cli["required"]
    assert any(r["Hidden"] for r in rows)


def test_parameters_masks_hidden_values_in_tables(env):
    # As heatcap's table does; JSON and YAML carry heatcap's JSON, values included.
    args = ["-t", "overcloud.yaml", *OVERCLOUD_ENVS]
    table = run([*PARAMETERS, *args, "-c", "Parameter", "-c", "Values"], env, cwd=OVERCLOUD)
    status, rows = plugin_json([*PARAMETERS, *args], env, cwd=OVERCLOUD)
    hidden = [r for r in rows if r["Hidden"] and r["Values"]]
    assert hidden
    for r in hidden:
        line = next(x for x in table.stdout.splitlines() if x.startswith(f"| {r['Parameter']} "))
        assert "******" in line
        assert all(str(v["value"]) not in line for v in r["Values"] if v["value"])
    shown = [r for r in rows if not r["Hidden"] and r["Values"]]
    line = next(x for x in table.stdout.splitlines() if x.startswith(f"| {shown[0]['Parameter']} "))
    assert "******" not in line


# Every command of the plugin, for the format tests below: its command line
# and the directory it runs in.
EVERY_COMMAND = {
    "find": ([*FIND, "-r", "-c", "deployment=puppet", "."], OVERCLOUD),
    "summary": ([*SUMMARY, "-f", "puppet/controller.yaml", "-f", "docker/controller.yaml"], SPEC),
    "summary --by-type": ([*SUMMARY, "--by-type", "-e", "environment.yaml"], SPEC),
    "options": ([*OPTIONS, *OVERCLOUD_ENVS, "-r", "."], OVERCLOUD),
    "resolve": ([*RESOLVE, *OVERCLOUD_ENVS], OVERCLOUD),
    "parameters": ([*PARAMETERS, "-t", "overcloud.yaml", *OVERCLOUD_ENVS], OVERCLOUD),
}
# Cells whose null the table shows as `-`. A plain null (no resource, no
# error) is cliff's own: `None` in the table and `-f value`, an empty field
# in `-f csv`, as in the OpenStack client's own commands.
DASH_WHEN_NULL = {"Inferred from", "Select with"}


def plain_cell(column, value, hidden, fmt):
    """What `-f value` and `-f csv` must print for the `-f json` cell `value`:
    JSON text where it is structured (a hidden parameter's values masked, as
    the table masks them), otherwise the table's text."""
    if isinstance(value, (list, dict)):
        if column == "Values" and hidden:
            value = [{**v, "value": "******"} for v in value]
        return json.dumps(value, ensure_ascii=False)
    if value is None:
        if column in DASH_WHEN_NULL:
            return "-"
        return "" if fmt == "csv" else "None"
    return str(value)


@pytest.mark.parametrize("command", sorted(EVERY_COMMAND))
def test_every_format_carries_plain_values(env, command):
    # issue 29 item 4: `-f value` and `-f csv` printed Python reprs
    # (`[{'stack': 'root', ...}]`) of structured columns.
    import csv
    import io

    import yaml

    argv, cwd = EVERY_COMMAND[command]
    status, rows = plugin_json(argv, env, cwd)
    assert rows
    outputs = {}
    for fmt in ("table", "value", "csv", "yaml", "json"):
        proc = run([*argv, "-f", fmt], env, cwd)
        assert proc.returncode == status, (fmt, proc.stderr)
        for repr_mark in ("{'", "['", "': ", "', '"):
            assert repr_mark not in proc.stdout, (fmt, repr_mark)
        outputs[fmt] = proc.stdout
    # YAML carries what JSON carries.
    assert yaml.safe_load(outputs["yaml"]) == rows
    # csv: a heading, then each row's cells as plain text.
    table = list(csv.reader(io.StringIO(outputs["csv"])))
    columns = table[0]
    assert columns == list(rows[0])
    def expected(fmt):
        return [[plain_cell(c, r[c], bool(r.get("Hidden")), fmt) for c in columns] for r in rows]

    assert table[1:] == expected("csv")
    # value: the same cells, separated by spaces, one row a line.
    assert outputs["value"].splitlines() == [" ".join(cells) for cells in expected("value")]
    # The table shows every scalar cell as the text formats do.
    for cells in expected("value"):
        for cell in cells:
            if not cell.startswith(("[", "{")) and "\n" not in cell:
                assert cell in outputs["table"]
