// The site socket and the notification bell in the top bar.
//
// Importing this module starts it: once the page knows its player (a `dsq:player` event), one
// websocket to /ws/site per tab carries what the server pushes to that player (notifications,
// the unread count, "paired: go to game X" …), and a bell beside the account menu shows the
// unread count and a list of the newest notifications. On every (re)connect the list is fetched
// again over REST, so nothing stored is missed while a socket was down. Pages listen to pushes
// with `onSiteMessage(type, handler)`.
//
// A notification is a `kind` and `params` (the server words nothing): its text is
// `notify.kind.<kind>`, or a key named exactly as the kind in another area's file, with the
// params filled in. Each new one also shows as a toast for a few seconds (shell/toasts.js), but
// a challenge, which has a pop-up of its own (lobby/challenge_popup.js).

import { t, playerName } from '../shell/i18n.js';
import { api, currentPlayer } from '../shell/api.js';
import { h, replaceChanged } from '../shell/dom.js';
import { showToast } from '../shell/toasts.js';

const handlers = new Map(); // message type → Set of handlers
let socket = null;
let socketKey = null; // whose socket it is (a log-in or log-out opens another)
let retryTimer = null;
let retryDelay = 1000;
let items = [];
let unread = 0;
let bell = null; // { root, button, badge, panel, list }

/** Call `handler(message)` for every pushed message of `type`; returns a function that stops it. */
export function onSiteMessage(type, handler) {
  if (!handlers.has(type)) handlers.set(type, new Set());
  handlers.get(type).add(handler);
  return () => handlers.get(type)?.delete(handler);
}

function emit(message) {
  for (const handler of handlers.get(message.type) || []) {
    try { handler(message); } catch (error) { console.error(error); } // one page's fault stays its own
  }
}

/** True while this tab's site socket is open (pages may show "connecting…" until then). */
export function siteConnected() {
  return socket?.readyState === WebSocket.OPEN;
}

const PLAYER_PARAMS = new Set(['from', 'by', 'opponent']);
// Kinds shown otherwise than as a toast.
const NO_TOAST = new Set(['challenge.received']);

/** Where a notification leads (a client route), if anywhere. */
export function notificationLink(item) {
  return typeof item.link === 'string' && item.link.startsWith('#/') ? item.link : null;
}

/** The words of one notification, in the current language. */
export function notificationText(item) {
  // A parameter that is a code (a decline's reason) has words of its own: notify.param.<name>.<code>.
  // A player's name (`from`, `by`, `opponent`) is shown as playerName shows it everywhere.
  const word = (name, value) => {
    if (PLAYER_PARAMS.has(name)) return playerName(value);
    const key = `notify.param.${name}.${value}`;
    const text = t(key);
    return text === key ? value : text;
  };
  const params = Object.fromEntries(Object.entries(item.params || {}).map(([k, v]) => [k, word(k, String(v ?? ''))]));
  for (const key of [`notify.kind.${item.kind}`, item.kind]) {
    const text = t(key, params);
    if (text !== key) return text;
  }
  return t('notify.kind.other');
}

// ----- the socket ---------------------------------------------------------------------------

const playerKey = (player) => (player ? `${player.kind}:${player.id}` : null);

function connect() {
  clearTimeout(retryTimer);
  retryTimer = null;
  const player = currentPlayer();
  const key = playerKey(player);
  if (socket && socketKey === key) return;
  if (socket) {
    const old = socket;
    socket = null;
    old.close();
  }
  socketKey = key;
  if (!key) return;
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  const ws = new WebSocket(`${scheme}://${location.host}/ws/site`);
  socket = ws;
  ws.addEventListener('open', () => {
    retryDelay = 1000;
    refresh();
    emit({ type: 'connected' });
  });
  ws.addEventListener('message', (event) => {
    let message;
    try { message = JSON.parse(event.data); } catch { return; }
    if (!message || typeof message.type !== 'string') return;
    receive(message);
    emit(message);
  });
  ws.addEventListener('close', (event) => {
    if (socket !== ws) return; // replaced on purpose
    socket = null;
    emit({ type: 'disconnected' });
    if (event.code === 4401) return; // not signed in: wait for the next `dsq:player`
    retryTimer = setTimeout(connect, retryDelay);
    retryDelay = Math.min(retryDelay * 2, 15000);
  });
}

// Messages from the socket that changed the bell, counted: a list fetched meanwhile may be
// older than they are (asked before a notification was stored, answered after it was pushed).
let pushes = 0;

function receive(message) {
  if (['notification', 'notification_withdrawn', 'unread', 'hello'].includes(message.type)) pushes += 1;
  if (message.type === 'notification' && message.notification) {
    const item = message.notification;
    items = [item, ...items.filter((i) => i.id !== item.id)].slice(0, 30);
    unread = Number(message.unread) || 0;
    render();
    if (!NO_TOAST.has(item.kind)) showToast(notificationText(item), { link: notificationLink(item), kind: item.kind });
  } else if (message.type === 'notification_withdrawn' && Array.isArray(message.ids)) {
    // No longer true (a challenge its sender withdrew): gone from the bell.
    items = items.filter((i) => !message.ids.includes(i.id));
    unread = Number(message.unread) || 0;
    render();
  } else if (message.type === 'unread' || message.type === 'hello') {
    unread = Number(message.unread) || 0;
    render();
  }
}

async function refresh() {
  const seen = pushes;
  let answer;
  try {
    answer = await api('/api/notifications');
  } catch {
    return; // the next (re)connect fetches again
  }
  // The socket said something newer while this was on its way: this answer may not hold it
  // (a pushed notification's badge used to fall back to 0), so ask again.
  if (pushes !== seen) return refresh();
  items = answer.notifications;
  unread = answer.unread;
  render();
}

// ----- the bell -----------------------------------------------------------------------------

function isOpen() {
  return bell?.button.getAttribute('aria-expanded') === 'true';
}

function setOpen(open) {
  if (!bell) return;
  bell.button.setAttribute('aria-expanded', String(open));
  bell.panel.hidden = !open;
  if (open && unread > 0) {
    api('/api/notifications/read', { method: 'POST', body: {} })
      .then((answer) => { unread = answer.unread; renderBadge(); })
      .catch(() => {});
  }
  if (!open) render(); // what was read shows as read from now on
}

// A bell drawn as SVG (no emoji font is needed).
function bellIcon() {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('class', 'bell-icon');
  svg.setAttribute('aria-hidden', 'true');
  const path = document.createElementNS(ns, 'path');
  path.setAttribute('d', 'M12 3a6 6 0 0 0-6 6v4l-2 3h16l-2-3V9a6 6 0 0 0-6-6zm-2.5 15a2.5 2.5 0 0 0 5 0z');
  path.setAttribute('fill', 'currentColor');
  svg.append(path);
  return svg;
}

function mountBell() {
  const account = document.querySelector('#account');
  if (!account || bell) return;
  const badge = h('span', { class: 'bell-badge', id: 'bell-badge', hidden: true });
  const button = h('button', { type: 'button', class: 'bell-button', id: 'bell-button', 'aria-expanded': 'false',
    'aria-controls': 'bell-panel', onclick: (event) => { event.stopPropagation(); setOpen(!isOpen()); } },
  bellIcon(), badge);
  const list = h('ul', { class: 'bell-list', id: 'bell-list' });
  const panel = h('div', { class: 'bell-panel', id: 'bell-panel', hidden: true, role: 'region' },
    h('h2', { class: 'bell-title', id: 'bell-title' }), list);
  const root = h('div', { class: 'bell', id: 'bell' }, button, panel);
  account.after(root);
  bell = { root, button, badge, panel, list };
  document.addEventListener('click', (event) => { if (!root.contains(event.target)) setOpen(false); });
  root.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape' || !isOpen()) return;
    setOpen(false);
    button.focus();
  });
  panel.addEventListener('click', (event) => { if (event.target.closest('a')) setOpen(false); });
}

function renderBadge() {
  if (!bell) return;
  bell.badge.hidden = unread <= 0;
  bell.badge.textContent = unread > 99 ? '99+' : String(unread);
  bell.button.setAttribute('aria-label', unread > 0 ? t('notify.bell.unread', { n: unread }) : t('notify.bell'));
}

function entry(item) {
  const when = new Date(item.created_at * 1000);
  const body = [h('span', { class: 'bell-text' }, notificationText(item)),
    h('time', { datetime: when.toISOString() }, when.toLocaleString(document.documentElement.lang, { dateStyle: 'short', timeStyle: 'short' }))];
  const cls = `bell-item${item.read_at ? '' : ' unread'}`;
  const link = notificationLink(item);
  return h('li', { class: cls, dataset: { kind: item.kind, id: item.id } },
    link ? h('a', { href: link }, body) : h('span', { class: 'bell-static' }, body));
}

function render() {
  const player = currentPlayer();
  if (!player) {
    bell?.root.remove();
    bell = null;
    return;
  }
  mountBell();
  if (!bell) return;
  bell.root.hidden = false;
  bell.panel.querySelector('.bell-title').textContent = t('notify.title');
  bell.panel.setAttribute('aria-labelledby', 'bell-title');
  replaceChanged(bell.list, items.length ? items.map(entry) : [h('li', { class: 'bell-empty' }, t('notify.empty'))]);
  renderBadge();
}

function playerChanged() {
  if (playerKey(currentPlayer()) !== socketKey) {
    items = [];
    unread = 0;
  }
  render();
  connect();
}

document.addEventListener('dsq:player', playerChanged);
// The language switch redraws the page: the bell follows the document's language.
new MutationObserver(() => render()).observe(document.documentElement, { attributes: true, attributeFilter: ['lang'] });
if (currentPlayer()) playerChanged();
window.dsqSiteConnected = siteConnected; // for tests: the site socket is open
