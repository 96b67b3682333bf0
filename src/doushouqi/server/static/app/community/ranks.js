// The ranks page (#/ranks): what a ladder score is and how a game moves it, what the Glicko-2
// rating is, and the rank titles (级别) by score band, with the reader's own title marked. The
// numbers come from GET /api/ranks (server/ranks.py), so the page never disagrees with scoring.

import { t } from '../shell/i18n.js';
import { api, sessionPlayer } from '../shell/api.js';
import { h, pageHead } from '../shell/dom.js';
import { pageCheck } from '../shell/navigation.js';

/** A rank's title in the reader's language ("3级 初级", "Level 3 · Elementary"). */
export function rankTitle(number) {
  return t('ranks.label', { n: number, title: t(`ranks.title.${number}`) });
}

function band(rank) {
  if (rank.number === 1) return t('ranks.band.first', { max: rank.max_score });
  if (rank.max_score === null) return t('ranks.band.top', { min: rank.min_score });
  return t('ranks.band', { min: rank.min_score, max: rank.max_score });
}

async function ownScore() {
  const player = await sessionPlayer().catch(() => null);
  if (!player?.username || player.kind !== 'account') return null;
  try {
    const profile = await api(`/api/players/${encodeURIComponent(player.username)}`);
    return profile.score;
  } catch { return null; }
}

/** `#/ranks`. */
export async function ranksView(view) {
  const stillHere = pageCheck();
  const score = await ownScore();
  const page = await api(`/api/ranks${score === null ? '' : `?score=${score}`}`);
  if (!stillHere()) return;
  const s = page.scoring;
  const mine = page.you?.rank.number ?? null;
  const you = page.you ? h('p', { class: 'ranks-you', id: 'ranks-you' },
    t('ranks.you', { score, title: rankTitle(page.you.rank.number) }), ' ',
    page.you.next ? t('ranks.toNext', { n: page.you.to_next, title: rankTitle(page.you.next.number) }) : t('ranks.atTop'))
    : null;
  view.replaceChildren(h('section', { class: 'page narrow ranks-page' },
    pageHead(t('ranks.page')),
    h('h2', { id: 'ranks-score' }, t('ranks.score.title')),
    h('p', {}, t('ranks.score.what')),
    h('ul', { class: 'ranks-points' },
      h('li', {}, t('ranks.score.win', { base: s.win_base, min: s.win_min, max: s.win_max })),
      h('li', {}, t('ranks.score.loss', { n: s.loss_points })),
      h('li', {}, t('ranks.score.draw')),
      h('li', {}, t('ranks.score.leave', { n: s.abandon_penalty })),
      h('li', {}, t('ranks.score.short', { n: s.min_rounds }))),
    h('h2', { id: 'ranks-rating' }, t('ranks.rating.title')),
    h('p', {}, t('ranks.rating.what', { start: page.rating.start, rd: page.rating.start_rd })),
    h('p', {}, t('ranks.rating.change')),
    h('h2', { id: 'ranks-titles' }, t('ranks.titles.title')),
    h('p', {}, t('ranks.titles.what')),
    you,
    h('table', { class: 'ranks-table', id: 'ranks-table' },
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, t('ranks.col.title')), h('th', { scope: 'col' }, t('ranks.col.score')))),
      h('tbody', {}, page.ranks.map((rank) => h('tr', { class: rank.number === mine ? 'mine' : null, dataset: { rank: rank.number } },
        h('th', { scope: 'row' }, rankTitle(rank.number)), h('td', {}, band(rank)))))),
    h('p', { class: 'ranks-more' },
      h('a', { href: '#/leaderboard', id: 'ranks-leaderboard' }, t('ranks.leaderboard')),
      h('a', { href: '#/rules', id: 'ranks-rules' }, t('ranks.rules')))));
}
