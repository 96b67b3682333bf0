// Accessible mode of the game page (a toggle in its menu, remembered): the move list in full
// words, every new move (the computer's too) read out once in a live region, and a text box
// where a move is typed ("a3a4") and played with Enter. Mistakes are read out as alerts.

import { h } from '../shell/dom.js';
import { t } from '../shell/i18n.js';

const KEY = 'doushouqi.a11y';
const COLORS = ['red', 'blue'];

function remembered() {
  try { return localStorage.getItem(KEY) === '1'; } catch { return false; }
}

export class AccessibleMode {
  constructor(view) {
    this.view = view;
    this.on = remembered();
    this.heard = null; // the ply up to which moves were read out (null: nothing yet)
    this.endHeard = false;
    this.toggle = h('input', { type: 'checkbox', id: 'a11y-toggle', checked: this.on, onchange: (e) => this.switch(e.target.checked) });
    this.live = h('p', { class: 'move-announcer', id: 'move-announcer', 'aria-live': 'polite', 'aria-atomic': 'true' });
    this.input = h('input', {
      id: 'move-input', type: 'text', autocomplete: 'off', autocapitalize: 'none', spellcheck: 'false',
      enterkeyhint: 'go', placeholder: 'a3a4', 'aria-describedby': 'move-help move-error',
    });
    this.error = h('p', { class: 'move-error', id: 'move-error', role: 'alert' });
    this.form = h('form', { class: 'move-form', id: 'move-form', onsubmit: (e) => { e.preventDefault(); this.submit(); } },
      h('label', { for: 'move-input' }, t('a11y.input')),
      h('div', { class: 'row' }, this.input, h('button', { type: 'submit', id: 'move-submit' }, t('a11y.play'))),
      h('p', { class: 'move-help', id: 'move-help' }, t('a11y.help')),
      this.error);
    this.panel = h('div', { class: 'a11y-panel', id: 'a11y-panel', hidden: !this.on }, this.live, this.form);
    this.menuItem = h('label', { class: 'check' }, this.toggle, t('a11y.mode'));
  }

  switch(on) {
    this.on = on;
    try { localStorage.setItem(KEY, on ? '1' : '0'); } catch { /* private mode */ }
    this.panel.hidden = !on;
    this.view.render();
    if (on) this.input.focus();
  }

  /** Called by the game page's render: read out what is new since the last render. */
  render() {
    this.panel.hidden = !this.on;
    const g = this.view.game;
    const moves = this.view.moves;
    const last = moves.length ? moves[moves.length - 1].ply : 0;
    if (this.heard === null || !this.on) {
      // History (on opening the page, or while the mode is off) is not read out.
      this.heard = last;
      this.endHeard = g.status_id >= 25;
      return;
    }
    const news = [];
    if (last < this.heard) news.push(t('a11y.takenBack'));
    for (const m of moves) {
      if (m.ply > this.heard) news.push(t('a11y.announce', { n: m.ply, move: this.words(m) }));
    }
    this.heard = last;
    if (g.status_id >= 25 && !this.endHeard) {
      this.endHeard = true;
      news.push(this.view.resultWords());
    }
    if (news.length) this.say(news.join(' '));
  }

  /** A move of the list in full words. */
  words(m) {
    return this.view.gameClient.moveWords(m.before, m.move, { color: m.color, ...this.view.look() });
  }

  /** The move list's items in accessible mode: numbered by ply, in full words. */
  listItems() {
    return this.view.moves.map((m) => h('li', { class: COLORS[m.color], value: m.ply }, this.words(m)));
  }

  say(text) {
    // The same words twice are changed slightly so that screen readers read them again.
    this.live.textContent = text === this.live.textContent ? `${text}\u00a0` : text;
  }

  fail(text) {
    this.input.setAttribute('aria-invalid', 'true');
    this.error.textContent = text === this.error.textContent ? `${text}\u00a0` : text;
  }

  clearError() {
    this.input.removeAttribute('aria-invalid');
    this.error.textContent = '';
  }

  submit() {
    const view = this.view;
    const g = view.game;
    const text = this.input.value.trim();
    if (!text || !g) return;
    const move = view.gameClient.parseTypedMove(text);
    if (!move) return this.fail(t('a11y.err.format', { text }));
    if (g.status_id >= 25) return this.fail(t('a11y.err.over'));
    if (!view.canMoveNow()) return this.fail(t('a11y.err.turn'));
    const [from, to] = view.gameClient.moveSquares(move);
    const dests = g.dests?.[from];
    if (!dests?.length) return this.fail(t('a11y.err.noPiece', { square: from }));
    if (!dests.includes(to)) {
      return this.fail(t('a11y.err.illegal', { move: `${from}→${to}`, square: from, list: dests.join(t('threatview.sep')) }));
    }
    this.clearError();
    this.input.value = '';
    view.send('move', { move });
    this.input.focus(); // stay in the box for the next move
  }
}
