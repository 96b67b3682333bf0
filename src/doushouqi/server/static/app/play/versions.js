// Which version a game page stands at, and when it must ask the server for what it missed
// (a `sync`). Every message from the game's socket carries a version, but two kinds differ:
// an event carries the version it made (the next one is ours + 1), while a notice carries the
// version the game stood at when it was sent. A Redis restart can lose an event on its way
// between servers and still deliver the notices after it, so a notice ahead of us shows a gap
// too — and must not move us past the event we never saw.

/** Messages that are no event of the game (chat, spectator counts, the AI's busy note, pongs). */
export const NOTICES = new Set(['spectators', 'chat', 'chat_history', 'ai_busy', 'pong']);

/** Messages whose version says nothing about what this page has seen: a full `state` replaces
 * everything, refusals and errors carry the version they were judged at, and an ack of our
 * own move may overtake the move's event when the game runs on another server. */
const UNORDERED = new Set(['state', 'rejected', 'error', 'ack']);

/** Whether `msg` shows that a page at `version` missed events (then it sends a `sync`). */
export function missedEvents(msg, version) {
  if (typeof msg.version !== 'number' || version < 0 || UNORDERED.has(msg.type)) return false;
  return NOTICES.has(msg.type) ? msg.version > version : msg.version > version + 1;
}

/** Whether the page stands at `msg.version` once it has handled `msg` (events and states). */
export function advancesVersion(msg) {
  return typeof msg.version === 'number' && !NOTICES.has(msg.type) && !UNORDERED.has(msg.type);
}
