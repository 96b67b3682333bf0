// Small helpers for the server's REST API.

export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

export async function api(path, { method = 'GET', body } = {}) {
  const response = await fetch(path, {
    method,
    credentials: 'same-origin',
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = text; }
  if (!response.ok) {
    const detail = data && typeof data === 'object' ? data.detail : data;
    throw new ApiError(response.status, typeof detail === 'string' ? detail : `HTTP ${response.status}`);
  }
  return data;
}

let me = null;

/** The signed-in account, or a guest session made on first use. */
export async function ensurePlayer() {
  if (me) return me;
  me = await api('/api/auth/guest', { method: 'POST' });
  return me;
}

export const RULE_SET_NAMES = ['wango', 'classic', 'classic-dog', 'international'];

let ruleSets = null;

/** The server's named rule sets (options included). */
export async function fetchRuleSets() {
  if (ruleSets) return ruleSets;
  try {
    ruleSets = (await api('/api/rules')).rule_sets;
  } catch {
    ruleSets = RULE_SET_NAMES.map((name) => ({ name }));
  }
  return ruleSets;
}
