// End-to-end: heatcap serve's composition page in headless Chromium,
// driven as a person drives it (controls found by role and accessible
// name), on the 2016 TripleO corpus deployment of tests/heat_oracle.rs
// (overcloud.yaml, the base registry, network isolation, storage,
// pacemaker). axe-core checks every step. Run by .ci/page;
// HEATCAP_BIN names the binary (target/debug/heatcap by default),
// CHROMIUM the browser (/usr/bin/chromium), HEATCAP_PAGE_SCREENSHOTS=DIR
// writes one screenshot per step there (docs/page/ holds the committed ones).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '../..');
const bin = process.env.HEATCAP_BIN || join(repo, 'target/debug/heatcap');
const shots = process.env.HEATCAP_PAGE_SCREENSHOTS;
const axeSource = readFileSync(join(here, 'node_modules/axe-core/axe.min.js'), 'utf8');
const ENVS = [
  'overcloud-resource-registry-puppet.yaml',
  'environments/network-isolation.yaml',
  'environments/storage-environment.yaml',
  'environments/puppet-pacemaker.yaml',
];
const GLANCE = 'OS::TripleO::Services::GlanceApi';

let server;
let base;
let tree;
let browser;
let page;

/** Starts `heatcap serve` on a free port over `root`: its base URL. */
function serve(root) {
  server = spawn(bin, ['serve', '--listen', '127.0.0.1:0', '--root', root], { stdio: ['ignore', 'ignore', 'pipe'] });
  return new Promise((ok, fail) => {
    const lines = createInterface({ input: server.stderr });
    lines.on('line', (l) => {
      const m = l.match(/http:\/\/(\S+)/);
      if (m) ok(`http://${m[1]}`);
    });
    server.on('exit', (code) => fail(new Error(`heatcap serve exited ${code}`)));
  });
}

before(async () => {
  // A copy of the tree, so that the downloaded environment can be saved
  // in its root as the page says.
  tree = join(mkdtempSync(join(tmpdir(), 'heatcap-page-')), 'tht');
  cpSync(join(repo, 'fixtures/tripleo-heat-templates-2016'), tree, { recursive: true });
  base = await serve(tree);
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  // axe-core is injected as an inline script, which the page's policy
  // (default-src 'self') refuses: bypass it for the checker only.
  const context = await browser.newContext({ bypassCSP: true, acceptDownloads: true, viewport: { width: 1100, height: 760 } });
  page = await context.newPage();
  if (shots) mkdirSync(shots, { recursive: true });
});

after(async () => {
  await browser?.close();
  server?.kill();
  if (tree) rmSync(dirname(tree), { recursive: true, force: true });
});

/** axe-core's violations on the page as it is now (none expected). */
async function axe(step) {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: axeSource });
  const violations = await page.evaluate(async () => {
    const r = await window.axe.run(document);
    return r.violations.map((v) => `${v.id} (${v.impact}): ${v.help}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
  });
  assert.deepEqual(violations, [], `axe-core at step ${step}`);
}

/** A screenshot of step `n`, `at` (a locator) in the middle of the view. */
async function shot(n, at, block = 'center') {
  if (!shots) return;
  await at.evaluate((e, b) => e.scrollIntoView({ block: b }), block);
  await page.screenshot({ path: join(shots, `step-${n}.png`), fullPage: false });
}

/** Waits until the page has answered the last change. */
async function composed() {
  await page.waitForFunction(() => /parameters in the composition|Choose a root template|have errors/.test(document.querySelector('[role=status]').textContent));
}

const status = () => page.getByRole('status').textContent();

test('GET / answers JSON clients with the versions document, browsers with the page', async () => {
  const json = await fetch(`${base}/`, { headers: { Accept: 'application/json' } });
  assert.equal(json.status, 300);
  assert.equal((await json.json()).versions[0].id, 'v1.0');
  const any = await fetch(`${base}/`);
  assert.equal(any.status, 300);
  const html = await fetch(`${base}/`, { headers: { Accept: 'text/html,*/*;q=0.8' } });
  assert.equal(html.status, 200);
  assert.match(html.headers.get('content-type'), /^text\/html/);
  assert.match(html.headers.get('content-security-policy'), /default-src 'self'/);
  assert.match(await html.text(), /<title>heatcap: compose a Heat stack<\/title>/);
  const fixed = await fetch(`${base}/heatcap/page/`);
  assert.equal(fixed.status, 200);
  assert.equal((await fetch(`${base}/heatcap/page/nothing.js`)).status, 404);
});

/** Another `heatcap serve` (flags `args`) for one test: {child, base}. */
function serveAlso(args) {
  const child = spawn(bin, ['serve', '--listen', '127.0.0.1:0', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  return new Promise((ok, fail) => {
    createInterface({ input: child.stderr }).on('line', (l) => {
      const m = l.match(/http:\/\/(\S+)/);
      if (m) ok({ child, base: `http://${m[1]}` });
    });
    child.on('exit', (code) => fail(new Error(`heatcap serve exited ${code}`)));
  });
}

/** Runs `body` with the page helpers (axe, composed, status) on a page of its own. */
async function onOwnPage(body) {
  const saved = page;
  const context = await browser.newContext({ bypassCSP: true, acceptDownloads: true, viewport: { width: 1100, height: 760 } });
  page = await context.newPage();
  try {
    await body();
  } finally {
    await context.close();
    page = saved;
  }
}

/** The names in a tar archive (tar -t). */
function tarNames(file) {
  return execFileSync('tar', ['-tf', file], { encoding: 'utf8' }).split('\n').filter(Boolean);
}

const chosenTexts = () => page.getByRole('list', { name: /Chosen environments/ }).getByRole('listitem').allTextContents();

test('the workflow from a TripleO plan (fixtures/plans): its environments first, fixed; step 6 from the exported tree', async () => {
  const plans = join(repo, 'fixtures/plans');
  const { child, base: at } = await serveAlso(['--root', plans]);
  const scratch = mkdtempSync(join(tmpdir(), 'heatcap-plan-'));
  try {
    await onOwnPage(async () => {
      // Step 1: the plans beside the templates; a plan tripleo-common
      // could not deploy is offered disabled, with its error.
      await page.goto(`${at}/`);
      await composed();
      const root = page.getByRole('combobox', { name: 'Root template or TripleO plan' });
      const option = page.getByRole('option', { name: /^Plan plan-environment\.yaml / });
      const label = await option.textContent();
      assert.equal(label, 'Plan plan-environment.yaml (overcloud: The plan of the fixture tree): its template overcloud.yaml and 6 environments');
      assert.ok(await page.getByRole('option', { name: /^Plan plan-bad-order\.yaml .*not usable: E9003/ }).isDisabled());
      assert.ok(await page.getByRole('option', { name: /^Plan plan-invalid\.yaml / }).isDisabled());
      await axe('1 (plans)');
      await root.selectOption({ label });
      await composed();
      assert.match(page.url(), /[?&]plan=plan-environment\.yaml/);
      assert.doesNotMatch(page.url(), /[?&]template=/);

      // Step 2: the plan's environments, in tripleo-common's order, first
      // and not removable; the catalogue shows its files chosen, fixed.
      const planned = [
        'overcloud-resource-registry.yaml (from the plan)',
        'environments/net-v4.yaml (from the plan)',
        'environments/bond.yaml (from the plan)',
        "environments[0] of plan-environment.yaml (the plan's own, generated as tripleo-common did)",
        "parameter_defaults of plan-environment.yaml (the plan's own, generated as tripleo-common did)",
        "resource_registry of plan-environment.yaml (the plan's own, generated as tripleo-common did)",
      ];
      assert.deepEqual(await chosenTexts(), planned);
      assert.equal(await page.getByRole('button', { name: /^Remove / }).count(), 0);
      const v4 = page.getByLabel(/environments\/net-v4\.yaml\), brought by the plan$/);
      assert.ok((await v4.isChecked()) && (await v4.isDisabled()));
      // The exclusive group the plan chooses in is the plan's.
      assert.ok(await page.getByLabel(/^IPv6 networks \(environments\/net-v6\.yaml\)$/).isDisabled());
      // One environment of the user's own, after the plan's.
      await page.getByRole('checkbox', { name: /environments\/custom\.yaml/ }).check();
      await composed();
      const chosen = await chosenTexts();
      assert.deepEqual(chosen.slice(0, 6), planned);
      assert.equal(chosen[6].replace(/UpDownRemove$/, ''), 'environments/custom.yaml');
      assert.equal(await page.getByRole('button', { name: /^Remove / }).count(), 1);
      await axe('2 (plan)');

      // Step 5: the composition is `parameters --plan`'s.
      const shown = Number((await status()).match(/^(\d+) parameters/)[1]);
      const line = (await page.locator('#cmd-validate').textContent()).split('\n')[1];
      assert.equal(line, 'heatcap parameters --plan plan-environment.yaml -e environments/custom.yaml');
      let out;
      try {
        out = execFileSync(bin, [...line.split(' ').slice(1), '--format', 'json'], { cwd: plans, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
      } catch (e) {
        out = e.stdout;
      }
      const cli = JSON.parse(out);
      assert.equal(Object.keys(cli.parameters).length, shown);
      assert.ok(shown > 0);

      // Step 6: the command lines name the plan's generated environments
      // as the exported tree holds them; the tree downloads as a tar.
      assert.equal(
        await page.locator('#cmd-create').textContent(),
        'openstack stack create -t overcloud.yaml -e overcloud-resource-registry.yaml -e environments/net-v4.yaml -e environments/bond.yaml -e plan-environment.environments-0.json -e plan-environment.parameter_defaults.json -e plan-environment.resource_registry.json -e environments/custom.yaml overcloud',
      );
      await axe('6 (plan)');
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Download the exported tree (tar)' }).click(),
      ]);
      assert.equal(download.suggestedFilename(), 'heatcap-export.tar');
      const tar = join(scratch, 'tree.tar');
      await download.saveAs(tar);
      const names = tarNames(tar);
      for (const n of ['overcloud.yaml', 'environments/net-v4.yaml', 'plan-environment.parameter_defaults.json', 'environments/custom.yaml']) {
        assert.ok(names.includes(n), `${n} in ${names}`);
      }

      // A reload restores the plan and the user's environment.
      await page.reload();
      await composed();
      assert.equal(await root.inputValue(), 'plan:plan-environment.yaml');
      assert.deepEqual((await chosenTexts()).map((t) => t.replace(/UpDownRemove$/, '')), [...planned, 'environments/custom.yaml']);
      assert.equal(Number((await status()).match(/^(\d+) parameters/)[1]), shown);
    });
  } finally {
    child.kill();
    rmSync(scratch, { recursive: true, force: true });
  }
});

test('the workflow on a raw TripleO checkout (fixtures/jinja/latest, rendered by the service)', async () => {
  // A copy with two environments of its own: the roles' templates (both
  // rendered from Jinja sources), and another Controller implementation.
  const tht = join(mkdtempSync(join(tmpdir(), 'heatcap-raw-')), 'tht');
  cpSync(join(repo, 'fixtures/jinja/latest'), tht, { recursive: true });
  writeFileSync(
    join(tht, 'roles.yaml'),
    'resource_registry:\n  OS::TripleO::Controller: puppet/controller-role.yaml\n  OS::TripleO::ComputeOvsDpdk: puppet/computeovsdpdk-role.yaml\n  OS::TripleO::CephStorage: puppet/cephstorage-role.yaml\n',
  );
  writeFileSync(join(tht, 'name-only.yaml'), 'resource_registry:\n  OS::TripleO::Controller: puppet/controller-name-only.yaml\n');
  const { child, base: at } = await serveAlso(['--root', tht]);
  try {
    await onOwnPage(async () => {
      // Step 1: overcloud.yaml exists only as overcloud.j2.yaml.
      await page.goto(`${at}/`);
      await composed();
      const root = page.getByRole('combobox', { name: 'Root template or TripleO plan' });
      const label = await page.getByRole('option', { name: /^overcloud\.yaml/ }).textContent();
      assert.match(label, /^overcloud\.yaml: Primary role Controller; 3 roles\./);
      await root.selectOption({ label });
      await composed();
      await axe('1 (raw)');
      // Step 2: the environments, one of them rendered.
      for (const e of ['roles.yaml', 'environments/network-isolation.yaml', 'name-only.yaml']) {
        await page.getByRole('checkbox', { name: e }).check();
        await composed();
      }
      await axe('2 (raw)');
      // Steps 3-4: name-only.yaml picks the Controller; pick the role template.
      const controller = page.getByRole('combobox', { name: 'Implementation of OS::TripleO::Controller' });
      assert.equal(await controller.inputValue(), 'puppet/controller-name-only.yaml');
      await axe('3 (raw)');
      const search = page.getByRole('searchbox', { name: 'Search parameters by name' });
      await search.fill('NetName');
      const matching = async () => Number((await page.locator('#param-summary').textContent()).match(/^(\d+) matching/)[1]);
      // Two rendered roles declare the three networks' names; the name-only Controller none.
      assert.equal(await matching(), 6);
      await controller.selectOption('puppet/controller-role.yaml');
      await composed();
      assert.equal(await matching(), 9);
      await axe('4 (raw)');
      // Step 5: the rendered role template's parameters, in the Controller's stack.
      assert.ok((await page.getByText('InternalApiNetName', { exact: true }).count()) >= 3);
      assert.match(await status(), /^9 parameters in the composition/);
      await axe('5 (raw)');
    });
  } finally {
    child.kill();
    rmSync(dirname(tht), { recursive: true, force: true });
  }
});

test('step 2 on a raw TripleO checkout: an environment the service renders is usable, not "source-only" (issue 29)', async () => {
  // fixtures/jinja/latest with a capabilities map naming a rendered
  // environment (only its Jinja source is on disk) and a file the tree
  // never had.
  const tht = join(mkdtempSync(join(tmpdir(), 'heatcap-drift-')), 'tht');
  cpSync(join(repo, 'fixtures/jinja/latest'), tht, { recursive: true });
  writeFileSync(
    join(tht, 'capabilities-map.yaml'),
    [
      'topics:',
      '  - title: Networks',
      '    environment_groups:',
      '      - title: Isolation',
      '        environments:',
      '          - file: environments/network-isolation.yaml',
      '            title: Network isolation',
      '            description: Rendered from its Jinja source',
      '      - title: Gone',
      '        environments:',
      '          - file: environments/absent.yaml',
      '            title: Absent',
      '            description: A file the tree never had',
      '',
    ].join('\n'),
  );
  const { child, base: at } = await serveAlso(['--root', tht]);
  const about = async (name) => {
    const box = page.getByRole('checkbox', { name });
    const id = await box.getAttribute('aria-describedby');
    return page.locator(`[id="${id}"]`).textContent();
  };
  try {
    await onOwnPage(async () => {
      await page.goto(`${at}/`);
      await composed();
      const root = page.getByRole('combobox', { name: 'Root template or TripleO plan' });
      await root.selectOption({ label: await page.getByRole('option', { name: /^overcloud\.yaml/ }).textContent() });
      await composed();
      const isolation = 'Network isolation (environments/network-isolation.yaml)';
      assert.equal((await about(isolation)).trim(), 'Rendered from its Jinja source.');
      assert.match(await about('Absent (environments/absent.yaml)'), /Not usable: missing in the tree\./);
      assert.doesNotMatch(await page.locator('body').textContent(), /source-only/);
      await page.getByRole('checkbox', { name: isolation }).check();
      await composed();
      assert.match(await status(), /parameters in the composition/);
      await axe('2 (raw, catalogue)');
    });
  } finally {
    child.kill();
    rmSync(dirname(tht), { recursive: true, force: true });
  }
});

test('the workflow on the 2016 corpus deployment', async () => {
  // Step 1: the root template.
  await page.goto(`${base}/`);
  await composed();
  assert.equal(await page.getByRole('combobox', { name: 'Served tree' }).inputValue(), 'tht');
  await axe(1);
  await page.getByRole('combobox', { name: 'Root template' }).selectOption('overcloud.yaml');
  await composed();
  await shot(1, page.getByRole('heading', { name: 'Compose a Heat stack' }), 'start');

  // Step 2: the catalogue's topics and groups; a `requires` not met blocks.
  assert.ok(await page.getByRole('group', { name: 'Deployment options' }).getByRole('group', { name: 'High Availability' }).isVisible());
  await page.getByRole('checkbox', { name: 'Pacemaker (environments/puppet-pacemaker.yaml)' }).check();
  await composed();
  await page.waitForFunction(() => /which it requires/.test(document.querySelector('#env-problems').textContent));
  const alert = await page.locator('#env-problems').textContent();
  assert.match(alert, /block the next steps/);
  assert.match(alert, /capabilities-map\.yaml:\d+:\d+: E9003 error: `environments\/puppet-pacemaker\.yaml` is enabled without `overcloud-resource-registry-puppet\.yaml`, which it requires/);
  assert.match(await page.locator('#choices').textContent(), /^Blocked: fix the environments first/);
  await axe('2 (blocked)');
  await page.getByRole('checkbox', { name: 'Pacemaker (environments/puppet-pacemaker.yaml)' }).uncheck();
  await composed();
  assert.doesNotMatch(await page.locator('#env-problems').textContent(), /E9003|block the next steps/);
  // Mutually exclusive groups are radios, with a way back to none.
  const nic = page.getByRole('group', { name: 'Single nic or Bonding (at most one)' });
  assert.equal(await nic.getByRole('radio').count(), 3);
  assert.ok(await nic.getByRole('radio', { name: 'None of Single nic or Bonding' }).isChecked());

  // The four environments, in order; the last one by keyboard.
  for (const e of ENVS.slice(0, 3)) {
    await page.getByRole('checkbox', { name: e }).check();
    await composed();
  }
  const last = page.getByRole('checkbox', { name: ENVS[3] });
  await last.focus();
  await page.keyboard.press('Space');
  await composed();
  assert.ok(await last.isChecked());
  const chosen = page.getByRole('list', { name: /Chosen environments/ }).getByRole('listitem');
  assert.deepEqual(
    (await chosen.allTextContents()).map((t) => t.replace(/UpDownRemove$/, '')),
    ENVS,
  );
  // Reordering by keyboard, then back.
  await page.getByRole('button', { name: `Move ${ENVS[3]} up` }).focus();
  await page.keyboard.press('Enter');
  await composed();
  assert.equal((await chosen.nth(2).textContent()).replace(/UpDownRemove$/, ''), ENVS[3]);
  await page.getByRole('button', { name: `Move ${ENVS[3]} down` }).click();
  await composed();
  assert.equal((await chosen.nth(3).textContent()).replace(/UpDownRemove$/, ''), ENVS[3]);
  await axe(2);
  await shot(2, page.getByRole('list', { name: /Chosen environments/ }));

  // Steps 3-4: the choice for GlanceApi, picked by pacemaker.
  const glance = page.getByRole('combobox', { name: `Implementation of ${GLANCE}` });
  assert.equal(await glance.inputValue(), 'puppet/services/pacemaker/glance-api.yaml');
  const [nowId, conflictId] = (await glance.getAttribute('aria-describedby')).split(' ');
  assert.match(await page.locator(`#${nowId}`).textContent(), /^Picked by environments\/puppet-pacemaker\.yaml:\d+\.$/);
  assert.match(
    await page.locator(`#${conflictId}`).textContent(),
    /^Conflict: overcloud-resource-registry-puppet\.yaml and environments\/puppet-pacemaker\.yaml map it differently; environments\/puppet-pacemaker\.yaml wins \(given order\)\.$/,
  );
  const search = page.getByRole('searchbox', { name: 'Search parameters by name' });
  await search.fill('GlanceFilePcmk');
  const pcmk = page.getByText('GlanceFilePcmkManage', { exact: true });
  assert.ok((await pcmk.count()) > 0, 'the pacemaker GlanceApi declares GlanceFilePcmkManage');
  await axe(3);
  await shot(3, glance);
  const before = Number((await status()).match(/^(\d+) parameters/)[1]);
  // The page started with no composition: the one of steps 1 and 2 is
  // kept as deployed at the first pick, which is compared with it.
  assert.match(await page.locator('#update').textContent(), /^The page started with no composition/);
  await glance.selectOption('puppet/services/glance-api.yaml');
  await composed();
  await page.waitForFunction(() => document.body.dataset.effect);
  assert.equal(await page.locator('#update-deployed').textContent(), `Deployed: overcloud.yaml, ${ENVS.length} environments, 0 picks, 0 values.`);
  assert.match(
    await page.locator(`.choice[data-type="${GLANCE}"] .effect`).textContent(),
    /^(Against the deployed composition: \d+ added, \d+ replaced, \d+ updated, \d+ deleted, \d+ unchanged|Heat would refuse this update: )/,
  );
  const after = Number((await status()).match(/^(\d+) parameters/)[1]);
  assert.equal(await pcmk.count(), 0, 'the plain GlanceApi has no GlanceFilePcmk* parameters');
  assert.equal(before - after, 4, `${before} parameters before the switch, ${after} after`);
  assert.match(await page.locator('#param-summary').textContent(), /^0 matching/);
  assert.match(page.url(), /choose=OS%3A%3ATripleO%3A%3AServices%3A%3AGlanceApi%3Dpuppet%2Fservices%2Fglance-api\.yaml/);
  await axe(4);
  await shot(4, glance);

  // Step 5: a value Heat refuses, its words at the field, then corrected.
  await search.fill('');
  const rootStack = page.getByRole('group', { name: 'Parameters of stack root' });
  const count = rootStack.getByRole('textbox', { name: 'ControllerCount', exact: true });
  await count.fill('0');
  await page.waitForFunction(() => document.querySelector('[aria-invalid=true]'));
  assert.equal(await count.getAttribute('aria-invalid'), 'true');
  const described = async () => {
    const ids = (await count.getAttribute('aria-describedby')).split(' ');
    const texts = [];
    for (const id of ids) texts.push(await page.locator(`#${id}`).textContent());
    return texts.join(' | ');
  };
  // Heat's words (tests/heat/env-value-verdicts.json: "20 is out of range (min: 1, max: 10)").
  assert.match(await described(), /Heat refuses this value: 0 is out of range \(min: 1, max: None\)/);
  await axe(5);
  await shot(5, count);
  await count.fill('x2');
  await page.waitForFunction(() => /could not convert/.test(document.body.textContent));
  assert.match(await described(), /could not convert string to float: 'x2'/);
  await count.fill('2');
  await page.waitForFunction(() => !document.querySelector('[aria-invalid=true]'));
  assert.match(await described(), /Entered here: goes to parameter_defaults of heatcap-environment\.yaml\./);
  assert.doesNotMatch(await described(), /Heat refuses/);
  // A NoEcho value: masked, kept out of the address and of the download.
  const admin = rootStack.getByLabel('AdminPassword', { exact: true });
  assert.equal(await admin.getAttribute('type'), 'password');
  await admin.fill('s3cret');
  await page.waitForFunction(() => /p\.ControllerCount=2/.test(location.search));
  assert.doesNotMatch(page.url(), /s3cret/);

  // Step 6: the result.
  const env = await page.locator('#env-text').textContent();
  assert.match(env, /"OS::TripleO::Services::GlanceApi": "puppet\/services\/glance-api\.yaml"/);
  assert.match(env, /"ControllerCount": 2/);
  assert.doesNotMatch(env, /s3cret/);
  const create = await page.locator('#cmd-create').textContent();
  assert.equal(create, `openstack stack create -t overcloud.yaml ${ENVS.map((e) => `-e ${e}`).join(' ')} -e heatcap-environment.yaml overcloud`);
  // Nothing absent is written out (a missing plan's note once read "null").
  const texts = await page.locator('#result > *').allTextContents();
  assert.ok(!texts.some((t) => t.trim() === 'null'), texts.join('|'));
  assert.doesNotMatch(await page.locator('#result').innerText(), /^null$/m);
  await axe(6);
  await shot(6, page.getByRole('heading', { name: '6. Result' }), 'start');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Download heatcap-environment.yaml' }).click(),
  ]);
  assert.equal(download.suggestedFilename(), 'heatcap-environment.yaml');
  await download.saveAs(join(tree, 'heatcap-environment.yaml'));
  assert.equal(readFileSync(join(tree, 'heatcap-environment.yaml'), 'utf8'), env);

  // heatcap parameters, run as the page says, reports what the page showed.
  const line = (await page.locator('#cmd-validate').textContent()).split('\n')[1];
  const words = line.split(' ');
  assert.equal(words[0], 'heatcap');
  let out;
  try {
    out = execFileSync(bin, [...words.slice(1), '--format', 'json'], { cwd: tree, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch (e) {
    out = e.stdout; // exit 1: required parameters are still unset
  }
  const cli = JSON.parse(out);
  assert.equal(Object.keys(cli.parameters).length, after);
  assert.ok(!('GlanceFilePcmkManage' in cli.parameters));
  const { span, ...rootValue } = cli.parameters.ControllerCount.values.find((v) => v.stack === 'root');
  assert.deepEqual(rootValue, { stack: 'root', source: 'parameter_defaults', value: 2, file: 'heatcap-environment.yaml' });
  assert.match(env.split('\n')[span.start.line - 1], /^ {2}"ControllerCount": 2$/);
  assert.ok(cli.required.includes('AdminPassword'), 'NoEcho values stay out of the file');

  // A reload restores the composition from the address.
  await page.reload();
  await composed();
  assert.equal(await page.getByRole('combobox', { name: 'Root template' }).inputValue(), 'overcloud.yaml');
  for (const e of ENVS) assert.ok(await page.getByRole('checkbox', { name: e }).isChecked(), e);
  assert.equal(await glance.inputValue(), 'puppet/services/glance-api.yaml');
  assert.equal(await rootStack.getByRole('textbox', { name: 'ControllerCount', exact: true }).inputValue(), '2');
  assert.equal(Number((await status()).match(/^(\d+) parameters/)[1]), after);
});

// Step 5's sources, groups and checks (issue 19: "with where its value
// comes from (file:line)", "grouped by parameter groups", each value Heat
// would refuse flagged in Heat's words).

/** The page at the 2016 deployment (`extra`: more query pairs). */
async function deployment(at, extra = '') {
  const q = new URLSearchParams({ template: 'overcloud.yaml' });
  for (const e of ENVS) q.append('env', e);
  await page.goto(`${at}/?${q}${extra}`);
  await composed();
}

test('step 5 shows where each value is set, as heatcap parameters says, in every stack', async () => {
  await deployment(base);
  let out;
  try {
    out = execFileSync(bin, ['parameters', '-t', 'overcloud.yaml', ...ENVS.flatMap((e) => ['-e', e]), '--format', 'json'], { cwd: tree, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch (e) {
    out = e.stdout; // exit 1: required parameters are unset
  }
  const cli = JSON.parse(out);
  // A value from an environment at the root, passed on by the parent
  // resource in the nested stacks (each its own line).
  const name = 'CinderEnableIscsiBackend';
  const values = cli.parameters[name].values;
  assert.ok(values.length >= 3, JSON.stringify(values));
  assert.equal(values[0].source, 'parameter_defaults');
  await page.getByRole('searchbox', { name: 'Search parameters by name' }).fill(name);
  for (const v of values) {
    const stack = page.getByRole('group', { name: `Parameters of stack ${v.stack}`, exact: true });
    const at = (await stack.locator(`[data-param="${name}"] code.at`).textContent()).trim();
    assert.equal(at, `${v.file}:${v.span.start.line}`, `${v.stack}`);
  }
  const rootRow = page.getByRole('group', { name: 'Parameters of stack root', exact: true }).locator(`[data-param="${name}"]`);
  assert.match(await rootRow.textContent(), /Now: false, from the environments' parameter_defaults at environments\/storage-environment\.yaml:\d+\./);
  // A default: the template's line.
  const count = cli.parameters.ControllerCount.values[0];
  assert.equal(count.source, 'default');
  await page.getByRole('searchbox', { name: 'Search parameters by name' }).fill('ControllerCount');
  const countAt = await page.getByRole('group', { name: 'Parameters of stack root', exact: true }).locator('[data-param="ControllerCount"] code.at').textContent();
  assert.equal(countAt, `overcloud.yaml:${count.span.start.line}`);
  assert.match(readFileSync(join(tree, 'overcloud.yaml'), 'utf8').split('\n')[count.span.start.line - 1], /^\s+default:/);
  await axe('5 (sources)');
});

test('step 5 groups a stack\'s parameters by its parameter_groups, the others after', async () => {
  await deployment(base);
  await page.getByRole('searchbox', { name: 'Search parameters by name' }).fill('');
  const rootStack = page.getByRole('group', { name: 'Parameters of stack root', exact: true });
  // overcloud.yaml: parameter_groups [{label: deprecated, parameters: [controllerExtraConfig]}].
  const groups = rootStack.getByRole('group');
  assert.deepEqual(
    await groups.evaluateAll((gs) => gs.map((g) => g.querySelector('legend').textContent)),
    ['Group: deprecated', 'Parameters in no group'],
  );
  const deprecated = rootStack.getByRole('group', { name: 'Group: deprecated' });
  assert.match(await deprecated.textContent(), /Do not use deprecated params, they will be removed\./);
  assert.equal(await deprecated.locator('[data-param]').count(), 1);
  assert.ok(await deprecated.getByRole('textbox', { name: 'controllerExtraConfig', exact: true }).isVisible());
  const rest = rootStack.getByRole('group', { name: 'Parameters in no group' });
  assert.ok(await rest.getByRole('textbox', { name: 'ControllerCount', exact: true }).isVisible());
  assert.equal(await rest.locator('[data-param="controllerExtraConfig"]').count(), 0);
  await axe('5 (groups)');
});

test('step 5 checks a typed value against every declaration, naming the stacks that refuse it', async () => {
  // fixtures/definitions: Count is at least 1 at the root, 1 to 3 in
  // `small`, at least 3 in `large`.
  const own = spawn(bin, ['serve', '--listen', '127.0.0.1:0', '--root', join(repo, 'fixtures/definitions')], { stdio: ['ignore', 'ignore', 'pipe'] });
  try {
    const at = await new Promise((ok, fail) => {
      createInterface({ input: own.stderr }).on('line', (l) => {
        const m = l.match(/http:\/\/(\S+)/);
        if (m) ok(`http://${m[1]}`);
      });
      own.on('exit', (code) => fail(new Error(`heatcap serve exited ${code}`)));
    });
    await page.goto(`${at}/?template=root.yaml&env=env.yaml`);
    await composed();
    const rootStack = page.getByRole('group', { name: 'Parameters of stack root', exact: true });
    const sizing = rootStack.getByRole('group', { name: 'Group: Sizing' });
    assert.match(await sizing.textContent(), /How many of each\./);
    assert.match(await sizing.textContent(), /Declared differently: number, value at least 1 in stack root; number, value from 1 to 3 in stack root\/small; number, value at least 3 in stack root\/large\./);
    assert.ok(await rootStack.getByRole('group', { name: 'Parameters in no group' }).getByRole('textbox', { name: 'Name', exact: true }).isVisible());
    const count = sizing.getByRole('textbox', { name: 'Count', exact: true });
    const error = async () => {
      const ids = (await count.getAttribute('aria-describedby')).split(' ');
      return page.locator(`#${ids.find((i) => i.endsWith('-err'))}`).textContent();
    };
    await count.fill('2');
    await page.waitForFunction(() => document.querySelector('[aria-invalid=true]'));
    assert.equal(await error(), 'Heat refuses this value: 2 is out of range (min: 3, max: None) (stack root/large)');
    await count.fill('5');
    await page.waitForFunction(() => /min: 1, max: 3/.test(document.querySelector('[aria-invalid=true]')?.closest('.param')?.textContent || ''));
    assert.equal(await error(), 'Heat refuses this value: 5 is out of range (min: 1, max: 3) (stack root/small)');
    await axe('5 (every declaration)');
    await count.fill('3');
    await page.waitForFunction(() => !document.querySelector('[aria-invalid=true]'));
    assert.equal(await error(), '');
  } finally {
    own.kill();
  }
});

test('a pick and a value each show what the update from the deployed composition would do (fixtures/diff/new)', async () => {
  const tree = join(mkdtempSync(join(tmpdir(), 'heatcap-update-')), 'diff');
  cpSync(join(repo, 'fixtures/diff/new'), tree, { recursive: true });
  // What the page's picks and values stand for, as files: the generated
  // environment's resource_registry and parameter_defaults.
  writeFileSync(join(tree, 'pick.yaml'), 'resource_registry:\n  OS::Diff::Thing: thing.yaml\n');
  writeFileSync(join(tree, 'salt.yaml'), 'parameter_defaults:\n  SaltLength: 32\n');
  const cli = (...args) => {
    let out;
    try {
      out = execFileSync(bin, ['diff', '-t', 'root.yaml', '--from-environment', 'env.yaml', '--from-environment', 'remap.yaml', ...args, '--format', 'json'], { cwd: tree, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    } catch (e) {
      out = e.stdout;
    }
    return JSON.parse(out);
  };
  const { child, base: at } = await serveAlso(['--root', tree]);
  const compared = async (before) => {
    await page.waitForFunction((b) => document.body.dataset.effect && document.body.dataset.effect !== b, before);
    return page.evaluate(() => document.body.dataset.effect);
  };
  const counts = () => page.locator('#update-counts').textContent();
  const countsOf = (d) => {
    const s = d.summary;
    return `${s.add} added, ${s.replace} replaced, ${s.update} updated, ${s.delete} deleted, ${s.unchanged} unchanged`;
  };
  try {
    await onOwnPage(async () => {
      // The composition the address names is kept as deployed; compared
      // with itself, Heat still updates stack resources and replaces an
      // UpdateWaitConditionHandle.
      await page.goto(`${at}/?template=root.yaml&env=env.yaml&env=remap.yaml`);
      await composed();
      let seen = await compared(undefined);
      const same = cli('-e', 'env.yaml', '-e', 'remap.yaml');
      assert.match(await counts(), new RegExp(`^${countsOf(same)} \\(compared in \\d+ ms\\)\\.$`));
      assert.equal(await page.locator('#update-deployed').textContent(), 'Deployed: root.yaml, 2 environments, 0 picks, 0 values.');
      await axe('update (deployed)');

      // Steps 3-4: pick thing.yaml for OS::Diff::Thing (remap.yaml maps it
      // to OS::Heat::None): a template for a plugin, so Heat replaces it.
      const thing = page.getByRole('combobox', { name: 'Implementation of OS::Diff::Thing' });
      await thing.selectOption('thing.yaml');
      seen = await compared(seen);
      const picked = cli('-e', 'env.yaml', '-e', 'remap.yaml', '-e', 'pick.yaml');
      assert.ok(picked.summary.replace > same.summary.replace);
      assert.match(await counts(), new RegExp(`^${countsOf(picked)} `));
      const effect = page.locator('.choice[data-type="OS::Diff::Thing"] .effect');
      assert.match(await effect.textContent(), new RegExp(`^Against the deployed composition: ${countsOf(picked)}; replaced: .*root/Thing \\(OS::Diff::Thing\\)`));
      const replaced = page.getByRole('list', { name: /^Replaced: deleted and created anew/ });
      const thingItem = replaced.getByRole('listitem').filter({ hasText: 'root/Thing (OS::Diff::Thing)' });
      assert.match(await thingItem.textContent(), /its implementation changes kind/);
      await axe('update (pick)');

      // Step 5: a value that feeds a property Heat cannot update in place.
      await page.getByRole('searchbox', { name: 'Search parameters by name' }).fill('SaltLength');
      await page.getByLabel('SaltLength', { exact: true }).fill('32');
      seen = await compared(seen);
      const valued = cli('-e', 'env.yaml', '-e', 'remap.yaml', '-e', 'pick.yaml', '-e', 'salt.yaml');
      assert.match(await counts(), new RegExp(`^${countsOf(valued)} `));
      const salt = replaced.getByRole('listitem').filter({ hasText: 'root/Salt (OS::Heat::RandomString)' }).first();
      assert.match(await salt.textContent(), /Heat cannot change these properties of OS::Heat::RandomString in place\.length: 16 → 32 \(forces the replacement\)/);
      assert.match(await page.locator('.param[data-param="SaltLength"] .effect').first().textContent(), /replaced: .*root\/Salt \(OS::Heat::RandomString\)/);
      // The other categories, each a disclosure opened by keyboard.
      const updated = page.locator('details.update-updated > summary');
      assert.match(await updated.textContent(), new RegExp(`^Updated in place \\(${valued.summary.update}\\)$`));
      await updated.focus();
      await page.keyboard.press('Enter');
      assert.ok(await page.locator('details.update-updated').evaluate((d) => d.open));
      await axe('update (value)');

      // Keep this composition as deployed (by keyboard): compared with
      // itself again.
      await page.getByRole('button', { name: 'Keep the current composition as deployed' }).focus();
      await page.keyboard.press('Enter');
      await compared(seen);
      assert.equal(await page.locator('#update-deployed').textContent(), 'Deployed: root.yaml, 2 environments, 1 pick, 1 value.');
      const kept = cli('-e', 'env.yaml', '-e', 'remap.yaml', '-e', 'pick.yaml', '-e', 'salt.yaml', '--from-environment', 'pick.yaml', '--from-environment', 'salt.yaml');
      assert.match(await counts(), new RegExp(`^${countsOf(kept)} `));
      assert.equal(await page.locator('.effect').count(), 0);
      await axe('update (kept)');
    });
  } finally {
    child.kill();
    rmSync(dirname(tree), { recursive: true, force: true });
  }
});
