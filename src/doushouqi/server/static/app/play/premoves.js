// Premoves (as on lichess): in a game against a clock, while the opponent is to move, the player
// may choose their next move ahead; it is played the moment their turn comes if it is legal
// then, and dropped otherwise. Legality is not known when it is chosen (the opponent's move
// comes first), so the decision waits for the server's legal moves of the new position. Pure
// decisions, no DOM: own_moves.js keeps the premove and tells the board.

/**
 * Whether a game allows premoves to the player holding `seats`: started, with a clock that runs
 * while a side thinks (not a correspondence game: days per move leave time to think), online or
 * against the computer, and one seat of the player's (not a game on one screen, not a
 * spectator).
 */
export function premovesAllowed(game, seats, { correspondence = false } = {}) {
  if (!game || game.status_id !== 20 || seats.length !== 1) return false;
  if (game.mode !== 'online' && game.mode !== 'vs_ai') return false;
  return Boolean(game.time_control) && !correspondence;
}

/**
 * What to do with a premove [from, to] now that the player is to move, given the server's legal
 * destinations of the new position ({square: [squares]}): 'play' it, or 'drop' it.
 */
export function premoveVerdict(premove, dests) {
  const [from, to] = premove;
  return (dests?.[from] ?? []).includes(to) ? 'play' : 'drop';
}

/** A premove as the move the server takes: 'g3g4'. */
export function premoveText(premove) {
  return premove[0] + premove[1];
}
