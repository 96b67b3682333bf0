// Tests of the board component's pure state logic (no DOM). Run with: node --test tests/client/
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';

import * as S from '../../../src/doushouqi/server/static/board/state.js';
// The board knows no game: its state is tested with Jungle's geometry and pieces.
import { JUNGLE } from '../../../src/doushouqi/server/static/games/jungle/index.js';
import {
  JUNGLE_GEOMETRY as GEO, terrainOf, lakeOf, lakeArea,
} from '../../../src/doushouqi/server/static/games/jungle/geometry.js';
import { parsePlacement, placementToString, pieceChar } from '../../../src/doushouqi/server/static/games/jungle/pieces.js';

const START = 'l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L';
// Red's 24 legal moves in the start position (docs/rules.md perft depth 1 = 24).
const START_DESTS = {
  a1: ['a2', 'b1'], g1: ['g2', 'f1'], f2: ['f1', 'f3', 'e2', 'g2'], b2: ['b1', 'b3', 'a2', 'c2'],
  g3: ['g4', 'f3', 'g2'], e3: ['d3', 'f3', 'e2'], c3: ['c2', 'b3', 'd3'], a3: ['a4', 'a2', 'b3'],
};

function redToMove(extra = {}) {
  return S.createState({ ...JUNGLE,  position: START, movableColor: 'red', turnColor: 'red', dests: START_DESTS, ...extra });
}

describe('placements', () => {
  test('the start position has 16 animals where docs/rules.md puts them', () => {
    const pieces = parsePlacement(START);
    assert.equal(pieces.size, 16);
    const expect = {
      g1: ['red', 'lion'], a1: ['red', 'tiger'], f2: ['red', 'dog'], b2: ['red', 'cat'], g3: ['red', 'rat'],
      e3: ['red', 'leopard'], c3: ['red', 'wolf'], a3: ['red', 'elephant'],
      a9: ['blue', 'lion'], g9: ['blue', 'tiger'], b8: ['blue', 'dog'], f8: ['blue', 'cat'], a7: ['blue', 'rat'],
      c7: ['blue', 'leopard'], e7: ['blue', 'wolf'], g7: ['blue', 'elephant'],
    };
    for (const [sq, [color, animal]] of Object.entries(expect)) {
      assert.deepEqual(pieces.get(sq), { color, animal }, sq);
    }
  });

  test('placements round-trip', () => {
    for (const p of [START, '7/7/7/7/7/7/7/7/7', '1l4t/1d3c1/r5e/E2w3/3L3/5R1/2W1P2/1C3D1/T3p2', 'l6/3c3/1d1pet1/3wR2/Tr5/3W3/3P1L1/1CE2D1/7']) {
      assert.equal(placementToString(parsePlacement(p)), p);
    }
  });

  test('a full position string is accepted; its other fields are ignored', () => {
    assert.equal(placementToString(parsePlacement(`${START} w 0 1`)), START);
    assert.equal(placementToString(parsePlacement(`  ${START}  b`)), START);
  });

  const malformed = [
    ['', /empty/],
    ['l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1', /9 rows.*got 8/],
    [`${START}/7`, /9 rows.*got 10/],
    ['l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5X', /unknown piece letter "X"/],
    ['l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T6L', /row 9 \(rank 1\) is longer than 7/],
    ['l5t/1d3c1/r1p1w1e/6/7/7/E1W1P1R/1C3D1/T5L', /row 4 \(rank 6\) covers 6 squares instead of 7/],
    ['l5t/1d3c1/r1p1w1e/8/7/7/E1W1P1R/1C3D1/T5L', /longer than 7/],
    ['l5t/1d3c1/r1p1w1e/34/7/7/E1W1P1R/1C3D1/T5L', /two digits in a row/],
    ['l5t//r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L', /row 2 \(rank 8\) is empty/],
    ['l5t/1d3c1/r1p1w1e/0/7/7/E1W1P1R/1C3D1/T5L', /unknown piece letter "0"/],
  ];
  for (const [text, message] of malformed) {
    test(`malformed placement ${JSON.stringify(text)} → PlacementError`, () => {
      assert.throws(() => parsePlacement(text), (err) => {
        assert.ok(err instanceof S.PlacementError, `got ${err}`);
        assert.equal(err.name, 'PlacementError');
        assert.match(err.message, message);
        return true;
      });
    });
  }

  test('non-strings are rejected with a clear error', () => {
    assert.throws(() => parsePlacement(null), /placement must be a string, got null/);
    assert.throws(() => parsePlacement(42), /placement must be a string, got number/);
  });

  test('configure with a malformed position throws and leaves the state alone', () => {
    const state = redToMove();
    assert.throws(() => S.configure(state, { position: 'nonsense' }), S.PlacementError);
    assert.equal(placementToString(state.pieces), START);
  });
});

describe('geometry and orientation', () => {
  test('63 squares, a1 … g9', () => {
    assert.equal(GEO.squares.length, 63);
    assert.equal(GEO.squares[0], 'a1');
    assert.equal(GEO.squares[62], 'g9');
    assert.ok(!GEO.isSquare('h1') && !GEO.isSquare('a0') && !GEO.isSquare('a10') && GEO.isSquare('g9'));
  });

  test('red at the bottom: a1 bottom left, g9 top right', () => {
    assert.deepEqual(GEO.toScreen('a1', 'red'), { col: 0, row: 8 });
    assert.deepEqual(GEO.toScreen('g9', 'red'), { col: 6, row: 0 });
    assert.deepEqual(GEO.toScreen('d5', 'red'), { col: 3, row: 4 });
  });

  test('blue at the bottom: g9 bottom left, a1 top right', () => {
    assert.deepEqual(GEO.toScreen('g9', 'blue'), { col: 0, row: 8 });
    assert.deepEqual(GEO.toScreen('a1', 'blue'), { col: 6, row: 0 });
    assert.deepEqual(GEO.toScreen('d5', 'blue'), { col: 3, row: 4 });
  });

  test('fromScreen inverts toScreen in both orientations, and is null off the board', () => {
    for (const orientation of ['red', 'blue']) {
      const seen = new Set();
      for (const sq of GEO.squares) {
        const { col, row } = GEO.toScreen(sq, orientation);
        assert.equal(GEO.fromScreen(col, row, orientation), sq);
        seen.add(`${col},${row}`);
      }
      assert.equal(seen.size, 63);
      for (const [c, r] of [[-1, 0], [7, 0], [0, -1], [0, 9], [0.5, 1]]) assert.equal(GEO.fromScreen(c, r, orientation), null);
    }
  });

  test('squareAtPoint finds the square under a point, in both orientations', () => {
    // a board of 700 × 900 px: squares of 100 px
    assert.equal(GEO.squareAtPoint(10, 890, 700, 900, 'red'), 'a1');
    assert.equal(GEO.squareAtPoint(690, 10, 700, 900, 'red'), 'g9');
    assert.equal(GEO.squareAtPoint(350, 450, 700, 900, 'red'), 'd5');
    assert.equal(GEO.squareAtPoint(10, 890, 700, 900, 'blue'), 'g9');
    assert.equal(GEO.squareAtPoint(690, 10, 700, 900, 'blue'), 'a1');
    assert.equal(GEO.squareAtPoint(-1, 10, 700, 900, 'red'), null);
    assert.equal(GEO.squareAtPoint(700, 10, 700, 900, 'red'), null);
    assert.equal(GEO.squareAtPoint(10, 900, 700, 900, 'red'), null);
  });

  test('edge labels follow the orientation', () => {
    assert.deepEqual(GEO.edgeLabels('red'), { files: [...'abcdefg'], ranks: [...'987654321'] });
    assert.deepEqual(GEO.edgeLabels('blue'), { files: [...'gfedcba'], ranks: [...'123456789'] });
  });

  test('terrain: two lakes of six, three bridges, 品字形 traps and dens', () => {
    const kinds = {};
    for (const sq of GEO.squares) {
      const { kind, side } = terrainOf(sq);
      (kinds[kind + (side ? `-${side}` : '')] ??= []).push(sq);
    }
    assert.deepEqual(kinds.water.sort(), ['b4', 'b5', 'b6', 'c4', 'c5', 'c6', 'e4', 'e5', 'e6', 'f4', 'f5', 'f6']);
    assert.deepEqual(kinds.bridge.sort(), ['a4', 'a5', 'a6', 'd4', 'd5', 'd6', 'g4', 'g5', 'g6']);
    assert.deepEqual(kinds['trap-red'].sort(), ['c1', 'd2', 'e1']);
    assert.deepEqual(kinds['trap-blue'].sort(), ['c9', 'd8', 'e9']);
    assert.deepEqual(kinds['den-red'], ['d1']);
    assert.deepEqual(kinds['den-blue'], ['d9']);
    assert.equal(kinds.land.length, 63 - 12 - 9 - 6 - 2);
    assert.equal(lakeOf('b4'), 0);
    assert.equal(lakeOf('f6'), 1);
    assert.equal(lakeOf('d5'), -1);
  });

  test('lake areas in grid lines, both orientations', () => {
    assert.deepEqual(lakeArea(0, 'red'), { colStart: 2, colEnd: 4, rowStart: 4, rowEnd: 7 });
    assert.deepEqual(lakeArea(1, 'red'), { colStart: 5, colEnd: 7, rowStart: 4, rowEnd: 7 });
    assert.deepEqual(lakeArea(0, 'blue'), { colStart: 5, colEnd: 7, rowStart: 4, rowEnd: 7 });
  });
});

describe('click-click selection and moves', () => {
  test('clicking an own piece selects it', () => {
    const { state, action } = S.clickSquare(redToMove(), 'g3');
    assert.deepEqual(action, { type: 'select', square: 'g3' });
    assert.equal(state.selected, 'g3');
    assert.equal(state.focus, 'g3');
  });

  test('clicking the selected piece again deselects it', () => {
    const first = S.clickSquare(redToMove(), 'g3').state;
    const { state, action } = S.clickSquare(first, 'g3');
    assert.equal(action.type, 'deselect');
    assert.equal(state.selected, null);
  });

  test('clicking another own piece selects that one instead', () => {
    const first = S.clickSquare(redToMove(), 'g3').state;
    const { state, action } = S.clickSquare(first, 'a3');
    assert.deepEqual(action, { type: 'select', square: 'a3' });
    assert.equal(state.selected, 'a3');
  });

  test('clicking a destination moves; the board shows the move and drops the old dests', () => {
    const first = S.clickSquare(redToMove(), 'g3').state;
    const { state, action } = S.clickSquare(first, 'g4');
    assert.equal(action.type, 'move');
    assert.equal(action.from, 'g3');
    assert.equal(action.to, 'g4');
    assert.deepEqual(action.piece, { color: 'red', animal: 'rat' });
    assert.equal(action.captured, null);
    assert.equal(state.pieces.get('g3'), undefined);
    assert.deepEqual(state.pieces.get('g4'), { color: 'red', animal: 'rat' });
    assert.deepEqual(state.lastMove, ['g3', 'g4']);
    assert.equal(state.selected, null);
    assert.equal(state.dests.size, 0);
    assert.equal(state.turnColor, 'blue');
  });

  test('moves go only to the given dests', () => {
    const first = S.clickSquare(redToMove(), 'g3').state;
    for (const sq of ['g5', 'f4', 'e3', 'g1']) {
      const { state, action } = S.clickSquare(first, sq);
      assert.notEqual(action.type, 'move', sq);
      assert.equal(state.pieces.get('g3').animal, 'rat');
    }
    assert.ok(S.canMove(first, 'g3', 'f3'));
    assert.ok(!S.canMove(first, 'g3', 'g3'));
    assert.ok(!S.canMove(first, 'g3', 'e3'));
  });

  test('clicking an empty square that is no destination deselects', () => {
    const first = S.clickSquare(redToMove(), 'g3').state;
    const { state, action } = S.clickSquare(first, 'd5');
    assert.deepEqual(action, { type: 'deselect', square: 'g3', tried: ['g3', 'd5'] });
    assert.equal(state.selected, null);
    assert.equal(S.clickSquare(state, 'd5').action.type, 'none');
  });

  test('a tap that sends the selected piece where it may not go reports the try', () => {
    const first = S.clickSquare(redToMove(), 'g3').state;
    // onto an opponent it may not take, or into the water: reported for the host to explain
    assert.deepEqual(S.clickSquare(first, 'g7').action.tried, ['g3', 'g7']);
    assert.deepEqual(S.clickSquare(first, 'f5').action.tried, ['g3', 'f5']);
    // another of one's own pieces is chosen instead, and a tap off the board tries nothing
    assert.equal(S.clickSquare(first, 'e3').action.type, 'select');
    assert.equal(S.clickSquare(first, 'e3').action.tried, undefined);
    assert.equal(S.pointerDown(first, null).action.tried, undefined);
    // a piece of a side that may not move now (a premove) tries no move
    const premoving = S.clickSquare(redToMove({ movableColor: null, premoveColor: 'red' }), 'g3').state;
    assert.equal(S.clickSquare(premoving, 'd5').action.tried, undefined);
  });

  test("an opponent's piece cannot be selected", () => {
    const { state, action } = S.clickSquare(redToMove(), 'a7');
    assert.equal(action.type, 'none');
    assert.equal(state.selected, null);
  });

  test('a capture reports the captured piece', () => {
    const state = S.createState({ ...JUNGLE, 
      position: '7/7/7/7/7/7/7/2wL3/7', movableColor: 'red', dests: { d2: ['c2', 'd1', 'd3', 'e2'] },
    });
    const selected = S.clickSquare(state, 'd2').state;
    assert.deepEqual(S.squareClasses(selected, 'c2').slice(-1), ['capture']);
    const { action, state: after } = S.clickSquare(selected, 'c2');
    assert.equal(action.type, 'move');
    assert.deepEqual(action.captured, { color: 'blue', animal: 'wolf' });
    assert.equal(after.pieces.size, 1);
  });

  test('movableColor decides which pieces may be selected', () => {
    assert.equal(S.clickSquare(redToMove({ movableColor: null }), 'g3').action.type, 'none');
    assert.equal(S.clickSquare(redToMove({ movableColor: 'blue' }), 'g3').action.type, 'none');
    assert.equal(S.clickSquare(redToMove({ movableColor: 'blue' }), 'a7').action.type, 'select');
    const both = redToMove({ movableColor: 'both' });
    assert.equal(S.clickSquare(both, 'g3').action.type, 'select');
    assert.equal(S.clickSquare(both, 'a7').action.type, 'select');
  });

  test('a piece without dests can be selected but moves nowhere', () => {
    const state = S.clickSquare(redToMove({ dests: {} }), 'g3').state;
    assert.equal(state.selected, 'g3');
    assert.deepEqual(S.destsOf(state, 'g3'), []);
    assert.equal(S.clickSquare(state, 'g4').action.type, 'deselect');
  });

  test('dests may be a Map or an object; bad squares throw', () => {
    const fromMap = redToMove({ dests: new Map([['g3', ['g4']]]) });
    assert.deepEqual(S.destsOf(fromMap, 'g3'), ['g4']);
    assert.throws(() => redToMove({ dests: { z9: ['a1'] } }), /dests: not a square: "z9"/);
    assert.throws(() => redToMove({ dests: { a1: ['a0'] } }), /dests\[a1\]: not a square/);
  });

  test('cancelSelection clears the selection', () => {
    const state = S.clickSquare(redToMove(), 'g3').state;
    assert.equal(S.cancelSelection(state).selected, null);
  });
});

describe('drag resolution', () => {
  test('pointer down on an own piece selects it and allows a drag', () => {
    const down = S.pointerDown(redToMove(), 'e3');
    assert.equal(down.drag, true);
    assert.equal(down.wasSelected, false);
    assert.equal(down.state.selected, 'e3');
  });

  test('a drop on a destination moves', () => {
    const down = S.pointerDown(redToMove(), 'e3');
    const up = S.pointerUp(down.state, 'e3', 'd3', { dragged: true });
    assert.equal(up.action.type, 'move');
    assert.equal(up.state.pieces.get('d3').animal, 'leopard');
  });

  test('an illegal drop snaps back and keeps the selection', () => {
    const down = S.pointerDown(redToMove(), 'e3');
    for (const target of ['e4', 'e5', 'a1', null]) {
      const up = S.pointerUp(down.state, 'e3', target, { dragged: true });
      // a drop on a square (not one's own piece) is reported as a try, for the host to explain
      const tried = target && target !== 'a1' ? { tried: ['e3', target] } : {};
      assert.deepEqual(up.action, { type: 'snapback', square: 'e3', ...tried }, String(target));
      assert.equal(up.state.selected, 'e3');
      assert.equal(up.state.pieces.get('e3').animal, 'leopard');
    }
  });

  test('a tap selects; a second tap on the same piece deselects', () => {
    const down1 = S.pointerDown(redToMove(), 'e3');
    const up1 = S.pointerUp(down1.state, 'e3', 'e3', { dragged: false, wasSelected: down1.wasSelected });
    assert.equal(up1.state.selected, 'e3');
    const down2 = S.pointerDown(up1.state, 'e3');
    assert.equal(down2.wasSelected, true);
    const up2 = S.pointerUp(down2.state, 'e3', 'e3', { dragged: false, wasSelected: down2.wasSelected });
    assert.equal(up2.action.type, 'deselect');
    assert.equal(up2.state.selected, null);
  });

  test('dragging the already selected piece does not deselect it on an illegal drop', () => {
    const selected = S.clickSquare(redToMove(), 'e3').state;
    const down = S.pointerDown(selected, 'e3');
    const up = S.pointerUp(down.state, 'e3', 'g9', { dragged: true, wasSelected: true });
    assert.equal(up.action.type, 'snapback');
    assert.equal(up.state.selected, 'e3');
  });

  test('pointer down on a destination of the selected piece moves at once', () => {
    const selected = S.clickSquare(redToMove(), 'a3').state;
    const down = S.pointerDown(selected, 'a4');
    assert.equal(down.action.type, 'move');
    assert.equal(down.drag, false);
  });

  test('pointer down off the board or on an empty square deselects', () => {
    const selected = S.clickSquare(redToMove(), 'a3').state;
    assert.equal(S.pointerDown(selected, null).action.type, 'deselect');
    assert.equal(S.pointerDown(selected, 'd5').action.type, 'deselect');
  });
});

describe('keyboard', () => {
  test('arrow keys move across squares in screen directions (red at the bottom)', () => {
    assert.equal(S.focusStep(GEO, 'd4', 'ArrowUp', 'red'), 'd5');
    assert.equal(S.focusStep(GEO, 'd4', 'ArrowDown', 'red'), 'd3');
    assert.equal(S.focusStep(GEO, 'd4', 'ArrowLeft', 'red'), 'c4');
    assert.equal(S.focusStep(GEO, 'd4', 'ArrowRight', 'red'), 'e4');
  });

  test('arrow keys are mirrored with blue at the bottom', () => {
    assert.equal(S.focusStep(GEO, 'd4', 'ArrowUp', 'blue'), 'd3');
    assert.equal(S.focusStep(GEO, 'd4', 'ArrowDown', 'blue'), 'd5');
    assert.equal(S.focusStep(GEO, 'd4', 'ArrowLeft', 'blue'), 'e4');
    assert.equal(S.focusStep(GEO, 'd4', 'ArrowRight', 'blue'), 'c4');
  });

  test('edges stop the focus, in both orientations', () => {
    const red = { a1: ['ArrowDown', 'ArrowLeft'], g1: ['ArrowDown', 'ArrowRight'], a9: ['ArrowUp', 'ArrowLeft'], g9: ['ArrowUp', 'ArrowRight'] };
    for (const [sq, keys] of Object.entries(red)) for (const key of keys) assert.equal(S.focusStep(GEO, sq, key, 'red'), sq, `${sq} ${key}`);
    const blue = { g9: ['ArrowDown', 'ArrowLeft'], a9: ['ArrowDown', 'ArrowRight'], g1: ['ArrowUp', 'ArrowLeft'], a1: ['ArrowUp', 'ArrowRight'] };
    for (const [sq, keys] of Object.entries(blue)) for (const key of keys) assert.equal(S.focusStep(GEO, sq, key, 'blue'), sq, `${sq} ${key}`);
    assert.equal(S.focusStep(GEO, 'a1', 'ArrowUp', 'red'), 'a2');
    assert.equal(S.focusStep(GEO, 'a1', 'ArrowDown', 'blue'), 'a2');
  });

  test('focus starts at the bottom-left square', () => {
    assert.equal(S.createState(JUNGLE).focus, 'a1');
    assert.equal(S.createState({ ...JUNGLE,  orientation: 'blue' }).focus, 'g9');
  });

  test('keyDown: arrows move focus, Enter selects and moves, Escape cancels', () => {
    let state = { ...redToMove(), focus: 'a3' };
    let r = S.keyDown(state, 'Enter');
    assert.equal(r.handled, true);
    assert.equal(r.action.type, 'select');
    state = S.keyDown(r.state, 'ArrowUp').state;
    assert.equal(state.focus, 'a4');
    assert.equal(state.selected, 'a3');
    r = S.keyDown(state, ' ');
    assert.equal(r.action.type, 'move');
    assert.deepEqual(r.state.lastMove, ['a3', 'a4']);

    state = S.keyDown({ ...redToMove(), focus: 'g3' }, 'Enter').state;
    r = S.keyDown(state, 'Escape');
    assert.equal(r.action.type, 'deselect');
    assert.equal(r.state.selected, null);
    assert.equal(S.keyDown(r.state, 'Escape').handled, false);
    assert.equal(S.keyDown(r.state, 'x').handled, false);
  });

  test('Home and End jump to the ends of the row', () => {
    assert.equal(S.keyDown({ ...redToMove(), focus: 'd4' }, 'Home').state.focus, 'a4');
    assert.equal(S.keyDown({ ...redToMove(), focus: 'd4' }, 'End').state.focus, 'g4');
    assert.equal(S.keyDown({ ...redToMove({ orientation: 'blue' }), focus: 'd4' }, 'Home').state.focus, 'g4');
  });
});

describe('square classes', () => {
  const state = S.createState({ ...JUNGLE, 
    position: START, movableColor: 'red', dests: START_DESTS, lastMove: ['c6', 'c7'], threats: ['a3', 'd1'],
  });

  test('terrain classes', () => {
    assert.deepEqual(S.squareClasses(state, 'b5'), ['sq', 'water']);
    assert.deepEqual(S.squareClasses(state, 'd5'), ['sq', 'bridge']);
    assert.deepEqual(S.squareClasses(state, 'c1'), ['sq', 'trap', 'side-red', 'dark']);
    assert.deepEqual(S.squareClasses(state, 'd8'), ['sq', 'trap', 'side-blue', 'dark']);
    assert.deepEqual(S.squareClasses(state, 'e1'), ['sq', 'trap', 'side-red', 'dark']);
    assert.deepEqual(S.squareClasses(state, 'd2'), ['sq', 'trap', 'side-red', 'dark']);
    assert.deepEqual(S.squareClasses(state, 'd9'), ['sq', 'den', 'side-blue']);
    assert.deepEqual(S.squareClasses(state, 'd3'), ['sq', 'land', 'light']);
    assert.deepEqual(S.squareClasses(state, 'd4'), ['sq', 'bridge']);
  });

  test('pieces, last move and threats', () => {
    assert.deepEqual(S.squareClasses(state, 'c7'), ['sq', 'land', 'dark', 'occupied', 'piece-blue', 'last-move']);
    assert.deepEqual(S.squareClasses(state, 'c6'), ['sq', 'water', 'last-move']);
    assert.deepEqual(S.squareClasses(state, 'a3'), ['sq', 'land', 'dark', 'occupied', 'piece-red', 'movable', 'threat']);
    assert.deepEqual(S.squareClasses(state, 'd1'), ['sq', 'den', 'side-red', 'threat']);
  });

  test('selection and destinations', () => {
    const selected = S.clickSquare(state, 'f2').state;
    assert.ok(S.squareClasses(selected, 'f2').includes('selected'));
    for (const sq of ['f1', 'f3', 'e2', 'g2']) assert.ok(S.squareClasses(selected, sq).includes('dest'), sq);
    assert.ok(!S.squareClasses(selected, 'f4').includes('dest'));
    assert.ok(!S.squareClasses(state, 'f3').includes('dest'), 'no dests shown without a selection');
  });
});

describe('words', () => {
  const state = S.createState({ ...JUNGLE,  position: '7/7/2r4/7/7/3T3/7/7/7', lang: 'en' });

  test('square labels in English', () => {
    assert.equal(S.squareLabel(state, 'd4'), 'd4, bridge, red tiger 虎, strength 6');
    assert.equal(S.squareLabel(state, 'c9'), 'c9, blue trap, empty');
    assert.equal(S.squareLabel(state, 'c7'), 'c7, blue rat 鼠, strength 1');
    assert.equal(S.squareLabel(state, 'b5'), 'b5, water, empty');
    assert.equal(S.squareLabel(state, 'd1'), 'd1, red den, empty');
  });

  test('square labels in Chinese', () => {
    const zh = S.configure(state, { lang: 'zh' });
    assert.equal(S.squareLabel(zh, 'd4'), 'd4，桥，红方虎，战力6');
    assert.equal(S.squareLabel(zh, 'c9'), 'c9，蓝方陷阱，空');
    assert.equal(S.squareLabel(zh, 'e5'), 'e5，小河，空');
  });

  test('the wolf can be called fox (狐) and ranks can change', () => {
    const fox = S.createState({ ...JUNGLE,  position: '7/7/7/7/3w3/7/7/7/7', lang: 'en', wolfName: 'fox', ranks: { wolf: 3, dog: 4 } });
    assert.equal(S.squareLabel(fox, 'd5'), 'd5, bridge, blue fox 狐, strength 3');
    assert.equal(pieceChar('wolf', 'fox'), '狐');
    assert.equal(pieceChar('wolf', 'wolf'), '狼');
    assert.equal(fox.ranks.dog, 4);
    assert.equal(fox.ranks.elephant, 8);
    assert.throws(() => S.createState({ ...JUNGLE,  ranks: { unicorn: 9 } }), /unknown animal "unicorn"/);
  });

  test('labels mention selection, destinations, captures, last move and threats', () => {
    let s = S.createState({ ...JUNGLE, 
      position: '7/7/7/7/7/7/7/2wL3/7', movableColor: 'red', lang: 'en', dests: { d2: ['c2', 'd3'] },
      lastMove: ['b2', 'c2'], threats: ['d2'],
    });
    s = S.clickSquare(s, 'd2').state;
    assert.equal(S.squareLabel(s, 'd2'), 'd2, red trap, red lion 狮, strength 7, selected, threatened');
    assert.equal(S.squareLabel(s, 'c2'), 'c2, blue wolf 狼, strength 4, capture, last move');
    assert.equal(S.squareLabel(s, 'd3'), 'd3, empty, legal move');
  });

  test('announcements', () => {
    let s = S.createState({ ...JUNGLE,  position: START, movableColor: 'red', dests: START_DESTS, lang: 'en' });
    let r = S.clickSquare(s, 'g3');
    assert.equal(S.announce(r.state, r.action), 'Red rat 鼠 on g3 selected. Moves: g4, f3, g2.');
    r = S.clickSquare(r.state, 'g4');
    assert.equal(S.announce(r.state, r.action), 'Red rat 鼠 g3 to g4.');
    s = S.configure(s, { lang: 'zh' });
    r = S.clickSquare(s, 'g3');
    assert.equal(S.announce(r.state, r.action), '已选中红方鼠 g3。可走：g4、f3、g2。');
    assert.equal(S.announce(r.state, { type: 'move', from: 'd2', to: 'c2', piece: { color: 'red', animal: 'lion' }, captured: { color: 'blue', animal: 'wolf' } }),
      '红方狮 d2 走到 c2，吃掉蓝方狼。');
    assert.equal(S.announce(r.state, { type: 'none' }), '');
  });
});

describe('configuration', () => {
  test('unknown options and bad values throw', () => {
    assert.throws(() => S.createState({ ...JUNGLE,  orientatoin: 'red' }), /unknown board option "orientatoin"/);
    assert.throws(() => S.createState({ ...JUNGLE,  orientation: 'white' }), /orientation must be one of "red", "blue"/);
    assert.throws(() => S.createState({ ...JUNGLE,  movableColor: 'white' }), /movableColor/);
    assert.throws(() => S.createState({ ...JUNGLE,  lang: 'fr' }), /lang/);
    assert.throws(() => S.createState({ ...JUNGLE,  wolfName: 'dog' }), /wolfName/);
    assert.throws(() => S.createState({ ...JUNGLE,  lastMove: ['a1'] }), /lastMove/);
    assert.throws(() => S.createState({ ...JUNGLE,  threats: ['x1'] }), /threats/);
    assert.throws(() => S.createState({ ...JUNGLE,  selected: 'k1' }), /selected/);
  });

  test('a selection only stands on a movable piece', () => {
    assert.equal(redToMove({ selected: 'g3' }).selected, 'g3');
    assert.equal(redToMove({ selected: 'a7' }).selected, null);
    assert.equal(redToMove({ selected: 'd5' }).selected, null);
    const s = redToMove({ selected: 'g3' });
    assert.equal(S.configure(s, { movableColor: null }).selected, null);
    assert.equal(S.configure(s, { position: '7/7/7/7/7/7/7/7/7' }).selected, null);
  });

  test('flipping the board moves the default focus along', () => {
    const s = S.createState(JUNGLE);
    assert.equal(S.configure(s, { orientation: 'blue' }).focus, 'g9');
    assert.equal(S.configure({ ...s, focus: 'd4' }, { orientation: 'blue' }).focus, 'd4');
  });

  test('animation settings', () => {
    const s = S.createState({ ...JUNGLE,  animation: { duration: 500 } });
    assert.deepEqual(s.animation, { enabled: true, duration: 500 });
    assert.deepEqual(S.configure(s, { animation: { enabled: false } }).animation, { enabled: false, duration: 500 });
  });

  test('the events option is accepted', () => {
    assert.doesNotThrow(() => S.createState({ ...JUNGLE,  events: { move() {} } }));
  });
});

describe('position diffs (for animation)', () => {
  const before = parsePlacement(START);

  test('a step', () => {
    const after = parsePlacement('l5t/1d3c1/r1p1w1e/7/7/6R/E1W1P2/1C3D1/T5L');
    assert.deepEqual(S.diffPieces(GEO, before, after), { moves: [{ from: 'g3', to: 'g4' }], removed: [], added: [] });
  });

  test('a capture', () => {
    const a = parsePlacement('7/7/7/7/7/7/7/2wL3/7');
    const b = parsePlacement('7/7/7/7/7/7/7/2L4/7');
    assert.deepEqual(S.diffPieces(GEO, a, b, ['d2', 'c2']), { moves: [{ from: 'd2', to: 'c2' }], removed: ['c2'], added: [] });
  });

  test('two identical animals: the hint decides, otherwise the nearest', () => {
    const a = parsePlacement('7/7/7/7/7/7/7/7/R5R');
    const b = parsePlacement('7/7/7/7/7/7/7/R6/6R');
    assert.deepEqual(S.diffPieces(GEO, a, b).moves, [{ from: 'a1', to: 'a2' }]);
    const c = parsePlacement('7/7/7/7/7/7/7/7/1R4R');
    assert.deepEqual(S.diffPieces(GEO, a, c, ['a1', 'b1']).moves, [{ from: 'a1', to: 'b1' }]);
  });

  test('a new position with nothing in common', () => {
    const a = parsePlacement('7/7/7/7/7/7/7/7/R6');
    const b = parsePlacement('7/7/7/7/7/7/7/7/6e');
    assert.deepEqual(S.diffPieces(GEO, a, b), { moves: [], removed: ['a1'], added: ['g1'] });
  });
});

test('zh-Hant names pieces and squares in traditional characters', () => {
  const state = S.createState({ ...JUNGLE,  position: START, lang: 'zh-Hant' });
  assert.equal(pieceChar('lion', 'wolf', 'zh-Hant'), '獅');
  assert.equal(pieceChar('cat', 'wolf', 'zh-Hant'), '貓');
  assert.equal(pieceChar('cat'), '猫');
  assert.equal(pieceChar('wolf', 'fox', 'zh-Hant'), '狐');
  assert.match(S.squareLabel(state, 'd1'), /紅方獸穴/);
  assert.match(S.squareLabel(state, 'g1'), /紅方獅，戰力7/);
});
