// The REST helper reads again by itself while the server answers 503 "unavailable" (Redis or
// the database away for a moment), a bounded number of times, waiting as Retry-After says;
// it never sends a write twice, and other errors reach the caller at once.

import { test } from 'node:test';
import assert from 'node:assert/strict';

const { api, UNAVAILABLE_TRIES } = await import('../../../src/doushouqi/server/static/app/shell/api.js');

const UNAVAILABLE = { detail: 'away', code: 'unavailable', params: {} };

/** A fetch that answers from `answers` in turn ([status, body, headers]) and counts calls. */
function fakeFetch(answers) {
  const calls = [];
  globalThis.fetch = async (path, init) => {
    calls.push({ path, method: init.method });
    const [status, body, headers = {}] = answers[Math.min(calls.length, answers.length) - 1];
    return new Response(JSON.stringify(body), { status, headers });
  };
  return calls;
}

function recordWaits() {
  const waits = [];
  return { waits, wait: async (ms) => { waits.push(ms); } };
}

test('a read answered 503 unavailable is tried again, as Retry-After says, until it works', async () => {
  const calls = fakeFetch([
    [503, UNAVAILABLE, { 'Retry-After': '2' }],
    [503, UNAVAILABLE, { 'Retry-After': '2' }],
    [200, { games: [] }],
  ]);
  const { waits, wait } = recordWaits();
  assert.deepEqual(await api('/api/lobby', { wait }), { games: [] });
  assert.equal(calls.length, 3);
  assert.deepEqual(waits, [2000, 2000]);
});

test('the tries are bounded: the last 503 reaches the caller', async () => {
  const calls = fakeFetch([[503, UNAVAILABLE]]);
  const { waits, wait } = recordWaits();
  await assert.rejects(api('/api/lobby', { wait }), (error) => error.status === 503 && error.code === 'unavailable');
  assert.equal(calls.length, UNAVAILABLE_TRIES);
  assert.deepEqual(waits, [1000, 2000, 4000]); // no Retry-After: backing off, at most 4 s
});

test('a write is never sent twice, and other errors are not tried again', async () => {
  let calls = fakeFetch([[503, UNAVAILABLE]]);
  const { waits, wait } = recordWaits();
  await assert.rejects(api('/api/games', { method: 'POST', body: {}, wait }), (e) => e.status === 503);
  assert.equal(calls.length, 1);
  calls = fakeFetch([[503, { detail: 'full', code: 'ai.full', params: {} }, { 'Retry-After': '60' }]]);
  await assert.rejects(api('/api/lobby', { wait }), (e) => e.code === 'ai.full');
  calls = fakeFetch([[404, { detail: 'no', code: 'game.not_found', params: {} }]]);
  await assert.rejects(api('/api/games/x', { wait }), (e) => e.status === 404);
  assert.equal(calls.length, 1);
  assert.deepEqual(waits, []);
});
