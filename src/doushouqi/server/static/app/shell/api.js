// Small helpers for the server's REST API.

import { t, hasKey } from './i18n.js';
import { gameClient } from '../../games/index.js';

/**
 * The words for a server error in the reader's language. The server sends a machine `code`
 * and its `params` beside its English `detail` (server/errors.py); the text comes from the
 * translation files (`error.<code>`), never from the server. A record error names its line
 * or ply when the server knows it.
 */
export function errorText(code, params = {}, status = 0) {
  if (code === 'record.invalid') {
    if (params.move && params.line) return t('error.record.illegal', params);
    if (params.ply) return t('error.record.invalid.ply', params);
    if (params.line) return t('error.record.invalid.line', params);
  }
  if (code && hasKey(`error.${code}`)) return t(`error.${code}`, params);
  if (status === 0) return t('error.network');
  if (status === 422) return t('error.invalid'); // FastAPI's field checks: a list, no code
  return t('error.http', { status });
}

/** A refused game command (a ws `rejected` message), by its code. */
export function rejectedText(code) {
  return hasKey(`rejected.${code}`) ? t(`rejected.${code}`) : t('rejected.other');
}

export class ApiError extends Error {
  constructor(status, message, detail = null, code = null, params = {}) {
    super(message);
    this.status = status;
    this.detail = detail; // the server's `detail` as sent: a string, or FastAPI's list of field errors
    this.code = code; // the server's machine code ("record.invalid"), or null
    this.params = params;
  }
}

/** The ApiError for a failed response's parsed body (`data`): its message is translated. */
export function apiError(status, data) {
  const body = data && typeof data === 'object' ? data : {};
  const detail = data && typeof data === 'object' ? data.detail : data;
  const code = typeof body.code === 'string' ? body.code : null;
  const params = body.params && typeof body.params === 'object' ? body.params : {};
  return new ApiError(status, errorText(code, params, status), detail ?? null, code, params);
}

/** Tries of a GET the server answers "unavailable" (503: Redis or the database away for a
 * moment, a game changing servers), and the most seconds waited between two. */
export const UNAVAILABLE_TRIES = 4;
const MAX_WAIT_S = 4;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export async function api(path, { method = 'GET', body, wait = sleep } = {}) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await request(path, method, body);
    } catch (error) {
      // Only reads are tried again by themselves: a write that met the outage did not happen,
      // but sending it again is the caller's choice (it may have changed its mind).
      const retry = method === 'GET' && error.code === 'unavailable' && attempt < UNAVAILABLE_TRIES;
      if (!retry) throw error;
      const after = Number(error.retryAfter) || 2 ** (attempt - 1);
      await wait(1000 * Math.min(MAX_WAIT_S, after));
    }
  }
}

async function request(path, method, body) {
  let response;
  try {
    response = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, t('error.network'));
  }
  const text = await response.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = text; }
  if (!response.ok) {
    const error = apiError(response.status, data);
    error.retryAfter = response.headers.get('Retry-After');
    throw error;
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


const ruleSets = new Map(); // game key → its named sets

/** The server's named rule sets of a game (options included), the default game's by default. */
export async function fetchRuleSets(game = gameClient().key) {
  const key = gameClient(game).key;
  if (ruleSets.has(key)) return ruleSets.get(key);
  let sets;
  try {
    sets = (await api(`/api/rules?game=${encodeURIComponent(key)}`)).rule_sets;
    ruleSets.set(key, sets);
  } catch {
    sets = gameClient(key).ruleSetNames.map((name) => ({ name }));
  }
  return sets;
}
