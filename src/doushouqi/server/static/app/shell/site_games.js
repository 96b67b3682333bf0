// The games this site offers and what it has for each (a computer player, records, lessons …),
// as the server says (`GET /api/site-games`), with what every page that starts a game needs of
// them: a game's name and its sides' names in the reader's language, and the game picker. A
// page never asks "is this Jungle?": it asks whether the game has what the page needs
// (`offered({needs: 'engine'})`), so a new game shows up wherever it fits.

import { api } from './api.js';
import { h } from './dom.js';
import { t } from './i18n.js';
import { DEFAULT_GAME, gameClient } from '../../games/index.js';

let loaded = null;

/** The games offered, in the order to list them: [{key, engine, records, lessons, …}]. Only
 * games the client also knows; the default game alone when the server cannot be asked. */
export async function siteGames() {
  loaded ??= api('/api/site-games')
    .then(({ games }) => games.filter((g) => gameClient(g.key).key === g.key))
    .catch(() => {
      loaded = null; // ask again next time
      return [{ key: DEFAULT_GAME, engine: true, records: true, lessons: true }];
    });
  return loaded;
}

/** The offered games that have `needs` (a capability such as 'engine'), or all of them. */
export async function offered({ needs = null } = {}) {
  return (await siteGames()).filter((g) => !needs || g[needs]);
}

/** A game's name in the reader's language ("Tiger chess", 老虎棋). */
export function gameName(key) {
  return t(`games.${gameClient(key).key}`);
}

/** A seat's name in a game (Red, Blue; 虎方, 人方). */
export function sideName(seat, key) {
  return t(gameClient(key).sideKeys[seat === 1 ? 1 : 0]);
}

/** A seat's one-character token in a game (红, 蓝; 虎, 人) for lists' markers. */
export function sideToken(seat, key) {
  return t(gameClient(key).tokenKeys[seat === 1 ? 1 : 0]);
}

/** "Who moves first" in a game's words, for seat 0 or 1. */
export function firstName(seat, key) {
  return t(gameClient(key).firstKeys[seat === 1 ? 1 : 0]);
}

/** The key to show for `wanted` among `games`: itself when offered, else the first one. */
export function chosenGame(games, wanted) {
  return games.some((g) => g.key === wanted) ? wanted : games[0]?.key ?? DEFAULT_GAME;
}

/**
 * The game picker: one button per game, as a radio group (a phone's thumb reaches each), with
 * the chosen one pressed; `onChange(key)` when another is chosen. Nothing to pick (one game):
 * null, so that a page shows no picker at all.
 */
export function gamePicker(games, selected, onChange, { name = 'game' } = {}) {
  if (games.length < 2) return null;
  return h('div', { class: 'field game-picker', id: `${name}-picker` },
    h('span', { id: `${name}-picker-label` }, t('games.choose')),
    h('div', { class: 'segmented', role: 'radiogroup', 'aria-labelledby': `${name}-picker-label` },
      games.map((g) => h('label', { dataset: { game: g.key } },
        h('input', { type: 'radio', name, value: g.key, checked: g.key === selected,
          onchange: (e) => { if (e.target.checked) onChange(g.key); } }),
        h('span', {}, gameName(g.key))))));
}
