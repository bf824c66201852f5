#!/usr/bin/env python3
"""Writes the signatures of every function Heat's yaql context offers.

    /work/heat-venv/bin/python tools/heat-oracle/yaql_library.py > data/yaql-3.2.0-functions.json

Heat 27.0.1's ``yaql`` function (heat/engine/hot/functions.py, ``Yaql``)
evaluates in a child of ``yaql.create_context()``: the standard library of
the yaql package (3.2.0 in Heat's venv), with CamelCase names and no
delegates. yaql picks among a name's overloads by their parameters'
declared types (yaql/language/runner.py ``choose_overload``); heatcap's
evaluator (src/eval/yaql/) does the same from this file, so the overloads,
their layers, positions, aliases, defaults and types are Heat's own.

Each function: ``name`` (as yaql looks it up), ``id`` (``module.payload``,
the key of heatcap's implementation), ``layer`` (0 is the innermost
context that defines functions; yaql tries the layers in order),
``function``/``method`` (callable as ``f(x)`` / ``x.f()``), ``no_kwargs``
and ``params``. Hidden parameters (the context, the engine, delegates) are
left out and the positions renumbered, as yaql's ``positional_fix_table``
does. A parameter: ``key`` (``*``/``**`` for varargs), ``name``, ``alias``
(the CamelCase keyword), ``position`` (null: keyword only), ``type`` and
``default`` (absent: required; ``{"marker": "NO_VALUE"}``: yaql's marker).
"""

import collections.abc  # noqa: F401  (yaql needs it imported)
import json
import os
import sys
import warnings

warnings.simplefilter('ignore')
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from heat.engine.hot import functions  # noqa: E402
import yaql  # noqa: E402
from yaql.language import specs  # noqa: E402
from yaql.language import utils  # noqa: E402
from yaql.language import yaqltypes  # noqa: E402


def type_of(t):
    d = {'class': type(t).__name__}
    if isinstance(t, yaqltypes.SmartType):
        d['nullable'] = t.nullable
    if isinstance(t, yaqltypes.PythonType):
        pt = t.python_type
        d['python_type'] = ([x.__name__ for x in pt] if isinstance(pt, tuple)
                            else pt.__name__)
        if isinstance(t, yaqltypes.Iterable) and len(t.validators) > 1:
            # iter_insert's extra validator: not a set
            d['not_set'] = True
    if isinstance(t, yaqltypes.Lambda):
        d['with_context'] = t.with_context
        d['method'] = t.method
    if isinstance(t, yaqltypes.Constant):
        d['expand'] = t.expand
    if isinstance(t, yaqltypes.YaqlExpression):
        d['types'] = [x.__name__ for x in (t._expression_types or ())]
    if isinstance(t, yaqltypes.SmartTypeAggregation):
        d['types'] = [type_of(x) for x in t.types]
    if isinstance(t, yaqltypes.NotOfType):
        d['type'] = type_of(t.smart_type)
    return d


def default_of(d):
    if d is specs.NO_DEFAULT:
        return None
    if d is utils.NO_VALUE:
        return {'marker': 'NO_VALUE'}
    if d is not None and not isinstance(d, (bool, int, float, str)):
        # date_time's zero timespan: no value heatcap has
        return {'marker': repr(d)}
    return {'value': d}


def params_of(fd):
    hidden = sorted(p.position for p in fd.parameters.values()
                    if p.position is not None and
                    isinstance(p.value_type, yaqltypes.HiddenParameterType))
    out = []
    for key, p in fd.parameters.items():
        if isinstance(p.value_type, yaqltypes.HiddenParameterType):
            continue
        position = p.position
        if position is not None:
            position -= sum(1 for h in hidden if h < position)
        entry = {'key': key, 'name': p.name, 'alias': p.alias,
                 'position': position, 'type': type_of(p.value_type)}
        default = default_of(p.default)
        if default is not None:
            entry['default'] = default
        out.append(entry)
    return out


def main():
    functions.Yaql.get_yaql_parser()
    context = functions.Yaql._context
    layers = []
    c = context
    while c is not None:
        if c._functions:
            layers.append(c)
        c = c.parent
    out = []
    for i, layer in enumerate(layers):
        for name in sorted(layer._functions):
            for fd in layer._functions[name]:
                out.append({
                    'name': name,
                    'id': '%s.%s' % (fd.payload.__module__.split('.')[-1],
                                     fd.payload.__name__),
                    'layer': i,
                    'function': fd.is_function,
                    'method': fd.is_method,
                    'no_kwargs': fd.no_kwargs,
                    'params': params_of(fd),
                })
    # yaql keeps a name's overloads in a set: their order is not its
    # choice's, so the file lists them by payload.
    out.sort(key=lambda f: (f['layer'], f['name'], f['id']))
    ids = [(f['name'], f['id']) for f in out]
    assert len(ids) == len(set(ids)), 'a payload registered twice'
    # One function a line.
    sys.stdout.write('{"yaql": %s, "functions": [\n' %
                     json.dumps(yaql.__version__))
    sys.stdout.write(',\n'.join(json.dumps(f, sort_keys=True) for f in out))
    sys.stdout.write('\n]}\n')
    return 0


if __name__ == '__main__':
    sys.exit(main())
