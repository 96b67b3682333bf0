// The challenge pop-up: someone challenges the player, on whatever page they are. It says who,
// the game, rule set, time control and rated or casual, with Accept (into the game at once) and
// Decline with a reason, and rings a short chime (sounds on). It opens when the site socket
// brings a `challenge.received` notification, and, on each (re)connect, for every challenge
// still waiting for the player (a reload keeps it); it goes when the challenge is answered
// here or in another tab, withdrawn, or lapses. "Later" hides it (the bell and the challenge's
// page keep it) for the rest of the browser session.

import { t, playerName } from '../shell/i18n.js';
import { api, currentPlayer } from '../shell/api.js';
import { h } from '../shell/dom.js';
import { playAlert } from '../shell/sounds.js';
import { onSiteMessage } from '../community/notifications.js';
import { challengeSummary, REASONS } from './challenges.js';

const HIDDEN_KEY = 'doushouqi.challenges.hidden';
const shown = new Map(); // challenge id → { el, timer }
let box = null;

function hidden() {
  try { return new Set(JSON.parse(sessionStorage.getItem(HIDDEN_KEY) || '[]')); } catch { return new Set(); }
}

function hide(id) {
  const ids = [...hidden(), id].slice(-50);
  try { sessionStorage.setItem(HIDDEN_KEY, JSON.stringify(ids)); } catch { /* not remembered */ }
  close(id);
}

function container() {
  if (box?.isConnected) return box;
  box = h('div', { class: 'challenge-popups', id: 'challenge-popups', 'aria-live': 'polite' });
  document.body.append(box);
  return box;
}

function close(id) {
  const popup = shown.get(id);
  if (!popup) return;
  clearTimeout(popup.timer);
  popup.el.remove();
  shown.delete(id);
}

/** On the challenge's own page its answer is there already. */
function onItsPage(id) {
  return location.hash.split('?')[0] === `#/challenge/${encodeURIComponent(id)}`;
}

function popup(c) {
  const id = c.id;
  const titleId = `challenge-popup-title-${id}`;
  const failure = h('p', { class: 'error', role: 'alert', hidden: true });
  const fail = (error) => { failure.textContent = error.message; failure.hidden = false; };
  const reason = h('select', { class: 'challenge-popup-reason', 'aria-label': t('challenge.reason') },
    REASONS.map((r) => h('option', { value: r }, t(`notify.param.reason.${r}`))));
  const accept = h('button', { type: 'button', class: 'primary challenge-popup-accept', onclick: async () => {
    accept.disabled = true;
    try {
      const { game_id: game } = await api(`/api/challenges/${encodeURIComponent(id)}/accept`, { method: 'POST' });
      close(id);
      location.hash = `/game/${encodeURIComponent(game)}`;
    } catch (error) { accept.disabled = false; fail(error); }
  } }, t('challenge.accept'));
  const decline = h('button', { type: 'button', class: 'challenge-popup-decline', onclick: async () => {
    decline.disabled = true;
    try {
      await api(`/api/challenges/${encodeURIComponent(id)}/decline`, { method: 'POST', body: { reason: reason.value } });
      close(id);
    } catch (error) { decline.disabled = false; fail(error); }
  } }, t('challenge.decline'));
  return h('section', { class: 'challenge-popup', role: 'group', 'aria-labelledby': titleId, dataset: { challenge: id } },
    h('h2', { class: 'challenge-popup-title', id: titleId }, t('challenge.popup.title', { name: playerName(c.from.name) })),
    h('p', { class: 'challenge-popup-what' }, challengeSummary(c)),
    h('div', { class: 'challenge-popup-answer' }, accept, decline, reason),
    h('div', { class: 'challenge-popup-more' },
      h('a', { href: `#/challenge/${encodeURIComponent(id)}`, onclick: () => close(id) }, t('challenge.popup.open')),
      h('button', { type: 'button', class: 'challenge-popup-hide', onclick: () => hide(id) }, t('challenge.popup.hide'))),
    failure);
}

function show(c, { ring }) {
  if (shown.has(c.id) || c.yours || c.status !== 'pending' || hidden().has(c.id) || onItsPage(c.id)) return;
  const el = popup(c);
  container().append(el);
  // Gone when it lapses (the server's clock and this one may differ a little: no matter).
  const left = Math.max(0, c.expires_at * 1000 - Date.now());
  shown.set(c.id, { el, timer: setTimeout(() => close(c.id), Math.min(left, 2 ** 31 - 1)) });
  if (ring) playAlert('challenge');
}

async function received(id) {
  try {
    show(await api(`/api/challenges/${encodeURIComponent(id)}`), { ring: true });
  } catch { /* gone already, or the server away: the bell has it */ }
}

async function waiting() {
  if (currentPlayer()?.kind !== 'account') return; // challenges are between accounts
  try {
    const { incoming } = await api('/api/challenges');
    for (const c of incoming) show(c, { ring: false });
  } catch { /* the next (re)connect asks again */ }
}

onSiteMessage('notification', ({ notification: n }) => {
  if (n?.kind === 'challenge.received' && n.params?.id) received(String(n.params.id));
});
onSiteMessage('challenge_update', (m) => close(m.id));
onSiteMessage('paired', (m) => { if (m.challenge_id) close(m.challenge_id); });
onSiteMessage('connected', waiting);
// Another player signed in (or out): the challenges shown were someone else's.
let whose = null;
document.addEventListener('dsq:player', ({ detail }) => {
  const key = detail ? `${detail.kind}:${detail.id}` : null;
  if (key !== whose) for (const id of [...shown.keys()]) close(id);
  whose = key;
});
window.addEventListener('hashchange', () => { for (const id of [...shown.keys()]) if (onItsPage(id)) close(id); });
