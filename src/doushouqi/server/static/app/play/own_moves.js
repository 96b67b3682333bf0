// The player's own moves on the game page: each is sent with an id and shown on the board at
// once, marked pending ("sending…") until the server answers for it (pending_moves.js); moves
// made while the socket is down wait, and whatever is unanswered is sent again after a
// reconnect, or after a reload of the page (they are kept in the tab's sessionStorage). A refused move is taken back and the player is told why, in words that stay near
// the board; a move the server could not take now (`unavailable`) stays pending and is sent
// again. And the premove (premoves.js): chosen while the opponent is to move, played when the
// turn comes if the server's legal moves allow it, else dropped with a note.
//
// Resending waits for the new socket's first messages (the fresh state, or the events missed):
// a ping is sent when the socket opens, and the server answers in order, so by its pong those
// have arrived (and a move they show played needs no "sending…" any more; it is still sent
// again, for the ack of its id).

import { t, hasKey } from '../shell/i18n.js';
import { h } from '../shell/dom.js';
import { isCorrespondence } from '../lobby/corr.js';
import { PendingMoves, moveLabel, moveStore, newMoveId, placementAfter } from './pending_moves.js';
import { premovesAllowed, premoveText, premoveVerdict } from './premoves.js';

const COLORS = ['red', 'blue'];
const RETRY_MS = [500, 1000, 2000, 4000, 5000]; // after `unavailable` (the server is getting
// back) or `rate_limited`
const MAX_FAULTS = 3; // `internal` answers to one move before it counts as refused (a fault of
// the server's own: perhaps passing, perhaps not)

let barriers = 0;

export class OwnMoves {
  constructor(view) {
    this.view = view;
    // Kept in the tab's storage: a reload sends again what was not answered (pending_moves.js).
    this.pending = new PendingMoves(newMoveId, moveStore(view.id));
    this.premove = null; // [from, to] or null
    this.synced = false; // the current socket has delivered its first messages
    this.barrier = null; // the id of the ping that tells so
    this.retries = 0;
    this.noteText = h('span', { class: 'move-note-text' });
    this.note = h('div', { class: 'move-note', id: 'move-note', role: 'alert', hidden: true },
      this.noteText,
      h('button', { type: 'button', class: 'move-note-close', id: 'move-note-close', 'aria-label': t('move.dismiss'), onclick: () => this.clearNote() }, '×'));
    this.premoveWords = h('span', { id: 'premove-text' });
    this.premoveLine = h('div', { class: 'premove-line', id: 'premove-line', hidden: true },
      this.premoveWords,
      h('button', { type: 'button', id: 'cancel-premove', onclick: () => this.setPremove(null) }, t('move.cancelPremove')));
  }

  destroy() {
    clearTimeout(this.retryTimer);
  }

  // ----- the socket ---------------------------------------------------------------------
  /** A socket opened: ask for a pong, which comes after what the server sends first. */
  opened(ws) {
    this.synced = false;
    this.barrier = `moves-${++barriers}`;
    ws.send(JSON.stringify({ type: 'ping', id: this.barrier }));
  }

  /** The socket closed: whatever was sent on it may never have arrived. */
  closed() {
    this.synced = false;
    this.barrier = null;
    clearTimeout(this.retryTimer);
    this.pending.sendAgain();
  }

  /** Send what waits, when the socket can take it. */
  flush() {
    const ws = this.view.ws;
    if (!this.synced || ws?.readyState !== WebSocket.OPEN) return;
    for (const entry of this.pending.unsent()) {
      const message = { type: 'move', move: entry.move, version: entry.version, id: entry.id };
      if (this.view.game?.mode === 'same_screen') message.color = entry.color;
      ws.send(JSON.stringify(message));
      this.pending.markSent(entry);
    }
  }

  // ----- moves --------------------------------------------------------------------------
  /** The player moves (on the board, typed, or a premove played): shown at once, then sent. */
  play(move) {
    const view = this.view;
    const g = view.game;
    if (!g) return;
    this.clearNote();
    this.premove = null;
    this.pending.add({ move, version: view.version, ply: (g.ply ?? 0) + 1, color: g.turn ?? 0 });
    this.flush();
    view.render();
  }

  /** Whether a move of the player's waits to be seen played (they cannot move again). */
  waiting() {
    return this.pending.awaited() !== null;
  }

  /** The server's answer to one of our messages; true when it was ours (nothing else to do). */
  take(msg) {
    // Any answer to the ping (its pong, or a refusal such as `rate_limited`) comes after what
    // the socket delivered first: the server answers in order.
    if ((msg.type === 'pong' || msg.type === 'error') && msg.id && msg.id === this.barrier) {
      this.synced = true;
      this.flush();
      return true;
    }
    const answer = this.pending.answer(msg, { maxFaults: MAX_FAULTS });
    if (!answer) return false;
    if (answer.outcome === 'played') this.retries = 0;
    else if (answer.outcome === 'retry') this.retryLater(answer.entry);
    else if (answer.outcome === 'refused') this.refused(answer.entry, answer.code);
    else if (answer.outcome === 'gone') this.view.notFound();
    return true;
  }

  /** A game event, after it was applied: one of our moves seen played? */
  noteEvent(msg) {
    this.pending.noteEvent(msg);
  }

  /** A fresh state's move list: our moves in it are played. */
  noteState(moves) {
    this.pending.noteState(moves);
  }

  /** The server could not take the move now (saving failed, the game is moving between
   * servers): it stays pending and goes again shortly. */
  retryLater(entry) {
    const delay = RETRY_MS[Math.min(this.retries++, RETRY_MS.length - 1)];
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => {
      this.pending.sendAgain(entry.id);
      this.flush();
    }, delay);
  }

  refused(entry, code) {
    const view = this.view;
    this.premove = null; // chosen on top of a move that did not happen
    // A move already seen played was an equal move from elsewhere (another tab): the board
    // shows it played, and it was; only this id was not the one applied.
    if (entry.applied) return;
    const reason = hasKey(`move.why.${code}`) ? t(`move.why.${code}`) : t('move.why.other');
    const text = t('move.notPlayed', { move: moveLabel(entry.move), reason });
    this.showNote(text, 'refused');
    if (view.access.on) view.access.fail(text);
    view.send('sync', { version: view.version }); // the board goes back to the server's position
  }

  // ----- premoves -----------------------------------------------------------------------
  premovesOn() {
    const view = this.view;
    return premovesAllowed(view.game, view.seats, { correspondence: isCorrespondence(view.game?.time_control) });
  }

  /** The board reports a premove set ([from, to]) or cancelled (null). */
  setPremove(premove) {
    this.premove = premove;
    this.view.render();
  }

  /** After each message: if the player's turn has come with a premove waiting, play or drop it. */
  turnCame() {
    if (!this.premove) return;
    if (!this.premovesOn()) { this.premove = null; return; } // the game ended
    if (!this.view.canMoveNow()) return;
    const move = premoveText(this.premove);
    if (premoveVerdict(this.premove, this.view.game.dests) === 'play') {
      this.play(move);
    } else {
      this.premove = null;
      this.showNote(t('move.premoveDropped', { move: moveLabel(move) }), 'premove');
    }
  }

  // ----- drawing ------------------------------------------------------------------------
  /**
   * What the board shows of our moves, on top of the server's position `g` and last move:
   * the move waiting to be seen played (made, marked pending), and the premove.
   */
  boardConfig(g, canMove, lastMove) {
    const view = this.view;
    const config = { position: g.fen, lastMove, pendingMove: null, turnColor: COLORS[g.turn] };
    const shown = this.pending.shownOn(g.ply ?? 0);
    const client = view.gameClient;
    const after = shown && placementAfter(g.fen, shown.move, { parse: client.parsePlacement, write: client.placementToString });
    if (after) {
      const move = client.moveSquares(shown.move);
      Object.assign(config, { position: after, lastMove: move, pendingMove: move, turnColor: COLORS[1 - g.turn] });
    }
    // Premoves while the player may not move (a game whose client module names no premove
    // squares has none). One left when the turn came was played or dropped already (turnCame,
    // before any drawing); one left when the game ended goes here.
    const mine = view.myColor();
    const premoving = !canMove && mine !== null && this.premovesOn() && typeof client.premoveDests === 'function';
    if (!premoving) this.premove = null;
    config.premoveColor = premoving ? COLORS[mine] : null;
    config.premoveDests = premoving ? client.premoveDests(config.position, COLORS[mine]) : {};
    config.premove = premoving ? this.premove : null;
    return config;
  }

  /** The status line while a move of ours is on its way, or null. */
  statusText() {
    const entry = this.pending.awaited();
    if (!entry) return null;
    const open = this.view.ws?.readyState === WebSocket.OPEN;
    return t(open ? 'move.sending' : 'move.queued', { move: moveLabel(entry.move) });
  }

  render() {
    const waiting = this.waiting();
    this.view.el.status.classList.toggle('sending', waiting);
    this.premoveLine.hidden = !this.premove;
    if (this.premove) this.premoveWords.textContent = t('move.premove', { move: moveLabel(premoveText(this.premove)) });
  }

  showNote(text, kind) {
    this.noteText.textContent = text;
    this.note.dataset.kind = kind;
    this.note.hidden = false;
  }

  clearNote() {
    this.note.hidden = true;
    this.noteText.textContent = '';
  }
}
