// Which page is current. A view that waits for the server (a profile, the leaderboard, a replay)
// may get its answer after the user has gone to another page; drawing it then would replace
// the page they are on. The router counts the pages it starts; a view takes a check when it
// starts and asks it after each wait, drawing nothing once another page has begun.

let pages = 0; // how many pages the router has started

/** The router: a new page begins, and every page begun before it is no longer current.
 * Returns the new page's check (see `pageCheck`). */
export function startPage() {
  pages += 1;
  return pageCheck();
}

/** Called by a view as it starts, before its first `await`: a function that says whether the
 * view's page is still the current one. */
export function pageCheck() {
  const page = pages;
  return () => page === pages;
}
