#!/usr/bin/env python3
"""Heat's resource types, with every property and attribute schema, as data.

Runs Heat 27.0.1's engine offline, set up as tools/heat-oracle/oracle.py
sets it up (no services, no network, no configuration file), and writes one
JSON file describing every type of Heat's global environment, as the
engine's ``resource_types`` / ``resource_schema`` / ``generate_template``
answers are built from it:

* every plugin (``ClassResourceInfo``: the 201 ``resource_mapping()`` and
  ``available_resource_mapping()`` types), hidden ones included and flagged
  by their support status;
* the template-backed types of the shipped default environment
  (``TemplateResourceInfo``: ``AWS::CloudWatch::Alarm`` and
  ``AWS::RDS::DBInstance``, read from the wheel's ``etc/heat/templates``
  where Heat names ``file:///etc/heat/templates/``);
* the default environment's other entries (aliases and the
  ``OS::Quantum*`` glob), in file order, under ``environment``.

Per type: the Python class name (the skeleton's resource name), the
description (``Resource.getdoc()``), the support status, whether its class
overrides ``get_attribute``/``FnGetAtt`` (then Heat accepts any attribute
name at validate time), every property (hidden and unimplemented ones too:
Heat still accepts their names) with its full schema, and every attribute
(``attributes_schema`` then ``base_attributes_schema``, hidden ones too).

Format: compact JSON (no spaces), object keys sorted, except the
``properties``, ``attributes`` and nested ``schema`` maps, which keep
Heat's declaration order (Heat's own outputs, the schema API and the
provider-template skeleton, follow it), and values (defaults, allowed
values), which are as Heat has them. Values that equal Heat's defaults
are left out: ``required``, ``update_allowed``, ``immutable`` and
``dynamic_attributes`` when false, ``implemented`` when true, a support
status of plain ``SUPPORTED``, and ``null`` fields. The run is
deterministic (the script re-executes itself with ``PYTHONHASHSEED=0``).

``--sample FILE`` also writes the entries of a few types (``SAMPLE``),
indented, for the drift test (tests/heat_resource_types.rs), which checks
that the committed data holds exactly what the script writes for them.

Usage, from the repository root (see README.md):

    /work/heat-venv/bin/python tools/heat-schema/generate.py \\
        data/heat-27.0.1-resource-types.json \\
        --sample tests/heat/resource-types/sample.json
"""

import json
import os
import sys
import time
import warnings

if os.environ.get('PYTHONHASHSEED') != '0' and __name__ == '__main__':
    os.environ['PYTHONHASHSEED'] = '0'
    os.execv(sys.executable, [sys.executable] + sys.argv)

warnings.simplefilter('ignore')
START = time.monotonic()

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'heat-oracle'))

import oracle  # noqa: E402  (sets up oslo.service's threading backend)

from unittest import mock  # noqa: E402

from oslo_config import cfg  # noqa: E402
from oslo_serialization import jsonutils  # noqa: E402

from heat.common import urlfetch  # noqa: E402
from heat.engine import attributes  # noqa: E402
from heat.engine import constraints as constr  # noqa: E402
from heat.engine import environment  # noqa: E402
from heat.engine import properties  # noqa: E402
from heat.engine import resource  # noqa: E402
from heat.engine import resources  # noqa: E402
from heat.engine import support  # noqa: E402

import importlib.metadata  # noqa: E402

HEAT_VERSION = importlib.metadata.version('openstack-heat')
ETC_TEMPLATES = 'file:///etc/heat/templates/'
# A plugin with nested list/map schemas and a hidden, once deprecated
# property; a template-backed type; a type with attributes of its own.
SAMPLE = ['OS::Heat::RandomString', 'AWS::CloudWatch::Alarm',
          'OS::Heat::ResourceGroup']


def wire(value):
    """The value as it travels over RPC and HTTP (JSON)."""
    return json.loads(jsonutils.dumps(value))


def support_status(status, default_omitted=True):
    d = status.to_dict()
    out = {k: v for k, v in sorted(d.items())
           if v is not None and k != 'previous_status'}
    if status.previous_status is not None:
        out['previous_status'] = support_status(status.previous_status,
                                                default_omitted=False)
    if default_omitted and out == {'status': support.SUPPORTED}:
        return None
    return {k: out[k] for k in sorted(out)}


def constraint(c):
    d = wire(dict(c))
    if isinstance(c, constr.CustomConstraint):
        assert set(d) <= {'custom_constraint', 'description'}, d
    # The bodies of range, length and modulo are maps too; allowed values
    # keep their order.
    return {k: ({i: d[k][i] for i in sorted(d[k])}
                if isinstance(d[k], dict) else d[k])
            for k in sorted(d)}


def prop(schema):
    s = properties.Schema.from_legacy(schema)
    out = {'type': s.type.lower()}
    if s.description is not None:
        out['description'] = s.description
    if s.default is not None:
        out['default'] = wire(s.default)
    if s.required:
        out['required'] = True
    if s.update_allowed:
        out['update_allowed'] = True
    if s.immutable:
        out['immutable'] = True
    if not s.implemented:
        out['implemented'] = False
    if s.constraints:
        out['constraints'] = [constraint(c) for c in s.constraints]
    if s.schema is not None:
        # A list's item schema is Heat's AnyIndexDict, shown as "*".
        out['schema'] = {n: prop(sub) for n, sub in s.schema.items()}
    st = support_status(s.support_status)
    if st is not None:
        out['support_status'] = st
    return {k: out[k] for k in sorted(out)}


def attr(schema):
    s = attributes.Schema.from_attribute(schema)
    out = {}
    if s.description is not None:
        out['description'] = s.description
    if s.type is not None:
        out['type'] = s.type.lower()
    st = support_status(s.support_status)
    if st is not None:
        out['support_status'] = st
    return {k: out[k] for k in sorted(out)}


def type_entry(cls, template=None):
    base = cls.base_attributes_schema
    assert list(base) == ['show'], (cls, list(base))
    attrs = dict(cls.attributes_schema.items())
    attrs.update(base.items())
    out = {
        'class': cls.__name__,
        'description': cls.getdoc(),
        'properties': {n: prop(s) for n, s in cls.properties_schema.items()},
        'attributes': {n: attr(s) for n, s in attrs.items()},
    }
    if (cls.get_attribute is not resource.Resource.get_attribute
            or cls.FnGetAtt is not resource.Resource.FnGetAtt):
        out['dynamic_attributes'] = True
    st = support_status(cls.support_status)
    if st is not None:
        out['support_status'] = st
    if template is not None:
        out['template'] = template
    return {k: out[k] for k in sorted(out)}


def local_templates(get):
    """Heat names its shipped templates under /etc/heat/templates; read
    them where the wheel installed them."""
    etc = os.path.join(sys.prefix, 'etc', 'heat', 'templates')

    def fetch(url, *args, **kwargs):
        if url.startswith(ETC_TEMPLATES):
            url = 'file://' + etc + '/' + url[len(ETC_TEMPLATES):]
        return get(url, *args, **kwargs)
    return fetch


def generate():
    oracle.setup_heat(5)
    env = resources.global_env()
    registry = env.registry._registry
    types, env_entries, order = {}, [], []
    for name, info in registry.items():
        if isinstance(info, environment.ClassResourceInfo):
            types[name] = type_entry(info.get_class())
            order.append(name)
        elif isinstance(info, environment.TemplateResourceInfo):
            types[name] = type_entry(info.get_class(), info.value)
            env_entries.append([name, info.value])
            order.append(name)
        elif isinstance(info, environment.ResourceInfo):
            # MapResourceInfo, GlobResourceInfo: aliases.
            env_entries.append([info.name, info.value])
        else:
            # The per-resource section of the registry: empty here.
            assert name == 'resources' and not info, (name, info)
    custom = {}
    for cname, ccls in sorted(env.constraints.items()):
        custom[cname] = '%s.%s' % (ccls.__module__, ccls.__name__)
    return {
        'custom_constraints': custom,
        'environment': env_entries,
        'heat_version': HEAT_VERSION,
        'registry_order': order,
        'types': {n: types[n] for n in sorted(types)},
    }


def main(argv):
    sample = None
    if len(argv) == 4 and argv[2] == '--sample':
        sample = argv[3]
    elif len(argv) != 2:
        sys.stderr.write(__doc__.split('\n\n')[-1])
        return 2
    cfg.CONF.register_cli_opts([])
    patches = oracle.stubs(False) + [
        mock.patch.object(urlfetch, 'get', local_templates(urlfetch.get))]
    import logging
    logging.disable(logging.CRITICAL)
    for p in patches:
        p.start()
    try:
        data = generate()
    finally:
        for p in patches:
            p.stop()
    text = json.dumps(data, separators=(',', ':'), ensure_ascii=False)
    with open(argv[1], 'w', encoding='utf-8') as f:
        f.write(text + '\n')
    if sample is not None:
        part = {'heat_version': data['heat_version'],
                'types': {n: data['types'][n] for n in SAMPLE}}
        with open(sample, 'w', encoding='utf-8') as f:
            f.write(json.dumps(part, indent=1, ensure_ascii=False) + '\n')
    sys.stderr.write('%s: %d types, %d bytes, %.1f s\n' % (
        argv[1], len(data['types']), len(text.encode()),
        time.monotonic() - START))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
