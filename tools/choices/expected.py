#!/usr/bin/env python3
"""The registry choices a tree of Heat templates already offers, computed
independently of heatcap (tripleo-plans.md §5's method), recorded under
tests/choices/<tree>.json for tests/choices.rs to compare with.

    tools/choices/expected.py TREE NAME > tests/choices/NAME.json

Method (the study's, §5):
* An environment is any `*.yaml` file (symlinks skipped, unknown tags
  ignored) that parses to a mapping without `heat_template_version` whose
  top-level keys are all Heat environment sections. Hidden directories are
  skipped (heatcap's walk prunes them; the trees have no YAML in them).
* Registry keys exclude `resources`, `base_url`, `hooks` and
  `restricted_actions`.
* A value with `::`, or not ending in `.yaml` or `.template`, is an alias,
  kept verbatim (`OS::Heat::None`).
  `/usr/share/openstack-tripleo-heat-templates/X` is `X` in the tree; other
  paths are joined with the environment's directory and normalised.
* A type's candidates are the distinct targets environments map it to.
* A conflict is an unordered pair of environment files mapping one type to
  different targets.

Output: `types`: for every type an environment maps to at least one
existing template, the existing templates (tree-relative, sorted), which is
what `capabilities-find -r -c resource_type=T TREE` must print; `counts`:
the totals `options` must reproduce.
"""

import json
import os
import sys

import yaml

ENV_SECTIONS = {
    "parameters",
    "parameter_defaults",
    "resource_registry",
    "encrypted_param_names",
    "event_sinks",
    "parameter_merge_strategies",
}
NOT_TYPES = {"resources", "base_url", "hooks", "restricted_actions"}
THT = "/usr/share/openstack-tripleo-heat-templates/"


class Loader(yaml.SafeLoader):
    pass


def _unknown(loader, suffix, node):
    if isinstance(node, yaml.MappingNode):
        return loader.construct_mapping(node)
    if isinstance(node, yaml.SequenceNode):
        return loader.construct_sequence(node)
    return loader.construct_scalar(node)


Loader.add_multi_constructor("", _unknown)


def load(path):
    try:
        with open(path, "rb") as f:
            return yaml.load(f, Loader=Loader)
    except Exception:  # noqa: BLE001 - a broken file is simply not counted
        return None


def files(tree):
    for d, dirs, names in os.walk(tree):
        dirs[:] = sorted(x for x in dirs if not x.startswith("."))
        for n in sorted(names):
            p = os.path.join(d, n)
            if os.path.islink(p):
                continue
            yield os.path.relpath(p, tree)


def target(env_rel, value):
    if "::" in value or not (value.endswith(".yaml") or value.endswith(".template")):
        return ("alias", value)
    if value.startswith(THT):
        return ("template", os.path.normpath(value[len(THT):]))
    return ("template", os.path.normpath(os.path.join(os.path.dirname(env_rel), value)))


def is_template(tree, rel):
    path = os.path.join(tree, rel)
    if not os.path.isfile(path):
        return False
    doc = load(path)
    return isinstance(doc, dict) and "heat_template_version" in doc


def main():
    tree, name = sys.argv[1], sys.argv[2]
    envs = {}  # env -> {type: target}
    for rel in files(tree):
        if not rel.endswith(".yaml") or rel.endswith(".j2.yaml"):
            continue
        doc = load(os.path.join(tree, rel))
        if not isinstance(doc, dict) or "heat_template_version" in doc:
            continue
        if not doc or not all(isinstance(k, str) and k in ENV_SECTIONS for k in doc):
            continue
        reg = doc.get("resource_registry")
        entries = {}
        if isinstance(reg, dict):
            for k, v in reg.items():
                if k in NOT_TYPES or not isinstance(v, str):
                    continue
                entries[str(k)] = target(rel, v)
        envs[rel] = entries

    by_type = {}  # type -> {target: [envs]}
    for env, entries in envs.items():
        for t, tgt in entries.items():
            by_type.setdefault(t, {}).setdefault(tgt, []).append(env)

    exists = {}
    types = {}
    for t, targets in sorted(by_type.items()):
        found = []
        for kind, v in targets:
            if kind != "template":
                continue
            if v not in exists:
                exists[v] = is_template(tree, v)
            if exists[v]:
                found.append(v)
        if found:
            types[t] = sorted(found)

    root = {e for e in envs if "/" not in e}
    pairs_all, pairs_noroot, pairs_noroot_noci = set(), set(), set()
    instances = 0
    for t, targets in by_type.items():
        mapping = [(e, tgt) for tgt, es in targets.items() for e in es]
        for i, (a, ta) in enumerate(mapping):
            for b, tb in mapping[i + 1:]:
                if ta == tb:
                    continue
                pair = tuple(sorted((a, b)))
                instances += 1
                pairs_all.add(pair)
                if a in root or b in root:
                    continue
                pairs_noroot.add(pair)
                if not (a.startswith("ci/") or b.startswith("ci/")):
                    pairs_noroot_noci.add(pair)

    counts = {
        "environments": len(envs),
        "environments_with_entries": sum(1 for e in envs.values() if e),
        "registry_entries": sum(len(e) for e in envs.values()),
        "types": len(by_type),
        "types_with_2_or_more_candidates": sum(1 for v in by_type.values() if len(v) >= 2),
        "types_mapped_to_an_existing_template": len(types),
        "conflicting_pairs": len(pairs_all),
        "conflicting_pair_type_instances": instances,
        "conflicting_pairs_without_root": len(pairs_noroot),
        "conflicting_pairs_without_root_and_ci": len(pairs_noroot_noci),
    }
    json.dump({"tree": name, "counts": counts, "types": types}, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
