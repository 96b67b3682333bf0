// Tests of 老虎棋's piece sets (pure SVG strings). Run with: node --test tests/client/
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { PIECE_STYLES, TIGER_PIECES, pieceSvg } from '../../../../src/doushouqi/server/static/games/tiger/pieces.js';

const tiger = { color: 'red', kind: 'tiger' };
const man = { color: 'blue', kind: 'man' };

test('the same four piece sets as Jungle, each drawing the tiger and a man apart', () => {
  assert.deepEqual([...PIECE_STYLES], ['characters', 'pictures', 'letters', 'classic']);
  for (const style of PIECE_STYLES) {
    const [t, m] = [pieceSvg(tiger, { style }), pieceSvg(man, { style })];
    assert.notEqual(t, m, style);
    assert.match(t, /class="ear"/, style); // the tiger keeps its ears in every set
    assert.ok(!/href|url\(/.test(t + m), 'no external references');
  }
});

test('characters 虎 人, pictures a face and a figure, letters T M', () => {
  assert.match(pieceSvg(tiger, { style: 'characters' }), />虎<\/text>/);
  assert.match(pieceSvg(man, { style: 'characters' }), />人<\/text>/);
  const face = pieceSvg(tiger, { style: 'pictures' });
  assert.ok(face.includes('class="whisker"') && !face.includes('<text'), face);
  assert.ok(pieceSvg(man, { style: 'pictures' }).includes('class="fig"'));
  assert.match(pieceSvg(tiger, { style: 'letters' }), />T<\/text>/);
  assert.match(pieceSvg(man, { style: 'letters' }), />M<\/text>/);
  assert.equal(pieceSvg(tiger), pieceSvg(tiger, { style: 'classic' }));
});

test('the piece set is a board option of the Tiger\'s piece set, checked', () => {
  const option = TIGER_PIECES.options.pieceStyle;
  assert.equal(option.read(option.initial), 'classic');
  assert.throws(() => option.read('pictures ') , TypeError);
  assert.match(TIGER_PIECES.svg(man, { pieceStyle: 'letters' }), />M<\/text>/);
});
