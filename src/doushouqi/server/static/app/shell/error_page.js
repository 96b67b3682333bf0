// Error states as real pages: a title, what happened in words, and a way on (home, the lobby,
// or trying again). A mistyped game code, a dead link, an unknown address and a page that
// failed to load all end here instead of an empty board or a bare line of text.

import { t } from './i18n.js';
import { h, pageHead } from './dom.js';

/**
 * Show an error page in `root`. `kind`: 'game' (no such game), 'notFound' (no such page) or
 * 'error' (something failed: `message` says what, and a retry button reloads the page).
 */
export function showErrorPage(root, { kind = 'error', message = '', code = '' } = {}) {
  const titles = { game: 'errorpage.game.title', notFound: 'errorpage.notFound.title', error: 'errorpage.title' };
  const texts = { game: 'errorpage.game.text', notFound: 'errorpage.notFound.text' };
  const actions = [h('a', { class: 'button primary', href: '#/', id: 'error-home' }, t('errorpage.home'))];
  if (kind === 'game') actions.push(h('a', { class: 'button', href: '#/lobby', id: 'error-lobby' }, t('errorpage.lobby')));
  if (kind === 'error') {
    actions.push(h('button', { type: 'button', id: 'error-retry', onclick: () => window.dispatchEvent(new HashChangeEvent('hashchange')) },
      t('errorpage.retry')));
  }
  root.replaceChildren(h('section', { class: 'page narrow error-page', id: 'error-page', dataset: { kind } },
    pageHead(t(titles[kind] ?? titles.error)),
    h('p', { class: 'error', role: 'alert' }, kind === 'error' ? message || t('error.unknown') : t(texts[kind])),
    code ? h('p', { class: 'error-code' }, t('errorpage.code', { code })) : null,
    h('div', { class: 'row error-actions' }, actions)));
}
