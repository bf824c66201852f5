#!/usr/bin/env python3
"""Offline Heat oracle: real OpenStack Heat's template validation, in-process.

Mimics

    openstack orchestration template validate --show-nested \\
        -t TEMPLATE -e ENV1 -e ENV2 ...

without any service, network or config file:

* Client side: python-heatclient's own ``template_utils`` builds the request
  body exactly as ``heatclient.osc.v1.template._validate`` does
  (``process_template_path`` + ``process_multiple_environments_and_files``
  with an ``env_list_tracker``): the root template is parsed by the client,
  every nested template / ``get_file`` target / environment file is uploaded
  in ``files`` keyed by an absolute ``file://`` URL, and the environments are
  listed, in order, in ``environment_files``.  The body is round-tripped
  through JSON as it would be on the wire.
* API side: ``heat.api.openstack.v1.stacks.InstantiationData`` turns the body
  into ``template``, ``params`` (environment), ``files`` and
  ``environment_files``, as ``StackController.validate_template`` does.
* Engine side: ``EngineService.validate_template(ctx, template, params,
  files=..., environment_files=..., show_nested=True)`` runs in-process with
  oslo.config initialised from no config file, a ``fake://`` oslo.messaging
  transport, an in-memory sqlite DB (``heat.tests.utils.setup_dummy_db``) and
  ``heat.tests.utils.dummy_context()``.  ``environment_dir`` and
  ``template_dir`` point at the ``etc/heat`` that the openstack-heat wheel
  installs into the venv (the packaged ``default.yaml`` global environment).
  ``max_nested_stack_depth`` is ``--max-depth`` (default 7, TripleO's
  undercloud value; Heat's own default is 5).

Stubs (the same ones Heat's unit tests use, see heat/tests/common.py and
heat/tests/test_validate.py):

* ``heat.engine.resource.Resource.is_service_available`` -> ``(True, None)``
  (no Keystone catalogue offline; otherwise every OS::Nova/Neutron/... type
  fails with ResourceTypeUnavailable).
* ``heat.common.policy.ResourceEnforcer.enforce`` -> no-op (the deployer is
  an admin; the default policy denies e.g. OS::Nova::Flavor to non-admins).
* ``oslo_config.cfg.ConfigOpts.find_file`` -> None (no policy/paste files).

Output (stdout): the validate result as JSON, ``sort_keys=True, indent=1``,
newline-terminated, exit 0.  Errors, also exit 0:

* Heat's own ``{"Error": "..."}`` results (what validate_template returns
  for StackValidationFailed and the like) are printed as they are.
* An exception that Heat's API fault middleware maps to HTTP 400 is printed
  as ``{"Error": "<ExceptionClass>: <message>"}``; one it maps to another
  4xx also gets ``"Status": <code>`` (e.g. NotFound, 404, for a template
  missing from ``files``).
* The client giving up before sending (a file it cannot read or parse):
  ``{"Error": "CommandError: <message>"}``.

Anything else (a 5xx or an oracle problem) is a traceback on stderr, exit 1.
The script re-executes itself with ``PYTHONHASHSEED=0`` so that runs repeat
exactly (Heat iterates sets in places, e.g. which missing template an error
names).

Normalisation: every ``file://`` URL in the output (in keys and values,
anywhere inside a string; a URL ends at whitespace, a quote, a comma, a
closing bracket/brace or the end of the string) is replaced by its path,
percent-decoded, made relative to ``--base`` (default: the directory of the
template), both sides with symlinks resolved as heatclient resolves them.
E.g. with base ``/t``: ``file:///t/puppet/x.yaml`` -> ``puppet/x.yaml`` and
``file:///elsewhere/y.yaml`` -> ``../elsewhere/y.yaml``.  Nothing else is
changed.

``--files-out FILE`` also writes the keys of the ``files`` dict the client
would upload, normalised the same way, sorted, one per line.

``--body FILE`` skips the client and sends a ready JSON request body
(``template``, ``files``, ``environment``, ``environment_files``), e.g. the
one ``heatcap export --format heat-api`` prints; ``--base`` then defaults to
the current directory.

``--strict`` instead runs create-time validation
(``EngineService._parse_template_and_validate_stack``, which builds the stack
with strict validation and calls ``stack.validate()``) and prints
``{"ok": true}`` or ``{"Error": "<ExceptionClass>: <message>"}``.  Custom
constraints that would ask a cloud service (nova.flavor, glance.image, ...)
are stubbed to pass, and so are OS::Nova::Server's image/flavor/network
look-ups (``Server._validate_image_flavor``, ``Server._validate_network``),
since no cloud is reachable.  Other resources whose ``validate()`` calls a
cloud client would fail with a connection error naming server.test.
"""

import argparse
import json
import os
import re
import sys
import traceback
import warnings
from unittest import mock
from urllib import parse as urlparse

if os.environ.get('PYTHONHASHSEED') != '0' and __name__ == '__main__':
    # Heat iterates sets of strings in places (e.g. which missing template an
    # error names first); fix the hash seed so runs repeat exactly.
    os.environ['PYTHONHASHSEED'] = '0'
    os.execv(sys.executable, [sys.executable] + sys.argv)

if '--debug' not in sys.argv:
    # e.g. futurist's EventletDeprecationWarning at import time
    warnings.simplefilter('ignore')

# Like heat/tests/common.py: threading backend, before anything imports
# oslo.service's eventlet backend.
from oslo_service import backend as _oslo_backend

_oslo_backend.init_backend(_oslo_backend.BackendType.THREADING)

import oslo_messaging  # noqa: E402
from oslo_config import cfg  # noqa: E402
from oslo_log import log as logging  # noqa: E402
from oslo_serialization import jsonutils  # noqa: E402

from heatclient.common import template_utils  # noqa: E402
from heatclient.common import utils as hc_utils  # noqa: E402
from heatclient import exc as hc_exc  # noqa: E402

from heat.api.middleware import fault  # noqa: E402
from heat.api.openstack.v1 import stacks as api_stacks  # noqa: E402
from heat.common import config as heat_config  # noqa: E402,F401
from heat.common import exception  # noqa: E402
from heat.common import messaging  # noqa: E402
from heat.common import policy  # noqa: E402
from heat.engine import constraints  # noqa: E402
from heat.engine import resource  # noqa: E402
from heat.engine import resources  # noqa: E402
from heat.engine import service  # noqa: E402
from heat.engine.resources.openstack.nova import server as nova_server  # noqa: E402,E501
from heat.tests import utils as heat_test_utils  # noqa: E402

import webob.exc  # noqa: E402

FILE_URL_RE = re.compile(r"file://[^\s'\"\],}]*")


class Normaliser(object):
    def __init__(self, base):
        self.base = os.path.realpath(base)

    def url(self, m):
        path = urlparse.unquote(urlparse.urlparse(m.group(0)).path)
        return os.path.relpath(path, self.base)

    def __call__(self, obj):
        if isinstance(obj, str):
            return FILE_URL_RE.sub(self.url, obj)
        if isinstance(obj, dict):
            return {self(k): self(v) for k, v in obj.items()}
        if isinstance(obj, (list, tuple)):
            return [self(v) for v in obj]
        return obj


def client_body(template, envs, parameters=None):
    """The request body heatclient's `template validate` would POST."""
    tpl_files, tpl = template_utils.process_template_path(
        template, object_request=None, fetch_child=True)
    env_files_list = []
    env_files, env = template_utils.process_multiple_environments_and_files(
        env_paths=envs or None, env_list_tracker=env_files_list,
        fetch_env_files=True)
    fields = {
        'template': tpl,
        'parameters': hc_utils.format_parameters(parameters),
        'files': dict(list(tpl_files.items()) + list(env_files.items())),
        'environment': env,
    }
    if env_files_list:
        fields['environment_files'] = env_files_list
    # heatclient's HTTP client sends jsonutils.dumps(data)
    return json.loads(jsonutils.dumps(fields))


def setup_heat(max_depth, debug=False):
    etc = os.path.join(sys.prefix, 'etc', 'heat')
    cfg.CONF(args=[], project='heat', default_config_files=[],
             default_config_dirs=[])
    cfg.CONF.set_override('environment_dir',
                          os.path.join(etc, 'environment.d'))
    cfg.CONF.set_override('template_dir', os.path.join(etc, 'templates'))
    cfg.CONF.set_override('max_nested_stack_depth', max_depth)
    if debug:
        cfg.CONF.set_override('debug', True)
        cfg.CONF.set_override('use_stderr', True)
        logging.setup(cfg.CONF, 'heat')
    messaging.setup('fake://', optional=True)
    heat_test_utils.setup_dummy_db()
    resources.initialise()


def stubs(strict):
    ps = [
        mock.patch.object(resource.Resource, 'is_service_available',
                          return_value=(True, None)),
        mock.patch.object(policy.ResourceEnforcer, 'enforce',
                          return_value=None),
        mock.patch.object(cfg.ConfigOpts, 'find_file', return_value=None),
    ]
    if strict:
        # Custom constraints backed by a cloud client (nova.flavor, ...)
        # accept every value: there is no cloud.
        ps.append(mock.patch.object(
            constraints.BaseCustomConstraint, 'validate',
            return_value=True))
        # OS::Nova::Server.validate looks the image, flavor and networks up.
        ps.append(mock.patch.object(nova_server.Server,
                                    '_validate_image_flavor',
                                    return_value=None))
        ps.append(mock.patch.object(nova_server.Server, '_validate_network',
                                    return_value=None))
    return ps


def error_of(ex):
    """{"Error": ...} for an exception the API turns into an HTTP 4xx.

    Heat's fault middleware maps the exception class to the HTTP error;
    400 gives {"Error": "Class: message"}, another 4xx adds "Status": code.
    None for anything else (5xx, oracle bugs).
    """
    if isinstance(ex, oslo_messaging.ExpectedException):
        ex = ex.exc_info[1]
    if isinstance(ex, webob.exc.HTTPClientError):
        mapped, msg = type(ex), ex.explanation
    else:
        mapped = fault.FaultWrapper(None)._map_exception_to_error(type(ex))
        msg = ex.message if isinstance(ex, exception.HeatException) \
            else str(ex)
    if not 400 <= mapped.code < 500:
        return None
    out = {'Error': '%s: %s' % (type(ex).__name__, msg)}
    if mapped.code != 400:
        out['Status'] = mapped.code
    return out


def engine_side(args, body):
    """What heat-api + heat-engine make of the request body."""
    data = api_stacks.InstantiationData(body)
    ctx = heat_test_utils.dummy_context()
    engine = service.EngineService('heat-oracle', 'engine')
    if args.strict:
        engine._parse_template_and_validate_stack(
            ctx, 'heat-oracle', data.template(), data.environment(),
            data.files(), data.environment_files(), None, {})
        return {'ok': True}
    result = engine.validate_template(
        ctx, data.template(), data.environment(), files=data.files(),
        environment_files=data.environment_files(), show_nested=True)
    # The result travels back over RPC and HTTP as JSON.
    return json.loads(jsonutils.dumps(result))


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    p.add_argument('-t', '--template')
    p.add_argument('--body', metavar='FILE',
                   help='skip the client: a JSON request body (template, '
                   'files, environment, environment_files), e.g. '
                   '`heatcap export --format heat-api`; instead of -t/-e')
    p.add_argument('-e', '--environment', action='append', default=[])
    p.add_argument('-P', '--parameter', action='append',
                   help='key=value, as the client\'s --parameter')
    p.add_argument('--base', help='directory file:// URLs are made '
                   'relative to (default: the template\'s directory)')
    p.add_argument('--max-depth', type=int, default=7,
                   help='max_nested_stack_depth (default 7)')
    p.add_argument('--strict', action='store_true',
                   help='create-time validation; prints {"ok": true} '
                   'or the error')
    p.add_argument('--files-out', metavar='FILE',
                   help='write the uploaded files keys here, one a line')
    p.add_argument('--debug', action='store_true', help='Heat logs on stderr')
    args = p.parse_args(argv)

    logging.register_options(cfg.CONF)
    if not args.debug:
        import logging as pylogging
        pylogging.disable(pylogging.CRITICAL)
    if bool(args.template) == bool(args.body):
        p.error('give exactly one of -t/--template and --body')
    base = args.base or (os.path.dirname(os.path.abspath(args.template))
                         if args.template else os.getcwd())
    norm = Normaliser(base)

    setup_heat(args.max_depth, args.debug)
    patches = stubs(args.strict)
    for ptch in patches:
        ptch.start()
    try:
        try:
            if args.body:
                with open(args.body) as f:
                    body = json.load(f)
            else:
                body = client_body(args.template, args.environment,
                                   args.parameter)
        except (hc_exc.BaseException, ValueError) as ex:
            # The client gives up before sending anything (a file it cannot
            # read, a template it cannot parse): the CLI prints ERROR: ...
            body = None
            out = {'Error': '%s: %s' % (type(ex).__name__, ex)}
        if body is not None and args.files_out:
            keys = sorted(norm(k) for k in body['files'])
            with open(args.files_out, 'w') as f:
                f.write(''.join(k + '\n' for k in keys))
        if body is not None:
            try:
                out = engine_side(args, body)
            except Exception as ex:
                out = error_of(ex)
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
