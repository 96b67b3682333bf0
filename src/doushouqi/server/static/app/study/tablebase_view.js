// The endgame tables in the pages (GET /api/tablebase?game=…): the value of the shown position
// ("Tablebase: Red wins in 17 plies", "Tablebase: the men win in 2 plies"), on the analysis
// board every legal move's effect (each tappable), and in the replay a "TB" badge on each move
// that changed the value (a win thrown into a draw or a loss). The server probes, through the
// game's own tables; the client only words its answer, in the game's side names. What differs
// between games (how many pieces a covered position has, the words by the winner's side) is
// the game client's `tablebase` (games/<key>/index.js).
//
// DTM is in plies — the moves of both sides — until the game is over on the board (a den
// entered or the last animal taken in Jungle, a man taken or a side hemmed in in 老虎棋), with
// the winner's fastest win against the loser's longest defence. It is worded as plies
// everywhere, never as "moves".

import { api } from '../shell/api.js';
import { h } from '../shell/dom.js';
import { t, plural } from '../shell/i18n.js';
import { moveText } from '../shell/move_text.js';
import { sideName } from '../shell/site_games.js';
import { DEFAULT_GAME, gameClient } from '../../games/index.js';

/** Stepping through positions asks only about the one the reader stops at. */
const DEBOUNCE_MS = 200;
const CACHE_SIZE = 400;
/** The most positions of one game the replay asks about (each request counts against the
 * analysis rate limit, which the replay's engine analysis shares). */
const SWEEP_LIMIT = 120;
const RANK = { loss: 0, draw: 1, win: 2 };

const cache = new Map(); // `${game} ${rules} ${fen}` → Promise of the server's answer (null: none)
const known = new Map(); // the same keys → the answer once it has come

/** What a game's client says of its tables: `pieces` (positions with more are not asked
 * about: the server would say "not covered"), and the keys of the value line's words by the
 * winner's seat (`winsKeys`, `noMoveKeys`) and of its explanation (`explainKey`). */
function tablesOf(game) {
  return gameClient(game).tablebase;
}

/** How many pieces a position string of the game has (Infinity when it cannot be read). */
export function pieceCount(fen, game = DEFAULT_GAME) {
  try {
    return gameClient(game).parsePlacement(String(fen)).size;
  } catch {
    return Infinity;
  }
}

/** The named rule set to ask the tables about, or null: custom options are not sent (their
 * parent's tables could answer for rules the game did not use). */
export function tableRules(rules) {
  const name = typeof rules === 'string' ? rules : rules?.name;
  if (!name || /[\s(]/.test(name)) return null;
  return name;
}

function keyOf(fen, rules, game) {
  return `${gameClient(game).key} ${rules} ${fen}`;
}

/** Whether the game's tables could cover the position at all (worth a request). */
export function askable(fen, rules, game = DEFAULT_GAME) {
  return Boolean(rules) && pieceCount(fen, game) <= tablesOf(game).pieces;
}

/** The answer already here for the position, or undefined. */
export function knownAnswer(fen, rules, game = DEFAULT_GAME) {
  return known.get(keyOf(fen, rules, game));
}

/** The server's answer for the position of the game (cached per position; null when there
 * is none). */
export function probeTable(fen, rules, game = DEFAULT_GAME) {
  if (!askable(fen, rules, game)) return Promise.resolve(null);
  const key = keyOf(fen, rules, game);
  if (cache.has(key)) return cache.get(key);
  const params = new URLSearchParams({ fen, rules, game: gameClient(game).key });
  const asked = api(`/api/tablebase?${params}`)
    .then((answer) => {
      known.set(key, answer);
      return answer;
    })
    .catch(() => {
      cache.delete(key); // a refusal (rate limit, network) is asked again later
      return null;
    });
  cache.set(key, asked);
  while (cache.size > CACHE_SIZE) {
    const oldest = cache.keys().next().value;
    cache.delete(oldest);
    known.delete(oldest);
  }
  return asked;
}

function plies(n) {
  return plural('tablebase.plies', n);
}

/** The value line in the game's words: "Tablebase: Red wins in 17 plies", "Tablebase: the
 * tiger wins in 15 plies" / "… draw with best play" / not covered. */
export function valueText(answer, game = DEFAULT_GAME) {
  if (!answer || answer.category === 'unknown') return t('tablebase.notCovered');
  if (answer.category === 'draw') return t('tablebase.draw');
  const mover = answer.turn === 1 ? 1 : 0;
  const winner = answer.category === 'win' ? mover : 1 - mover;
  const tables = tablesOf(game);
  const side = sideName(winner, game);
  const loser = sideName(1 - winner, game);
  if (!answer.dtm) return t(tables.noMoveKeys[winner], { side, loser });
  return t(tables.winsKeys[winner], { side, loser, plies: plies(answer.dtm) });
}

/** A move's effect for the side that plays it: "wins in 3 plies" / "draws" / "loses in 12 plies". */
export function effectText(move) {
  if (move.category === 'draw') return t('tablebase.move.draw');
  return t(`tablebase.move.${move.category === 'win' ? 'win' : 'loss'}`, { plies: plies(move.dtm ?? 0) });
}

/** The change the played move made, for the position's answer: null, or "win.draw",
 * "win.loss", "draw.loss" (a worse value for the mover than the position had). */
export function valueChange(answer, uci) {
  if (!answer || answer.category === 'unknown') return null;
  const played = answer.moves?.find((m) => m.uci === uci);
  if (!played || !(played.category in RANK)) return null;
  return RANK[played.category] < RANK[answer.category] ? `${answer.category}.${played.category}` : null;
}

/** The value line, and optionally the list of moves with their effects (`onPlay(uci)` on a tap),
 * for positions of `game` (its key). `show(fen, rules)` asks (debounced, cached), `hide()` clears. */
export class TablebasePanel {
  constructor({ onPlay = null, id = 'tb-panel', game = DEFAULT_GAME } = {}) {
    this.onPlay = onPlay;
    this.game = gameClient(game).key;
    this.timer = null;
    this.wanted = null; // the key of the position shown or on its way
    this.line = h('p', { class: 'tb-line', id: `${id}-line`, role: 'status', title: t(tablesOf(game).explainKey) });
    this.moves = onPlay ? h('ol', { class: 'tb-moves', id: `${id}-moves`, 'aria-label': t('tablebase.moves') }) : null;
    this.el = h('div', { class: 'tb-panel', id, hidden: true, dataset: { game: this.game } }, this.line, this.moves);
  }

  destroy() {
    clearTimeout(this.timer);
    this.wanted = null;
  }

  hide() {
    clearTimeout(this.timer);
    this.wanted = null;
    this.el.hidden = true;
    this.el.dataset.category = '';
    this.moves?.replaceChildren();
  }

  show(fen, rules) {
    const name = tableRules(rules);
    if (!fen || !askable(fen, name, this.game)) {
      this.hide();
      return;
    }
    const key = keyOf(fen, name, this.game);
    if (key === this.wanted) return;
    clearTimeout(this.timer);
    this.wanted = key;
    const here = knownAnswer(fen, name, this.game);
    if (here) {
      this.paint(here);
      return;
    }
    this.el.hidden = false;
    this.el.dataset.category = 'loading';
    this.line.textContent = t('tablebase.loading');
    this.moves?.replaceChildren();
    this.timer = setTimeout(async () => {
      const answer = await probeTable(fen, name, this.game);
      if (this.wanted === key) this.paint(answer);
    }, cache.has(key) ? 0 : DEBOUNCE_MS);
  }

  paint(answer) {
    this.el.hidden = false;
    this.el.dataset.category = answer?.category ?? 'unknown';
    this.el.dataset.dtm = answer?.dtm ?? '';
    this.line.textContent = valueText(answer, this.game);
    if (!this.moves) return;
    const moves = answer?.category === 'unknown' ? [] : answer?.moves ?? [];
    this.moves.replaceChildren(...moves.map((m) => {
      const move = moveText(m.readable_zh, m.readable_en) || m.san || m.uci;
      const effect = effectText(m);
      return h('li', { class: `tb-move ${m.category}`, dataset: { uci: m.uci, category: m.category, dtm: m.dtm ?? '' } },
        h('button', { type: 'button', class: 'tb-play', 'aria-label': t('tablebase.play', { move, effect }), onclick: () => this.onPlay(m.uci) },
          h('span', { class: 'tb-move-name' }, move),
          h('span', { class: 'tb-effect' }, effect)));
    }));
  }
}

/** The replay's use: the value line of the current position, and the moves that changed the
 * value, found by asking about each position of the game with few enough pieces, one after
 * another in the background (a game's endgame is a few dozen positions at most). */
export class ReplayTablebase {
  constructor({ fens, moves, rules, onChanges, game = DEFAULT_GAME }) {
    this.fens = fens;
    this.moves = moves;
    this.rules = tableRules(rules);
    this.game = gameClient(game).key;
    this.onChanges = onChanges;
    this.changes = new Map(); // ply → "win.draw" …: the move of that ply changed the value
    this.panel = new TablebasePanel({ id: 'rp-tb', game: this.game });
    this.el = this.panel.el;
    this.closed = false;
    this.sweep();
  }

  destroy() {
    this.closed = true;
    this.panel.destroy();
  }

  render(ply) {
    this.panel.show(this.fens[ply], this.rules);
  }

  async sweep() {
    if (!this.rules) return;
    let asked = 0;
    for (let ply = 1; ply <= this.moves.length && asked < SWEEP_LIMIT; ply++) {
      const before = this.fens[ply - 1];
      if (!askable(before, this.rules, this.game)) continue;
      asked++;
      const answer = await probeTable(before, this.rules, this.game);
      if (this.closed) return;
      const change = valueChange(answer, this.moves[ply - 1]);
      if (change) {
        this.changes.set(ply, change);
        this.onChanges?.();
      }
    }
  }

  /** The badge for the move of `ply` (null when it kept the value or is not covered). */
  badge(ply) {
    const change = this.changes.get(ply);
    if (!change) return null;
    const words = t(`tablebase.changed.${change}`);
    return h('span', { class: `tb-badge ${change.replace('.', '-')}`, title: words, dataset: { change } },
      h('span', { 'aria-hidden': 'true' }, t('tablebase.badge')),
      h('span', { class: 'rp-sr' }, ` (${words})`));
  }
}
