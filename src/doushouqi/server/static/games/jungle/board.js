// Jungle (斗兽棋) for the board component: spread into createBoard's config, e.g.
//   createBoard(element, { ...JUNGLE, position, dests, events })
// Only the board's geometry and piece set, so that a page with a board alone (board/demo.html)
// loads nothing of the app; index.js is everything else the app's pages need of the game.

import { JUNGLE_GEOMETRY } from './geometry.js';
import { JUNGLE_PIECES } from './pieces.js';

export const JUNGLE = Object.freeze({ geometry: JUNGLE_GEOMETRY, pieceSet: JUNGLE_PIECES });
