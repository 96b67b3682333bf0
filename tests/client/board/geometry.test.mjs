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

// A point geometry: pieces on the points of a frame with holes (a 3 × 3 grid of points with a
// one-point "nest" above its middle), lines between them, a backdrop that draws them.
import { pointGeometry } from '../../../src/doushouqi/server/static/board/geometry.js';

const POINTS = pointGeometry({
  files: ['a', 'b', 'c'],
  ranks: 4,
  points: ['a1', 'b1', 'c1', 'a2', 'b2', 'c2', 'a3', 'b3', 'c3', 'b4'],
  lines: [['a1', 'b1'], ['b1', 'c1'], ['b1', 'b2'], ['b3', 'b4'], ['a1', 'b2']],
  areas: [{ points: ['b3', 'b4'], className: 'nest' }],
  pointClasses: (p) => (p === 'b4' ? ['nest'] : []),
  pointWords: (p, lang) => (p === 'b4' ? { en: 'nest' }[lang] ?? 'nest' : null),
  label: { en: 'Points board' },
  className: 'dsq-test',
});
const DOT = {
  letters: 'T',
  fromLetter: (ch) => (ch === 'T' ? { color: 'red', kind: 'tiger' } : null),
  letterOf: () => 'T',
  kindOf: (piece) => piece.kind,
  svg: () => '<svg class="dsq-piece-svg"></svg>',
  name: () => 'tiger',
  details: () => [],
};

describe('a point geometry', () => {
  test('only its points are places; the holes are none', () => {
    assert.equal(POINTS.kind, 'points');
    assert.equal(POINTS.squares.length, 10);
    assert.ok(POINTS.isSquare('b4') && !POINTS.isSquare('a4') && !POINTS.isSquare('c4'));
    assert.equal(POINTS.fromScreen(0, 0), null); // a4: a hole
    assert.equal(POINTS.fromScreen(1, 0), 'b4');
    assert.equal(POINTS.squareAtPoint(150, 50, 300, 400), 'b4');
    assert.equal(POINTS.squareAtPoint(50, 50, 300, 400), null);
    assert.deepEqual(POINTS.rowSquares(3), ['b4']);
    assert.deepEqual(POINTS.squareClasses('b4'), ['point', 'nest']);
    assert.throws(() => pointGeometry({ files: ['a'], ranks: 1, points: ['a1'], lines: [['a1', 'a2']] }), RangeError);
  });

  test('a placement lists each rank\'s points only, and reads back', () => {
    const pieces = S.parsePlacement('T/3/1T1/3 t', POINTS, DOT);
    assert.deepEqual([...pieces.keys()].sort(), ['b2', 'b4']);
    assert.equal(S.placementToString(pieces, POINTS, DOT), 'T/3/1T1/3');
    assert.throws(() => S.parsePlacement('1T/3/3/3', POINTS, DOT), S.PlacementError); // the nest row has one point
  });

  test('the backdrop draws every line, the areas and a dot on each point, turned with the board', () => {
    const art = POINTS.backdrop('red');
    assert.equal((art.match(/<line /g) ?? []).length, 5);
    assert.equal((art.match(/class="dsq-line diagonal"/g) ?? []).length, 1);
    assert.equal((art.match(/<circle /g) ?? []).length, 10);
    assert.match(art, /<polygon class="nest" points="150,150 150,50"\/>/);
    assert.match(POINTS.backdrop('blue'), /<polygon class="nest" points="150,250 150,350"\/>/);
  });

  test('the keyboard starts on a point and steps over no hole', () => {
    const state = S.createState({ geometry: POINTS, pieceSet: DOT, position: 'T/3/1T1/3' });
    assert.equal(state.focus, 'a1');
    assert.equal(S.homeSquare(state, 'blue'), 'b4'); // turned: the nest row is at the bottom, c4 a hole
    assert.equal(S.focusStep(POINTS, 'b4', 'ArrowLeft'), 'b4'); // a4 is a hole: stay
    assert.equal(S.focusStep(POINTS, 'b4', 'ArrowDown'), 'b3');
  });
});
