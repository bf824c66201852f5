#!/usr/bin/env python3
"""What Heat's API answers to each HTTP method on its template-level routes.

Runs Heat 27's own WSGI pipeline in-process (no server, no network, no
config file): ``faultwrap`` -> ``versionnegotiation`` -> the v1 ``API``
router (``heat/api/openstack/v1/__init__.py``, whose ``connect`` registers
each route's methods with ``routes.Mapper`` and sends every other method to
``DefaultMethodController``: ``reject``, a 405, or ``options``, a 204).
Authentication is replaced by a request context for the path's project
(roles admin, member, reader), set as ``keystonemiddleware`` +
``ContextMiddleware`` would set it; the engine is an in-process
``EngineService`` behind the RPC client (``EngineClient.call``), set up as
``oracle.py`` sets it up (the same stubs).

For each (method, path) it records the status, the headers that matter
(``Allow``, ``Content-Type``), the fault's ``error.type`` when the answer
is a fault document (taken as the fault middleware builds it, since webob
drops a HEAD answer's body), and whether a body goes on the wire. The body rule is
the WSGI server's: heat-api serves through eventlet.wsgi, which sends no
body for HEAD, 204, 304 and 1xx (``eventlet/wsgi.py`` ``start_response``:
``bodyless``) but keeps the application's ``Content-Length``.

Usage, from the repository root:

    /work/heat-venv/bin/python tools/heat-oracle/methods.py \\
        > tests/heat/methods.json
"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.argv = sys.argv[:1]

import oracle  # noqa: E402  (sets the threading backend, warnings off)

from unittest import mock  # noqa: E402

from oslo_config import cfg  # noqa: E402
import oslo_messaging as messaging  # noqa: E402
from oslo_log import log as logging  # noqa: E402

from heat.api import openstack as api_openstack  # noqa: E402
from heat.api.middleware import fault  # noqa: E402
from heat.api.openstack import v1  # noqa: E402
from heat.common import wsgi  # noqa: E402
from heat.engine import service  # noqa: E402
from heat.rpc import client as rpc_client  # noqa: E402
from heat.tests import utils as heat_test_utils  # noqa: E402

TENANT = 'demo'

# Heat's template-level routes (heat-api.md §1.1), the create preview's
# route (whose other methods Heat's router sends to `stack_lookup`, the
# route `/stacks/{stack_name}`) and the versions paths.
GET_ROUTES = [
    '/v1/demo/resource_types',
    '/v1/demo/resource_types/OS::Heat::RandomString',
    '/v1/demo/resource_types/OS::Heat::RandomString/template',
    '/v1/demo/template_versions',
    '/v1/demo/template_versions/heat_template_version.2018-08-31/functions',
    '/v1/demo/build_info',
]
CASES = (
    [(m, p) for p in ['/', '/versions']
     for m in ['GET', 'HEAD', 'OPTIONS', 'POST']]
    + [(m, p) for p in ['/v1', '/v1/demo'] for m in ['GET', 'HEAD']]
    + [(m, p) for p in GET_ROUTES for m in ['GET', 'HEAD', 'OPTIONS', 'POST']]
    + [(m, '/v1/demo/validate') for m in ['GET', 'HEAD', 'OPTIONS', 'PUT']]
    + [(m, '/v1/demo/stacks/preview')
       for m in ['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'DELETE']]
    + [(m, '/v1/demo/no_such_route') for m in ['GET', 'HEAD']]
)


def app():
    logging.register_options(cfg.CONF)
    import logging as pylogging
    pylogging.disable(pylogging.CRITICAL)
    oracle.setup_heat(5)
    for p in oracle.stubs(False):
        p.start()
    engine = service.EngineService('heat-oracle', 'engine')

    def call(self, ctxt, msg, version=None, timeout=None):
        method, kwargs = msg
        try:
            return getattr(engine, method)(ctxt, **kwargs)
        except messaging.ExpectedException as e:
            # What the RPC server sends back is the exception inside
            # (oslo.messaging's dispatcher unwraps it): a stack lookup's
            # `StackNotFound`, as a running heat-api sees it.
            raise e.exc_info[1]

    mock.patch.object(rpc_client.EngineClient, 'call', call).start()
    mock.patch.object(fault.Fault, '__init__', _noting_fault).start()
    conf = cfg.CONF
    return api_openstack.faultwrap_filter(
        api_openstack.version_negotiation_filter(v1.API(conf), conf), conf)


# The fault document each answer was made from (webob drops a HEAD
# answer's body before it reaches here).
FAULTS = []
_fault_init = fault.Fault.__init__


def _noting_fault(self, error):
    FAULTS.append(error)
    _fault_init(self, error)


def answer(application, method, path):
    FAULTS.clear()
    req = wsgi.Request.blank(path, method=method)
    req.context = heat_test_utils.dummy_context(
        'heat-oracle', TENANT, roles=['admin', 'member', 'reader'])
    resp = req.get_response(application)
    out = {
        'method': method,
        'path': path,
        'status': resp.status_code,
        'headers': {k: resp.headers[k] for k in ('Allow', 'Content-Type')
                    if k in resp.headers},
        # eventlet.wsgi's rule: no body for HEAD, 204, 304, 1xx.
        'body_sent': not (method == 'HEAD' or resp.status_code in (204, 304)
                          or 100 <= resp.status_code < 200),
    }
    if FAULTS:
        out['fault'] = FAULTS[-1]['error']['type']
    return out


def main():
    application = app()
    cases = [answer(application, m, p) for m, p in CASES]
    json.dump({'heat': '27.0.1', 'cases': cases}, sys.stdout, indent=1,
              sort_keys=True)
    sys.stdout.write('\n')


if __name__ == '__main__':
    main()
