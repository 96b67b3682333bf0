// Help while playing, on the game page: a hint (the engine's suggested move, from
// POST /api/analysis) and the threat view (POST /api/position: the animals the opponent could
// capture and the enemy animals one step from the den). The client knows no rules; the
// server says what is attacked, the board component draws it.

import { api } from '../shell/api.js';
import { h } from '../shell/dom.js';
import { t } from '../shell/i18n.js';
import { effectText } from '../study/tablebase_view.js';

const THREATS_KEY = 'doushouqi.threats';
const HINT_MOVETIME = 0.5;

function remembered(key) {
  try { return localStorage.getItem(key) === '1'; } catch { return false; }
}

function remember(key, on) {
  try { localStorage.setItem(key, on ? '1' : '0'); } catch { /* private mode: not remembered */ }
}

/** The board and side to move of a position string, e.g. "l5t/…/T5L w" (the counters aside). */
function boardAndTurn(fen) {
  return fen.split(' ').slice(0, 2).join(' ');
}

/** The hint button and the suggested move in words; the board draws it as an arrow. */
export class HintTool {
  constructor(view) {
    this.view = view;
    this.hint = null; // {fen, move}: the suggestion for the position `fen`
    this.message = null; // {fen, text}: what to say under the button while `fen` stands
    this.asking = null; // the fen being asked about
    this.button = h('button', { type: 'button', id: 'hint', onclick: () => this.ask() }, t('hint.button'));
    this.text = h('p', { class: 'hint-text', id: 'hint-text', hidden: true });
  }

  /** Hints are for the players of a game against the computer or on one screen... */
  offered() {
    const g = this.view.game;
    return Boolean(g && ['vs_ai', 'same_screen'].includes(g.mode) && g.status_id === 20 && this.view.seats.length
      && this.view.has('engine')); // a game the site has a computer player for
  }

  /** ...on a human's turn. */
  available() {
    return this.offered() && this.view.canMoveNow();
  }

  /** The move to draw on the board: only while the position it was found for stands. */
  boardHint() {
    const g = this.view.game;
    if (this.hint && g && this.hint.fen !== g.fen) this.hint = null;
    return this.hint && this.available() ? this.view.gameClient.moveSquares(this.hint.move) : null;
  }

  /** The question for the engine: the game from its start (repetitions matter), or the
   * position alone when the move list is out of step with it. */
  query(fromStart = true) {
    const g = this.view.game;
    const game = g.game_key;
    if (fromStart && g.start_fen) return { game, rules: g.rules, fen: g.start_fen, moves: this.view.moves.map((m) => m.move) };
    return { game, rules: g.rules, fen: g.fen, moves: [] };
  }

  async ask() {
    const g = this.view.game;
    if (!this.available() || this.asking !== null || this.hint?.fen === g.fen) return;
    const fen = g.fen;
    this.asking = fen;
    this.render();
    this.say(t('hint.loading'));
    try {
      const analyse = (fromStart) => api('/api/analysis', { method: 'POST', body: { ...this.query(fromStart), movetime: HINT_MOVETIME, purpose: 'hint' } });
      let found = await analyse(true).catch((error) => (error.status === 422 ? null : Promise.reject(error)));
      if (!found || boardAndTurn(found.fen) !== boardAndTurn(fen)) {
        // The move list does not lead to the position (a missed event): ask about the position.
        found = await analyse(false);
      }
      if (this.view.closed || this.view.game.fen !== fen) return; // the page moved on meanwhile
      if (!found.bestmove) {
        this.say(t('hint.none'));
        return;
      }
      this.hint = { fen, move: found.bestmove };
      const move = this.view.gameClient.moveWords(fen, found.bestmove, this.view.look());
      // A covered endgame: the server answered from the tables (exact), and says so.
      const table = found.source === 'tablebase' ? found.tablebase : null;
      this.say(table ? t('tablebase.hint', { move, effect: effectText(table) }) : t('hint.text', { move }));
    } catch (error) {
      this.say(error.status === 429 ? t('hint.busy') : t('hint.error', { message: error.message }));
      return;
    } finally {
      this.asking = null;
      this.render();
    }
    this.view.render();
  }

  say(text) {
    this.message = { fen: this.view.game.fen, text };
    this.paint();
  }

  /** The message under the button, while the position it is about stands. */
  paint() {
    const m = this.message;
    const text = m && m.fen === this.view.game?.fen && this.available() ? m.text : '';
    if (!text) this.message = null;
    this.text.textContent = text;
    this.text.hidden = !text;
  }

  /** Called by the game page's render: the button (shown all game long, so that nothing jumps
   * about; aria-disabled rather than disabled, which would drop the keyboard focus) and the
   * words of the hint. */
  render() {
    this.button.hidden = !this.offered();
    this.button.setAttribute('aria-disabled', String(!this.available() || this.asking !== null));
    this.paint();
  }
}

/** The "show threats" toggle (remembered), its legend, and the threatened squares. */
export class ThreatView {
  constructor(view) {
    this.view = view;
    this.on = remembered(THREATS_KEY);
    this.squares = [];
    this.shownFor = null; // the position the squares belong to
    this.asked = null;
    this.button = h('button', {
      type: 'button', id: 'threats-toggle', class: 'toggle', 'aria-pressed': String(this.on),
      onclick: () => this.toggle(),
    }, t('threatview.toggle'));
    this.legend = h('div', { class: 'threat-legend', id: 'threat-legend', hidden: true });
  }

  toggle() {
    this.on = !this.on;
    remember(THREATS_KEY, this.on);
    this.button.setAttribute('aria-pressed', String(this.on));
    this.view.render();
  }

  /** In games against the computer or on one screen, and for spectators; not for the players
   * of an online game (it would be help the opponent does not get). */
  available() {
    const g = this.view.game;
    if (!g || g.status_id !== 20 || !this.view.has('threats')) return false; // a game with a threat view
    return g.mode !== 'online' || !this.view.seats.length;
  }

  /** Whose animals to watch: your own when you play one side, else the side to move. */
  perspective() {
    const mine = this.view.myColor();
    return mine ?? this.view.game.turn;
  }

  /** The position asked about: the game's, with the watched side to move. */
  positionKey() {
    const fields = this.view.game.fen.split(' ');
    fields[1] = this.perspective() === 0 ? 'w' : 'b';
    return fields.join(' ');
  }

  /** The squares for the board's `threats` (empty when off or out of date). */
  boardThreats() {
    if (!this.on || !this.available()) return [];
    return this.shownFor === this.positionKey() ? this.squares : [];
  }

  /** Called after each render: ask the server about a new position. */
  update() {
    const shown = this.on && this.available();
    this.button.hidden = !this.available();
    this.legend.hidden = !shown;
    if (!shown) return;
    const key = this.positionKey();
    if (key === this.shownFor || key === this.asked) return;
    this.asked = key;
    this.fetch(key);
  }

  async fetch(key) {
    const g = this.view.game;
    try {
      const found = await api('/api/position', { method: 'POST', body: { game: g.game_key, rules: g.rules, fen: key, moves: [] } });
      if (this.view.closed || this.asked !== key) return; // the page moved on meanwhile
      this.squares = [...found.threats.attacked, ...found.threats.den];
      this.shownFor = key;
      this.describe(key, found.threats);
      this.view.board?.set({ threats: this.boardThreats() });
    } catch (error) {
      if (this.asked === key) this.legend.replaceChildren(h('p', { class: 'error' }, t('threatview.error', { message: error.message })));
    } finally {
      if (this.asked === key) this.asked = null;
    }
  }

  /** The legend: what the marks mean, and the marked animals in words (for every reader). */
  describe(key, threats) {
    const side = this.view.side(this.perspective());
    const game = this.view.gameClient;
    const pieces = game.parsePlacement(key);
    const look = this.view.look();
    const named = (squares) => squares.map((sq) => {
      const piece = pieces.get(sq);
      return piece ? t('threatview.piece', { square: sq, animal: game.kindWord(game.kindOf(piece), look) }) : sq;
    }).join(t('threatview.sep'));
    // Each list behind the mark's swatch, so that the lists say what the marks are; the sentence
    // that explains them is for wide screens and screen readers (on a phone it would push the
    // lists under the fold: game_extras.css).
    const swatch = () => h('span', { class: 'threat-swatch', 'aria-hidden': 'true' });
    const lines = [h('p', { class: 'threat-explain' }, t('threatview.legend', { side }))];
    if (threats.attacked.length) lines.push(h('p', { class: 'threat-list' }, swatch(), t('threatview.attacked', { list: named(threats.attacked) })));
    if (threats.den.length) lines.push(h('p', { class: 'threat-list' }, swatch(), t('threatview.den', { list: named(threats.den) })));
    if (!threats.attacked.length && !threats.den.length) lines.push(h('p', { class: 'threat-list' }, t('threatview.none', { side })));
    this.legend.replaceChildren(...lines);
  }
}
