// An animal token drawn by the board component's piece pictures, as a decoration (icons on
// cards, lesson lists, avatars): hidden from screen readers, the words stand beside it.

import { h } from './dom.js';
import { currentLang } from './i18n.js';
import { pieceSvg } from '../../games/jungle/pieces.js';

export function pieceIcon(color, animal, cls = '') {
  const span = h('span', { class: `${cls} icon-piece`.trim(), 'aria-hidden': 'true' });
  const inner = h('span', { class: `dsq-piece ${color}` });
  inner.innerHTML = pieceSvg({ color, animal }, { lang: currentLang() }); // static SVG of a known animal
  span.append(inner);
  return span;
}
