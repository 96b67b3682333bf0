// What a finished game did to each player: the rating change (Glicko-2, at the game's speed:
// "1500? → 1523 (+23)", a provisional rating marked "?") and the ladder score change, from the
// `game_finished` event (or the state of a finished game), shown in the player bars at once and
// in the result box, with a link to the page that explains them.

import { t } from '../shell/i18n.js';
import { h } from '../shell/dom.js';
import { ratingText } from '../shell/ratings.js';
import { sideName } from '../shell/site_games.js';

const COLORS = ['red', 'blue'];

/** "+12", "−7" (a real minus sign), "±0". */
export function signed(n) {
  if (n > 0) return `+${n}`;
  if (n < 0) return `−${Math.abs(n)}`;
  return '±0';
}

/** The player's rating before and after the game, as shown ("1500?", "1523"), and the change
 * rounded as shown (null: the game moved none). */
export function ratingChange(game, color) {
  const rc = game?.rating_change;
  const before = rc?.before?.[color];
  const after = rc?.after?.[color];
  if (!before || !after) return null;
  return {
    before: ratingText(before),
    after: ratingText(after),
    rating: after,
    delta: Math.round(after.rating) - Math.round(before.rating),
  };
}

/** "1500? → 1523 (+23)": a rating change in one line (the result box, the profile's history). */
export function changeText(change) {
  return t('ratings.change', { before: change.before, after: change.after, delta: signed(change.delta) });
}

/** The player's ladder score change and new score (null: none to show). */
export function scoreChange(game, color) {
  const sc = game?.score_change;
  const player = game?.players?.[color];
  if (!sc || !player || player.identity?.kind === 'ai') return null;
  return { delta: sc.deltas[color], score: sc.new_scores[color], voided: Boolean(sc.voided) };
}

/** A small "+12" chip (class up/down/even) for a bar. */
export function deltaChip(delta, kind) {
  const cls = delta > 0 ? 'up' : delta < 0 ? 'down' : 'even';
  const text = kind === 'score' ? t('result.chip.score', { delta: signed(delta) }) : signed(delta);
  return h('span', { class: `delta delta-${kind} ${cls}`, dataset: { delta }, title: t(`result.delta.${kind}`) }, text);
}

/** The result box's lines about ratings, and the link to the ranks page. */
export function ratingLines(game) {
  const lines = [];
  for (const color of [0, 1]) {
    const change = ratingChange(game, color);
    if (!change) continue;
    lines.push(h('small', { class: 'rating-change', dataset: { color: COLORS[color] } },
      t('result.rating', { side: sideName(color, game.game_key), before: change.before, after: change.after, delta: signed(change.delta) })));
  }
  if (game?.score_change || game?.rating_change) {
    lines.push(h('a', { class: 'ranks-link', id: 'ranks-link', href: '#/ranks' }, t('result.ranksLink')));
  }
  return lines;
}
