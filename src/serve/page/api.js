// The service's JSON routes, as the page calls them. Errors are Heat's
// fault documents; each becomes an Error carrying Heat's message.

const BASE = '/heatcap/v1';

async function answer(response) {
  const text = await response.text();
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    throw new Error(`${response.status}: ${text.slice(0, 200)}`);
  }
  if (!response.ok) {
    const message = body?.error?.message || body?.explanation || `${response.status}`;
    throw new Error(message);
  }
  return body;
}

/** GET a route with query pairs ([key, value] list, keys may repeat). */
export async function get(route, pairs = []) {
  const q = new URLSearchParams();
  for (const [k, v] of pairs) q.append(k, v);
  const s = q.toString();
  return answer(await fetch(`${BASE}/${route}${s ? `?${s}` : ''}`, { headers: { Accept: 'application/json' } }));
}

/** GET a route's bytes (a tar archive): a Blob, or an Error with Heat's message. */
export async function blob(route, pairs = []) {
  const q = new URLSearchParams();
  for (const [k, v] of pairs) q.append(k, v);
  const response = await fetch(`${BASE}/${route}?${q}`);
  if (!response.ok) return answer(response);
  return response.blob();
}

/** POST a JSON body. */
export async function post(route, body) {
  return answer(
    await fetch(`${BASE}/${route}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(body),
    }),
  );
}

/** The query pairs of a composition: root, plan, template, environments, choices. */
export function compositionPairs(state, { template = true, choices = true } = {}) {
  const pairs = [['root', state.root]];
  if (state.plan) pairs.push(['plan', state.plan]);
  if (template && state.template) pairs.push(['template', state.template]);
  for (const e of state.envs) pairs.push(['environment', e]);
  if (choices) for (const [t, p] of Object.entries(state.choices)) pairs.push(['choose', `${t}=${p}`]);
  return pairs;
}
