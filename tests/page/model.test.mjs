// Unit tests of the page's pure module (src/serve/page/model.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as m from '../../src/serve/page/model.js';

test('the state round-trips through the address, NoEcho values left out', () => {
  const s = m.parseState('?root=t&template=overcloud.yaml&env=a.yaml&env=b%20c.yaml&choose=OS::X=x.yaml&p.Count=3&p.Secret=s3');
  assert.deepEqual(s, {
    root: 't',
    plan: '',
    template: 'overcloud.yaml',
    envs: ['a.yaml', 'b c.yaml'],
    choices: { 'OS::X': 'x.yaml' },
    values: { Count: '3', Secret: 's3' },
  });
  const q = m.stateQuery(s, new Set(['Secret']));
  assert.ok(!q.includes('s3'));
  assert.deepEqual(m.parseState(`?${q}`), { ...s, values: { Count: '3' } });
  assert.deepEqual(m.parseState('?choose=bad&choose==x&p.='), m.emptyState());
});

test('typed values as parameter_defaults holds them', () => {
  assert.equal(m.typedValue('number', '3'), 3);
  assert.equal(m.typedValue('number', '-2.5e3'), -2500);
  assert.equal(m.typedValue('number', 'abc'), 'abc');
  assert.equal(m.typedValue('number', '01'), '01');
  assert.equal(m.typedValue('boolean', 'true'), true);
  assert.equal(m.typedValue('boolean', 'yes'), 'yes');
  assert.deepEqual(m.typedValue('json', '{"a": [1]}'), { a: [1] });
  assert.equal(m.typedValue('json', '{oops'), '{oops');
  assert.equal(m.typedValue('string', '3'), '3');
  assert.equal(m.typedValue('comma_delimited_list', 'a,b'), 'a,b');
  assert.equal(m.typedValue(undefined, 'x'), 'x');
});

test('the environment file: registry, typed defaults, NoEcho only when asked', () => {
  const args = {
    choices: { 'OS::X': 'x: y.yaml' },
    values: { Count: '2', Name: 'yes', Secret: 'p', Map: '{"k": 1}' },
    types: { Count: 'number', Name: 'string', Secret: 'string', Map: 'json' },
    hidden: new Set(['Secret']),
  };
  const text = m.environmentYaml(args);
  assert.equal(
    text,
    [
      "# Written by heatcap serve's composition page: save it in the served",
      '# root directory and pass it last (-e).',
      'resource_registry:',
      '  "OS::X": "x: y.yaml"',
      'parameter_defaults:',
      '  "Count": 2',
      '  "Name": "yes"',
      '  "Map": {"k":1}',
      '',
    ].join('\n'),
  );
  assert.ok(m.environmentYaml({ ...args, withHidden: true }).includes('"Secret": "p"'));
  assert.ok(m.environmentYaml({ choices: {}, values: {}, types: {}, hidden: new Set() }).endsWith('{}\n'));
});

test('command lines are shell-quoted', () => {
  assert.equal(m.shellQuote('a.yaml'), 'a.yaml');
  assert.equal(m.shellQuote("it's here"), "'it'\\''s here'");
  const s = { template: 'overcloud.yaml', envs: ['a b.yaml'], choices: {}, values: {} };
  const l = m.commandLines(s, true, 'demo');
  assert.equal(l.create, "openstack stack create -t overcloud.yaml -e 'a b.yaml' -e heatcap-environment.yaml demo");
  assert.equal(m.commandLines(s, false).parameters, "heatcap parameters -t overcloud.yaml -e 'a b.yaml'");
  assert.ok(l.validate.endsWith('--show-nested'));
});

test('candidates: the options answer, then the index', () => {
  const choice = {
    type: 'OS::X',
    selection: {
      candidates: [
        { name: 'a.yaml', path: 'r/a.yaml', capabilities: null, mapped_by: [{ environment: 'r/e1.yaml', line: 3 }] },
        { name: 'OS::Heat::None', capabilities: null },
      ],
    },
  };
  const index = [
    { path: 'r/a.yaml', resource_type: [] },
    { path: 'r/b.yaml', resource_type: ['OS::X'], capabilities: { k: 'v' } },
    { path: 'r/c.yaml', inferred_resource_type: { 'OS::X': [{ environment: 'r/e2.yaml', line: 9 }] } },
    { path: 'r/d.yaml', resource_type: ['OS::Y'] },
  ];
  assert.deepEqual(m.candidates(choice, index, 'r'), [
    { name: 'a.yaml', path: 'a.yaml', capabilities: null, mappedBy: [{ environment: 'e1.yaml', line: 3 }] },
    { name: 'OS::Heat::None', path: undefined, capabilities: null, mappedBy: [] },
    { name: 'b.yaml', path: 'b.yaml', capabilities: { k: 'v' }, mappedBy: [] },
    { name: 'c.yaml', path: 'c.yaml', capabilities: undefined, mappedBy: [{ environment: 'e2.yaml', line: 9 }] },
  ]);
});

test('constraints and sources in words', () => {
  assert.equal(m.constraintText({ range: { min: 1 } }), 'value at least 1');
  assert.equal(m.constraintText({ length: { min: 1, max: 4 }, description: 'short' }), 'length from 1 to 4 (short)');
  assert.equal(m.constraintText({ allowed_values: ['a', 1] }), 'one of "a", 1');
  assert.equal(m.constraintText({ custom_constraint: 'nova.flavor' }), 'nova.flavor (checked by Heat against the cloud)');
  assert.equal(m.sourceText('property'), 'passed by the parent resource');
});

test('filtered stacks count their matches and their descendants\'', () => {
  const tree = {
    id: 'root',
    parameters: ['A', 'B'],
    children: [{ id: 'root/x', parameters: ['A'], children: [{ id: 'root/x/y', parameters: ['C'] }] }],
  };
  const counts = m.visibleStacks(tree, (n) => n !== 'B');
  assert.deepEqual([...counts], [['root/x/y', 1], ['root/x', 2], ['root', 3]]);
});

test('where a value is set, as file:line relative to the served root', () => {
  const v = { stack: 'root', source: 'parameter_defaults', value: 2, file: '/srv/tht/environments/a.yaml', span: { start: { line: 9, column: 3 }, end: { line: 9, column: 12 } } };
  assert.equal(m.valueAt(v, '/srv/tht'), 'environments/a.yaml:9');
  assert.equal(m.valueAt({ ...v, file: 'x.yaml' }, '/srv/tht'), 'x.yaml:9');
  assert.equal(m.valueAt({ stack: 'root' }, '/srv/tht'), '');
});

test('a stack\'s parameters by its parameter_groups, then the ungrouped ones', () => {
  const node = {
    parameters: ['a', 'b', 'c', 'd'],
    parameter_groups: [
      { label: 'first', description: 'The first.', parameters: ['c', 'a', 'missing'] },
      { parameters: ['a', 'b'] },
    ],
  };
  assert.deepEqual(m.groupedNames(node, ['a', 'b', 'c', 'd']), [
    { label: 'first', description: 'The first.', names: ['c', 'a'], rest: false },
    { label: null, description: null, names: ['b'], rest: false },
    { label: null, description: null, names: ['d'], rest: true },
  ]);
  // A filter keeps the groups' order; no group: one list.
  assert.deepEqual(m.groupedNames(node, ['d', 'a']).map((g) => g.names), [['a'], [], ['d']]);
  assert.deepEqual(m.groupedNames({ parameters: ['x'] }, ['x']), [{ label: null, description: null, names: ['x'], rest: true }]);
});

test('a typed value is checked against each declaration of the stacks it reaches', () => {
  const info = {
    type: 'number',
    constraints: [{ range: { min: 1 } }],
    declared_by: ['root', 'root/A', 'root/B', 'root/C'],
    values: [
      { stack: 'root', source: 'default', value: 1 },
      { stack: 'root/C', source: 'property', value: 3 },
    ],
    definitions: [
      { stacks: ['root', 'root/A', 'root/C'], type: 'number', constraints: [{ range: { min: 1 } }] },
      { stacks: ['root/B'], type: 'string', constraints: null },
    ],
  };
  assert.deepEqual(m.reachedStacks(info), ['root', 'root/A', 'root/B']);
  assert.deepEqual(m.checkDefinitions(info), [
    { stacks: ['root'], type: 'number', constraints: [{ range: { min: 1 } }], nested: false },
    { stacks: ['root/A'], type: 'number', constraints: [{ range: { min: 1 } }], nested: true },
    { stacks: ['root/B'], type: 'string', constraints: null, nested: true },
  ]);
  // One declaration: the parameter's own type and constraints.
  const one = { ...info, definitions: undefined, declared_by: ['root'], values: [] };
  assert.deepEqual(m.checkDefinitions(one), [{ stacks: ['root'], type: 'number', constraints: [{ range: { min: 1 } }], nested: false }]);
  // Set by the environments' `parameters` at the root: not reached there.
  assert.deepEqual(m.reachedStacks({ ...one, values: [{ stack: 'root', source: 'parameters', value: 2 }] }), []);
});

test('Heat\'s refusals with the stacks that refuse', () => {
  assert.equal(m.refusalText(undefined), '');
  assert.equal(m.refusalText({ accepted: true }), '');
  assert.equal(m.refusalText({ accepted: false, error: 'no' }), 'Heat refuses this value: no');
  const v = {
    accepted: false,
    error: '0 is out of range (min: 1, max: None)',
    definitions: [
      { stacks: ['root'], accepted: false, error: '0 is out of range (min: 1, max: None)' },
      { stacks: ['root/A', 'root/B'], accepted: false, error: '0 is out of range (min: 1, max: None)' },
      { stacks: ['root/C'], accepted: true, value: 0 },
      { stacks: ['root/D'], accepted: false, error: '0 is out of range (min: 2, max: None)' },
    ],
  };
  assert.equal(
    m.refusalText(v),
    'Heat refuses this value: 0 is out of range (min: 1, max: None) (stacks root, root/A, root/B); 0 is out of range (min: 2, max: None) (stack root/D)',
  );
});

test('a plan in the address and on the command lines', () => {
  const s = m.parseState('?root=t&plan=plans%2Fplan-environment.yaml&env=x.yaml');
  assert.equal(s.plan, 'plans/plan-environment.yaml');
  assert.equal(m.stateQuery(s), 'root=t&plan=plans%2Fplan-environment.yaml&env=x.yaml');
  assert.equal(m.partFile('plans/plan-environment.yaml#parameter_defaults'), 'plans/plan-environment.parameter_defaults.json');
  assert.equal(m.partFile('plan.yaml#environments[12]'), 'plan.environments-12.json');
  assert.equal(m.partFile('a.b/p#resource_registry'), 'a.b/p.resource_registry.json');
  const plan = {
    path: 'plans/plan-environment.yaml',
    template: 'overcloud.yaml',
    environments: [
      { path: 'base.yaml', file: true },
      { path: 'plans/plan-environment.yaml#parameter_defaults', file: false },
    ],
  };
  const l = m.commandLines(s, true, 'demo', plan);
  assert.equal(l.create, 'openstack stack create -t overcloud.yaml -e base.yaml -e plans/plan-environment.parameter_defaults.json -e x.yaml -e heatcap-environment.yaml demo');
  assert.equal(l.parameters, 'heatcap parameters --plan plans/plan-environment.yaml -e x.yaml -e heatcap-environment.yaml');
  assert.equal(m.commandLines({ ...s, template: 'o2.yaml' }, false, 'demo', plan).parameters, 'heatcap parameters --plan plans/plan-environment.yaml -t o2.yaml -e x.yaml');
});
