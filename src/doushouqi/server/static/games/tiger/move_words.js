// 老虎棋's moves in full words for people who listen rather than look ("Tiger e6→e4, takes the
// man on e5", "虎 e6→e4 吃 e5 的人"), and its move strings as points: a move is its from-point
// and every landing point (docs/tiger.md: `e10e9`, a jump `e6e4`, a multi-jump `e5e7e9`), each
// point a file letter and one or two digits. Built from the position before the move, so the
// client needs no rules: the placement parser says what stands where.

import { t } from '../../app/shell/i18n.js';
import { parsePlacement } from './pieces.js';

const FILES = 'abcdefghi';
const POINT = /[a-i](?:1[01]|[1-9])/g;

/** The points a move string names, in order ('e5e7e9' → ['e5', 'e7', 'e9']); [] for none. */
export function movePoints(move) {
  const text = String(move ?? '').toLowerCase();
  const points = text.match(POINT) ?? [];
  return points.join('') === text ? points : [];
}

/** [from, to] of a move (to: its last landing point), or null for a pass or no move. */
export function moveSquares(move) {
  const points = movePoints(move);
  return points.length >= 2 ? [points[0], points[points.length - 1]] : null;
}

/** The point between two points two steps apart on a line: the man a jump takes. */
function between(a, b) {
  const [fa, ra] = [FILES.indexOf(a[0]), Number(a.slice(1))];
  const [fb, rb] = [FILES.indexOf(b[0]), Number(b.slice(1))];
  const df = fb - fa;
  const dr = rb - ra;
  if (Math.max(Math.abs(df), Math.abs(dr)) !== 2 || (df % 2) || (dr % 2)) return null;
  return `${FILES[fa + df / 2]}${ra + dr / 2}`;
}

/** The men a move takes: the points each of its jumps passes over. */
export function capturedPoints(move) {
  const points = movePoints(move);
  return points.slice(1).map((to, i) => between(points[i], to)).filter(Boolean);
}

/**
 * `move` ('e6e4', or '0000' for a timeout pass by seat `color`) in words, given the position
 * (or its placement) before it.
 */
export function moveWords(fenBefore, move, { color = 0 } = {}) {
  if (move === '0000') return t('a11y.pass', { color: t(color === 0 ? 'side.tiger' : 'side.men') });
  const points = movePoints(move);
  if (points.length < 2) return String(move);
  let pieces;
  try {
    pieces = parsePlacement(fenBefore);
  } catch {
    pieces = new Map();
  }
  const piece = pieces.get(points[0]);
  const who = t(piece?.kind === 'man' || (!piece && color === 1) ? 'tiger.a11y.man' : 'tiger.a11y.tiger');
  const parts = [t('tiger.a11y.move', { piece: who, path: points.join('→') })];
  for (const point of capturedPoints(move)) parts.push(t('tiger.a11y.capture', { point }));
  return parts.join(t('tiger.a11y.separator'));
}

/** "e10e9", "e10-e9", "E10 e9", "e10→e9" … → "e10e9"; null when the text names no move. */
export function parseTypedMove(text) {
  const lower = String(text).toLowerCase();
  const points = lower.match(POINT);
  const rest = lower.replace(POINT, '').replace(/[\s\-–—→>x×:,.]/g, '');
  if (!points || points.length < 2 || rest) return null;
  return points.join('');
}
