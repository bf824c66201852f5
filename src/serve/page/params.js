// Step 5: every parameter of the composition, by nested stack. Stacks are
// rendered when opened (the 2018 TripleO tree has about 475 stacks and
// 5,400 parameter declarations), each in a fieldset named by its path;
// a control per parameter a person can set (none where the parent
// resource passes the value: parameter_defaults cannot change it), with
// where its value comes from (file:line) and Heat's verdict next to it;
// a stack's parameters by its template's parameter_groups, then the rest.

import * as m from './model.js';

/** An element: tag, attributes (`text` sets textContent), children. */
export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'text') e.textContent = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else if (v === true) e.setAttribute(k, '');
    else e.setAttribute(k, v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined) e.append(c);
  return e;
}

/** A value as shown (NoEcho ones masked). */
function shown(v, hidden) {
  if (hidden) return '******';
  if (typeof v === 'string') return v === '' ? '"" (empty)' : v;
  return JSON.stringify(v);
}

let seq = 0;

export class ParameterView {
  /**
   * `ctx`: {state, shown (the root's path as served), onValue(name, text)}.
   */
  constructor(container, report, ctx) {
    this.container = container;
    this.report = report;
    this.ctx = ctx;
    this.rows = new Map();
    this.verdicts = new Map();
    this.open = new Set(['root']);
    this.query = '';
    this.onlyRequired = false;
  }

  match(name, node) {
    if (this.query && !name.toLowerCase().includes(this.query)) return false;
    if (this.onlyRequired) {
      const info = this.report.parameters[name];
      return !!info && info.required_in.includes(node.id) && !(name in this.ctx.state.values);
    }
    return true;
  }

  render() {
    const r = this.report;
    const names = Object.keys(r.parameters);
    let stacks = 0;
    const count = (n) => {
      stacks += 1;
      (n.children || []).forEach(count);
    };
    count(r.tree);
    const search = el('input', {
      id: 'param-search',
      type: 'search',
      autocomplete: 'off',
      value: this.query,
      oninput: (e) => {
        this.query = e.target.value.trim().toLowerCase();
        this.renderTree();
      },
    });
    const required = el('input', {
      id: 'param-required',
      type: 'checkbox',
      checked: this.onlyRequired,
      onchange: (e) => {
        this.onlyRequired = e.target.checked;
        this.renderTree();
      },
    });
    this.summary = el('p', { class: 'help', id: 'param-summary' });
    this.tree = el('div', { id: 'stacks' });
    const unset = r.required.filter((n) => !(n in this.ctx.state.values)).length;
    this.container.replaceChildren(
      el('p', {
        class: 'help',
        text: `${names.length} parameters declared across ${stacks} stacks; ${unset} still need a value. Values you enter go to the generated environment's parameter_defaults (step 6).`,
      }),
      el(
        'div',
        { class: 'filters' },
        el('label', { for: 'param-search', text: 'Search parameters by name' }),
        search,
        el('label', {}, required, ' Only what I must still provide'),
      ),
      this.summary,
      this.tree,
    );
    this.renderTree();
  }

  renderTree() {
    this.rows = new Map();
    const counts = m.visibleStacks(this.report.tree, (n, node) => this.match(n, node));
    this.counts = counts;
    const total = counts.get('root') || 0;
    this.summary.textContent = this.query || this.onlyRequired
      ? `${total} matching parameter entries.`
      : '';
    this.tree.replaceChildren(this.stack(this.report.tree, true));
  }

  /** One stack: a details element whose body is built when opened. */
  stack(node, isRoot = false) {
    const template = m.relative(node.template, this.ctx.shown);
    const what = isRoot ? `root template ${template}` : `${node.name}: ${node.type} → ${template}`;
    const n = this.counts.get(node.id) || 0;
    const d = el('details', { class: 'stack', 'data-stack': node.id });
    d.append(el('summary', { text: `${isRoot ? 'root' : node.id.slice(5)} (${what}) · ${n} parameter${n === 1 ? '' : 's'}` }));
    let built = false;
    const build = () => {
      if (built) return;
      built = true;
      const here = node.parameters.filter((name) => this.match(name, node));
      const set = el('fieldset', {}, el('legend', { text: `Parameters of stack ${node.id}` }));
      if (here.length === 0) set.append(el('p', { class: 'help', text: 'None here (see the nested stacks below).' }));
      else if (!node.parameter_groups?.length) for (const name of here) set.append(this.row(name, node));
      else {
        // The template's parameter_groups, in order, then the others.
        for (const g of m.groupedNames(node, here)) {
          if (!g.names.length) continue;
          const legend = g.rest ? 'Parameters in no group' : `Group: ${g.label ?? '(no label)'}`;
          const box = el('fieldset', { class: 'group' }, el('legend', { text: legend }));
          if (g.description) box.append(el('p', { class: 'help', text: g.description }));
          for (const name of g.names) box.append(this.row(name, node));
          set.append(box);
        }
      }
      d.append(set);
      for (const c of node.children || []) {
        if ((this.counts.get(c.id) || 0) > 0) d.append(this.stack(c));
      }
    };
    d.addEventListener('toggle', () => {
      if (d.open) {
        this.open.add(node.id);
        build();
      } else {
        this.open.delete(node.id);
      }
    });
    if (this.open.has(node.id) || (this.query && n > 0 && n <= 200)) {
      d.open = true;
      build();
    }
    return d;
  }

  /** One parameter of one stack. */
  row(name, node) {
    const info = this.report.parameters[name];
    const id = `p${(seq += 1)}`;
    const here = info.values.filter((v) => v.stack === node.id);
    const passed = here.find((v) => v.source === 'property');
    const effective = here[0];
    const requiredHere = info.required_in.includes(node.id);
    const kind = `${info.type || 'string'}${info.hidden ? ', NoEcho' : ''}`;
    const about = [];
    if (info.label) about.push(info.label);
    if (info.description) about.push(info.description.trim());
    for (const c of info.constraints || []) about.push(`Constraint: ${m.constraintText(c)}.`);
    if (info.declared_by.length > 1) about.push(`Declared in ${info.declared_by.length} stacks; a value here sets it in each that its parent does not pass it to.`);
    if (info.definitions) {
      const each = info.definitions.map((d) => `${d.type || 'string'}${(d.constraints || []).map((c) => `, ${m.constraintText(c)}`).join('')} in ${d.stacks.length === 1 ? 'stack' : 'stacks'} ${d.stacks.join(', ')}`);
      about.push(`Declared differently: ${each.join('; ')}. A value is checked against each.`);
    }
    const row = el('div', { class: 'param', 'data-param': name });
    if (passed) {
      row.append(
        el('span', { class: 'mono', text: name }), ' ',
        el('span', { class: 'kind', text: kind }),
        el('p', { class: 'help' }, `Passed by the parent resource: ${shown(passed.value, info.hidden)}, at `, el('code', { class: 'at', text: m.valueAt(passed, this.ctx.shown) }), ' (an environment cannot change it here).'),
      );
      if (about.length) row.append(el('p', { class: 'help', text: about.join(' ') }));
      return row;
    }
    const described = `${id}-now ${id}-err${about.length ? ` ${id}-about` : ''}`;
    const control = this.control(id, name, info, described, effective);
    const now = el('p', { class: 'help', id: `${id}-now` });
    const err = el('p', { class: 'error', id: `${id}-err`, 'aria-live': 'polite' });
    row.append(el('label', { for: id, text: name }), el('span', { class: 'kind', text: kind }), control, now, err);
    if (about.length) row.append(el('p', { class: 'help', id: `${id}-about`, text: about.join(' ') }));
    const entry = { control, now, err, effective, requiredHere, info };
    if (!this.rows.has(name)) this.rows.set(name, []);
    this.rows.get(name).push(entry);
    this.paint(name, entry);
    return row;
  }

  control(id, name, info, described, effective) {
    const value = this.ctx.state.values[name] ?? '';
    const type = (info.type || 'string').toLowerCase();
    const allowed = (info.constraints || []).find((c) => c.allowed_values)?.allowed_values;
    const onValue = (e) => this.ctx.onValue(name, e.target.value);
    const keep = effective ? `(keep: ${shown(effective.value, info.hidden)})` : '(no value)';
    if (type === 'boolean' || allowed) {
      const choices = type === 'boolean' ? ['true', 'false'] : allowed.map((v) => String(v));
      const s = el('select', { id, 'aria-describedby': described, onchange: onValue },
        el('option', { value: '', text: keep }),
        choices.map((c) => el('option', { value: c, text: c })));
      s.value = value;
      return s;
    }
    if (type === 'json') {
      const t = el('textarea', { id, 'aria-describedby': described, oninput: onValue, spellcheck: 'false' });
      t.value = value;
      return t;
    }
    const i = el('input', {
      id,
      type: info.hidden ? 'password' : 'text',
      autocomplete: info.hidden ? 'new-password' : 'off',
      spellcheck: 'false',
      'aria-describedby': described,
      placeholder: effective && !info.hidden ? shown(effective.value, false) : undefined,
      oninput: onValue,
    });
    i.value = value;
    return i;
  }

  /** A row's "now" line and its verdict. */
  paint(name, entry) {
    const entered = this.ctx.state.values[name];
    const { info, effective } = entry;
    if (entered !== undefined) {
      entry.now.textContent = `Entered here: goes to parameter_defaults of ${m.GENERATED}.`;
    } else if (effective) {
      entry.now.replaceChildren(
        `Now: ${shown(effective.value, info.hidden)}, from ${m.sourceText(effective.source)} at `,
        el('code', { class: 'at', text: m.valueAt(effective, this.ctx.shown) }),
        '.',
      );
    } else if (entry.requiredHere) {
      entry.now.textContent = 'Unset: Heat requires a value.';
    } else {
      entry.now.textContent = 'Unset.';
    }
    const verdict = entered !== undefined ? this.verdicts.get(name) : undefined;
    let error = '';
    if (verdict) error = m.refusalText(verdict);
    else if (entered === undefined && effective?.invalid) error = `Heat would refuse the value from ${m.sourceText(effective.source)} (${m.valueAt(effective, this.ctx.shown)}): ${effective.invalid}`;
    entry.err.textContent = error;
    if (error) entry.control.setAttribute('aria-invalid', 'true');
    else entry.control.removeAttribute('aria-invalid');
  }

  /** After a value changed: every row of that name, and its other controls. */
  sync(name, from) {
    for (const entry of this.rows.get(name) || []) {
      const v = this.ctx.state.values[name] ?? '';
      if (entry.control !== from && entry.control.value !== v) entry.control.value = v;
      this.paint(name, entry);
    }
  }

  setVerdict(name, verdict) {
    this.verdicts.set(name, verdict);
    this.sync(name, null);
  }
}
