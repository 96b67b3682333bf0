// Tests of the game page's bookkeeping of the player's own moves (pending_moves.js): ids, what
// is sent and sent again, what the server's answers and events do. Run with: node --test tests/client/
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';

import {
  PendingMoves, moveLabel, moveStore, newMoveId, placementAfter, storeKey,
} from '../../../../src/doushouqi/server/static/app/play/pending_moves.js';
import { JUNGLE_CLIENT } from '../../../../src/doushouqi/server/static/games/jungle/index.js';

const START = 'l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w 0 1';

function counter() {
  let n = 0;
  return () => `m-${++n}`;
}

/** A list with Red's g3g4, made at version 4 after two plies (it becomes ply 3). */
function oneMove() {
  const pending = new PendingMoves(counter());
  const entry = pending.add({ move: 'g3g4', version: 4, ply: 3, color: 0 });
  return { pending, entry };
}

describe('move ids', () => {
  test('an id is m- and 16 hex digits, new every time, within the 64 characters allowed', () => {
    const ids = new Set(Array.from({ length: 200 }, () => newMoveId()));
    assert.equal(ids.size, 200);
    for (const id of ids) assert.match(id, /^m-[0-9a-f]{16}$/);
  });

  test('without crypto, Math.random stands in', () => {
    assert.match(newMoveId(null), /^m-[0-9a-f]{16}$/);
  });

  test('moves read as on the board', () => {
    assert.equal(moveLabel('g3g4'), 'g3–g4');
  });
});

describe('pending moves', () => {
  test('a new move waits, unsent, with the version and ply it was made for', () => {
    const { pending, entry } = oneMove();
    assert.deepEqual(entry, { id: 'm-1', move: 'g3g4', version: 4, ply: 3, color: 0, sent: false, applied: false, acked: false });
    assert.equal(pending.awaited(), entry);
    assert.deepEqual(pending.unsent(), [entry]);
    pending.markSent(entry);
    assert.deepEqual(pending.unsent(), []);
    assert.equal(pending.awaited(), entry, 'sent is not answered');
  });

  test('the ack of its id ends it (a duplicate ack too); another id changes nothing', () => {
    const { pending, entry } = oneMove();
    assert.equal(pending.answer({ type: 'ack', id: 'm-9' }), null);
    assert.equal(pending.answer({ type: 'ack', id: 'chat-1' }), null);
    assert.equal(pending.answer({ type: 'ack' }), null);
    assert.equal(pending.size, 1);
    pending.noteEvent({ type: 'move_made', move: 'g3g4', color: 0, ply: 3, move_id: 'm-1' });
    assert.deepEqual(pending.answer({ type: 'ack', id: 'm-1', duplicate: true }), { outcome: 'played', entry, code: null });
    assert.equal(pending.size, 0);
    assert.equal(pending.awaited(), null);
    assert.equal(pending.answer({ type: 'ack', id: 'm-1' }), null, 'a second answer finds nothing');
  });

  test('an ack before its event: the move stays drawn as made, is not sent again, and ends with its event', () => {
    const { pending, entry } = oneMove();
    pending.markSent(entry);
    assert.equal(pending.answer({ type: 'ack', id: 'm-1' }).outcome, 'played');
    assert.equal(pending.shownOn(2), entry, 'not yet in the position: still drawn on top of it');
    pending.sendAgain();
    assert.deepEqual(pending.unsent(), [], 'answered: never sent again');
    pending.noteEvent({ type: 'move_made', move: 'g3g4', color: 0, ply: 3, move_id: 'm-1' });
    assert.equal(pending.size, 0);
  });

  test('a fresh state after the ack has the move, whatever its list says', () => {
    const { pending } = oneMove();
    pending.answer({ type: 'ack', id: 'm-1' });
    const waiting = pending.add({ move: 'a7a6', version: 6, ply: 4, color: 1 });
    pending.noteState([]);
    assert.deepEqual(pending.entries, [waiting], 'an unanswered move stays');
  });

  test('a refusal ends it too, with its code', () => {
    const { pending, entry } = oneMove();
    assert.deepEqual(pending.answer({ type: 'rejected', id: 'm-1', code: 'stale_version' }),
      { outcome: 'refused', entry, code: 'stale_version' });
    assert.equal(pending.size, 0);
  });

  test('`unavailable` and `rate_limited` keep it, to be sent again, however often they come', () => {
    const { pending, entry } = oneMove();
    pending.markSent(entry);
    for (const code of ['unavailable', 'rate_limited']) {
      for (let i = 0; i < 10; i++) {
        assert.deepEqual(pending.answer({ type: 'error', id: 'm-1', code }), { outcome: 'retry', entry, code });
      }
    }
    assert.equal(pending.awaited(), entry);
  });

  test("a fault of the server's own is tried again a few times, then counts as refused", () => {
    const { pending, entry } = oneMove();
    const fault = { type: 'error', id: 'm-1', code: 'internal' };
    assert.equal(pending.answer(fault, { maxFaults: 3 }).outcome, 'retry');
    assert.equal(pending.answer(fault, { maxFaults: 3 }).outcome, 'retry');
    assert.deepEqual(pending.answer(fault, { maxFaults: 3 }), { outcome: 'refused', entry, code: 'internal' });
    assert.equal(pending.size, 0);
  });

  test('other errors refuse it; a game gone is gone', () => {
    const bad = oneMove();
    assert.equal(bad.pending.answer({ type: 'error', id: 'm-1', code: 'bad_message' }).outcome, 'refused');
    const gone = oneMove();
    assert.equal(gone.pending.answer({ type: 'error', id: 'm-1', code: 'not_found' }).outcome, 'gone');
    assert.equal(gone.pending.size, 0);
    const other = oneMove();
    assert.equal(other.pending.answer({ type: 'pong', id: 'm-1' }), null);
  });

  test('a lost socket makes everything go again, with the same id and version', () => {
    const { pending, entry } = oneMove();
    pending.markSent(entry);
    pending.sendAgain();
    assert.deepEqual(pending.unsent().map((e) => [e.id, e.version]), [['m-1', 4]]);
  });

  test('`unavailable` for one id sends that one again only', () => {
    const pending = new PendingMoves(counter());
    const a = pending.add({ move: 'g3g4', version: 4, ply: 3, color: 0 });
    const b = pending.add({ move: 'a7a6', version: 5, ply: 4, color: 1 });
    pending.markSent(a);
    pending.markSent(b);
    pending.sendAgain('m-2');
    assert.deepEqual(pending.unsent(), [b]);
  });

  test('its move_made shows it played, but it waits for its ack (and is sent again after a reconnect)', () => {
    const { pending, entry } = oneMove();
    pending.markSent(entry);
    assert.equal(pending.noteEvent({ type: 'move_made', move: 'g3g4', color: 0, ply: 3 }), entry);
    assert.equal(entry.applied, true);
    assert.equal(pending.awaited(), null, 'the player may move again');
    assert.equal(pending.size, 1);
    pending.sendAgain();
    assert.deepEqual(pending.unsent(), [entry]);
    assert.equal(pending.answer({ type: 'ack', id: 'm-1', duplicate: true }).entry, entry);
  });

  test('a move_made naming our id is ours; naming another id it is not, even when alike', () => {
    const { pending, entry } = oneMove();
    assert.equal(pending.noteEvent({ type: 'move_made', move: 'g3g4', color: 0, ply: 3, move_id: 'm-other' }), null);
    assert.equal(entry.applied, false, 'an equal move from another tab');
    assert.equal(pending.noteEvent({ type: 'move_made', move: 'g3g4', color: 0, ply: 3, move_id: 'm-1' }), entry);
    assert.equal(entry.applied, true);
  });

  test('without ids, another move, another seat or another ply is not ours', () => {
    for (const event of [
      { type: 'move_made', move: 'g3f3', color: 0, ply: 3 },
      { type: 'move_made', move: 'g3g4', color: 1, ply: 3 },
      { type: 'move_made', move: 'g3g4', color: 0, ply: 5 },
      { type: 'timeout_passed', move: 'g3g4', color: 0, ply: 3 },
      { type: 'chat' },
    ]) {
      const { pending, entry } = oneMove();
      assert.equal(pending.noteEvent(event), null, JSON.stringify(event));
      assert.equal(entry.applied, false);
    }
  });

  test("a fresh state's move list shows it played", () => {
    const { pending, entry } = oneMove();
    pending.noteMoves([
      { ply: 1, color: 0, move: 'a3a4' }, { ply: 2, color: 1, move: 'a7a6' }, { ply: 3, color: 0, move: 'g3g4', moveId: 'm-1' },
    ]);
    assert.equal(entry.applied, true);
    const unnamed = oneMove();
    unnamed.pending.noteMoves([{ ply: 3, color: 0, move: 'g3g4', moveId: null }]);
    assert.equal(unnamed.entry.applied, true, 'a move stored without an id: by seat, move and ply');
    const other = oneMove();
    other.pending.noteMoves([{ ply: 1, color: 0, move: 'a3a4' }, { ply: 2, color: 1, move: 'a7a6' }]);
    assert.equal(other.entry.applied, false);
  });

  test('it is shown on top of the position it was made in, and only there', () => {
    const { pending, entry } = oneMove();
    assert.equal(pending.shownOn(2), entry);
    assert.equal(pending.shownOn(3), null, 'the position has moved on: the server will refuse it');
    pending.noteEvent({ type: 'move_made', move: 'g3g4', color: 0, ply: 3 });
    assert.equal(pending.shownOn(2), null, 'played: the server position has it');
  });

  test('clear forgets everything', () => {
    const { pending } = oneMove();
    pending.clear();
    assert.equal(pending.size, 0);
  });
});

describe('the position with a move on top', () => {
  const terms = { parse: JUNGLE_CLIENT.parsePlacement, write: JUNGLE_CLIENT.placementToString };

  test('the piece goes to its square', () => {
    assert.equal(placementAfter(START, 'g3g4', terms), 'l5t/1d3c1/r1p1w1e/7/7/6R/E1W1P2/1C3D1/T5L');
  });

  test('whatever stood there is taken', () => {
    assert.equal(placementAfter('7/7/7/7/7/6r/6E/7/7 w', 'g3g4', terms), '7/7/7/7/7/6E/7/7/7');
  });

  test('an empty square to move from: null', () => {
    assert.equal(placementAfter(START, 'd5d6', terms), null);
  });
});

/** A stand-in for the tab's sessionStorage (Node has none): a Map behind its three methods. */
function memoryStorage() {
  const items = new Map();
  return {
    items,
    getItem: (key) => (items.has(key) ? items.get(key) : null),
    setItem: (key, value) => { items.set(key, String(value)); },
    removeItem: (key) => { items.delete(key); },
  };
}

test('a reload starts from the moves kept in the tab, to be sent again under their ids', () => {
  const storage = memoryStorage();
  const before = new PendingMoves(counter(), moveStore('g1', storage));
  const entry = before.add({ move: 'g3g4', version: 7, ply: 3, color: 0 });
  before.markSent(entry);
  assert.deepEqual(JSON.parse(storage.getItem(storeKey('g1'))).map((e) => e.id), ['m-1']);

  const after = new PendingMoves(counter(), moveStore('g1', storage)); // the page loaded again
  assert.equal(after.size, 1);
  assert.deepEqual(after.unsent().map((e) => [e.id, e.move, e.version, e.ply, e.color]), [['m-1', 'g3g4', 7, 3, 0]]);
  assert.equal(after.awaited().id, 'm-1');
  // Another game's moves are kept apart.
  assert.equal(new PendingMoves(counter(), moveStore('g2', storage)).size, 0);
  // Answered, the move is forgotten in the tab too.
  after.noteEvent({ type: 'move_made', move: 'g3g4', color: 0, ply: 3, move_id: 'm-1' });
  after.answer({ type: 'ack', id: 'm-1' });
  assert.equal(after.size, 0);
  assert.equal(storage.getItem(storeKey('g1')), null);
});

test('a refused move leaves the tab, and a storage that refuses or holds junk costs nothing', () => {
  const storage = memoryStorage();
  const moves = new PendingMoves(counter(), moveStore('g1', storage));
  moves.add({ move: 'a3a4', version: 1, ply: 1, color: 0 });
  moves.answer({ type: 'rejected', id: 'm-1', code: 'stale_version' });
  assert.equal(storage.getItem(storeKey('g1')), null);

  storage.setItem(storeKey('g1'), '{not json');
  assert.equal(new PendingMoves(counter(), moveStore('g1', storage)).size, 0);
  storage.setItem(storeKey('g1'), JSON.stringify([{ id: 'x', move: 'a3a4', version: 'one', ply: 1, color: 0 }]));
  assert.equal(new PendingMoves(counter(), moveStore('g1', storage)).size, 0);
  const full = { getItem: () => null, setItem: () => { throw new Error('quota'); }, removeItem: () => {} };
  const kept = new PendingMoves(counter(), moveStore('g1', full));
  assert.equal(kept.add({ move: 'a3a4', version: 1, ply: 1, color: 0 }).id, 'm-1');
  assert.equal(kept.size, 1);
});
