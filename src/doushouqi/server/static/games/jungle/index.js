// Jungle (斗兽棋) for the web client: `JUNGLE_CLIENT` is everything the app's pages need of the
// game, reached through the registry in ../index.js (the app imports no module of this folder
// itself). `JUNGLE` (board.js) is what the board component takes: {geometry, pieceSet}.

import { JUNGLE } from './board.js';
import { JUNGLE_GEOMETRY } from './geometry.js';
import {
  ANIMALS, CHINESE_NAMES, JUNGLE_PIECES, PIECE_STYLES, START_PLACEMENT, TRADITIONAL_NAMES,
  parsePlacement, pieceChar, pieceSvg, placementToString,
} from './pieces.js';
import { animalWord, moveWords, parseTypedMove } from './move_words.js';
import {
  CHOICES, NAMED_VALUE_OPTIONS, NAMING_OPTIONS, RULE_SET_NAMES,
  faqEntries, lookOf, namesIn, pageVars, valueKey,
} from './rule_options.js';
import { meetsGoal } from './lesson_goals.js';
import { premoveDests } from './premove_dests.js';
import RULE_DIAGRAMS from './rule_diagram_data.js';
import LESSON_DATA from './lesson_data.js';

export { JUNGLE };

/** Simplified characters of the game's terms that differ in traditional script (猫 → 貓). */
const HANT_CHARS = Object.freeze(Object.fromEntries(ANIMALS
  .filter((a) => CHINESE_NAMES[a] !== TRADITIONAL_NAMES[a])
  .map((a) => [CHINESE_NAMES[a], TRADITIONAL_NAMES[a]])));

/** The animals missing from a position, by the colour that lost them: [red's, blue's]. */
function captured(fen) {
  const counts = [0, 1].map(() => Object.fromEntries(ANIMALS.map((a) => [a, 1])));
  for (const ch of String(fen).split(' ')[0]) {
    const piece = /[a-z]/i.test(ch) ? JUNGLE_PIECES.fromLetter(ch) : null;
    if (piece) counts[piece.color === 'red' ? 0 : 1][piece.animal] -= 1;
  }
  return counts.map((c) => Object.entries(c).flatMap(([animal, n]) => Array(Math.max(0, n)).fill(animal)));
}

/**
 * Jungle for the app's pages. A piece is {color, animal}; its kind is the animal. `look` is
 * the pieces' look under a game's rule options ({wolfName, ranks?}, from `lookOf(rules)`),
 * which the board takes as options and the words take to name the wolf 狼 or 狐.
 */
export const JUNGLE_CLIENT = Object.freeze({
  key: 'jungle',

  // ----- the board ---------------------------------------------------------------------
  /** {geometry, pieceSet}: spread into createBoard's config. */
  board: JUNGLE,
  /** The board for a game's rules (the same board under every rule set). */
  boardFor: () => JUNGLE,
  geometry: JUNGLE_GEOMETRY,
  pieceSet: JUNGLE_PIECES,
  startPlacement: START_PLACEMENT,
  /** The start placement under a rule set (the same under every set). */
  startFor: () => START_PLACEMENT,
  /** Which way up a seat sees the board: its own pieces at the bottom (Red's rank 1 for Red). */
  orientationFor: (seat) => (seat === 1 ? 'blue' : 'red'),
  /** [from, to] of a move string ("a3a4"), or null for a pass ("0000"). */
  moveSquares: (move) => (typeof move === 'string' && /^[a-g][1-9][a-g][1-9]$/.test(move) ? [move.slice(0, 2), move.slice(2, 4)] : null),
  /** A placement (or a whole position string) as a Map square → piece, and back. */
  parsePlacement,
  placementToString,
  /** The board options and words that depend on a game's rule options: {wolfName, ranks?}. */
  lookOf,
  /** Where each piece of a side might move on its next turn (a superset of the legal moves,
   * for premoves): (position, 'red' | 'blue') → {square: [squares]}. */
  premoveDests,

  // ----- pieces in pictures and words ----------------------------------------------------
  pieceOf: (color, kind) => ({ color, animal: kind }),
  kindOf: (piece) => piece.animal,
  /** A piece's picture (an SVG string) for icons and avatars: (piece, {lang, wolfName, rank, style}). */
  pieceSvg,
  /** The piece sets (the board option `pieceStyle`): characters, pictures, letters, classic. */
  pieceStyles: PIECE_STYLES,
  /** The character on a piece of `kind` (狐 where the rules call the wolf fox; 貓 for zh-Hant). */
  pieceChar: (kind, { wolfName = 'wolf', lang = 'zh' } = {}) => pieceChar(kind, wolfName, lang),
  /** A kind's name in the current language ("lion", 狮 …), as `look` names it. */
  kindWord: (kind, { wolfName = 'wolf' } = {}) => animalWord(kind, wolfName),
  /** The translation keys of the seats' names (Red, Blue) and of "who moves first". */
  sideKeys: Object.freeze(['side.red', 'side.blue']),
  firstKeys: Object.freeze(['first.red', 'first.blue']),
  /** The keys of the seats' one-character tokens (红, 蓝), and the record tags naming their players. */
  tokenKeys: Object.freeze(['token.red', 'token.blue']),
  recordTags: Object.freeze(['Red', 'Blue']),
  /** The seat to move in a position string (its second field: w Red, b Blue). */
  seatToMove: (fen) => (String(fen).trim().split(/\s+/)[1] === 'b' ? 1 : 0),
  /** The letters a position string may name the side to move by (w or r: Red, b: Blue). */
  turnLetters: Object.freeze(['w', 'r', 'b']),
  /** The animals lost by each side in a position: [red's, blue's], weakest first. */
  captured,
  /** The home page's decorations: [color, kind] of the hero's pieces and of each card's icon. */
  homeIcons: Object.freeze({
    hero: [['red', 'lion'], ['blue', 'lion']],
    vsai: ['red', 'tiger'], local: ['red', 'cat'], online: ['blue', 'elephant'], rules: ['blue', 'rat'],
  }),
  /** The position editor's palette: the pieces a user may place, a row per side (each side's
   * eight animals, the strongest first), and the first chosen: [color, kind]. */
  palette: Object.freeze({
    rows: Object.freeze(['red', 'blue'].map((color) => Object.freeze([...ANIMALS].reverse().map((kind) => Object.freeze([color, kind]))))),
    initial: Object.freeze(['red', 'lion']),
  }),
  /** The position editor's words that name the pieces (the rest are shared): translation keys. */
  editorKeys: Object.freeze({}),
  /** The endgame tables' view (app/study/tablebase_view.js): positions with more pieces are
   * not asked about (the shipped tables hold up to 3 animals, a site may add 4), and the keys
   * of the value line's words by the winner's seat (the side's name is a parameter). */
  tablebase: Object.freeze({
    pieces: 4,
    winsKeys: Object.freeze(['tablebase.wins', 'tablebase.wins']),
    noMoveKeys: Object.freeze(['tablebase.noMove', 'tablebase.noMove']),
    explainKey: 'tablebase.explain',
  }),

  // ----- moves in words ------------------------------------------------------------------
  /** A move in full words, from the position before it: (fen, move, {color, ...look}). */
  moveWords,
  /** A typed move ("a3 a4") as the server's notation, or null. */
  parseTypedMove,
  /** The server's simplified move texts (readable_zh) in traditional script: char → char. */
  hantChars: HANT_CHARS,

  // ----- rules ------------------------------------------------------------------------------
  ruleSetNames: RULE_SET_NAMES,
  /** The rule set a page starts from when none is chosen. */
  defaultRules: RULE_SET_NAMES[0],
  /** The rule options the new-game form and the rules page show (values from /api/rules). */
  ruleOptions: Object.freeze({
    choices: CHOICES,
    valueKey,
    valueText: (key, value, { t, plural }) => {
      if (key !== 'no_capture_draw_rounds') return null;
      return value ? plural('opt.no_capture_draw_rounds.value', value) : t('none');
    },
    numbers: Object.freeze({ no_capture_draw_rounds: Object.freeze({ min: 0, max: 1000 }) }),
    naming: NAMING_OPTIONS,
    namedValues: NAMED_VALUE_OPTIONS,
    prefix: 'opt.',
    firstOption: 'first_player',
    firstValues: Object.freeze(['red', 'blue']),
    hidden: Object.freeze([]),
  }),
  /** A text with the pieces named as a rule set names them (the wolf called fox). */
  namesIn,
  /** The rules page's questions for a set ([{id, key, vars}]) and its texts' variables. */
  faqEntries,
  rulesPageVars: pageVars,
  /** The rules page's points, each with its words' key and its diagrams. */
  rulesPoints: Object.freeze([
    ['board', 'rulespage.board'], ['pieces', 'rulespage.pieces'], ['move', 'rulespage.move'],
    ['water', 'rulespage.water'], ['capture', 'rulespage.capture'], ['win', 'rulespage.win'],
  ]),
  ruleDiagrams: RULE_DIAGRAMS,
  lessons: LESSON_DATA,
  /** Whether a learner's move meets a lesson step's goal. */
  meetsGoal,
});
