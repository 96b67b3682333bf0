// Tests of the piece pictures (pure SVG strings). Run with: node --test tests/client/
import { test } from 'node:test';
import assert from 'node:assert/strict';

import {
  ANIMALS, CHINESE_NAMES, DEFAULT_RANKS, GLYPHS, pieceSvg,
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
