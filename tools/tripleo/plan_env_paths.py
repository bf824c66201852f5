#!/usr/bin/env python3
"""The environment list tripleo-common built from a plan environment.

An independent check of heatcap's `--plan` (issue 17, part 3), written
from the documented behaviour of tripleo-common's
`plan_utils.build_env_paths` (2018-04 to 2021-03), with
python-heatclient's own `template_utils.deep_update` (run it with the
oracle's venv, /work/heat-venv, which has python-heatclient 5.3.0):

    /work/heat-venv/bin/python tools/tripleo/plan_env_paths.py PLAN

prints JSON: `environments`, the list in order (a `path` entry as written;
a `data` entry as `data:N`, N its index in `environments`; then
`parameter_defaults` and `resource_registry` when not empty), and the
documents of the generated environments (`data:N`, `parameter_defaults`,
`resource_registry`). The recorded answer for fixtures/plans is
tests/tripleo/plan-environment.json (tests/tripleo_catalogue.rs).
"""

import json
import sys

import yaml
from heatclient.common.template_utils import deep_update


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        plan = yaml.safe_load(f)
    order, held, docs = [], [], {}
    for i, env in enumerate(plan.get("environments", [])):
        if env.get("path"):
            order.append(env["path"])
        elif env.get("data"):
            held.append("data:%d" % i)
            docs["data:%d" % i] = env["data"]
    order += held
    merged = {}
    merged.update(plan.get("passwords", {}))
    merged.update(plan.get("derived_parameters", {}))
    merged = deep_update(merged, plan.get("parameter_defaults", {}))
    if merged:
        order.append("parameter_defaults")
        docs["parameter_defaults"] = {"parameter_defaults": merged}
    registry = plan.get("resource_registry", {})
    if registry:
        order.append("resource_registry")
        docs["resource_registry"] = {"resource_registry": registry}
    json.dump({"environments": order, "documents": docs}, sys.stdout,
              indent=1, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
