// The server's clock as this page knows it. Deadlines the server sends (a waiting game's
// `lobby_deadline`, a lobby entry's `expires_at`) are on the server's clock; a phone whose own
// clock is an hour off would count down to them wrongly. The server adds its `server_time` to
// the lobby and to each game `state`; this module keeps the difference from the device's clock
// and is the only place that does.

let offset = 0; // seconds: the server's clock minus this device's (0 until the server says)

/** Note the server's time from an answer that just arrived (`server_time`, epoch seconds);
 * answers without one (an older server) leave the offset as it was. */
export function noteServerTime(serverTime) {
  if (typeof serverTime !== 'number' || !Number.isFinite(serverTime)) return;
  // The answer took a moment to travel: the server's time is a little older than now, by well
  // under a second, which does not matter to countdowns in minutes.
  offset = serverTime - Date.now() / 1000;
}

/** The server's time now, in epoch seconds. */
export function serverNow() {
  return Date.now() / 1000 + offset;
}
