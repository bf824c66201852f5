#!/usr/bin/env python3
"""Records what Heat 27.0.1's ``yaql`` function gives for each case.

    /work/heat-venv/bin/python tools/heat-oracle/yaql_cases.py tests/heat/yaql.json

The suite holds ``cases``, each an ``expression`` and optionally ``data``
(absent: Heat's default, ``{}``), as the ``yaql`` function's arguments are
after their own functions are resolved. Each is run as Heat runs it: a
``heat.engine.hot.functions.Yaql`` built from the arguments, validated
(which parses the expression) and resolved (``Yaql.result``: the
expression evaluated with ``{data: data}`` in a child of Heat's yaql
context, with Heat's ``[yaql]`` options, limit_iterators 200 and
memory_quota 10000).

The file is rewritten in place, each case given ``heat``:
``{"value": ...}``, ``{"error": "Class: message"}``, or ``{"python":
"<type>"}`` when the value is not JSON (a set, a float that is not
finite), which heatcap does not evaluate.
"""

import collections.abc  # noqa: F401  (yaql needs it imported)
import json
import math
import os
import sys
import warnings

if os.environ.get('PYTHONHASHSEED') != '0' and __name__ == '__main__':
    os.environ['PYTHONHASHSEED'] = '0'
    os.execv(sys.executable, [sys.executable] + sys.argv)

warnings.simplefilter('ignore')
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from oslo_config import cfg  # noqa: E402

from heat.common import exception  # noqa: E402
from heat.engine import function  # noqa: E402
from heat.engine.hot import functions  # noqa: E402


def unjson(v):
    """The first value JSON cannot hold, as its type name, or None."""
    if isinstance(v, float) and not math.isfinite(v):
        return 'float %r' % v
    if isinstance(v, dict):
        for k, x in v.items():
            if not isinstance(k, str):
                return 'dict key %s' % type(k).__name__
            u = unjson(x)
            if u:
                return u
        return None
    if isinstance(v, list):
        for x in v:
            u = unjson(x)
            if u:
                return u
        return None
    if v is None or isinstance(v, (bool, int, float, str)):
        return None
    return type(v).__name__


def run(case):
    args = {'expression': case['expression']}
    if 'data' in case:
        args['data'] = case['data']
    try:
        fn = functions.Yaql(None, 'yaql', args)
        function.validate(fn)
        value = function.resolve(fn)
    except exception.StackValidationFailed as ex:
        # validate's error, without its path
        return {'error': '%s: %s' % (type(ex).__name__, ex.error_message)}
    except Exception as ex:
        return {'error': '%s: %s' % (type(ex).__name__, ex)}
    u = unjson(value)
    if u:
        return {'python': u}
    return {'value': value}


def main(paths):
    cfg.CONF(args=[], project='heat', default_config_files=[],
             default_config_dirs=[])
    for path in paths:
        with open(path) as f:
            suite = json.load(f)
        for case in suite['cases']:
            case['heat'] = run(case)
        with open(path, 'w') as f:
            json.dump(suite, f, indent=1, ensure_ascii=False)
            f.write('\n')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
