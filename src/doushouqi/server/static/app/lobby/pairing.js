// `#/play[?game=tiger]`: quick pairing. A game picker (a seek pairs only with a seek of the same
// game), then a grid of time controls (with the per-move timers Chinese sites use);
// a tap posts a seek and the cell shows that it is searching (a second tap cancels). When the
// server pairs two seeks it pushes `paired` over the site socket and both players go to their
// game. The page also leads to the lobby and to "play a friend". Leaving the page cancels the
// seeks made on it; closing the tab drops them on the server within seconds.

import { t } from '../shell/i18n.js';
import { api, ensurePlayer, fetchRuleSets } from '../shell/api.js';
import { h, pageHead } from '../shell/dom.js';
import { pageCheck } from '../shell/navigation.js';
import { onSiteMessage } from '../community/notifications.js';
import { gameClient } from '../../games/index.js';
import { chosenGame, gamePicker, offered } from '../shell/site_games.js';
import { ratingText, speedName } from '../shell/ratings.js';

/** The grid: [time control as the server writes it, category (the tile's colour), speed: whose
 * rating it plays for, as the server's core/speed.py gives it (base + 40 × increment)]. */
export const QUICK_CONTROLS = [
  ['1+0', 'bullet', 'bullet'], ['3+2', 'blitz', 'blitz'], ['5+3', 'blitz', 'blitz'],
  ['10+0', 'rapid', 'rapid'], ['10+5', 'rapid', 'rapid'], ['15+10', 'rapid', 'rapid'],
  ['10+0/30s', 'permove', 'rapid'], ['20+0/60s', 'permove', 'rapid'],
];
const RANGES = [0, 100, 200, 300, 500];
const OPTIONS_KEY = 'doushouqi.pairing';

/** A time control in words: "10+5", or "10 min + 30 s a move" for a per-move timer. */
export function timeControlLabel(control) {
  const found = /^(\d+(?:\.\d+)?)\+(\d+(?:\.\d+)?)(?:\/(\d+(?:\.\d+)?)s)?$/.exec(control || '');
  if (!found) return control || t('time.none');
  const [, base, inc, per] = found;
  if (per) return Number(inc) ? t('pairing.tc.permoveInc', { base, inc, per }) : t('pairing.tc.permove', { base, per });
  return `${base}+${inc}`;
}

function savedOptions() {
  try { return JSON.parse(localStorage.getItem(OPTIONS_KEY)) || {}; } catch { return {}; }
}

export async function pairingView(view, go, params = new URLSearchParams()) {
  const stillHere = pageCheck();
  const games = await offered();
  const saved = savedOptions();
  const game = chosenGame(games, params.get('game') || saved.game);
  // A guest session at once: the site socket opens, so a seek is tied to this tab from its start.
  const [sets, player] = await Promise.all([fetchRuleSets(game), ensurePlayer()]);
  if (!stillHere()) return null;
  // The rule set chosen last time for this game (each game has its own).
  const savedRules = saved.rulesByGame?.[game] ?? (saved.game === game || !saved.game ? saved.rules : undefined);
  const isAccount = player?.kind === 'account';
  // An account's rating at each speed, shown on the tiles ("you 1500?"): what a game there moves.
  const profile = isAccount && player.username
    ? await api(`/api/players/${encodeURIComponent(player.username)}?game=${encodeURIComponent(game)}`).catch(() => null)
    : null;
  if (!stillHere()) return null;
  const status = h('p', { class: 'pairing-status', id: 'pairing-status', role: 'status', 'aria-live': 'polite' });
  const failure = h('p', { class: 'error', id: 'pairing-error', role: 'alert', hidden: true });
  const rules = h('select', { name: 'rules', id: 'pairing-rules' },
    sets.map((s) => h('option', { value: s.name, selected: s.name === (savedRules || gameClient(game).defaultRules) }, t(`rules.${s.name}`))));
  // Another game: the page again for it (its waiting seeks are cancelled by the page's cleanup).
  const picker = gamePicker(games, game, (key) => go(`/play?game=${encodeURIComponent(key)}`), { name: 'pairing-game' });
  // Rated by default for an account (as on lichess); casual only when it unticked it.
  const rated = h('input', { type: 'checkbox', id: 'pairing-rated', checked: isAccount && !saved.casual, disabled: !isAccount });
  const range = h('select', { id: 'pairing-range', name: 'range' },
    RANGES.map((r) => h('option', { value: r, selected: r === (saved.range || 0) }, r ? t('pairing.range.within', { n: r }) : t('pairing.range.any'))));
  const cells = new Map(); // control → { el, count, seek }
  const grid = h('div', { class: 'pairing-grid', id: 'pairing-grid' },
    QUICK_CONTROLS.map(([control, kind, speed]) => {
      const count = h('small', { class: 'pairing-count' });
      const mine = profile?.ratings?.[speed];
      const kindWords = kind === 'permove' ? `${speedName(speed)} · ${t('pairing.kind.permove')}` : speedName(speed);
      const el = h('button', { type: 'button', class: `pairing-cell ${kind}`, dataset: { control, speed }, 'aria-pressed': 'false',
        onclick: () => toggle(control) },
      h('strong', {}, timeControlLabel(control)),
      h('span', { class: 'pairing-kind' }, kindWords),
      mine ? h('small', { class: 'pairing-rating', title: mine.provisional ? t('ratings.provisional') : null },
        t('pairing.yourRating', { rating: ratingText(mine) })) : null,
      count);
      cells.set(control, { el, count, seek: null });
      return el;
    }));
  const choice = () => ({ game, rules: rules.value, rated: rated.checked, range: Number(range.value) });
  const remember = () => {
    const c = choice();
    const rulesByGame = { ...savedOptions().rulesByGame, [game]: c.rules };
    // Saved as `casual` (not `rated`): choices saved while casual was the default stay unticked
    // no longer, and a guest's (always casual) says nothing of the account it may sign in to.
    const casual = isAccount ? !c.rated : Boolean(savedOptions().casual);
    const { rated: _, ...kept } = c;
    try { localStorage.setItem(OPTIONS_KEY, JSON.stringify({ ...kept, casual, rulesByGame })); } catch { /* ignore */ }
  };
  // Other wishes make other seeks: changing them cancels the ones waiting.
  for (const input of [rules, rated, range]) input.addEventListener('change', () => { remember(); cancelAll(); refresh(); });

  // api.js words a refusal from its code (`error.pairing.…`)
  const fail = (error) => { failure.textContent = error.message || String(error); failure.hidden = false; };
  function showSearching() {
    const searching = [...cells.values()].filter((c) => c.seek);
    for (const [control, cell] of cells) {
      cell.el.classList.toggle('searching', Boolean(cell.seek));
      cell.el.setAttribute('aria-pressed', String(Boolean(cell.seek)));
      cell.el.setAttribute('aria-label', `${timeControlLabel(control)}${cell.seek ? ` · ${t('pairing.searching')}` : ''}`);
    }
    status.textContent = searching.length ? t('pairing.searching.help') : t('pairing.pick');
  }
  async function toggle(control) {
    const cell = cells.get(control);
    failure.hidden = true;
    if (cell.seek) {
      const { id } = cell.seek;
      cell.seek = null;
      showSearching();
      api(`/api/seeks/${encodeURIComponent(id)}`, { method: 'DELETE' }).catch(() => {});
      return;
    }
    cell.el.disabled = true;
    try {
      await ensurePlayer(); // a guest session on first use; the site socket follows
      const c = choice();
      const seek = await api('/api/seeks', { method: 'POST', body: {
        game: c.game, time_control: control, rules: c.rules, rated: c.rated, rating_range: c.range || null } });
      if (seek.game_id) { go(`/game/${seek.game_id}`); return; }
      cell.seek = seek;
    } catch (error) {
      fail(error);
    } finally {
      cell.el.disabled = false;
    }
    showSearching();
  }
  function cancelAll() {
    for (const cell of cells.values()) {
      if (!cell.seek) continue;
      api(`/api/seeks/${encodeURIComponent(cell.seek.id)}`, { method: 'DELETE' }).catch(() => {});
      cell.seek = null;
    }
    showSearching();
  }
  async function refresh() {
    let answer;
    try { answer = await api('/api/seeks'); } catch { return; }
    if (!stillHere()) return;
    const c = choice();
    for (const [control, cell] of cells) {
      const waiting = answer.seeks
        .filter((s) => s.game === c.game && s.time_control === control && s.rules === c.rules && s.rated === c.rated)
        .reduce((n, s) => n + s.count, 0);
      const others = waiting - (cell.seek ? 1 : 0);
      cell.count.textContent = others > 0 ? t('pairing.waiting', { n: others }) : '';
      // Paired while this tab's socket was away: the seek names its game.
      const paired = cell.seek && answer.mine.find((m) => m.id === cell.seek.id && m.game_id);
      if (paired) { go(`/game/${encodeURIComponent(paired.game_id)}`); return; }
      // A seek that is gone from the server (cancelled in another tab, or lapsed) is not shown.
      if (cell.seek && !answer.mine.some((m) => m.id === cell.seek.id)) cell.seek = null;
    }
    showSearching();
  }

  view.replaceChildren(h('section', { class: 'page narrow pairing-page' },
    pageHead(t('pairing.title')),
    picker,
    h('div', { class: 'pairing-options' },
      h('label', { class: 'field' }, h('span', {}, t('settings.rules')), rules),
      h('label', { class: 'field' }, h('span', {}, t('pairing.range')), range),
      h('label', { class: 'check pairing-rated' }, rated,
        h('span', {}, t('pairing.rated'), ' ', h('small', { class: 'hint' }, isAccount ? t('pairing.rated.hint') : t('pairing.rated.accounts'))))),
    grid,
    status,
    failure,
    h('nav', { class: 'pairing-more', 'aria-label': t('pairing.more') },
      h('a', { class: 'button', href: `#/new/online?game=${encodeURIComponent(game)}`, id: 'play-friend' }, t('pairing.friend')),
      h('a', { class: 'button', href: '#/lobby', id: 'play-lobby' }, t('pairing.lobby')))));
  showSearching();
  const stopPaired = onSiteMessage('paired', (message) => {
    for (const cell of cells.values()) cell.seek = null; // the server dropped every other seek
    if (typeof message.game_id === 'string') go(`/game/${encodeURIComponent(message.game_id)}`);
  });
  const stopConnected = onSiteMessage('connected', () => refresh());
  await refresh();
  const timer = setInterval(() => refresh(), 3000);
  return () => {
    clearInterval(timer);
    stopPaired();
    stopConnected();
    cancelAll();
  };
}
