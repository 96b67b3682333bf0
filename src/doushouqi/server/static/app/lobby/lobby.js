// The lobby (#/lobby): the open online games, refreshed every few seconds, each with its time
// left; join one, watch it, or go to a game by its code.

import { t, playerName } from '../shell/i18n.js';
import { api } from '../shell/api.js';
import { h, pageHead, replaceChanged } from '../shell/dom.js';
import { pageCheck } from '../shell/navigation.js';
import { noteServerTime } from '../shell/server_clock.js';
import { LobbyExpiry, stillOpen, timeLeftLabel } from '../play/expiry.js';
import { ruleSetLabel } from '../play/rule_options.js';
import { lobbyRuleChanges } from './lobby_rules.js';
import { timeControlLabel } from './corr.js';
import { gameName, sideName, sideToken, siteGames } from '../shell/site_games.js';
import { ratingText } from '../shell/ratings.js';

export async function lobbyView(view, go) {
  const stillHere = pageCheck();
  const list = h('ul', { class: 'lobby-list', id: 'lobby-list' });
  const code = h('input', { name: 'code', placeholder: t('lobby.code'), autocomplete: 'off', 'aria-label': t('lobby.code') });
  const page = h('section', { class: 'page narrow' },
    pageHead(t('lobby.title')),
    h('div', { class: 'row' },
      h('a', { class: 'button primary', href: '#/new/online', id: 'lobby-create' }, t('lobby.create')),
      h('button', { type: 'button', onclick: () => refresh() }, t('lobby.refresh'))),
    list,
    h('form', { class: 'row code', onsubmit: (e) => { e.preventDefault(); if (code.value.trim()) go(`/game/${code.value.trim()}`); } },
      code, h('button', { type: 'submit' }, t('lobby.go'))));
  view.replaceChildren(page);
  const emptyLine = () => h('li', { class: 'empty' }, t('lobby.empty'));
  const offeredGames = await siteGames(); // a game's name is shown when the site offers more than one
  async function refresh() {
    const answer = await api('/api/lobby');
    if (!stillHere()) return; // the lobby was left while it loaded
    noteServerTime(answer.server_time); // entries count down by the server's clock
    const games = answer.games.filter(stillOpen);
    if (!games.length) {
      list.replaceChildren(emptyLine());
      return;
    }
    replaceChanged(list, games.map((g) => lobbyEntry(g)));
  }
  // One open game: the seat it offers is the one the reader would take ("you play Blue").
  function lobbyEntry(g) {
    const side = `${t('lobby.youPlay')} ${sideName(g.open_color, g.game_key)}`;
    const game = offeredGames.length > 1 ? h('span', { class: 'lobby-game-name', dataset: { game: g.game_key } }, gameName(g.game_key), ' · ') : null;
    // The creator's rating at the game's speed ("1500?" while provisional); none without a clock.
    const rating = g.speed ? ` (${ratingText(g.creator)})` : '';
    const creator = `${t('lobby.by')} ${playerName(g.creator.name)}${rating}`;
    return h('li', { class: 'lobby-game', dataset: { game: g.id } },
      h('span', { class: `token small ${g.open_color === 0 ? 'red' : 'blue'}`, 'aria-hidden': 'true' }, sideToken(g.open_color, g.game_key)),
      h('span', { class: 'lobby-info' },
        h('strong', {}, game, ruleSetLabel(g.rules), ' · ', timeControlLabel(g.time_control)),
        lobbyRuleChanges(g),
        // The side and the creator wrap as wholes (a long name breaks inside itself), never cut off.
        h('small', {},
          h('span', { class: 'lobby-side' }, side), ' · ',
          h('span', { class: 'lobby-creator' }, creator)),
        timeLeftLabel(g)),
      h('span', { class: 'lobby-actions' }, // beside the text; a row of its own on a phone
        // Screen readers hear which game a button is for, not a list of bare "Join"s.
        h('a', { class: 'button primary', href: `#/game/${g.id}?join=1`, 'aria-label': `${t('lobby.join')}: ${creator}, ${side}` }, t('lobby.join')),
        h('a', { class: 'button', href: `#/game/${g.id}`, 'aria-label': `${t('lobby.watch')}: ${creator}` }, t('lobby.watch'))));
  }
  await refresh();
  const timer = setInterval(() => refresh().catch(() => {}), 5000);
  const expiry = new LobbyExpiry(list, emptyLine); // entries whose time is up go at once
  return () => { clearInterval(timer); expiry.destroy(); };
}
