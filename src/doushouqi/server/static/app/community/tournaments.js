// Tournaments (比赛): `#/tournaments` lists them (running, upcoming, finished), `#/tournaments/new`
// creates one (accounts only), `#/tournament/ID` is a tournament's page: a countdown to its
// start, join / withdraw, the standings (with tie-breaks for Swiss), the pairings by round, a
// "your game is ready" banner, and the final results. The page asks the server again every
// two seconds while the tournament is on (the standings are live); nothing here decides
// anything, the server's director does.

import { playerName, plural, t } from '../shell/i18n.js';
import { api, fetchRuleSets, sessionPlayer } from '../shell/api.js';
import { h, pageHead, replaceChanged } from '../shell/dom.js';
import { pageCheck } from '../shell/navigation.js';
import { noteServerTime, serverNow } from '../shell/server_clock.js';
import { showErrorPage } from '../shell/error_page.js';
import { onSiteMessage } from './notifications.js';
import { ruleSetLabel } from '../play/rule_options.js';
import { gameClient } from '../../games/index.js';
import { chosenGame, gameName, gamePicker, offered } from '../shell/site_games.js';

const REFRESH_MS = 2000;
const CONTROLS = ['1+0', '3+2', '5+3', '10+0', '10+5', '15+10', '10+0/30s'];
const STARTS_IN = [1, 2, 5, 10, 15, 30, 60]; // minutes
const DURATIONS = [10, 20, 30, 45, 60, 90]; // arena minutes
const ROUNDS = [3, 4, 5, 6, 7, 9];

/** The game page's way back to the tournament that paired the game (null for other games). */
export function tournamentBackLink(game) {
  if (!game?.tournament_id) return null;
  return h('a', { class: 'button tournament-back', id: 'tournament-back', href: `#/tournament/${encodeURIComponent(game.tournament_id)}` },
    t('tournament.back'));
}

/** The words for a refusal: api.js translates its code (`error.tournament.full`). */
function refusal(error) {
  return error?.message || String(error);
}

/** "3:05" or "1:02:03": a countdown of whole seconds. */
export function countdown(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  const hours = Math.floor(s / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, '0');
  return hours ? `${hours}:${String(minutes).padStart(2, '0')}:${rest}` : `${minutes}:${rest}`;
}

function kindLabel(kind) {
  return t(`tournament.kind.${kind === 'arena' ? 'arena' : 'swiss'}`);
}

function formatLine(tour) {
  const length = tour.kind === 'arena'
    ? plural('tournament.minutes', Math.round((tour.duration || 0) / 60))
    : plural('tournament.rounds', tour.rounds);
  return [gameName(tour.game), kindLabel(tour.kind), tour.time_control, length, ruleSetLabel(tour.rules?.name),
    tour.rated ? t('tournament.rated') : t('tournament.casual')].join(' · ');
}

/** Where a tournament stands, in words: starts in 3:00 / 12:00 left / round 2 of 5 / finished. */
function statusLine(tour) {
  const now = serverNow();
  if (tour.status === 'created') return t('tournament.startsIn', { time: countdown(tour.starts_at - now) });
  if (tour.status === 'finished') return t('tournament.status.finished');
  if (tour.kind === 'arena') {
    const left = (tour.ends_at ?? now) - now;
    return left > 0 ? t('tournament.timeLeft', { time: countdown(left) }) : t('tournament.lastGames');
  }
  return t('tournament.roundOf', { round: tour.current_round, rounds: tour.rounds });
}

// ----- the list ---------------------------------------------------------------------------

async function listView(view) {
  const stillHere = pageCheck();
  const [answer, player] = await Promise.all([api('/api/tournaments'), sessionPlayer()]);
  if (!stillHere()) return null;
  const groups = h('div', { class: 'tour-groups', id: 'tour-groups' });
  const create = player?.kind === 'account'
    ? h('a', { class: 'button primary', href: '#/tournaments/new', id: 'tour-create' }, t('tournament.create'))
    : h('a', { class: 'button', href: '#/login?next=%23%2Ftournaments', id: 'tour-sign-in' }, t('tournament.signInToCreate'));
  view.replaceChildren(h('section', { class: 'page narrow tournaments' },
    pageHead(t('tournament.title')), h('p', { class: 'row' }, create), groups));
  function draw(data) {
    noteServerTime(data.server_time);
    const sections = [['running', data.running], ['upcoming', data.upcoming], ['finished', data.finished]];
    replaceChanged(groups, sections.map(([name, items]) => h('section', { class: 'tour-group', dataset: { group: name } },
      h('h2', {}, t(`tournament.group.${name}`)),
      items.length
        ? h('ul', { class: 'tour-list' }, items.map((tour) => h('li', { class: 'tour-item', dataset: { tournament: tour.id } },
          h('a', { href: `#/tournament/${tour.id}` },
            h('strong', { class: 'tour-name' }, tour.name),
            h('small', {}, formatLine(tour)),
            h('small', { class: 'tour-when' }, statusLine(tour), ' · ', plural('tournament.playersCount', tour.players))))))
        : h('p', { class: 'empty' }, t(`tournament.none.${name}`)))));
  }
  draw(answer);
  const timer = setInterval(async () => {
    try { const next = await api('/api/tournaments'); if (stillHere()) draw(next); } catch { /* next time */ }
  }, 5000);
  return () => clearInterval(timer);
}

// ----- creating one -----------------------------------------------------------------------

async function createView(view, go, wanted = undefined) {
  const stillHere = pageCheck();
  const games = await offered();
  const game = chosenGame(games, wanted);
  const [sets, player] = await Promise.all([fetchRuleSets(game), sessionPlayer()]);
  if (!stillHere()) return;
  if (player?.kind !== 'account') {
    view.replaceChildren(h('section', { class: 'page narrow' }, pageHead(t('tournament.create'), '#/tournaments'),
      h('p', {}, t('tournament.accountsOnly')),
      h('a', { class: 'button primary', href: '#/login?next=%23%2Ftournaments%2Fnew' }, t('tournament.signIn'))));
    return;
  }
  const select = (name, values, label, chosen) => h('select', { name, id: `tour-${name}` },
    values.map((v) => h('option', { value: v, selected: v === chosen }, label(v))));
  const field = (label, control, extra = {}) => h('label', { class: 'field', ...extra }, h('span', {}, label), control);
  const kind = select('kind', ['arena', 'swiss'], kindLabel, 'swiss');
  const name = h('input', { name: 'name', id: 'tour-name', maxlength: 60, required: true, autocomplete: 'off',
    value: t('tournament.defaultName', { name: player.name }) });
  const control = select('time_control', CONTROLS, (c) => c, '5+3');
  const rules = select('rules', sets.map((s) => s.name), (n) => t(`rules.${n}`), gameClient(game).defaultRules);
  // Another game: the form again for it (its rule sets).
  const picker = gamePicker(games, game, (key) => createView(view, go, key), { name: 'tour-game' });
  const startsIn = select('starts_in', STARTS_IN, (m) => plural('tournament.inMinutes', m), 5);
  const duration = select('duration', DURATIONS, (m) => plural('tournament.minutes', m), 30);
  const rounds = select('rounds', ROUNDS, (n) => plural('tournament.rounds', n), 5);
  const maxPlayers = h('input', { type: 'number', name: 'max_players', id: 'tour-max-players', min: 2, max: 64, value: 32, inputmode: 'numeric' });
  const minRating = h('input', { type: 'number', name: 'min_rating', id: 'tour-min-rating', min: 0, max: 3500, placeholder: t('tournament.noMinimum'), inputmode: 'numeric' });
  const rated = h('input', { type: 'checkbox', name: 'rated', id: 'tour-rated', checked: true });
  const durationField = field(t('tournament.duration'), duration);
  const roundsField = field(t('tournament.roundsLabel'), rounds);
  const failure = h('p', { class: 'error', id: 'tour-error', role: 'alert', hidden: true });
  const showKind = () => {
    durationField.hidden = kind.value !== 'arena';
    roundsField.hidden = kind.value === 'arena';
  };
  kind.addEventListener('change', showKind);
  showKind();
  const form = h('form', { class: 'tour-form', id: 'tour-form', onsubmit: submit, dataset: { game } },
    picker,
    field(t('tournament.kindLabel'), kind),
    h('p', { class: 'hint', id: 'tour-kind-hint' }, t('tournament.kindHint')),
    field(t('tournament.name'), name),
    field(t('tournament.timeControl'), control),
    field(t('tournament.rulesLabel'), rules),
    field(t('tournament.startsInLabel'), startsIn),
    durationField, roundsField,
    field(t('tournament.maxPlayers'), maxPlayers),
    field(t('tournament.minRating'), minRating),
    h('label', { class: 'check' }, rated, h('span', {}, t('tournament.ratedLabel'))),
    failure,
    h('button', { type: 'submit', class: 'primary big', id: 'tour-submit' }, t('tournament.createSubmit')));
  view.replaceChildren(h('section', { class: 'page narrow' }, pageHead(t('tournament.create'), '#/tournaments'), form));
  async function submit(event) {
    event.preventDefault();
    failure.hidden = true;
    const body = {
      kind: kind.value, name: name.value, game, rules: rules.value, time_control: control.value,
      rated: rated.checked, starts_in: Number(startsIn.value) * 60, max_players: Number(maxPlayers.value) || 32,
    };
    if (minRating.value.trim()) body.min_rating = Number(minRating.value);
    if (kind.value === 'arena') body.duration_minutes = Number(duration.value);
    else body.rounds = Number(rounds.value);
    try {
      const made = await api('/api/tournaments', { method: 'POST', body });
      go(`/tournament/${made.id}`);
    } catch (error) {
      failure.textContent = refusal(error);
      failure.hidden = false;
    }
  }
}

// ----- a tournament's page ----------------------------------------------------------------

function resultText(result) {
  const words = { '1-0': '1–0', '0-1': '0–1', '1/2-1/2': '½–½', '+-': '+ –', '-+': '– +', '--': '– –' };
  return words[result] ?? '…';
}

function standingsTable(tour, me) {
  const swiss = tour.kind === 'swiss';
  const head = swiss
    ? ['#', t('tournament.col.player'), t('tournament.col.points'), t('tournament.col.buchholz'), t('tournament.col.cut1'), t('tournament.col.sb'), t('tournament.col.wins')]
    : ['#', t('tournament.col.player'), t('tournament.col.points'), t('tournament.col.games'), t('tournament.col.wins')];
  const score = (v) => (swiss ? String(v).replace('.5', '½').replace(/^0½/, '½') : String(v));
  const rows = tour.standings.map((row) => h('tr', {
    class: [row.account_id === me ? 'mine' : '', row.state !== 'joined' ? 'away' : ''].join(' ').trim() || null,
    dataset: { player: row.username, state: row.state },
  },
  h('td', {}, row.rank),
  h('th', { scope: 'row', class: 'tour-player' },
    h('a', { href: `#/player/${encodeURIComponent(row.username)}` }, playerName(row.name)),
    row.on_fire && !swiss ? h('span', { class: 'fire', title: t('tournament.onFire') }, t('tournament.fire')) : null,
    row.state === 'withdrawn' ? h('small', { class: 'tour-state' }, t('tournament.state.withdrawn')) : null,
    row.state === 'absent' ? h('small', { class: 'tour-state' }, t('tournament.state.absent')) : null),
  h('td', { class: 'score' }, score(row.score)),
  ...(swiss
    ? [h('td', {}, score(row.buchholz)), h('td', {}, score(row.buchholz_cut1)), h('td', {}, score(row.sonneborn_berger)), h('td', {}, row.wins)]
    : [h('td', {}, row.played), h('td', {}, row.wins)])));
  const long = swiss ? [null, null, null, 'buchholz', 'cut1', 'sb', 'wins'] : [null, null, null, 'games', 'wins'];
  return h('div', { class: 'tour-table-wrap' }, h('table', { class: 'tour-standings', id: 'tour-standings' },
    h('thead', {}, h('tr', {}, head.map((c, i) => h('th', { scope: 'col', title: long[i] ? t(`tournament.col.${long[i]}.long`) : null }, c)))),
    h('tbody', {}, rows)));
}

function pairingsList(tour) {
  const rounds = new Map();
  const items = tour.kind === 'swiss' ? tour.pairings : [...tour.pairings].reverse().slice(0, 30);
  for (const p of items) {
    const key = tour.kind === 'swiss' ? p.round : 0;
    if (!rounds.has(key)) rounds.set(key, []);
    rounds.get(key).push(p);
  }
  const order = tour.kind === 'swiss' ? [...rounds.keys()].sort((a, b) => b - a) : [...rounds.keys()];
  return h('div', { class: 'tour-pairings', id: 'tour-pairings' }, order.map((round) => h('section', { dataset: { round } },
    h('h3', {}, tour.kind === 'swiss' ? t('tournament.roundN', { n: round }) : t('tournament.latestGames')),
    h('ul', {}, rounds.get(round).map((p) => h('li', { class: 'tour-pairing', dataset: { game: p.game_id || '' } },
      h('span', { class: 'red-name' }, playerName(p.red?.name) ?? '?'),
      p.blue
        ? h('a', { class: 'tour-result', href: p.game_id ? `#/game/${p.game_id}` : null }, resultText(p.result))
        : h('span', { class: 'tour-result' }, t('tournament.bye')),
      h('span', { class: 'blue-name' }, p.blue ? playerName(p.blue.name) : '')))))));
}

async function tournamentPage(view, id) {
  const stillHere = pageCheck();
  const player = await sessionPlayer();
  let tour;
  try {
    tour = await api(`/api/tournaments/${encodeURIComponent(id)}`);
  } catch (error) {
    if (error.status !== 404) throw error;
    if (stillHere()) showErrorPage(view, { kind: 'notFound' }); // a mistyped or dead link
    return null;
  }
  if (!stillHere()) return null;
  const me = player?.kind === 'account' ? player.id : null;
  const status = h('p', { class: 'tour-status', id: 'tour-status', role: 'status' });
  const banner = h('div', { class: 'tour-banner', id: 'tour-banner', hidden: true });
  const actions = h('div', { class: 'row tour-actions', id: 'tour-actions' });
  const failure = h('p', { class: 'error', id: 'tour-error', role: 'alert', hidden: true });
  const body = h('div', { class: 'tour-body' });
  const title = h('h1', {}, tour.name);
  const head = h('div', { class: 'page-head' }, h('a', { class: 'back', href: '#/tournaments', 'aria-label': t('tournament.title') }, '‹'), title);
  const format = h('p', { class: 'tour-format', id: 'tour-format' });
  view.replaceChildren(h('section', { class: 'page narrow tournament', dataset: { tournament: id } },
    head, format, status, banner, actions, failure, body));

  async function act(path) {
    failure.hidden = true;
    try {
      tour = await api(`/api/tournaments/${encodeURIComponent(id)}/${path}`, { method: 'POST' });
      draw();
    } catch (error) {
      failure.textContent = refusal(error);
      failure.hidden = false;
    }
  }
  function drawActions() {
    const mine = tour.me;
    const buttons = [];
    if (tour.status !== 'finished') {
      if (me === null) {
        buttons.push(h('a', { class: 'button primary', href: `#/login?next=${encodeURIComponent(`#/tournament/${id}`)}`, id: 'tour-sign-in' }, t('tournament.signInToJoin')));
      } else if (!mine) {
        if (!(tour.kind === 'swiss' && tour.status === 'started')) buttons.push(h('button', { type: 'button', class: 'primary', id: 'tour-join', onclick: () => act('join') }, t('tournament.join')));
      } else if (mine.state === 'joined') {
        buttons.push(h('button', { type: 'button', id: 'tour-withdraw', onclick: () => act('withdraw') }, t('tournament.withdraw')));
      } else if (tour.kind === 'arena') {
        buttons.push(h('button', { type: 'button', class: 'primary', id: 'tour-rejoin', onclick: () => act('join') }, t('tournament.rejoin')));
      }
    }
    if (mine && mine.state !== 'joined') buttons.push(h('span', { class: 'tour-my-state' }, t(`tournament.state.${mine.state}`)));
    replaceChanged(actions, buttons);
  }
  function drawBanner() {
    const game = tour.me?.current_game;
    banner.hidden = !game;
    replaceChanged(banner, (game ? [h('strong', {}, t('tournament.gameReady')),
      h('a', { class: 'button primary', href: `#/game/${game}`, id: 'tour-go' }, t('tournament.go'))] : []));
  }
  function drawBody() {
    const parts = [];
    if (tour.status === 'finished') {
      const podium = tour.standings.slice(0, 3);
      parts.push(h('section', { class: 'tour-results', id: 'tour-results' }, h('h2', {}, t('tournament.results')),
        podium.length ? h('ol', { class: 'tour-podium' }, podium.map((row) => h('li', {}, h('strong', {}, playerName(row.name)), ' ', plural('tournament.pointsN', row.score))))
          : h('p', { class: 'empty' }, t('tournament.nobodyPlayed'))));
    }
    parts.push(h('h2', {}, t('tournament.standings')));
    parts.push(tour.standings.length ? standingsTable(tour, me) : h('p', { class: 'empty' }, t('tournament.noPlayers')));
    if (tour.kind === 'swiss') parts.push(h('p', { class: 'hint' }, t('tournament.tieBreaksHint')));
    else parts.push(h('p', { class: 'hint' }, t('tournament.arenaHint')));
    if (tour.pairings.length) parts.push(h('h2', {}, t('tournament.pairings')), pairingsList(tour));
    body.replaceChildren(...parts);
  }
  function drawStatus() {
    status.textContent = `${statusLine(tour)} · ${plural('tournament.playersCount', tour.players)}`;
  }
  function draw() {
    noteServerTime(tour.server_time);
    title.textContent = tour.name;
    format.textContent = formatLine(tour);
    view.querySelector('.tournament').dataset.status = tour.status;
    drawStatus();
    drawActions();
    drawBanner();
    drawBody();
  }
  draw();
  async function reload() {
    if (tour.status === 'finished') return;
    try {
      const next = await api(`/api/tournaments/${encodeURIComponent(id)}`);
      if (!stillHere()) return;
      tour = next;
      draw();
    } catch { /* the next refresh tries again */ }
  }
  const refresh = setInterval(reload, REFRESH_MS);
  const tick = setInterval(() => { if (stillHere()) drawStatus(); }, 1000); // the countdown
  // A game of ours was just made (the site socket says so): show its banner at once.
  const stopPaired = onSiteMessage('paired', (message) => { if (message.tournament_id === id) reload(); });
  return () => { clearInterval(refresh); clearInterval(tick); stopPaired(); };
}

/** The router's entry: `#/tournaments`, `#/tournaments/new`, `#/tournament/ID`. */
export async function tournamentsRoute(view, parts, go) {
  if (parts[0] === 'tournament' && parts[1]) return tournamentPage(view, parts[1]);
  if (parts[1] === 'new') return createView(view, go);
  return listView(view);
}
