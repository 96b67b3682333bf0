// The settings page's Appearance section: the piece set and the board theme (shell/appearance.js
// keeps them), each a group of radio cards showing what it looks like, and a preview board of
// every game the site offers, redrawn at once when a choice changes.

import { t, currentLang } from '../shell/i18n.js';
import { h } from '../shell/dom.js';
import { pieceIcon } from '../shell/icons.js';
import { gameName, offered } from '../shell/site_games.js';
import { BOARD_THEMES, boardTheme, chooseAppearance, pieceStyle } from '../shell/appearance.js';
import { createBoard } from '../../board/board.js';
import { DEFAULT_GAME, gameClient } from '../../games/index.js';

/** A group of radio cards: `choices` [{value, body}], `chosen` checked; `onChoose(value)`. */
function choiceGroup(id, legend, choices, chosen, onChoose) {
  return h('fieldset', { class: `appearance-choices ${id}`, id },
    h('legend', {}, legend),
    choices.map(({ value, body }) => h('label', { class: 'appearance-choice', dataset: { value } },
      h('input', { type: 'radio', name: id, value, checked: value === chosen,
        onchange: (e) => { if (e.target.checked) onChoose(value); } }),
      body)));
}

/** The section, and its cleanup (the preview boards). */
export async function appearanceSection() {
  const games = await offered();
  const home = gameClient(DEFAULT_GAME);
  const previews = games.map(({ key }) => {
    const game = gameClient(key);
    const box = h('div', { class: 'appearance-board', dataset: { game: key } });
    const board = createBoard(box, {
      ...game.board, position: game.startPlacement, lang: currentLang(), pieceStyle: pieceStyle(game),
      announceMoves: false, animation: { enabled: false },
    });
    return { game, board, figure: h('figure', { class: 'appearance-preview' }, box, h('figcaption', {}, gameName(key))) };
  });
  const [red, blue] = home.homeIcons.hero; // [color, kind] of the home page's two pieces
  const pieces = choiceGroup('piece-style', t('appearance.pieces'), home.pieceStyles.map((style) => ({
    value: style,
    body: [h('span', { class: 'appearance-icons' },
      pieceIcon(red[0], red[1], 'appearance-icon', home, style), pieceIcon(blue[0], blue[1], 'appearance-icon', home, style)),
    h('span', {}, t(`appearance.pieces.${style}`))],
  })), pieceStyle(home), (style) => {
    chooseAppearance({ pieceStyle: style });
    for (const p of previews) p.board.set({ pieceStyle: pieceStyle(p.game) });
  });
  const themes = choiceGroup('board-theme', t('appearance.theme'), BOARD_THEMES.map((theme) => ({
    value: theme,
    body: [h('span', { class: 'theme-swatch', dataset: { theme }, 'aria-hidden': 'true' }, h('span'), h('span'), h('span')),
      h('span', {}, t(`appearance.theme.${theme}`))],
  })), boardTheme(), (theme) => chooseAppearance({ boardTheme: theme }));
  const section = h('section', { class: 'appearance-part', id: 'appearance', 'aria-labelledby': 'appearance-title' },
    h('h2', { id: 'appearance-title' }, t('appearance.title')),
    pieces,
    h('p', { class: 'hint' }, t('appearance.pieces.hint')),
    themes,
    h('div', { class: 'appearance-previews', id: 'appearance-previews', 'aria-label': t('appearance.preview') },
      previews.map((p) => p.figure)),
    h('p', { class: 'hint' }, t('appearance.saved')));
  return { section, cleanup: () => previews.forEach((p) => p.board.destroy()) };
}
