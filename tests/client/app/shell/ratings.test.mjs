// Tests of how a rating is shown (ratings.js): a provisional one with a "?". Run with:
// node --test tests/client/
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { SPEEDS, ratingText } from '../../../../src/doushouqi/server/static/app/shell/ratings.js';

test('a provisional rating is marked with a question mark, a settled one is not', () => {
  assert.equal(ratingText({ rating: 1500, rd: 350, provisional: true }), '1500?');
  assert.equal(ratingText({ rating: 1712.6, rd: 60, provisional: false }), '1713');
});

test('no rating shows nothing', () => {
  assert.equal(ratingText(null), '');
  assert.equal(ratingText({}), '');
});

test('the speeds come fastest first, as the server lists them', () => {
  assert.deepEqual([...SPEEDS], ['bullet', 'blitz', 'rapid', 'classical', 'correspondence']);
});
