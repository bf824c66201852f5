#!/usr/bin/env python3
"""Offline Heat oracle for the create preview: real Heat 27.0.1, in-process.

Mimics

    openstack stack create --dry-run -t TEMPLATE -e ENV1 -e ENV2 ... NAME

(heatclient's ``POST /v1/{tenant}/stacks/preview``) without any service,
network or config file.  The request body is built by python-heatclient's
own ``template_utils`` exactly as ``oracle.py`` builds it (see its
docstring), plus ``stack_name``; heat-api's ``StackController.preview``
then runs in-process: ``InstantiationData`` reads the body,
``EngineService.preview_stack`` (``_parse_template_and_validate_stack``:
the stack built with strict validation, ``stack.validate()``, then
``api.format_stack_preview``: ``Stack.preview_resources()``, every nested
stack a list of its resources) answers, and ``stacks_view.format_stack``
formats it for a request to ``http://localhost:8004/v1/TENANT/stacks/preview``
(the links' endpoint; the context is ``heat.tests.utils.dummy_context``'s
with project TENANT and user USER, ``--tenant``/``--user``, both
``heatcap`` by default as ``heatcap preview --format heat`` answers).  The API answers ``{"stack": ...}``; so does this.

Set up as ``oracle.py``'s: oslo.config from no file, a ``fake://``
transport, an in-memory sqlite DB, ``heat.tests.utils.dummy_context()``,
``max_nested_stack_depth`` from ``--max-depth`` (default 7).  Stubs: those
of ``oracle.py --strict`` (service availability, policy, custom
constraints backed by a cloud client, OS::Nova::Server's image, flavor and
network look-ups): nothing else is reached by a preview.

Output: the document, JSON with sorted keys and indent 1, exit 0; or
``{"Error": ...}`` as ``oracle.py`` prints it (HTTP 4xx).  ``file://`` URLs
are normalised as ``oracle.py`` does.  ``creation_time`` is Heat's clock
(``format_stack``: ``stack.created_time or utcnow()``): ``--clock ISO``
fixes it (``timeutils.utcnow`` patched) so that recorded goldens repeat.
``--timing`` prints the engine's wall time (``preview_stack`` plus the
API's formatting, after the client's body is built) on stderr.
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
import datetime  # noqa: E402

import webob  # noqa: E402
from heatclient import exc as hc_exc  # noqa: E402
from oslo_config import cfg  # noqa: E402
from oslo_log import log as logging  # noqa: E402
from oslo_serialization import jsonutils  # noqa: E402
from oslo_utils import timeutils  # noqa: E402

from heat.api.openstack.v1 import stacks as api_stacks  # noqa: E402
from heat.api.openstack.v1.views import stacks_view  # noqa: E402
from heat.engine import service  # noqa: E402
from heat.tests import utils as heat_test_utils  # noqa: E402


def engine_side(body, timing, tenant, user):
    data = api_stacks.InstantiationData(body)
    ctx = heat_test_utils.dummy_context(user=user, tenant_id=tenant)
    engine = service.EngineService('heat-oracle', 'engine')
    start = time.perf_counter()
    result = engine.preview_stack(
        ctx, data.stack_name(), data.template(), data.environment(),
        data.files(), data.args(),
        environment_files=data.environment_files(),
        files_container=data.files_container())
    # Over RPC as JSON, then the API's view.
    result = json.loads(jsonutils.dumps(result))
    req = webob.Request.blank(
        '/%s/stacks/preview' % ctx.project_id,
        base_url='http://localhost:8004/v1')
    out = {'stack': stacks_view.format_stack(req, result)}
    out = json.loads(jsonutils.dumps(out))
    if timing:
        sys.stderr.write('preview_stack: %.3f s\n'
                         % (time.perf_counter() - start))
    return out


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    p.add_argument('-t', '--template', required=True)
    p.add_argument('-e', '--environment', action='append', default=[])
    p.add_argument('-P', '--parameter', action='append',
                   help='key=value, as the client\'s --parameter')
    p.add_argument('--stack-name', help='default: the template\'s file '
                   'name without its extension')
    p.add_argument('--base', help='directory file:// URLs are made '
                   'relative to (default: the template\'s directory)')
    p.add_argument('--max-depth', type=int, default=7)
    p.add_argument('--clock', default=None,
                   help='fix utcnow, e.g. 2026-01-01T00:00:00')
    p.add_argument('--timing', action='store_true')
    p.add_argument('--tenant', default='heatcap',
                   help='the project (default heatcap, as heatcap\'s)')
    p.add_argument('--user', default='heatcap',
                   help='the user (default heatcap, as heatcap\'s)')
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

    oracle.setup_heat(args.max_depth, args.debug)
    patches = oracle.stubs(True)
    if args.clock:
        fixed = datetime.datetime.fromisoformat(args.clock)
        patches.append(mock.patch.object(timeutils, 'utcnow',
                                         return_value=fixed))
    for ptch in patches:
        ptch.start()
    try:
        try:
            body = oracle.client_body(args.template, args.environment,
                                      args.parameter)
            body['stack_name'] = name
        except (hc_exc.BaseException, ValueError) as ex:
            body = None
            out = {'Error': '%s: %s' % (type(ex).__name__, ex)}
        if body is not None:
            try:
                out = engine_side(body, args.timing, args.tenant, args.user)
            except Exception as ex:
                out = oracle.error_of(ex)
                if out is None:
                    traceback.print_exc()
                    return 1
    finally:
        for ptch in patches:
            ptch.stop()
    sys.stdout.write(json.dumps(norm(out), sort_keys=True, indent=1) + '\n')
    return 0


if __name__ == '__main__':
    sys.exit(main())
