// Where a Jungle piece might go on its side's next turn, for premoves (a move chosen while the
// opponent is still to move). The opponent's move comes first and may change anything near the
// piece, so this is a superset of the legal moves under every rule set: the board offers these
// squares, and the game page plays the premove only if the server's legal moves for the new
// position contain it. Steps to the four neighbours (into water only for the rat, never into the
// piece's own den) and the lion's and tiger's jumps across a lake. Occupied squares are
// included whoever stands there (an own piece may be captured by then, a stronger one may have
// left), and so are jumps a rat in the water would block.

import { COLORS, DENS, JUNGLE_GEOMETRY, WATER } from './geometry.js';
import { parsePlacement } from './pieces.js';

const STEPS = [[0, 1], [0, -1], [1, 0], [-1, 0]];
const JUMPERS = new Set(['lion', 'tiger']);

function premoveTargets(square, piece) {
  const { file, rank } = JUNGLE_GEOMETRY.coords(square);
  const targets = [];
  for (const [df, dr] of STEPS) {
    let to = JUNGLE_GEOMETRY.name(file + df, rank + dr);
    if (!to || to === DENS[piece.color]) continue;
    if (WATER.has(to)) {
      if (piece.animal === 'rat') targets.push(to);
      if (!JUMPERS.has(piece.animal)) continue;
      // Straight across the lake to the first square of land beyond it.
      let [f, r] = [file + df, rank + dr];
      while (to && WATER.has(to)) {
        f += df;
        r += dr;
        to = JUNGLE_GEOMETRY.name(f, r);
      }
      if (to) targets.push(to);
      continue;
    }
    targets.push(to);
  }
  return targets;
}

/**
 * The premove destinations of `color`'s pieces ('red' | 'blue', or the seat 0 | 1) in a
 * position (a placement or a whole position string): {square: [squares]}, as the board's
 * `premoveDests` takes them.
 */
export function premoveDests(position, color) {
  const side = typeof color === 'number' ? COLORS[color] : color;
  const dests = {};
  for (const [square, piece] of parsePlacement(position)) {
    if (piece.color === side) dests[square] = premoveTargets(square, piece);
  }
  return dests;
}
