// A piece drawn by the game's piece pictures, as a decoration (icons on cards, lesson lists,
// avatars): hidden from screen readers, the words stand beside it.

import { h } from './dom.js';
import { currentLang } from './i18n.js';
import { gameClient } from '../../games/index.js';
import { pieceStyle } from './appearance.js';

/** An icon of the piece of `color` and `kind` (an animal in Jungle) of `game`, drawn in the
 * reader's piece set unless `style` names one. */
export function pieceIcon(color, kind, cls = '', game = gameClient(), style = pieceStyle(game)) {
  const span = h('span', { class: `${cls} icon-piece`.trim(), 'aria-hidden': 'true' });
  const inner = h('span', { class: `dsq-piece ${color}` });
  inner.innerHTML = game.pieceSvg(game.pieceOf(color, kind), { lang: currentLang(), style }); // static SVG of a known piece
  span.append(inner);
  return span;
}
