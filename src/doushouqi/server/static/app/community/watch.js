// Live games: the Watch page (#/watch, the games in progress from GET /api/games/live, best
// first, refreshed every few seconds, each with a small read-only board) and TV (#/tv: the
// best game in progress on the game page in watch mode; a few seconds after it ends, the next).

import { createBoard } from '../../board/board.js';
import { gameClient } from '../../games/index.js';
import { t, currentLang, playerName, plural } from '../shell/i18n.js';
import { ratingText } from '../shell/ratings.js';
import { api, ensurePlayer } from '../shell/api.js';
import { h, pageHead } from '../shell/dom.js';
import { GameView } from '../play/game.js';
import { ruleSetLabel } from '../play/rule_options.js';
import { pageCheck } from '../shell/navigation.js';
import { gameName } from '../shell/site_games.js';

const REFRESH_MS = 4000;
const TV_POLL_MS = 2000;
const TV_NEXT_MS = 4000; // how long TV stays on a finished game before the next
const FINISHED = 25;

function playerLine(p) {
  if (!p) return h('span', { class: 'watch-player' }, '—');
  return h('span', { class: 'watch-player' }, h('strong', {}, playerName(p.name)), ' ',
    h('small', {}, p.rated ? ratingText(p) : `${p.rating} · ${t('watch.unrated')}`));
}

function gameFacts(g) {
  const facts = [gameName(g.game_key), ruleSetLabel(g.rules), g.time_control || t('watch.noTime'), plural('watch.plies', g.plies), plural('watch.spectators', g.spectators)];
  return facts.join(' · ');
}

/** The Watch page; returns its cleanup. */
export async function watchView(view) {
  const stillHere = pageCheck();
  const list = h('ul', { class: 'watch-list', id: 'watch-list' });
  view.replaceChildren(h('section', { class: 'page watch-page' },
    pageHead(t('watch.title')),
    h('p', {}, h('a', { class: 'button primary', href: '#/tv', id: 'go-tv' }, t('watch.tvLink'))),
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
    const board = createBoard(box, { ...gameClient(g.game_key).boardFor(g.rule_options), position: g.fen, lang: currentLang(), announceMoves: false, animation: { enabled: false } });
    return { item, board, facts, tags };
  };
  async function refresh() {
    const { games } = await api('/api/games/live?limit=30');
    if (!stillHere()) return;
    if (!games.length) {
      list.replaceChildren(h('li', { class: 'empty', id: 'watch-empty' }, t('watch.empty')));
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
  }
  await refresh();
  const timer = setInterval(() => refresh().catch(() => {}), REFRESH_MS);
  return () => { clearInterval(timer); boards.forEach((b) => b.board.destroy()); };
}

/** TV: the best game in progress, followed to its end, then the next; returns its cleanup. */
export async function tvView(view) {
  await ensurePlayer(); // the game page watches as someone (a guest at least)
  const stillHere = pageCheck();
  const note = h('p', { class: 'tv-note', id: 'tv-note', role: 'status' });
  const screen = h('div', { class: 'tv-screen', id: 'tv-screen' });
  view.replaceChildren(h('section', { class: 'page tv-page' }, pageHead(t('watch.tv'), '#/watch'), note, screen));
  let game = null; // the GameView on screen
  let endedAt = null;
  let stopped = false;
  const show = (id) => {
    game?.destroy();
    endedAt = null;
    note.textContent = '';
    game = new GameView(screen, id, { navigate: () => {} }); // a rematch does not take TV along
  };
  async function look() {
    if (stopped || !stillHere()) return;
    const over = game && game.game && game.game.status_id >= FINISHED;
    if (game && !over) return; // following the game on screen
    if (over) {
      endedAt ??= performance.now();
      note.textContent = t('watch.next');
      if (performance.now() - endedAt < TV_NEXT_MS) return;
    }
    const { games } = await api('/api/games/live?limit=2');
    if (stopped || !stillHere()) return;
    const next = games.find((g) => g.id !== game?.id);
    if (next) show(next.id);
    else if (!game) note.textContent = t('watch.tvEmpty');
  }
  await look();
  const timer = setInterval(() => look().catch(() => {}), TV_POLL_MS);
  return () => { stopped = true; clearInterval(timer); game?.destroy(); };
}
