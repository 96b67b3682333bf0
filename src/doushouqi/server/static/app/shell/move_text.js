// A move as the server wrote it, in the reader's language. The server's Chinese move texts
// (`readable_zh`) are written in simplified characters; the game's client module says which
// characters of its terms differ in traditional script.

import { currentLang, isChinese } from './i18n.js';
import { gameClient } from '../../games/index.js';

/**
 * A move as the server wrote it, in the reader's language (`zh`: readable_zh, `en`: readable);
 * `game` is the game's client module (games/index.js).
 */
export function moveText(zh, en, game = gameClient()) {
  if (!isChinese()) return en;
  if (currentLang() !== 'zh-Hant' || !zh) return zh;
  return [...zh].map((char) => game.hantChars[char] ?? char).join('');
}
