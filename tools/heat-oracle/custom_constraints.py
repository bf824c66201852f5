#!/usr/bin/env python3
"""Records Heat 27.0.1's verdict on values of its offline custom constraints.

Heat's custom constraints whose class is not under
``heat.engine.clients.`` (``ip_addr``, ``net_cidr``, ``mac_addr``,
``dns_name``, ``expiration``, ``json_string``, ...) check a value without
any cloud service. For each such constraint that heatcap checks, this runs
Heat's own code on many values, the way a property's constraints run when
``stack create`` validates a resource: a string property schema holding
``CustomConstraint(NAME)``, its ``validate_constraints(value, context)``,
and Heat's message when it refuses the value. Prints one JSON document::

    {"heat": "27.0.1",
     "constraints": {"ip_addr": [["10.0.0.1", null],
                                 ["10.0.0.256", "Error validating value ..."]],
                     ...}}

``null`` means Heat accepts the value. The values are the curated lists
below (each constraint's documented forms and the edges of the libraries
behind it: netaddr, neutron-lib, iso8601, zoneinfo, croniter, Python's
json) and, for each constraint, ``RANDOM`` mutations of them drawn with a
fixed seed, so the output is the same at every run (``PYTHONHASHSEED=0``).
``expiration`` compares with the current time: a value whose verdict would
change before the year 2200 (a date between now and then) is left out,
so the recording stays true.

Usage (from the repository root, with the venv of README.md)::

    /work/heat-venv/bin/python tools/heat-oracle/custom_constraints.py \
        > tests/heat/custom-constraints.json
"""

import datetime
import json
import os
import random
import sys

if os.environ.get('PYTHONHASHSEED') != '0' and __name__ == '__main__':
    os.environ['PYTHONHASHSEED'] = '0'
    os.execv(sys.executable, [sys.executable] + sys.argv)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oracle  # noqa: E402

# Random mutations recorded per constraint.
RANDOM = 200

IPV4 = ['10.0.0.1', '0.0.0.0', '255.255.255.255', '192.168.1.254',
        '10.0.0.256', '10.0.0', '10.0.0.0.1', '010.0.0.1', '10.00.0.1',
        '10.0.0.01', '1.2.3.4.', '.1.2.3.4', '1..2.3', '+1.2.3.4',
        '-0.1.2.3', '-1.2.3.4', '1_0.2.3.4', '1__0.2.3.4', '_10.2.3.4',
        '\u0663.2.3.4', '\uff11.2.3.4', '0x10.0.0.1', '1e1.0.0.1',
        '10.0.0.1 ', ' 10.0.0.1', '10.0.0.1\n', '10.0.0.\u00a01',
        '10.0.0.\x1c1', '4294967295', '10', '1.2.3.-0', '00.0.0.0',
        '256.1.1.1', '999.1.1.1', '1.2.3.4/32', '', 'abc', 'a.b.c.d',
        '1.2.3.0000000000004']
IPV6 = ['::', '::1', '1::', 'fe80::1', '2001:db8::', '2001:db8:0:0:0:0:0:1',
        '2001:DB8::A', '1:2:3:4:5:6:7:8', '1:2:3:4:5:6:7:8:9',
        '1:2:3:4:5:6:7::', '::2:3:4:5:6:7:8', '1:2:3:4:5:6::7:8',
        '1::2::3', ':::', ':1::', '1:', ':1', '1::2:', '12345::',
        '0000:0000::', '00000::', 'g::', '::ffff:1.2.3.4',
        '::ffff:1.2.3.256', '::ffff:01.2.3.4', '::1.2.3.4',
        '1:2:3:4:5:6:1.2.3.4', '1:2:3:4:5:6:7:1.2.3.4', '1.2.3.4::',
        '::1.2.3', '::1.2.3.4.5', 'fe80::1%eth0', '[::1]', '::1 ',
        '::\u0661', '2001:db8::/64', '::ffff:1.2.3.4:1', '1:2:3:4:5:6:7:',
        '::0:0:0:0:0:0:0', '::0:0:0:0:0:0:0:0', '1:2:3:4:5:6:7::8']
CIDR = ['10.0.0.0/24', '10.0.0.1/24', '0.0.0.0/0', '10.0.0.0/32',
        '10.0.0.0/33', '10.0.0.0/-1', '10.0.0.0/08', '10.0.0.0/+8',
        '10.0.0.0/8_0', '10.0.0.0/', '10.0.0.0', '10', '10/8', '10.1/16',
        '10.0.0/24', '192.168', '300', '10.0.0.0/255.0.0.0',
        '10.0.0.0/0.0.0.255', '10.0.0.0/255.0.255.0', '10.0.0.0/ 8',
        '10.0.0.0 /8', ' 10.0.0.0/8', '10.0.0.0/8\n', '1.2.3.4/1/2',
        '010.0.0.0/8', '2001:db8::/64', '2001:db8::1/64', '::/0',
        '::/128', '::/129', '::/+64', '::/6_4', '::/064', '::/\u0666\u0664',
        '::/ffff:ffff::', '::/::ffff', '::/ffff::ff', '::/1/2', '::/',
        '::/a', '::', 'fe80::/10', '2001:db8::/64 ', '', 'abc', 'a/b',
        '10.0.0.0/8/8', '10.0.0.0/\u0668', '\u0661\u0660/8',
        '\u0661\u0660', '-10', '10/40', '10.0.0.0.0/8', '1.2.3.4/32',
        '1.2.3.4/0.0.0.0', '1.2.3.4/255.255.255.255', '224', '240',
        '192', '128/8', '10/8/', '/8', '/', '::ffff:1.2.3.4/120', '300.1',
        '-1.2', '256.1/8', '1.2.3.4/\0', '\0', '1.2.3.4\0/8', '::\0/8',
        '::/\0', '::/1\0', '1.2.3.0/255.255.255.0\0', '::/ffff::/8',
        '1:2::/ffff:ffff:ffff:ffff:ffff:ffff:ffff:fffe', '::/::',
        '::/::1', '::/ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', '::/::3',
        '1.2.3.4/0.0.0.1', '1.2.3.4/0.0.0.3', '1.2.3.4/0.0.0.2',
        '1.2.3.4/255.255.255.254']
MAC = ['00:11:22:33:44:55', 'AA:BB:CC:DD:EE:FF', 'aa-bb-cc-dd-ee-ff',
       '0:1:2:3:4:5', '00:11:22:33:44', '00:11:22:33:44:55:66',
       '00:11:22:33:44:5g', '001b:7749:54fd', '001b.7749.54fd',
       '001b-7749-54fd', '1b:7749:54fd', '001b7749-54fdaa', '001b77:4954fd',
       '001b7749:54fd', '001B774954FD', '001B774954F', '001B774954',
       '001B774954FDA', '00:11:22:33:44:55\n', '00:11:22:33:44:55\n\n',
       ' 00:11:22:33:44:55', '00:11:22:33:44:55 ', '00-11:22:33:44:55',
       '000:11:22:33:44:55', '', 'zz', '00:11:22:33:44:5\u0661',
       '00_11_22_33_44_55', '00112233445g', '0011.2233.4455.6677']
DNS_NAMES = ['host', 'host.example.com', 'host.example.com.', 'a',
             'Host', 'host_name', '-host', 'host-', 'ho--st', 'h-1',
             '1', '123', 'example.123', 'example.123.', '123.', 'a..b',
             '.a', 'a.', '.', '..', 'a.b.', 'a' * 63, 'a' * 64,
             '.'.join(['a' * 63] * 4), '.'.join(['a' * 63] * 4) + '.',
             '.'.join(['a' * 62] * 4) + '.a', 'a.' * 127 + 'a',
             'a.' * 128, 'a' * 253, 'a' * 256, 'host\n', 'host\n.com',
             'h\u00e9', 'host name', 'host.-example', '', '0.0', 'x.0.',
             'a.b1.', '1a.', 'a-.b', '-']
TIMES = ['2001-01-01', '2001-01-01T00:00:00Z', '2001-01-01T00:00:00',
         '2001-01-01 00:00:00', '2001-01-01t00:00:00', '20010101',
         '200101', '2001', '2001-1-1', '2001-01', '2001-01-01T00',
         '2001-01-01T0000', '2001-01-01T00:00', '2001-01-01T00:00:0',
         '2001-01-01T00:00:00.5', '2001-01-01T00:00:00,123456789',
         '2001-01-01T00:00:00+01:00', '2001-01-01T00:00:00+0100',
         '2001-01-01T00:00:00+01', '2001-01-01T00:00:00-23:59',
         '2001-01-01T00:00:00+24:00', '2001-01-01T00:00:00-24:00',
         '2001-01-01T00:00:00+99:99', '2001-01-01T00:00:00-25:30',
         '2001-01-01T00:00:00+00:99', '2001-13-01', '2001-00-01',
         '2001-02-29', '2004-02-29', '2001-04-31', '2001-01-32',
         '2001-01-00', '2001-01-01T24:00:00', '2001-01-01T23:60:00',
         '2001-01-01T23:59:60', '0000-01-01', '0001-01-01',
         '0001-01-01T00:00:00+00:01', '9999-12-31T23:59:59',
         '9999-12-31T23:59:59-00:01', '9999-12-31T23:59:59+00:01',
         '3000-01-01', '3000-01-01T00:00:00Z', ' 3000-01-01',
         '3000-01-01 ', '3000-01-01\n', '\u00a03000-01-01',
         '3000-01-01\u2003', '3000-01-01T', '3000-01-01Z', '3000-01-01X',
         '30000-01-01', '3000-01-01T00:00:00ZZ', '', 'x',
         '3000-01-01T00:00:00.', '3000-\u0661-01', '2001-01-01T00:00:00z']
CRON = ['* * * * *', '0 0 * * *', '* * * * * *', '* * * * * * *',
        '* * * *', '* * * * * * * *', '', ' ', '* * *', '@hourly',
        '@HOURLY', '@daily', '@weekly', '@monthly', '@yearly',
        '@annually', '@midnight', '@reboot', '@hourly *', '*\t*\t*\t*\t*',
        '* * * * *\n', '*\u00a0* * * *', '*\u00a0*\u00a0*\u00a0*\u00a0*',
        '61 * * * *', 'H * * * *', '* * * * mon', 'a b c d e',
        '0-59/5 * * * *', '*/0 * * * *', '1,2,3 * * * *',
        '0 0 L * *', '0 0 ? * *', '* * * * 1#2', '  * * * * *  ']
TIMEZONES = ['UTC', 'Europe/Paris', 'Europe/Pariss', 'America/New_York',
             '/etc/localtime', '/UTC', '//UTC', 'Europe//Paris',
             'Europe/./Paris', 'Europe/../Europe/Paris', './UTC',
             '../UTC', '..', '.', 'UTC/', 'Etc/GMT+5', 'etc/utc', '',
             'a/b/../../..', 'a/..', 'a/../b', '...', '.../UTC', 'x',
             'Europe/', 'Europe']
JSON = ['{}', '[]', '{"a": 1}', '[1, 2, 3]', '"s"', '1', '-1', '1.5',
        '1e5', '1E+5', '1e-5', '-0', '0', '01', '1.', '.5', '-', '+1',
        '1e', '1e+', 'true', 'false', 'null', 'True', 'nul', 'NaN',
        'Infinity', '-Infinity', '-Inf', 'nan', '[', ']', '{', '}',
        '{"a":}', '{"a"}', '{"a" 1}', '{1:2}', "{'a': 1}", '{"a":1,}',
        '[1,]', '[1 2]', '[,1]', '[1,,2]', '{"a":1 "b":2}', '{,}',
        '"abc', '"\\x"', '"\\u12"', '"\\u12', '"\\u123g"', '"\\u1234"',
        '"\\ud800"', '"\\ud800\\udc00"', '"\\ud800\\u12"', '"\\ud800\\x"',
        '"\\', '"\\"', '"a\x01"', '"a\tb"', '"\u00e9"', '\ufeff{}',
        '{} ', ' {}', '\n{}\n', '\t[]', '\u00a0{}', '{}x', '[1]x',
        '{} {}', '{"a": [1, {"b": null}]}', '{"a": [1, {"b": nul}]}',
        '[[[[[]]]]]', '[[[[[]]]]', '{"a":1}}', ' ', '\r\n',
        '"\\/\\b\\f\\n\\r\\t\\"\\\\"', '{"a" : 1 , "b" : [ ] }',
        '[1e1.5]', '[-]', '[--1]', '[0x10]', '123abc', '"\x7f"',
        '{"\\u00e9": 1}', '{"a":1,"a":2}', '[1]\n\n x', 'x\ny\nz']

CASES = {
    'ip_addr': IPV4 + IPV6,
    'ip_or_cidr': IPV4 + IPV6 + CIDR,
    'net_cidr': CIDR + IPV4[:8] + IPV6[:8],
    'mac_addr': MAC,
    'dns_name': DNS_NAMES,
    'dns_domain': DNS_NAMES,
    'rel_dns_name': DNS_NAMES,
    'expiration': TIMES,
    'cron_expression': CRON,
    'timezone': TIMEZONES,
    'json_string': JSON,
}

# Characters the mutations draw from, per constraint.
ALPHABETS = {
    'ip_addr': '0123456789.:/abcdefABCDEF %+-_\u0661\u00a0\0',
    'ip_or_cidr': '0123456789.:/abcdefABCDEF %+-_\u0661\u00a0\0',
    'net_cidr': '0123456789.:/abcdefABCDEF %+-_\u0661\u00a0\0',
    'mac_addr': '0123456789abcdefABCDEFg:-. \n',
    'dns_name': 'abcxyzABC0129-._ \n\u00e9',
    'dns_domain': 'abcxyzABC0129-._ \n\u00e9',
    'rel_dns_name': 'abcxyzABC0129-._ \n\u00e9',
    'expiration': '0123456789-:T Z+.,\n\u0661',
    'cron_expression': '*/0123456789-,? LWH#\t\n\u00a0@abcdehlmnorstuwy',
    'timezone': 'abcEUPr/._ -+1',
    'json_string': '{}[]",:0123456789.eE+-\\ut nlrfa \n\x01\u00e9',
}


def mutate(rng, value, alphabet):
    s = list(value)
    for _ in range(rng.randint(1, 3)):
        op = rng.randrange(4)
        i = rng.randint(0, len(s))
        if op == 0 or not s:
            s.insert(i, rng.choice(alphabet))
        elif op == 1:
            del s[min(i, len(s) - 1)]
        elif op == 2:
            s[min(i, len(s) - 1)] = rng.choice(alphabet)
        else:
            j = rng.randint(0, len(s))
            a, b = min(i, j), max(i, j)
            s[a:b] = s[a:b][::-1]
    return ''.join(s)


def stable(name, value):
    """Whether the verdict on `value` stays the same until the year 2200
    (only `expiration` depends on the time)."""
    if name != 'expiration' or not value:
        return True
    from oslo_utils import timeutils
    try:
        when = timeutils.normalize_time(
            timeutils.parse_isotime(value.strip()))
    except Exception:
        return True
    return not (timeutils.utcnow() < when < datetime.datetime(2200, 1, 1))


def verdict(name, value, context):
    """None when Heat accepts `value`, else its message: a string property
    constrained by `name`, validated as at create."""
    from heat.common import exception
    from heat.engine import constraints
    from heat.engine import properties
    schema = properties.Schema(
        properties.Schema.STRING,
        constraints=[constraints.CustomConstraint(name)])
    try:
        schema.validate_constraints(value, context)
    except exception.StackValidationFailed as ex:
        return ex.error_message
    return None


def main(argv=None):
    import argparse
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    p.add_argument('--random', type=int, default=RANDOM, metavar='N',
                   help='random mutations per constraint (default %(default)s;'
                   ' more for a wider check, not for the recording)')
    args = p.parse_args(argv)
    import logging as pylogging
    oracle.logging.register_options(oracle.cfg.CONF)
    pylogging.disable(pylogging.CRITICAL)
    oracle.setup_heat(7)
    from heat import version
    from heat.engine import resources
    env = resources.global_env()
    context = oracle.heat_test_utils.dummy_context()
    out = {}
    for name, values in CASES.items():
        cls = env.get_constraint(name)
        assert not cls.__module__.startswith('heat.engine.clients.'), name
        rng = random.Random(name)
        seeds = [v for v in values if v]
        drawn = [mutate(rng, rng.choice(seeds), ALPHABETS[name])
                 for _ in range(args.random)]
        seen = set()
        cases = []
        for v in values + drawn:
            if v in seen or not stable(name, v):
                continue
            seen.add(v)
            cases.append([v, verdict(name, v, context)])
        out[name] = cases
    # One case a line, so that a change shows as the cases it changes.
    w = sys.stdout.write
    w('{"heat": %s,\n "constraints": {' % json.dumps(
        version.version_info.version_string()))
    for i, (name, cases) in enumerate(out.items()):
        w('%s\n  %s: [' % (',' if i else '', json.dumps(name)))
        w(','.join('\n   ' + json.dumps(c, ensure_ascii=False)
                   for c in cases))
        w('\n  ]')
    w('\n }\n}\n')
    return 0


if __name__ == '__main__':
    sys.exit(main())
