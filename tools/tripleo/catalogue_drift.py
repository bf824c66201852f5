#!/usr/bin/env python3
"""Lists the names of a TripleO capabilities map that drifted from its tree.

An independent check of `heatcap catalogue`'s `drift` (issue 17, part 3),
written from the map's documented format, with PyYAML only:

    python3 tools/tripleo/catalogue_drift.py TREE

prints a JSON list, in map order, of {"file", "kind", "required_by"}:
each environment entry's `file`, then each name its `requires` gives that
is not itself an entry of the map (once, where first named), whose kind is

- "missing": no such file, and no Jinja source `x.j2.yaml` of `x.yaml`;
- "source-only": no such file, but its Jinja source is there;
- "not-environment": a file whose top level is not a mapping with at
  least one Heat environment section and no template version key.

`required_by` is the entry that requires the name (null for an entry).
The recorded answers are in tests/tripleo/ (tests/tripleo_catalogue.rs).
"""

import json
import os
import sys

import yaml

SECTIONS = {
    "parameters", "resource_registry", "parameter_defaults",
    "encrypted_param_names", "event_sinks", "parameter_merge_strategies",
    "requires",
}
VERSIONS = {"heat_template_version", "AWSTemplateFormatVersion",
            "HeatTemplateFormatVersion"}
TEMPLATE_ONLY = {"resources", "outputs", "Resources", "Outputs", "conditions"}


class Loader(yaml.SafeLoader):
    """Unknown tags are read as plain values (the tree's files are Heat's)."""


Loader.add_multi_constructor(
    "", lambda loader, suffix, node: loader.construct_scalar(node)
    if isinstance(node, yaml.ScalarNode) else None)


def kind(tree, name):
    path = os.path.join(tree, name)
    if os.path.isfile(path):
        try:
            with open(path, encoding="utf-8") as f:
                doc = yaml.load(f, Loader=Loader)
        except Exception:  # unreadable or not YAML: not an environment
            return "not-environment"
        if (isinstance(doc, dict) and doc
                and not VERSIONS & set(doc)
                and not TEMPLATE_ONLY & set(doc)
                and SECTIONS & set(doc)):
            return None
        return "not-environment"
    if name.endswith(".yaml") and os.path.isfile(
            os.path.join(tree, name[: -len(".yaml")] + ".j2.yaml")):
        return "source-only"
    return "missing"


def norm(name):
    return os.path.normpath(name)


def main():
    tree = sys.argv[1]
    with open(os.path.join(tree, "capabilities-map.yaml"), encoding="utf-8") as f:
        cmap = yaml.safe_load(f)
    entries = [
        e for t in cmap.get("topics") or []
        for g in t.get("environment_groups") or []
        for e in g.get("environments") or []
    ]
    names = {norm(e["file"]) for e in entries}
    seen = set()
    out = []
    for e in entries:
        named = [(norm(e["file"]), None)]
        named += [(norm(r), norm(e["file"])) for r in e.get("requires") or []
                  if norm(r) not in names]
        for name, by in named:
            k = kind(tree, name)
            if k is None or name in seen:
                continue
            seen.add(name)
            out.append({"file": name, "kind": k, "required_by": by})
    json.dump(out, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
