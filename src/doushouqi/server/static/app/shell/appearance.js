// How the boards look to this reader (the settings page's Appearance section): the piece set
// (characters, pictures, letters or the classic pictures with characters: each game draws its
// own in games/<game>/pieces.js) and the board's theme (colours: board.css and each game's
// stylesheet, by the `data-board-theme` of <html>). Remembered in localStorage, on this device
// as lichess does for a guest. Until the reader chooses, the piece set follows the language:
// Chinese readers get the characters, English readers the pictures (a character means nothing
// to one who cannot read it).

import { currentLang, isChinese } from './i18n.js';
import { gameClient } from '../../games/index.js';

const KEY = 'doushouqi.appearance';
let unsaved = null; // the choice when localStorage refuses (private mode): this page only

/** The board themes, in the order the settings list them; the first is the default. */
export const BOARD_THEMES = Object.freeze(['meadow', 'paper', 'night']);

function saved() {
  if (unsaved) return unsaved;
  try {
    const value = JSON.parse(localStorage.getItem(KEY) ?? '{}');
    return value && typeof value === 'object' ? value : {};
  } catch {
    return {};
  }
}

/** The piece set a reader of `lang` sees until choosing one. */
export function defaultPieceStyle(lang = currentLang()) {
  return isChinese(lang) ? 'characters' : 'pictures';
}

/** Whether the reader chose a piece set (else it follows the language). */
export function pieceStyleChosen() {
  return typeof saved().pieceStyle === 'string';
}

/** The piece set to draw `game`'s pieces in: the reader's choice where the game has it. */
export function pieceStyle(game = gameClient()) {
  const chosen = saved().pieceStyle;
  return game.pieceStyles.includes(chosen) ? chosen : defaultPieceStyle();
}

/** The board theme chosen (the default one until then). */
export function boardTheme() {
  const chosen = saved().boardTheme;
  return BOARD_THEMES.includes(chosen) ? chosen : BOARD_THEMES[0];
}

/** Show the chosen theme on every board of the page (the stylesheets key on <html>). */
export function applyBoardTheme() {
  document.documentElement.dataset.boardTheme = boardTheme();
}

/** Remember a choice: {pieceStyle?, boardTheme?}; `null` forgets it (back to the default). */
export function chooseAppearance(choice) {
  const next = { ...saved(), ...choice };
  for (const [key, value] of Object.entries(next)) if (value === null) delete next[key];
  try { localStorage.setItem(KEY, JSON.stringify(next)); } catch { unsaved = next; }
  applyBoardTheme();
}
