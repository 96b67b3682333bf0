// Challenges in the web client: the "Challenge" button and form on a player's profile, and the
// challenge's own page (`#/challenge/ID`), where its recipient accepts or declines it and its
// sender sees the answer or withdraws it. Answers arrive over the site socket: `paired` sends
// both players to the new game, a `challenge.declined` notification or a `challenge_update`
// push changes the page in place.

import { t, plural, playerName } from '../shell/i18n.js';
import { api, currentPlayer, fetchRuleSets } from '../shell/api.js';
import { h, pageHead } from '../shell/dom.js';
import { pageCheck } from '../shell/navigation.js';
import { onSiteMessage } from '../community/notifications.js';
import { ratedNeedsClock } from '../shell/ratings.js';
import { timeControlLabel } from './pairing.js';
import { chosenGame, gameName, gamePicker, offered, sideName } from '../shell/site_games.js';

const TIME_CHOICES = ['5+3', '10+5', '10+0/30s', '15+10/60s', '3+2', '', '1d', '3d'];
export const REASONS = ['generic', 'later', 'too_fast', 'too_slow', 'time_control', 'rated', 'casual', 'rules'];

function timeText(control) {
  if (!control) return t('time.none');
  const days = /^(\d+)d$/.exec(control);
  return days ? plural('challenge.days', Number(days[1])) : timeControlLabel(control);
}

function segmented(name, options, value) {
  return h('div', { class: 'segmented', role: 'radiogroup' },
    options.map(([v, label]) => h('label', {},
      h('input', { type: 'radio', name, value: v, checked: v === value }),
      h('span', {}, label))));
}

/** What a challenge asks for, in words: "Jungle · Classic rules · 5+3 · rated". */
export function challengeSummary(c) {
  const parts = [gameName(c.game), t(`rules.${c.rules}`), timeText(c.time_control), c.rated ? t('challenge.rated') : t('challenge.casual')];
  return parts.join(' · ');
}

/**
 * After a game between two accounts: "Challenge NAME" (to their profile, the form open), for
 * another game with other settings than a rematch's. Null when it does not apply.
 */
export function challengeAgainLink(game, mine) {
  const opponent = mine === null || mine === undefined ? null : game.players?.[1 - mine];
  if (currentPlayer()?.kind !== 'account' || opponent?.identity?.kind !== 'account' || !opponent.username) return null;
  return h('a', { class: 'button challenge-again', id: 'challenge-again', href: `#/player/${encodeURIComponent(opponent.username)}?challenge=1` },
    t('challenge.again', { name: playerName(opponent.name) }));
}

/**
 * The profile's "Challenge" button: a form below it sends the challenge, then waits for the
 * answer. `me` is the viewer (accounts only: a guest is asked to sign in).
 */
export function challengeButton(profile, me) {
  const box = h('div', { class: 'challenge-box', id: 'challenge-box' });
  const open = h('button', { type: 'button', class: 'primary', id: 'challenge-open', 'aria-expanded': 'false' },
    t('challenge.button'));
  box.append(open);
  open.addEventListener('click', async () => {
    open.setAttribute('aria-expanded', 'true');
    open.hidden = true;
    if (me?.kind !== 'account') {
      box.append(h('p', { class: 'challenge-note', id: 'challenge-login' }, t('challenge.accountsOnly'), ' ',
        h('a', { href: `#/login?next=${encodeURIComponent(`/player/${profile.username}`)}` }, t('challenge.login'))));
      return;
    }
    box.append(await challengeForm(profile));
  });
  // Arriving from "Challenge NAME" after a game: the form is open already.
  if (new URLSearchParams(location.hash.split('?')[1] || '').get('challenge') === '1') queueMicrotask(() => open.click());
  return box;
}

async function challengeForm(profile, wanted = undefined) {
  const games = await offered();
  const game = chosenGame(games, wanted);
  const sets = await fetchRuleSets(game);
  const failure = h('p', { class: 'error', role: 'alert', hidden: true });
  // Another game: the form again, with that game's rule sets and sides.
  const picker = gamePicker(games, game, async (key) => form.replaceWith(await challengeForm(profile, key)), { name: 'challenge-game' });
  const form = h('form', { class: 'settings challenge-form', id: 'challenge-form', dataset: { game } },
    picker,
    h('label', { class: 'field' }, h('span', {}, t('settings.rules')),
      h('select', { name: 'rules' }, sets.map((s) => h('option', { value: s.name }, t(`rules.${s.name}`))))),
    h('label', { class: 'field' }, h('span', {}, t('challenge.time')),
      h('select', { name: 'time' }, TIME_CHOICES.map((c) => h('option', { value: c }, timeText(c))))),
    h('div', { class: 'field' }, h('span', {}, t('settings.side')),
      segmented('color', [['red', sideName(0, game)], ['blue', sideName(1, game)], ['random', t('side.random')]], 'random')),
    // Rated by default (an account may untick it); a game without a clock is casual.
    h('label', { class: 'check challenge-rated' },
      h('input', { type: 'checkbox', name: 'rated', id: 'challenge-rated', checked: true, 'aria-describedby': 'challenge-rated-hint' }),
      h('span', {}, t('challenge.rated'), ' ', h('small', { class: 'hint', id: 'challenge-rated-hint', dataset: { hint: 'pairing.rated.hint' } }, t('pairing.rated.hint')))),
    h('label', { class: 'check challenge-private' }, h('input', { type: 'checkbox', name: 'private' }), h('span', {}, t('challenge.private'))),
    h('button', { type: 'submit', class: 'primary big', id: 'challenge-send' }, t('challenge.send', { name: profile.display_name })),
    failure);
  const syncRated = () => ratedNeedsClock(form.elements.rated, () => Boolean(form.elements.time.value));
  form.addEventListener('change', syncRated);
  syncRated();
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const f = form.elements;
    const send = form.querySelector('#challenge-send');
    send.disabled = true;
    failure.hidden = true;
    try {
      const sent = await api('/api/challenges', { method: 'POST', body: {
        to: profile.username, game, rules: f.rules.value, time_control: f.time.value || null,
        color: f.color.value, rated: f.rated.checked, private: f.private.checked } });
      form.replaceWith(waiting(sent, profile));
    } catch (error) {
      send.disabled = false;
      failure.textContent = error.message; // api.js's words for `error.challenge.…`
      failure.hidden = false;
    }
  });
  return form;
}

/** The sender's view of a sent challenge until it is answered (the page may be left: the bell tells). */
function waiting(sent, profile) {
  const line = h('p', { class: 'challenge-status', id: 'challenge-status', role: 'status', 'aria-live': 'polite' },
    t('challenge.waiting', { name: profile.display_name }));
  const cancel = h('button', { type: 'button', id: 'challenge-cancel' }, t('challenge.cancel'));
  const el = h('div', { class: 'challenge-waiting' }, h('p', {}, challengeSummary(sent)), line, cancel);
  const stops = [];
  const stop = () => stops.splice(0).forEach((s) => s());
  stops.push(onSiteMessage('notification', ({ notification: n }) => {
    if (n?.kind === 'challenge.declined' && n.params?.id === sent.id) {
      line.textContent = t('challenge.declinedBy', { name: profile.display_name, reason: t(`notify.param.reason.${n.params.reason}`) });
      cancel.remove();
      stop();
    }
  }));
  stops.push(onSiteMessage('paired', (message) => {
    if (message.challenge_id === sent.id) { stop(); location.hash = `/game/${encodeURIComponent(message.game_id)}`; }
  }));
  cancel.addEventListener('click', async () => {
    cancel.disabled = true;
    try {
      await api(`/api/challenges/${encodeURIComponent(sent.id)}`, { method: 'DELETE' });
      line.textContent = t('challenge.status.cancelled');
      cancel.remove();
      stop();
    } catch (error) {
      cancel.disabled = false;
      line.textContent = error.message;
    }
  });
  window.addEventListener('hashchange', stop, { once: true });
  return el;
}

/** `#/challenge/ID`: the recipient accepts or declines; the sender sees where it stands. */
export async function challengeView(view, id, go) {
  const stillHere = pageCheck();
  let challenge;
  try {
    challenge = await api(`/api/challenges/${encodeURIComponent(id)}`);
  } catch (error) {
    if (!stillHere()) return null;
    view.replaceChildren(h('section', { class: 'page narrow' }, pageHead(t('challenge.title')),
      h('p', { class: 'error', role: 'alert', id: 'challenge-missing' },
        error.message)));
    return null;
  }
  if (!stillHere()) return null;
  const failure = h('p', { class: 'error', role: 'alert', hidden: true });
  const body = h('div', { class: 'challenge-page', id: 'challenge-page' });
  const fail = (error) => { failure.textContent = error.message; failure.hidden = false; };
  const draw = () => {
    const c = challenge;
    const who = c.yours ? t('challenge.toThem') : t('challenge.fromThem', { name: playerName(c.from.name) });
    const color = c.yours ? c.color : { red: 'blue', blue: 'red', random: 'random' }[c.color];
    const rows = [
      h('p', { class: 'challenge-who' }, who),
      h('p', { class: 'challenge-what' }, challengeSummary(c)),
      h('p', { class: 'challenge-side' }, t('challenge.yourSide', { side: color === 'random' ? t('side.random') : sideName(color === 'red' ? 0 : 1, c.game) })),
      h('p', { class: 'challenge-state', id: 'challenge-state', role: 'status' }, t(`challenge.status.${c.status}`)),
    ];
    if (c.status === 'accepted' && c.game_id) rows.push(h('a', { class: 'button primary big', href: `#/game/${encodeURIComponent(c.game_id)}` }, t('challenge.toGame')));
    if (c.status === 'pending' && !c.yours) {
      const reason = h('select', { id: 'decline-reason', 'aria-label': t('challenge.reason') },
        REASONS.map((r) => h('option', { value: r }, t(`notify.param.reason.${r}`))));
      rows.push(h('div', { class: 'row challenge-answer' },
        h('button', { type: 'button', class: 'primary', id: 'challenge-accept', onclick: async (e) => {
          e.target.disabled = true;
          try { go(`/game/${(await api(`/api/challenges/${encodeURIComponent(c.id)}/accept`, { method: 'POST' })).game_id}`); } catch (error) { e.target.disabled = false; fail(error); }
        } }, t('challenge.accept')),
        h('button', { type: 'button', id: 'challenge-decline', onclick: async () => {
          try {
            await api(`/api/challenges/${encodeURIComponent(c.id)}/decline`, { method: 'POST', body: { reason: reason.value } });
            challenge = { ...c, status: 'declined' };
            draw();
          } catch (error) { fail(error); }
        } }, t('challenge.decline')),
        reason));
    }
    if (c.status === 'pending' && c.yours) {
      rows.push(h('button', { type: 'button', id: 'challenge-cancel', onclick: async () => {
        try {
          await api(`/api/challenges/${encodeURIComponent(c.id)}`, { method: 'DELETE' });
          challenge = { ...c, status: 'cancelled' };
          draw();
        } catch (error) { fail(error); }
      } }, t('challenge.cancel')));
    }
    body.replaceChildren(...rows);
  };
  draw();
  view.replaceChildren(h('section', { class: 'page narrow' }, pageHead(t('challenge.title')), body, failure));
  const reload = async () => {
    try { challenge = await api(`/api/challenges/${encodeURIComponent(id)}`); } catch { return; }
    if (stillHere()) draw();
  };
  const stops = [
    onSiteMessage('challenge_update', (m) => { if (m.id === id) reload(); }),
    onSiteMessage('notification', ({ notification: n }) => { if (n?.params?.id === id) reload(); }),
    onSiteMessage('paired', (m) => { if (m.challenge_id === id) go(`/game/${encodeURIComponent(m.game_id)}`); }),
  ];
  return () => stops.forEach((s) => s());
}
