// What an update from the deployed composition to the one on the page
// would do (`heatcap diff`'s JSON, from POST /heatcap/v1/diff), in the
// page's own words: the counts by category, and each replaced resource
// with why (the rule that decided and the properties that force it).
// Fields are read by name; others the answer may carry are left alone.

/** `n thing(s)`. */
function count(n, one, many = `${one}s`) {
  return `${n} ${n === 1 ? one : many}`;
}

/** The counts line: `2 added, 1 replaced, 3 updated, 0 deleted, 9 unchanged`. */
export function countsText(summary) {
  const s = summary || {};
  const n = (k) => Number(s[k] || 0);
  return `${n('add')} added, ${n('replace')} replaced, ${n('update')} updated, ${n('delete')} deleted, ${n('unchanged')} unchanged`;
}

/** Whether the update changes anything at all. */
export function changesAnything(summary) {
  const s = summary || {};
  return ['add', 'replace', 'update', 'delete'].some((k) => Number(s[k] || 0) > 0);
}

/** A value as the page shows it in a before → after. */
export function valueText(v) {
  if (v === null || v === undefined) return 'nothing';
  if (typeof v === 'string') return v === '' ? '"" (empty)' : JSON.stringify(v);
  const s = JSON.stringify(v);
  return s.length > 120 ? `${s.slice(0, 117)}...` : s;
}

/** The properties that force a replacement: those Heat cannot change in place. */
export function forcing(change) {
  const props = change.properties || [];
  if (change.rule === 'server-policy') {
    return props.filter((p) => ['flavor', 'image', 'user_data'].includes(p.name) || !p.update_allowed);
  }
  return props.filter((p) => p.update_allowed === false);
}

/** Why a resource is replaced (or otherwise changed), by the rule that decided. */
export function reasonText(change) {
  const type = change.type || 'its type';
  switch (change.rule) {
    case 'class-changed':
      return `its implementation changes kind (a template for a built-in type, or one built-in type for another), so Heat deletes it and creates the new one`;
    case 'always-replaced':
      return `Heat replaces every ${type} on each update`;
    case 'needs-replace':
      return 'its replacement_policy is REPLACE_ALWAYS, so Heat replaces it on each update';
    case 'server-policy':
      return "a server's flavor, image or user_data changes and its update policy for that change is to replace the server";
    case 'not-update-allowed':
      return `Heat cannot change these properties of ${type} in place`;
    case 'update-allowed':
      return 'every property that changes can be changed in place';
    case 'stack-resource':
      return 'a nested stack: Heat always updates it and compares its resources';
    case 'definition':
      return 'only its metadata, depends_on, deletion_policy or update_policy changes';
    case 'new':
      return 'only the new composition has it';
    case 'gone':
      return 'the new composition no longer has it';
    case 'stack-created':
      return 'its nested stack is created';
    case 'stack-deleted':
      return 'its nested stack is deleted';
    case 'none-resource':
      return 'OS::Heat::None never changes';
    case 'same':
      return 'nothing Heat compares changes';
    default:
      return `Heat's rule ${change.rule}`;
  }
}

/** A resource's place: `stack/resource (type)`. */
export function resourceText(change) {
  return `${change.stack}/${change.resource} (${change.type})`;
}

/**
 * The replaced resources: for each, its place, why, and the properties
 * that force it (`name: before → after`).
 */
export function replaced(diff) {
  return (diff.changes || [])
    .filter((c) => c.action === 'replaced')
    .map((c) => ({
      what: resourceText(c),
      why: reasonText(c),
      rule: c.rule,
      forces: forcing(c).map((p) => `${p.name}: ${valueText(p.before)} → ${valueText(p.after)}`),
    }));
}

/** The resources of one category (`added`, `updated`, `deleted`), by place. */
export function named(diff, action) {
  return (diff.changes || []).filter((c) => c.action === action).map(resourceText);
}

/**
 * One line for the control that changed: the counts, and the replaced
 * resources named (the first three).
 */
export function effectText(diff) {
  const s = diff.summary || {};
  if (diff.heat_error) {
    const anyway = (diff.changes || []).length ? ` (heatcap's answer still: ${countsText(s)})` : '';
    return `Heat would refuse this update: ${diff.heat_error}${anyway}`;
  }
  if (!changesAnything(s)) return `Against the deployed composition: no change (${countsText(s)}).`;
  const r = replaced(diff).map((x) => x.what);
  const more = r.length > 3 ? ` and ${r.length - 3} more` : '';
  const names = r.length ? `; replaced: ${r.slice(0, 3).join(', ')}${more}` : '';
  return `Against the deployed composition: ${countsText(s)}${names}.`;
}
