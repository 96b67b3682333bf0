// Whether a learner's move meets a lesson step's goal (lesson_data.js). The client knows no
// rules: the goal names squares, and `before` / `after` are the server's answers
// (`/api/position`) for the positions before and after the move.

import { DENS, squareCoords, terrainOf } from './geometry.js';
import { parsePlacement } from './pieces.js';

const OPPONENT_DEN = DENS.blue; // every lesson position has Red, the learner, to move

function isJump(from, to) {
  const a = squareCoords(from);
  const b = squareCoords(to);
  return Math.abs(a.file - b.file) + Math.abs(a.rank - b.rank) > 1;
}

/** Whether the move from → to meets `goal` (every condition it names must hold). */
export function meetsGoal(goal, from, to, before, after) {
  if (goal.from && from !== goal.from) return false;
  if (goal.to && !goal.to.includes(to)) return false;
  if (goal.water && terrainOf(to).kind !== 'water') return false;
  if (goal.capture && parsePlacement(before.fen).get(to)?.color !== 'blue') return false;
  if (goal.jump && !isJump(from, to)) return false;
  if (goal.den && !(to === OPPONENT_DEN && after.outcome?.winner === 0)) return false;
  return true;
}
