// Tests of when the game page asks for what it missed (versions.js). Run with: node --test tests/client/
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { advancesVersion, missedEvents } from '../../../../src/doushouqi/server/static/app/play/versions.js';

test('the next event is no gap; one after it is', () => {
  assert.equal(missedEvents({ type: 'move_made', version: 8 }, 7), false);
  assert.equal(missedEvents({ type: 'move_made', version: 9 }, 7), true);
});

test('a notice ahead of the page shows a lost event, and does not move the page past it', () => {
  const notice = { type: 'spectators', version: 8, count: 2 };
  assert.equal(missedEvents(notice, 7), true);
  assert.equal(advancesVersion(notice), false);
  assert.equal(missedEvents({ type: 'chat', version: 7 }, 7), false);
  assert.equal(missedEvents({ type: 'pong', version: 8 }, 7), true);
});

test('states, refusals, errors and acks never ask for a sync', () => {
  for (const type of ['state', 'rejected', 'error', 'ack']) {
    assert.equal(missedEvents({ type, version: 30 }, 7), false, type);
  }
  assert.equal(advancesVersion({ type: 'ack', version: 30 }), false);
  assert.equal(advancesVersion({ type: 'move_made', version: 8 }), true);
});

test('a page that has seen nothing yet, or a message without a version, asks for nothing', () => {
  assert.equal(missedEvents({ type: 'move_made', version: 9 }, -1), false);
  assert.equal(missedEvents({ type: 'spectators' }, 3), false);
  assert.equal(advancesVersion({ type: 'chat' }), false);
});
