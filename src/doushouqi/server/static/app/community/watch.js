// Live games: the Watch page (#/watch, the games in progress from GET /api/games/live, best
// first, refreshed every few seconds, each with a small read-only board, filtered by game,
// rule set, speed and rated — the filters kept in the address) and TV (#/tv: the game the
// server features on the game page in watch mode; /ws/tv says which, and tells when it ended
// and the next best took its place).

import { createBoard } from '../../board/board.js';
import { gameClient } from '../../games/index.js';
import { t, currentLang, playerName, plural } from '../shell/i18n.js';
import { ratingText } from '../shell/ratings.js';
import { api, ensurePlayer, fetchRuleSets } from '../shell/api.js';
import { h, pageHead } from '../shell/dom.js';
import { GameView } from '../play/game.js';
import { ruleSetLabel } from '../play/rule_options.js';
import { pageCheck } from '../shell/navigation.js';
import { gameName, offered } from '../shell/site_games.js';
import { pieceStyle } from '../shell/appearance.js';

const REFRESH_MS = 4000;
const TV_NEXT_MS = 3000; // how long TV stays on a finished game before the next
const TV_RETRY_MS = [1000, 2000, 5000, 10000]; // reconnecting /ws/tv
const SPEEDS = ['bullet', 'blitz', 'rapid', 'classical', 'correspondence', 'untimed'];
const FILTERS = ['game', 'rules', 'speed', 'rated'];

function playerLine(p) {
  if (!p) return h('span', { class: 'watch-player' }, '—');
  return h('span', { class: 'watch-player' }, h('strong', {}, playerName(p.name)), ' ',
    h('small', {}, p.rated ? ratingText(p) : `${p.rating} · ${t('watch.unrated')}`));
}

function gameFacts(g) {
  const facts = [gameName(g.game_key), ruleSetLabel(g.rules), g.time_control || t('watch.noTime'), plural('watch.plies', g.plies), plural('watch.spectators', g.spectators)];
  return facts.join(' · ');
}

/** A labelled select of a filter: `choices` are [value, words]; '' is "all". */
function filterSelect(name, label, choices, value, onChange) {
  const select = h('select', { id: `watch-${name}`, name, onchange: () => onChange(select.value) },
    [['', t('watch.filter.any')], ...choices].map(([v, words]) => h('option', { value: v, selected: v === value }, words)));
  return h('label', { class: 'field watch-filter' }, h('span', {}, label), select);
}

/** The filters bar; `filters` is changed in place and `changed()` called on each change. */
async function filterBar(filters, changed) {
  const games = await offered();
  const setsOf = async (keys) => [...new Set((await Promise.all(keys.map((k) => fetchRuleSets(k)))).flat().map((s) => s.name))];
  const bar = h('div', { class: 'watch-filters', id: 'watch-filters', role: 'group', 'aria-label': t('watch.filters') });
  const draw = async () => {
    const names = await setsOf(filters.game ? [filters.game] : games.map((g) => g.key));
    if (filters.rules && !names.includes(filters.rules)) filters.rules = '';
    const set = (name) => (value) => { filters[name] = value; if (name === 'game') draw(); changed(); };
    bar.replaceChildren(
      games.length > 1 ? filterSelect('game', t('watch.filter.game'), games.map((g) => [g.key, gameName(g.key)]), filters.game, set('game')) : null,
      filterSelect('rules', t('watch.filter.rules'), names.map((n) => [n, ruleSetLabel(n)]), filters.rules, set('rules')),
      filterSelect('speed', t('watch.filter.speed'), SPEEDS.map((sp) => [sp, t(`watch.speed.${sp}`)]), filters.speed, set('speed')),
      filterSelect('rated', t('watch.filter.rated'), [['true', t('watch.filter.ratedOnly')], ['false', t('watch.filter.casualOnly')]], filters.rated, set('rated')));
  };
  await draw();
  return bar;
}

/** The Watch page; returns its cleanup. */
export async function watchView(view, params = new URLSearchParams()) {
  const stillHere = pageCheck();
  const filters = Object.fromEntries(FILTERS.map((f) => [f, params.get(f) || '']));
  const list = h('ul', { class: 'watch-list', id: 'watch-list' });
  let refresh = async () => {};
  const changed = () => {
    // Kept in the address (a reload or a shared link shows the same games), without a new page.
    const query = new URLSearchParams(Object.entries(filters).filter(([, v]) => v)).toString();
    history.replaceState(null, '', `#/watch${query ? `?${query}` : ''}`);
    refresh().catch(() => {});
  };
  const bar = await filterBar(filters, changed);
  if (!stillHere()) return null;
  view.replaceChildren(h('section', { class: 'page watch-page' },
    pageHead(t('watch.title')),
    h('p', {}, h('a', { class: 'button primary', href: '#/tv', id: 'go-tv' }, t('watch.tvLink'))),
    bar,
    list));
  const boards = new Map(); // game id → {item, board, facts}: kept across refreshes
  const entry = (g) => {
    const box = h('div', { class: 'watch-board', 'aria-hidden': 'true' });
    const facts = h('small', { class: 'watch-facts' });
    const tags = h('span', { class: 'watch-tags' });
    const item = h('li', { class: 'watch-game', dataset: { game: g.id } },
      h('a', { class: 'watch-link', href: `#/game/${encodeURIComponent(g.id)}`, 'aria-label': `${t('watch.open')}: ${g.players.map((p) => (p ? playerName(p.name) : '—')).join(` ${t('watch.vs')} `)}` },
        box,
        h('span', { class: 'watch-info' },
          tags,
          playerLine(g.players[0]), h('span', { class: 'watch-vs' }, t('watch.vs')), playerLine(g.players[1]),
          facts)));
    const board = createBoard(box, { ...gameClient(g.game_key).boardFor(g.rule_options), position: g.fen, lang: currentLang(), pieceStyle: pieceStyle(gameClient(g.game_key)), announceMoves: false, animation: { enabled: false } });
    return { item, board, facts, tags };
  };
  let asked = 0; // refreshes asked for: only the latest one's answer is shown
  refresh = async () => {
    const mine = ++asked;
    const wanted = new URLSearchParams({ limit: '30', ...Object.fromEntries(Object.entries(filters).filter(([, v]) => v)) });
    const { games } = await api(`/api/games/live?${wanted}`);
    // An older answer (the timer's, or the filters before a change) may come after a newer one.
    if (!stillHere() || mine !== asked) return;
    if (!games.length) {
      const filtered = Object.values(filters).some(Boolean);
      list.replaceChildren(h('li', { class: 'empty', id: 'watch-empty' }, t(filtered ? 'watch.emptyFiltered' : 'watch.empty')));
      boards.forEach((b) => b.board.destroy());
      boards.clear();
      return;
    }
    const items = games.map((g) => {
      let shown = boards.get(g.id);
      if (!shown) { shown = entry(g); boards.set(g.id, shown); }
      const last = g.last_move ? gameClient(g.game_key).moveSquares(g.last_move) : null;
      shown.board.set({ position: g.fen, lastMove: last });
      shown.facts.textContent = gameFacts(g);
      shown.tags.replaceChildren(...[g.tournament ? t('watch.tournament') : null, g.rated ? t('watch.rated') : null, t('watch.average', { rating: g.rating })]
        .filter(Boolean).map((word) => h('span', { class: 'watch-tag' }, word)));
      return shown.item;
    });
    for (const [id, shown] of boards) {
      if (!games.some((g) => g.id === id)) { shown.board.destroy(); boards.delete(id); }
    }
    list.replaceChildren(...items);
  };
  await refresh();
  const timer = setInterval(() => refresh().catch(() => {}), REFRESH_MS);
  return () => { clearInterval(timer); boards.forEach((b) => b.board.destroy()); };
}

/** TV: the game the server features, followed to its end, then the next; returns its cleanup. */
export async function tvView(view) {
  await ensurePlayer(); // the game page watches as someone (a guest at least)
  const stillHere = pageCheck();
  const note = h('p', { class: 'tv-note', id: 'tv-note', role: 'status' });
  const screen = h('div', { class: 'tv-screen', id: 'tv-screen' });
  view.replaceChildren(h('section', { class: 'page tv-page' }, pageHead(t('watch.tv'), '#/watch'), note, screen));
  let game = null; // the GameView on screen
  let shownId = null;
  let socket = null;
  let stopped = false;
  let retry = 0;
  let retryTimer = null;
  let nextTimer = null;
  const show = (featured) => {
    clearTimeout(nextTimer);
    nextTimer = null;
    if (!featured) {
      if (!game) note.textContent = t('watch.tvEmpty');
      return;
    }
    if (featured.id === shownId) return;
    const put = () => {
      game?.destroy();
      shownId = featured.id;
      screen.dataset.game = featured.id;
      const [first, second] = featured.players.map((p) => (p ? playerName(p.name) : '—'));
      note.textContent = t('watch.tvNow', { first, second });
      game = new GameView(screen, featured.id, { navigate: () => {} }); // a rematch does not take TV along
    };
    // The game on screen ended: its result stays a moment before the next.
    if (game) {
      note.textContent = t('watch.next');
      nextTimer = setTimeout(put, TV_NEXT_MS);
    } else {
      put();
    }
  };
  const connect = () => {
    if (stopped || !stillHere()) return;
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    const ws = new WebSocket(`${scheme}://${location.host}/ws/tv`);
    socket = ws;
    ws.addEventListener('open', () => { retry = 0; });
    ws.addEventListener('message', (event) => {
      let message;
      try { message = JSON.parse(event.data); } catch { return; }
      if (message?.type === 'featured' && !stopped) show(message.game);
    });
    ws.addEventListener('close', () => {
      if (socket !== ws || stopped) return;
      retryTimer = setTimeout(connect, TV_RETRY_MS[Math.min(retry, TV_RETRY_MS.length - 1)]);
      retry += 1;
    });
  };
  connect();
  return () => {
    stopped = true;
    clearTimeout(retryTimer);
    clearTimeout(nextTimer);
    socket?.close();
    game?.destroy();
  };
}
