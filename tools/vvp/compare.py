#!/usr/bin/env python3
"""Compare heatcap's ONAP profile with ONAP's VVP validation scripts on VVP's fixtures.

Usage (README.md beside this file):

    python3 tools/vvp/compare.py --vvp VVP_CHECKOUT [--heatcap BIN] [--json]

VVP_CHECKOUT is a checkout of github.com/onap/vvp-validation-scripts (a
`git archive` of it will do); nothing of it is copied into this repository.

The cases are those VVP's own `pytest --self-test` builds (its
ice_validator/tests/parametrizers.py) for the VVP test functions whose
`@validates(...)` names at least one requirement heatcap's ONAP profile
reports (docs/rules.md, codes E8001-E8024): a test function taking one file
(`yaml_file`, `env_file`, `heat_template`) has one case per matching file
directly in fixtures/<test module>/pass and .../fail; one taking a list
(`yaml_files`, `env_files`, `heat_templates`) has one case per directory.
A case on which the VVP test itself skips (its own `pytest.skip` conditions,
reproduced below) has no VVP verdict and is not counted.

A pass case agrees when heatcap (`validate --profile onap --format json -r`
on the case's directory) reports no diagnostic carrying one of the test's
requirement IDs in the case's file (for a list case: in the directory); a
fail case agrees when it reports at least one.
"""

import argparse
import json
import os
import re
import subprocess
import sys

import yaml

# Requirement IDs heatcap's ONAP profile reports (docs/rules.md, "Source").
HEATCAP_IDS = {
    "R-92635", "R-27078", "R-39402", "R-35414", "R-90279", "R-25877",
    "R-36772", "R-11441", "R-44001", "R-90526", "R-00011", "R-23664",
    "R-90152", "R-75141", "R-16447", "R-53952", "R-71699", "R-10834",
    "R-67386", "R-86285", "R-03324", "R-67231",
}

RE_BASE = re.compile(r"(^base$)|(^base_)|(_base_)|(_base$)")  # VVP helpers.py
YAML_EXT = (".yaml", ".yml")


def is_base_module(path):
    name, ext = os.path.splitext(os.path.basename(path).lower())
    return ext in YAML_EXT and RE_BASE.search(name) and not name.endswith("_volume")


def load(path):
    with open(path) as fh:
        return yaml.safe_load(fh)


def section_empty(section):
    def skip(path):
        try:
            doc = load(path)
        except yaml.YAMLError:
            return False
        return not isinstance(doc, dict) or not doc.get(section)

    return skip


def section_absent(section):
    def skip(path):
        try:
            doc = load(path)
        except yaml.YAMLError:
            return False
        return not isinstance(doc, dict) or section not in doc

    return skip


def never(_path):
    return False


# (module, function, @validates IDs, parameter, skip condition)
# Found with: grep -n '@validates' ice_validator/tests/test_*.py, keeping the
# functions whose IDs meet HEATCAP_IDS; skip conditions copied from each body.
TESTS = [
    ("test_all_parameters_used_in_template", "test_all_parameters_used_in_template", ["R-90279"], "yaml_file", never),
    ("test_env_no_resource_registry", "test_env_no_resource_registry", ["R-67231"], "env_files", never),
    ("test_environment_file_structure", "test_environment_file_contains_required_sections", ["R-03324"], "env_file", never),
    ("test_heat_pairs_provided", "test_heat_pairs_provided",
     ["R-86285", "R-38474", "R-81725", "R-53433", "R-56438", "R-74304", "R-91342", "R-94509", "R-31141"], "pairs", never),
    ("test_heat_parameter_section", "test_default_values", ["R-90526"], "yaml_file", section_empty("parameters")),
    ("test_heat_parameter_section", "test_parameter_names", ["R-25877"], "yaml_file", section_empty("parameters")),
    ("test_heat_template_parameters_contain_required_fields", "test_heat_template_parameters_contain_required_fields",
     ["R-36772", "R-44001"], "yaml_file", section_empty("parameters")),
    ("test_heat_template_structure", "test_heat_template_structure_contains_heat_template_version", ["R-27078"], "yaml_file", never),
    ("test_heat_template_structure", "test_heat_template_structure_contains_description", ["R-39402"], "yaml_file", never),
    ("test_heat_template_structure", "test_heat_template_structure_contains_parameters", ["R-35414"], "yaml_file", is_base_module),
    ("test_heat_template_structure", "test_heat_template_structure_contains_resources", ["R-23664"], "heat_template", is_base_module),
    ("test_heat_template_structure", "test_parameter_type", ["R-11441"], "yaml_file", never),
    ("test_initial_configuration", "test_02_no_duplicate_keys_in_file", ["R-92635"], "yaml_file", never),
    ("test_initial_configuration", "test_02a_no_duplicate_keys_in_env", ["R-92635"], "env_file", never),
    ("test_initial_configuration", "test_03_all_referenced_resources_exists", ["R-92635"], "yaml_file", section_absent("resources")),
    ("test_initial_configuration", "test_04_valid_nesting", ["R-92635"], "yaml_file", never),
    ("test_initial_configuration", "test_05_all_get_param_have_defined_parameter", ["R-92635"], "yaml_file", section_empty("parameters")),
    ("test_initial_configuration", "test_06_heat_template_resource_section_has_resources", ["R-90152"], "yaml_file", section_absent("resources")),
    ("test_nested_parameter_args", "test_nested_parameter_args", ["R-10834"], "yaml_file", never),
    ("test_no_http_resources", "test_no_http_resources", ["R-71699", "R-53952"], "yaml_file", section_empty("resources")),
    ("test_port_connected_to_multiple_servers", "test_port_connected_to_multiple_servers", ["R-92635"], "yaml_file", section_empty("resources")),
    ("test_resource_ids_alphanumeric_only", "test_alphanumeric_resource_ids_only", ["R-75141"], "yaml_file", section_empty("resources")),
    ("test_unique_resources_across_all_templates", "test_unique_resources_across_all_yaml_files", ["R-16447"], "yaml_files", never),
    ("test_valid_heat", "test_heat", ["R-92635"], "yaml_file", section_absent("resources")),
]


def nested_files(paths):
    """VVP's get_nested_files, simplified: a file another one names as a resource type."""
    names = {os.path.basename(p) for p in paths}
    nested = set()
    for p in paths:
        if not p.endswith(YAML_EXT):
            continue
        try:
            doc = load(p)
        except yaml.YAMLError:
            continue
        text = json.dumps(doc, default=str)
        for n in names:
            if n != os.path.basename(p) and f'"{n}"' in text:
                nested.add(os.path.join(os.path.dirname(p), n))
    return nested


def files_of(directory, param):
    """The files VVP's parametrizers give one test parameter in one pass/fail directory."""
    if not os.path.isdir(directory):
        return []
    everything = sorted(
        os.path.join(directory, f) for f in os.listdir(directory)
        if os.path.isfile(os.path.join(directory, f))
    )
    if param in ("env_file", "env_files"):
        return [f for f in everything if f.endswith(".env")]
    yamls = [f for f in everything if f.endswith(YAML_EXT)]
    if param in ("yaml_file", "yaml_files"):
        return yamls
    if param == "heat_template":
        nested = nested_files(yamls)
        return [
            f for f in yamls
            if f not in nested and not os.path.splitext(os.path.basename(f))[0].endswith("_volume")
        ]
    if param == "pairs":
        return everything
    raise ValueError(param)


class Heatcap:
    def __init__(self, binary):
        self.binary = binary
        self.cache = {}

    def diagnostics(self, directory):
        if directory not in self.cache:
            out = subprocess.run(
                [self.binary, "validate", "--profile", "onap", "--format", "json", "-r", directory],
                capture_output=True, text=True, check=False,
            )
            try:
                doc = json.loads(out.stdout)
            except json.JSONDecodeError:
                sys.exit(f"heatcap printed no JSON for {directory}:\n{out.stdout}\n{out.stderr}")
            self.cache[directory] = doc["diagnostics"]
        return self.cache[directory]


def packages(fixtures):
    """Every fixture package: each pass/fail directory holding files, and each directory in one."""
    for test in sorted(os.listdir(fixtures)):
        for expected in ("pass", "fail"):
            d = os.path.join(fixtures, test, expected)
            if not os.path.isdir(d):
                continue
            entries = sorted(os.listdir(d))
            if any(os.path.isfile(os.path.join(d, e)) for e in entries):
                yield d
            for e in entries:
                if os.path.isdir(os.path.join(d, e)):
                    yield os.path.join(d, e)


def cases(fixtures):
    for module, function, ids, param, skip in TESTS:
        for expected in ("pass", "fail"):
            directory = os.path.join(fixtures, module, expected)
            files = files_of(directory, param)
            if param in ("yaml_files", "env_files", "pairs"):
                if files:
                    yield module, function, ids, expected, directory, None
                continue
            for f in files:
                if not skip(f):
                    yield module, function, ids, expected, directory, f


def verdict_cases(fixtures, verdicts_file):
    """Cases of VVP run on each fixture package (run_vvp.py's record): (test, VVP's outcome, package, file)."""
    ids_of = {function: (module, ids) for module, function, ids, _param, _skip in TESTS}
    with open(verdicts_file) as fh:
        verdicts = json.load(fh)
    for package, outcomes in sorted(verdicts.items()):
        directory = os.path.join(fixtures, package)
        for function, results in sorted(outcomes.items()):
            module, ids = ids_of[function]
            for param, result in results:
                if result == "skip":
                    continue
                f = os.path.join(directory, param)
                yield module, function, ids, result, directory, f if os.path.isfile(f) else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--vvp", required=True, help="checkout of onap/vvp-validation-scripts")
    ap.add_argument("--heatcap", default="target/debug/heatcap")
    ap.add_argument("--verdicts", help="VVP's own outcomes on every fixture package (run_vvp.py)")
    ap.add_argument("--json", action="store_true", help="one JSON object a case")
    args = ap.parse_args()
    fixtures = os.path.join(os.path.abspath(args.vvp), "ice_validator", "tests", "fixtures")
    heatcap = Heatcap(args.heatcap)
    total = agree = 0
    per_requirement = {}
    source = verdict_cases(fixtures, args.verdicts) if args.verdicts else cases(fixtures)
    for module, function, ids, expected, directory, f in source:
        wanted = set(ids) & HEATCAP_IDS
        found = sorted({
            d["code"]
            for d in heatcap.diagnostics(directory)
            if wanted & set(d.get("requirements", []))
            and (f is None or os.path.abspath(d["file"]) == os.path.abspath(f))
        })
        ok = bool(found) == (expected == "fail")
        total += 1
        agree += ok
        key = (os.path.relpath(directory, fixtures), ",".join(sorted(wanted)))
        per_requirement[key] = per_requirement.get(key, False) or expected == "fail"
        where = os.path.relpath(f or directory, fixtures)
        if args.json:
            print(json.dumps({"test": f"{module}::{function}", "case": where, "vvp": expected,
                              "requirements": sorted(wanted), "heatcap": found, "agree": ok}))
        else:
            print(f"{'ok  ' if ok else 'DIFF'} {expected:4} {module}::{function} {where} "
                  f"{','.join(sorted(wanted))} heatcap={','.join(found) or '-'}")
    out = sys.stderr if args.json else sys.stdout
    print(f"agreement: {agree}/{total} cases", file=out)
    if args.verdicts:
        # One verdict per package and requirement (or pair of requirements one VVP
        # test checks together, as R-36772 and R-44001): VVP fails it when any of its
        # tests naming it fails there; heatcap when any diagnostic carries it.
        req_agree = 0
        for (package, r), vvp_fails in sorted(per_requirement.items()):
            codes = sorted({d["code"] for d in heatcap.diagnostics(os.path.join(fixtures, package))
                            if set(r.split(",")) & set(d.get("requirements", []))})
            ok = bool(codes) == vvp_fails
            req_agree += ok
            if not ok and not args.json:
                print(f"REQ  {package} {r} vvp={'fail' if vvp_fails else 'pass'} heatcap={','.join(codes) or '-'}")
        print(f"agreement: {req_agree}/{len(per_requirement)} package-requirement verdicts", file=out)
    return 0 if agree == total else 1


if __name__ == "__main__":
    sys.exit(main())
