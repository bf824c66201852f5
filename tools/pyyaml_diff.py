#!/usr/bin/env python3
"""Compare heatcap's loader with Heat's on the files given: same
accept/reject, same values.

Heat's loader (heat/common/template_format.py `simple_parse`,
environment_format.py `parse`, heatclient/common/template_format.py
`parse`) is two stages: PyYAML's CSafeLoader (libyaml) with Heat's str and
timestamp constructors; where that raises `yaml.YAMLError`, PyYAML's plain
pure-Python `yaml.SafeLoader`, whose timestamps are Python dates that the
client sends as JSON text (oslo.serialization's `to_primitive`:
`%Y-%m-%d`, `%Y-%m-%dT%H:%M:%S.%f`).

    cargo build --release --example dump
    python3 tools/pyyaml_diff.py $(find DIR -name '*.yaml')

Record the dialect fixtures' answers (fixtures/yaml-dialect/expected.json:
Heat's answer as `value` or `error`, and each stage's own answer under
`csafe` and `safe`; tests/yaml_dialect.rs reads it):

    python3 tools/pyyaml_diff.py --record fixtures/yaml-dialect

Compare Heat's second stage alone (heatcap's port of PyYAML's pure-Python
scanner and parser) with `yaml.SafeLoader` alone, on any files, whether
libyaml reads them or not:

    python3 tools/pyyaml_diff.py --second-stage $(find DIR -name '*.yaml')

Needs PyYAML 6.0 with libyaml. A development tool; no test runs it.
"""
import datetime
import json
import math
import os
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
    """Heat's answer and which stage gave it ("json", "csafe", "safe")."""
    if text.strip().startswith("{"):
        try:
            return json.loads(text), "json"
        except ValueError:
            pass
    try:
        return yaml.load(text, Loader=HeatLoader), "csafe"
    except yaml.YAMLError:
        return yaml.load(text, Loader=yaml.SafeLoader), "safe"


def answer(load):
    """`{"value": ...}` or `{"error": first line}` of one load."""
    try:
        return {"value": norm(load())}
    except Exception as e:  # noqa: BLE001 - any failure is a rejection
        return {"error": str(e).splitlines()[0] if str(e) else type(e).__name__}


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
    if isinstance(v, str):
        # The client's JSON round trip joins an escaped surrogate pair.
        try:
            return v.encode("utf-16", "surrogatepass").decode("utf-16")
        except UnicodeDecodeError:
            return v
    if isinstance(v, datetime.datetime):
        return v.strftime("%Y-%m-%dT%H:%M:%S.%f")
    if isinstance(v, datetime.date):
        return v.strftime("%Y-%m-%d")
    return v


def record(directory):
    out = {}
    for name in sorted(os.listdir(directory)):
        if not name.endswith(".yaml"):
            continue
        with open(os.path.join(directory, name), encoding="utf-8-sig") as f:
            text = f.read()
        heat = answer(lambda: heat_load(text)[0])
        heat["csafe"] = answer(lambda: yaml.load(text, Loader=HeatLoader))
        heat["safe"] = answer(lambda: yaml.load(text, Loader=yaml.SafeLoader))
        out[name] = heat
    with open(os.path.join(directory, "expected.json"), "w", encoding="utf-8") as f:
        json.dump(out, f, indent=1, sort_keys=True, ensure_ascii=False)
        f.write("\n")


def main(paths, second_stage=False):
    flag = ["--second-stage"] if second_stage else []
    dump = os.environ.get("HEATCAP_DUMP", "target/release/examples/dump")
    out = subprocess.run([dump, *flag, *paths], capture_output=True, text=True, check=True).stdout
    ours = {}
    for line in out.splitlines():
        rec = json.loads(line)
        ours[rec["path"]] = rec
    same = differ = 0
    for p in paths:
        with open(p, encoding="utf-8", errors="strict") as f:
            text = f.read()
        try:
            if second_stage:
                theirs = ("value", norm(yaml.load(text, Loader=yaml.SafeLoader)))
            else:
                theirs = ("value", norm(heat_load(text)[0]))
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
    if sys.argv[1:2] == ["--record"]:
        record(sys.argv[2])
        sys.exit(0)
    if sys.argv[1:2] == ["--second-stage"]:
        sys.exit(main(sys.argv[2:], second_stage=True))
    sys.exit(main(sys.argv[1:]))
