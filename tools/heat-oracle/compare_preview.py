#!/usr/bin/env python3
"""Compare two create-preview documents (`{"stack": ...}`): Heat's
(preview.py) and heatcap's (`heatcap preview --format heat`).

    compare_preview.py HEAT.json HEATCAP.json

Standard library only. Resources are matched by stack name and resource
name, and the nesting (which resources each nested list holds) is compared
apart, since Heat lists a stack's resources, its outputs and each
`required_by` in Python set order, which changes with every engine
process. Prints each difference, then a summary line; exit 1 when there is
a difference.
"""

import json
import sys


def flat(resources, out, shape):
    for r in resources:
        if isinstance(r, list):
            sub = []
            flat(r, out, sub)
            shape.append(sorted(sub, key=json.dumps))
        else:
            key = r['stack_name'] + '/' + r['resource_name']
            out[key] = r
            shape.append(key)


def load(path):
    with open(path) as f:
        d = json.load(f)
    if 'stack' not in d:
        return d, {}, []
    s = d['stack']
    out, shape = {}, []
    flat(s.pop('resources'), out, shape)
    s['outputs'] = sorted(s['outputs'], key=lambda o: o['output_key'])
    return s, out, sorted(shape, key=json.dumps)


class Diff(object):
    def __init__(self):
        self.count = 0

    def say(self, *words):
        self.count += 1
        print(*words)

    def __call__(self, x, y, path):
        if isinstance(x, dict) and isinstance(y, dict):
            for k in sorted(set(x) | set(y)):
                if k not in x:
                    self.say(path + '/' + k, 'only heatcap:', repr(y[k])[:150])
                elif k not in y:
                    self.say(path + '/' + k, 'only Heat:', repr(x[k])[:150])
                else:
                    self(x[k], y[k], path + '/' + k)
        elif (isinstance(x, list) and isinstance(y, list)
              and path.endswith('required_by')):
            if sorted(x) != sorted(y):
                self.say(path, sorted(x), '|', sorted(y))
        elif (isinstance(x, list) and isinstance(y, list)
              and len(x) == len(y)):
            for i, (p, q) in enumerate(zip(x, y)):
                self(p, q, '%s/%d' % (path, i))
        elif x != y:
            self.say(path, repr(x)[:150], '|', repr(y)[:150])


def main(argv):
    heat, heat_resources, heat_shape = load(argv[1])
    ours, our_resources, our_shape = load(argv[2])
    diff = Diff()
    diff(heat, ours, 'stack')
    for k in sorted(set(heat_resources) | set(our_resources)):
        if k not in heat_resources:
            diff.say(k, 'only heatcap')
        elif k not in our_resources:
            diff.say(k, 'only Heat')
        else:
            diff(heat_resources[k], our_resources[k], k)
    if heat_shape != our_shape:
        diff.say('the nesting differs')
    print('%d resources (Heat), %d (heatcap), %d differences'
          % (len(heat_resources), len(our_resources), diff.count))
    return 1 if diff.count else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
