// Tests of the piece pictures (pure SVG strings). Run with: node --test tests/client/
import { test } from 'node:test';
import assert from 'node:assert/strict';

import {
  ANIMALS, CHINESE_NAMES, DEFAULT_RANKS, GLYPHS, JUNGLE_PIECES, PIECE_STYLES, pieceSvg,
} from '../../../../src/doushouqi/server/static/games/jungle/pieces.js';

test('every animal has its own drawn face', () => {
  assert.deepEqual(Object.keys(GLYPHS).sort(), [...ANIMALS].sort());
  const drawings = new Set(Object.values(GLYPHS));
  assert.equal(drawings.size, ANIMALS.length);
  for (const glyph of drawings) assert.match(glyph, /^<(path|circle|ellipse)/);
});

test('red pieces are round tokens, blue pieces diamonds', () => {
  for (const animal of ANIMALS) {
    const red = pieceSvg({ color: 'red', animal }, { rank: DEFAULT_RANKS[animal] });
    const blue = pieceSvg({ color: 'blue', animal }, { rank: DEFAULT_RANKS[animal] });
    assert.match(red, /<circle class="tok"/);
    assert.match(blue, /<rect class="tok"[^>]*rotate\(45 50 50\)/);
    for (const svg of [red, blue]) {
      assert.match(svg, /^<svg class="dsq-piece-svg" viewBox="0 0 100 100" aria-hidden="true"/);
      assert.ok(svg.includes(`<text class="char" x="50" y="${svg === red ? 79 : 78.5}">${CHINESE_NAMES[animal]}</text>`), animal);
      assert.ok(svg.includes(`>${DEFAULT_RANKS[animal]}</text></g>`), animal);
      assert.ok(!/href|url\(/.test(svg), 'no external references');
    }
  }
});

test('the wolf shows 狐 when it is called fox, and any rank can be shown', () => {
  assert.match(pieceSvg({ color: 'red', animal: 'wolf' }, { rank: 3, wolfName: 'fox' }), />狐<\/text>.*>3<\/text>/);
  assert.match(pieceSvg({ color: 'blue', animal: 'wolf' }, { rank: 4 }), />狼<\/text>/);
  assert.ok(!pieceSvg({ color: 'blue', animal: 'rat' }).includes('class="rank"'));
});

test('each piece set shows its own mark, and every set the rank', () => {
  const lion = (style) => pieceSvg({ color: 'red', animal: 'lion' }, { rank: 7, style });
  const marks = (svg) => ({
    char: /class="char[ "]/.test(svg), big: svg.includes('char-big'), face: svg.includes('class="glyph"'),
    letter: />L<\/text>/.test(svg),
  });
  assert.deepEqual(marks(lion('characters')), { char: true, big: true, face: false, letter: false });
  assert.deepEqual(marks(lion('pictures')), { char: false, big: false, face: true, letter: false });
  assert.deepEqual(marks(lion('letters')), { char: false, big: false, face: false, letter: true });
  assert.deepEqual(marks(lion('classic')), { char: true, big: false, face: true, letter: false });
  assert.equal(lion(undefined), lion('classic')); // the board's default
  for (const style of PIECE_STYLES) assert.match(lion(style), />7<\/text><\/g><\/svg>$/, style);
  // the letters are the move list's: the leopard is P (panther), not L
  assert.match(pieceSvg({ color: 'blue', animal: 'leopard' }, { style: 'letters' }), />P<\/text>/);
});

test('the piece set is a board option of its own, checked', () => {
  const option = JUNGLE_PIECES.options.pieceStyle;
  assert.equal(option.read(option.initial), 'classic');
  assert.equal(option.read('letters'), 'letters');
  assert.throws(() => option.read('emoji'), TypeError);
  const svg = JUNGLE_PIECES.svg({ color: 'blue', animal: 'cat' }, { lang: 'zh-Hant', pieceStyle: 'characters' });
  assert.match(svg, /class="char char-big"[^>]*>貓<\/text>/);
});
