// The board component knows no game: another grid and other pieces, given by the caller, work
// the same way as Jungle's. Run with: node --test tests/client/
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';

import * as S from '../../../src/doushouqi/server/static/board/state.js';
import { gridGeometry } from '../../../src/doushouqi/server/static/board/geometry.js';

// An 8 × 8 grid (as 老虎棋's) whose corner a8 is special, and a set of two pieces: a tiger (T/t)
// and men (M/m).
const GRID = gridGeometry({
  files: ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'],
  ranks: 8,
  squareClasses: (sq) => (sq === 'a8' ? ['nest'] : ['point']),
  squareWords: (sq, lang) => (sq === 'a8' ? { en: 'nest', zh: '虎穴' }[lang] ?? 'nest' : null),
  squareArt: (sq) => (sq === 'a8' ? '<span class="nest-art"></span>' : ''),
  regions: [{ from: 'a7', to: 'b8', className: 'nest-region', html: '' }],
  label: { en: 'Tiger board', zh: '老虎棋棋盘' },
});
const KINDS = { t: 'tiger', m: 'man' };
const PIECES = {
  letters: 'tm',
  fromLetter: (ch) => (KINDS[ch.toLowerCase()] ? { color: ch === ch.toUpperCase() ? 'red' : 'blue', kind: KINDS[ch.toLowerCase()] } : null),
  letterOf: (piece) => (piece.color === 'red' ? piece.kind[0].toUpperCase() : piece.kind[0]),
  kindOf: (piece) => piece.kind,
  svg: (piece) => `<svg class="dsq-piece-svg"><text>${piece.kind}</text></svg>`,
  name: (piece, { lang }, { capital = false } = {}) => `${capital ? 'The' : 'the'} ${piece.kind}${lang === 'en' ? '' : ' (zh)'}`,
  details: () => [],
};
const both = { geometry: GRID, pieceSet: PIECES };

describe('a geometry of the caller', () => {
  test('its squares, edges and screen places follow its size', () => {
    assert.equal(GRID.squares.length, 64);
    assert.equal(GRID.squares.at(-1), 'h8');
    assert.ok(GRID.isSquare('h8') && !GRID.isSquare('i1') && !GRID.isSquare('a9'));
    assert.deepEqual(GRID.toScreen('a1'), { col: 0, row: 7 });
    assert.deepEqual(GRID.toScreen('a1', 'blue'), { col: 7, row: 0 });
    assert.equal(GRID.squareAtPoint(799, 0, 800, 800), 'h8');
    assert.deepEqual(GRID.edgeLabels().ranks, ['8', '7', '6', '5', '4', '3', '2', '1']);
    assert.deepEqual(GRID.regionArea(0), { colStart: 1, colEnd: 3, rowStart: 1, rowEnd: 3 });
    assert.throws(() => GRID.coords('z9'), /not a square: "z9" \(expected a1 … h8\)/);
  });

  test('a board state on it: placements, classes, labels and keys use its squares and pieces', () => {
    assert.throws(() => S.createState({ pieceSet: PIECES }), /needs a geometry/);
    assert.throws(() => S.createState({ geometry: GRID }), /needs a piece set/);
    const state = S.createState({ ...both, position: 't7/8/8/8/8/8/8/MMMM4', movableColor: 'red', dests: { a1: ['a2'] }, lang: 'en' });
    assert.equal(state.pieces.size, 5);
    assert.deepEqual(state.pieces.get('a8'), { color: 'blue', kind: 'tiger' });
    assert.equal(S.placementToString(state.pieces, GRID, PIECES), 't7/8/8/8/8/8/8/MMMM4');
    assert.throws(() => S.parsePlacement('x7/8/8/8/8/8/8/8', GRID, PIECES), /unknown piece letter "x" \(expected one of TM \/ tm or a digit 1-8\)/);
    assert.deepEqual(S.squareClasses(state, 'a8'), ['sq', 'nest', 'occupied', 'piece-blue']);
    assert.equal(S.squareLabel(state, 'a8'), 'a8, nest, the tiger');
    assert.equal(S.squareLabel(state, 'c3'), 'c3, empty');
    assert.equal(S.words('en', GRID).boardLabel, 'Tiger board');
    assert.equal(state.focus, 'a1');
    assert.equal(S.keyDown(state, 'End').state.focus, 'h1');
    const { state: moved, action } = S.clickSquare(S.clickSquare(state, 'a1').state, 'a2');
    assert.equal(action.type, 'move');
    assert.equal(S.announce(moved, action), 'The man a1 to a2.');
    assert.deepEqual(S.arrowGeometry(GRID, 'a1', 'a2').shaft.x1, 50);
    assert.throws(() => S.configure(state, { geometry: gridGeometry({ files: ['a'], ranks: 1 }) }), /cannot change/);
    assert.throws(() => S.configure(state, { wolfName: 'fox' }), /unknown board option "wolfName"/);
  });
});
