// Unit tests of the page's update module (src/serve/page/update.js): the
// words it puts on `heatcap diff`'s JSON (fields read by name; others
// left alone).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as u from '../../src/serve/page/update.js';

const diff = {
  summary: { add: 1, replace: 2, update: 3, delete: 0, unchanged: 5 },
  changes: [
    { action: 'replaced', rule: 'not-update-allowed', stack: 'root', resource: 'Salt', type: 'OS::Heat::RandomString', properties: [{ name: 'length', before: 16, after: 32, update_allowed: false }, { name: 'character_classes', before: null, after: [], update_allowed: true }], destructive: true },
    { action: 'replaced', rule: 'class-changed', stack: 'root', resource: 'Thing', type: 'OS::Diff::Thing', changed: ['type'] },
    { action: 'updated', rule: 'update-allowed', stack: 'root', resource: 'Net', type: 'OS::Neutron::Net', properties: [{ name: 'name', before: 'net-a', after: 'net-b', update_allowed: true }] },
    { action: 'added', rule: 'new', stack: 'root', resource: 'Extra', type: 'OS::Heat::Value' },
    { action: 'unchanged', rule: 'same', stack: 'root', resource: 'Port', type: 'OS::Neutron::Port' },
  ],
  some_later_field: { anything: 1 },
  diagnostics: [],
};

test('the counts by category', () => {
  assert.equal(u.countsText(diff.summary), '1 added, 2 replaced, 3 updated, 0 deleted, 5 unchanged');
  assert.equal(u.countsText(undefined), '0 added, 0 replaced, 0 updated, 0 deleted, 0 unchanged');
  assert.ok(u.changesAnything(diff.summary));
  assert.ok(!u.changesAnything({ add: 0, replace: 0, update: 0, delete: 0, unchanged: 9 }));
});

test('each replaced resource with why: the rule and the properties that force it', () => {
  assert.deepEqual(u.replaced(diff), [
    { what: 'root/Salt (OS::Heat::RandomString)', why: 'Heat cannot change these properties of OS::Heat::RandomString in place', rule: 'not-update-allowed', forces: ['length: 16 → 32'] },
    { what: 'root/Thing (OS::Diff::Thing)', why: 'its implementation changes kind (a template for a built-in type, or one built-in type for another), so Heat deletes it and creates the new one', rule: 'class-changed', forces: [] },
  ]);
  // A server's flavor, image or user_data force it under its update policy.
  const server = { action: 'replaced', rule: 'server-policy', stack: 's', resource: 'S', type: 'OS::Nova::Server', properties: [{ name: 'user_data', before: 'a', after: 'b', update_allowed: true }, { name: 'name', before: 'x', after: 'y', update_allowed: true }] };
  assert.deepEqual(u.forcing(server).map((p) => p.name), ['user_data']);
  // A rule the page has no words for yet is named as it is.
  assert.equal(u.reasonText({ rule: 'some-new-rule' }), "Heat's rule some-new-rule");
});

test('the line next to the control that changed', () => {
  assert.equal(
    u.effectText(diff),
    'Against the deployed composition: 1 added, 2 replaced, 3 updated, 0 deleted, 5 unchanged; replaced: root/Salt (OS::Heat::RandomString), root/Thing (OS::Diff::Thing).',
  );
  assert.equal(u.effectText({ summary: { unchanged: 4 }, changes: [] }), 'Against the deployed composition: no change (0 added, 0 replaced, 0 updated, 0 deleted, 4 unchanged).');
  assert.equal(u.effectText({ heat_error: 'new side: UserParameterMissing: x' }), 'Heat would refuse this update: new side: UserParameterMissing: x');
  // Where heatcap answers beyond Heat's refusal, the counts are said too.
  assert.equal(
    u.effectText({ ...diff, heat_error: 'new side: NotSupported: x' }),
    "Heat would refuse this update: new side: NotSupported: x (heatcap's answer still: 1 added, 2 replaced, 3 updated, 0 deleted, 5 unchanged)",
  );
  assert.deepEqual(u.named(diff, 'added'), ['root/Extra (OS::Heat::Value)']);
  assert.equal(u.valueText(null), 'nothing');
  assert.equal(u.valueText(''), '"" (empty)');
  assert.equal(u.valueText('a'), '"a"');
  assert.equal(u.valueText({ a: 'x'.repeat(200) }).length, 120);
});
