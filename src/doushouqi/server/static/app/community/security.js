// The settings page's "Security" section (`#/settings`): where the account is signed in (log
// one session out, or every other), API tokens (make one with scopes and an optional expiry,
// its secret shown once; see them; revoke), the password, and the data export. The server's
// side is server/api/security.py and export.py; what each scope allows, docs/server.md.

import { t, htmlLang, plural } from '../shell/i18n.js';
import { api, currentPlayer, sessionPlayer } from '../shell/api.js';
import { h, pageHead } from '../shell/dom.js';
import { pageCheck } from '../shell/navigation.js';

/** Expiry choices for a new token, in days (0: until revoked). */
const EXPIRY_DAYS = [0, 7, 30, 90, 365];

function when(seconds) {
  if (!seconds) return t('security.never');
  return new Intl.DateTimeFormat(htmlLang(), { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(seconds * 1000));
}

/** A line that says how an action went: the server's error in words, or `ok` text. */
function statusLine(id) {
  return h('p', { class: 'security-status', id, role: 'status' });
}

function report(line, error) {
  line.classList.toggle('error', Boolean(error));
  line.textContent = error ? error.message : '';
}

// ----- sessions -------------------------------------------------------------------------------

function sessionItem(session, refresh, status) {
  const end = async () => {
    try {
      await api(`/api/auth/sessions/${encodeURIComponent(session.id)}`, { method: 'DELETE' });
      if (session.current) { location.hash = '#/'; location.reload(); return; }
      await refresh();
    } catch (error) { report(status, error); }
  };
  return h('li', { class: 'security-item', dataset: { session: session.id, current: String(session.current) } },
    h('div', { class: 'security-what' },
      h('strong', {}, session.device || t('security.session.unknown'),
        session.current ? h('span', { class: 'security-badge' }, t('security.session.current')) : null),
      h('small', {}, t('security.session.seen', { when: when(session.last_seen_at), address: session.address || '?' }))),
    h('button', { type: 'button', class: 'security-end', onclick: end },
      t(session.current ? 'security.session.logout' : 'security.session.end')));
}

function sessionsSection() {
  const list = h('ul', { class: 'security-list', id: 'sessions-list' });
  const status = statusLine('sessions-status');
  const alsoTokens = h('input', { type: 'checkbox', id: 'logout-tokens' });
  const refresh = async () => {
    const { sessions } = await api('/api/auth/sessions');
    list.replaceChildren(...sessions.map((s) => sessionItem(s, refresh, status)));
  };
  const everywhere = async () => {
    try {
      const { ended } = await api('/api/auth/sessions/logout-others', { method: 'POST', body: { tokens: alsoTokens.checked } });
      status.classList.remove('error');
      status.textContent = plural('security.session.ended', ended);
      await refresh();
      if (alsoTokens.checked) await refreshTokens?.();
    } catch (error) { report(status, error); }
  };
  const section = h('section', { class: 'security-part', id: 'security-sessions', 'aria-labelledby': 'sessions-title' },
    h('h2', { id: 'sessions-title' }, t('security.sessions')),
    list,
    h('label', { class: 'security-check' }, alsoTokens, h('span', {}, t('security.session.alsoTokens'))),
    h('button', { type: 'button', class: 'security-wide', id: 'logout-others', onclick: everywhere }, t('security.session.others')),
    status);
  return { section, refresh };
}

// ----- API tokens -----------------------------------------------------------------------------

let refreshTokens = null;

function tokenItem(token, refresh, status) {
  const revoke = async () => {
    try {
      await api(`/api/auth/tokens/${encodeURIComponent(token.id)}`, { method: 'DELETE' });
      await refresh();
    } catch (error) { report(status, error); }
  };
  const expiry = token.expires_at ? t('security.token.expires', { when: when(token.expires_at) }) : t('security.token.noExpiry');
  return h('li', { class: 'security-item', dataset: { token: token.id } },
    h('div', { class: 'security-what' },
      h('strong', {}, token.label || t('security.token.unnamed')),
      h('small', { class: 'token-scopes' }, token.scopes.length ? token.scopes.join(' · ') : t('security.token.noScopes')),
      h('small', {}, `${expiry} · ${t('security.token.used', { when: when(token.last_used_at) })}`)),
    h('button', { type: 'button', class: 'security-end', onclick: revoke }, t('security.token.revoke')));
}

function tokensSection() {
  const list = h('ul', { class: 'security-list', id: 'tokens-list' });
  const status = statusLine('tokens-status');
  const secret = h('div', { class: 'token-secret', id: 'token-secret', hidden: true });
  const scopeBoxes = h('div', { class: 'scope-options' });
  const label = h('input', { id: 'token-label', name: 'label', type: 'text', maxlength: 64, autocomplete: 'off' });
  const expiry = h('select', { id: 'token-expiry', name: 'expiry' },
    EXPIRY_DAYS.map((d) => h('option', { value: String(d) }, d ? plural('security.token.days', d) : t('security.token.noExpiry'))));
  const refresh = async () => {
    const { tokens, scopes } = await api('/api/auth/tokens');
    list.replaceChildren(...tokens.map((token) => tokenItem(token, refresh, status)));
    if (!scopeBoxes.childElementCount) {
      scopeBoxes.replaceChildren(...Object.keys(scopes).map((scope) => h('label', { class: 'security-check scope-option' },
        h('input', { type: 'checkbox', name: 'scope', value: scope }),
        h('span', {}, h('code', {}, scope), h('small', {}, t(`security.scope.${scope}`))))));
    }
  };
  refreshTokens = refresh;
  const form = h('form', { class: 'security-form', id: 'token-form', novalidate: true },
    h('h3', {}, t('security.token.new')),
    h('label', { class: 'field', for: 'token-label' }, t('security.token.label')), label,
    h('fieldset', { class: 'scope-picker' }, h('legend', {}, t('security.token.scopes')), scopeBoxes),
    h('label', { class: 'field', for: 'token-expiry' }, t('security.token.expiry')), expiry,
    h('button', { class: 'primary security-wide', type: 'submit', id: 'token-create' }, t('security.token.create')),
    secret);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const scopes = [...form.querySelectorAll('input[name=scope]:checked')].map((box) => box.value);
    const days = Number(expiry.value);
    try {
      const made = await api('/api/auth/tokens', {
        method: 'POST', body: { label: label.value.trim(), scopes, expires_days: days || null },
      });
      report(status, null);
      const shown = h('input', { type: 'text', readonly: true, value: made.token, id: 'token-value', 'aria-label': t('security.token.secret') });
      secret.replaceChildren(h('p', {}, t('security.token.once')), shown);
      secret.hidden = false;
      shown.select();
      form.reset();
      await refresh();
    } catch (error) { report(status, error); }
  });
  const section = h('section', { class: 'security-part', id: 'security-tokens', 'aria-labelledby': 'tokens-title' },
    h('h2', { id: 'tokens-title' }, t('security.tokens')),
    h('p', { class: 'hint' }, t('security.tokens.hint')),
    list, status, form);
  return { section, refresh };
}

// ----- password -------------------------------------------------------------------------------

function passwordSection() {
  const status = statusLine('password-status');
  const input = (name, autocomplete) => h('input', {
    id: `password-${name}`, name, type: 'password', autocomplete, required: true, maxlength: 128,
  });
  const form = h('form', { class: 'security-form', id: 'password-form', novalidate: true },
    h('label', { class: 'field', for: 'password-old' }, t('security.password.old')), input('old', 'current-password'),
    h('label', { class: 'field', for: 'password-new' }, t('security.password.new')), input('new', 'new-password'),
    h('small', { class: 'hint' }, t('account.password.hint')),
    h('button', { class: 'primary security-wide', type: 'submit', id: 'password-change' }, t('security.password.change')),
    status);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const body = { old: form.elements.old.value, new: form.elements.new.value };
    try {
      const { ended } = await api('/api/account/password', { method: 'POST', body });
      form.reset();
      status.classList.remove('error');
      status.textContent = plural('security.password.changed', ended);
    } catch (error) { report(status, error); }
  });
  return h('section', { class: 'security-part', id: 'security-password', 'aria-labelledby': 'password-title' },
    h('h2', { id: 'password-title' }, t('security.password')), form);
}

function exportSection() {
  return h('section', { class: 'security-part', id: 'security-export', 'aria-labelledby': 'export-title' },
    h('h2', { id: 'export-title' }, t('security.export')),
    h('p', { class: 'hint' }, t('security.export.hint')),
    h('a', { class: 'button security-wide', id: 'export-download', href: '/api/account/export', download: '' }, t('security.export.download')));
}

/** `#/settings`: the account's security settings (an account only; others are sent to log in). */
export async function settingsView(view) {
  const stillHere = pageCheck();
  const player = currentPlayer() ?? await sessionPlayer().catch(() => null);
  if (!stillHere()) return;
  const head = pageHead(t('security.title'));
  if (player?.kind !== 'account') {
    view.replaceChildren(h('section', { class: 'page narrow' }, head,
      h('p', { id: 'settings-signin' }, t('security.signIn'), ' ',
        h('a', { href: '#/login?next=%2Fsettings' }, t('account.login')))));
    return;
  }
  const sessions = sessionsSection();
  const tokens = tokensSection();
  await Promise.all([sessions.refresh(), tokens.refresh()]);
  if (!stillHere()) return;
  view.replaceChildren(h('section', { class: 'page narrow security-page' }, head,
    h('p', { class: 'hint' }, t('security.intro')),
    sessions.section, tokens.section, passwordSection(), exportSection()));
}
