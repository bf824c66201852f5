"""heatcap's OpenStack client plugin.

``openstack orchestration template capabilities find``, ``summary``,
``options``, ``resolve`` and ``parameters`` run the ``heatcap`` binary that
``pip install heatcap`` installed beside this package, read its JSON
answer, and hand it to cliff, so that every output
format of the OpenStack client (``-f json|yaml|table|value|csv``,
``-c COLUMN``) shows exactly what ``heatcap`` answers. Nothing here knows
Heat: the binary computes, this package only wires and renders.
"""

import json
import os
import shutil
import subprocess
import sys
import sysconfig

__all__ = ["HeatcapError", "find_heatcap", "run_heatcap"]


class HeatcapError(Exception):
    """heatcap refused the question (exit 2 and above) or could not run."""


def _user_scheme():
    if sys.version_info >= (3, 10):
        return sysconfig.get_preferred_scheme("user")
    if os.name == "nt":
        return "nt_user"
    if sys.platform == "darwin" and getattr(sys, "_framework", None):
        return "osx_framework_user"
    return "posix_user"


def find_heatcap():
    """The path of the ``heatcap`` binary installed with this package.

    pip installs it in the scripts directory of the environment this
    interpreter runs in (a venv's ``bin/``), or of the user scheme with
    ``pip install --user``; failing both, the first ``heatcap`` on PATH.
    """
    name = "heatcap" + (sysconfig.get_config_var("EXE") or "")
    for scripts in (sysconfig.get_path("scripts"), sysconfig.get_path("scripts", _user_scheme())):
        candidate = os.path.join(scripts, name)
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    found = shutil.which("heatcap")
    if found is None:
        raise HeatcapError(
            "the heatcap binary is not installed beside this plugin nor on PATH "
            "(pip install heatcap installs both)"
        )
    return found


def run_heatcap(args, binary=None):
    """Run ``heatcap COMMAND --format json ARGS...``; return ``(exit code, answer)``.

    ``args`` is heatcap's command line without the binary: the command name,
    then its arguments (which may end with ``-- PATH...``).

    heatcap's diagnostics (``path:line:col: CODE severity: message``) go
    straight to this process's stderr, as they would from heatcap itself.
    Exit 0 and 1 carry a complete answer (1: nothing matched, or a file
    could not be read); anything else is a refusal, raised as
    :class:`HeatcapError`.
    """
    binary = binary or find_heatcap()
    command = [binary, args[0], "--format", "json", *args[1:]]
    try:
        proc = subprocess.run(command, stdout=subprocess.PIPE, check=False)
    except OSError as err:
        raise HeatcapError(f"could not run {binary}: {err}") from err
    if proc.returncode not in (0, 1):
        raise HeatcapError(
            f"heatcap {args[0]} exited {proc.returncode} (its message is above)"
        )
    return proc.returncode, json.loads(proc.stdout.decode("utf-8"))
