// The player's own moves until the server has answered for them (docs/server.md, "Move ids").
// Each move gets an id of its own and the game version it was made against; it is shown on the
// board at once, and sent again, with the same id and version, after every reconnect until the
// server's `ack` or `rejected` for that id arrives: the server applies an id at most once and
// answers a resend with the first answer. A `move_made` naming the id (or a state's move list)
// shows the move applied, usually before its ack: the board then shows it as played, and the
// player may move on. The id itself is closed only by the server's answer to it: when the
// answer was lost with a socket, the move is sent again after the reconnect and answered
// `duplicate` (one message, and no move is ever left without its answer). An ack may also come
// first (from a game another server node runs): the move then stays drawn as made until its
// event brings it into the position, so that it never seems to go back. Pure bookkeeping, no
// DOM and no socket: own_moves.js sends and draws.
//
// The moves also outlive the page: given a store (`moveStore`: the tab's sessionStorage, one
// key per game), every change is written there and a new page of the same game in the same tab
// (a reload) starts from them, so a move made while the connection was down is still sent, under
// its id, after a reload; the server applies an id at most once, so sending it again is safe.

/** The key under which a game's unanswered moves are kept in the tab's storage. */
export function storeKey(gameId) {
  return `doushouqi.pendingMoves.${gameId}`;
}

/**
 * A store for one game's waiting moves in `storage` (the tab's sessionStorage: it survives a
 * reload, not the tab): `load()` gives the entries kept (none when there is nothing, or
 * nothing readable), `save(entries)` keeps them (none: the key goes). A storage that refuses
 * (full, or off in a private window) only costs the moves' surviving a reload.
 */
export function moveStore(gameId, storage = globalThis.sessionStorage) {
  const key = storeKey(gameId);
  return {
    load() {
      try {
        const kept = JSON.parse(storage?.getItem(key) ?? '[]');
        return Array.isArray(kept) ? kept.filter(validEntry) : [];
      } catch {
        return [];
      }
    },
    save(entries) {
      try {
        if (!entries.length) storage?.removeItem(key);
        else storage?.setItem(key, JSON.stringify(entries.map(({ id, move, version, ply, color, applied, acked }) => ({ id, move, version, ply, color, applied, acked }))));
      } catch { /* not kept: the moves live as long as the page */ }
    },
  };
}

function validEntry(e) {
  return e && typeof e.id === 'string' && typeof e.move === 'string' && Number.isInteger(e.version)
    && Number.isInteger(e.ply) && (e.color === 0 || e.color === 1);
}

/** A fresh move id, `m-` and 16 random hex digits (the protocol allows 64 characters). */
export function newMoveId(random = globalThis.crypto) {
  const bytes = new Uint8Array(8);
  if (random?.getRandomValues) random.getRandomValues(bytes);
  else for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(Math.random() * 256);
  return `m-${[...bytes].map((b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/** The places a move string names, in order: the board names every place by a file letter and
 * a rank number (board/geometry.js), so "g3g4" is g3, g4 and 老虎棋's "e5e7e9" e5, e7, e9. */
export function movePlaces(move) {
  return String(move).match(/[a-z][0-9]+/g) ?? [];
}

/** A move as people read it on the board: "g3–g4" (a jump in several: "e5–e7–e9"). */
export function moveLabel(move) {
  return movePlaces(move).join('–');
}

/**
 * The position after a move on the board's terms: the piece on `from` goes to `to` (the move's
 * first and last places), taking whatever stood there (the board component's own model of a
 * user move, board/state.js applyMove; a man a tiger jumps goes when the server's position
 * comes). `parse` and `write` turn a placement into a Map square → piece and back. Null
 * when `from` is empty (the move no longer fits the position).
 */
export function placementAfter(position, move, { parse, write }) {
  const places = movePlaces(move);
  const [from, to] = [places[0], places[places.length - 1]];
  const pieces = parse(position);
  const piece = pieces.get(from);
  if (!piece) return null;
  pieces.delete(from);
  pieces.set(to, piece);
  return write(pieces);
}

/**
 * A move waiting for the server's answer:
 *   id, move ('g3g4'), version (the game version it was made against), ply (the ply it becomes:
 *   the server's `ply` after it), color (the seat it was made for), sent (on the current socket),
 *   applied (a move_made or a move list showed it played), acked (the server's ack came).
 */
export class PendingMoves {
  /** `store` (moveStore): where the entries are kept across reloads; null: in memory only. */
  constructor(makeId = newMoveId, store = null) {
    this.makeId = makeId;
    this.store = store;
    // Entries kept by an earlier page were not sent on this page's socket.
    this.entries = (store?.load() ?? []).map((e) => ({ ...e, applied: Boolean(e.applied), acked: Boolean(e.acked), sent: false }));
  }

  /** Keep the entries as they are now (after every change). */
  saved(result) {
    this.store?.save(this.entries);
    return result;
  }

  /** A new move of the player's; returns its entry. */
  add({ move, version, ply, color }) {
    const entry = {
      id: this.makeId(), move, version, ply, color, sent: false, applied: false, acked: false,
    };
    this.entries.push(entry);
    return this.saved(entry);
  }

  get size() {
    return this.entries.length;
  }

  byId(id) {
    return this.entries.find((e) => e.id === id) ?? null;
  }

  /** The move the player is waiting for: made, not yet seen played (at most one). */
  awaited() {
    return this.entries.find((e) => !e.applied) ?? null;
  }

  /** The moves to send now: those not sent on the current socket (nor answered), oldest first. */
  unsent() {
    return this.entries.filter((e) => !e.sent && !e.acked);
  }

  markSent(entry) {
    entry.sent = true;
  }

  /** The socket closed (or the server could not take a move): anything sent may be lost. */
  sendAgain(id = null) {
    for (const e of this.entries) if (id === null || e.id === id) e.sent = false;
  }

  remove(id) {
    const index = this.entries.findIndex((e) => e.id === id);
    if (index < 0) return null;
    return this.saved(this.entries.splice(index, 1)[0]);
  }

  /**
   * What a server message says about our moves: null when nothing (not an answer to one of
   * our ids), else {outcome, entry, code}:
   *   'played'   an `ack` (a `duplicate` one too): the move is played and recorded; removed
   *              (kept, marked acked, until its event shows it in the position)
   *   'refused'  `rejected`, or an `error` that sending again would not mend; removed
   *   'retry'    `error` `unavailable` or `rate_limited` (the move was not applied: send it
   *              again shortly), or a fault of the server's own (`internal`) up to `maxFaults`
   *              times; it stays
   *   'gone'     `error` `not_found`: the game is no more; removed
   */
  answer(msg, { maxFaults = 3 } = {}) {
    const entry = typeof msg?.id === 'string' ? this.byId(msg.id) : null;
    if (!entry) return null;
    const code = msg.code ?? null;
    switch (msg.type) {
      case 'ack':
        entry.acked = true;
        if (entry.applied) this.remove(entry.id);
        return this.saved({ outcome: 'played', entry, code });
      case 'rejected':
        return { outcome: 'refused', entry: this.remove(entry.id), code };
      case 'error':
        if (code === 'not_found') return { outcome: 'gone', entry: this.remove(entry.id), code };
        if (code === 'unavailable' || code === 'rate_limited') return { outcome: 'retry', entry, code };
        if (code === 'internal' && (entry.faults = (entry.faults ?? 0) + 1) < maxFaults) {
          return { outcome: 'retry', entry, code };
        }
        return { outcome: 'refused', entry: this.remove(entry.id), code };
      default:
        return null;
    }
  }

  /**
   * A game event: when it is the move of a waiting entry, the entry is applied. The server
   * names the move's id (`move_id`); a move without one (a server that names none) is ours
   * when seat, move and ply are. Returns that entry, or null.
   */
  noteEvent(event) {
    if (event?.type !== 'move_made') return null;
    const named = typeof event.move_id === 'string';
    const entry = this.entries.find((e) => !e.applied && (named
      ? e.id === event.move_id
      : e.move === event.move && e.color === event.color && e.ply === event.ply));
    if (!entry) return null;
    entry.applied = true;
    if (entry.acked) this.remove(entry.id);
    return this.saved(entry);
  }

  /** A whole move list (a fresh state's: [{ply, color, move, moveId}]): the waiting entries
   * in it are applied. */
  noteMoves(moves) {
    for (const m of moves) this.noteEvent({ type: 'move_made', ply: m.ply, color: m.color, move: m.move, move_id: m.moveId });
  }

  /** A fresh state came, with its move list: what it shows played is, and an acked move is
   * in it whatever the list says (the state was taken after the ack). */
  noteState(moves) {
    this.noteMoves(moves);
    this.entries = this.entries.filter((e) => !e.acked);
    this.saved();
  }

  /**
   * The move to show on top of the server's position, whose last ply is `ply`: the awaited one,
   * when it was made in that very position (after any other change it will be refused, and
   * the board shows the server's position meanwhile).
   */
  shownOn(ply) {
    const entry = this.awaited();
    return entry && entry.ply === ply + 1 ? entry : null;
  }

  clear() {
    this.entries = [];
    this.saved();
  }
}
