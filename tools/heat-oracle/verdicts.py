#!/usr/bin/env python3
"""Records Heat 27.0.1's verdict on single templates, at both stages.

For every ``*.yaml`` under the given directories, runs what
``openstack orchestration template validate`` runs (``validate``: the stack
built with ``strict_validate=False``, which checks property and attribute
names) and what ``openstack stack create`` runs before it creates anything
(``create``: the stack built with ``strict_validate=True`` and
``stack.validate()``, which also checks required properties, types and
constraints), each with the stubs of ``oracle.py --strict`` (no cloud:
custom constraints such as nova.flavor pass). A third stage, ``nested``,
is recorded for templates that pass ``create``: what ``stack create``
refuses later, when it creates the nested stack of an
``OS::Heat::ResourceGroup`` or ``OS::Heat::ResourceChain`` (the engine
validates each nested stack with ``strict_validate=True`` when it creates
it, where the check before creating anything validated the members with
``strict_validate=False``: property names only). Prints one JSON
document::

    {"heat": "27.0.1",
     "verdicts": {"bad-unknown-property.yaml":
                    {"validate": "Property error: ... Unknown Property notprop",
                     "create": "StackValidationFailed: Property error: ...",
                     "nested": null},
                  "good-random-string.yaml":
                    {"validate": null, "create": null, "nested": null}}}

A template ``NAME.yaml`` with a ``NAME.env.yaml`` beside it is given
that environment (``-e``), as the client gives it.

``null`` means Heat accepts the template at that stage; otherwise the
message is Heat's, as the API returns it (``Class: message`` where the API
adds the class). Paths are relative to each directory given. Heat is set up
once, so a few hundred templates take seconds, not minutes.

Usage (from the repository root, with the venv of README.md)::

    /work/heat-venv/bin/python tools/heat-oracle/verdicts.py fixtures/schema \
        > tests/heat/schema-verdicts.json
"""

import argparse
import json
import os
import sys

if os.environ.get('PYTHONHASHSEED') != '0' and __name__ == '__main__':
    os.environ['PYTHONHASHSEED'] = '0'
    os.execv(sys.executable, [sys.executable] + sys.argv)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oracle  # noqa: E402


def parameter_values(path):
    """`name=value` for each parameter of `path` without a default: a value
    that meets its constraints where they are allowed_values, range or
    length (custom constraints pass under the stubs), so that `create`
    reaches the resources instead of stopping at UserParameterMissing.
    Names the template's environment sets are left to it."""
    import yaml
    with open(path) as f:
        tpl = yaml.safe_load(f) or {}
    params = tpl.get('parameters') or tpl.get('Parameters') or {}
    given = set()
    for env in environments(path):
        with open(env) as f:
            doc = yaml.safe_load(f) or {}
        for section in ('parameters', 'parameter_defaults'):
            given.update(doc.get(section) or {})
    out = []
    for name, spec in sorted(params.items()):
        if not isinstance(spec, dict) or name in given:
            continue
        if 'default' in spec or 'Default' in spec:
            continue
        kind = str(spec.get('type', spec.get('Type', 'string'))).lower()
        value = {'number': '1', 'boolean': 'true', 'json': '{}',
                 'comma_delimited_list': 'a',
                 'commadelimitedlist': 'a'}.get(kind, 'x')
        for c in spec.get('constraints') or []:
            if not isinstance(c, dict):
                continue
            if c.get('allowed_values'):
                value = str(c['allowed_values'][0])
            elif isinstance(c.get('range'), dict) and kind == 'number':
                value = str(c['range'].get('min', c['range'].get('max', 1)))
            elif isinstance(c.get('length'), dict) and kind == 'string':
                value = 'x' * int(c['length'].get('min', 1))
        out.append('%s=%s' % (name, value))
    return out


def environments(path):
    """The environment given with `path`: `NAME.env.yaml` beside
    `NAME.yaml`, when there is one."""
    env = path[:-len('.yaml')] + '.env.yaml'
    return [env] if os.path.exists(env) else []


def verdict(path, strict):
    """None when Heat accepts `path` at this stage, else its message. At
    `create` the parameters without a default get values
    (`parameter_values`), as a user creating the stack would give."""
    args = argparse.Namespace(strict=strict)
    patches = oracle.stubs(strict)
    for p in patches:
        p.start()
    try:
        try:
            body = oracle.client_body(
                path, environments(path),
                parameter_values(path) if strict else None)
        except Exception as ex:  # the client refuses before Heat is called
            return '%s: %s' % (type(ex).__name__, ex)
        try:
            out = oracle.engine_side(args, body)
        except Exception as ex:
            err = oracle.error_of(ex)
            if err is None:
                raise
            return err['Error']
        if strict:
            return None
        return out.get('Error')
    finally:
        for p in patches:
            p.stop()


def nested_verdict(path):
    """None when Heat creates every group and chain nested stack of
    `path` (or it has none), else the first refusal, with the path Heat
    gives it (``resources.NAME<nested_stack>...``)."""
    from heat.api.openstack.v1 import stacks as api_stacks
    from heat.common import exception
    patches = oracle.stubs(True)
    for p in patches:
        p.start()
    try:
        body = oracle.client_body(path, environments(path),
                                  parameter_values(path))
        data = api_stacks.InstantiationData(body)
        ctx = oracle.heat_test_utils.dummy_context()
        engine = oracle.service.EngineService('heat-oracle', 'engine')
        stack = engine._parse_template_and_validate_stack(
            ctx, 'heat-oracle', data.template(), data.environment(),
            data.files(), data.environment_files(), None, {})
        for name in sorted(stack.resources):
            res = stack.resources[name]
            if type(res).__name__ not in ('ResourceGroup', 'ResourceChain'):
                continue
            try:
                child = res._parse_nested_stack(
                    '%s-%s' % (stack.name, name), res.child_template(),
                    res.child_params())
                child.strict_validate = True
                child.validate()
            except Exception as ex:
                err = exception.StackValidationFailed(
                    error=ex,
                    path=[stack.t.RESOURCES,
                          '%s<%s>' % (name, res.template_url)])
                return '%s: %s' % (type(err).__name__, err)
        return None
    finally:
        for p in patches:
            p.stop()


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    p.add_argument('directories', nargs='+')
    args = p.parse_args(argv)
    import logging as pylogging
    oracle.logging.register_options(oracle.cfg.CONF)
    pylogging.disable(pylogging.CRITICAL)
    oracle.setup_heat(7)
    from heat import version
    verdicts = {}
    for d in args.directories:
        for name in sorted(os.listdir(d)):
            if not name.endswith('.yaml') or name.endswith('.env.yaml'):
                continue
            path = os.path.join(d, name)
            create = verdict(path, True)
            found = {
                'validate': verdict(path, False),
                'create': create,
                'nested': None if create else nested_verdict(path),
            }
            # The client names missing files by absolute URL.
            here = 'file://' + os.path.abspath(d) + '/'
            verdicts[name] = {k: v and v.replace(here, 'file://DIR/')
                              for k, v in found.items()}
    doc = {'heat': version.version_info.version_string(),
           'verdicts': verdicts}
    sys.stdout.write(json.dumps(doc, sort_keys=True, indent=1) + '\n')
    return 0


if __name__ == '__main__':
    sys.exit(main())
