// The page's pure logic (no DOM, no network): the state and its URL, a
// typed value from what a person types, the environment file, the command
// lines, the candidates of a type. tests/page/model.test.mjs tests it with
// `node --test`.

/** Name of the environment file the page generates. */
export const GENERATED = 'heatcap-environment.yaml';

/** An empty state. */
export function emptyState() {
  return { root: '', plan: '', template: '', envs: [], choices: {}, values: {} };
}

/**
 * The state a page URL's query holds: `root`, `plan` (a TripleO plan: its
 * environments come first, its template unless `template`), `template`, `env` (repeated,
 * in merge order), `choose=TYPE=PATH` (repeated), `p.NAME=TEXT` (a typed
 * value; NoEcho values are never put in the URL).
 */
export function parseState(search) {
  const q = new URLSearchParams(search);
  const s = emptyState();
  s.root = q.get('root') || '';
  s.plan = q.get('plan') || '';
  s.template = q.get('template') || '';
  s.envs = q.getAll('env').filter((e) => e !== '');
  for (const c of q.getAll('choose')) {
    const at = c.indexOf('=');
    if (at > 0 && at < c.length - 1) s.choices[c.slice(0, at)] = c.slice(at + 1);
  }
  for (const [k, v] of q) {
    if (k.startsWith('p.') && k.length > 2) s.values[k.slice(2)] = v;
  }
  return s;
}

/** The query for `state`, leaving out the values of `hidden` names. */
export function stateQuery(state, hidden = new Set()) {
  const q = new URLSearchParams();
  if (state.root) q.set('root', state.root);
  if (state.plan) q.set('plan', state.plan);
  if (state.template) q.set('template', state.template);
  for (const e of state.envs) q.append('env', e);
  for (const [t, p] of Object.entries(state.choices)) q.append('choose', `${t}=${p}`);
  for (const [n, v] of Object.entries(state.values)) {
    if (!hidden.has(n)) q.append(`p.${n}`, v);
  }
  return q.toString();
}

/**
 * The value an environment's `parameter_defaults` holds for `text` typed
 * for a parameter of Heat type `type`: a number, a boolean, parsed JSON
 * when the text is one, else the text itself (Heat then converts it, or
 * refuses it in its words).
 */
export function typedValue(type, text) {
  const t = String(text);
  switch ((type || 'string').toLowerCase()) {
    case 'number': {
      const s = t.trim();
      if (/^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?$/.test(s)) return Number(s);
      return t;
    }
    case 'boolean':
      if (t === 'true') return true;
      if (t === 'false') return false;
      return t;
    case 'json':
      try {
        return JSON.parse(t);
      } catch {
        return t;
      }
    default:
      return t;
  }
}

/** A path relative to the served root: `shown` is the root as served. */
export function relative(path, shown) {
  if (!path) return path;
  const prefix = shown.endsWith('/') ? shown : `${shown}/`;
  return path.startsWith(prefix) ? path.slice(prefix.length) : path;
}

/** A YAML scalar or flow node for any JSON value (JSON is YAML 1.1 flow). */
function node(v) {
  return JSON.stringify(v);
}

/**
 * The environment file: the explicit choices as `resource_registry`
 * entries (paths relative to the served root, where the file is meant to
 * be saved), the typed values as `parameter_defaults`; NoEcho values only
 * when `withHidden`.
 */
export function environmentYaml({ choices, values, types, hidden, withHidden = false }) {
  const lines = ['# Written by heatcap serve\'s composition page: save it in the served', '# root directory and pass it last (-e).'];
  const registry = Object.entries(choices);
  if (registry.length) {
    lines.push('resource_registry:');
    for (const [t, p] of registry) lines.push(`  ${node(t)}: ${node(p)}`);
  }
  const kept = Object.entries(values).filter(([n]) => withHidden || !hidden.has(n));
  if (kept.length) {
    lines.push('parameter_defaults:');
    for (const [n, text] of kept) lines.push(`  ${node(n)}: ${node(typedValue(types[n], text))}`);
  }
  if (!registry.length && !kept.length) lines.push('{}');
  return `${lines.join('\n')}\n`;
}

/** `s` quoted for a POSIX shell (left bare when that is safe). */
export function shellQuote(s) {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(s)) return s;
  return `'${String(s).replaceAll("'", "'\\''")}'`;
}

/** The environments on a command line: the chosen ones, then the generated one. */
function envArgs(state, generated) {
  const args = [];
  for (const e of state.envs) args.push('-e', e);
  if (generated) args.push('-e', GENERATED);
  return args;
}

/**
 * The file `heatcap export` writes a part of a plan to, beside the plan
 * (`dir/plan-environment.yaml#environments[0]` →
 * `dir/plan-environment.environments-0.json`), as tripleo-common wrote
 * each generated environment to a file of its own.
 */
export function partFile(path) {
  const at = path.lastIndexOf('#');
  const file = path.slice(0, at);
  const part = path.slice(at + 1).replace('[', '-').replace(']', '');
  const slash = file.lastIndexOf('/');
  const name = file.slice(slash + 1);
  const dot = name.lastIndexOf('.');
  const stem = dot > 0 ? name.slice(0, dot) : name;
  return `${file.slice(0, slash + 1)}${stem}.${part}.json`;
}

/**
 * The command lines: `openstack stack create`, `openstack orchestration
 * template validate` (from the served root; with a plan, from the
 * exported tree, which holds the plan's generated environments as files)
 * and `heatcap parameters` (from the served root).
 * `generated`: whether the generated environment holds anything;
 * `plan`: the chosen plan ({path, template, environments: [{path, file}]},
 * paths relative to the root), if any.
 */
export function commandLines(state, generated, stackName = 'overcloud', plan = null) {
  const template = state.template || plan?.template || '';
  const t = ['-t', template];
  const fromPlan = (plan?.environments || []).flatMap((x) => ['-e', x.file ? x.path : partFile(x.path)]);
  const e = envArgs(state, generated);
  const line = (words) => words.map(shellQuote).join(' ');
  return {
    create: line(['openstack', 'stack', 'create', ...t, ...fromPlan, ...e, stackName]),
    validate: line(['openstack', 'orchestration', 'template', 'validate', ...t, ...fromPlan, ...e, '--show-nested']),
    parameters: line(plan
      ? ['heatcap', 'parameters', '--plan', plan.path, ...(state.template ? t : []), ...e]
      : ['heatcap', 'parameters', ...t, ...e]),
  };
}

/**
 * The candidates of `type` for the page: those `options` gives (with the
 * chosen environments' entries that map them), then every template of the
 * tree's index that declares the type or that some environment of the
 * tree maps it to. Each: {name, path (relative, absent for a type),
 * capabilities, mappedBy: [{environment, line}]}.
 */
export function candidates(choice, indexFiles, shown) {
  const out = [];
  const seen = new Set();
  for (const c of choice.selection?.candidates || []) {
    const path = c.path ? relative(c.path, shown) : undefined;
    const key = path || c.name;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({
      name: c.name,
      path,
      capabilities: c.capabilities,
      mappedBy: (c.mapped_by || []).map((m) => ({ environment: relative(m.environment, shown), line: m.line })),
    });
  }
  for (const f of indexFiles) {
    const declared = (f.resource_type || []).includes(choice.type);
    const inferred = f.inferred_resource_type?.[choice.type];
    if (!declared && !inferred) continue;
    const path = relative(f.path, shown);
    if (seen.has(path)) continue;
    seen.add(path);
    out.push({
      name: path,
      path,
      capabilities: f.capabilities,
      mappedBy: (inferred || []).map((m) => ({ environment: relative(m.environment, shown), line: m.line })),
    });
  }
  return out;
}

/** A constraint of a parameter, in words. */
export function constraintText(c) {
  const parts = [];
  if (c.range) parts.push(`value ${bounds(c.range)}`);
  if (c.length) parts.push(`length ${bounds(c.length)}`);
  if (c.allowed_values) parts.push(`one of ${c.allowed_values.map((v) => JSON.stringify(v)).join(', ')}`);
  if (c.allowed_pattern !== undefined) parts.push(`matches ${c.allowed_pattern}`);
  if (c.custom_constraint) parts.push(`${c.custom_constraint} (checked by Heat against the cloud)`);
  if (c.modulo) parts.push(`modulo step ${c.modulo.step}, offset ${c.modulo.offset}`);
  if (parts.length === 0) parts.push(JSON.stringify(c));
  if (c.description) parts.push(`(${c.description})`);
  return parts.join(' ');
}

function bounds(r) {
  if (r.min !== undefined && r.max !== undefined) return `from ${r.min} to ${r.max}`;
  if (r.min !== undefined) return `at least ${r.min}`;
  if (r.max !== undefined) return `at most ${r.max}`;
  return 'unbounded';
}

/** Where a value comes from, in words. */
export function sourceText(source) {
  return {
    parameters: "the environments' parameters",
    parameter_defaults: "the environments' parameter_defaults",
    property: 'passed by the parent resource',
    default: "the template's default",
  }[source] || source;
}

/**
 * Which stacks to show for a filter: the ids of the nodes that hold a
 * matching parameter or have such a descendant, and the matching count
 * of each. `match(name, node)` decides one parameter of one stack.
 */
export function visibleStacks(tree, match) {
  const counts = new Map();
  const walk = (n) => {
    let c = n.parameters.filter((name) => match(name, n)).length;
    for (const k of n.children || []) c += walk(k);
    counts.set(n.id, c);
    return c;
  };
  walk(tree);
  return counts;
}

/**
 * Where a value of the parameters answer is set, as `file:line` (the
 * file relative to the served root, as a person copies it into an
 * editor): `v` is one of a parameter's `values`.
 */
export function valueAt(v, shown) {
  if (!v?.file || !v.span) return '';
  return `${relative(v.file, shown)}:${v.span.start.line}`;
}

/**
 * A stack's parameters (`names`, the ones shown, in the stack's order) by
 * its template's `parameter_groups`: [{label, description, names}], the
 * groups in order with the shown names each lists (a name only in the
 * first group that lists it, as Heat allows it once), then the names no
 * group lists under `label: null, rest: true`. No groups: one rest.
 */
export function groupedNames(node, names) {
  const shown = new Set(names);
  const taken = new Set();
  const out = [];
  for (const g of node.parameter_groups || []) {
    const listed = g.parameters.filter((n) => shown.has(n) && !taken.has(n));
    for (const n of listed) taken.add(n);
    out.push({ label: g.label ?? null, description: g.description ?? null, names: listed, rest: false });
  }
  const rest = names.filter((n) => !taken.has(n));
  if (rest.length || out.length === 0) out.push({ label: null, description: null, names: rest, rest: true });
  return out;
}

/**
 * The stacks a value typed for `info` reaches: the generated environment
 * holds it as `parameter_defaults`, which every declaring stack takes
 * unless its parent passes the parameter (`property`) or, at the root,
 * the environments' `parameters` set it.
 */
export function reachedStacks(info) {
  const over = new Set(info.values.filter((v) => v.source === 'property' || v.source === 'parameters').map((v) => v.stack));
  return info.declared_by.filter((s) => !over.has(s));
}

/**
 * What to ask `POST /heatcap/v1/check` about a value typed for `info`:
 * one definition per distinct declaration (`info.definitions`, else the
 * parameter's own type and constraints) and per kind of stack it reaches
 * (the root's value, a nested stack's default), with those stacks.
 */
export function checkDefinitions(info) {
  const reached = new Set(reachedStacks(info));
  const defs = info.definitions || [{ stacks: info.declared_by, type: info.type, constraints: info.constraints }];
  const out = [];
  for (const d of defs) {
    const stacks = d.stacks.filter((s) => reached.has(s));
    const root = stacks.filter((s) => s === 'root');
    const nested = stacks.filter((s) => s !== 'root');
    for (const [list, isNested] of [[root, false], [nested, true]]) {
      if (!list.length) continue;
      out.push({ stacks: list, type: d.type || 'string', constraints: d.constraints ?? null, nested: isNested });
    }
  }
  return out;
}

/**
 * Heat's refusals in a verdict of the check route, in its words, each
 * with the stacks that refuse it: '' when none refuses.
 */
export function refusalText(verdict) {
  if (!verdict) return '';
  const refused = (verdict.definitions || []).filter((d) => d.accepted === false);
  if (!refused.length) return verdict.accepted === false ? `Heat refuses this value: ${verdict.error}` : '';
  const byWords = new Map();
  for (const d of refused) {
    if (!byWords.has(d.error)) byWords.set(d.error, []);
    byWords.get(d.error).push(...(d.stacks || []));
  }
  const parts = [...byWords].map(([why, stacks]) => `${why} (${stacks.length === 1 ? 'stack' : 'stacks'} ${stacks.join(', ')})`);
  return `Heat refuses this value: ${parts.join('; ')}`;
}
