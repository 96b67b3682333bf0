// Jungle's (斗兽棋) board for the board component: 7 × 9 squares a1 … g9, two lakes of water with
// three land bridges, three traps around each side's den (docs/rules.md 2). What the squares
// are is said here; how they look is geometry.css.

import { gridGeometry } from '../../board/geometry.js';

export const COLORS = Object.freeze(['red', 'blue']);

export const WATER = Object.freeze(new Set(['b4', 'c4', 'b5', 'c5', 'b6', 'c6', 'e4', 'f4', 'e5', 'f5', 'e6', 'f6']));
/** The two lakes as [lower-left, upper-right] corners (for drawing each as one region). */
export const LAKES = Object.freeze([['b4', 'c6'], ['e4', 'f6']]);
/** The three land bridges (三座桥) between and beside the lakes. */
export const BRIDGES = Object.freeze(new Set(['a4', 'a5', 'a6', 'd4', 'd5', 'd6', 'g4', 'g5', 'g6']));
export const TRAPS = Object.freeze({ red: Object.freeze(['c1', 'e1', 'd2']), blue: Object.freeze(['c9', 'e9', 'd8']) });
export const DENS = Object.freeze({ red: 'd1', blue: 'd9' });

/** Terrain of a square: {kind: 'land'|'water'|'bridge'|'trap'|'den', side: 'red'|'blue'|null}. */
export function terrainOf(name) {
  JUNGLE_GEOMETRY.coords(name); // validates
  if (WATER.has(name)) return { kind: 'water', side: null };
  if (BRIDGES.has(name)) return { kind: 'bridge', side: null };
  for (const side of COLORS) {
    if (DENS[side] === name) return { kind: 'den', side };
    if (TRAPS[side].includes(name)) return { kind: 'trap', side };
  }
  return { kind: 'land', side: null };
}

/** The lake a water square belongs to (0 or 1), or -1. */
export function lakeOf(name) {
  if (!WATER.has(name)) return -1;
  return JUNGLE_GEOMETRY.coords(name).file < 3 ? 0 : 1;
}

/** Terrain classes of a square: its kind, its side's, and (on land and traps) the checkering. */
function squareClasses(name) {
  const { kind, side } = terrainOf(name);
  const classes = [kind];
  if (side) classes.push(`side-${side}`);
  if (kind === 'land' || kind === 'trap') {
    const { file, rank } = JUNGLE_GEOMETRY.coords(name);
    classes.push((file + rank) % 2 === 0 ? 'dark' : 'light');
  }
  return classes;
}

const SQUARE_WORDS = {
  en: { side: { red: 'red', blue: 'blue' }, water: 'water', bridge: 'bridge', trap: (s) => `${s} trap`, den: (s) => `${s} den` },
  zh: { side: { red: '红方', blue: '蓝方' }, water: '小河', bridge: '桥', trap: (s) => `${s}陷阱`, den: (s) => `${s}兽穴` },
  'zh-Hant': { side: { red: '紅方', blue: '藍方' }, water: '小河', bridge: '橋', trap: (s) => `${s}陷阱`, den: (s) => `${s}獸穴` },
};

/** What a square's accessible label says of its terrain ("blue trap", "water"); null on land. */
function squareWords(name, lang) {
  const w = SQUARE_WORDS[lang] ?? SQUARE_WORDS.en;
  const { kind, side } = terrainOf(name);
  if (kind === 'water' || kind === 'bridge') return w[kind];
  if (kind === 'trap' || kind === 'den') return w[kind](w.side[side]);
  return null;
}

const TERRAIN_WORDS = {
  zh: { trap: '陷阱', den: '兽穴' }, 'zh-Hant': { trap: '陷阱', den: '獸穴' }, en: { trap: 'trap', den: 'den' },
};

// The den: a cave mouth in a rock, drawn once per den square.
const DEN_ICON = '<svg class="sq-icon" viewBox="0 0 40 40" aria-hidden="true" focusable="false">'
  + '<path class="den-rock" d="M3 35C3 20 9 8 20 8S37 20 37 35Z"/>'
  + '<path class="den-mouth" d="M11 35C11 25 14.5 18 20 18S29 25 29 35Z"/>'
  + '<path class="den-grass" d="M2 35.5H38"/></svg>';

/** What is drawn in a square: a den's picture and a den's or trap's name (seen, not read out). */
function squareArt(name, lang) {
  const { kind } = terrainOf(name);
  if (kind !== 'den' && kind !== 'trap') return '';
  const word = `<span class="sq-word">${(TERRAIN_WORDS[lang] ?? TERRAIN_WORDS.en)[kind]}</span>`;
  return `<span class="sq-deco" aria-hidden="true">${kind === 'den' ? DEN_ICON : ''}${word}</span>`;
}

// Ripples on a lake (2 × 3 squares, drawn as one region).
const LAKE_ART = '<svg class="dsq-lake-art" viewBox="0 0 200 300" aria-hidden="true" focusable="false">'
  + [[28, 42], [112, 78], [40, 128], [118, 170], [30, 222], [108, 258]]
    .map(([x, y]) => `<path d="M${x} ${y}q9 -7 18 0t18 0t18 0"/><path d="M${x + 12} ${y + 12}q9 -7 18 0t18 0" class="thin"/>`)
    .join('')
  + '</svg>';

export const JUNGLE_GEOMETRY = gridGeometry({
  files: ['a', 'b', 'c', 'd', 'e', 'f', 'g'],
  ranks: 9,
  squareClasses,
  squareWords,
  squareArt,
  regions: LAKES.map(([from, to]) => ({ from, to, className: 'dsq-lake', html: LAKE_ART })),
  label: { en: 'Jungle board', zh: '斗兽棋棋盘', 'zh-Hant': '鬥獸棋棋盤' },
});

// The squares' names and places, for callers that reason about Jungle's board.
export const { squares: SQUARES, isSquare, coords: squareCoords, toScreen, fromScreen, squareAtPoint } = JUNGLE_GEOMETRY;

/** The grid area (1-based CSS grid lines) covered by a lake in the given orientation. */
export const lakeArea = (index, orientation = 'red') => JUNGLE_GEOMETRY.regionArea(index, orientation);
