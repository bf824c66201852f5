#!/usr/bin/env python3
"""Offline Heat oracle for the update preview: real Heat 27.0.1, in-process.

Mimics

    openstack stack update --dry-run --show-nested -t NEW -e ENV... NAME

against a stack NAME that was built from ``--from-template OLD
--from-environment ENV...`` and never deployed (the "never-deployed mode"
of docs previews.md: both sides resolve ``get_resource`` to the
resource's name and ``get_attr`` to None, no resource row is stored).

As Heat's own tests do (``ServiceStackUpdatePreviewTest``): the old side's
request body is built by python-heatclient's ``template_utils`` as
``oracle.py`` builds it; ``EngineService._parse_template_and_validate_stack``
builds and validates it as a create would, ``Stack.store()`` stores the
stack row only, and ``Stack.preview_resources()`` builds its nested tree in
memory.  Then the new side's body goes through heat-api's
``InstantiationData`` and ``prepare_args`` to the real
``EngineService.preview_update_stack(..., show_nested=True)``, with
``parser.Stack.load`` patched to return the old stack.  The API answers
``{"resource_changes": {...}}``; so does this.

Stubs: those of ``oracle.py --strict``, plus
``StackResource.nested_identifier`` (a nested stack built in memory has
no id, and Heat 27 crashes formatting it: the oracle gives it the id
``None`` as every stack never stored; ``--crash`` leaves Heat's own) and,
so that this id never reaches the engine, ``StackResource.get_output`` (a
nested stack never stored has no outputs: ``None``, what Heat's own
``nested_identifier`` gives; with the id, formatting an entry's attributes
would ask the engine by RPC, ``show_stack``, which nothing serves
offline: oslo.messaging's fake driver waits for ever); ``deferred_auth_method``
is ``password`` (``Stack.store`` would make a trust in Keystone).

Output normalised for recording: the stored stack's random id shows as
``None`` (the id of every stack Heat never stored); each list is sorted by
(stack_name, resource_name) (Heat's order is Python set order);
``file://`` URLs as ``oracle.py`` normalises them.  JSON, sorted keys,
indent 1; ``{"Error": ...}`` when Heat refuses either side (an HTTP 4xx);
a crash (HTTP 500) prints ``{"Error": "500: <exception>"}``.
"""

import json
import os
import sys
import time
import traceback
from unittest import mock

if os.environ.get('PYTHONHASHSEED') != '0' and __name__ == '__main__':
    os.environ['PYTHONHASHSEED'] = '0'
    os.execv(sys.executable, [sys.executable] + sys.argv)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import oracle  # noqa: E402  (sets up warnings and oslo.service's backend)

import argparse  # noqa: E402

from heatclient import exc as hc_exc  # noqa: E402
from oslo_config import cfg  # noqa: E402
from oslo_log import log as logging  # noqa: E402
from oslo_serialization import jsonutils  # noqa: E402

from heat.api.openstack.v1 import stacks as api_stacks  # noqa: E402
from heat.engine import stack as parser  # noqa: E402
from heat.engine import service  # noqa: E402
from heat.engine.resources import stack_resource  # noqa: E402
from heat.rpc import api as rpc_api  # noqa: E402
from heat.tests import utils as heat_test_utils  # noqa: E402


def old_stack(engine, ctx, body):
    data = api_stacks.InstantiationData(body)
    stack = engine._parse_template_and_validate_stack(
        ctx, data.stack_name(), data.template(), data.environment(),
        data.files(), data.environment_files(), data.files_container(),
        data.args())
    stack.store()
    stack.preview_resources()
    return stack


def engine_side(old_body, new_body, timing, tenant, user, show_nested=True):
    ctx = heat_test_utils.dummy_context(user=user, tenant_id=tenant)
    engine = service.EngineService('heat-oracle', 'engine')
    start = time.perf_counter()
    outcome = 'failed'
    try:
        current = old_stack(engine, ctx, old_body)
        data = api_stacks.InstantiationData(new_body)
        controller = api_stacks.StackController.__new__(
            api_stacks.StackController)
        args = controller.prepare_args(data, is_update=True)
        args[rpc_api.PARAM_SHOW_NESTED] = show_nested
        with mock.patch.object(parser.Stack, 'load', return_value=current):
            changes = engine.preview_update_stack(
                ctx, dict(current.identifier()), data.template(),
                data.environment(), data.files(), args,
                environment_files=data.environment_files(),
                files_container=data.files_container())
        out = json.loads(jsonutils.dumps({'resource_changes': changes}))
        outcome = 'answered'
    finally:
        # The time until Heat answers or fails (a failure is timed too:
        # Heat 27 fails on the 2018 and later trees with show_nested).
        if timing:
            sys.stderr.write('preview_update_stack: %.3f s (%s)\n'
                             % (time.perf_counter() - start, outcome))
    return out, current.id


def unstore(v, stack_id):
    if isinstance(v, dict):
        return {k: unstore(x, stack_id) for k, x in v.items()}
    if isinstance(v, list):
        return [unstore(x, stack_id) for x in v]
    if v == stack_id:
        return 'None'
    return v


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    p.add_argument('-t', '--template', required=True,
                   help='the new side\'s template')
    p.add_argument('-e', '--environment', action='append', default=[],
                   help='the new side\'s environments (repeatable)')
    p.add_argument('--from-template', help='the old side\'s template '
                   '(default: -t)')
    p.add_argument('--from-environment', action='append', default=None,
                   help='the old side\'s environments (repeatable; '
                   'default: the -e ones)')
    p.add_argument('--stack-name', help='default: the new template\'s '
                   'file name without its extension')
    p.add_argument('--base', help='directory file:// URLs are made '
                   'relative to (default: the new template\'s directory)')
    p.add_argument('--max-depth', type=int, default=7)
    p.add_argument('--timing', action='store_true')
    p.add_argument('--tenant', default='heatcap')
    p.add_argument('--user', default='heatcap')
    p.add_argument('--crash', action='store_true',
                   help='leave StackResource.nested_identifier as Heat has it')
    p.add_argument('--no-show-nested', action='store_true',
                   help='the root stack\'s resources only (what '
                   '`openstack stack update --dry-run` without '
                   '--show-nested asks)')
    p.add_argument('--debug', action='store_true')
    args = p.parse_args(argv)

    logging.register_options(cfg.CONF)
    if not args.debug:
        import logging as pylogging
        pylogging.disable(pylogging.CRITICAL)
    base = args.base or os.path.dirname(os.path.abspath(args.template))
    norm = oracle.Normaliser(base)
    name = args.stack_name or os.path.splitext(
        os.path.basename(args.template))[0]
    from_template = args.from_template or args.template
    from_envs = (args.from_environment if args.from_environment is not None
                 else args.environment)

    oracle.setup_heat(args.max_depth, args.debug)
    patches = oracle.stubs(True)
    # Stack.store() keeps the request's credentials (no trust: no cloud).
    cfg.CONF.set_override('deferred_auth_method', 'password')
    # A nested stack built in memory has no id: Heat 27 crashes formatting
    # it (previews.md's show_nested defect); its identifier is made of the
    # id it has, None, as every stack never stored.
    real_nested_identifier = stack_resource.StackResource.nested_identifier

    def nested_identifier(self):
        if self.resource_id is None and self._nested is not None:
            return self._nested.identifier()
        return real_nested_identifier(self)
    # ... but that id must not reach get_output: with Heat's own
    # nested_identifier (None for a stack never stored) an output is None
    # without asking the engine; with the id above it would ask the engine
    # by RPC (show_stack), which nothing serves offline (oslo.messaging's
    # fake driver waits for ever: the hang on every template resource with
    # outputs, e.g. the 2016 deployment's). Formatting an entry resolves
    # every attribute (api.format_resource_attributes).
    real_get_output = stack_resource.StackResource.get_output

    def get_output(self, op):
        if self.resource_id is None and self._outputs is None:
            return None
        return real_get_output(self, op)
    if not args.crash:
        patches.append(mock.patch.object(stack_resource.StackResource,
                                         'nested_identifier',
                                         nested_identifier))
        patches.append(mock.patch.object(stack_resource.StackResource,
                                         'get_output', get_output))
    for ptch in patches:
        ptch.start()
    try:
        try:
            old_body = oracle.client_body(from_template, from_envs)
            old_body['stack_name'] = name
            new_body = oracle.client_body(args.template, args.environment)
            new_body['stack_name'] = name
        except (hc_exc.BaseException, ValueError) as ex:
            old_body = None
            out = {'Error': '%s: %s' % (type(ex).__name__, ex)}
        if old_body is not None:
            try:
                out, stack_id = engine_side(old_body, new_body, args.timing,
                                            args.tenant, args.user,
                                            not args.no_show_nested)
                out = unstore(out, stack_id)
                for k, entries in out['resource_changes'].items():
                    entries.sort(key=lambda e: (e.get('stack_name'),
                                                e.get('resource_name')))
            except Exception as ex:
                out = oracle.error_of(ex)
                if out is None:
                    if args.debug:
                        traceback.print_exc()
                    out = {'Error': '500: %s: %s' % (type(ex).__name__, ex)}
    finally:
        for ptch in patches:
            ptch.stop()
    sys.stdout.write(json.dumps(norm(out), sort_keys=True, indent=1) + '\n')
    return 0


if __name__ == '__main__':
    sys.exit(main())
