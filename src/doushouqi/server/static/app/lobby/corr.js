// Correspondence games (days per move): the time controls offered for them, their clocks in
// days and hours, and the your-turn page (#/correspondence): every game in progress where it is
// the reader's move, the most urgent first, each counting down to its deadline.

import { t, plural, playerName } from '../shell/i18n.js';
import { api, sessionPlayer } from '../shell/api.js';
import { h, pageHead, replaceChanged } from '../shell/dom.js';
import { noteServerTime, serverNow } from '../shell/server_clock.js';
import { pageCheck } from '../shell/navigation.js';
import { sideToken } from '../shell/site_games.js';

/** The correspondence controls the new-game page offers: N days for each move. */
export const CORR_PRESETS = ['1d', '2d', '3d', '7d'];
const DAY = 86400;
const REFRESH_MS = 30000;

/** Whether a time control (as the server writes it) is a correspondence one ("3d"). */
export function isCorrespondence(control) {
  return typeof control === 'string' && /^\d+(\.\d+)?d$/.test(control);
}

/** A time control as the new-game menu names it: "每步 3 天" for "3d", else as written. */
export function timeControlLabel(control) {
  if (!control) return t('time.none');
  if (isCorrespondence(control)) return plural('corr.preset', Number(control.slice(0, -1)));
  return control;
}

/** Long times in words ("2 天 3 小时", "5 小时 12 分"); null for under an hour (the clock's own
 * m:ss reads best then). */
export function longTime(seconds) {
  const s = Math.max(0, seconds);
  if (s < 3600) return null;
  const days = Math.floor(s / DAY);
  const hours = Math.floor((s % DAY) / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  return days ? t('corr.left.days', { d: days, h: hours }) : t('corr.left.hours', { h: hours, m: minutes });
}

function timeLeft(deadline) {
  if (deadline === null || deadline === undefined) return t('corr.noDeadline');
  const left = deadline - serverNow();
  if (left <= 0) return t('corr.due');
  const words = longTime(left);
  if (words) return t('corr.left', { time: words });
  const m = Math.floor(left / 60);
  return t('corr.left', { time: `${m}:${String(Math.floor(left % 60)).padStart(2, '0')}` });
}

function entry(game) {
  const left = h('span', { class: 'corr-left', dataset: { deadline: game.deadline ?? '' } }, timeLeft(game.deadline));
  const opponent = playerName(game.opponent?.name) ?? t('corr.nobody');
  const urgent = game.deadline !== null && game.deadline - serverNow() < 6 * 3600;
  return h('li', { class: `corr-game${urgent ? ' urgent' : ''}`, dataset: { game: game.id } },
    h('a', { class: 'corr-link', href: `#/game/${encodeURIComponent(game.id)}` },
      h('span', { class: `token small ${game.color === 0 ? 'red' : 'blue'}`, 'aria-hidden': 'true' }, sideToken(game.color, game.game_key)),
      h('span', { class: 'corr-info' },
        h('strong', {}, t('corr.vs', { name: opponent })),
        h('small', {}, timeControlLabel(game.time_control), ' · ', t('corr.ply', { n: game.ply }))),
      left));
}

/** `#/correspondence`: the reader's games where it is their move, then those where the
 * opponent is to move. */
export async function yourTurnView(view) {
  const stillHere = pageCheck();
  const list = h('ul', { class: 'corr-list', id: 'corr-list', 'aria-live': 'polite' });
  const waiting = h('ul', { class: 'corr-list waiting', id: 'corr-waiting' });
  const waitingHead = h('h2', { class: 'corr-waiting-title', hidden: true }, t('corr.waiting'));
  view.replaceChildren(h('section', { class: 'page narrow corr-page' },
    pageHead(t('corr.title')),
    h('p', { class: 'corr-intro' }, t('corr.intro')),
    list,
    h('p', { class: 'corr-new' }, h('a', { class: 'button primary', href: '#/new/online', id: 'corr-create' }, t('corr.create'))),
    waitingHead,
    waiting));
  async function refresh() {
    const player = await sessionPlayer().catch(() => null);
    if (!stillHere()) return;
    if (!player) {
      list.replaceChildren(h('li', { class: 'empty' }, t('corr.empty')));
      return;
    }
    const answer = await api('/api/games/my-turn');
    if (!stillHere()) return;
    noteServerTime(answer.server_time);
    replaceChanged(list, answer.games.length ? answer.games.map(entry) : [h('li', { class: 'empty' }, t('corr.empty'))]);
    const others = answer.waiting || [];
    replaceChanged(waiting, others.map(entry));
    waitingHead.hidden = !others.length;
  }
  await refresh();
  const tick = setInterval(() => {
    for (const el of view.querySelectorAll('.corr-left')) {
      el.textContent = timeLeft(el.dataset.deadline === '' ? null : Number(el.dataset.deadline));
    }
  }, 1000);
  const again = setInterval(() => refresh().catch(() => {}), REFRESH_MS);
  return () => { clearInterval(tick); clearInterval(again); };
}
