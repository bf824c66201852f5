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
    assert [{"path": r["Path"], "capabilities": r["Capabilities"]} for r in rows] == cli_json
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
