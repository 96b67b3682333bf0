// When the opponent of an online game leaves: a countdown of their grace period ("对手已离开
// —— 0:42 后可以判胜"), shown in the side column and in the opponent's bar, with the two ways
// out: claim the win once the time is up (the server also ends the game by itself then:
// leaving loses, docs/rules.md 5.2), or call it a draw at any time (`claim_draw`). Not in
// correspondence games, where leaving between moves is how they are played.
//
// And the toasts: a toast never covers a clock. It goes at the bottom of the screen, or at the
// top, or in the middle, whichever touches no clock, and moves again as the page scrolls.

import { t } from '../shell/i18n.js';
import { h } from '../shell/dom.js';
import { serverNow } from '../shell/server_clock.js';
import { isCorrespondence } from '../lobby/corr.js';

function mmss(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

export class OpponentGone {
  constructor(view) {
    this.view = view;
    this.text = h('p', { id: 'gone-text' });
    this.claimWin = h('button', { type: 'button', id: 'claim-victory', class: 'primary', onclick: () => view.send('claim_victory') }, t('result.gone.claimWin'));
    this.claimDraw = h('button', { type: 'button', id: 'claim-draw', onclick: () => view.send('claim_draw') }, t('result.gone.claimDraw'));
    this.el = h('div', { class: 'banner gone', id: 'opponent-gone', hidden: true },
      this.text, h('div', { class: 'row' }, this.claimWin, this.claimDraw));
    this.timer = setInterval(() => this.render(), 250);
  }

  /** When the opponent's grace period ends (server time), or null: nobody of ours is waiting. */
  deadline() {
    const g = this.view.game;
    const mine = this.view.myColor();
    if (!g || g.mode !== 'online' || g.status_id !== 20 || mine === null) return null;
    if (isCorrespondence(g.time_control)) return null;
    const since = (g.disconnected_since || [])[1 - mine];
    if (since === null || since === undefined) return null;
    return since + (g.grace_period ?? 60);
  }

  render() {
    const deadline = this.deadline();
    this.el.hidden = deadline === null;
    const bar = this.view.root.querySelector('.player-conn[data-connected=no]');
    if (deadline === null) {
      if (bar?.dataset.countdown) { delete bar.dataset.countdown; bar.textContent = t('players.disconnected'); }
      return;
    }
    const left = deadline - serverNow();
    const text = left > 0 ? t('result.gone.countdown', { time: mmss(left) }) : t('result.gone.over');
    if (this.text.textContent !== text) this.text.textContent = text;
    this.claimWin.disabled = left > 0;
    if (bar) { // the opponent's bar counts down too: on a phone it is in sight above the board
      bar.dataset.countdown = 'yes';
      bar.textContent = left > 0 ? t('result.gone.bar', { time: mmss(left) }) : t('players.disconnected');
    }
  }

  destroy() {
    clearInterval(this.timer);
  }
}

// ----- toasts -----------------------------------------------------------------------------

function overlaps(a, b) {
  return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
}

function clockBoxes() {
  return [...document.querySelectorAll('.clock')]
    .map((el) => el.getBoundingClientRect())
    .filter((r) => r.width > 0 && r.height > 0);
}

let shown = null; // the toast on screen, placed again as the page scrolls or turns

/** Put the (visible) toast where no clock is: the bottom, else the top, else the first free
 * place going down the screen. */
export function placeToast(toast) {
  shown = toast;
  if (toast.hidden) return;
  const clocks = clockBoxes();
  const free = () => { const box = toast.getBoundingClientRect(); return !clocks.some((c) => overlaps(c, box)); };
  toast.style.top = '';
  toast.style.bottom = '';
  if (free()) return;
  toast.style.bottom = 'auto';
  const height = toast.offsetHeight || 40;
  const top = 58; // under the site's header
  for (let y = top; y + height <= window.innerHeight; y += Math.max(8, height / 2)) {
    toast.style.top = `${y}px`;
    if (free()) return;
  }
  toast.style.top = `${top}px`;
}

const again = () => { if (shown && shown.isConnected && !shown.hidden) placeToast(shown); };
window.addEventListener('scroll', again, { passive: true });
window.addEventListener('resize', again);
