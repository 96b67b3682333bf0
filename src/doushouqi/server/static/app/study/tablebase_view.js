// The endgame tables in the pages (GET /api/tablebase): the value of the shown position
// ("Tablebase: Red wins in 17 plies"), on the analysis board every legal move's effect (each
// tappable), and in the replay a "TB" badge on each move that changed the value (a win thrown
// into a draw or a loss). The server probes; the client only words its answer.
//
// DTM is in plies — the moves of both sides — until the game is over on the board (a den
// entered, the last animal taken, or a side without a legal move), with the winner's fastest
// win against the loser's longest defence. It is worded as plies everywhere, never as "moves".

import { api } from '../shell/api.js';
import { h } from '../shell/dom.js';
import { t, plural } from '../shell/i18n.js';
import { moveText } from '../shell/move_text.js';
import { gameClient } from '../../games/index.js';

/** Positions with more animals are not asked about (the shipped tables hold up to 3; a site
 * may add 4-animal tables, and the server says "not covered" for the rest). */
export const TABLE_ANIMALS = 4;
/** Stepping through positions asks only about the one the reader stops at. */
const DEBOUNCE_MS = 200;
const CACHE_SIZE = 400;
/** The most positions of one game the replay asks about (each request counts against the
 * analysis rate limit, which the replay's engine analysis shares). */
const SWEEP_LIMIT = 120;
const SIDES = ['red', 'blue'];
const RANK = { loss: 0, draw: 1, win: 2 };

const cache = new Map(); // `${rules} ${fen}` → Promise of the server's answer (null: no answer)
const known = new Map(); // the same keys → the answer once it has come

/** How many animals a position string has (Infinity when it cannot be read). */
export function animalCount(fen, game = gameClient()) {
  try {
    return game.parsePlacement(String(fen)).size;
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

function keyOf(fen, rules) {
  return `${rules} ${fen}`;
}

/** Whether the tables could cover the position at all (worth a request). */
export function askable(fen, rules) {
  return Boolean(rules) && animalCount(fen) <= TABLE_ANIMALS;
}

/** The answer already here for the position, or undefined. */
export function knownAnswer(fen, rules) {
  return known.get(keyOf(fen, rules));
}

/** The server's answer for the position (cached per position; null when there is none). */
export function probeTable(fen, rules) {
  if (!askable(fen, rules)) return Promise.resolve(null);
  const key = keyOf(fen, rules);
  if (cache.has(key)) return cache.get(key);
  const asked = api(`/api/tablebase?${new URLSearchParams({ fen, rules })}`)
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

/** The value line: "Tablebase: Red wins in 17 plies" / "… draw with best play" / not covered. */
export function valueText(answer) {
  if (!answer || answer.category === 'unknown') return t('tablebase.notCovered');
  if (answer.category === 'draw') return t('tablebase.draw');
  const mover = answer.turn === 1 ? 1 : 0;
  const winner = answer.category === 'win' ? mover : 1 - mover;
  const side = t(`side.${SIDES[winner]}`);
  if (!answer.dtm) return t('tablebase.noMove', { side, loser: t(`side.${SIDES[1 - winner]}`) });
  return t('tablebase.wins', { side, plies: plies(answer.dtm) });
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

/** The value line, and optionally the list of moves with their effects (`onPlay(uci)` on a tap).
 * `show(fen, rules)` asks (debounced, cached), `hide()` clears. */
export class TablebasePanel {
  constructor({ onPlay = null, id = 'tb-panel' } = {}) {
    this.onPlay = onPlay;
    this.timer = null;
    this.wanted = null; // the key of the position shown or on its way
    this.line = h('p', { class: 'tb-line', id: `${id}-line`, role: 'status', title: t('tablebase.explain') });
    this.moves = onPlay ? h('ol', { class: 'tb-moves', id: `${id}-moves`, 'aria-label': t('tablebase.moves') }) : null;
    this.el = h('div', { class: 'tb-panel', id, hidden: true }, this.line, this.moves);
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
    if (!fen || !askable(fen, name)) {
      this.hide();
      return;
    }
    const key = keyOf(fen, name);
    if (key === this.wanted) return;
    clearTimeout(this.timer);
    this.wanted = key;
    const here = knownAnswer(fen, name);
    if (here) {
      this.paint(here);
      return;
    }
    this.el.hidden = false;
    this.el.dataset.category = 'loading';
    this.line.textContent = t('tablebase.loading');
    this.moves?.replaceChildren();
    this.timer = setTimeout(async () => {
      const answer = await probeTable(fen, name);
      if (this.wanted === key) this.paint(answer);
    }, cache.has(key) ? 0 : DEBOUNCE_MS);
  }

  paint(answer) {
    this.el.hidden = false;
    this.el.dataset.category = answer?.category ?? 'unknown';
    this.el.dataset.dtm = answer?.dtm ?? '';
    this.line.textContent = valueText(answer);
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
 * value, found by asking about each position of the game with few enough animals, one after
 * another in the background (a game's endgame is a few dozen positions at most). */
export class ReplayTablebase {
  constructor({ fens, moves, rules, onChanges }) {
    this.fens = fens;
    this.moves = moves;
    this.rules = tableRules(rules);
    this.onChanges = onChanges;
    this.changes = new Map(); // ply → "win.draw" …: the move of that ply changed the value
    this.panel = new TablebasePanel({ id: 'rp-tb' });
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
      if (!askable(before, this.rules)) continue;
      asked++;
      const answer = await probeTable(before, this.rules);
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
