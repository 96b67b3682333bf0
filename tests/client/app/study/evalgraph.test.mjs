// Tests of the replay page's evaluation graph arithmetic (no DOM). Run with: node --test tests/client/
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';

import * as G from '../../../../src/doushouqi/server/static/app/study/evalgraph.js';

const RED_TO_MOVE = 'l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w 0 1';
const BLUE_TO_MOVE = 'l5t/1d3c1/r1p1w1e/7/7/E6/2W1P1R/1C3D1/T5L b 1 1';

describe('scores', () => {
  test('cp scores are clipped to ±1500, den scores land on the edges, no score stays null', () => {
    assert.equal(G.graphValue(120), 120);
    assert.equal(G.graphValue(-1499), -1499);
    assert.equal(G.graphValue(2400), G.CP_LIMIT);
    assert.equal(G.graphValue(-2400), -G.CP_LIMIT);
    assert.equal(G.graphValue(G.DEN_SCORE), G.CP_LIMIT);
    assert.equal(G.graphValue(-G.DEN_SCORE), -G.CP_LIMIT);
    assert.equal(G.graphValue(null), null);
    assert.equal(G.graphValue(undefined), null);
    assert.equal(G.graphValue(Number.NaN), null);
  });

  test('den scores are told apart from big material scores', () => {
    assert.ok(G.isDenScore(10000));
    assert.ok(G.isDenScore(-9995));
    assert.ok(!G.isDenScore(2500));
    assert.ok(!G.isDenScore(null));
  });

  test('the side to move is read from the position string', () => {
    assert.equal(G.turnOfFen(RED_TO_MOVE), 'red');
    assert.equal(G.turnOfFen(BLUE_TO_MOVE), 'blue');
    assert.equal(G.turnOfFen('7/7/7/7/7/7/7/7/3L3 r'), 'red');
  });

  test('a finished position scores by the result, others by red_cp, unanalysed ones not at all', () => {
    const over = { bestmove: null, score: null, red_cp: 0 };
    assert.equal(G.positionScore(over, '1-0'), G.DEN_SCORE);
    assert.equal(G.positionScore(over, '0-1'), -G.DEN_SCORE);
    assert.equal(G.positionScore(over, '1/2-1/2'), 0);
    assert.equal(G.positionScore({ bestmove: 'a3a4', score: { cp: -40 }, red_cp: 40, turn: 1 }, '0-1'), 40);
    assert.equal(G.positionScore(null, '1-0'), null);
  });
});

describe('score in words', () => {
  test('from the side that stands better, in pawns with one decimal', () => {
    assert.deepEqual(G.describeScore({ turn: 0, score: { cp: 120 } }), { kind: 'cp', side: 'red', pawns: '1.2' });
    assert.deepEqual(G.describeScore({ turn: 0, score: { cp: -55 } }), { kind: 'cp', side: 'blue', pawns: '0.6' });
    assert.deepEqual(G.describeScore({ turn: 1, score: { cp: 300 } }), { kind: 'cp', side: 'blue', pawns: '3.0' });
    assert.deepEqual(G.describeScore({ turn: 1, score: { cp: -300 } }), { kind: 'cp', side: 'red', pawns: '3.0' });
    assert.deepEqual(G.describeScore({ turn: 0, score: { cp: 3 } }), { kind: 'even' });
  });

  test('a den score names the side that gets in and how soon', () => {
    assert.deepEqual(G.describeScore({ turn: 1, score: { den: 3 } }), { kind: 'den', side: 'blue', moves: 3 });
    assert.deepEqual(G.describeScore({ turn: 1, score: { den: -2 } }), { kind: 'den', side: 'red', moves: 2 });
  });

  test('a finished game and a missing analysis', () => {
    assert.deepEqual(G.describeScore({ turn: 0, score: null, bestmove: null }), { kind: 'over' });
    assert.equal(G.describeScore(null), null);
  });
});

describe('analysis requests', () => {
  const fens = ['F0', 'F1', 'F2', 'F3', 'F4'];
  const base = { rules: { name: 'classic' }, fens, movetime: 0.3 };

  test('the start position and the moves up to the ply', () => {
    const moves = ['a3a4', 'a7a6', 'g3g4', 'g7g6'];
    assert.deepEqual(G.analysisQuery({ ...base, moves, ply: 0 }), { rules: { name: 'classic' }, fen: 'F0', moves: [], movetime: 0.3 });
    assert.deepEqual(G.analysisQuery({ ...base, moves, ply: 3 }).moves, ['a3a4', 'a7a6', 'g3g4']);
    assert.equal(G.analysisQuery({ ...base, moves, ply: 3 }).fen, 'F0');
  });

  test('passes stay in the history', () => {
    const moves = ['a3a4', '0000', 'g3g4', '0000'];
    assert.deepEqual(G.analysisQuery({ ...base, moves, ply: 4 }).moves, moves);
    assert.equal(G.analysisQuery({ ...base, moves, ply: 4 }).fen, 'F0');
  });
});

describe('geometry', () => {
  test('plies spread across the width, Red up, Blue down, zero in the middle', () => {
    assert.equal(G.xOfPly(0, 11, 600), 0);
    assert.equal(G.xOfPly(10, 11, 600), 600);
    assert.equal(G.xOfPly(5, 11, 600), 300);
    assert.equal(G.xOfPly(0, 1, 600), 300);
    assert.equal(G.yOfValue(0, 150, 4), 75);
    assert.equal(G.yOfValue(G.CP_LIMIT, 150, 4), 4);
    assert.equal(G.yOfValue(-G.CP_LIMIT, 150, 4), 146);
  });

  test('a click maps back to the nearest ply, clamped to the graph', () => {
    assert.equal(G.plyAtFraction(0, 34), 0);
    assert.equal(G.plyAtFraction(1, 34), 33);
    assert.equal(G.plyAtFraction(0.5, 34), 17); // 16.5 rounds up
    assert.equal(G.plyAtFraction(0.49, 34), 16);
    assert.equal(G.plyAtFraction(-0.2, 34), 0);
    assert.equal(G.plyAtFraction(1.7, 34), 33);
    assert.equal(G.plyAtFraction(0.7, 1), 0);
  });

  test('the shape has one dot per known score and breaks the line at unknown ones', () => {
    const shape = G.graphShape([0, 1500, null, -10000, 750], { width: 400, height: 100, pad: 0, current: 3 });
    assert.equal(shape.zeroY, 50);
    assert.deepEqual(shape.dots.map((d) => [d.ply, d.x, d.y, d.den]), [
      [0, 0, 50, false], [1, 100, 0, false], [3, 300, 100, true], [4, 400, 25, false],
    ]);
    assert.equal(shape.line, 'M0 50L100 0M300 100L400 25');
    assert.equal(shape.area, 'M0 50L0 50L100 0L100 50ZM300 50L300 100L400 25L400 50Z');
    assert.equal(shape.currentX, 300);
  });

  test('nothing analysed yet: no dots, empty paths', () => {
    const shape = G.graphShape([null, null, null], { width: 600, height: 150 });
    assert.deepEqual(shape.dots, []);
    assert.equal(shape.line, '');
    assert.equal(shape.area, '');
  });
});
