#!/usr/bin/env python3
"""Where Heat's validate of each template alone is stricter than heatcap's.

For every template under DIR (a ``.yaml`` file whose top level has a
template version key; hidden directories skipped), runs what
``openstack orchestration template validate -t FILE`` runs (the file alone:
no environment, no parameter value; ``verdicts.py``'s ``validate`` stage)
and compares it with the errors of one plain ``heatcap validate -r DIR``
(``--format json``) on the same file. Prints one JSON document::

    {"templates": 612,
     "heat_refuses": 240, "heatcap_errors": 251,
     "heat_stricter": [{"file": "a/b.yaml", "heat": "UserParameterMissing: ...",
                        "kind": "value-missing"}],
     "heat_stricter_by_kind": {"value-missing": 1},
     "both": 230, "heatcap_stricter": 21}

``heat_stricter`` lists the files Heat refuses where heatcap reports no
error, each with the kind of Heat's refusal (``kind``; counted in
``heat_stricter_by_kind``): ``value-missing`` is what issue 29 asks to
bring to zero; ``type-unmapped`` (a custom type that only the tree's
environments map) is what plain ``validate`` leaves to ``-e``; ``both`` counts files
both refuse, ``heatcap_stricter`` those only heatcap refuses (heatcap's
rules go beyond validate: plugin schemas at create, ...). With ``--all``,
every file's pair of verdicts is listed under ``files``.

Usage (from the repository root, with the venv of README.md)::

    /work/heat-venv/bin/python tools/heat-oracle/stricter.py \\
        --heatcap target/debug/heatcap /tmp/tree
"""

import argparse
import json
import os
import subprocess
import sys

if os.environ.get('PYTHONHASHSEED') != '0' and __name__ == '__main__':
    os.environ['PYTHONHASHSEED'] = '0'
    os.execv(sys.executable, [sys.executable] + sys.argv)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oracle  # noqa: E402
import verdicts  # noqa: E402

VERSION_KEYS = ('heat_template_version', 'AWSTemplateFormatVersion',
                'HeatTemplateFormatVersion')


def templates(root):
    """Every template under `root`, relative to it, sorted."""
    import yaml
    out = []
    for here, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith('.'))
        for name in sorted(files):
            if not name.endswith('.yaml'):
                continue
            path = os.path.join(here, name)
            try:
                with open(path) as f:
                    doc = yaml.load(f, Loader=yaml.CSafeLoader)
            except Exception:
                continue
            if isinstance(doc, dict) and any(k in doc for k in VERSION_KEYS):
                out.append(os.path.relpath(path, root))
    return sorted(out)


def heatcap_errors(binary, root, ignore=()):
    """File (relative to `root`) -> heatcap's error messages."""
    extra = [a for code in ignore for a in ('--ignore', code)]
    proc = subprocess.run(
        [binary, 'validate', '-r', '--format', 'json', *extra, '.'],
        cwd=root, stdout=subprocess.PIPE, check=False)
    doc = json.loads(proc.stdout)
    errors = {}
    for d in doc['diagnostics']:
        if d['severity'] == 'error':
            f = os.path.normpath(d['file'])
            errors.setdefault(f, []).append('%s %s' % (d['code'], d['message']))
    return errors


def kind(message):
    """What Heat's refusal is about: `value-missing` (a parameter read at
    validate has no value), `type-unmapped` (a resource type no
    environment maps: the file is validated without the environments
    that map it, which plain `heatcap validate` does not ask for), or
    `other`."""
    if 'was not provided' in message:
        return 'value-missing'
    if 'The Resource Type (' in message and 'could not be found' in message:
        return 'type-unmapped'
    return 'other'


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    p.add_argument('--heatcap', default='target/debug/heatcap')
    p.add_argument('--all', action='store_true')
    p.add_argument('--ignore', action='append', default=[], metavar='CODE',
                   help="heatcap's --ignore (e.g. E2008: the figures "
                        "before that rule)")
    p.add_argument('directory')
    args = p.parse_args(argv)
    import logging as pylogging
    oracle.logging.register_options(oracle.cfg.CONF)
    pylogging.disable(pylogging.CRITICAL)
    oracle.setup_heat(7)
    root = os.path.abspath(args.directory)
    ours = heatcap_errors(os.path.abspath(args.heatcap), root, args.ignore)
    files = {}
    for rel in templates(root):
        heat = verdicts.verdict(os.path.join(root, rel), False)
        files[rel] = {'heat': heat, 'heatcap': ours.get(rel)}
    stricter = [{'file': f, 'heat': v['heat'], 'kind': kind(v['heat'])}
                for f, v in files.items() if v['heat'] and not v['heatcap']]
    doc = {
        'templates': len(files),
        'heat_refuses': sum(1 for v in files.values() if v['heat']),
        'heatcap_errors': sum(1 for v in files.values() if v['heatcap']),
        'both': sum(1 for v in files.values() if v['heat'] and v['heatcap']),
        'heatcap_stricter': sum(1 for v in files.values()
                                if v['heatcap'] and not v['heat']),
        'heat_stricter': stricter,
        'heat_stricter_by_kind': {
            k: sum(1 for x in stricter if x['kind'] == k)
            for k in sorted({x['kind'] for x in stricter})},
    }
    if args.all:
        doc['files'] = files
    sys.stdout.write(json.dumps(doc, sort_keys=True, indent=1) + '\n')
    return 0


if __name__ == '__main__':
    sys.exit(main())
