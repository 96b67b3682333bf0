// A game's chat (server/chat.py): the players' room and the spectators' room, quick phrases,
// mute, hide, report; and the game's spectator count. The game page mounts it once
// (`mountChat(view)`) and destroys it with the page; it hears the game socket's `chat`,
// `chat_history` and `spectators` messages (and refusals of its own) before the page does,
// and sends on the page's socket. Every text from people is put in with textContent (h()).

import { t, playerName } from '../shell/i18n.js';
import { api, currentPlayer } from '../shell/api.js';
import { h } from '../shell/dom.js';

/** Quick phrases: one tap sends the code; every reader sees it in their own language. */
export const PHRASES = ['hello', 'good_move', 'good_game', 'again', 'thanks', 'go', 'sorry'];
const MAX_CHARS = 140;
const PREFS_KEY = 'doushouqi.chat'; // {hidden, muted: [author keys], otherRoom: 'shown' | 'muted'}
const FINISHED = 25;
let sent = 0;

function loadPrefs() {
  try {
    const saved = JSON.parse(localStorage.getItem(PREFS_KEY)) || {};
    return { hidden: Boolean(saved.hidden), muted: Array.isArray(saved.muted) ? saved.muted : [], otherRoomMuted: Boolean(saved.otherRoomMuted) };
  } catch {
    return { hidden: false, muted: [], otherRoomMuted: false };
  }
}

function codePoints(text) {
  return [...text].length;
}

/** Game id → whether its chat panel was left open, for this visit of the site. */
const OPEN_BY_GAME = new Map();

export function mountChat(view) {
  return new GameChat(view);
}

class GameChat {
  constructor(view) {
    this.view = view;
    this.messages = new Map(); // id → message, shown in id order
    this.rooms = [];
    this.count = null;
    this.unread = 0;
    this.pending = null; // the id of our message waiting for its ack
    this.readKey = null; // (seated, over) the rooms were read for
    this.prefs = loadPrefs();
    this.build();
    // Our messages come before the page's: the page would take them for game events.
    const receive = view.receive.bind(view);
    this.restore = () => { view.receive = receive; };
    view.receive = async (msg) => {
      if (this.take(msg)) return;
      await receive(msg);
      this.follow();
    };
  }

  destroy() {
    this.restore();
    this.el.remove();
    this.badge.remove();
  }

  // ----- layout ---------------------------------------------------------------------------
  build() {
    this.list = h('ol', { class: 'chat-list', id: 'chat-list', role: 'log', 'aria-live': 'polite', 'aria-label': t('chat.title') });
    this.input = h('input', {
      id: 'chat-input', class: 'chat-input', type: 'text', autocomplete: 'off', enterkeyhint: 'send',
      'aria-label': t('chat.placeholder'), placeholder: t('chat.placeholder'),
      oninput: () => this.renderCounter(),
    });
    this.counter = h('small', { class: 'chat-counter', id: 'chat-counter', 'aria-live': 'off' });
    this.error = h('p', { class: 'chat-error error', id: 'chat-error', role: 'alert', hidden: true });
    this.form = h('form', { class: 'chat-form', id: 'chat-form', onsubmit: (e) => { e.preventDefault(); this.sendText(); } },
      this.input, h('button', { type: 'submit', class: 'primary', id: 'chat-send' }, t('chat.send')));
    this.phrases = h('div', { class: 'chat-phrases', id: 'chat-phrases' },
      PHRASES.map((code) => h('button', { type: 'button', dataset: { phrase: code }, onclick: () => this.send({ phrase: code }) }, t(`chat.phrase.${code}`))));
    this.otherRoom = h('button', { type: 'button', id: 'chat-other-room', class: 'chat-toggle', hidden: true, onclick: () => this.toggleOtherRoom() });
    this.hideButton = h('button', { type: 'button', id: 'chat-hide', class: 'chat-toggle', onclick: () => this.toggleHidden() });
    this.roomLine = h('p', { class: 'chat-room', id: 'chat-room' });
    this.body = h('div', { class: 'chat-body' }, this.roomLine, this.list, this.error, this.form, this.counter, this.phrases);
    this.summary = h('summary', { id: 'chat-summary' });
    this.el = h('details', { class: 'chat-panel', id: 'chat', hidden: true },
      this.summary, h('div', { class: 'chat-tools' }, this.otherRoom, this.hideButton), this.body);
    // Open beside the board on a desktop; a folded panel under it on a phone. A panel opened or
    // folded by hand stays so when the game's page is drawn again (coming back to it, or the
    // page redrawn once the session is known).
    this.el.open = OPEN_BY_GAME.get(this.view.id) ?? window.matchMedia('(min-width: 60rem)').matches;
    this.el.addEventListener('toggle', () => {
      OPEN_BY_GAME.set(this.view.id, this.el.open);
      if (this.el.open) { this.unread = 0; this.render(); }
    });
    this.badge = h('p', { class: 'watchers', id: 'watchers', hidden: true });
    const side = this.view.root.querySelector('.side-col');
    side?.append(this.el);
    this.view.el.status.after(this.badge);
    this.render();
  }

  // ----- messages from the socket ---------------------------------------------------------
  take(msg) {
    switch (msg.type) {
      case 'chat':
        this.add([msg.message], true);
        return true;
      case 'chat_history':
        this.rooms = msg.rooms;
        this.readKey = this.key();
        this.add(msg.messages, false);
        return true;
      case 'chat_removed': // a moderator removed it: gone from every reader's screen
        this.messages.delete(msg.message_id);
        this.render();
        return true;
      case 'spectators':
        this.count = msg.count;
        this.render();
        return true;
      case 'ack':
        if (msg.id && msg.id === this.pending) {
          this.pending = null;
          this.input.value = '';
          this.renderCounter();
        }
        return Boolean(msg.id?.startsWith('chat-'));
      case 'rejected': case 'error':
        if (!String(msg.code).startsWith('chat.') && !msg.id?.startsWith('chat-')) return false;
        if (msg.id === this.pending) this.pending = null;
        this.fail(String(msg.code).startsWith('chat.') ? t(msg.code, msg.params || {}) : t('chat.unavailable'));
        return true;
      default:
        return false;
    }
  }

  /** Which rooms this reader may read now: its own, and both once the game is over. */
  key() {
    const g = this.view.game;
    return `${this.view.seats.length > 0}|${Boolean(g && g.status_id >= FINISHED)}`;
  }

  /** After each game message: the page may have changed (a seat taken, the game over). */
  follow() {
    if (this.readKey !== null && this.key() !== this.readKey) this.reload();
    this.render();
  }

  async reload() {
    this.readKey = this.key();
    try {
      const answer = await api(`/api/games/${encodeURIComponent(this.view.id)}/chat`);
      this.rooms = answer.rooms;
      this.add(answer.messages, false);
    } catch { /* the socket's next history brings them */ }
  }

  add(messages, live) {
    let fresh = 0;
    for (const m of messages) {
      if (!this.messages.has(m.id)) fresh += 1;
      this.messages.set(m.id, m);
    }
    if (live && fresh && !this.el.open) this.unread += fresh;
    this.render();
  }

  // ----- sending --------------------------------------------------------------------------
  myRoom() {
    return this.view.seats.length ? 'players' : 'spectators';
  }

  sendText() {
    const text = this.input.value.trim();
    if (!text) { this.fail(t('chat.empty')); return; }
    if (codePoints(text) > MAX_CHARS) { this.fail(t('chat.too_long', { max: MAX_CHARS })); return; }
    this.send({ text });
  }

  send(fields) {
    const ws = this.view.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN) { this.fail(t('chat.offline')); return; }
    const id = `chat-${++sent}`;
    if ('text' in fields) this.pending = id;
    this.error.hidden = true;
    ws.send(JSON.stringify({ type: 'chat', id, ...fields }));
  }

  fail(text) {
    this.error.textContent = text;
    this.error.hidden = false;
    clearTimeout(this.errorTimer);
    this.errorTimer = setTimeout(() => { this.error.hidden = true; }, 6000);
  }

  // ----- mute, hide, report -----------------------------------------------------------------
  savePrefs() {
    try { localStorage.setItem(PREFS_KEY, JSON.stringify(this.prefs)); } catch { /* private mode */ }
  }

  toggleHidden() {
    this.prefs.hidden = !this.prefs.hidden;
    this.savePrefs();
    this.render();
  }

  toggleOtherRoom() {
    this.prefs.otherRoomMuted = !this.prefs.otherRoomMuted;
    this.savePrefs();
    this.render();
  }

  toggleMute(key) {
    const muted = new Set(this.prefs.muted);
    if (muted.has(key)) muted.delete(key); else muted.add(key);
    this.prefs.muted = [...muted].slice(-200);
    this.savePrefs();
    this.render();
  }

  async report(message, button) {
    button.disabled = true;
    try {
      await api(`/api/games/${encodeURIComponent(this.view.id)}/chat/${message.id}/report`, { method: 'POST', body: { reason: 'abuse' } });
      button.textContent = t('chat.reported');
    } catch (error) {
      button.disabled = false;
      this.fail(error.status ? error.message : t('chat.unavailable')); // api.js's words for the code
    }
  }

  // ----- rendering --------------------------------------------------------------------------
  myKey() {
    const me = currentPlayer();
    return me ? `${me.kind}:${me.id}` : null;
  }

  visible(m) {
    if (this.prefs.muted.includes(m.author.key)) return false;
    return !(this.prefs.otherRoomMuted && m.room !== this.myRoom());
  }

  line(m, both) {
    const words = m.phrase ? t(`chat.phrase.${m.phrase}`) : m.text;
    const mine = m.author.key === this.myKey();
    const head = [
      both ? h('span', { class: `chat-tag ${m.room}` }, t(`chat.room.${m.room}`)) : null,
      h('strong', { class: 'chat-author' }, playerName(m.author.name)), ' ',
      h('span', { class: m.phrase ? 'chat-text phrase' : 'chat-text' }, words),
    ];
    if (mine) return h('li', { class: 'chat-line mine', dataset: { id: m.id, room: m.room } }, h('div', { class: 'chat-own' }, ...head));
    const report = h('button', { type: 'button', class: 'chat-report', onclick: () => this.report(m, report) }, t('chat.report'));
    return h('li', { class: 'chat-line', dataset: { id: m.id, room: m.room } },
      h('details', {}, h('summary', {}, ...head),
        h('div', { class: 'chat-actions' },
          h('button', { type: 'button', class: 'chat-mute', onclick: () => this.toggleMute(m.author.key) }, t('chat.mute', { name: playerName(m.author.name) })),
          report)));
  }

  render() {
    const g = this.view.game;
    // The count of watchers, in games between people while someone watches ("Watching: 0"
    // under every game against the computer said nothing, and took a line of a phone's screen).
    this.badge.hidden = !(g?.mode === 'online' && this.count);
    if (!this.badge.hidden) this.badge.textContent = t('chat.watching', { n: this.count });
    // Chat between people: online games (nobody reads a chat with the computer).
    this.el.hidden = !g || g.mode !== 'online';
    const over = Boolean(g && g.status_id >= FINISHED);
    const both = this.rooms.length > 1;
    const unread = this.unread ? ` (${this.unread})` : '';
    this.summary.textContent = `${t('chat.title')}${unread}`;
    this.hideButton.textContent = t(this.prefs.hidden ? 'chat.show' : 'chat.hide');
    this.hideButton.setAttribute('aria-pressed', String(this.prefs.hidden));
    this.body.hidden = this.prefs.hidden;
    this.otherRoom.hidden = !both || this.prefs.hidden;
    const other = this.myRoom() === 'players' ? 'spectators' : 'players';
    this.otherRoom.textContent = t(this.prefs.otherRoomMuted ? `chat.showRoom.${other}` : `chat.muteRoom.${other}`);
    this.otherRoom.setAttribute('aria-pressed', String(this.prefs.otherRoomMuted));
    this.roomLine.textContent = over ? t('chat.room.over') : t(`chat.room.yours.${this.myRoom()}`);
    this.input.placeholder = t(`chat.placeholder.${this.myRoom()}`);
    const shown = [...this.messages.values()].filter((m) => this.rooms.includes(m.room) && this.visible(m))
      .sort((a, b) => a.id - b.id);
    const lines = shown.length ? shown.map((m) => this.line(m, both)) : [h('li', { class: 'chat-empty' }, t('chat.none'))];
    // Rebuilt only when it changes (an open message menu stays open), and a new message is
    // appended, so that a screen reader reads out that message only.
    const ids = shown.map((m) => m.id);
    const key = JSON.stringify([both, this.prefs.muted, this.myKey()]);
    const before = this.shownIds || [];
    const grew = key === this.listKey && before.length > 0 && ids.length > before.length
      && before.every((id, i) => ids[i] === id);
    if (grew) this.list.append(...lines.slice(before.length));
    else if (key !== this.listKey || JSON.stringify(ids) !== JSON.stringify(before)) this.list.replaceChildren(...lines);
    if (grew || key !== this.listKey || ids.length !== before.length) this.list.scrollTop = this.list.scrollHeight;
    this.listKey = key;
    this.shownIds = ids;
    this.renderCounter();
  }

  renderCounter() {
    const n = codePoints(this.input.value.trim());
    this.counter.textContent = `${n}/${MAX_CHARS}`;
    this.counter.classList.toggle('over', n > MAX_CHARS);
  }
}
