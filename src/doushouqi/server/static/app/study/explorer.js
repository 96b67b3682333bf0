// The opening explorer (#/explorer?rules=…&min_rating=…): from the games stored on the server,
// each move played in a position with its count and results (Red's wins, draws, Blue's wins)
// as a bar. Click a move in the table or play it on the board to go on; the path back is kept.
// GET /api/explorer answers from an index (server/explorer.py), not from a scan of the games.

import { createBoard } from '../../board/board.js';
import { gameClient } from '../../games/index.js';
import { t, plural, currentLang } from '../shell/i18n.js';
import { moveText } from '../shell/move_text.js';
import { api, fetchRuleSets } from '../shell/api.js';
import { h, pageHead } from '../shell/dom.js';
import { ruleSetLabel } from '../play/rule_options.js';
import { pieceStyle } from '../shell/appearance.js';

const RATINGS = [0, 1200, 1400, 1600, 1800, 2000, 2200, 2400];

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
    this.rules = params.get('rules') || gameClient().defaultRules;
    this.minRating = Number(params.get('min_rating')) || 0;
    // The start (or the position asked for), then each move taken.
    this.first = params.get('fen') || null;
    this.path = [{ fen: this.first, move: null, words: null }];
    this.request = 0;
    this.closed = false;
    this.build();
    this.load();
    fetchRuleSets().then((sets) => this.fillRules(sets)).catch(() => {});
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
          h('div', { class: 'ex-filters' },
            h('label', { class: 'field' }, h('span', {}, t('explorer.rules')), this.el.rules),
            h('label', { class: 'field' }, h('span', {}, t('explorer.rating')), this.el.rating)),
          this.el.path,
          h('div', { class: 'actions' }, this.el.back, this.el.start, this.el.toBoard),
          this.el.total,
          h('table', { class: 'ex-table', id: 'ex-table' },
            h('thead', {}, h('tr', {},
              h('th', { scope: 'col' }, t('explorer.move')),
              h('th', { scope: 'col' }, t('explorer.games')),
              h('th', { scope: 'col' }, t('explorer.results')))),
            this.el.table),
          h('p', { class: 'ex-help' }, t('explorer.help'))))));
    this.board = createBoard(this.el.board, {
      ...gameClient().board, lang: currentLang(), pieceStyle: pieceStyle(), events: { move: (from, to) => this.playMove(`${from}${to}`) },
    });
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
      const position = await api('/api/position', { method: 'POST', body: { rules: this.rules, fen: this.answer.fen, moves: [move] } });
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
    const query = new URLSearchParams({ rules: this.rules, min_rating: String(this.minRating) });
    if (here.fen) query.set('fen', here.fen);
    const address = new URLSearchParams({ rules: this.rules, min_rating: String(this.minRating) });
    if (here.fen) address.set('fen', here.fen); // a reload or a shared link opens this position
    history.replaceState(null, '', `#/explorer?${address}`);
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
    this.el.toBoard.href = `#/analysis?${new URLSearchParams({ fen: answer.fen, rules: answer.rules })}`;
    const color = answer.turn === 1 ? 'blue' : 'red';
    const last = here.move;
    this.board.set({
      position: answer.fen, turnColor: color, movableColor: color, dests: answer.dests,
      lastMove: last ? [last.slice(0, 2), last.slice(2, 4)] : null,
    });
    this.el.board.dataset.ply = String(this.path.length - 1);
    this.el.back.disabled = this.path.length <= 1;
    this.el.path.textContent = this.path.length > 1 ? this.path.slice(1).map((p) => p.words || p.move).join('  ') : t('explorer.atStart');
    this.el.total.textContent = answer.total ? plural('explorer.total', answer.total) : t('explorer.none');
    this.el.table.replaceChildren(...answer.moves.map((m) => this.row(m)));
  }

  row(move) {
    const [red, draw, blue] = resultShares(move);
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
        h('span', { class: 'ex-bar', role: 'img', 'aria-label': t('explorer.bar', { red: move.red_wins, draws: move.draws, blue: move.blue_wins }) },
          part('red', red, t('explorer.redWins', { n: move.red_wins })),
          part('draw', draw, t('explorer.draws', { n: move.draws })),
          part('blue', blue, t('explorer.blueWins', { n: move.blue_wins })))));
  }
}
