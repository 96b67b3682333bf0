// Jungle (斗兽棋) for the board component: spread into createBoard's config, e.g.
//   createBoard(element, { ...JUNGLE, position, dests, events })

import { JUNGLE_GEOMETRY } from './geometry.js';
import { JUNGLE_PIECES } from './pieces.js';

export const JUNGLE = Object.freeze({ geometry: JUNGLE_GEOMETRY, pieceSet: JUNGLE_PIECES });
