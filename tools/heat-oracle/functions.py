#!/usr/bin/env python3
"""Records what Heat 27.0.1's intrinsic functions give at validate time.

    /work/heat-venv/bin/python tools/heat-oracle/functions.py SUITE.json...

Each SUITE.json (tests/heat/functions/) holds a ``template`` (with its
``parameters``, ``resources``, ``conditions``, ``Mappings``), optional
``params`` (the environment's parameter values) and ``files`` (the
``get_file`` contents, as the client uploads them), and ``cases``: each a
``snippet``, and optionally ``"condition": "ref"`` (a resource's
``condition``, ``if``'s first argument: ``is_enabled(resolve(
parse_condition(snippet)))``) or ``"condition": "definition"`` (an entry of
the ``conditions`` section, as ``Conditions`` resolves it).

The stack is built as ``EngineService.validate_template`` builds it (name
``dummy``, strict_validate off) and brought to where ``stack.validate``
evaluates properties: resources instantiated and their ``node_data``
stored (``_update_all_resource_data``), nothing created. Then each snippet
is parsed with the template's function table, validated
(``function.validate``) and resolved (``function.resolve``).

The file is rewritten in place with Heat's answers:

* ``stack``: what heatcap's test scope needs (``dialect``, every
  parameter's ``value()`` with the pseudo parameters, the enabled
  resources and their types, every condition's value or error);
* each case's ``heat``: ``{"value": ...}`` or ``{"error": "Class: message"}``
  (for StackValidationFailed, the message without its path).

Setup and stubs are oracle.py's (``setup_heat``, ``stubs``).
"""

import copy
import json
import os
import sys
import warnings

if os.environ.get('PYTHONHASHSEED') != '0' and __name__ == '__main__':
    os.environ['PYTHONHASHSEED'] = '0'
    os.execv(sys.executable, [sys.executable] + sys.argv)

warnings.simplefilter('ignore')
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import oracle  # noqa: E402
from oslo_config import cfg  # noqa: E402
from oslo_log import log as logging  # noqa: E402

from heat.common import exception  # noqa: E402
from heat.engine import environment  # noqa: E402
from heat.engine import function  # noqa: E402
from heat.engine import stack as parser  # noqa: E402
from heat.engine import template as templatem  # noqa: E402
from heat.engine.resources import template_resource  # noqa: E402
from heat.tests import utils as heat_test_utils  # noqa: E402


def message(ex):
    if isinstance(ex, exception.StackValidationFailed):
        return '%s: %s' % (type(ex).__name__, ex.error_message)
    if isinstance(ex, exception.HeatException):
        return '%s: %s' % (type(ex).__name__, ex.message)
    if isinstance(ex, KeyError):
        return 'KeyError: %s' % str(ex)
    return '%s: %s' % (type(ex).__name__, ex)


def plain(v):
    """The value as JSON can hold it (tuples are lists)."""
    return json.loads(json.dumps(v))


def dialect(tmpl):
    t = tmpl.t
    if 'heat_template_version' in t:
        return 'hot:' + type(tmpl).__name__[len('HOTemplate'):]
    if 'AWSTemplateFormatVersion' in t:
        return 'cfn'
    return 'heat-cfn'


def build(spec, output=None):
    """The stack at validate time; `output` is added as an output value."""
    t = copy.deepcopy(spec['template'])
    if output is not None:
        key, value = (('Outputs', 'Value') if 'Resources' in t
                      else ('outputs', 'value'))
        t[key] = {'case': {value: output}}
    tmpl = templatem.Template(t, files=spec.get('files', {}))
    tmpl.env = environment.Environment({'parameters': spec.get('params', {})})
    stack = parser.Stack(heat_test_utils.dummy_context(), 'dummy', tmpl,
                         strict_validate=False)
    stack.resources
    stack._update_all_resource_data(for_resources=True, for_outputs=True)
    return tmpl, stack


def uses_get_attr(snippet):
    if isinstance(snippet, dict):
        return (any(k in ('get_attr', 'Fn::GetAtt') for k in snippet) or
                any(uses_get_attr(v) for v in snippet.values()))
    if isinstance(snippet, list):
        return any(uses_get_attr(v) for v in snippet)
    return False


def record(spec):
    tmpl, stack = build(spec)

    params = {}
    for name in stack.parameters:
        try:
            params[name] = plain(stack.parameters[name])
        except exception.UserParameterMissing:
            pass
    resources = {}
    for name, res in stack.resources.items():
        is_tr = isinstance(res, template_resource.TemplateResource)
        resources[name] = None if is_tr else res.type()
    conds = {}
    definitions = tmpl.t.get(getattr(tmpl, 'CONDITIONS', None) or '', None)
    for name in (definitions or {}):
        try:
            conds[name] = {'value': tmpl.conditions(stack.defn).is_enabled(name)}
        except Exception as ex:
            conds[name] = {'error': message(ex)}
    spec['stack'] = {
        'dialect': dialect(tmpl),
        'parameters': params,
        'resources': resources,
        'conditions': conds,
    }

    for case in spec['cases']:
        snippet = case['snippet']
        # A get_attr is checked against the attributes the stack's
        # resources and outputs reference (ResourceProxy.attributes_schema),
        # so the snippet goes into the template as an output.
        t, defn = tmpl, stack.defn
        if uses_get_attr(snippet) and not case.get('condition'):
            try:
                t, s = build(spec, snippet)
                defn = s.defn
            except Exception:
                pass
        try:
            kind = case.get('condition')
            if kind == 'ref':
                parsed = t.parse_condition(defn, snippet)
                function.validate(parsed)
                value = t.conditions(defn).is_enabled(
                    function.resolve(parsed))
            elif kind == 'definition':
                conditions = t.conditions(defn)
                parsed = t.parse_condition(defn, snippet)
                conditions._check_condition_type('c', parsed)
                function.validate(parsed)
                value = function.resolve(parsed)
                conditions._check_condition_type('c', value)
            else:
                parsed = t.parse(defn, snippet)
                function.validate(parsed)
                value = function.resolve(parsed)
            case['heat'] = {'value': plain(value)}
        except Exception as ex:
            case['heat'] = {'error': message(ex)}


def main(paths):
    logging.register_options(cfg.CONF)
    import logging as pylogging
    pylogging.disable(pylogging.CRITICAL)
    oracle.setup_heat(7)
    for p in oracle.stubs(False):
        p.start()
    for path in paths:
        with open(path) as f:
            spec = json.load(f)
        record(spec)
        with open(path, 'w') as f:
            json.dump(spec, f, indent=1, ensure_ascii=False)
            f.write('\n')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
