#!/usr/bin/env python3
"""Extract the HOT specification's examples into complete templates.

    python3 tools/hot_spec_examples.py ../shared/seeds/000_27c190e7caeea659.txt fixtures/hot

The specification (seed 000, plain text) shows its examples as blocks that
start at column 0. Each block that is an example (not a syntax outline with
`<placeholders>` or `...`) becomes `fixtures/hot/spec-000-L<line>.yaml`:

- a block with `heat_template_version` is kept as it is;
- a block of template sections gets `heat_template_version: 2021-04-16`;
- a condition-function block (`equals`, `not`, `and`, `or`) becomes a
  condition, any other block an output's value;
- names an example uses but does not define (a parameter, a resource, a
  condition) are added from CONTEXT below, so the template is complete;
  each file's header says what was added.

Blocks skipped, and why, are listed in fixtures/hot/README.md. The test
`hot_specification_examples_validate_clean` (tests/rules.rs) checks that
every file validates without errors.
"""

import re
import sys
from pathlib import Path

SECTIONS = ("heat_template_version", "description", "parameter_groups",
            "parameters", "resources", "outputs", "conditions")
CONDITION_FUNCTIONS = ("equals", "not", "and", "or")
KEY = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*) ?:( |$)")
VERSION = "2021-04-16"

# What each example needs defined to be a complete template, by its line.
CONTEXT = {
    681: "resources:\n  my_instance: {type: OS::Nova::Server}\n",
    713: ("parameters:\n  param1: {type: boolean}\n  param2: {type: string}\n"
          "  param3: {type: string}\n  env_type: {type: string}\n"
          "  zone: {type: string}\n  ServiceNames: {type: comma_delimited_list}\n"),
    779: ("parameters:\n  env_type: {type: string, default: test}\n"
          "conditions:\n  create_prod_res: {equals: [{get_param: env_type}, prod]}\n"
          "resources:\n  my_volume: {type: OS::Cinder::Volume, properties: {size: 1}}\n"),
    982: "parameters:\n  raw_password: {type: string, hidden: true}\n",
    1272: "parameters:\n  env_type: {type: string, default: test}\n",
    1286: "parameters:\n  env_type: {type: string, default: test}\n",
    1313: "parameters:\n  env_type: {type: string, default: test}\n",
    1328: "conditions:\n  my_other_condition: true\n",
    1346: "parameters:\n  env_type: {type: string, default: test}\n  zone: {type: string}\n",
    1359: "conditions:\n  other_condition_1: true\n  other_condition_2: false\n",
    1379: "parameters:\n  env_type: {type: string, default: test}\n  zone: {type: string}\n",
    1392: "conditions:\n  other_condition_1: true\n  other_condition_2: false\n",
}


def blocks(lines):
    """Column-0 blocks that start with a `key:` line: their line, key, lines,
    and the prose line before them."""
    i = 0
    while i < len(lines):
        m = KEY.match(lines[i])
        if not m or lines[i].startswith(("Note:", "For example")):
            i += 1
            continue
        j = i + 1
        while j < len(lines) and (lines[j] == "" or lines[j][0] in " -#"
                                  or KEY.match(lines[j]) and m.group(1) in SECTIONS
                                  and KEY.match(lines[j]).group(1) in SECTIONS):
            j += 1
        block = lines[i:j]
        while block and block[-1] == "":
            block.pop()
        before = next((l for l in reversed(lines[:i]) if l.strip()), "")
        yield i + 1, m.group(1), block, before
        i = j


# Examples the specification itself gets wrong, by line.
ERRATA = {
    482: "a typo in the specification: `key_name` lacks its colon, so the "
         "block is not valid YAML (heatcap reports E0004)",
}


FUNCTIONS = ("get_attr", "get_file", "get_param", "get_resource", "list_join",
             "digest", "repeat", "resource_facade", "str_replace", "str_split",
             "map_merge", "map_replace", "yaql", "if", "filter", "make_url",
             "list_concat", "list_concat_unique", "contains") + CONDITION_FUNCTIONS
# Parameter constraints, with a type they apply to.
CONSTRAINTS = {"range": "number", "modulo": "number", "length": "string",
               "allowed_values": "string", "allowed_pattern": "string",
               "custom_constraint": "string"}
# Other snippets: a property with a function for value.
PROPERTIES = ("pwd_hash",)


def why_skipped(line, key, block, before):
    if line in ERRATA:
        return ERRATA[line]
    if before.startswith("The syntax of"):
        return "a syntax outline (after \"The syntax of ...\")"
    # Comments (`# general properties ...`) are the example's own prose.
    text = "\n".join(l.split(" #")[0] for l in block if not l.lstrip().startswith("#"))
    if re.search(r"<[a-z][^>%]*>", text) or "..." in text:
        return "a syntax outline (`<placeholders>` or `...`)"
    if key not in SECTIONS + FUNCTIONS + PROPERTIES and key not in CONSTRAINTS:
        return "prose, not a template snippet"
    if key == "heat_template_version" and "# declaration" in "\n".join(block):
        return ("the skeleton of a template: its sections are comments, and "
                "Heat refuses the null `conditions:` it leaves (E1004)")
    return None


def wrap(line, key, block):
    body = "\n".join(block) + "\n"
    context = CONTEXT.get(line, "")
    if key in SECTIONS:
        head = "" if key == "heat_template_version" else f"heat_template_version: {VERSION}\n"
        doc = head + body + context
    elif key in CONDITION_FUNCTIONS:
        # The context's `conditions:`, if any, comes last; the example joins it.
        indented = "".join("    " + l + "\n" if l else "\n" for l in block)
        opener = "" if "conditions:" in context else "conditions:\n"
        doc = (f"heat_template_version: {VERSION}\n" + context + opener
               + "  example:\n" + indented)
    elif key in CONSTRAINTS:
        doc = (f"heat_template_version: {VERSION}\n" + context
               + f"parameters:\n  example:\n    type: {CONSTRAINTS[key]}\n"
               + "    constraints:\n" + "".join(f"      - {l}\n" for l in block))
    else:
        indented = "".join("      " + l + "\n" if l else "\n" for l in block)
        doc = (f"heat_template_version: {VERSION}\n" + context
               + "outputs:\n  example:\n    value:\n" + indented)
    added = (" nothing\n" if not context
             else "\n" + "".join(f"#   {l}\n" for l in context.strip().split("\n")))
    return (f"# HOT specification (seed 000), the example at line {line}.\n"
            f"# Added to make it a complete template:{added}" + doc)


def main():
    seed, out = Path(sys.argv[1]), Path(sys.argv[2])
    lines = seed.read_text().split("\n")
    skipped = []
    for line, key, block, before in blocks(lines):
        reason = why_skipped(line, key, block, before)
        if reason:
            skipped.append((line, key, reason))
            continue
        (out / f"spec-000-L{line:04d}.yaml").write_text(wrap(line, key, block))
    with open(out / "README.md", "w") as f:
        f.write("# The HOT specification's examples\n\n"
                "Generated by `tools/hot_spec_examples.py` from the HOT "
                "specification (seed 000); `spec-example-01.yaml` is the complete "
                "example of seed 001. Every file must validate without errors "
                "(tests/rules.rs).\n\nBlocks of the specification not used:\n\n"
                "| line | starts with | why |\n|---|---|---|\n")
        for line, key, reason in skipped:
            f.write(f"| {line} | `{key}:` | {reason} |\n")


if __name__ == "__main__":
    main()
