// Moves in full words for people who listen rather than look: "红 象 a7→a6 吃 狮",
// "Red elephant a7→a6 takes lion". Built from the position before the move, so the client
// needs no rules: the board component's placement parser says what stands where.

import { DENS } from './geometry.js';
import { parsePlacement } from './pieces.js';
import { t } from '../../app/shell/i18n.js';

const COLORS = ['red', 'blue'];

/** An animal's name in the current language (狐 / fox for the wolf where the rules say so). */
export function animalWord(animal, wolfName = 'wolf') {
  if (animal === 'wolf' && wolfName === 'fox') return t('opt.wolf_name.fox');
  return t(`animal.${animal}`);
}

/**
 * `move` ("a3a4", or "0000" for a timeout pass by `color`, 0 Red / 1 Blue) in words, given the
 * position (or its placement) before it. Falls back to the bare squares when the position does
 * not hold the moving animal (it should always).
 */
export function moveWords(fenBefore, move, { color = 0, wolfName = 'wolf' } = {}) {
  if (move === '0000') return t('a11y.pass', { color: t(`a11y.color.${COLORS[color]}`) });
  const from = move.slice(0, 2);
  const to = move.slice(2, 4);
  let pieces;
  try {
    pieces = parsePlacement(fenBefore);
  } catch {
    pieces = new Map();
  }
  const piece = pieces.get(from);
  if (!piece) return `${t(`a11y.color.${COLORS[color]}`)} ${from}→${to}`;
  const parts = [t('a11y.move', {
    color: t(`a11y.color.${piece.color}`), animal: animalWord(piece.animal, wolfName), from, to,
  })];
  const target = pieces.get(to);
  if (target && target.color !== piece.color) parts.push(t('a11y.capture', { animal: animalWord(target.animal, wolfName) }));
  const enemy = piece.color === 'red' ? 'blue' : 'red';
  if (to === DENS[enemy]) parts.push(t('a11y.den'));
  return parts.join(' ');
}

/** "a3a4", "a3-a4", "A3 a4", "a3→a4" … → "a3a4"; null when the text names no two squares. */
export function parseTypedMove(text) {
  const squares = String(text).toLowerCase().match(/[a-g][1-9]/g);
  const rest = String(text).toLowerCase().replace(/[a-g][1-9]/g, '').replace(/[\s\-–—→>x×:,.]/g, '');
  if (!squares || squares.length !== 2 || rest) return null;
  return squares.join('');
}
