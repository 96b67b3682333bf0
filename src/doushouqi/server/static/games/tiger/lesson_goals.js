// Whether a learner's move meets a 老虎棋 lesson step's goal (lesson_data.js). The client knows
// no rules: the goal names points, and `before` / `after` are the server's answers
// (`/api/position`) for the positions before and after the move. A jump is a move between
// points two apart on a line (a step joins neighbours), which the points' names tell.

const FILES = 'abcdefghi';

function isJump(from, to) {
  const files = Math.abs(FILES.indexOf(from[0]) - FILES.indexOf(to[0]));
  const ranks = Math.abs(Number(from.slice(1)) - Number(to.slice(1)));
  return Math.max(files, ranks) === 2;
}

/** Whether the side to move in the server's answer `position` has a jump (a capture). */
function canJump(position) {
  return Object.entries(position.dests ?? {}).some(([from, tos]) => tos.some((to) => isJump(from, to)));
}

/** Whether the move from → to meets `goal` (every condition it names must hold); `seat` is the
 * learner's (0 the tiger, 1 the men). */
export function meetsGoal(goal, from, to, before, after, { seat = 0 } = {}) {
  if (goal.from && from !== goal.from) return false;
  if (goal.to && !goal.to.includes(to)) return false;
  if (goal.step && isJump(from, to)) return false;
  if (goal.capture && !isJump(from, to)) return false;
  if (goal.safe && canJump(after)) return false;
  if (goal.win && after.outcome?.winner !== seat) return false;
  return true;
}
