// The composition page: the spec's workflow (docs/capabilities.md), steps
// 1 to 6, over heatcap serve's own JSON routes. The state lives in the
// address (model.js): every change replaces it, a reload restores it.

import * as api from './api.js';
import * as m from './model.js';
import { el, ParameterView } from './params.js';
import * as u from './update.js';

const $ = (id) => document.getElementById(id);
const state = m.parseState(location.search);
let roots = [];
let rootShown = '';
let files = [];
/** The root's TripleO plans (`plans`), paths relative to the root. */
let plans = [];
let catalogue = null;
/** Type → the index's files that declare it or that an environment maps it to. */
let implementing = new Map();
let options = null;
let report = null;
let view = null;
let generation = 0;
let withHidden = false;
let blobUrl = null;
const timers = new Map();
/** The composition kept as deployed ({served, about}): what updates are compared with. */
let deployed = null;
/** The last change compared ({kind: 'choice'|'value'|'composition', key}), and its line. */
let lastChange = null;
let effectLine = '';
let effectGeneration = 0;
let effectTimer = null;

function announce(text) {
  $('status').textContent = text;
}

function hiddenNames() {
  if (!report) return new Set();
  return new Set(Object.entries(report.parameters).filter(([, i]) => i.hidden).map(([n]) => n));
}

/** Name of the exported tree's archive. */
const TREE_FILE = 'heatcap-export.tar';

/** The value of a plan in step 1's list. */
const PLAN = 'plan:';

/** The chosen plan ({path, template, environments: [{path, file}]}), if any. */
function chosenPlan() {
  return state.plan ? plans.find((p) => p.path === state.plan) || null : null;
}

/** The files the chosen plan brings (merged first, not removable). */
function planFiles() {
  return (chosenPlan()?.environments || []).filter((e) => e.file).map((e) => e.path);
}

/** Every chosen environment file, in merge order: the plan's, then the user's. */
function allChosen() {
  return [...planFiles(), ...state.envs];
}

/** Whether a composition is named: a root template, or a plan (its template). */
function composing() {
  return Boolean(state.template || state.plan);
}

function saveUrl() {
  const q = m.stateQuery(state, hiddenNames());
  history.replaceState(null, '', `${location.pathname}${q ? `?${q}` : ''}`);
}

function where(d) {
  const at = d.span ? `:${d.span.start.line}:${d.span.start.column}` : '';
  return `${m.relative(d.file || '', rootShown)}${at}: ${d.code} ${d.severity}: ${d.message}`;
}

// Step 1 -----------------------------------------------------------------

async function init() {
  try {
    roots = (await api.get('roots')).roots;
  } catch (e) {
    announce(`The service did not answer: ${e.message}`);
    return;
  }
  const select = $('root');
  select.replaceChildren(...roots.map((r) => el('option', { value: r.name, text: `${r.name} (${r.path})` })));
  if (!roots.some((r) => r.name === state.root)) state.root = roots[0]?.name || '';
  select.value = state.root;
  select.addEventListener('change', async () => {
    Object.assign(state, m.emptyState(), { root: select.value });
    await loadRoot();
  });
  $('template').addEventListener('change', () => {
    const v = $('template').value;
    if (v.startsWith(PLAN)) {
      state.plan = v.slice(PLAN.length);
      state.template = '';
      const brought = new Set(planFiles());
      state.envs = state.envs.filter((e) => !brought.has(e));
    } else {
      state.plan = '';
      state.template = v;
    }
    state.choices = {};
    changed();
  });
  $('env-filter').addEventListener('input', renderEnvList);
  $('type-filter').addEventListener('input', renderChoices);
  await loadRoot();
}

async function loadRoot() {
  rootShown = roots.find((r) => r.name === state.root)?.path || '';
  announce('Reading the tree…');
  // The composition the address names is asked for while the tree is read.
  const early = composing() ? compute({ options: true }) : null;
  early?.catch(() => {});
  const listed = api.get('plans', [['root', state.root]]).catch(() => ({ plans: [] }));
  try {
    files = (await api.get('index', [['root', state.root], ['recursive', 'true']])).files;
  } catch (e) {
    announce(`heatcap could not read the tree: ${e.message}`);
    return;
  }
  plans = (await listed).plans.map((p) => ({
    ...p,
    path: m.relative(p.path, rootShown),
    template: p.template ? m.relative(p.template, rootShown) : '',
    environments: p.environments.map((e) => ({ ...e, path: m.relative(e.path, rootShown) })),
    errors: p.diagnostics.filter((d) => d.severity === 'error'),
  }));
  const depth = (p) => p.split('/').length;
  const rel = (f) => m.relative(f.path, rootShown);
  const templates = files
    .filter((f) => (f.kind || '').endsWith('template'))
    .sort((a, b) => depth(rel(a)) - depth(rel(b)) || rel(a).localeCompare(rel(b)));
  implementing = new Map();
  for (const f of files) {
    for (const t of new Set([...(f.resource_type || []), ...Object.keys(f.inferred_resource_type || {})])) {
      if (!implementing.has(t)) implementing.set(t, []);
      implementing.get(t).push(f);
    }
  }
  const select = $('template');
  const templateOptions = templates.map((f) => {
    const d = (f.description || '').trim().split('\n')[0];
    return el('option', { value: rel(f), text: d ? `${rel(f)}: ${d.slice(0, 70)}` : rel(f) });
  });
  const planOptions = plans.map((p) => {
    const about = [p.name, (p.description || '').trim().split('\n')[0]].filter(Boolean).join(': ');
    const what = `its template ${p.template || '(none)'} and ${p.environments.length} environment${p.environments.length === 1 ? '' : 's'}`;
    const why = p.errors.length ? `; not usable: ${p.errors[0].code} ${p.errors[0].message}` : '';
    return el('option', {
      value: `${PLAN}${p.path}`,
      disabled: p.errors.length > 0 || !p.template,
      text: `Plan ${p.path}${about ? ` (${about.slice(0, 70)})` : ''}: ${what}${why}`,
    });
  });
  select.replaceChildren(
    el('option', { value: '', text: '(choose a root template or a plan)' }),
    ...(planOptions.length
      ? [el('optgroup', { label: 'TripleO plans (plan environments)' }, planOptions), el('optgroup', { label: 'Templates' }, templateOptions)]
      : templateOptions),
  );
  const usable = (p) => !p.errors.length && p.template;
  if (state.plan && !plans.some((p) => p.path === state.plan && usable(p))) state.plan = '';
  if (!templates.some((f) => rel(f) === state.template)) state.template = '';
  select.value = state.plan ? `${PLAN}${state.plan}` : state.template;
  const envs = new Set(files.filter((f) => f.kind === 'environment').map(rel));
  const brought = new Set(planFiles());
  const known = state.envs.filter((e) => envs.has(e) && !brought.has(e));
  const same = known.length === state.envs.length && composing();
  state.envs = known;
  renderEnvList();
  await refresh({ options: true }, same ? early : null);
  // The composition the address names is the one the page started from.
  if (!deployed && composing() && report) keepDeployed();
  else renderUpdate();
}

// Step 2 -----------------------------------------------------------------

/** One environment's control: a checkbox, or a radio of an exclusive group. */
function envControl(file, title, about, group) {
  const id = `env-${file}`;
  const fromPlan = planFiles().includes(file);
  const on = fromPlan || state.envs.includes(file);
  // An exclusive group the plan chooses in is the plan's.
  const planGroup = group?.files.some((f) => planFiles().includes(f));
  const input = el('input', {
    type: group ? 'radio' : 'checkbox',
    name: group?.name,
    id,
    checked: on,
    disabled: fromPlan || planGroup,
    'aria-describedby': about ? `${id}-about` : undefined,
    onchange: (e) => {
      if (group) state.envs = state.envs.filter((x) => !group.files.includes(x));
      if (e.target.checked) state.envs.push(file);
      else state.envs = state.envs.filter((x) => x !== file);
      changed();
    },
  });
  return el(
    'div',
    { class: 'env' },
    input,
    ' ',
    el('label', { for: id, text: `${title && title !== file ? `${title} (${file})` : file}${fromPlan ? ', brought by the plan' : ''}` }),
    about ? el('span', { class: 'help', id: `${id}-about`, text: ` ${about}` }) : null,
  );
}

function renderCatalogue(q) {
  const text = (v) => (v === null || v === undefined ? '' : String(v).trim());
  const sets = [];
  let gi = 0;
  for (const topic of Object.values(catalogue.capabilities)) {
    const groups = [];
    for (const g of topic.environment_groups) {
      gi += 1;
      const envs = g.environments.filter((e) => !q || e.file.toLowerCase().includes(q) || text(e.title).toLowerCase().includes(q));
      if (!envs.length) continue;
      const about = (e) => {
        const d = text(e.description);
        const parts = [d && !/[.!?]$/.test(d) ? `${d}.` : d];
        if (e.requires?.length) parts.push(`Requires ${e.requires.join(', ')}.`);
        if (e.drift) parts.push(`Not usable: ${e.drift} in the tree.`);
        return parts.filter(Boolean).join(' ');
      };
      const exclusive = g.exclusive && g.environments.length > 1;
      const group = exclusive ? { name: `group-${gi}`, files: g.environments.map((e) => e.file) } : null;
      const rows = envs.map((e) => envControl(e.file, text(e.title), about(e), group));
      const title = text(g.title);
      const single = envs.length === 1 && !exclusive && (!title || title === envs[0].file || title === text(envs[0].title));
      if (single) {
        groups.push(rows[0]);
        continue;
      }
      const legend = `${title || 'Environments'}${exclusive ? ' (at most one)' : ''}`;
      const set = el('fieldset', { class: 'envs' }, el('legend', { text: legend }));
      if (text(g.description)) set.append(el('p', { class: 'help', text: text(g.description) }));
      if (exclusive) {
        const id = `none-${gi}`;
        set.append(
          el(
            'div',
            { class: 'env' },
            el('input', {
              type: 'radio',
              name: group.name,
              id,
              checked: !group.files.some((f) => allChosen().includes(f)),
              disabled: group.files.some((f) => planFiles().includes(f)),
              onchange: () => {
                state.envs = state.envs.filter((x) => !group.files.includes(x));
                changed();
              },
            }),
            ' ',
            el('label', { for: id, text: `None of ${title || 'these'}` }),
          ),
        );
      }
      set.append(...rows);
      groups.push(set);
    }
    if (!groups.length) continue;
    const set = el('fieldset', { class: 'envs topic' }, el('legend', { text: text(topic.title) || 'Environments' }));
    if (text(topic.description)) set.append(el('p', { class: 'help', text: text(topic.description) }));
    set.append(...groups);
    sets.push(set);
  }
  return sets;
}

function renderEnvList() {
  const q = $('env-filter').value.trim().toLowerCase();
  if (catalogue) {
    const sets = renderCatalogue(q);
    $('env-list').replaceChildren(
      el('p', { class: 'help', text: `The tree's catalogue (${m.relative(catalogue.map, rootShown)}): its topics and groups, then the environments it does not name (Other).` }),
      ...(sets.length ? sets : [el('p', { class: 'help', text: 'No environment matches.' })]),
    );
    return;
  }
  const byDir = new Map();
  for (const f of files) {
    if (f.kind !== 'environment') continue;
    const p = m.relative(f.path, rootShown);
    if (q && !p.toLowerCase().includes(q)) continue;
    const dir = p.includes('/') ? p.slice(0, p.lastIndexOf('/') + 1) : '';
    if (!byDir.has(dir)) byDir.set(dir, []);
    byDir.get(dir).push({ p, f });
  }
  const box = $('env-list');
  const sets = [...byDir.keys()].sort().map((dir) =>
    el(
      'fieldset',
      { class: 'envs' },
      el('legend', { text: dir ? `Environments in ${dir}` : 'Environments at the top of the tree' }),
      byDir.get(dir).map(({ p, f }) => {
        const registry = Object.keys(f.resource_registry || {}).length;
        const defaults = (f.parameter_defaults || []).length;
        const what = `${registry} registry entr${registry === 1 ? 'y' : 'ies'}, ${defaults} parameter_defaults`;
        const requires = Object.keys(f.requires || {}).length ? `; requires ${JSON.stringify(f.requires)}` : '';
        return envControl(p, '', `(${what}${requires})`, null);
      }),
    ),
  );
  box.replaceChildren(...(sets.length ? sets : [el('p', { class: 'help', text: 'No environment matches.' })]));
}

function renderChosen() {
  const list = $('env-chosen');
  const plan = chosenPlan();
  const fixed = (plan?.environments || []).map((e) =>
    el(
      'li',
      { class: 'from-plan' },
      el('span', { class: 'mono', text: e.file ? e.path : `${e.path.slice(e.path.lastIndexOf('#') + 1)} of ${plan.path}` }),
      el('span', { class: 'help', text: e.file ? ' (from the plan)' : " (the plan's own, generated as tripleo-common did)" }),
    ),
  );
  $('env-none').hidden = state.envs.length > 0 || fixed.length > 0;
  list.replaceChildren(
    ...fixed,
    ...state.envs.map((p, i) => {
      const move = (to) => () => {
        const [x] = state.envs.splice(i, 1);
        state.envs.splice(to, 0, x);
        changed();
        list.querySelectorAll('li')[fixed.length + to]?.querySelector(to < i ? '.up' : '.down')?.focus();
      };
      return el(
        'li',
        {},
        el('span', { class: 'mono', text: p }),
        el('button', { type: 'button', class: 'up', 'aria-label': `Move ${p} up`, disabled: i === 0, onclick: move(i - 1), text: 'Up' }),
        el('button', { type: 'button', class: 'down', 'aria-label': `Move ${p} down`, disabled: i === state.envs.length - 1, onclick: move(i + 1), text: 'Down' }),
        el('button', {
          type: 'button',
          'aria-label': `Remove ${p}`,
          onclick: () => {
            state.envs.splice(i, 1);
            changed();
            $('env-filter').focus();
          },
          text: 'Remove',
        }),
      );
    }),
  );
}

// The composition ---------------------------------------------------------

function changed(what = { options: true }, change = { kind: 'composition' }) {
  saveUrl();
  if (what.options) {
    renderChosen();
    renderEnvList();
  }
  refresh(what);
  if (deployed) updateEffect(change);
}

/** Asks the service for the composition of the state as it is now. */
function compute(what) {
  const envPairs = api.compositionPairs(state, { template: false, choices: false });
  return Promise.all([
    what.options || !options ? api.get('options', envPairs) : options,
    api.get('parameters', api.compositionPairs(state)),
    what.options || !catalogue ? askCatalogue() : catalogue,
  ]);
}

/** The tree's catalogue for the chosen environments; null when it has no map. */
async function askCatalogue() {
  try {
    const c = await api.get('catalogue', api.compositionPairs(state, { template: false, choices: false }));
    return c.diagnostics.some((d) => d.code === 'E0014' && d.file === c.map) ? false : c;
  } catch {
    return false;
  }
}

/** Recomputes and renders steps 3 to 6 (`asked`: answers already asked for). */
async function refresh(what = { options: true }, asked = null) {
  const g = ++generation;
  renderChosen();
  if (!composing()) {
    for (const id of ['choices', 'parameters', 'result']) {
      $(id).replaceChildren(el('p', { class: 'help', text: 'Choose a root template first.' }));
    }
    renderUpdate();
    const c = await askCatalogue();
    if (g !== generation) return;
    catalogue = c;
    renderEnvList();
    renderProblems();
    announce('Choose a root template.');
    return;
  }
  announce('Computing the composition…');
  const started = performance.now();
  try {
    const [o, p, c] = await (asked || compute(what));
    if (g !== generation) return;
    options = o;
    report = p;
    if (c !== catalogue) {
      catalogue = c;
      renderEnvList();
    }
  } catch (e) {
    if (g !== generation) return;
    $('env-problems').replaceChildren(el('p', { class: 'error', role: 'alert', text: `heatcap refused the composition: ${e.message}` }));
    announce('The composition could not be computed.');
    return;
  }
  const blocked = renderProblems();
  if (blocked) {
    for (const id of ['choices', 'parameters', 'result']) {
      $(id).replaceChildren(el('p', { class: 'help', text: 'Blocked: fix the environments first (step 2).' }));
    }
    announce('The chosen environments have errors (step 2).');
    return;
  }
  renderChoices();
  renderParameters();
  renderResult();
  placeEffect();
  if (!deployed) renderUpdate();
  checkAll();
  const ms = Math.round(performance.now() - started);
  document.body.dataset.rendered = String(g);
  announce(`${Object.keys(report.parameters).length} parameters in the composition, ${report.required.length} required (${ms} ms).`);
}

/** The environments' problems (errors block the next steps). */
function renderProblems() {
  const box = $('env-problems');
  // The catalogue's requirement findings (a `requires` not met, a cycle).
  const unmet = (catalogue?.diagnostics || []).filter((d) => d.code === 'E9003' || d.code === 'E9004');
  const envErrors = [...unmet, ...(options && composing() ? options.diagnostics : []).filter((d) => d.severity === 'error')];
  const rest = (report && composing() ? report.diagnostics : []).filter((d) => d.severity === 'error');
  const items = [...envErrors, ...rest];
  if (!items.length) {
    box.replaceChildren();
    return false;
  }
  box.replaceChildren(
    el('p', { class: 'error', role: 'alert', text: envErrors.length ? 'The chosen environments have errors; they block the next steps:' : 'heatcap found errors in the composition:' }),
    el('ul', {}, items.map((d) => el('li', { class: 'mono', text: where(d) }))),
  );
  return envErrors.length > 0;
}

// Steps 3 and 4 -------------------------------------------------------------

function renderChoices() {
  if (!options) return;
  const q = $('type-filter').value.trim().toLowerCase();
  const list = options.choices.filter((c) => !q || c.type.toLowerCase().includes(q));
  const box = $('choices');
  if (!options.choices.length) {
    box.replaceChildren(el('p', { class: 'help', text: 'The chosen environments offer no choice (no type is mapped to two templates).' }));
    return;
  }
  box.replaceChildren(
    el('p', { class: 'help', text: `${options.choices.length} resource types with a choice${q ? `, ${list.length} shown` : ''}.` }),
    ...list.map((c, i) => choice(c, i)),
  );
}

function choice(c, i) {
  const cands = m.candidates(c, implementing.get(c.type) || [], rootShown);
  const envPick = c.mapped_to ? m.relative(c.mapped_to, rootShown) : '';
  const mine = state.choices[c.type];
  const picked = mine ?? envPick;
  const id = `choice-${i}`;
  const chosenCand = cands.find((k) => k.name === c.selection?.chosen || k.path === envPick);
  const chosenEnvs = allChosen();
  const by = (chosenCand?.mappedBy || []).filter((x) => chosenEnvs.includes(x.environment)).map((x) => `${x.environment}:${x.line}`);
  const select = el(
    'select',
    {
      id,
      'aria-describedby': `${id}-now${c.conflicts.length ? ` ${id}-conflicts` : ''}`,
      onchange: (e) => {
        const v = e.target.value;
        ensureDeployed();
        if (v === envPick) delete state.choices[c.type];
        else state.choices[c.type] = v;
        changed({ options: false }, { kind: 'choice', key: c.type });
      },
    },
    cands.map((k) =>
      el('option', {
        value: k.path || k.name,
        disabled: !k.path,
        text: k.path ? k.path : `${k.name} (a resource type: pick it through an environment)`,
      }),
    ),
  );
  select.value = picked;
  const now = mine
    ? `Your pick, written to ${m.GENERATED}; the environments pick ${envPick || 'nothing'}${by.length ? ` (${by.at(-1)})` : ''}.`
    : `Picked by ${by.length ? by.at(-1) : 'the environments'}${by.length > 1 ? `, over ${by.slice(0, -1).join(', ')}` : ''}.`;
  const row = el(
    'div',
    { class: 'choice', 'data-type': c.type },
    el('label', { for: id, class: 'type', text: `Implementation of ${c.type}` }),
    ' ',
    select,
    el('p', { class: 'help', id: `${id}-now`, text: now }),
  );
  if (c.conflicts.length) {
    row.append(
      el(
        'p',
        { class: 'warning', id: `${id}-conflicts` },
        c.conflicts
          .map((x) => `Conflict: ${x.environments.map((e) => m.relative(e, rootShown)).join(' and ')} map it differently; ${m.relative(x.wins, rootShown)} wins (${x.order} order).`)
          .join(' '),
      ),
    );
  }
  const details = el('details', {}, el('summary', { text: `Candidates of ${c.type} and their capabilities` }));
  const ul = el('ul');
  for (const k of cands) {
    const caps = k.capabilities && Object.keys(k.capabilities).length ? `capabilities ${JSON.stringify(k.capabilities)}` : 'no capabilities declared';
    const maps = k.mappedBy.length ? `; mapped by ${k.mappedBy.map((x) => `${x.environment}:${x.line}`).join(', ')}` : '';
    const li = el('li', {}, el('span', { class: 'mono', text: k.path || k.name }), ` (${caps}${maps})`);
    for (const x of k.mappedBy) {
      if (chosenEnvs.includes(x.environment) || x.environment === k.path) continue;
      li.append(
        ' ',
        el('button', {
          type: 'button',
          text: `Add environment ${x.environment}`,
          onclick: () => {
            state.envs.push(x.environment);
            delete state.choices[c.type];
            changed();
          },
        }),
      );
    }
    ul.append(li);
  }
  details.append(ul);
  row.append(details);
  return row;
}

// Step 5 ------------------------------------------------------------------

function renderParameters() {
  const old = view;
  view = new ParameterView($('parameters'), report, { state, shown: rootShown, onValue });
  if (old) {
    view.open = old.open;
    view.query = old.query;
    view.onlyRequired = old.onlyRequired;
    view.verdicts = old.verdicts;
  }
  view.render();
}

function onValue(name, text) {
  ensureDeployed();
  if (text === '') delete state.values[name];
  else state.values[name] = text;
  saveUrl();
  view.sync(name, null);
  renderResult();
  clearTimeout(effectTimer);
  effectTimer = setTimeout(() => updateEffect({ kind: 'value', key: name }), 150);
  clearTimeout(timers.get(name));
  if (text === '') return;
  timers.set(name, setTimeout(() => check([name]), 150));
}

async function check(names) {
  const values = names
    .filter((n) => n in state.values && report.parameters[n])
    .map((n) => {
      // Checked against every declaration the value reaches (the first
      // declaration's type gives the typed value, as in the download).
      const i = report.parameters[n];
      return { name: n, definitions: m.checkDefinitions(i), value: m.typedValue(i.type, state.values[n]) };
    });
  if (!values.length) return;
  const asked = Object.fromEntries(values.map((v) => [v.name, state.values[v.name]]));
  try {
    const { verdicts } = await api.post('check', { values });
    for (const v of verdicts) {
      if (state.values[v.name] === asked[v.name]) view.setVerdict(v.name, v);
    }
  } catch (e) {
    announce(`The service could not check the values: ${e.message}`);
  }
}

function checkAll() {
  check(Object.keys(state.values));
}

// The update from the deployed composition ---------------------------------

/** The values entered that the composition declares, and their types. */
function enteredValues() {
  const params = report?.parameters || {};
  const values = Object.fromEntries(Object.entries(state.values).filter(([n]) => n in params));
  const types = Object.fromEntries(Object.entries(params).map(([n, i]) => [n, i.type]));
  return { values, types };
}

/**
 * The composition as it is now, as one side of POST /heatcap/v1/diff: the
 * served files, the picks, and the values entered as the generated
 * environment holds them (NoEcho ones too: they change the stack alike).
 */
function side() {
  const served = { root: state.root, environments: [...state.envs] };
  if (state.plan) served.plan = state.plan;
  if (state.template) served.template = state.template;
  if (Object.keys(state.choices).length) served.choose = { ...state.choices };
  const { values, types } = enteredValues();
  if (Object.keys(values).length) {
    served.environment = m.environmentYaml({ choices: {}, values, types, hidden: new Set(), withHidden: true });
  }
  const n = (k, one, many) => `${k} ${k === 1 ? one : many}`;
  const about = [
    state.plan ? `plan ${state.plan}` : state.template,
    n(allChosen().length, 'environment', 'environments'),
    n(Object.keys(state.choices).length, 'pick', 'picks'),
    n(Object.keys(values).length, 'value', 'values'),
  ].join(', ');
  return { served, about };
}

/** Keeps the composition as it is now as deployed, and compares again. */
function keepDeployed() {
  deployed = side();
  updateEffect(null);
}

/** Before the first pick or value of a page that started with no composition. */
function ensureDeployed() {
  if (!deployed && composing() && report) deployed = side();
}

/** Asks what the update from the deployed composition to this one does. */
async function updateEffect(change) {
  lastChange = change;
  if (!deployed || !composing()) {
    renderUpdate();
    return;
  }
  const g = ++effectGeneration;
  const started = performance.now();
  effectLine = 'Comparing with the deployed composition…';
  placeEffect();
  $('update-counts')?.setAttribute('aria-busy', 'true');
  let diff = null;
  let error = '';
  try {
    diff = await api.post('diff', { from: { served: deployed.served }, to: { served: side().served }, interface: false });
  } catch (e) {
    error = e.message;
  }
  if (g !== effectGeneration) return;
  const ms = Math.round(performance.now() - started);
  effectLine = diff ? u.effectText(diff) : `heatcap could not compare: ${error}`;
  renderUpdate(diff, error, ms);
  placeEffect();
  document.body.dataset.effect = String(g);
  document.body.dataset.effectMs = String(ms);
}

/** The update section: what is deployed, the counts, the replaced resources and why. */
function renderUpdate(diff = null, error = '', ms = 0) {
  const box = $('update');
  if (!composing()) {
    box.replaceChildren(el('p', { class: 'help', text: 'Choose a root template first.' }));
    return;
  }
  const keep = el('button', {
    type: 'button',
    id: 'keep-deployed',
    text: 'Keep the current composition as deployed',
    onclick: () => {
      keepDeployed();
      $('keep-deployed')?.focus();
    },
  });
  if (!deployed) {
    box.replaceChildren(
      el('p', { class: 'help', text: 'The page started with no composition: the one of steps 1 and 2 is kept as deployed at your first pick (steps 3–4) or value (step 5), or now:' }),
      keep,
    );
    return;
  }
  const parts = [el('p', { class: 'help', id: 'update-deployed', text: `Deployed: ${deployed.about}.` }), keep];
  const counts = el('p', { id: 'update-counts', class: 'counts', 'aria-live': 'polite' });
  parts.push(counts);
  if (error) {
    counts.textContent = `heatcap could not compare the two compositions: ${error}`;
    box.replaceChildren(...parts);
    return;
  }
  if (!diff) {
    counts.textContent = 'Comparing…';
    box.replaceChildren(...parts);
    return;
  }
  if (diff.heat_error) {
    counts.textContent = `${u.effectText(diff)}.`;
    counts.className = 'error';
  } else {
    counts.textContent = `${u.countsText(diff.summary)} (compared in ${ms} ms).`;
  }
  const errors = (diff.diagnostics || []).filter((d) => d.severity === 'error');
  if (errors.length) {
    parts.push(el('p', { class: 'warning', text: `${errors.length} error${errors.length === 1 ? '' : 's'} on either side; the first: ${where(errors[0])}` }));
  }
  const replaced = u.replaced(diff);
  if (replaced.length) {
    parts.push(
      el('h3', { id: 'h-replaced', text: `Replaced: deleted and created anew (${replaced.length})` }),
      el(
        'ul',
        { id: 'update-replaced', 'aria-labelledby': 'h-replaced' },
        replaced.map((r) =>
          el(
            'li',
            {},
            el('span', { class: 'mono', text: r.what }),
            `: ${r.why}.`,
            r.forces.length
              ? el('ul', {}, r.forces.map((f) => el('li', {}, el('span', { class: 'mono', text: f }), ' (forces the replacement)')))
              : null,
          ),
        ),
      ),
    );
  }
  const LIMIT = 200;
  for (const [action, title] of [['added', 'Added'], ['updated', 'Updated in place'], ['deleted', 'Deleted']]) {
    const names = u.named(diff, action);
    if (!names.length) continue;
    const shown = names.slice(0, LIMIT).map((x) => el('li', { class: 'mono', text: x }));
    if (names.length > LIMIT) shown.push(el('li', { text: `and ${names.length - LIMIT} more` }));
    parts.push(el('details', { class: `update-${action}` }, el('summary', { text: `${title} (${names.length})` }), el('ul', {}, shown)));
  }
  box.replaceChildren(...parts);
}

/** The last change's effect, next to the control that made it. */
function placeEffect() {
  for (const e of document.querySelectorAll('.effect')) e.remove();
  if (!lastChange || !effectLine) return;
  let rows = [];
  if (lastChange.kind === 'choice') rows = [...document.querySelectorAll('.choice')].filter((r) => r.dataset.type === lastChange.key);
  if (lastChange.kind === 'value') rows = [...document.querySelectorAll('.param')].filter((r) => r.dataset.param === lastChange.key);
  for (const row of rows) {
    row.append(el('p', { class: 'effect' }, `${effectLine} `, el('a', { href: '#step-update', text: 'What the update would do' })));
  }
}

// Step 6 ------------------------------------------------------------------

function renderResult() {
  const hidden = hiddenNames();
  const types = Object.fromEntries(Object.entries(report.parameters).map(([n, i]) => [n, i.type]));
  const values = Object.fromEntries(Object.entries(state.values).filter(([n]) => n in report.parameters));
  const yaml = m.environmentYaml({ choices: state.choices, values, types, hidden, withHidden });
  const generated = Object.keys(state.choices).length > 0 || Object.keys(values).length > 0;
  const plan = chosenPlan();
  const lines = m.commandLines(state, generated, 'overcloud', plan);
  if (blobUrl) URL.revokeObjectURL(blobUrl);
  blobUrl = URL.createObjectURL(new Blob([yaml], { type: 'application/yaml' }));
  const skipped = Object.keys(values).filter((n) => hidden.has(n)).length;
  const body = el('pre', { id: 'api-body', hidden: true });
  const box = $('result');
  // `el` drops absent children; replaceChildren would write them as "null".
  box.replaceChildren(...el('div', {},
    el('h3', { text: 'The environment file' }),
    el('p', {
      class: 'help',
      text: `${m.GENERATED} holds your picks (resource_registry) and the values you entered (parameter_defaults). Save it in the served root directory (${rootShown}); pass it after the other environments.`,
    }),
    el(
      'label',
      {},
      el('input', {
        type: 'checkbox',
        id: 'with-hidden',
        checked: withHidden,
        onchange: (e) => {
          withHidden = e.target.checked;
          renderResult();
          $('with-hidden').focus();
        },
      }),
      ` Include NoEcho values in the download${skipped && !withHidden ? ` (${skipped} left out)` : ''}`,
    ),
    el('p', {}, el('a', { id: 'download', href: blobUrl, download: m.GENERATED, text: `Download ${m.GENERATED}` })),
    el('pre', { id: 'env-text', text: yaml }),
    el('h3', { text: plan ? 'Create the stack (from the exported tree)' : 'Create the stack (from the served root directory)' }),
    plan
      ? el('p', {
        class: 'help',
        text: `The exported tree (below) holds the plan's generated environments as files (${plan.environments.filter((e) => !e.file).map((e) => m.partFile(e.path)).join(', ') || 'none'}); add ${m.GENERATED} to it.`,
      })
      : null,
    el('pre', { id: 'cmd-create', text: lines.create }),
    el('h3', { text: 'Check it first' }),
    el('p', { class: 'help', text: plan ? 'Against a real Heat (from the exported tree), or with heatcap (from the served root directory):' : 'Against a real Heat, or with heatcap:' }),
    el('pre', { id: 'cmd-validate', text: `${lines.validate}\n${lines.parameters}` }),
    el('h3', { text: 'The API body' }),
    el('p', {
      class: 'help',
      text: "python-heatclient's body for the template and the chosen environments (heatcap export --format heat-api); add the generated environment's content to its environment.",
    }),
    el('button', {
      type: 'button',
      text: 'Show the API body',
      onclick: async (e) => {
        e.target.disabled = true;
        try {
          const b = await api.get('export', api.compositionPairs(state, { choices: false }));
          body.textContent = JSON.stringify(b, null, 2);
        } catch (err) {
          body.textContent = `heatcap refuses the export: ${err.message}`;
        }
        body.hidden = false;
        e.target.disabled = false;
        announce('The API body is shown below the button.');
      },
    }),
    body,
    el('h3', { text: 'The exported tree' }),
    el('p', {
      class: 'help',
      text: 'Every file the composition uses, as stock Heat takes them (heatcap export --out DIR), as a tar archive; add the generated environment to it.',
    }),
    el('button', { type: 'button', id: 'download-tree', text: 'Download the exported tree (tar)', onclick: downloadTree }),
    el('p', { class: 'error', id: 'download-tree-error', role: 'alert' }),
  ).childNodes);
}

/** The exported tree as a tar archive (`export?format=tarball`), saved
 * as a file; the service's refusal said next to the button. */
async function downloadTree(e) {
  const button = e.target;
  const error = $('download-tree-error');
  button.disabled = true;
  error.textContent = '';
  try {
    const pairs = [...api.compositionPairs(state, { choices: false }), ['format', 'tarball']];
    const tar = await api.blob('export', pairs);
    const url = URL.createObjectURL(tar);
    const a = el('a', { href: url, download: TREE_FILE, hidden: true });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60000);
    announce(`The exported tree is downloaded as ${TREE_FILE}.`);
  } catch (err) {
    error.textContent = `heatcap refuses the export: ${err.message}`;
  }
  button.disabled = false;
  button.focus();
}

init().catch((e) => announce(`The page failed: ${e.message}`));
