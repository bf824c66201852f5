#!/usr/bin/env python3
"""Run ONAP's VVP validation scripts as a VNF vendor would (`--template-directory`)
on every fixture package of a VVP checkout and record each test case's outcome.

    PYTHONPATH=PYTEST37 HEAT_VENV/bin/python tools/vvp/run_vvp.py --vvp VVP_CHECKOUT --out vvp-verdicts.json

A fixture package is each fixtures/<test>/{pass,fail} directory holding files,
and each directory directly under one (VVP's `template_dir` fixtures). Only the
test functions listed in compare.py's TESTS run (`-k`), with `--category
openstack` so that `test_heat` (Heat's own validate) runs too. README.md says
how the interpreter was set up (pytest 3.7, as VVP pins, with --assert=plain).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare import TESTS, packages  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--vvp", required=True)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    root = os.path.join(os.path.abspath(args.vvp), "ice_validator")
    fixtures = os.path.join(root, "tests", "fixtures")
    functions = sorted({t[1] for t in TESTS})
    keyword = " or ".join(functions)
    verdicts = {}
    for pkg in packages(fixtures):
        with tempfile.TemporaryDirectory() as tmp:
            junit = os.path.join(tmp, "j.xml")
            subprocess.run(
                [sys.executable, "-m", "pytest", "tests", "--assert=plain", "-p", "no:cacheprovider",
                 "-q", "--template-directory", pkg, "--category", "openstack", "--continue-on-failure", "--output-directory", tmp,
                 "--junitxml", junit, "-k", keyword],
                cwd=root, capture_output=True, text=True, check=False,
            )
            outcome = {}
            if os.path.exists(junit):
                for tc in ET.parse(junit).iter("testcase"):
                    name = (tc.get("name") or "").split("[")[0]
                    if name not in functions:
                        continue
                    tags = {c.tag for c in tc}
                    result = "fail" if tags & {"failure", "error"} else "skip" if "skipped" in tags else "pass"
                    param = tc.get("name").partition("[")[2][:-1]
                    outcome.setdefault(name, []).append([os.path.relpath(param, pkg) if param.startswith("/") else param, result])
            verdicts[os.path.relpath(pkg, fixtures)] = outcome
        print(os.path.relpath(pkg, fixtures), sum(len(v) for v in outcome.values()), file=sys.stderr, flush=True)
    with open(args.out, "w") as fh:
        json.dump(verdicts, fh, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
