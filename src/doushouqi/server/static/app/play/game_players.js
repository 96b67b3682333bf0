// The game page's player bars: each player's animal avatar in their colour, their name (an
// account's name links to its profile), rating at the game's speed ("Blitz 1500?") and ladder
// level in online games, whether an online opponent is connected, the animals they have
// captured, and a slot for the clock (game.js fills it in several times a second).

import { api } from '../shell/api.js';
import { AVATARS, initialIcon } from '../community/accounts.js';
import { h } from '../shell/dom.js';
import { gameClient } from '../../games/index.js';
import { t, currentLang, playerName } from '../shell/i18n.js';
import { levelName } from './levels.js';
import { deltaChip, ratingChange, scoreChange } from './result_changes.js';
import { pieceStyle } from '../shell/appearance.js';
import { ratingText, speedName } from '../shell/ratings.js';

const COLORS = ['red', 'blue'];

// The ladder's levels ({number, label, en, min_score}) from GET /api/scoring, asked for once
// and only when a bar needs them; until they come (or if they never do) bars show no level.
let ladder = null;
let askingForLadder = null;

function ladderLevels(whenReady) {
  if (ladder || askingForLadder) return ladder;
  askingForLadder = api('/api/scoring')
    .then((rules) => { ladder = rules.levels; whenReady(); })
    .catch(() => { /* no levels then: the rating alone still says how strong a player is */ });
  return null;
}

/** The level a ladder score puts a player at (level 1 also covers negative scores). */
function levelFor(score, levels) {
  let found = levels[0];
  for (const level of levels) if (score >= level.min_score) found = level;
  return found;
}

/** The animal to draw for a player: their own avatar; the computer, which has none, gets
 * stronger animals at higher levels (the rat at level 1, the elephant from level 8); a person
 * who chose none gets none (their initial is drawn). */
function avatarAnimal(player) {
  if (AVATARS.includes(player.avatar)) return player.avatar;
  if (player.identity?.kind !== 'ai') return null;
  const level = player.identity.level;
  return AVATARS[Math.min(Math.max(level, 1), AVATARS.length) - 1];
}

export class PlayerBars {
  constructor(view) {
    this.view = view;
    this.parts = new Map(); // bar element -> its parts, built once
  }

  /** Fill `bar` for the player of `color`; `taken` lists the opponent's animals they captured. */
  render(bar, color, taken) {
    const g = this.view.game;
    const parts = this.parts.get(bar) || this.build(bar);
    bar.dataset.color = COLORS[color];
    bar.classList.toggle('to-move', g.status_id === 20 && g.turn === color);
    parts.clock.dataset.clock = color;
    // Who sits there is redrawn only when it changes: a keyboard user's focus on the profile
    // link survives the moves (every event re-renders the page).
    const who = this.describe(color);
    const key = JSON.stringify(who);
    if (key !== parts.key) {
      parts.key = key;
      this.paintWho(parts, who);
    }
    const opponent = COLORS[1 - color];
    const game = this.view.gameClient;
    const look = { ...this.view.look(), lang: currentLang() };
    // The taken pieces by their characters, or by their letters for a reader who chose pieces
    // without characters (the letters of the move list).
    const letters = ['pictures', 'letters'].includes(pieceStyle(game));
    const mark = (kind) => (letters ? game.pieceSet.letterOf(game.pieceOf('red', kind)) : game.pieceChar(kind, look));
    parts.captured.replaceChildren(...taken.map((kind) => h('span', { class: `cap ${opponent}`, title: game.kindWord(kind) }, mark(kind))));
  }

  build(bar) {
    const parts = {
      avatar: h('span', { class: 'player-avatar icon-piece', 'aria-hidden': 'true' }),
      name: h('span', { class: 'player-name' }),
      meta: h('small', { class: 'player-meta' }),
      captured: h('small', { class: 'captured', title: t('game.captured') }),
      clock: h('span', { class: 'clock' }),
      key: null,
    };
    bar.replaceChildren(parts.avatar,
      h('span', { class: 'pname' }, parts.name, h('span', { class: 'player-line' }, parts.meta, parts.captured)),
      parts.clock);
    this.parts.set(bar, parts);
    return parts;
  }

  /** Everything the bar shows about the player of `color`, as plain data. */
  describe(color) {
    const g = this.view.game;
    const p = g.players[color];
    const side = this.view.side(color);
    if (!p) return { color, side, waiting: true, over: g.status_id >= 25 }; // over: nobody came
    const kind = p.identity?.kind;
    const online = g.mode === 'online';
    const mine = this.view.seats.includes(color) && g.mode !== 'same_screen';
    const who = { color, side, animal: avatarAnimal(p), mine };
    if (kind === 'ai') {
      who.name = t('game.ai', { level: p.identity.level });
      who.aiLevel = levelName(p.identity.level); // what the number means ("中级"), like a person's ladder level
    } else if (g.mode === 'same_screen') who.name = side;
    else who.name = playerName(p.name);
    if (kind === 'account' && p.username) who.username = p.username;
    if (online && kind === 'account') {
      // The rating at the game's speed ("Blitz 1500?"); a game without a clock has none.
      if (g.speed && p.rating) Object.assign(who, { speed: g.speed, rating: ratingText(p.rating) });
      // After a rated game: the new rating and its change at once, not the one from the start.
      const rated = ratingChange(g, color);
      if (rated) Object.assign(who, { rating: rated.after, ratingDelta: rated.delta });
      const scored = scoreChange(g, color);
      if (scored && !(scored.voided && !scored.delta)) Object.assign(who, { scoreDelta: scored.delta });
      const levels = ladderLevels(() => this.view.render());
      if (levels) who.level = levelFor(scored ? scored.score : p.score ?? 0, levels);
    } else if (online && kind === 'guest') {
      who.guest = true;
    }
    // Whether an online opponent is at the board, while it matters: before the end.
    if (online && !mine && kind !== 'ai' && g.status_id < 25) {
      who.connected = !(g.disconnected_since || [])[color];
    }
    return who;
  }

  paintWho(parts, who) {
    parts.avatar.classList.toggle('empty', Boolean(who.waiting));
    if (who.waiting || who.animal) {
      const animal = who.animal;
      const piece = h('span', { class: `dsq-piece ${COLORS[who.color]}` });
      piece.innerHTML = who.waiting ? '' : gameClient().pieceSvg({ color: COLORS[who.color], animal }, { lang: currentLang(), style: 'pictures' }); // static SVG, a known animal (avatars are the default game's pieces)
      parts.avatar.dataset.avatar = who.waiting ? '' : animal;
      parts.avatar.replaceChildren(piece);
    } else {
      parts.avatar.dataset.avatar = '';
      parts.avatar.replaceChildren(initialIcon(who.name, `player-initial ${COLORS[who.color]}`));
    }
    if (who.waiting) {
      parts.name.replaceChildren(h('strong', {}, t(who.over ? 'expiry.seat.empty' : 'game.waiting')));
      parts.meta.replaceChildren();
      return;
    }
    const name = who.username
      ? h('a', { class: 'player-link', href: `#/player/${encodeURIComponent(who.username)}`, title: t('players.profile', { name: who.name }) }, who.name)
      : who.name;
    // The side in words for screen readers (the bar shows it by colour and the token's shape),
    // unless the name is the side already (one screen).
    const sideWords = who.name === who.side ? null : h('span', { class: 'players-sr-only' }, t('players.side', { side: who.side }));
    const connection = who.connected === undefined ? []
      : [h('span', { class: 'player-conn', dataset: { connected: who.connected ? 'yes' : 'no' } },
        t(who.connected ? 'players.connected' : 'players.disconnected'))];
    parts.name.replaceChildren(h('strong', {}, sideWords, name, who.mine ? ` (${t('game.you')})` : null), ...connection);
    // Each change sits beside what it changed: the rating's after the rating, the score's after
    // the level the score gives.
    const meta = [];
    if (who.rating !== undefined) {
      const words = who.speed ? t('ratings.speedRating', { speed: speedName(who.speed), rating: who.rating }) : t('players.rating', { rating: who.rating });
      const text = who.rating.endsWith('?') ? h('span', { class: 'rating provisional', title: t('ratings.provisional') }, words) : words;
      meta.push([text, who.ratingDelta !== undefined ? deltaChip(who.ratingDelta, 'rating') : null]);
    }
    const scoreChip = who.scoreDelta !== undefined ? deltaChip(who.scoreDelta, 'score') : null;
    if (who.level) meta.push([t('players.level', { n: who.level.number, label: who.level.label, en: who.level.en }), scoreChip]);
    else if (scoreChip) meta.push([scoreChip]);
    if (who.aiLevel) meta.push([who.aiLevel]);
    if (who.guest) meta.push([t('players.guest')]);
    const shown = [];
    meta.forEach((item, i) => {
      if (i) shown.push(' · ');
      item.filter(Boolean).forEach((part, j) => shown.push(...(j ? [' ', part] : [part])));
    });
    parts.meta.replaceChildren(...shown);
  }
}
