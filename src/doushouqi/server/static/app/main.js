// The web client's entry point: the route table (a hash path → the view that draws it), the
// router that runs it, and the top bar's language menu. The views live in their areas' folders:
// shell/ (what every page uses), play/, lobby/, study/, learn/ and community/.

import { t, loadLang, markLang, currentLang, LANGS } from './shell/i18n.js';
import { h } from './shell/dom.js';
import { startPage } from './shell/navigation.js';
import { showErrorPage } from './shell/error_page.js';
import { homeView } from './shell/home.js';
import { newGameView } from './play/new_game.js';
import { gameRoute } from './play/game.js';
import { lobbyView } from './lobby/lobby.js';
import { pairingView } from './lobby/pairing.js';
import { challengeView } from './lobby/challenges.js';
import { yourTurnView } from './lobby/corr.js';
import { replayRoute } from './study/replay.js';
import { analysisBoardView } from './study/analysis_board.js';
import { explorerView } from './study/explorer.js';
import { puzzlesView } from './study/puzzles.js';
import { rulesView } from './learn/rules.js';
import { learnListView, lessonView } from './learn/lessons.js';
import { authView, leaderboardView, mountAccountMenu, profileView, renderAccountMenu } from './community/accounts.js';
import { ranksView } from './community/ranks.js';
import { settingsView } from './community/settings.js';
import { applyBoardTheme } from './shell/appearance.js';
import { tvView, watchView } from './community/watch.js';
import { tournamentsRoute } from './community/tournaments.js';
import { moderationView } from './community/moderation.js';
import './community/notifications.js'; // the bell and the site socket (it starts itself)
import './lobby/challenge_popup.js'; // a challenge pops up on any page (it listens by itself)
import { gameClient } from '../games/index.js';

const view = document.querySelector('#view');
const langMenu = document.querySelector('#lang'); // a <select> of the languages, each named in itself
let current = null; // the view's cleanup

function go(path) {
  location.hash = path;
}

function showError(error) {
  showErrorPage(view, { kind: 'error', message: error?.message || String(error) });
}

/** A path pattern: its segments match the path's first ones (`lobby` also answers `lobby/x`). */
const at = (pattern) => new RegExp(`^${pattern}(?:/|$)`);
const segment = (text) => decodeURIComponent(text);

// Path pattern → view, the first match wins. A view gets the pattern's match and the page
// (`parts`: the path's segments, `params`: the query, `superseded()`: whether the user went on
// meanwhile) and returns its cleanup, if it has one, or a promise of it.
const ROUTES = [
  [at(''), () => homeView(view)],
  [at('new/(vs_ai|same_screen|online)'), (m, { params }) => newGameView(view, m[1], go, params)],
  [at('game/([^/]+)'), (m, page) => gameRoute(view, m[1], { ...page, go })],
  [at('lobby'), () => lobbyView(view, go)],
  [at('play'), (m, { params }) => pairingView(view, go, params)],
  [at('challenge/([^/]+)'), (m) => challengeView(view, segment(m[1]), go)],
  [at('correspondence'), () => yourTurnView(view)],
  [at('rules(?:/([^/]+))?'), (m) => rulesView(view, m[1] || gameClient().defaultRules, go)],
  [at('learn(?:/([^/]+))?'), (m, { params }) => (m[1] ? lessonView(view, m[1], params) : learnListView(view))],
  [at('replay'), (m, { parts, params }) => replayRoute(view, parts, params, go)],
  [at('analysis'), (m, { params }) => analysisBoardView(view, params)],
  [at('explorer'), (m, { params }) => explorerView(view, params)],
  [at('puzzles'), (m, { parts, params }) => puzzlesView(view, parts, params)],
  [at('(login|register)'), (m, { params }) => authView(view, m[1], params)],
  [at('player/([^/]+)'), (m) => profileView(view, segment(m[1]))],
  [at('leaderboard'), (m, { params }) => leaderboardView(view, params)],
  [at('settings'), () => settingsView(view)],
  [at('ranks'), () => ranksView(view)],
  [at('watch'), (m, { params }) => watchView(view, params)],
  [at('tv'), () => tvView(view)],
  [at('tournaments?'), (m, { parts }) => tournamentsRoute(view, parts, go)],
  [at('mod'), () => moderationView(view)],
];

// ----- router -----------------------------------------------------------------------------

async function route() {
  const isCurrent = startPage();
  const superseded = () => !isCurrent(); // the user went on while this page loaded
  if (typeof current === 'function') current();
  current = null;
  const [path, query = ''] = location.hash.replace(/^#/, '').split('?');
  const parts = path.split('/').filter(Boolean);
  const params = new URLSearchParams(query);
  document.body.dataset.view = parts[0] || 'home';
  window.scrollTo(0, 0);
  renderAccountMenu();
  let cleanup = null;
  try {
    const joined = parts.join('/');
    const found = ROUTES.find(([pattern]) => pattern.test(joined));
    if (found) cleanup = await found[1](joined.match(found[0]), { parts, params, superseded });
    else showErrorPage(view, { kind: 'notFound' }); // an address no page answers to
  } catch (error) {
    if (!superseded()) showError(error);
    return;
  }
  // A late view must not take the place of the newer page's cleanup (the lobby's refresh timer
  // would run on): it is stopped now instead.
  if (superseded()) {
    if (typeof cleanup === 'function') cleanup();
    return;
  }
  current = cleanup;
}

langMenu.replaceChildren(...LANGS.map((l) => h('option', { value: l.code, lang: l.html }, l.name)));
// The top bar in the language shown: the menu's choice, the name in its script (鬥獸棋 in zh-Hant).
function showLang() {
  langMenu.value = currentLang();
  document.querySelector('.brand-name').textContent = t('brand.name');
  document.querySelector('.brand .token').textContent = t('brand.token');
}
langMenu.addEventListener('change', async () => {
  // Picking the language already shown redraws nothing: what was typed into the page stays.
  if (langMenu.value === currentLang()) return;
  await loadLang(langMenu.value, { mark: false });
  showLang();
  await route();
  markLang();
});

// An address without the '#' (/game/ID, /tv … : what people share, and what the server answers
// with this page) is the same page: its path becomes the route.
if (location.pathname !== '/' && location.pathname !== '/index.html') {
  history.replaceState(null, '', `/#${location.pathname}${location.search}`);
}

applyBoardTheme(); // before the first board is drawn
await loadLang();
showLang();
document.querySelector('#home-link').addEventListener('click', () => go('/'));
mountAccountMenu(document.querySelector('#account'), { reload: route });
window.addEventListener('hashchange', route);
route();
window.appLang = currentLang;
