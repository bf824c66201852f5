#!/usr/bin/env python3
"""Heat's answers to `GET /template_versions` and
`GET /template_versions/{version}/functions` (with and without
`with_condition_func`), recorded for `heatcap serve`.

Heat 27.0.1's engine runs in-process as record.py runs it (the oracle's
setup: no services, no network). For every version the list names (full
names and aliases), both function lists are asked, each from a fresh
engine, because Heat's `with_condition_func=true` changes the template
class's own function map for the life of the process (heat-api.md §7.2;
heatcap does not copy that).

Writes data/heat-27.0.1-template-versions.json: compact JSON,
`{"template_versions": [...], "functions": {version: {"plain": [...],
"conditions": [...]}}}`, each list exactly the engine's answer (the API
body's `template_functions` value).

Usage, from the repository root:

    /work/heat-venv/bin/python tools/heat-schema/template_versions.py
"""

import json
import os
import subprocess
import sys

if os.environ.get('PYTHONHASHSEED') != '0' and __name__ == '__main__':
    os.environ['PYTHONHASHSEED'] = '0'
    os.execv(sys.executable, [sys.executable] + sys.argv)

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, '..', '..', 'data', 'heat-27.0.1-template-versions.json')


def engine():
    sys.path.insert(0, HERE)
    import record  # noqa: E402  (the engine as the API calls it)
    return record.Heat()


def one(version, cond):
    """The functions of one version, from a fresh process."""
    out = subprocess.run(
        [sys.executable, __file__, '--one', version, str(cond)],
        check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def main():
    if sys.argv[1:2] == ['--one']:
        heat = engine()
        version, cond = sys.argv[2], sys.argv[3] == 'True'
        fns = heat.engine.list_template_functions(
            heat.ctx, version, with_condition=cond)
        print(json.dumps(fns))
        return
    heat = engine()
    versions = heat.engine.list_template_versions(heat.ctx)
    names = []
    for v in versions:
        names.append(v['version'])
        names.extend(v['aliases'])
    functions = {}
    for name in names:
        functions[name] = {'plain': one(name, False),
                           'conditions': one(name, True)}
    doc = {'template_versions': versions, 'functions': functions}
    with open(OUT, 'w') as f:
        json.dump(doc, f, separators=(',', ':'))
        f.write('\n')
    print('%d versions, %d names' % (len(versions), len(names)))


if __name__ == '__main__':
    main()
