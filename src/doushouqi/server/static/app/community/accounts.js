// Accounts in the web client: the header's account menu, the log-in and sign-up pages, player
// profiles (statistics, rating, recent games; your own name and avatar), the leaderboard, and the
// "rated game" option of the online game settings. The server's API is in docs/server.md.

import { t, htmlLang, plural } from '../shell/i18n.js';
import { api, currentPlayer, sessionPlayer, setPlayer } from '../shell/api.js';
import { h, pageHead } from '../shell/dom.js';
import { pieceIcon } from '../shell/icons.js';
import { isNamedGuest, openGuestNameDialog } from './guest_name.js';
import { ruleSetLabel } from '../play/rule_options.js';
import { pageCheck } from '../shell/navigation.js';
import { computerLabel } from '../play/levels.js';
import { rankTitle } from './ranks.js';
import { challengeButton } from '../lobby/challenges.js';
import { SPEEDS, ratingText, speedName } from '../shell/ratings.js';
import { changeText, ratingChange } from '../play/result_changes.js';
import { chosenGame, gamePicker, offered, sideName } from '../shell/site_games.js';
import { isModerator } from './moderation.js';
import { closedNote, closeAccountForm } from './account_closing.js';

/** The animals the server accepts as avatars (server/auth.py AVATARS), weakest first. */
export const AVATARS = ['rat', 'cat', 'dog', 'wolf', 'leopard', 'tiger', 'lion', 'elephant'];
const GAME_STATES_IN_PLAY = ['created', 'started'];

function go(path) {
  location.hash = path;
}

function accountHead(title, back = '#/') {
  return pageHead(title, back, back === '#/' ? t('nav.home') : t('account.back'));
}

const isAccount = (player) => player?.kind === 'account';

/** The avatar of an account that chose none (the server's default, ""): the name's initial. */
export function initialIcon(name, cls = '') {
  const initial = Array.from(String(name || '?').trim())[0] || '?'; // a whole character, even 张
  const span = h('span', { class: `avatar avatar-initial ${cls}`, 'aria-hidden': 'true' }, initial.toUpperCase());
  span.dataset.avatar = '';
  return span;
}

/** A player's avatar (decoration: the name is beside it): the animal they chose, drawn by the
 * board's piece pictures, else their name's initial. */
export function avatarIcon(animal, cls = '', name = '') {
  if (!AVATARS.includes(animal)) return initialIcon(name, cls); // never put unknown text in the SVG
  // An avatar is the animal's face whatever the piece set (a letter is no one's picture).
  const span = pieceIcon('red', animal, `avatar ${cls}`, undefined, 'pictures');
  span.dataset.avatar = animal;
  return span;
}

/** Where the log-in page should send the player back to: a page of this app, never log-in. */
function safeNext(value) {
  const next = String(value || '/');
  if (!next.startsWith('/') || next.startsWith('//') || /^\/(login|register)\b/.test(next)) return '/';
  return next;
}

function hereForNext() {
  return safeNext(location.hash.replace(/^#/, '') || '/');
}

// ----- the header's account menu ----------------------------------------------------------

let menuRoot = null;
let afterLogout = () => {};
let menuDrawnFor = null; // the address (hash) the menu was last drawn for

/** Put the account menu into `root` (in the top bar); `reload` re-renders the page on log-out. */
export function mountAccountMenu(root, { reload } = {}) {
  menuRoot = root;
  afterLogout = reload || afterLogout;
  document.addEventListener('dsq:player', renderAccountMenu);
  document.addEventListener('click', (event) => {
    if (!menuRoot.contains(event.target)) setMenuOpen(false);
  });
  menuRoot.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape' || !isMenuOpen()) return;
    setMenuOpen(false);
    menuRoot.querySelector('#account-button').focus();
  });
  renderAccountMenu();
  sessionPlayer().catch(() => null); // fills in the signed-in name (a `dsq:player` event)
}

function isMenuOpen() {
  return menuRoot?.querySelector('#account-button')?.getAttribute('aria-expanded') === 'true';
}

function setMenuOpen(open) {
  const button = menuRoot?.querySelector('#account-button');
  if (!button) return;
  button.setAttribute('aria-expanded', String(open));
  menuRoot.querySelector('#account-menu').hidden = !open;
}

async function logOut() {
  await api('/api/auth/logout', { method: 'POST' });
  // Carry on as a guest straight away, as a visitor who never signed in would.
  setPlayer(await api('/api/auth/guest', { method: 'POST' }));
  afterLogout();
}

/** A guest's "Set your name": the dialog, then the focus back on the (redrawn) menu button. */
function renameFromMenu() {
  setMenuOpen(false);
  openGuestNameDialog(currentPlayer(), () => menuRoot.querySelector('#account-button')?.focus());
}

function logOutFromMenu() {
  // Closed once done (an error is shown in the open menu instead).
  logOut().then(() => setMenuOpen(false), (error) => {
    const menu = menuRoot.querySelector('#account-menu');
    menu.append(h('li', { class: 'error', role: 'alert' }, t('error.generic', { message: error.message })));
  });
}

/** Draw the menu for the current player and language (the router calls this on every page). */
export function renderAccountMenu() {
  if (!menuRoot) return;
  // Drawn again for the same page (the player's name arrived, the page finished loading, the
  // language changed), an open menu stays open with its focus: it used to snap shut under a
  // hand that had just opened it. A new page closes it.
  const keepOpen = isMenuOpen() && menuDrawnFor === location.hash;
  const focused = keepOpen && menuRoot.contains(document.activeElement) ? document.activeElement.id : '';
  menuDrawnFor = location.hash;
  menuRoot.setAttribute('aria-label', t('account.menu'));
  const player = currentPlayer();
  const account = isAccount(player) ? player : null;
  const next = encodeURIComponent(hereForNext());
  const item = (child) => h('li', {}, child);
  const items = account
    ? [
      item(h('a', { id: 'account-profile', href: `#/player/${encodeURIComponent(account.username)}` }, t('account.profile'))),
      item(h('a', { id: 'account-leaderboard', href: '#/leaderboard' }, t('leaderboard.title'))),
      item(h('a', { id: 'account-settings', href: '#/settings' }, t('account.settings'))),
      isModerator(account) ? item(h('a', { id: 'account-moderation', href: '#/mod' }, t('mod.title'))) : null,
      item(h('button', { type: 'button', id: 'account-logout', class: 'link-button', onclick: logOutFromMenu }, t('account.logout'))),
    ]
    : [
      item(h('button', { type: 'button', id: 'account-rename', class: 'link-button', onclick: renameFromMenu }, t('guestname.menu'))),
      item(h('a', { id: 'account-login', href: `#/login?next=${next}` }, t('account.login'))),
      item(h('a', { id: 'account-register', href: `#/register?next=${next}` }, t('account.register'))),
      item(h('a', { id: 'account-leaderboard', href: '#/leaderboard' }, t('leaderboard.title'))),
      // Everyone's settings page: a guest too chooses how the boards look.
      item(h('a', { id: 'account-settings', href: '#/settings' }, t('account.settings'))),
    ];
  const button = h('button', {
    type: 'button', id: 'account-button', class: 'account-button',
    'aria-expanded': String(keepOpen), 'aria-controls': 'account-menu',
    title: account ? t('account.signedInAs', { name: account.name })
      : isNamedGuest(player) ? t('guestname.playingAs', { name: player.name }) : null,
    onclick: () => setMenuOpen(!isMenuOpen()),
  },
  account ? avatarIcon(account.avatar, 'account-avatar', account.name) : null,
  // A guest who chose a name sees it here; log-in and sign-up stay in the menu.
  account || isNamedGuest(player) ? h('span', { class: 'account-name' }, player.name)
    : h('span', { class: 'account-name account-login' }, t('account.login')),
  h('span', { class: 'caret', 'aria-hidden': 'true' }, '▾'));
  const menu = h('ul', { id: 'account-menu', class: 'account-menu', hidden: !keepOpen }, items);
  menuRoot.replaceChildren(button, menu);
  if (focused) menuRoot.querySelector(`#${focused}`)?.focus();
}

// ----- forms: fields with their own error line ---------------------------------------------

/** A labelled input with a hint and an error line, both tied to it for screen readers. */
function field(form, name, label, attrs, hint) {
  const id = `${form}-${name}`;
  const describedBy = [hint ? `${id}-hint` : null, `${id}-error`].filter(Boolean).join(' ');
  return h('div', { class: 'field account-field' },
    h('label', { for: id }, label),
    h('input', { id, name, 'aria-describedby': describedBy, ...attrs }),
    hint ? h('small', { class: 'hint', id: `${id}-hint` }, hint) : null,
    h('p', { class: 'field-error', id: `${id}-error`, dataset: { for: name }, hidden: true }));
}

/** What to say under each field (or above the form: `_form`) for an error from the server. */
function errorMessages(error) {
  if (error.status === 401) return { _form: t('account.error.wrong') };
  if (error.status === 409) return { username: t('account.error.usernameTaken') };
  if (error.status === 429) return { _form: t('account.error.rateLimited') };
  if (error.status === 403) return { _form: t('account.error.forbidden') };
  if (error.status !== 422) return { _form: t('error.generic', { message: error.message }) };
  // A password too easy to guess: the server's code names why, already in words here.
  if (error.code?.startsWith('account.password.')) return { password: error.message };
  const messages = {};
  // FastAPI's own validation: a list of {loc: ['body', field], type, ...}; the handlers' own
  // checks: one sentence naming the field.
  const problems = Array.isArray(error.detail)
    ? error.detail.map((d) => ({ name: d.loc?.at(-1), type: d.type }))
    : [{ name: ['username', 'avatar', 'password'].find((n) => String(error.detail).includes(n)) }];
  for (const { name, type } of problems) {
    if (name === 'username') messages.username = t('account.error.username');
    else if (name === 'password') messages.password = t(type === 'string_too_long' ? 'account.error.passwordLong' : 'account.error.password');
    else if (name === 'display_name') messages.display_name = t('account.error.displayName');
    else if (name === 'avatar') messages.avatar = t('account.error.avatar');
    else messages._form = t('error.generic', { message: error.message });
  }
  return messages;
}

/** Show the server's answer on the form: each field's line, a summary, focus on the first. */
function showErrors(form, messages) {
  let first = null;
  for (const line of form.querySelectorAll('.field-error')) {
    const message = messages[line.dataset.for];
    const input = form.elements[line.dataset.for];
    line.hidden = !message;
    line.textContent = message || '';
    if (input instanceof Element) {
      if (message) input.setAttribute('aria-invalid', 'true'); else input.removeAttribute('aria-invalid');
    }
    if (message && !first) first = input;
  }
  const summary = form.querySelector('.form-error');
  const fieldCount = Object.keys(messages).filter((k) => k !== '_form').length;
  summary.textContent = messages._form || (fieldCount ? t('account.error.check') : '');
  summary.hidden = !summary.textContent;
  if (first instanceof HTMLElement) first.focus();
}

// ----- log in and sign up -------------------------------------------------------------------

/** `#/login` and `#/register`: after signing in, back to `next` (where the player came from). */
export function authView(view, kind, params) {
  const register = kind === 'register';
  const next = safeNext(params.get('next'));
  const nextQuery = `?next=${encodeURIComponent(next)}`;
  const form = h('form', { class: 'settings account-form', id: `${kind}-form`, novalidate: true },
    h('p', { class: 'error form-error', id: `${kind}-error`, role: 'alert', hidden: true }),
    field(kind, 'username', t('account.username'), {
      type: 'text', autocomplete: 'username', autocapitalize: 'none', spellcheck: 'false',
      required: true, maxlength: 32,
    }, register ? t('account.username.hint') : null),
    register ? field(kind, 'display_name', t('account.displayName'), {
      type: 'text', autocomplete: 'nickname', maxlength: 40,
    }, t('account.displayName.hint')) : null,
    field(kind, 'password', t('account.password'), {
      type: 'password', autocomplete: register ? 'new-password' : 'current-password',
      required: true, minlength: register ? 8 : null, maxlength: 128,
    }, register ? t('account.password.hint') : null),
    h('button', { class: 'primary big', type: 'submit', id: `${kind}-submit` },
      t(register ? 'account.submit.register' : 'account.submit.login')));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const f = form.elements;
    const body = { username: f.username.value.trim(), password: f.password.value };
    if (register && f.display_name.value.trim()) body.display_name = f.display_name.value.trim();
    const submit = form.querySelector('button[type=submit]');
    submit.disabled = true;
    try {
      setPlayer(await api(`/api/auth/${kind}`, { method: 'POST', body }));
      go(next);
    } catch (error) {
      showErrors(form, errorMessages(error));
    } finally {
      submit.disabled = false;
    }
  });
  view.replaceChildren(h('section', { class: 'page narrow account-page' },
    accountHead(t(register ? 'account.register.title' : 'account.login.title'), `#${next}`),
    form,
    h('p', { class: 'account-switch' },
      t(register ? 'account.haveAccount' : 'account.noAccount'), ' ',
      h('a', { href: `#/${register ? 'login' : 'register'}${nextQuery}`, id: register ? 'to-login' : 'to-register' },
        t(register ? 'account.login' : 'account.register'))),
    h('p', { class: 'account-guest' },
      h('small', {}, t('account.guestNote')), ' ',
      h('a', { href: `#${next}`, id: 'as-guest' }, t('account.asGuest')))));
  form.elements.username.focus();
}

// ----- the online game settings: a rated game ---------------------------------------------

/** The "rated game" checkbox for `settingsView`, or null when `player` has no account. */
export function ratedOption(player) {
  if (!isAccount(player)) return null;
  // Ticked by default, as on lichess: an account plays for its rating unless it says otherwise.
  return h('label', { class: 'check rated-option' },
    h('input', { type: 'checkbox', name: 'rated', id: 'rated', checked: true, 'aria-describedby': 'rated-hint' }),
    h('span', {}, t('account.rated'), ' ', h('small', { class: 'hint', id: 'rated-hint' }, t('account.rated.hint'))));
}

// ----- profiles -----------------------------------------------------------------------------

function formatDate(seconds) {
  if (!seconds) return '';
  return new Intl.DateTimeFormat(htmlLang(), { dateStyle: 'medium' }).format(new Date(seconds * 1000));
}

function levelText(level) {
  // The level is the rank title (级别, ranks.js): named in the reader's own script, so zh-Hant
  // shows 1級 新手 where the server's `label` is the simplified 1级 新手.
  return rankTitle(level.number);
}

const STATS = ['games', 'wins', 'losses', 'draws', 'disconnects', 'timeouts'];

/** The ladder score and its title (级别), as one secondary line linking to the ranks page. */
function scoreLine(p, id = null) {
  return h('a', { href: '#/ranks', class: 'score-line', id, title: t('ranks.what') },
    t('ratings.scoreLine', { score: p.score, title: levelText(p.level) }));
}

/** One speed's rating: "1500?" (provisional, with why on hover) or "1712". */
function ratingValue(rating) {
  const text = ratingText(rating);
  return rating.provisional ? h('span', { class: 'provisional', title: t('ratings.provisional') }, text) : text;
}

/** The profile's card: who, then one game's ratings (one per speed), ladder score and record;
 * `picker` (the game picker, or null for one game) above them says which game. */
function profileCard(p, game, picker = null) {
  return h('div', { class: 'profile-card', id: 'profile', dataset: { game } },
    h('div', { class: 'profile-who' },
      avatarIcon(p.avatar, 'profile-avatar', p.display_name),
      h('div', { class: 'profile-names' },
        h('h2', { id: 'profile-name' }, p.display_name),
        h('small', {}, `@${p.username}`, p.is_bot ? ` · ${t('profile.bot')}` : ''),
        h('small', {}, t('profile.joined', { date: formatDate(p.created_at) })))),
    picker,
    // The ratings first, one per speed (what a game moves); the ladder score a line below.
    h('h3', { class: 'profile-subtitle' }, t('profile.ratings')),
    h('dl', { class: 'profile-numbers profile-ratings', id: 'profile-ratings' },
      SPEEDS.map((speed) => {
        const rating = p.ratings[speed];
        return h('div', { dataset: { speed, provisional: String(rating.provisional) } },
          h('dt', {}, speedName(speed)),
          h('dd', {}, ratingValue(rating), h('small', { class: 'rd' }, plural('ratings.games', rating.games))));
      })),
    h('p', { class: 'profile-score', id: 'profile-score', dataset: { score: p.score } },
      h('span', { id: 'profile-level' }, scoreLine(p))),
    h('h3', { class: 'profile-subtitle' }, t('profile.stats')),
    h('dl', { class: 'profile-stats', id: 'profile-stats' },
      STATS.map((name) => h('div', { dataset: { stat: name } },
        h('dt', {}, t(`profile.stats.${name}`)), h('dd', {}, p.stats[name])))));
}

/** The owner's seats in a listed game, and what the row should say about it: who was played,
 * the result's kind (win, loss, draw, red, blue: a same-screen game's winning seat …) and its
 * words (a same-screen game's winner by the game's side names: "Red won", "Men won"). */
function describeGame(game, ownerId) {
  const mine = [0, 1].filter((c) => game.players[c]?.identity?.kind === 'account' && game.players[c].identity.id === ownerId);
  const sameScreen = game.mode === 'same_screen' || mine.length === 2;
  const seat = mine[0] ?? 0;
  const other = game.players[1 - seat];
  let against; // the row's title: who the owner played, or why there is nobody to name
  if (sameScreen) against = t('profile.opponent.sameScreen');
  else if (!other) against = t('profile.opponent.open');
  else if (other.identity.kind === 'ai') against = t('profile.vs', { name: computerLabel(other.ai_level ?? other.identity.level) });
  else against = t('profile.vs', { name: other.name });

  let result;
  if (game.status === 'created') result = 'waiting';
  else if (game.status === 'started') result = 'playing';
  else if (game.result === '1/2-1/2') result = 'draw';
  else if (game.result === '1-0' || game.result === '0-1') {
    const winner = game.result === '1-0' ? 0 : 1;
    if (sameScreen) {
      const label = t('profile.result.won', { side: sideName(winner, game.game_key) });
      return { against, result: winner === 0 ? 'red' : 'blue', label };
    }
    result = winner === seat ? 'win' : 'loss';
  } else result = 'aborted';
  return { against, result, label: t(`profile.result.${result}`) };
}

function gameRow(game, ownerId) {
  const { against, result, label } = describeGame(game, ownerId);
  const inPlay = GAME_STATES_IN_PLAY.includes(game.status);
  // A game over opens in the replay page; one still being played opens at the board.
  const href = inPlay ? `#/game/${game.id}` : `#/replay/game/${game.id}`;
  const rated = game.rated ? [game.speed ? speedName(game.speed) : null, t('profile.rated')].filter(Boolean).join(' ') : null;
  const details = [ruleSetLabel(game.rules), formatDate(game.created_at), rated].filter(Boolean);
  // What the game did to the owner's rating at its speed: "1500? → 1523 (+23)".
  const seat = [0, 1].find((c) => game.players[c]?.identity?.kind === 'account' && game.players[c].identity.id === ownerId);
  const change = seat === undefined ? null : ratingChange(game, seat);
  return h('li', { class: 'history-game', dataset: { game: game.id, result } },
    h('a', { class: 'history-link', href },
      h('span', { class: `history-result ${result}` }, label),
      h('span', { class: 'history-info' },
        h('strong', {}, against),
        h('small', {}, details.join(' · ')),
        change ? h('small', { class: 'history-rating', dataset: { delta: change.delta } }, changeText(change)) : null),
      h('span', { class: 'history-go' }, t(inPlay ? 'profile.open' : 'profile.replay'), ' ›')));
}

/** The form to change your own display name and avatar. */
function editForm(p, onSaved) {
  const status = h('p', { class: 'saved', id: 'profile-saved', role: 'status' });
  const form = h('form', { class: 'settings account-form', id: 'profile-edit-form', novalidate: true },
    h('p', { class: 'error form-error', role: 'alert', hidden: true }),
    field('profile', 'display_name', t('profile.displayName'), {
      type: 'text', autocomplete: 'nickname', maxlength: 40, required: true, value: p.display_name,
    }),
    h('fieldset', { class: 'avatar-picker', 'aria-describedby': 'profile-avatar-error' },
      h('legend', {}, t('profile.avatar')),
      h('div', { class: 'avatar-options' },
        AVATARS.map((animal) => h('label', { class: 'avatar-option', title: t(`animal.${animal}`) },
          h('input', { type: 'radio', name: 'avatar', value: animal, checked: animal === p.avatar,
            'aria-label': t(`animal.${animal}`) }),
          avatarIcon(animal)))),
      h('p', { class: 'field-error', id: 'profile-avatar-error', dataset: { for: 'avatar' }, hidden: true })),
    h('div', { class: 'row' },
      h('button', { class: 'primary', type: 'submit', id: 'save-profile' }, t('profile.save')),
      status));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    status.textContent = '';
    const f = form.elements;
    const button = form.querySelector('#save-profile');
    button.disabled = true;
    try {
      const updated = await api('/api/account', {
        method: 'PATCH',
        body: { display_name: f.display_name.value.trim(), avatar: f.avatar.value },
      });
      showErrors(form, {});
      status.textContent = t('profile.saved');
      const me = currentPlayer();
      if (me) setPlayer({ ...me, name: updated.display_name, avatar: updated.avatar });
      onSaved(updated);
    } catch (error) {
      showErrors(form, errorMessages(error));
    } finally {
      button.disabled = false;
    }
  });
  // Folded away by default: the profile is mostly for reading.
  return h('details', { class: 'profile-edit', id: 'profile-edit' },
    h('summary', {}, t('profile.edit')),
    form);
}

/** A player's profile in one game (ratings, score and record are per game). */
function fetchProfile(username, game) {
  return api(`/api/players/${encodeURIComponent(username)}?${new URLSearchParams({ game })}`);
}

/** `#/player/{username}[?game=tiger]`: avatar, name, and in the game chosen (a picker where
 * the site offers several) the ratings per speed, score and level, statistics; recent games. */
export async function profileView(view, username) {
  const stillHere = pageCheck(); // drawn only if the user is still on this page
  const query = new URLSearchParams(location.hash.split('?')[1] || '');
  const offeredGames = await offered().catch(() => []);
  let game = chosenGame(offeredGames, query.get('game'));
  let profile;
  try {
    profile = await fetchProfile(username, game);
  } catch (error) {
    if (error.status !== 404) throw error;
    if (!stillHere()) return;
    view.replaceChildren(h('section', { class: 'page narrow' }, accountHead(t('profile.title')),
      h('p', { class: 'error', role: 'alert', id: 'profile-missing' }, t('profile.notFound', { name: username }))));
    return;
  }
  const [history, me] = await Promise.all([
    api(`/api/players/${encodeURIComponent(profile.username)}/games?limit=20`),
    sessionPlayer().catch(() => null),
  ]);
  if (!stillHere()) return;
  const own = isAccount(me) && me.username === profile.username;
  let card;
  const leaderboard = h('a', { href: `#/leaderboard?game=${game}` }, t('leaderboard.title'), ' ›');
  // Another game: its ratings, score and record in place, and in the address (a reload or a
  // shared link shows that game); an answer for a game chosen before is dropped.
  const picker = gamePicker(offeredGames, game, async (key) => {
    game = key;
    const fresh = await fetchProfile(profile.username, key).catch(() => null);
    if (!fresh || game !== key || !card.isConnected) return;
    profile = fresh;
    showCard();
    query.set('game', key);
    window.history.replaceState(null, '', `#/player/${encodeURIComponent(profile.username)}?${query}`); // `history` below is the games'
  }, { name: 'profile-game' });
  const showCard = () => {
    const fresh = profileCard(profile, game, picker);
    card?.replaceWith(fresh);
    card = fresh;
    leaderboard.href = `#/leaderboard?game=${game}`;
  };
  showCard();
  const games = history.games.length
    ? h('ul', { class: 'history', id: 'profile-games' }, history.games.map((g) => gameRow(g, profile.id)))
    : h('p', { class: 'empty', id: 'profile-games' }, t('profile.games.empty'));
  view.replaceChildren(h('section', { class: 'page narrow profile-page' },
    accountHead(own ? t('account.profile') : t('profile.title')),
    card,
    closedNote(profile),
    // A new name or avatar: the card shows it, still for the game chosen.
    own ? editForm(profile, (updated) => { profile = { ...profile, display_name: updated.display_name, avatar: updated.avatar }; showCard(); })
      : profile.closed ? null : challengeButton(profile, me),
    own ? closeAccountForm(profile) : null,
    h('h3', { class: 'profile-subtitle' }, t('profile.games'), ' ',
      h('small', { id: 'profile-games-total' }, t('profile.games.total', { n: history.total }))),
    games,
    h('p', { class: 'profile-more' }, leaderboard)));
}

// ----- the leaderboard ----------------------------------------------------------------------

function leaderboardRow(p, by, me) {
  const mine = isAccount(me) && me.username === p.username;
  const main = by === 'rating' ? ratingValue(p.rating) : p.score;
  const other = by === 'rating' ? plural('ratings.games', p.rating.games) : levelText(p.level);
  const under = by === 'rating' ? t('ratings.scoreLine', { score: p.score, title: levelText(p.level) }) : `@${p.username}`;
  const provisional = by === 'rating' && p.rating.provisional;
  return h('li', { class: `leader${mine ? ' mine' : ''}${provisional ? ' provisional' : ''}`, dataset: { username: p.username } },
    h('span', { class: 'leader-rank' }, p.rank ?? '–'),
    avatarIcon(p.avatar, 'leader-avatar', p.display_name),
    h('span', { class: 'leader-info' },
      h('a', { href: `#/player/${encodeURIComponent(p.username)}` }, p.display_name),
      h('small', {}, under)),
    h('span', { class: 'leader-value' },
      h('strong', {}, main),
      h('small', {}, other)));
}

/** The boards: the rating at each speed, and the ladder score (`score`). */
const BOARDS = [...SPEEDS, 'score'];

/** `#/leaderboard?game=jungle&by=rating&speed=rapid` (or `by=score`): one game's players by
 * their rating at one speed, settled ratings ranked and provisional ones ("1500?") after them,
 * unranked; or by ladder score. */
export async function leaderboardView(view, params) {
  const stillHere = pageCheck(); // the list is filled only if the user is still on this page
  const games = await offered();
  if (!stillHere()) return;
  let game = chosenGame(games, params.get('game'));
  let board = params.get('by') === 'score' ? 'score' : (SPEEDS.includes(params.get('speed')) ? params.get('speed') : 'rapid');
  const list = h('ol', { class: 'leaderboard', id: 'leaderboard-list', 'aria-live': 'polite' });
  const address = () => (board === 'score' ? `by=score&game=${game}` : `by=rating&speed=${board}&game=${game}`);
  const show = () => {
    // The page stays; only the address follows (no re-render that would drop the focus).
    history.replaceState(null, '', `#/leaderboard?${address()}`);
    refresh().catch((error) => list.replaceChildren(h('li', { class: 'error' }, t('error.generic', { message: error.message }))));
  };
  const tab = (value) => h('label', { dataset: { board: value } },
    h('input', { type: 'radio', name: 'board', value, checked: value === board,
      onchange: () => { board = value; show(); } }),
    h('span', {}, value === 'score' ? t('leaderboard.scoreBoard') : speedName(value)));
  const picker = gamePicker(games, game, (key) => { game = key; show(); }, { name: 'leaderboard-game' });
  view.replaceChildren(h('section', { class: 'page narrow leaderboard-page' },
    accountHead(t('leaderboard.title')),
    picker,
    h('div', { class: 'field' }, h('span', { id: 'leaderboard-by' }, t('leaderboard.by')),
      h('div', { class: 'segmented leaderboard-tabs', id: 'leaderboard-tabs', role: 'radiogroup', 'aria-labelledby': 'leaderboard-by' },
        BOARDS.map(tab))),
    list,
    h('p', { class: 'ranks-more' }, h('a', { href: '#/ranks', id: 'leaderboard-ranks' }, t('ranks.what')))));
  async function refresh() {
    const shown = board;
    const [answer, me] = await Promise.all([api(`/api/leaderboard?${address()}`), sessionPlayer().catch(() => null)]);
    if (!stillHere() || shown !== board) return;
    const by = board === 'score' ? 'score' : 'rating';
    list.dataset.by = by;
    list.dataset.speed = by === 'rating' ? board : '';
    if (!answer.players.length) {
      const empty = by === 'rating' ? t('leaderboard.emptySpeed', { speed: speedName(board) }) : t('leaderboard.empty');
      list.replaceChildren(h('li', { class: 'empty' }, empty));
      return;
    }
    const rows = [];
    answer.players.forEach((p, i) => {
      // Provisional ratings follow the ranked ones, under a line that says why they have no rank.
      const first = by === 'rating' && p.rating.provisional && !answer.players[i - 1]?.rating.provisional;
      if (first) rows.push(h('li', { class: 'leader-divider', id: 'leaderboard-provisional' }, t('leaderboard.provisional')));
      rows.push(leaderboardRow(p, by, me));
    });
    list.replaceChildren(...rows);
  }
  await refresh();
}
