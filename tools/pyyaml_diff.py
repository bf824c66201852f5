#!/usr/bin/env python3
"""Compare heatcap's loader with Heat's (PyYAML CSafeLoader + Heat's str and
timestamp constructors) on the files given: same accept/reject, same values.

    cargo build --release --example dump
    python3 tools/pyyaml_diff.py $(find DIR -name '*.yaml')

Needs PyYAML with libyaml. A development tool; no test depends on it.
"""
import json
import math
import subprocess
import sys

import yaml

Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class HeatLoader(Loader):
    pass


def _str(loader, node):
    return loader.construct_scalar(node)


HeatLoader.add_constructor("tag:yaml.org,2002:str", _str)
HeatLoader.add_constructor("tag:yaml.org,2002:timestamp", _str)


def heat_load(text):
    if text.strip().startswith("{"):
        try:
            return json.loads(text)
        except ValueError:
            pass
    return yaml.load(text, Loader=HeatLoader)


def norm(v):
    if isinstance(v, dict):
        return {str(k).lower() if isinstance(k, bool) else (k if isinstance(k, str) else json.dumps(k)): norm(x) for k, x in v.items()}
    if isinstance(v, (set, frozenset)):
        return {k: None for k in sorted(v)}
    if isinstance(v, tuple):
        return [norm(x) for x in v]
    if isinstance(v, int) and not isinstance(v, bool) and abs(v) >= 2**63:
        return str(v)  # heatcap's JSON writes integers beyond i64 as text
    if isinstance(v, list):
        return [norm(x) for x in v]
    if isinstance(v, float) and (math.isnan(v) or math.isinf(v)):
        return repr(v)
    if isinstance(v, bytes):
        return v.decode("latin-1")
    return v


def main(paths):
    out = subprocess.run(["target/release/examples/dump", *paths], capture_output=True, text=True, check=True).stdout
    ours = {}
    for line in out.splitlines():
        rec = json.loads(line)
        ours[rec["path"]] = rec
    same = differ = 0
    for p in paths:
        with open(p, encoding="utf-8", errors="strict") as f:
            text = f.read()
        try:
            theirs = ("value", norm(heat_load(text)))
        except Exception as e:  # noqa: BLE001 - any failure is a rejection
            theirs = ("error", str(e).splitlines()[0])
        rec = ours[p]
        mine = ("value", norm(rec["value"])) if "value" in rec else ("error", rec["error"])
        if theirs[0] != mine[0] or (theirs[0] == "value" and json.dumps(theirs[1], sort_keys=True) != json.dumps(mine[1], sort_keys=True)):
            differ += 1
            print(f"DIFF {p}\n  pyyaml: {str(theirs)[:300]}\n  heatcap: {str(mine)[:300]}")
        else:
            same += 1
    print(f"{same} same, {differ} differ")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
