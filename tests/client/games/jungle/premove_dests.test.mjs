// Tests of Jungle's premove destinations: a superset of the legal moves of the side's next
// turn, whatever the opponent plays first. Run with: node --test tests/client/
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';

import { premoveDests } from '../../../../src/doushouqi/server/static/games/jungle/premove_dests.js';
import { JUNGLE_CLIENT } from '../../../../src/doushouqi/server/static/games/jungle/index.js';

const START = 'l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w 0 1';
// Red's 24 legal moves in the start position (docs/rules.md perft depth 1 = 24).
const START_DESTS = {
  a1: ['a2', 'b1'], g1: ['g2', 'f1'], f2: ['f1', 'f3', 'e2', 'g2'], b2: ['b1', 'b3', 'a2', 'c2'],
  g3: ['g4', 'f3', 'g2'], e3: ['d3', 'f3', 'e2'], c3: ['c2', 'b3', 'd3'], a3: ['a4', 'a2', 'b3'],
};

const sorted = (list) => [...list].sort();

describe('premove destinations', () => {
  test('every legal move of the start position is among them', () => {
    const dests = premoveDests(START, 'red');
    for (const [from, tos] of Object.entries(START_DESTS)) {
      for (const to of tos) assert.ok(dests[from].includes(to), `${from}${to}`);
    }
    assert.deepEqual(sorted(Object.keys(dests)), sorted(Object.keys(START_DESTS)));
  });

  test('the seat number names the side too; only that side\'s pieces', () => {
    assert.deepEqual(premoveDests(START, 1), premoveDests(START, 'blue'));
    assert.deepEqual(sorted(Object.keys(premoveDests(START, 'blue'))), ['a7', 'a9', 'b8', 'c7', 'e7', 'f8', 'g7', 'g9']);
    assert.equal(JUNGLE_CLIENT.premoveDests, premoveDests);
  });

  test('squares held by pieces are included: by then the piece may be gone', () => {
    // A red cat on c3 next to its own wolf on d3: each may go where the other stands.
    const dests = premoveDests('7/7/7/7/7/7/2CW3/7/7', 'red');
    assert.deepEqual(sorted(dests.c3), ['b3', 'c2', 'd3']);
    assert.deepEqual(sorted(dests.d3), ['c3', 'd2', 'd4', 'e3']);
  });

  test('only the rat goes into the water', () => {
    assert.deepEqual(sorted(premoveDests('7/7/7/7/7/7/1R5/7/7', 'red').b3), ['a3', 'b2', 'b4', 'c3']);
    assert.deepEqual(sorted(premoveDests('7/7/7/7/7/7/1C5/7/7', 'red').b3), ['a3', 'b2', 'c3']);
    assert.deepEqual(sorted(premoveDests('7/7/7/7/1R5/7/7/7/7', 'red').b5), ['a5', 'b4', 'b6', 'c5']);
  });

  test('the lion and the tiger jump across the lakes, across and along', () => {
    assert.deepEqual(sorted(premoveDests('7/7/7/7/7/7/1L5/7/7', 'red').b3), ['a3', 'b2', 'b7', 'c3']);
    assert.deepEqual(sorted(premoveDests('7/7/7/7/3t3/7/7/7/7', 'blue').d5), ['a5', 'd4', 'd6', 'g5']);
    assert.deepEqual(sorted(premoveDests('7/7/7/7/7/T6/7/7/7', 'red').a4), ['a3', 'a5', 'd4']);
  });

  test("never into the piece's own den; into the opponent's", () => {
    assert.deepEqual(sorted(premoveDests('7/7/7/7/7/7/7/7/2E4', 'red').c1), ['b1', 'c2']);
    assert.deepEqual(sorted(premoveDests('2E4/7/7/7/7/7/7/7/7', 'red').c9), ['b9', 'c8', 'd9']);
    assert.deepEqual(sorted(premoveDests('2e4/7/7/7/7/7/7/7/7', 'blue').c9), ['b9', 'c8']);
  });
});
