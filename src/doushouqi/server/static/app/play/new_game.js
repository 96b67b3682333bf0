// The new-game page (#/new/<mode>[?game=tiger]): the game (the picker lists the games the site
// offers for this mode: against the computer only those with an engine), the rule set and its
// options, who moves first, the computer's level, the side, the time control; each game's choice
// is saved and comes back next time.

import { t } from '../shell/i18n.js';
import { api, ensurePlayer, fetchRuleSets, sessionPlayer } from '../shell/api.js';
import { h, pageHead } from '../shell/dom.js';
import { pageCheck } from '../shell/navigation.js';
import { ratedOption } from '../community/accounts.js';
import { ratedNeedsClock } from '../shell/ratings.js';
import { CORR_PRESETS, timeControlLabel } from '../lobby/corr.js';
import { RuleOptionsPanel, optionKey } from './rule_options.js';
import { timeFields } from './custom_time.js';
import { levelField } from './levels.js';
import { chosenGame, firstName, gamePicker, offered, sideName } from '../shell/site_games.js';
import { DEFAULT_GAME, gameClient } from '../../games/index.js';

const TIME_PRESETS = ['', '3+2', '5+3', '10+5', '10+0/30s', '15+10/60s'];
// A game with people online starts with a clock unless chosen otherwise: a rated game needs one
// (ratings are per speed), and without one a player who walks away holds the other up for good.
const ONLINE_TIME = '10+5';
const SETTINGS_KEY = 'doushouqi.settings';

/** The choice made on this page last time (the rules page also sets its rule set). */
export function savedSettings() {
  try { return JSON.parse(localStorage.getItem(SETTINGS_KEY)) || {}; } catch { return {}; }
}

export function saveSettings(settings) {
  localStorage.setItem(SETTINGS_KEY, JSON.stringify(settings));
}

function segmented(name, options, value) {
  return h('div', { class: 'segmented', role: 'radiogroup' },
    options.map(([v, label]) => h('label', {},
      h('input', { type: 'radio', name, value: v, checked: v === value }),
      h('span', {}, label))));
}

// The settings form on screen: { mode, game, form, choice() }. Drawing the page again in place
// (the language switch re-routes) starts from what it shows, not from the settings saved at the
// last start: the user may have moved the slider while the new language loaded.
let shownSettings = null;

function shownChoice(mode, game) {
  const shown = shownSettings;
  return shown?.mode === mode && shown.game === game && shown.form.isConnected ? shown.choice() : {};
}

/** What was chosen last time for a game: its own rules and first player (settings saved before
 * there were several games are the default game's), and the rest, which every game shares. */
export function savedFor(saved, game) {
  const legacy = game === DEFAULT_GAME ? { rules: saved.rules, customRules: saved.customRules, first: saved.first } : {};
  return { ...saved, rules: undefined, customRules: undefined, first: undefined, ...legacy, ...(saved.games?.[game] ?? {}) };
}

/** `settings` with `choice` saved as the last choice for `game`; the time also as the last
 * one for `mode` (an untimed game on one screen says nothing of the next one online). */
function withChoice(settings, game, choice, mode) {
  const { rules, customRules, first, ...shared } = choice;
  return {
    ...settings, ...shared, game, games: { ...settings.games, [game]: { rules, customRules, first } },
    times: { ...settings.times, [mode]: choice.time },
  };
}

/** The time control the form starts with: the one shown (a redraw), else the last one chosen
 * for the mode, else a clock online and the last one chosen anywhere (or none) otherwise. */
export function startingTime(mode, saved, shown) {
  if (shown && 'time' in shown) return shown.time ?? '';
  const last = saved.times?.[mode];
  if (typeof last === 'string') return last;
  return mode === 'online' ? ONLINE_TIME : saved.time ?? '';
}

/** Remember a rule set as the one to start `game` with next time (the rules page's button). */
export function rememberRules(game, rules) {
  const settings = savedSettings();
  saveSettings({ ...settings, game, games: { ...settings.games, [game]: { ...settings.games?.[game], rules, customRules: rules } } });
}

export async function newGameView(view, mode, go, params = new URLSearchParams()) {
  const stillHere = pageCheck();
  // Only games with a computer player are offered against it.
  const games = await offered({ needs: mode === 'vs_ai' ? 'engine' : null });
  const game = chosenGame(games, params.get('game') || shownSettings?.game || savedSettings().game);
  const sets = await fetchRuleSets(game);
  const player = mode === 'online' ? await sessionPlayer() : null; // accounts may play rated games
  if (!stillHere()) return; // the user went elsewhere meanwhile: leave their page be
  // Read after the waits, and the page drawn without another: no change made meanwhile is lost.
  const shown = shownChoice(mode, game);
  const saved = { ...savedFor(savedSettings(), game), ...shown };
  const rules = saved.rules && sets.some((s) => s.name === saved.rules) ? saved.rules : sets[0].name;
  // Every option of the chosen set, adjustable; choosing another set starts again from it.
  // The options changed last time (saved as sent: {parent, ...changes}) come back for that set.
  const lastRules = saved.customRules;
  const ruleOptions = new RuleOptionsPanel(sets, rules, lastRules?.parent === rules ? lastRules : {}, game);
  // Online games may also be correspondence games: days per move.
  const time = timeFields(mode === 'online' ? [...TIME_PRESETS, ...CORR_PRESETS] : TIME_PRESETS, startingTime(mode, saved, shown), timeControlLabel);
  const failure = h('p', { class: 'error', id: 'settings-error', role: 'alert', hidden: true });
  // Another game: the page again, for that game (its rule sets, its sides' names).
  const picker = gamePicker(games, game, (key) => go(`/new/${mode}?game=${encodeURIComponent(key)}`));
  const form = h('form', { class: 'settings', id: 'settings', dataset: { game } },
    picker,
    h('label', { class: 'field' }, h('span', {}, t('settings.rules')),
      h('select', { name: 'rules', onchange: (e) => ruleOptions.choose(e.target.value) },
        sets.map((s) => h('option', { value: s.name, selected: s.name === rules }, t(`rules.${s.name}`))))),
    ruleOptions.el,
    h('div', { class: 'field' }, h('span', {}, t('settings.first')),
      segmented('first', [['red', firstName(0, game)], ['blue', firstName(1, game)]], saved.first || 'red'),
      h('small', { class: 'ro-help' }, t(`${optionKey(gameClient(game).ruleOptions.firstOption, game)}.help`))),
    mode === 'vs_ai' ? levelField(saved.level || 3) : null,
    mode !== 'same_screen' ? h('div', { class: 'field' }, h('span', {}, t('settings.side')),
      segmented('color', [['red', sideName(0, game)], ['blue', sideName(1, game)], ['random', t('side.random')]], saved.color || 'red')) : null,
    time.elements,
    mode === 'online' ? h('label', { class: 'check' }, h('input', { type: 'checkbox', name: 'public', checked: true }), t('settings.public')) : null,
    mode === 'online' ? ratedOption(player) : null,
    h('button', { class: 'primary big', type: 'submit', id: 'start' }, mode === 'online' ? t('settings.create') : t('settings.start')),
    failure);
  const start = form.querySelector('#start');
  // A game without a clock is casual (ratings are per speed): the rated box follows the time.
  const syncRated = () => ratedNeedsClock(form.querySelector('#rated'), () => Boolean(time.value()));
  form.addEventListener('change', syncRated);
  form.addEventListener('input', syncRated);
  syncRated();
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
    try { saveSettings(withChoice(savedSettings(), game, choice, mode)); } catch { /* ignore */ }
    failure.hidden = true;
    start.disabled = true;
    try {
      await ensurePlayer();
      const created = await api('/api/games', {
        method: 'POST',
        body: {
          mode, game, rules: choice.customRules, first_player: choice.first, time_control: choice.time || null,
          ai_level: mode === 'vs_ai' ? choice.level : null,
          color: mode === 'same_screen' ? 'red' : choice.color,
          public: mode === 'online' ? f.public.checked : true,
          rated: Boolean(f.rated?.checked),
        },
      });
      go(`/game/${created.id}`);
    } catch (error) {
      start.disabled = false;
      fail(error.status === 503 && mode === 'vs_ai' ? t('settings.aiFull') : error.message);
    }
  });
  view.replaceChildren(h('section', { class: 'page narrow' }, pageHead(t(`settings.title.${mode}`), mode === 'online' ? '#/lobby' : '#/'), form));
  shownSettings = { mode, game, form, choice: readChoice };
}
