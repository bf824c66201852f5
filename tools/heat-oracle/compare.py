#!/usr/bin/env python3
"""Compare two `template validate --show-nested` documents (Heat vs heatcap).

    compare.py HEAT.json HEATCAP.json [--base DIR] [-n N]

Stacks are matched by their path of NestedParameters keys (the root is the
empty path, shown as "/").  Parameters are matched by name within a matched
stack; a parameter is identical when every field is equal (JSON equality;
a field absent on one side differs).  Stack-level fields other than
Parameters/NestedParameters (Description, Type, ParameterGroups, ...) and the
root Environment (compared per section and per key) are reported too.

file:// URLs are normalised as oracle.py does: every file://PATH inside any
string becomes PATH relative to --base (default: the current directory).
Documents recorded by oracle.py are already normalised, so this only matters
for raw ones.

Needs only the Python standard library.  Exit status: 0 if the documents
are equal, 1 if they differ, 2 on usage errors.
"""

import argparse
import collections
import json
import os
import re
import sys
from urllib import parse as urlparse

FILE_URL_RE = re.compile(r"file://[^\s'\"\],}]*")


def normaliser(base):
    base = os.path.realpath(base)

    def url(m):
        path = urlparse.unquote(urlparse.urlparse(m.group(0)).path)
        return os.path.relpath(path, base)

    def norm(obj):
        if isinstance(obj, str):
            return FILE_URL_RE.sub(url, obj)
        if isinstance(obj, dict):
            return {norm(k): norm(v) for k, v in obj.items()}
        if isinstance(obj, list):
            return [norm(v) for v in obj]
        return obj
    return norm


def stacks(doc, path=()):
    """{path tuple: stack dict} for the root and every nested stack."""
    out = {path: doc}
    for name, sub in (doc.get('NestedParameters') or {}).items():
        out.update(stacks(sub, path + (name,)))
    return out


def show_path(path):
    return '/' + '/'.join(path)


def short(value, limit=160):
    s = json.dumps(value, sort_keys=True)
    return s if len(s) <= limit else s[:limit - 3] + '...'


ABSENT = '<absent>'


def compare(a, b):
    """Return (summary dict, {kind: [message, ...]})."""
    sa, sb = stacks(a), stacks(b)
    both = sorted(set(sa) & set(sb))
    diffs = collections.OrderedDict()

    def add(kind, msg):
        diffs.setdefault(kind, []).append(msg)

    for p in sorted(set(sa) - set(sb)):
        add('stack only in A', show_path(p))
    for p in sorted(set(sb) - set(sa)):
        add('stack only in B', show_path(p))

    identical = 0
    params_in_both = 0
    for p in both:
        x, y = sa[p], sb[p]
        for field in sorted((set(x) | set(y)) -
                            {'Parameters', 'NestedParameters',
                             'Environment'}):
            vx, vy = x.get(field, ABSENT), y.get(field, ABSENT)
            if vx != vy:
                add('stack field differs: %s' % field,
                    '%s: A=%s B=%s' % (show_path(p), short(vx), short(vy)))
        px, py = x.get('Parameters') or {}, y.get('Parameters') or {}
        for n in sorted(set(px) - set(py)):
            add('parameter only in A', '%s %s' % (show_path(p), n))
        for n in sorted(set(py) - set(px)):
            add('parameter only in B', '%s %s' % (show_path(p), n))
        for n in sorted(set(px) & set(py)):
            params_in_both += 1
            fx, fy = px[n], py[n]
            same = True
            for field in sorted(set(fx) | set(fy)):
                vx, vy = fx.get(field, ABSENT), fy.get(field, ABSENT)
                if vx != vy:
                    same = False
                    add('parameter field differs: %s' % field,
                        '%s %s: A=%s B=%s' % (show_path(p), n, short(vx),
                                              short(vy)))
            identical += same

    ea, eb = a.get('Environment', ABSENT), b.get('Environment', ABSENT)
    if isinstance(ea, dict) and isinstance(eb, dict):
        for sec in sorted(set(ea) | set(eb)):
            va, vb = ea.get(sec, ABSENT), eb.get(sec, ABSENT)
            if isinstance(va, dict) and isinstance(vb, dict):
                for k in sorted(set(va) | set(vb)):
                    ka, kb = va.get(k, ABSENT), vb.get(k, ABSENT)
                    if ka != kb:
                        add('environment differs: %s' % sec,
                            '%s: A=%s B=%s' % (k, short(ka), short(kb)))
            elif va != vb:
                add('environment differs: %s' % sec,
                    'A=%s B=%s' % (short(va), short(vb)))
    elif ea != eb:
        add('environment differs', 'A=%s B=%s' % (short(ea), short(eb)))

    count = lambda ss: sum(len(s.get('Parameters') or {})  # noqa: E731
                           for s in ss.values())
    summary = collections.OrderedDict([
        ('stacks in A', len(sa)),
        ('stacks in B', len(sb)),
        ('stacks in both', len(both)),
        ('parameters in A', count(sa)),
        ('parameters in B', count(sb)),
        ('parameters in both (matched stacks)', params_in_both),
        ('parameters identical', identical),
    ])
    return summary, diffs


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('a', metavar='HEAT.json')
    ap.add_argument('b', metavar='HEATCAP.json')
    ap.add_argument('--base', default='.',
                    help='directory file:// URLs are made relative to')
    ap.add_argument('-n', type=int, default=5,
                    help='examples shown per kind (default 5, 0: all)')
    args = ap.parse_args(argv)
    norm = normaliser(args.base)
    with open(args.a) as f:
        a = norm(json.load(f))
    with open(args.b) as f:
        b = norm(json.load(f))
    if 'Error' in a or 'Error' in b:
        print('A: %s' % short(a.get('Error', 'ok'), 2000))
        print('B: %s' % short(b.get('Error', 'ok'), 2000))
        return 0 if a.get('Error') == b.get('Error') else 1

    summary, diffs = compare(a, b)
    print('A = %s' % args.a)
    print('B = %s' % args.b)
    for k, v in summary.items():
        print('%-38s %d' % (k + ':', v))
    total = sum(len(v) for v in diffs.values())
    print('%-38s %d' % ('differences:', total))
    for kind, msgs in sorted(diffs.items(), key=lambda kv: -len(kv[1])):
        print('\n== %s (%d)' % (kind, len(msgs)))
        for m in msgs[:args.n or None]:
            print('  ' + m)
        if args.n and len(msgs) > args.n:
            print('  ... %d more' % (len(msgs) - args.n))
    return 1 if total else 0


if __name__ == '__main__':
    sys.exit(main())
