// The home page: the four ways to play as cards, and links to every other page.

import { t } from './i18n.js';
import { h } from './dom.js';
import { pieceIcon } from './icons.js';
import { gameClient } from '../../games/index.js';

export function homeView(view) {
  const icons = gameClient().homeIcons;
  const icon = ([color, kind], cls) => pieceIcon(color, kind, cls);
  const card = (href, icon, title, sub, id) => h('a', { class: `card card-${id}`, href, id: `go-${id}` },
    icon,
    h('span', { class: 'card-text' }, h('strong', {}, title), h('small', {}, sub)));
  view.replaceChildren(h('section', { class: 'page home' },
    h('div', { class: 'hero' },
      h('div', { class: 'hero-pieces', 'aria-hidden': 'true' }, ...icons.hero.map((piece) => icon(piece, 'hero-piece'))),
      h('h1', {}, t('app.title')),
      h('p', { class: 'subtitle' }, t('app.subtitle'))),
    h('nav', { class: 'cards' },
      card('#/new/vs_ai', icon(icons.vsai, 'card-icon'), t('home.vsai'), t('home.vsai.sub'), 'vsai'),
      card('#/new/same_screen', icon(icons.local, 'card-icon'), t('home.local'), t('home.local.sub'), 'local'),
      card('#/play', icon(icons.online, 'card-icon'), t('home.online'), t('home.online.sub'), 'online'),
      card('#/learn', icon(icons.rules, 'card-icon'), t('learn.card'), t('learn.card.sub'), 'rules')),
    h('p', { class: 'home-more' }, h('a', { href: '#/watch', id: 'go-watch' }, t('watch.home')), h('a', { href: '#/replay', id: 'go-replay' }, t('replay.home')),
      h('a', { href: '#/analysis', id: 'go-analysis' }, t('editor.home')), h('a', { href: '#/explorer', id: 'go-explorer' }, t('explorer.home')),
      h('a', { href: '#/puzzles', id: 'go-puzzles' }, t('puzzle.home')),
      h('a', { href: '#/correspondence', id: 'go-corr' }, t('corr.home')), h('a', { href: '#/rules', id: 'go-rules-page' }, t('ranks.home.rules')),
      h('a', { href: '#/leaderboard', id: 'go-leaderboard' }, t('ranks.home.leaderboard')), h('a', { href: '#/ranks', id: 'go-ranks' }, t('ranks.home.ranks')),
      h('a', { href: '#/tournaments', id: 'go-tournaments' }, t('tournament.home')))));
}
