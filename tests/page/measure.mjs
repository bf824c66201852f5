// Measures the composition page on a big tree (not a test; figures in
// docs/performance.md): the first render of a composition (from the
// address, the service's caches cold, then warm), the re-render after a
// choice change, and that change's effect on the update from the deployed
// composition (the one the address names: steps 3-4's pick compared by
// POST /heatcap/v1/diff), in headless Chromium.
//
//   node tests/page/measure.mjs [--bin target/release/heatcap] [--tree DIR]
//        [--template overcloud.yaml] [--env ENV]... [--type TYPE] [--runs N]
//        [--depth N (serve's --max-nested-depth)]
//
// Defaults: the 2018 rendered tripleo-heat-templates tree
// (HEATCAP_TREE_2018, else /work/tht-rendered/13d0057c) with the base
// registry, network isolation and Docker HA; the type switched is the
// first with two candidates. "first render" is from navigation to the
// status line saying the composition is shown (root template, choices and
// the root stack's parameters in the page); "re-render" from the choice's
// change event to the same; "effect" from the change event to the update
// section's counts and the line next to the pick ("in the page": from the
// page's request to the effect shown).

import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '../..');
const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : dflt;
};
const all = (name) => args.flatMap((a, i) => (a === `--${name}` ? [args[i + 1]] : []));
const bin = resolve(opt('bin', join(repo, 'target/release/heatcap')));
const tree = opt('tree', process.env.HEATCAP_TREE_2018 || '/work/tht-rendered/13d0057c');
const template = opt('template', 'overcloud.yaml');
const envs = all('env').length
  ? all('env')
  : ['overcloud-resource-registry-puppet.yaml', 'environments/network-isolation.yaml', 'environments/docker-ha.yaml'];
const runs = Number(opt('runs', '3'));
const depth = opt('depth', '');

const server = spawn(bin, ['serve', '--listen', '127.0.0.1:0', '--root', tree, ...(depth ? ['--max-nested-depth', depth] : [])], { stdio: ['ignore', 'ignore', 'pipe'] });
const base = await new Promise((ok, fail) => {
  createInterface({ input: server.stderr }).on('line', (l) => {
    const m = l.match(/http:\/\/(\S+)/);
    if (m) ok(`http://${m[1]}`);
  });
  server.on('exit', (c) => fail(new Error(`serve exited ${c}`)));
});
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});
const page = await (await browser.newContext({ viewport: { width: 1200, height: 900 } })).newPage();
const done = () =>
  page.waitForFunction(() => /parameters in the composition|could not|errors/.test(document.querySelector('[role=status]').textContent), null, { timeout: 120000 });
const q = new URLSearchParams({ template });
for (const e of envs) q.append('env', e);
const url = `${base}/?${q}`;

async function firstRender() {
  await page.goto('about:blank');
  const t0 = Date.now();
  await page.goto(url);
  await done();
  return Date.now() - t0;
}

const ms = (xs) => xs.map((x) => `${x}`).join(', ');
const cold = await firstRender();
const warm = [];
for (let i = 0; i < runs; i += 1) warm.push(await firstRender());
const facts = await page.evaluate(() => ({
  status: document.querySelector('[role=status]').textContent,
  choices: document.querySelectorAll('#choices select').length,
  stacks: document.querySelector('#parameters > p')?.textContent,
  controls: document.querySelectorAll('#parameters input, #parameters select, #parameters textarea').length,
}));
// The first type whose select offers another template.
const pick = await page.evaluate(() => {
  for (const s of document.querySelectorAll('#choices select')) {
    const other = [...s.options].find((o) => !o.disabled && o.value !== s.value);
    if (other) return { id: s.id, to: other.value, from: s.value, label: document.querySelector(`label[for="${s.id}"]`).textContent };
  }
  return null;
});
const rerender = [];
const inPage = [];
const effect = [];
const effectInPage = [];
let effectText = '';
if (pick) {
  // The comparison of the deployed composition with itself, at load.
  await page.waitForFunction(() => document.body.dataset.effect, null, { timeout: 120000 });
  for (let i = 0; i < runs + 1; i += 1) {
    const to = i % 2 === 0 ? pick.to : pick.from;
    const seen = await page.evaluate(() => document.body.dataset.effect);
    const t0 = Date.now();
    const rendered = page
      .waitForFunction(() => !/Computing/.test(document.querySelector('[role=status]').textContent), null, { timeout: 120000 })
      .then(() => Date.now() - t0);
    const compared = page
      .waitForFunction((b) => document.body.dataset.effect !== b, seen, { timeout: 120000 })
      .then(() => Date.now() - t0);
    await page.selectOption(`#${pick.id}`, to);
    const [r, e] = await Promise.all([rendered, compared]);
    rerender.push(r);
    effect.push(e);
    inPage.push(Number((await page.getByRole('status').textContent()).match(/\((\d+) ms\)/)?.[1]));
    effectInPage.push(Number(await page.evaluate(() => document.body.dataset.effectMs)));
    effectText = await page.locator('#update-counts').textContent();
  }
}
console.log(`tree: ${tree}; -t ${template} ${envs.map((e) => `-e ${e}`).join(' ')}`);
console.log(`page: ${facts.status} ${facts.choices} choices; ${facts.stacks} ${facts.controls} controls rendered`);
console.log(`first render, service cold: ${cold} ms`);
console.log(`first render, service warm: ${ms(warm)} ms`);
if (pick) {
  console.log(`re-render after a choice change (${pick.label}: ${pick.from} <-> ${pick.to}), the first of each side cold: ${ms(rerender)} ms (from the change event to the status line: ${ms(inPage)} ms)`);
  console.log(`the change's effect on the update from the deployed composition, the first of each side cold: ${ms(effect)} ms (in the page, from its request to the effect shown: ${ms(effectInPage)} ms); the last: ${effectText}`);
}
await browser.close();
server.kill();
