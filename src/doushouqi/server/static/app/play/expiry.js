// Open online games expire: when nobody takes the open seat within the server's lobby wait
// (DOUSHOUQI_LOBBY_WAIT, docs/server.md), the server aborts the game with
// `abort_reason: "lobby_expired"`. This module says how long an invitation stays open (on the
// game page while it waits, and on each lobby entry) and what the page of an expired game shows.
//
// Deadlines (`lobby_deadline`, `expires_at`) are the server's wall-clock seconds; they are
// compared with the server's clock as server_clock.js keeps it, not the device's own, which
// may be off by hours.

import { t } from '../shell/i18n.js';
import { h } from '../shell/dom.js';
import { serverNow } from '../shell/server_clock.js';

export const LOBBY_EXPIRED = 'lobby_expired';
const GAME_TICK_MS = 5000; // the game page's line counts minutes: a few seconds late is fine
const LOBBY_TICK_MS = 1000; // a lobby entry goes as soon as its time is up

/** Seconds from now until `deadline` (server epoch seconds); zero or less once it has passed. */
export function secondsLeft(deadline) {
  return deadline - serverNow();
}

/** "25 minutes" (`long`) or "25 min" (short), "1 h 5 min" from an hour on; counted up, so
 * that a fresh 30-minute invitation reads 30 (callers say "under a minute" themselves). */
function duration(seconds, long) {
  const minutes = Math.ceil(seconds / 60);
  if (minutes >= 60) {
    const hours = Math.floor(minutes / 60);
    const rest = minutes % 60;
    return rest ? t('expiry.hoursMinutes', { h: hours, m: rest }) : t('expiry.hours', { h: hours });
  }
  if (!long) return t('expiry.minutes.short', { n: minutes });
  return minutes === 1 ? t('expiry.minute.long') : t('expiry.minutes.long', { n: minutes });
}

/** Whether `game` (a `state`'s game) ended because nobody joined it in time. */
export function lobbyExpired(game) {
  return game?.status_id >= 25 && game.abort_reason === LOBBY_EXPIRED;
}

// ----- the game page ------------------------------------------------------------------------

/** The invitation's "open for 25 more minutes" line, kept current while the game waits. */
export class InviteExpiry {
  constructor(view) {
    this.view = view;
    this.line = h('p', { class: 'invite-expiry', id: 'invite-expiry', hidden: true });
    this.timer = setInterval(() => this.update(), GAME_TICK_MS);
  }

  update() {
    const deadline = this.view.game?.lobby_deadline;
    const waiting = typeof deadline === 'number' && this.view.game.status_id < 20;
    this.line.hidden = !waiting;
    if (!waiting) return;
    const left = secondsLeft(deadline);
    const text = left < 60 ? t('expiry.game.soon') : t('expiry.game.open', { time: duration(left, true) });
    // Written only when it changes: a screen reader reading the line is not interrupted.
    if (this.line.textContent !== text) this.line.textContent = text;
    this.line.classList.toggle('soon', left < 5 * 60);
  }

  destroy() {
    clearInterval(this.timer);
  }
}

/** The result card's lines for an expired invitation: why, and a way to invite again. */
export function expiredResultLines() {
  return [
    h('span', { class: 'result-reason' }, t('expiry.expired.reason')),
    h('a', { class: 'button primary', id: 'expiry-new-game', href: '#/new/online' }, t('expiry.expired.create')),
  ];
}

// ----- the lobby ----------------------------------------------------------------------------

function lobbyText(seconds) {
  return seconds < 60 ? t('expiry.lobby.soon') : t('expiry.lobby.left', { time: duration(seconds, false) });
}

/** Whether a lobby entry may still be joined (entries without a deadline always may). */
export function stillOpen(entry) {
  return typeof entry.expires_at !== 'number' || secondsLeft(entry.expires_at) > 0;
}

/** A lobby entry's "12 min left", which `LobbyExpiry` keeps current. */
export function timeLeftLabel(entry) {
  if (typeof entry.expires_at !== 'number') return null;
  const at = new Date(entry.expires_at * 1000);
  return h('time', { class: 'lobby-expiry', datetime: at.toISOString(), dataset: { expires: entry.expires_at } },
    lobbyText(secondsLeft(entry.expires_at)));
}

/** Counts down the lobby's labels every second and takes an entry off the list when its time
 * is up, without waiting for the next refresh; `empty()` makes the "no games" line. */
export class LobbyExpiry {
  constructor(list, empty) {
    this.list = list;
    this.empty = empty;
    this.timer = setInterval(() => this.tick(), LOBBY_TICK_MS);
  }

  tick() {
    for (const label of this.list.querySelectorAll('[data-expires]')) {
      const left = secondsLeft(Number(label.dataset.expires));
      if (left <= 0) {
        label.closest('li')?.remove();
        continue;
      }
      const text = lobbyText(left);
      if (label.textContent !== text) label.textContent = text;
    }
    if (!this.list.children.length) this.list.replaceChildren(this.empty());
  }

  destroy() {
    clearInterval(this.timer);
  }
}
