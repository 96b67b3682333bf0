// Tests of the board's `hint` option (a suggested move) in the pure state logic.
// Run with: node --test tests/client/
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';

import * as S from '../../../src/doushouqi/server/static/board/state.js';
// The board knows no game: its state is tested with Jungle's geometry and pieces.
import { JUNGLE } from '../../../src/doushouqi/server/static/games/jungle/index.js';
import { JUNGLE_GEOMETRY as GEO } from '../../../src/doushouqi/server/static/games/jungle/geometry.js';

const START = 'l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L';
const START_DESTS = { g3: ['g4', 'f3', 'g2'], a3: ['a4', 'a2', 'b3'] };

describe('hint option', () => {
  test('no hint by default; [from, to] or null are accepted, anything else throws', () => {
    assert.equal(S.createState(JUNGLE).hint, null);
    assert.deepEqual(S.createState({ ...JUNGLE,  hint: ['a3', 'a4'] }).hint, ['a3', 'a4']);
    assert.equal(S.configure(S.createState({ ...JUNGLE,  hint: ['a3', 'a4'] }), { hint: null }).hint, null);
    assert.throws(() => S.createState({ ...JUNGLE,  hint: ['a3'] }), /hint must be \[from, to\] squares or null/);
    assert.throws(() => S.createState({ ...JUNGLE,  hint: 'a3a4' }), /hint/);
    assert.throws(() => S.createState({ ...JUNGLE,  hint: ['a3', 'z9'] }), /hint/);
  });

  test('both squares get their own classes, next to the last move and threats', () => {
    const s = S.createState({ ...JUNGLE,  position: START, hint: ['a3', 'a4'], lastMove: ['a7', 'a6'], threats: ['a3'] });
    assert.deepEqual(S.squareClasses(s, 'a3'), ['sq', 'land', 'dark', 'occupied', 'piece-red', 'threat', 'hint-from']);
    assert.deepEqual(S.squareClasses(s, 'a4'), ['sq', 'bridge', 'hint-to']);
    assert.deepEqual(S.squareClasses(s, 'a6'), ['sq', 'bridge', 'last-move']);
    assert.ok(!S.squareClasses(s, 'a5').some((c) => c.startsWith('hint')));
  });

  test('the squares\' labels mention the hint, in both languages', () => {
    const en = S.createState({ ...JUNGLE,  position: START, hint: ['g3', 'g4'], lang: 'en' });
    assert.equal(S.squareLabel(en, 'g3'), 'g3, red rat 鼠, strength 1, hint: move from here');
    assert.equal(S.squareLabel(en, 'g4'), 'g4, bridge, empty, hint: move here');
    const zh = S.configure(en, { lang: 'zh' });
    assert.equal(S.squareLabel(zh, 'g3'), 'g3，红方鼠，战力1，提示：走这只');
    assert.equal(S.squareLabel(zh, 'g4'), 'g4，桥，空，提示：走到这里');
  });

  test('the hint in words, with a capture', () => {
    const en = S.createState({ ...JUNGLE,  position: '7/7/7/7/7/7/7/2wL3/7', hint: ['d2', 'c2'], lang: 'en' });
    assert.equal(S.hintText(en), 'Hint: Red lion 狮 d2 to c2, captures blue wolf 狼.');
    assert.equal(S.hintText(S.configure(en, { lang: 'zh' })), '提示：红方狮 d2 走到 c2，吃掉蓝方狼。');
    assert.equal(S.hintText(S.configure(en, { hint: null })), '');
    const fox = S.configure(en, { hint: ['c2', 'c3'], wolfName: 'fox' });
    assert.equal(S.hintText(fox), 'Hint: Blue fox 狐 c2 to c3.');
  });

  test('a move clears the hint (it belonged to the position before)', () => {
    const s = S.createState({ ...JUNGLE,  position: START, movableColor: 'red', dests: START_DESTS, hint: ['a3', 'a4'] });
    const moved = S.clickSquare(S.clickSquare(s, 'g3').state, 'g4');
    assert.equal(moved.action.type, 'move');
    assert.equal(moved.state.hint, null);
    assert.equal(S.clickSquare(s, 'g3').state.hint[0], 'a3', 'a selection keeps it');
  });
});

describe('hint arrow geometry', () => {
  test('a step up from a3 to a4, Red at the bottom', () => {
    const { shaft, head } = S.arrowGeometry(GEO, 'a3', 'a4');
    // a3 is drawn in column 0, row 6: its centre is (50, 650); a4's is (50, 550)
    assert.equal(shaft.x1, 50);
    assert.equal(shaft.x2, 50);
    assert.ok(shaft.y1 < 650 && shaft.y1 > shaft.y2, JSON.stringify(shaft));
    const [tip, left, right] = head;
    assert.deepEqual(tip, [50, 572]);
    assert.equal(left[1], right[1]);
    assert.ok(left[1] > tip[1], 'the head points up');
    assert.equal(Math.abs(left[0] - 50), Math.abs(right[0] - 50));
  });

  test('Blue at the bottom turns the arrow around', () => {
    const red = S.arrowGeometry(GEO, 'a4', 'd4');
    const blue = S.arrowGeometry(GEO, 'a4', 'd4', 'blue');
    assert.ok(red.head[0][0] > red.shaft.x1, 'points right for Red');
    assert.ok(blue.head[0][0] < blue.shaft.x1, 'points left for Blue');
    assert.equal(blue.shaft.y1, 350);
    // the jump over a lake: the shaft spans the water
    assert.ok(red.shaft.x2 - red.shaft.x1 > 200);
  });

  test('all points stay on the board', () => {
    for (const [from, to] of [['a1', 'a2'], ['g9', 'f9'], ['a9', 'a8'], ['g1', 'g2'], ['d3', 'd7']]) {
      for (const orientation of ['red', 'blue']) {
        const { shaft, head } = S.arrowGeometry(GEO, from, to, orientation);
        const points = [[shaft.x1, shaft.y1], [shaft.x2, shaft.y2], ...head];
        for (const [x, y] of points) assert.ok(x >= 0 && x <= 700 && y >= 0 && y <= 900, `${from}${to} ${orientation}: ${x},${y}`);
      }
    }
  });
});

describe('announceMoves option', () => {
  test('on by default; only true or false', () => {
    assert.equal(S.createState(JUNGLE).announceMoves, true);
    assert.equal(S.createState({ ...JUNGLE,  announceMoves: false }).announceMoves, false);
    assert.throws(() => S.createState({ ...JUNGLE,  announceMoves: 'no' }), /announceMoves must be one of true, false/);
  });
});
