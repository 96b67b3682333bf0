// The games the web client knows, by their key (the server's game key). App code reaches a
// game only through here: `gameClient(key)` gives a game's client module (games/<key>/index.js),
// everything the pages need of the game (its board, pieces, words, rule options, lessons).
// Which of them the site offers, and what it has for each (a computer player, puzzles …), is the
// server's answer (`/api/site-games`, app/shell/site_games.js): a game known here but not
// offered is never listed.

import { JUNGLE_CLIENT } from './jungle/index.js';
import { TIGER_CLIENT } from './tiger/index.js';

export const DEFAULT_GAME = 'jungle';

/** In the order a page lists them. */
export const GAMES = Object.freeze({ jungle: JUNGLE_CLIENT, tiger: TIGER_CLIENT });

/** A game's client module; the default game's for a missing or unknown key. */
export function gameClient(key = DEFAULT_GAME) {
  return GAMES[key] ?? GAMES[DEFAULT_GAME];
}
