// 老虎棋's board for the board component (docs/tiger.md 1): the 81 points where the lines of an
// 8 × 8 grid of squares cross (files a–i, ranks 1–9, the men's side at rank 1) and the tiger's
// nest (虎巢) on top, a 2 × 2 block of squares over the middle of the upper edge whose points are
// d9 e9 f9, d10 e10 f10, d11 e11 f11: 87 points. Pieces stand on the points; the lines are
// drawn between them. Which diagonals are lines is the rule option `diagonals` (none, nest,
// all), so there is one geometry per value: `tigerGeometry(diagonals)`.

import { pointGeometry } from '../../board/geometry.js';

export const FILES = Object.freeze(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i']);
export const RANKS = 11;
const NEST_FILES = Object.freeze(['d', 'e', 'f']);

/** Every point: the board's 81, then the nest's six above rank 9. */
export const POINTS = Object.freeze([
  ...Array.from({ length: 9 }, (_, r) => FILES.map((f) => `${f}${r + 1}`)).flat(),
  ...[10, 11].flatMap((r) => NEST_FILES.map((f) => `${f}${r}`)),
]);
const KNOWN = new Set(POINTS);
/** The nest's nine points (d9 e9 f9 are shared with the board). */
export const NEST = Object.freeze(new Set([9, 10, 11].flatMap((r) => NEST_FILES.map((f) => `${f}${r}`))));

/** The values of the rule option `diagonals`. */
export const DIAGONALS = Object.freeze(['none', 'nest', 'all']);

const at = (file, rank) => {
  const name = FILES[file] === undefined ? null : `${FILES[file]}${rank}`;
  return KNOWN.has(name) ? name : null;
};

/** Whether the square with lower-left corner (file, rank) is one of the board's or the nest's. */
function isSquare(file, rank) {
  return (file >= 0 && file <= 7 && rank >= 1 && rank <= 8) || ((file === 3 || file === 4) && (rank === 9 || rank === 10));
}

/** The lines under `diagonals`: every orthogonal segment between neighbouring points, and the
 * diagonals of the nest's squares ('nest') or of every square ('all'). */
export function linesOf(diagonals = 'none') {
  const lines = [];
  for (const point of POINTS) {
    const file = FILES.indexOf(point[0]);
    const rank = Number(point.slice(1));
    for (const [df, dr] of [[1, 0], [0, 1]]) {
      const other = at(file + df, rank + dr);
      if (other) lines.push([point, other]);
    }
    if (diagonals === 'none') continue;
    for (const df of [1, -1]) {
      const other = at(file + df, rank + 1);
      const corner = Math.min(file, file + df);
      const wanted = diagonals === 'all' || rank >= 9;
      if (other && wanted && isSquare(corner, rank)) lines.push([point, other]);
    }
  }
  return lines;
}

const POINT_WORDS = { en: 'nest', zh: '虎巢', 'zh-Hant': '虎巢' };

const geometries = new Map();

/** The board under a `diagonals` option (an unknown value reads as 'none'). */
export function tigerGeometry(diagonals = 'none') {
  const key = DIAGONALS.includes(diagonals) ? diagonals : 'none';
  if (!geometries.has(key)) {
    geometries.set(key, pointGeometry({
      files: FILES,
      ranks: RANKS,
      points: POINTS,
      lines: linesOf(key),
      areas: [{ points: ['d9', 'f9', 'f11', 'd11'], className: 'dsq-nest' }],
      pointClasses: (point) => (NEST.has(point) ? ['nest'] : []),
      pointWords: (point, lang) => (NEST.has(point) ? POINT_WORDS[lang] ?? POINT_WORDS.en : null),
      label: { en: 'Tiger chess board', zh: '老虎棋棋盘', 'zh-Hant': '老虎棋棋盤' },
      className: 'dsq-tiger',
    }));
  }
  return geometries.get(key);
}

export const TIGER_GEOMETRY = tigerGeometry('none');
