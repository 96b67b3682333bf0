// Tests of the game page's premove decisions (premoves.js). Run with: node --test tests/client/
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';

import {
  premoveText, premoveVerdict, premovesAllowed,
} from '../../../../src/doushouqi/server/static/app/play/premoves.js';

const STARTED = 20;

function game(extra = {}) {
  return { status_id: STARTED, mode: 'online', time_control: '5+3', ...extra };
}

describe('which games allow premoves', () => {
  test('a started game with a clock, online or against the computer, one seat of ours', () => {
    assert.equal(premovesAllowed(game(), [0]), true);
    assert.equal(premovesAllowed(game({ mode: 'vs_ai' }), [1]), true);
  });

  test('not without a clock, nor in a correspondence game', () => {
    assert.equal(premovesAllowed(game({ time_control: null }), [0]), false);
    assert.equal(premovesAllowed(game({ time_control: '3d' }), [0], { correspondence: true }), false);
  });

  test('not on one screen, not for a spectator, not before the start or after the end', () => {
    assert.equal(premovesAllowed(game({ mode: 'same_screen' }), [0, 1]), false);
    assert.equal(premovesAllowed(game({ mode: 'same_screen' }), [0]), false);
    assert.equal(premovesAllowed(game(), []), false);
    assert.equal(premovesAllowed(game({ status_id: 10 }), [0]), false);
    assert.equal(premovesAllowed(game({ status_id: 30 }), [0]), false);
    assert.equal(premovesAllowed(null, [0]), false);
  });
});

describe('when the turn comes', () => {
  const dests = { g4: ['g5', 'f4', 'g3'], a3: ['a4'] };

  test('a premove among the legal moves is played', () => {
    assert.equal(premoveVerdict(['g4', 'g5'], dests), 'play');
    assert.equal(premoveVerdict(['a3', 'a4'], dests), 'play');
  });

  test('any other is dropped: another destination, a piece that cannot move, no moves at all', () => {
    assert.equal(premoveVerdict(['g4', 'g6'], dests), 'drop');
    assert.equal(premoveVerdict(['b2', 'b3'], dests), 'drop');
    assert.equal(premoveVerdict(['g4', 'g5'], {}), 'drop');
    assert.equal(premoveVerdict(['g4', 'g5'], undefined), 'drop');
  });

  test('the move sent is the server notation', () => {
    assert.equal(premoveText(['g4', 'g5']), 'g4g5');
  });
});
