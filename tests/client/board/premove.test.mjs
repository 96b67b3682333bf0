// Tests of the board's premove and pending-move options in the pure state logic: the host says
// whose pieces may be premoved and where to; the board only remembers and reports the premove.
// Run with: node --test tests/client/
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';

import * as S from '../../../src/doushouqi/server/static/board/state.js';
// The board knows no game: its state is tested with Jungle's geometry and pieces.
import { JUNGLE } from '../../../src/doushouqi/server/static/games/jungle/index.js';

const START = 'l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L';
// Red has moved; Blue is to move. Red may premove its rat and its elephant.
const PREMOVE_DESTS = { g3: ['g4', 'f3', 'g2'], a3: ['a4', 'a2', 'b3'] };

function bluesTurn(extra = {}) {
  return S.createState({
    ...JUNGLE, position: START, turnColor: 'blue', movableColor: null, premoveColor: 'red',
    premoveDests: PREMOVE_DESTS, ...extra,
  });
}

describe('premoves', () => {
  test('nothing to premove by default; bad options throw', () => {
    const s = S.createState({ ...JUNGLE, position: START });
    assert.equal(s.premoveColor, null);
    assert.equal(s.premove, null);
    assert.equal(S.isInteractive(s), false);
    assert.throws(() => S.createState({ ...JUNGLE, premoveColor: 'green' }), /premoveColor/);
    assert.throws(() => S.createState({ ...JUNGLE, premove: ['a3'] }), /premove must be/);
    assert.throws(() => S.createState({ ...JUNGLE, premoveDests: { a3: ['z1'] } }), /not a square/);
  });

  test('two taps set a premove: the piece stays, the move is reported, not made', () => {
    let s = bluesTurn();
    assert.equal(S.isInteractive(s), true);
    const down = S.pointerDown(s, 'g3');
    assert.deepEqual(down.action, { type: 'select', square: 'g3' });
    assert.equal(down.drag, true);
    s = S.pointerUp(down.state, 'g3', 'g3', { wasSelected: down.wasSelected }).state;
    assert.deepEqual(S.squareClasses(s, 'g4'), ['sq', 'bridge', 'premove-dest']);
    const second = S.pointerDown(s, 'g4');
    assert.equal(second.action.type, 'premove');
    assert.deepEqual([second.action.from, second.action.to], ['g3', 'g4']);
    assert.deepEqual(second.state.premove, ['g3', 'g4']);
    assert.equal(second.state.pieces, s.pieces, 'no piece moved');
    assert.equal(second.state.selected, null);
    assert.ok(S.squareClasses(second.state, 'g3').includes('premove-from'));
    assert.ok(S.squareClasses(second.state, 'g4').includes('premove-to'));
  });

  test('a drag onto a premove destination sets the premove; elsewhere it snaps back', () => {
    const s = S.pointerDown(bluesTurn(), 'a3').state;
    const dropped = S.pointerUp(s, 'a3', 'a4', { dragged: true });
    assert.equal(dropped.action.type, 'premove');
    assert.deepEqual(dropped.state.premove, ['a3', 'a4']);
    const away = S.pointerUp(s, 'a3', 'a6', { dragged: true });
    assert.equal(away.action.type, 'snapback');
    assert.equal(away.state.premove, null);
  });

  test('a new premove replaces the old one', () => {
    let s = bluesTurn({ premove: ['g3', 'g4'] });
    s = S.clickSquare(s, 'a3').state;
    assert.deepEqual(s.premove, ['g3', 'g4'], 'selecting another piece keeps it until the new one is made');
    const result = S.clickSquare(s, 'a4');
    assert.equal(result.action.type, 'premove');
    assert.deepEqual(result.state.premove, ['a3', 'a4']);
  });

  test('a tap on an empty square, an opponent piece or a non-destination cancels it', () => {
    for (const square of ['d5', 'a7', 'c2']) {
      const result = S.pointerDown(bluesTurn({ premove: ['g3', 'g4'] }), square);
      assert.equal(result.action.type, 'unpremove', square);
      assert.equal(result.state.premove, null, square);
    }
    // with a piece selected too
    const selected = S.clickSquare(bluesTurn({ premove: ['g3', 'g4'] }), 'a3').state;
    const result = S.pointerDown(selected, 'e5');
    assert.equal(result.action.type, 'unpremove');
    assert.equal(result.state.selected, null);
  });

  test('Escape deselects first, then cancels the premove', () => {
    const s = S.clickSquare(bluesTurn({ premove: ['g3', 'g4'] }), 'a3').state;
    const first = S.keyDown(s, 'Escape');
    assert.equal(first.action.type, 'deselect');
    assert.deepEqual(first.state.premove, ['g3', 'g4']);
    const second = S.keyDown(first.state, 'Escape');
    assert.equal(second.action.type, 'unpremove');
    assert.equal(second.state.premove, null);
    assert.equal(S.keyDown(second.state, 'Escape').handled, false);
  });

  test("the opponent's pieces and the pieces that may move now are not premovable", () => {
    const s = bluesTurn();
    assert.equal(S.isPremovable(s, 'a7'), false);
    assert.equal(S.pointerDown(s, 'a7').action.type, 'none');
    const both = S.configure(s, { movableColor: 'red', dests: { a3: ['a4'] } });
    assert.equal(S.isPremovable(both, 'a3'), false, 'movable now: a real move, not a premove');
    assert.equal(S.clickSquare(S.clickSquare(both, 'a3').state, 'a4').action.type, 'move');
  });

  test("when the turn comes, a piece selected for a premove stays selected with its legal moves", () => {
    const s = S.clickSquare(bluesTurn(), 'g3').state;
    const turn = S.configure(s, { premoveColor: null, premoveDests: {}, movableColor: 'red', dests: { g3: ['g4'] } });
    assert.equal(turn.selected, 'g3');
    assert.deepEqual(S.squareClasses(turn, 'g4'), ['sq', 'bridge', 'dest']);
  });

  test('labels and announcements in both languages', () => {
    const s = S.clickSquare(bluesTurn({ lang: 'en' }), 'g3').state;
    assert.match(S.squareLabel(s, 'g4'), /premove here/);
    assert.match(S.announce(s, { type: 'select', square: 'g3' }), /Premoves: g4, f3, g2\./);
    const set = S.clickSquare(s, 'g4');
    assert.match(S.announce(set.state, set.action), /^Premove: Red rat .* g3 to g4\.$/);
    assert.match(S.squareLabel(set.state, 'g3'), /premove from here/);
    assert.equal(S.announce(set.state, { type: 'unpremove' }), 'Premove cancelled.');
    const zh = S.configure(set.state, { lang: 'zh' });
    assert.match(S.announce(zh, set.action), /^预走：.*g3 走到 g4。$/);
    assert.equal(S.announce(zh, { type: 'unpremove' }), '已取消预走。');
  });
});

describe('pending move', () => {
  test('its squares are marked and labelled; the position is the host\'s', () => {
    const after = 'l5t/1d3c1/r1p1w1e/7/7/6R/E1W1P2/1C3D1/T5L';
    const s = S.createState({ ...JUNGLE, position: after, lastMove: ['g3', 'g4'], pendingMove: ['g3', 'g4'], lang: 'en' });
    assert.deepEqual(S.squareClasses(s, 'g4'), ['sq', 'bridge', 'occupied', 'piece-red', 'last-move', 'pending']);
    assert.ok(S.squareClasses(s, 'g3').includes('pending'));
    assert.match(S.squareLabel(s, 'g4'), /last move, move not confirmed yet/);
    assert.equal(S.configure(s, { pendingMove: null }).pendingMove, null);
    assert.throws(() => S.configure(s, { pendingMove: 'g3g4' }), /pendingMove/);
  });
});
