// The opening explorer (#/explorer?game=…&rules=…&min_rating=…&rated=…): from the games
// played on the server between people, each move played in a position with its count and
// results (the first side's wins, draws, the second side's wins) as a bar. Click a move in the
// table or play it on the board to go on; the path back is kept. Filters: the game (every game
// the site offers), its rule set, the players' average rating, rated or casual games.
// GET /api/explorer answers from an index (server/explorer/), not from a scan of the games.

import { createBoard } from '../../board/board.js';
import { DEFAULT_GAME, gameClient } from '../../games/index.js';
import { t, plural, currentLang } from '../shell/i18n.js';
import { moveText } from '../shell/move_text.js';
import { api, fetchRuleSets } from '../shell/api.js';
import { h, pageHead } from '../shell/dom.js';
import { ruleSetLabel } from '../play/rule_options.js';
import { pieceStyle } from '../shell/appearance.js';
import { chosenGame, gamePicker, offered, sideName } from '../shell/site_games.js';

const RATINGS = [0, 1200, 1400, 1600, 1800, 2000, 2200, 2400];
/** The rated filter's choices: the `rated` parameter's value ('' none: both) and its words. */
const RATED = [['', 'explorer.ratedAll'], ['true', 'explorer.ratedOnly'], ['false', 'explorer.casualOnly']];

/** Percentages of a move's results that add up to 100 (the largest remainder rounds up). */
export function resultShares(move) {
  const counts = [move.red_wins, move.draws, move.blue_wins];
  const total = counts.reduce((a, b) => a + b, 0);
  if (!total) return [0, 0, 0];
  const exact = counts.map((c) => (100 * c) / total);
  const shares = exact.map(Math.floor);
  let left = 100 - shares.reduce((a, b) => a + b, 0);
  const order = exact.map((x, i) => [x - Math.floor(x), i]).sort((a, b) => b[0] - a[0]);
  for (const [, i] of order) {
    if (left <= 0) break;
    shares[i] += 1;
    left -= 1;
  }
  return shares;
}

/** `#/explorer`. */
export function explorerView(view, params) {
  const page = new Explorer(view, params);
  window.openingExplorer = page; // for tests and the curious
  return () => page.destroy();
}

class Explorer {
  constructor(root, params) {
    this.root = root;
    this.game = gameClient(params.get('game') || DEFAULT_GAME).key;
    this.rules = params.get('rules') || gameClient(this.game).defaultRules;
    this.minRating = Number(params.get('min_rating')) || 0;
    this.rated = RATED.some(([value]) => value === params.get('rated')) ? params.get('rated') : '';
    // The start (or the position asked for), then each move taken.
    this.first = params.get('fen') || null;
    this.path = [{ fen: this.first, move: null, words: null }];
    this.request = 0;
    this.closed = false;
    this.build();
    this.load();
    fetchRuleSets(this.game).then((sets) => this.fillRules(sets)).catch(() => {});
    offered().then((games) => this.fillGames(games)).catch(() => {});
  }

  destroy() {
    this.closed = true;
    this.request++;
    this.board?.destroy();
    if (window.openingExplorer === this) window.openingExplorer = null;
  }

  build() {
    this.el = {
      board: h('div', { class: 'board-box', id: 'board' }),
      rules: h('select', { id: 'ex-rules', onchange: (e) => { this.rules = e.target.value; this.restart(); } },
        h('option', { value: this.rules }, ruleSetLabel(this.rules))),
      rating: h('select', { id: 'ex-rating', onchange: (e) => { this.minRating = Number(e.target.value); this.load(); } },
        ...RATINGS.map((r) => h('option', { value: r, selected: r === this.minRating }, r ? t('explorer.ratingFrom', { rating: r }) : t('explorer.ratingAll')))),
      rated: h('select', { id: 'ex-rated', onchange: (e) => { this.rated = e.target.value; this.load(); } },
        ...RATED.map(([value, key]) => h('option', { value, selected: value === this.rated }, t(key)))),
      games: h('div', { class: 'ex-games', id: 'ex-games' }),
      results: h('th', { scope: 'col', id: 'ex-results-head' }),
      help: h('p', { class: 'ex-help', id: 'ex-help' }),
      path: h('p', { class: 'ex-path', id: 'ex-path' }),
      total: h('p', { class: 'ex-total', id: 'ex-total', role: 'status' }),
      table: h('tbody', { id: 'ex-moves' }),
      back: h('button', { type: 'button', id: 'ex-back', onclick: () => this.back() }, t('explorer.back')),
      start: h('button', { type: 'button', id: 'ex-start', onclick: () => this.restart() }, t('explorer.start')),
      toBoard: h('a', { class: 'button', id: 'ex-to-board' }, t('explorer.toBoard')),
    };
    this.root.replaceChildren(h('section', { class: 'page explorer', id: 'explorer' },
      pageHead(t('explorer.title')),
      h('div', { class: 'game-page ex-layout' },
        h('div', { class: 'board-col' }, this.el.board),
        h('aside', { class: 'side-col' },
          this.el.games,
          h('div', { class: 'ex-filters' },
            h('label', { class: 'field' }, h('span', {}, t('explorer.rules')), this.el.rules),
            h('label', { class: 'field' }, h('span', {}, t('explorer.rating')), this.el.rating),
            h('label', { class: 'field' }, h('span', {}, t('explorer.rated')), this.el.rated)),
          this.el.path,
          h('div', { class: 'actions' }, this.el.back, this.el.start, this.el.toBoard),
          this.el.total,
          h('table', { class: 'ex-table', id: 'ex-table' },
            h('thead', {}, h('tr', {},
              h('th', { scope: 'col' }, t('explorer.move')),
              h('th', { scope: 'col' }, t('explorer.games')),
              this.el.results)),
            this.el.table),
          this.el.help))));
    this.makeBoard(null);
  }

  /** The board of the chosen game, drawn for its rule set's options (老虎棋's lines). */
  makeBoard(ruleOptions) {
    this.board?.destroy();
    const client = gameClient(this.game);
    this.boardKey = `${this.game}:${JSON.stringify(ruleOptions)}`;
    this.el.board.replaceChildren();
    this.board = createBoard(this.el.board, {
      ...(ruleOptions ? client.boardFor(ruleOptions) : client.board), lang: currentLang(), pieceStyle: pieceStyle(),
      events: { move: (from, to) => this.playMove(`${from}${to}`) },
    });
  }

  fillGames(games) {
    if (this.closed) return;
    this.editors = new Set(games.filter((g) => g.editor).map((g) => g.key));
    this.showBoardLink();
    const picker = gamePicker(games, chosenGame(games, this.game), (key) => this.chooseGame(key), { name: 'ex-game' });
    this.el.games.replaceChildren(...(picker ? [picker] : []));
  }

  /** The analysis board sets up positions of the games the site has a position editor for
   * (hidden until the site has said which). */
  showBoardLink() {
    this.el.toBoard.hidden = !this.editors?.has(this.game) || !this.answer;
  }

  chooseGame(key) {
    this.game = gameClient(key).key;
    this.rules = gameClient(this.game).defaultRules;
    this.first = null; // a position of the other game means nothing here
    this.fillRules([{ name: this.rules }]);
    fetchRuleSets(this.game).then((sets) => this.fillRules(sets)).catch(() => {});
    this.restart();
  }

  fillRules(sets) {
    if (this.closed) return;
    const names = sets.map((s) => s.name).filter((n) => !n.includes('('));
    if (!names.includes(this.rules)) names.unshift(this.rules);
    this.el.rules.replaceChildren(...names.map((name) => h('option', { value: name, selected: name === this.rules }, ruleSetLabel(name))));
  }

  restart() {
    this.path = [{ fen: this.first, move: null, words: null }];
    this.load();
  }

  back() {
    if (this.path.length > 1) this.path.pop();
    this.load();
  }

  /** A move from the table (its position is known) or from the board (asked for). */
  async playMove(move) {
    const found = this.answer?.moves.find((m) => m.move === move);
    if (found) {
      this.go(found);
      return;
    }
    try {
      const position = await api('/api/position', { method: 'POST', body: { game: this.game, rules: this.rules, fen: this.answer.fen, moves: [move] } });
      const m = position.moves[0];
      this.path.push({ fen: position.fen, move, words: moveText(m.readable_zh, m.readable_en) });
    } catch { /* refused: the load below puts the board back */ }
    this.load();
  }

  go(move) {
    this.path.push({ fen: move.fen, move: move.move, words: moveText(move.readable_zh, move.readable_en) });
    this.load();
  }

  async load() {
    const request = ++this.request;
    const here = this.path[this.path.length - 1];
    const query = new URLSearchParams({ game: this.game, rules: this.rules, min_rating: String(this.minRating) });
    if (this.rated) query.set('rated', this.rated);
    if (here.fen) query.set('fen', here.fen); // also in the address: a reload or a shared link opens it
    history.replaceState(null, '', `#/explorer?${query}`);
    let answer;
    try {
      answer = await api(`/api/explorer?${query}`);
    } catch (error) {
      if (request !== this.request) return;
      this.el.total.textContent = t('explorer.error', { message: error.message || String(error) });
      return;
    }
    if (request !== this.request || this.closed) return;
    this.answer = answer;
    const client = gameClient(this.game);
    if (this.boardKey !== `${this.game}:${JSON.stringify(answer.rule_options ?? null)}`) this.makeBoard(answer.rule_options ?? null);
    this.el.toBoard.href = `#/analysis?${new URLSearchParams({ game: this.game, fen: answer.fen, rules: answer.rules })}`;
    this.showBoardLink();
    const color = answer.turn === 1 ? 'blue' : 'red';
    const last = here.move;
    this.board.set({
      position: answer.fen, turnColor: color, movableColor: color, dests: answer.dests,
      lastMove: last ? client.moveSquares(last) : null,
    });
    this.el.board.dataset.game = this.game;
    this.el.help.textContent = t('explorer.help', { plies: answer.max_plies, fewest: answer.min_plies });
    this.el.results.textContent = t('explorer.results', { first: sideName(0, this.game), second: sideName(1, this.game) });
    this.el.board.dataset.ply = String(this.path.length - 1);
    this.el.back.disabled = this.path.length <= 1;
    this.el.path.textContent = this.path.length > 1 ? this.path.slice(1).map((p) => p.words || p.move).join('  ') : t('explorer.atStart');
    this.el.total.textContent = answer.total ? plural('explorer.total', answer.total) : t('explorer.none');
    this.el.table.replaceChildren(...answer.moves.map((m) => this.row(m)));
  }

  row(move) {
    const [red, draw, blue] = resultShares(move);
    const [first, second] = [sideName(0, this.game), sideName(1, this.game)];
    const part = (cls, share, label) => {
      if (!share) return null;
      const el = h('span', { class: `ex-bar-part ${cls}`, title: label }, share >= 12 ? `${share}%` : '');
      el.style.width = `${share}%`; // the CSSOM: the page's policy allows no style attributes
      return el;
    };
    return h('tr', { class: 'ex-row', dataset: { move: move.move, count: move.count } },
      h('td', {}, h('button', { type: 'button', class: 'ex-move', onclick: () => this.go(move) }, moveText(move.readable_zh, move.readable_en) || move.move)),
      h('td', { class: 'ex-count' }, String(move.count)),
      h('td', { class: 'ex-results' },
        h('span', { class: 'ex-bar', role: 'img', 'aria-label': t('explorer.bar', { first, second, red: move.red_wins, draws: move.draws, blue: move.blue_wins }) },
          part('red', red, t('explorer.wins', { side: first, n: move.red_wins })),
          part('draw', draw, t('explorer.draws', { n: move.draws })),
          part('blue', blue, t('explorer.wins', { side: second, n: move.blue_wins })))));
  }
}
