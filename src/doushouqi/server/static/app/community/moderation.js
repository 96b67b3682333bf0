// The moderation page (#/mod), for moderators and admins (server/api/moderation.py): the queue
// of reported chat messages, each in its context with who reported it and why; removing a
// message, dismissing its reports, muting its author; looking an account up to ban, lift a
// ban or close it; the site's moderators (an admin grants roles here); and the moderation log.
// Every text from people goes in with textContent (h()).

import { t, htmlLang, playerName } from '../shell/i18n.js';
import { api, sessionPlayer } from '../shell/api.js';
import { h, pageHead } from '../shell/dom.js';
import { pageCheck } from '../shell/navigation.js';

/** Mute lengths offered, in minutes: ten minutes, an hour, a day, a week. */
export const MUTE_MINUTES = [10, 60, 24 * 60, 7 * 24 * 60];
const ROLES = ['player', 'moderator', 'admin'];

export const isModerator = (player) => player?.kind === 'account' && ['moderator', 'admin'].includes(player.role);

function when(seconds) {
  return new Intl.DateTimeFormat(htmlLang(), { dateStyle: 'short', timeStyle: 'short' }).format(new Date(seconds * 1000));
}

function who(person) {
  const name = person.name ? playerName(person.name) : null;
  if (person.username) return name && name !== person.username ? `${name} (@${person.username})` : `@${person.username}`;
  return name || t('mod.guest');
}

function messageWords(m) {
  return m.phrase ? t(`chat.phrase.${m.phrase}`) : m.text;
}

/** A line for errors and confirmations under a card's buttons. */
function statusLine(id) {
  return h('p', { class: 'mod-status', id, role: 'status' });
}

function showError(line, error) {
  line.textContent = error.message;
  line.classList.add('error');
}

/** The reason box every action of a card shares; mute, ban and close need one. */
function reasonField(id) {
  return h('label', { class: 'field mod-reason' }, h('span', {}, t('mod.reason')),
    h('input', { id, type: 'text', maxlength: 500, autocomplete: 'off' }));
}

function muteChoice(id) {
  return h('select', { id, class: 'mod-minutes', 'aria-label': t('mod.muteFor') },
    MUTE_MINUTES.map((m) => h('option', { value: m }, t(`mod.minutes.${m}`))));
}

/** Run `action` with the reason (refused here when `needed` and empty); then `done`. */
async function act(line, reasonInput, needed, action, done) {
  const reason = reasonInput.value.trim();
  line.classList.remove('error');
  if (needed && !reason) {
    line.textContent = t('mod.reasonNeeded');
    line.classList.add('error');
    reasonInput.focus();
    return;
  }
  try {
    await action(reason);
    line.textContent = t('mod.done');
    await done();
  } catch (error) {
    showError(line, error);
  }
}

// ----- the report queue ---------------------------------------------------------------------

function contextList(item) {
  return h('ol', { class: 'mod-context' }, item.context.map((m) => h('li', {
    class: ['mod-line', m.id === item.message.id ? 'reported' : '', m.removed ? 'removed' : ''].join(' ').trim(),
    dataset: { id: m.id },
  }, h('strong', {}, playerName(m.author.name)), ' ', h('span', { class: 'mod-text' }, messageWords(m)),
  m.removed ? h('small', {}, ` (${t('mod.removed')})`) : null)));
}

function reportCard(item, refresh) {
  const id = item.message.id;
  const line = statusLine(`mod-status-${id}`);
  const reason = reasonField(`mod-reason-${id}`);
  const input = reason.querySelector('input');
  const minutes = muteChoice(`mod-minutes-${id}`);
  const post = (path, body) => api(path, { method: 'POST', body });
  const button = (cls, label, needed, run) => h('button', { type: 'button', class: cls,
    onclick: () => act(line, input, needed, run, refresh) }, label);
  const author = item.author;
  return h('li', { class: 'mod-card', dataset: { message: id } },
    h('p', { class: 'mod-who' }, t('mod.by', { name: who(author) }), ' · ',
      h('a', { href: `#/game/${encodeURIComponent(item.game_id)}` }, t('mod.game'))),
    contextList(item),
    h('ul', { class: 'mod-reports' }, item.reports.map((r) => h('li', {},
      t('mod.reportedBy', { name: who(r.by), reason: t(`mod.why.${r.reason}`), when: when(r.at) })))),
    reason,
    h('div', { class: 'mod-actions' },
      button('danger mod-remove', t('mod.remove'), false, (why) => post(`/api/mod/messages/${id}/remove`, { reason: why })),
      button('mod-dismiss', t('mod.dismiss'), false, (why) => post(`/api/mod/reports/${id}/dismiss`, { reason: why }))),
    h('div', { class: 'mod-actions' }, minutes,
      button('mod-mute', t('mod.mute'), true, (why) => post('/api/mod/mutes', { player: author.key, minutes: Number(minutes.value), reason: why })),
      author.username ? button('danger mod-ban', t('mod.ban'), true, (why) => post(`/api/mod/accounts/${encodeURIComponent(author.username)}/ban`, { reason: why })) : null),
    line);
}

// ----- an account ---------------------------------------------------------------------------

function accountCard(state, refresh) {
  const line = statusLine('mod-account-status');
  const reason = reasonField('mod-account-reason');
  const input = reason.querySelector('input');
  const minutes = muteChoice('mod-account-minutes');
  const base = `/api/mod/accounts/${encodeURIComponent(state.username)}`;
  const post = (path, body) => api(path, { method: 'POST', body });
  const button = (cls, label, run) => h('button', { type: 'button', class: cls,
    onclick: () => act(line, input, true, run, refresh) }, label);
  const facts = [t(`mod.role.${state.role}`)];
  if (state.closed_at) facts.push(t('mod.closedAt', { when: when(state.closed_at) }));
  if (state.banned_at) facts.push(t('mod.bannedAt', { when: when(state.banned_at) }));
  if (state.muted_until) facts.push(t('mod.mutedUntil', { when: when(state.muted_until) }));
  const open = !state.closed_at;
  return h('div', { class: 'mod-card', id: 'mod-account-card' },
    h('p', { class: 'mod-who' }, h('a', { href: `#/player/${encodeURIComponent(state.username)}` }, `${state.name} (@${state.username})`)),
    h('p', { id: 'mod-account-facts' }, facts.join(' · ')),
    open ? reason : null,
    open ? h('div', { class: 'mod-actions' }, minutes,
      button('mod-mute', t('mod.mute'), (why) => post('/api/mod/mutes', { player: state.key, minutes: Number(minutes.value), reason: why })),
      state.muted_until
        ? button('mod-unmute', t('mod.unmute'), (why) => post('/api/mod/mutes/lift', { player: state.key, reason: why }))
        : null,
      state.banned_at
        ? button('mod-unban', t('mod.unban'), (why) => post(`${base}/unban`, { reason: why }))
        : button('danger mod-ban', t('mod.ban'), (why) => post(`${base}/ban`, { reason: why })),
      button('danger mod-close', t('mod.close'), (why) => post(`${base}/close`, { reason: why }))) : null,
    line);
}

function accountLookup(onChange) {
  const result = h('div', { id: 'mod-account' });
  const input = h('input', { id: 'mod-username', type: 'text', autocomplete: 'off', autocapitalize: 'none', spellcheck: 'false', maxlength: 32 });
  async function show() {
    const name = input.value.trim().toLowerCase();
    if (!name) return;
    try {
      const state = await api(`/api/mod/accounts/${encodeURIComponent(name)}`);
      result.replaceChildren(accountCard(state, async () => { await show(); await onChange(); }));
    } catch (error) {
      result.replaceChildren(h('p', { class: 'error', role: 'alert' }, error.message));
    }
  }
  const form = h('form', { class: 'mod-find', onsubmit: (e) => { e.preventDefault(); show(); } },
    h('label', { class: 'field' }, h('span', {}, t('mod.username')), input),
    h('button', { type: 'submit', id: 'mod-find' }, t('mod.find')));
  return [form, result];
}

// ----- the staff and the log ----------------------------------------------------------------

function staffSection(staff, admin, refresh) {
  const list = h('ul', { class: 'mod-staff', id: 'mod-staff' }, staff.map((s) => h('li', {},
    `${s.name} (@${s.username}) · ${t(`mod.role.${s.role}`)}`)));
  if (!admin) return [list];
  const line = statusLine('mod-role-status');
  const username = h('input', { id: 'mod-role-username', type: 'text', autocomplete: 'off', autocapitalize: 'none', maxlength: 32 });
  const role = h('select', { id: 'mod-role' }, ROLES.map((r) => h('option', { value: r }, t(`mod.role.${r}`))));
  const form = h('form', { class: 'mod-find', onsubmit: async (e) => {
    e.preventDefault();
    line.classList.remove('error');
    try {
      await api(`/api/mod/staff/${encodeURIComponent(username.value.trim().toLowerCase())}`, { method: 'PUT', body: { role: role.value } });
      line.textContent = t('mod.done');
      await refresh();
    } catch (error) {
      showError(line, error);
    }
  } },
  h('label', { class: 'field' }, h('span', {}, t('mod.username')), username),
  h('label', { class: 'field' }, h('span', {}, t('mod.roleLabel')), role),
  h('button', { type: 'submit', id: 'mod-set-role' }, t('mod.setRole')));
  return [list, form, line];
}

function logEntry(e) {
  const details = e.details || {};
  const extra = e.action === 'mute' ? t('mod.forMinutes', { n: details.minutes })
    : ['grant', 'revoke'].includes(e.action) ? t(`mod.role.${details.role}`)
      : details.text || (details.phrase ? t(`chat.phrase.${details.phrase}`) : '');
  const name = e.target.name ? playerName(e.target.name) : e.target.key;
  return h('li', { class: 'mod-log-entry', dataset: { action: e.action } },
    h('small', {}, when(e.at)), ' ',
    h('strong', {}, e.moderator), ' ',
    h('span', { class: 'mod-log-action' }, t(`mod.action.${e.action}`)), ' ',
    h('span', { class: 'mod-log-target' }, name),
    extra ? h('span', { class: 'mod-log-extra' }, ` · ${extra}`) : null,
    e.reason ? h('span', { class: 'mod-log-reason' }, ` · ${t('mod.because', { reason: e.reason })}`) : null);
}

// ----- the page -----------------------------------------------------------------------------

/** `#/mod`: the moderation page; a player gets a short refusal instead. */
export async function moderationView(view) {
  const stillHere = pageCheck();
  const me = await sessionPlayer().catch(() => null);
  if (!stillHere()) return;
  const head = pageHead(t('mod.title'));
  if (!isModerator(me)) {
    view.replaceChildren(h('section', { class: 'page narrow mod-page' }, head,
      h('p', { class: 'error', role: 'alert', id: 'mod-forbidden' }, t('error.mod.forbidden'))));
    return;
  }
  const queue = h('ol', { class: 'mod-queue', id: 'mod-queue', 'aria-live': 'polite' });
  const staff = h('div', { id: 'mod-staff-section' });
  const log = h('ol', { class: 'mod-log', id: 'mod-log' });
  async function refresh() {
    const [reports, entries, people] = await Promise.all([
      api('/api/mod/reports'), api('/api/mod/log?limit=50'), api('/api/mod/staff')]);
    if (!stillHere()) return;
    queue.replaceChildren(...(reports.reports.length ? reports.reports.map((item) => reportCard(item, refresh))
      : [h('li', { class: 'empty' }, t('mod.queueEmpty'))]));
    log.replaceChildren(...(entries.entries.length ? entries.entries.map(logEntry)
      : [h('li', { class: 'empty' }, t('mod.logEmpty'))]));
    staff.replaceChildren(...staffSection(people.staff, me.role === 'admin', refresh));
  }
  view.replaceChildren(h('section', { class: 'page narrow mod-page' }, head,
    h('h2', {}, t('mod.queue')), queue,
    h('h2', {}, t('mod.account')), ...accountLookup(refresh),
    h('h2', {}, t('mod.staff')), staff,
    h('h2', {}, t('mod.log')), log));
  await refresh();
}
