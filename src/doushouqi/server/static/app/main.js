// The web client: a hash router over the views (home, new-game settings, game, lobby, rules).

import { t, loadLang, currentLang, LANGS, playerName } from './i18n.js';
import { api, ensurePlayer, fetchRuleSets, sessionPlayer } from './api.js';
import { authView, leaderboardView, mountAccountMenu, profileView, ratedOption, renderAccountMenu } from './accounts.js';
import { h, pageHead } from './dom.js';
import { GameView } from './game.js';
import { faqList, wolfText } from './rules_faq.js';
import { ruleDiagrams } from './rule_diagrams.js';
import { replayRoute } from './replay.js';
import { analysisBoardView } from './analysis_board.js';
import { explorerView } from './explorer.js';
import { puzzlesView } from './puzzles.js';
import { learnListView, lessonView } from './lessons.js';
import { LobbyExpiry, stillOpen, timeLeftLabel } from './expiry.js';
import { noteServerTime } from './server_clock.js';
import { pageCheck, startPage } from './navigation.js';
import { pieceIcon } from './icons.js';
import { RuleOptionsPanel, optionValueText, ruleSetLabel } from './rule_options.js';
import { lobbyRuleChanges } from './lobby_rules.js';
import { timeFields } from './custom_time.js';
import { levelField } from './levels.js';
import { showErrorPage } from './error_page.js';
import './notifications.js'; // the bell and the site socket (it starts itself)
import { pairingView } from './pairing.js';
import { challengeView } from './challenges.js';
import { CORR_PRESETS, timeControlLabel, yourTurnView } from './corr.js';
import { ranksView } from './ranks.js';
import { tvView, watchView } from './watch.js';
import { tournamentsRoute } from './tournaments.js';

const view = document.querySelector('#view');
const langMenu = document.querySelector('#lang'); // a <select> of the languages, each named in itself
let current = null; // the view's cleanup

const TIME_PRESETS = ['', '3+2', '5+3', '10+5', '10+0/30s', '15+10/60s'];
const SETTINGS_KEY = 'doushouqi.settings';

function go(path) {
  location.hash = path;
}

function savedSettings() {
  try { return JSON.parse(localStorage.getItem(SETTINGS_KEY)) || {}; } catch { return {}; }
}

function showError(error) {
  showErrorPage(view, { kind: 'error', message: error?.message || String(error) });
}

// ----- home -------------------------------------------------------------------------------

function homeView() {
  const card = (href, icon, title, sub, id) => h('a', { class: `card card-${id}`, href, id: `go-${id}` },
    icon,
    h('span', { class: 'card-text' }, h('strong', {}, title), h('small', {}, sub)));
  view.replaceChildren(h('section', { class: 'page home' },
    h('div', { class: 'hero' },
      h('div', { class: 'hero-pieces', 'aria-hidden': 'true' }, pieceIcon('red', 'lion', 'hero-piece'), pieceIcon('blue', 'lion', 'hero-piece')),
      h('h1', {}, t('app.title')),
      h('p', { class: 'subtitle' }, t('app.subtitle'))),
    h('nav', { class: 'cards' },
      card('#/new/vs_ai', pieceIcon('red', 'tiger', 'card-icon'), t('home.vsai'), t('home.vsai.sub'), 'vsai'),
      card('#/new/same_screen', pieceIcon('red', 'cat', 'card-icon'), t('home.local'), t('home.local.sub'), 'local'),
      card('#/play', pieceIcon('blue', 'elephant', 'card-icon'), t('home.online'), t('home.online.sub'), 'online'),
      card('#/learn', pieceIcon('blue', 'rat', 'card-icon'), t('learn.card'), t('learn.card.sub'), 'rules')),
    h('p', { class: 'home-more' }, h('a', { href: '#/watch', id: 'go-watch' }, t('watch.home')), h('a', { href: '#/replay', id: 'go-replay' }, t('replay.home')),
      h('a', { href: '#/analysis', id: 'go-analysis' }, t('editor.home')), h('a', { href: '#/explorer', id: 'go-explorer' }, t('explorer.home')),
      h('a', { href: '#/puzzles', id: 'go-puzzles' }, t('puzzle.home')),
      h('a', { href: '#/correspondence', id: 'go-corr' }, t('corr.home')), h('a', { href: '#/rules', id: 'go-rules-page' }, t('ranks.home.rules')),
      h('a', { href: '#/leaderboard', id: 'go-leaderboard' }, t('ranks.home.leaderboard')), h('a', { href: '#/ranks', id: 'go-ranks' }, t('ranks.home.ranks')),
      h('a', { href: '#/tournaments', id: 'go-tournaments' }, t('tournament.home')))));
}

// ----- new game ---------------------------------------------------------------------------

function segmented(name, options, value) {
  return h('div', { class: 'segmented', role: 'radiogroup' },
    options.map(([v, label]) => h('label', {},
      h('input', { type: 'radio', name, value: v, checked: v === value }),
      h('span', {}, label))));
}

// The settings form on screen: { mode, form, choice() }. Drawing the page again in place (the
// language switch re-routes) starts from what it shows, not from the settings saved at the
// last start: the user may have moved the slider while the new language loaded.
let shownSettings = null;

function shownChoice(mode) {
  const shown = shownSettings;
  return shown?.mode === mode && shown.form.isConnected ? shown.choice() : {};
}

async function settingsView(mode) {
  const stillHere = pageCheck();
  const sets = await fetchRuleSets();
  const player = mode === 'online' ? await sessionPlayer() : null; // accounts may play rated games
  if (!stillHere()) return; // the user went elsewhere meanwhile: leave their page be
  // Read after the waits, and the page drawn without another: no change made meanwhile is lost.
  const saved = { ...savedSettings(), ...shownChoice(mode) };
  const rules = saved.rules && sets.some((s) => s.name === saved.rules) ? saved.rules : sets[0].name;
  // Every option of the chosen set, adjustable; choosing another set starts again from it.
  // The options changed last time (saved as sent: {parent, ...changes}) come back for that set.
  const lastRules = saved.customRules;
  const ruleOptions = new RuleOptionsPanel(sets, rules, lastRules?.parent === rules ? lastRules : {});
  // Online games may also be correspondence games: days per move.
  const time = timeFields(mode === 'online' ? [...TIME_PRESETS, ...CORR_PRESETS] : TIME_PRESETS, saved.time ?? '', timeControlLabel);
  const failure = h('p', { class: 'error', id: 'settings-error', role: 'alert', hidden: true });
  const form = h('form', { class: 'settings', id: 'settings' },
    h('label', { class: 'field' }, h('span', {}, t('settings.rules')),
      h('select', { name: 'rules', onchange: (e) => ruleOptions.choose(e.target.value) },
        sets.map((s) => h('option', { value: s.name, selected: s.name === rules }, t(`rules.${s.name}`))))),
    ruleOptions.el,
    h('div', { class: 'field' }, h('span', {}, t('settings.first')),
      segmented('first', [['red', t('first.red')], ['blue', t('first.blue')]], saved.first || 'red'),
      h('small', { class: 'ro-help' }, t('opt.first_player.help'))),
    mode === 'vs_ai' ? levelField(saved.level || 3) : null,
    mode !== 'same_screen' ? h('div', { class: 'field' }, h('span', {}, t('settings.side')),
      segmented('color', [['red', t('side.red')], ['blue', t('side.blue')], ['random', t('side.random')]], saved.color || 'red')) : null,
    time.elements,
    mode === 'online' ? h('label', { class: 'check' }, h('input', { type: 'checkbox', name: 'public', checked: true }), t('settings.public')) : null,
    mode === 'online' ? ratedOption(player) : null,
    h('button', { class: 'primary big', type: 'submit', id: 'start' }, mode === 'online' ? t('settings.create') : t('settings.start')),
    failure);
  const start = form.querySelector('#start');
  // What the form shows, as saved (the time is null while "Custom…" is left empty).
  const readChoice = () => {
    const f = form.elements;
    return {
      rules: f.rules.value, customRules: ruleOptions.request(), first: f.first.value, time: time.value(),
      level: f.level ? Number(f.level.value) : saved.level, color: f.color ? f.color.value : saved.color,
    };
  };
  const fail = (message) => {
    failure.textContent = t('error.generic', { message });
    failure.hidden = false;
  };
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const f = form.elements;
    if (time.value() === null) {
      fail(t('ruleopts.time.empty'));
      time.input.focus();
      return;
    }
    const choice = readChoice();
    try { localStorage.setItem(SETTINGS_KEY, JSON.stringify(choice)); } catch { /* ignore */ }
    failure.hidden = true;
    start.disabled = true;
    try {
      await ensurePlayer();
      const game = await api('/api/games', {
        method: 'POST',
        body: {
          mode, rules: choice.customRules, first_player: choice.first, time_control: choice.time || null,
          ai_level: mode === 'vs_ai' ? choice.level : null,
          color: mode === 'same_screen' ? 'red' : choice.color,
          public: mode === 'online' ? f.public.checked : true,
          rated: Boolean(f.rated?.checked),
        },
      });
      go(`/game/${game.id}`);
    } catch (error) {
      start.disabled = false;
      fail(error.status === 503 && mode === 'vs_ai' ? t('settings.aiFull') : error.message);
    }
  });
  view.replaceChildren(h('section', { class: 'page narrow' }, pageHead(t(`settings.title.${mode}`), mode === 'online' ? '#/lobby' : '#/'), form));
  shownSettings = { mode, form, choice: readChoice };
}

// ----- lobby ------------------------------------------------------------------------------

async function lobbyView() {
  const stillHere = pageCheck();
  const list = h('ul', { class: 'lobby-list', id: 'lobby-list' });
  const code = h('input', { name: 'code', placeholder: t('lobby.code'), autocomplete: 'off', 'aria-label': t('lobby.code') });
  const page = h('section', { class: 'page narrow' },
    pageHead(t('lobby.title')),
    h('div', { class: 'row' },
      h('a', { class: 'button primary', href: '#/new/online', id: 'lobby-create' }, t('lobby.create')),
      h('button', { type: 'button', onclick: () => refresh() }, t('lobby.refresh'))),
    list,
    h('form', { class: 'row code', onsubmit: (e) => { e.preventDefault(); if (code.value.trim()) go(`/game/${code.value.trim()}`); } },
      code, h('button', { type: 'submit' }, t('lobby.go'))));
  view.replaceChildren(page);
  const emptyLine = () => h('li', { class: 'empty' }, t('lobby.empty'));
  async function refresh() {
    const answer = await api('/api/lobby');
    if (!stillHere()) return; // the lobby was left while it loaded
    noteServerTime(answer.server_time); // entries count down by the server's clock
    const games = answer.games.filter(stillOpen);
    if (!games.length) {
      list.replaceChildren(emptyLine());
      return;
    }
    list.replaceChildren(...games.map((g) => lobbyEntry(g)));
  }
  // One open game: the seat it offers is the one the reader would take ("you play Blue").
  function lobbyEntry(g) {
    const side = `${t('lobby.youPlay')} ${t(`side.${g.open_color === 0 ? 'red' : 'blue'}`)}`;
    const creator = `${t('lobby.by')} ${playerName(g.creator.name)} (${g.creator.rating})`;
    return h('li', { class: 'lobby-game', dataset: { game: g.id } },
      h('span', { class: `token small ${g.open_color === 0 ? 'red' : 'blue'}`, 'aria-hidden': 'true' }, t(g.open_color === 0 ? 'token.red' : 'token.blue')),
      h('span', { class: 'lobby-info' },
        h('strong', {}, ruleSetLabel(g.rules), ' · ', timeControlLabel(g.time_control)),
        lobbyRuleChanges(g),
        // The side and the creator wrap as wholes (a long name breaks inside itself), never cut off.
        h('small', {},
          h('span', { class: 'lobby-side' }, side), ' · ',
          h('span', { class: 'lobby-creator' }, creator)),
        timeLeftLabel(g)),
      h('span', { class: 'lobby-actions' }, // beside the text; a row of its own on a phone
        // Screen readers hear which game a button is for, not a list of bare "Join"s.
        h('a', { class: 'button primary', href: `#/game/${g.id}?join=1`, 'aria-label': `${t('lobby.join')}: ${creator}, ${side}` }, t('lobby.join')),
        h('a', { class: 'button', href: `#/game/${g.id}`, 'aria-label': `${t('lobby.watch')}: ${creator}` }, t('lobby.watch'))));
  }
  await refresh();
  const timer = setInterval(() => refresh().catch(() => {}), 5000);
  const expiry = new LobbyExpiry(list, emptyLine); // entries whose time is up go at once
  return () => { clearInterval(timer); expiry.destroy(); };
}

// ----- rules ------------------------------------------------------------------------------

async function rulesView(name) {
  const stillHere = pageCheck();
  const sets = await fetchRuleSets();
  if (!stillHere()) return; // the user went elsewhere meanwhile: leave their page be
  const set = sets.find((s) => s.name === name) || sets[0];
  const options = Object.entries(set).filter(([k]) => !['name', 'description'].includes(k));
  const ranks = set.ranks === 'dog>wolf' ? t('opt.ranks.dog_over_wolf') : t('opt.ranks.wolf_over_dog');
  view.replaceChildren(h('section', { class: 'page narrow rules' },
    pageHead(t('rulespage.title')),
    h('label', { class: 'field' }, h('span', {}, t('rulespage.set')),
      h('select', { id: 'rules-select', onchange: (e) => go(`/rules/${e.target.value}`) },
        sets.map((s) => h('option', { value: s.name, selected: s.name === set.name }, t(`rules.${s.name}`))))),
    h('ol', { class: 'rule-points' },
      h('li', {}, h('p', {}, t('rulespage.board')), ruleDiagrams(set, 'board')),
      h('li', {}, h('p', {}, wolfText(set, t('rulespage.pieces', { ranks }))), ruleDiagrams(set, 'pieces')),
      h('li', {}, h('p', {}, t('rulespage.move')), ruleDiagrams(set, 'move')),
      h('li', {}, h('p', {}, t('rulespage.water')), ruleDiagrams(set, 'water')),
      h('li', {}, h('p', {}, t('rulespage.capture')), ruleDiagrams(set, 'capture')),
      h('li', {}, h('p', {}, t('rulespage.win')), ruleDiagrams(set, 'win'))),
    h('h2', {}, t('rulesfaq.title')),
    faqList(set),
    h('h2', {}, t('rulespage.options')),
    h('table', { class: 'options', id: 'rule-options' },
      h('tbody', {}, options.map(([k, v]) => h('tr', { dataset: { option: k } },
        h('th', { scope: 'row' }, k === 'wolf_name' ? t(`opt.${k}`) : wolfText(set, t(`opt.${k}`))),
        h('td', {}, wolfText(set, optionValueText(k, v))))))),
    h('a', { class: 'button primary big', href: '#/new/vs_ai',
      onclick: () => { const s = savedSettings(); s.rules = set.name; localStorage.setItem(SETTINGS_KEY, JSON.stringify(s)); } },
    t('rulespage.play'))));
}

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
    if (parts[0] === 'new' && ['vs_ai', 'same_screen', 'online'].includes(parts[1])) await settingsView(parts[1]);
    else if (parts[0] === 'lobby') cleanup = await lobbyView();
    else if (parts[0] === 'play') cleanup = await pairingView(view, go);
    else if (parts[0] === 'challenge' && parts[1]) cleanup = await challengeView(view, decodeURIComponent(parts[1]), go);
    else if (parts[0] === 'rules') await rulesView(parts[1] || 'wango');
    else if (parts[0] === 'learn') cleanup = parts[1] ? lessonView(view, parts[1], params) : learnListView(view);
    else if (parts[0] === 'replay') cleanup = await replayRoute(view, parts, params, go);
    else if (parts[0] === 'analysis') cleanup = analysisBoardView(view, params);
    else if (parts[0] === 'explorer') cleanup = explorerView(view, params);
    else if (parts[0] === 'puzzles') cleanup = puzzlesView(view, parts, params);
    else if (parts[0] === 'login' || parts[0] === 'register') authView(view, parts[0], params);
    else if (parts[0] === 'player' && parts[1]) await profileView(view, decodeURIComponent(parts[1]));
    else if (parts[0] === 'leaderboard') await leaderboardView(view, params);
    else if (parts[0] === 'correspondence') cleanup = await yourTurnView(view);
    else if (parts[0] === 'ranks') await ranksView(view);
    else if (parts[0] === 'watch' || parts[0] === 'tv') cleanup = await (parts[0] === 'tv' ? tvView : watchView)(view);
    else if (parts[0] === 'tournaments' || parts[0] === 'tournament') cleanup = await tournamentsRoute(view, parts, go);
    else if (parts[0] === 'game' && parts[1]) {
      await ensurePlayer();
      if (superseded()) return; // no board, no websocket for a page already left
      const game = new GameView(view, parts[1], { join: params.get('join') === '1', navigate: go });
      cleanup = () => game.destroy();
      window.gameView = game;
    } else if (!parts[0]) homeView();
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
  await loadLang(langMenu.value);
  showLang();
  route();
});

// An invite link to /game/ID (the server's invite_url) lands here as ?game=ID or #/game/ID.
const direct = location.pathname.match(/^\/game\/([\w-]+)/);
if (direct) history.replaceState(null, '', `/#/game/${direct[1]}`);

await loadLang();
showLang();
document.querySelector('#home-link').addEventListener('click', () => go('/'));
mountAccountMenu(document.querySelector('#account'), { reload: route });
window.addEventListener('hashchange', route);
route();
window.appLang = currentLang;
