// The game page: the board component, clocks, players, moves, captured animals, actions and
// the result; one websocket per game with version-based resync (reconnect with ?since=).
// Hints and the threat view live in game_assist.js, accessible mode in game_access.js, the
// player's own moves (sent with ids, pending until answered, resent; premoves) in own_moves.js.

import { createBoard } from '../../board/board.js';
import { gameClient } from '../../games/index.js';
import { t, hasKey, currentLang, moveNumber } from '../shell/i18n.js';
import { moveText } from '../shell/move_text.js';
import { api, ensurePlayer, rejectedText } from '../shell/api.js';
import { showErrorPage } from '../shell/error_page.js';
import { h, replaceChanged } from '../shell/dom.js';
import { HintTool, ThreatView } from './game_assist.js';
import { AccessibleMode } from './game_access.js';
import { PlayerBars } from './game_players.js';
import { InviteExpiry, expiredResultLines, lobbyExpired } from './expiry.js';
import { noteServerTime } from '../shell/server_clock.js';
import { GameRulesNote } from './rule_options.js';
import { GameSounds } from '../shell/sounds.js';
import { challengeAgainLink } from '../lobby/challenges.js';
import { tournamentBackLink } from '../community/tournaments.js';
import { mountChat } from '../community/chat.js';
import { OpponentGone, placeToast } from './opponent_gone.js';
import { ratingLines } from './result_changes.js';
import { isCorrespondence, longTime } from '../lobby/corr.js';
import { NOTICES, advancesVersion, missedEvents } from './versions.js';
import { OwnMoves } from './own_moves.js';
import { sideName, siteGames } from '../shell/site_games.js';
import { pieceStyle } from '../shell/appearance.js';

const COLORS = ['red', 'blue'];
const FINISHED = 25;
const PLY_EVENTS = new Set(['move_made', 'timeout_passed']); // the events that add a ply

/** A clock's reading. `inWords`: a correspondence game, whose clocks read in days and hours
 * on both sides alike (an hour or more), whatever each side has left. */
function fmtTime(seconds, inWords = false) {
  if (seconds === null || seconds === undefined) return '—';
  const s = Math.max(0, seconds);
  if (inWords && s >= 3600) return longTime(s);
  if (s < 10) return s.toFixed(1);
  const m = Math.floor(s / 60);
  const rest = Math.floor(s % 60);
  return m >= 60 ? `${Math.floor(m / 60)}:${String(m % 60).padStart(2, '0')}:${String(rest).padStart(2, '0')}` : `${m}:${String(rest).padStart(2, '0')}`;
}

export class GameView {
  constructor(root, gameId, { join = false, navigate }) {
    this.root = root;
    this.id = gameId;
    this.wantJoin = join;
    this.navigate = navigate;
    this.version = -1;
    this.game = null;
    this.seats = [];
    this.moves = []; // {ply, color, text, move, moveId, zh, en, before}: `before` is the position before it
    this.notice = '';
    this.closed = false;
    this.retry = 0;
    this.resyncTries = 0; // syncs asked for in a row while the server was unavailable
    this.orientation = null;
    this.flipped = false; // the user turned the board themselves: it stays as they left it
    this.confirmResign = false;
    this.queue = Promise.resolve();
    this.offeredGames = [];
    // What the site has for this game (a computer player for hints, the threat view): asked
    // once; until the answer comes, those tools stay hidden.
    siteGames().then((games) => { this.offeredGames = games; this.render(); }).catch(() => {});
    this.build();
    this.connect();
    this.timer = setInterval(() => this.renderClocks(), 200);
  }

  // ----- connection ---------------------------------------------------------------------
  connect() {
    if (this.closed) return;
    const since = this.version >= 0 ? `?since=${this.version}` : '';
    const proto = location.protocol === 'https:' ? 'wss' : 'ws';
    const ws = new WebSocket(`${proto}://${location.host}/ws/games/${encodeURIComponent(this.id)}${since}`);
    this.ws = ws;
    ws.addEventListener('open', () => {
      this.retry = 0; this.opened = true; this.setOffline(false);
      this.own.opened(ws);
      this.render(); // "sending…" rather than "waiting for the connection"
    });
    ws.addEventListener('message', (e) => {
      // One message at a time, in order: handling a `state` fetches the move list first.
      const msg = JSON.parse(e.data);
      this.queue = this.queue.then(() => this.receive(msg)).catch((error) => console.warn(error));
    });
    ws.addEventListener('close', (e) => {
      if (this.closed || ws !== this.ws) return;
      this.own.closed();
      if (e.code === 4404 || e.code === 1008) { this.notFound(); return; }
      // A socket refused at the handshake (an unknown game is a 403 there) never opened: ask
      // the REST API whether the game exists before trying again for ever.
      if (!this.opened) this.checkExists();
      this.setOffline(true);
      this.render();
      const delay = Math.min(5000, 300 * 2 ** this.retry++);
      this.reconnectTimer = setTimeout(() => this.connect(), delay);
    });
  }

  send(type, extra = {}) {
    if (type === 'move') { this.own.play(extra.move); return; } // with an id, pending until answered
    const message = { type, ...extra };
    if (this.version >= 0 && type !== 'join' && type !== 'sync') message.version = this.version;
    if (this.game?.mode === 'same_screen' && !('color' in message)) message.color = this.turn;
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message));
  }

  destroy() {
    this.closed = true;
    clearInterval(this.timer);
    this.own?.destroy();
    this.expiry?.destroy();
    this.gone?.destroy();
    this.sounds?.destroy();
    this.chat?.destroy();
    clearTimeout(this.reconnectTimer);
    clearTimeout(this.resyncTimer);
    this.ws?.close();
    this.board?.destroy();
  }

  fatal(text) {
    this.stop();
    showErrorPage(this.root, { kind: 'error', message: text });
  }

  /** No more reconnecting: the page shows an error instead of the board. */
  stop() {
    this.closed = true;
    clearTimeout(this.reconnectTimer);
    this.ws?.close();
  }

  /** "Game not found" as a page of its own, with the code that was asked for. */
  notFound() {
    this.stop();
    showErrorPage(this.root, { kind: 'game', code: this.id });
  }

  async checkExists() {
    try {
      await api(`/api/games/${encodeURIComponent(this.id)}`);
    } catch (error) {
      if (error.status === 404 && !this.closed) this.notFound();
    }
  }

  // ----- messages -----------------------------------------------------------------------
  async receive(msg) {
    if (this.own.take(msg)) { this.render(); return; } // answers to our moves, the resend barrier
    if (missedEvents(msg, this.version)) {
      this.send('sync', { version: this.version });
      if (!NOTICES.has(msg.type)) return; // the event comes again, with those before it
    }
    switch (msg.type) {
      case 'state':
        this.resyncTries = 0; // the server answers again
        noteServerTime(msg.server_time); // the invitation's countdown goes by the server's clock
        this.version = msg.version;
        this.seats = msg.you.seats;
        this.game = msg.game;
        this.rulesNote.show(this.game.rules, this.game.game_key).catch(() => {}); // only words: the game goes on without them
        this.clocksAt = performance.now();
        await this.loadMoves();
        this.own.noteState(this.moves);
        if (this.wantJoin && this.game.status_id < 20 && !this.seats.length && this.game.players.includes(null)) {
          this.wantJoin = false;
          this.send('join');
        }
        break;
      case 'rejected':
        this.flash(rejectedText(msg.code));
        if (this.access.on) this.access.fail(rejectedText(msg.code));
        this.send('sync', { version: this.version });
        return;
      case 'error':
        if (msg.code === 'not_found') this.notFound();
        else if (msg.code === 'unavailable') { // the game is moving between servers, or not saved
          this.flash(t('game.unavailable'));
          this.resyncLater();
        }
        return;
      case 'rematch_ready':
        this.navigate(`/game/${msg.new_game_id}`);
        return;
      case 'ai_busy': // the computer thinks less while many play it: say so, nothing changes
        this.flash(t('game.aiBusy'));
        return;
      case 'pong': case 'ack':
        return;
      default:
        this.applyEvent(msg);
        this.own.noteEvent(msg);
        if (msg.type === 'game_started' || msg.type === 'player_joined') await this.refreshSeats();
    }
    if (advancesVersion(msg)) this.version = Math.max(this.version, msg.version);
    this.own.turnCame(); // a premove waiting for this turn is played (or dropped) now
    this.render();
  }

  /** Ask for what we missed once the server can answer again: after an `unavailable` (its
   * storage away for a moment), backing off while it keeps saying so, never in a tight loop. */
  resyncLater() {
    if (this.resyncTimer) return;
    const delay = Math.min(5000, 250 * 2 ** this.resyncTries);
    this.resyncTries += 1;
    this.resyncTimer = setTimeout(() => {
      this.resyncTimer = null;
      this.send('sync', { version: this.version });
    }, delay);
  }

  /** Our seats change when we join: ask the server which colours we play now. */
  async refreshSeats() {
    try {
      const state = await api(`/api/games/${encodeURIComponent(this.id)}`);
      this.seats = state.you.seats;
    } catch { /* keep them */ }
  }

  async loadMoves() {
    try {
      const { events } = await api(`/api/games/${encodeURIComponent(this.id)}/events?since=0`);
      this.moves = [];
      let fen = this.game.start_fen;
      for (const e of events) {
        this.trackMove(e, fen);
        if (e.fen) fen = e.fen;
      }
    } catch { /* keep the list */ }
  }

  /** Keep the move list up to date; `before` is the position before the event. */
  trackMove(e, before) {
    // A ply listed already is not listed again: the event list fetched for a `state` can be
    // newer than the socket's next events (the computer moving at once after the start).
    const last = this.moves[this.moves.length - 1];
    if (PLY_EVENTS.has(e.type) && last && last.ply >= e.ply) return;
    if (e.type === 'move_made') this.moves.push({ ply: e.ply, color: e.color, text: moveText(e.readable_zh, e.readable) || e.move, move: e.move, moveId: e.move_id, zh: e.readable_zh, en: e.readable, before });
    else if (e.type === 'timeout_passed') this.moves.push({ ply: e.ply, color: e.color, text: '—', move: '0000', before });
    else if (e.type === 'takeback_applied') this.moves.splice(Math.max(0, this.moves.length - e.removed.length));
  }

  applyEvent(e) {
    const g = this.game;
    if (!g) return;
    this.trackMove(e, g.fen);
    this.sounds.heard(e); // before the event is applied: it compares the positions
    const side = (c) => this.side(c);
    if ('fen' in e) g.fen = e.fen;
    if ('dests' in e) g.dests = e.dests;
    if ('to_move' in e) g.turn = e.to_move;
    if ('clocks' in e) { g.clocks = e.clocks; this.clocksAt = performance.now(); }
    if ('ply' in e) g.ply = e.ply;
    switch (e.type) {
      case 'player_joined': g.players[e.color] = e.player; break;
      case 'game_started':
        g.players = e.players; g.status_id = 20; g.status = 'started'; g.turn = e.to_move; break;
      case 'move_made':
        g.last_move = e.move; g.draw_offer = g.draw_offer === e.color ? g.draw_offer : null; g.takeback_request = null;
        break;
      case 'timeout_passed': g.timeouts[e.color] = e.timeouts; this.flash(t('game.timeoutPassed', { side: side(e.color) })); break;
      case 'game_finished':
        Object.assign(g, { status_id: e.termination === 'aborted' ? 25 : 30, result: e.result, dests: {},
          outcome: { termination: e.termination, winner: e.winner, result: e.result },
          abort_reason: e.abort_reason ?? null, lobby_deadline: null,
          score_change: e.score_change, rating_change: e.rating_change, leaver: e.leaver });
        break;
      case 'draw_offered': g.draw_offer = e.color; break;
      case 'draw_declined':
        if (!e.implicit) this.flash(t('game.drawDeclined'));
        g.draw_offer = null; break;
      case 'takeback_requested': g.takeback_request = e.color; break;
      case 'takeback_applied': g.takeback_request = null; g.last_move = null; break;
      case 'takeback_declined': g.takeback_request = null; break;
      case 'player_disconnected':
        g.disconnected_since = Object.assign([null, null], g.disconnected_since, { [e.color]: e.at });
        this.flash(t('game.disconnected', { side: side(e.color) })); break;
      case 'player_reconnected':
        g.disconnected_since = Object.assign([null, null], g.disconnected_since, { [e.color]: null });
        this.flash(t('game.reconnected', { side: side(e.color) })); break;
      case 'rematch_offered': g.rematch_offer = e.color; break;
      default: break;
    }
  }

  get turn() {
    return this.game?.turn ?? 0;
  }

  /** Whether the user may move now (a seat of theirs is to move, and not the computer's, and
   * no move of theirs is still on its way). */
  canMoveNow() {
    const g = this.game;
    return Boolean(g && g.status_id === 20 && this.seats.includes(g.turn) && g.players[g.turn]?.identity?.kind !== 'ai')
      && !this.own.waiting();
  }

  /** The game's client module (games/index.js): its board, pieces and words. */
  get gameClient() {
    return gameClient(this.game?.game_key);
  }

  /** Whether the site has `capability` ('engine', 'threats' …) for this game. */
  has(capability) {
    return Boolean(this.offeredGames.find((s) => s.key === this.game?.game_key)?.[capability]);
  }

  /** A seat's name in this game's words (Red; 虎方). */
  side(seat) {
    return sideName(seat, this.game?.game_key);
  }

  /** The pieces' look under this game's rule options (board options, and how words name them). */
  look() {
    return this.gameClient.lookOf(this.game?.rules);
  }

  // ----- layout -------------------------------------------------------------------------
  build() {
    const btn = (id, label, onclick, cls = '') => h('button', { type: 'button', id, class: cls, onclick }, label);
    this.el = {
      status: h('p', { class: 'status', id: 'status', role: 'status' }),
      board: h('div', { class: 'board-box', id: 'board' }),
      top: h('div', { class: 'player-bar top' }),
      bottom: h('div', { class: 'player-bar bottom' }),
      moves: h('ol', { class: 'moves', id: 'moves' }),
      banner: h('div', { class: 'banner', id: 'banner', hidden: true }),
      result: h('div', { class: 'result', id: 'result', hidden: true }),
      invite: h('div', { class: 'invite', id: 'invite', hidden: true }),
      actions: h('div', { class: 'actions', id: 'actions' }),
      offline: h('div', { class: 'offline', id: 'offline', role: 'status', hidden: true }, t('game.offline')),
      toast: h('div', { class: 'toast', id: 'toast', hidden: true, role: 'status' }),
    };
    this.hintTool = new HintTool(this);
    this.threatView = new ThreatView(this);
    this.access = new AccessibleMode(this);
    this.players = new PlayerBars(this);
    this.expiry = new InviteExpiry(this);
    this.rulesNote = new GameRulesNote();
    this.sounds = new GameSounds(this);
    this.gone = new OpponentGone(this);
    this.own = new OwnMoves(this);
    this.el.tools = h('div', { class: 'game-tools', id: 'game-tools' },
      this.hintTool.button, this.threatView.button, this.sounds.button,
      h('details', { class: 'game-menu', id: 'game-menu' },
        h('summary', {}, t('gamemenu.title')),
        h('div', { class: 'game-menu-body' }, this.access.menuItem)));
    this.buttons = {
      resign: btn('resign', t('game.resign'), () => this.resign(), 'danger'),
      draw: btn('offer-draw', t('game.offerDraw'), () => { this.send('offer_draw'); }),
      takeback: btn('takeback', t('game.takeback'), () => this.send('takeback')),
      flip: btn('flip', t('game.flip'), () => { this.flipped = true; this.orientation = this.orientation === 'blue' ? 'red' : 'blue'; this.render(); }),
      rematch: btn('rematch', t('game.rematch'), () => { this.send('rematch'); this.flash(t('game.rematchSent')); }, 'primary'),
      download: h('a', { id: 'download', class: 'button', href: `/api/games/${encodeURIComponent(this.id)}/record`, download: `${this.id}.txt` }, t('game.download')),
      join: btn('join', t('game.join'), () => this.send('join'), 'primary big'),
    };
    this.el.moves.setAttribute('aria-labelledby', 'moves-title');
    // aria-live="off": the page's <main> is a live region, which would read out every clock tick;
    // here the board and accessible mode announce what matters, each once.
    this.root.replaceChildren(h('section', { class: 'game-page', 'aria-live': 'off' },
      h('div', { class: 'board-col' }, this.el.top, this.el.board, this.el.bottom),
      // The hint and the threat legend right under the status: on a phone they are read with
      // the board, without scrolling; the tools that ask for them come before the game's
      // actions (used more often than resigning or downloading).
      h('aside', { class: 'side-col' }, this.el.status, this.hintTool.text, this.threatView.legend, this.own.note, this.own.premoveLine,
        this.gone.el, this.el.banner, this.el.result, this.el.invite, this.el.tools, this.el.actions, this.access.panel, this.rulesNote.el,
        h('h2', { class: 'moves-title', id: 'moves-title' }, t('game.moves')), this.el.moves),
      this.el.offline, this.el.toast));
    this.chat = mountChat(this); // under the move list; the spectator count by the status
  }

  resign() {
    if (!this.confirmResign) {
      this.confirmResign = true;
      this.buttons.resign.textContent = t('game.confirmResign');
      setTimeout(() => { this.confirmResign = false; this.buttons.resign.textContent = t('game.resign'); }, 4000);
      return;
    }
    this.confirmResign = false;
    this.buttons.resign.textContent = t('game.resign');
    this.send('resign');
  }

  setOffline(on) {
    this.el.offline.hidden = !on;
  }

  flash(text) {
    this.el.toast.textContent = text;
    this.el.toast.hidden = false;
    placeToast(this.el.toast); // never over a clock
    clearTimeout(this.toastTimer);
    this.toastTimer = setTimeout(() => { this.el.toast.hidden = true; }, 3500);
  }

  myColor() {
    if (this.seats.length === 1) return this.seats[0];
    return null;
  }

  // ----- rendering ----------------------------------------------------------------------
  render() {
    const g = this.game;
    if (!g || this.closed) return;
    const mine = this.myColor();
    // Your own side at the bottom (as the game draws it), also once you have joined through an
    // invitation; on one screen and for spectators, seat 0's view.
    if (!this.flipped) this.orientation = mine === null ? 'red' : this.gameClient.orientationFor(mine);
    const playing = g.status_id === 20;
    const finished = g.status_id >= FINISHED;
    const canMove = this.canMoveNow();
    const last = g.last_move ? this.gameClient.moveSquares(g.last_move) : null;
    const config = {
      ...this.own.boardConfig(g, canMove, last), orientation: this.orientation,
      movableColor: canMove ? COLORS[g.turn] : null, dests: canMove ? g.dests : {},
      lang: currentLang(), ...this.look(), pieceStyle: pieceStyle(this.gameClient),
      hint: this.hintTool.boardHint(), threats: this.threatView.boardThreats(), announceMoves: !this.access.on,
    };
    if (!this.board) {
      const events = { move: (from, to) => this.own.play(from + to), premove: (from, to) => this.own.setPremove(from ? [from, to] : null) };
      // The board of this game under its rules (老虎棋's lines follow its `diagonals` option).
      this.board = createBoard(this.el.board, { ...this.gameClient.boardFor(g.rules), ...config, events });
      this.buttons.download.setAttribute('download', `${this.gameClient.key}-${this.id}.txt`);
    } else {
      this.board.set(config);
    }
    // players and captured animals, the bottom bar is the side at the bottom of the board (the
    // seat that sees the board this way up: Jungle's Red from 'red', 老虎棋's men from 'red')
    const bottomColor = this.gameClient.orientationFor(1) === this.orientation ? 1 : 0;
    const captured = this.gameClient.captured(g.fen, g.rules);
    this.players.render(this.el.bottom, bottomColor, captured[1 - bottomColor]);
    this.players.render(this.el.top, 1 - bottomColor, captured[bottomColor]);
    this.renderClocks();
    // status
    let status;
    if (finished) status = this.resultTitle();
    else if (g.status_id < 20) status = g.players.includes(null) ? t('game.waiting') : t('game.starting');
    else if (this.own.waiting()) status = this.own.statusText();
    else if (canMove && g.mode !== 'same_screen') status = t('game.yourMove');
    else if (g.players[g.turn]?.identity?.kind === 'ai') status = t('game.thinking');
    else status = t('game.toMove', { side: this.side(g.turn) });
    if (!this.seats.length && g.status_id >= 20) status = `${t('game.spectating')} · ${status}`;
    this.el.status.textContent = status;
    this.el.status.hidden = finished;
    this.el.status.dataset.turn = COLORS[g.turn];
    this.own.render();
    // draw / takeback requests
    const banner = [];
    const opponentOffer = g.draw_offer !== null && g.draw_offer !== undefined && !this.seats.includes(g.draw_offer);
    if (playing && g.draw_offer !== null && g.draw_offer !== undefined) {
      if (opponentOffer && this.seats.length) {
        banner.push(h('p', {}, t('game.drawOffered', { side: this.side(g.draw_offer) })),
          h('div', { class: 'row' },
            h('button', { type: 'button', id: 'accept-draw', class: 'primary', onclick: () => this.send('accept_draw') }, t('game.acceptDraw')),
            h('button', { type: 'button', id: 'decline-draw', onclick: () => this.send('decline_draw') }, t('game.declineDraw'))));
      } else if (!opponentOffer) banner.push(h('p', {}, t('game.drawSent')));
    }
    if (playing && g.takeback_request !== null && g.takeback_request !== undefined && this.seats.length && !this.seats.includes(g.takeback_request)) {
      banner.push(h('p', {}, t('game.takebackRequested', { side: this.side(g.takeback_request) })),
        h('div', { class: 'row' },
          h('button', { type: 'button', id: 'accept-takeback', class: 'primary', onclick: () => this.send('accept_takeback') }, t('game.acceptTakeback')),
          h('button', { type: 'button', id: 'decline-takeback', onclick: () => this.send('decline_takeback') }, t('game.declineTakeback'))));
    }
    this.el.banner.replaceChildren(...banner);
    this.el.banner.hidden = !banner.length;
    // invite / join
    const open = g.status_id < 20 && g.players.includes(null);
    this.el.invite.hidden = !open;
    if (open) {
      const link = `${location.origin}/game/${this.id}?join=1`; // the path: a shared link gets a preview
      const input = h('input', { readonly: true, value: link, id: 'invite-link', 'aria-label': t('game.invite') });
      this.el.invite.replaceChildren(this.seats.length
        ? h('div', {}, h('p', {}, t('game.invite')), h('div', { class: 'row' }, input,
          h('button', { type: 'button', onclick: async (e) => { try { await navigator.clipboard.writeText(link); e.target.textContent = t('game.copied'); } catch { input.select(); } } }, t('game.copy'))))
        : this.buttons.join, this.expiry.line);
    }
    this.expiry.update();
    // actions
    const b = this.buttons;
    const seated = this.seats.length > 0;
    const acts = [];
    if (playing && seated) {
      acts.push(b.resign);
      if (g.mode === 'online') acts.push(b.draw);
      if (!g.tournament) acts.push(b.takeback); // tournament games allow none
      b.takeback.disabled = !g.ply;
      b.draw.disabled = g.draw_offer !== null && g.draw_offer !== undefined;
    }
    // Nobody to play again after an expired wait; a tournament pairs its own next games.
    if (finished && seated && !lobbyExpired(g) && !g.tournament) acts.push(b.rematch);
    acts.push(b.flip, b.download);
    if (g.tournament_id) acts.push(this.tournamentLink ??= tournamentBackLink(g)); // standings, the next round
    replaceChanged(this.el.actions, acts);
    // hint, threats, accessible mode
    this.hintTool.render();
    this.threatView.update();
    this.access.render();
    this.gone.render();
    // moves: in accessible mode a numbered list in full words
    this.el.moves.classList.toggle('full', this.access.on);
    this.el.moves.replaceChildren(...(this.access.on ? this.access.listItems() : this.moves.map((m) => h('li', { class: COLORS[m.color] },
      h('span', { class: 'ply' }, moveNumber(m.ply)), ' ', m.text))));
    this.el.moves.scrollTop = this.el.moves.scrollHeight;
    // result
    this.el.result.hidden = !finished;
    if (finished) this.renderResult();
  }

  /** The result in one sentence, e.g. for a screen reader: "红方获胜：攻入兽穴". */
  resultWords() {
    const o = this.game.outcome || {};
    return o.termination && o.termination !== 'aborted'
      ? t('a11y.over', { result: this.resultTitle(), reason: t(`term.${o.termination}`) })
      : this.resultTitle();
  }

  resultTitle() {
    const o = this.game.outcome || {};
    if (o.termination === 'aborted') return t(lobbyExpired(this.game) ? 'expiry.expired.title' : 'result.title.aborted');
    if (o.winner === null || o.winner === undefined) return t('result.title.draw');
    return t('result.title.win', { side: this.side(o.winner) });
  }

  renderResult() {
    const g = this.game;
    const o = g.outcome || {};
    const mine = this.myColor();
    // Rebuilt only when it changes, so that a focused link or button in it keeps the focus.
    const key = JSON.stringify([o, g.score_change, g.rating_change, mine, g.abort_reason]);
    if (key === this.resultKey) return;
    this.resultKey = key;
    const lines = [h('strong', { class: 'result-title' }, this.resultTitle())];
    if (lobbyExpired(g)) lines.push(...expiredResultLines());
    else if (o.termination) lines.push(h('span', { class: 'result-reason' }, t(`term.${o.termination}`)));
    // Aborted by the server because its players did not come or did not move (domain/timing.py).
    if (g.abort_reason && hasKey(`result.abortReason.${g.abort_reason}`)) lines.push(h('span', { class: 'result-abort-reason', id: 'abort-reason' }, t(`result.abortReason.${g.abort_reason}`)));
    if (mine !== null && o.winner !== null && o.winner !== undefined) lines.push(h('span', { class: 'result-you' }, t(mine === o.winner ? 'result.youWin' : 'result.youLose')));
    const sc = g.score_change;
    if (sc) {
      const nothing = !sc.deltas.some(Boolean);
      if (sc.voided) lines.push(h('small', {}, t('result.voided')));
      for (const c of nothing ? [] : [0, 1]) {
        if (!g.players[c] || g.players[c].identity?.kind === 'ai') continue;
        const d = sc.deltas[c];
        lines.push(h('small', { class: 'score' }, `${this.side(c)}: ${t('result.score', { delta: d > 0 ? `+${d}` : d, score: sc.new_scores[c] })}`));
      }
    }
    lines.push(...ratingLines(g)); // ratings before → after (±N), and what they mean
    if (o.termination && o.termination !== 'aborted') {
      lines.push(h('a', { class: 'button replay-link', id: 'replay-link', href: `#/replay/game/${encodeURIComponent(this.id)}` }, t('resultlink.replay')));
      lines.push(...[challengeAgainLink(g, mine)].filter(Boolean)); // between accounts: another game, other settings
    }
    this.el.result.dataset.winner = o.winner === null || o.winner === undefined ? 'none' : COLORS[o.winner];
    this.el.result.replaceChildren(...lines);
  }

  renderClocks() {
    const g = this.game;
    if (!g) return;
    const c = g.clocks;
    const elapsed = (performance.now() - (this.clocksAt || 0)) / 1000;
    const corr = isCorrespondence(g.time_control);
    for (const el of this.root.querySelectorAll('[data-clock]')) {
      const color = Number(el.dataset.clock);
      if (!c) { el.replaceChildren(); el.hidden = true; continue; }
      el.hidden = false;
      const running = c.running && c.to_move === color && g.status_id === 20;
      const main = c.remaining[color] === null ? null : c.remaining[color] - (running ? elapsed : 0);
      if (running) this.sounds.clock(color, main);
      const parts = [];
      if (main !== null) parts.push(h('span', { class: 'main' }, fmtTime(main, corr)));
      if (c.move_time_left !== null && c.to_move === color && g.status_id === 20) {
        parts.push(h('span', { class: 'per-move' }, `${t('game.perMove')} ${fmtTime(c.move_time_left - (running ? elapsed : 0), corr)}`));
      }
      const outs = (c.timeouts || g.timeouts || [0, 0])[color];
      if (outs) parts.push(h('span', { class: 'timeouts' }, t('game.timeouts', { n: outs })));
      el.classList.toggle('running', running);
      el.classList.toggle('low', main !== null && main < 30);
      el.replaceChildren(...parts);
    }
  }
}

/** The game page (#/game/<id>[?join=1]): the player is made known first (a guest if need be). */
export async function gameRoute(view, id, { params, go, superseded }) {
  await ensurePlayer();
  if (superseded()) return null; // no board, no websocket for a page already left
  const game = new GameView(view, id, { join: params.get('join') === '1', navigate: go });
  window.gameView = game;
  return () => game.destroy();
}
