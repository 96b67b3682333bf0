// Small helpers for the server's REST API.

export class ApiError extends Error {
  constructor(status, message, detail = null) {
    super(message);
    this.status = status;
    this.detail = detail; // the server's `detail` as sent: a string, or FastAPI's list of field errors
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
    throw new ApiError(response.status, typeof detail === 'string' ? detail : `HTTP ${response.status}`, detail ?? null);
  }
  return data;
}

let me = null;

/** The player this page already knows (null before `sessionPlayer` or `ensurePlayer`). */
export function currentPlayer() {
  return me;
}

/** Remember who is playing (after logging in or out, or a profile change) and tell the page. */
export function setPlayer(player) {
  me = player;
  document.dispatchEvent(new CustomEvent('dsq:player', { detail: player }));
  return player;
}

let lookup = null; // the `GET /api/auth/session` in flight: the header and the page share it

/** The session's player (account or guest) without making one: null for a new visitor. */
export async function sessionPlayer() {
  if (me) return me;
  lookup ??= api('/api/auth/session').then(({ player }) => setPlayer(player))
    .finally(() => { lookup = null; });
  return lookup;
}

/** The signed-in account or the current guest, or a guest session made on first use. */
export async function ensurePlayer() {
  return (await sessionPlayer()) ?? setPlayer(await api('/api/auth/guest', { method: 'POST' }));
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
