#!/usr/bin/env python3
"""Heat's own answers to `openstack orchestration resource type list|show`,
recorded for heatcap's `resource-type` command, and a full comparison.

Heat 27.0.1's engine runs in-process as generate.py runs it (the oracle's
setup: no services, no network). For each case below, the engine call the
API makes (``list_resource_types``, ``resource_schema``,
``generate_template``) is answered, and what the user sees is derived from
the answer as Heat and python-heatclient derive it:

* ``api``: the HTTP body Heat's API sends, ``jsonutils.dumps(result)``
  (what ``heatcap ... --format heat`` prints), plus a newline;
* ``yaml``: the client's default output for a template (cliff's YAML
  formatter: ``yaml.safe_dump({key: value}, default_flow_style=False)``
  for each top-level key of the body, in order);
* ``json``: the client's ``-f json`` (``json.dump(body, indent=2)`` and a
  newline).

``record`` writes ``tests/heat/resource-types/cases.json`` (heatcap's
arguments, the output file, the exit status) and one output file per case;
``tests/heat_resource_types.rs`` runs heatcap on every case and compares
byte for byte. Errors (a hidden type, an unknown type) are recorded as the
exit status heatcap gives them (1) with Heat's exception in ``heat_error``.

``check HEATCAP`` runs a built heatcap against Heat for every type Heat
knows (the aliases and a glob-mapped name too): the schema with and without
``--long``, and the HOT and CFN templates in all three forms; it prints each
difference and a count, and exits 1 on any.

Usage, from the repository root:

    /work/heat-venv/bin/python tools/heat-schema/record.py record
    cargo build --release
    /work/heat-venv/bin/python tools/heat-schema/record.py check target/release/heatcap
"""

import json
import os
import subprocess
import sys
import warnings

if os.environ.get('PYTHONHASHSEED') != '0' and __name__ == '__main__':
    os.environ['PYTHONHASHSEED'] = '0'
    os.execv(sys.executable, [sys.executable] + sys.argv)

warnings.simplefilter('ignore')
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, '..', 'heat-oracle'))

import generate  # noqa: E402  (the oracle's setup, the templates' location)
import oracle  # noqa: E402

from unittest import mock  # noqa: E402

import yaml  # noqa: E402
from oslo_serialization import jsonutils  # noqa: E402

from heat.common import urlfetch  # noqa: E402
from heat.engine import resources  # noqa: E402
from heat.engine import service  # noqa: E402
from heat.tests import utils as heat_test_utils  # noqa: E402

OUT_DIR = os.path.join('tests', 'heat', 'resource-types')

# (file, heatcap arguments after `resource-type`, Heat call, output form)
CASES = [
    ('show-random-string.json',
     ['show', 'OS::Heat::RandomString', '--format', 'heat'],
     ('schema', 'OS::Heat::RandomString', False), 'api'),
    ('show-random-string-long.json',
     ['show', 'OS::Heat::RandomString', '--long', '--format', 'heat'],
     ('schema', 'OS::Heat::RandomString', True), 'api'),
    ('show-alias.json',
     ['show', 'OS::Ceilometer::Alarm', '--format', 'heat'],
     ('schema', 'OS::Ceilometer::Alarm', False), 'api'),
    ('show-glob.json',
     ['show', 'OS::Quantum::Net', '--format', 'heat'],
     ('schema', 'OS::Quantum::Net', False), 'api'),
    ('show-template-backed.json',
     ['show', 'AWS::CloudWatch::Alarm', '--format', 'heat'],
     ('schema', 'AWS::CloudWatch::Alarm', False), 'api'),
    ('show-hidden.json',
     ['show', 'OS::Glance::Image', '--format', 'heat'],
     ('schema', 'OS::Glance::Image', False), 'api'),
    ('show-unknown.json',
     ['show', 'OS::Nova::Sever', '--format', 'heat'],
     ('schema', 'OS::Nova::Sever', False), 'api'),
    ('list.json',
     ['list', '--format', 'heat'],
     ('list', {}, False), 'api'),
    ('list-long-name.json',
     ['list', '--long', '--filter', 'name=OS::Heat::S', '--format', 'heat'],
     ('list', {'type_name': 'OS::Heat::S'}, True), 'api'),
    ('list-deprecated.json',
     ['list', '--filter', 'support_status=DEPRECATED', '--format', 'heat'],
     ('list', {'support_status': 'DEPRECATED'}, False), 'api'),
    ('list-version-and-name.json',
     ['list', '--filter', 'version=8.0.0;name=OS::Neutron', '--format',
      'heat'],
     ('list', {'heat_version': '8.0.0', 'type_name': 'OS::Neutron'}, False),
     'api'),
    ('template-random-string.yaml',
     ['show', 'OS::Heat::RandomString', '--template-type', 'hot'],
     ('template', 'OS::Heat::RandomString', 'hot'), 'yaml'),
    ('template-random-string.json',
     ['show', 'OS::Heat::RandomString', '--template-type', 'hot',
      '--format', 'json'],
     ('template', 'OS::Heat::RandomString', 'hot'), 'json'),
    ('template-random-string-api.json',
     ['show', 'OS::Heat::RandomString', '--template-type', 'hot',
      '--format', 'heat'],
     ('template', 'OS::Heat::RandomString', 'hot'), 'api'),
    ('template-web-image.yaml',
     ['show', 'OS::Glance::WebImage', '--template-type', 'hot'],
     ('template', 'OS::Glance::WebImage', 'hot'), 'yaml'),
    ('template-web-image-cfn.yaml',
     ['show', 'OS::Glance::WebImage', '--template-type', 'cfn'],
     ('template', 'OS::Glance::WebImage', 'cfn'), 'yaml'),
    ('template-web-image-cfn.json',
     ['show', 'OS::Glance::WebImage', '--template-type', 'cfn',
      '--format', 'json'],
     ('template', 'OS::Glance::WebImage', 'cfn'), 'json'),
    ('template-network-interface.yaml',
     ['show', 'AWS::EC2::NetworkInterface', '--template-type', 'hot'],
     ('template', 'AWS::EC2::NetworkInterface', 'hot'), 'yaml'),
    ('template-template-backed.yaml',
     ['show', 'AWS::RDS::DBInstance', '--template-type', 'hot'],
     ('template', 'AWS::RDS::DBInstance', 'hot'), 'yaml'),
    ('template-alias.json',
     ['show', 'OS::Metering::Alarm', '--template-type', 'hot', '--format',
      'json'],
     ('template', 'OS::Metering::Alarm', 'hot'), 'json'),
]


class Heat(object):
    """The engine, answering as the API would."""

    def __init__(self):
        import logging
        logging.disable(logging.CRITICAL)
        oracle.setup_heat(5)
        self.patches = oracle.stubs(False) + [
            mock.patch.object(urlfetch, 'get',
                              generate.local_templates(urlfetch.get))]
        for p in self.patches:
            p.start()
        self.ctx = heat_test_utils.dummy_context()
        self.engine = service.EngineService('heat-schema', 'engine')

    def call(self, call):
        kind, what, extra = call
        if kind == 'list':
            return {'resource_types': self.engine.list_resource_types(
                self.ctx, with_description=extra, **what)}
        if kind == 'schema':
            return self.engine.resource_schema(self.ctx, what, extra)
        return self.engine.generate_template(self.ctx, what, extra)

    def answer(self, call, form):
        """(stdout text, None) or (None, 'Exception: message')."""
        try:
            result = self.call(call)
        except Exception as ex:
            return None, '%s: %s' % (type(ex).__name__, ex)
        body = jsonutils.dumps(result)
        if form == 'api':
            return body + '\n', None
        body = json.loads(body)
        if form == 'json':
            return json.dumps(body, indent=2) + '\n', None
        return ''.join(yaml.safe_dump({k: v}, default_flow_style=False)
                       for k, v in body.items()), None


def record():
    heat = Heat()
    os.makedirs(OUT_DIR, exist_ok=True)
    manifest = []
    for name, args, call, form in CASES:
        text, error = heat.answer(call, form)
        case = {'name': name, 'args': ['resource-type'] + args}
        if error is None:
            with open(os.path.join(OUT_DIR, name), 'w') as f:
                f.write(text)
            case['status'] = 0
        else:
            case['status'] = 1
            case['heat_error'] = error
        manifest.append(case)
    with open(os.path.join(OUT_DIR, 'cases.json'), 'w') as f:
        json.dump(manifest, f, indent=1)
        f.write('\n')
    sys.stderr.write('%d cases in %s\n' % (len(manifest), OUT_DIR))
    return 0


def run_heatcap(exe, args):
    p = subprocess.run([exe, 'resource-type'] + args, capture_output=True,
                       text=True)
    return p.returncode, p.stdout


def check(exe):
    heat = Heat()
    registry = resources.global_env().registry._registry
    names = sorted(n for n in registry if n != 'resources'
                   and not n.endswith('*')) + ['OS::Quantum::Port']
    compared = differences = 0

    def compare(args, call, form):
        nonlocal compared, differences
        want, error = heat.answer(call, form)
        status, got = run_heatcap(exe, args)
        compared += 1
        if error is not None:
            if status != 1:
                differences += 1
                print('DIFF %s: Heat refuses (%s), heatcap exits %d' % (
                    ' '.join(args), error, status))
        elif status != 0 or got != want:
            differences += 1
            print('DIFF %s: exit %d' % (' '.join(args), status))
            for i, (a, b) in enumerate(zip(want.splitlines(),
                                           got.splitlines())):
                if a != b:
                    print('  line %d\n  heat:    %.300r\n  heatcap: %.300r' % (
                        i + 1, a, b))
                    break
            else:
                print('  lengths %d (heat) / %d (heatcap)' % (
                    len(want), len(got)))

    for name in names:
        compare(['show', name, '--format', 'heat'],
                ('schema', name, False), 'api')
        compare(['show', name, '--long', '--format', 'heat'],
                ('schema', name, True), 'api')
        for dialect in ('hot', 'cfn'):
            for form, fmt in (('yaml', 'yaml'), ('json', 'json'),
                              ('api', 'heat')):
                compare(['show', name, '--template-type', dialect,
                         '--format', fmt],
                        ('template', name, dialect), form)
    for long in (False, True):
        for filt, kwargs in ((None, {}),
                             ('support_status=UNSUPPORTED',
                              {'support_status': 'UNSUPPORTED'}),
                             ('name=AWS::', {'type_name': 'AWS::'})):
            args = ['list', '--format', 'heat'] + (['--long'] if long else [])
            if filt:
                args += ['--filter', filt]
            compare(args, ('list', kwargs, long), 'api')
    print('%d comparisons, %d differences' % (compared, differences))
    return 1 if differences else 0


def main(argv):
    if argv[1:] == ['record']:
        return record()
    if len(argv) == 3 and argv[1] == 'check':
        return check(argv[2])
    sys.stderr.write(__doc__.split('\n\n')[-1])
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv))
