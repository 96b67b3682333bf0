// 老虎棋 (Tiger chess) for the web client: `TIGER_CLIENT` is everything the app's pages need of
// the game, reached through the registry in ../index.js (the app imports no module of this
// folder itself). Seat 0 is the tiger's side, seat 1 the men's; the board component calls them
// by its seat names 'red' and 'blue', and the words here say 虎方 and 人方. The board's lines
// depend on the rule option `diagonals`: `boardFor(rules)` gives the board for a game's rules.

import { DIAGONALS, TIGER_GEOMETRY, tigerGeometry } from './geometry.js';
import {
  KINDS, PIECE_STYLES, START_PLACEMENT, TIGER_PIECES, parsePlacement, pieceChar, pieceSvg, placementToString, startPlacement,
} from './pieces.js';
import { capturedPoints, moveSquares, moveWords, parseTypedMove } from './move_words.js';
import {
  CHOICES, NUMBERS, RULE_SET_NAMES, faqEntries, lookOf as optionsLook, pageVars, valueKey, valueText,
} from './rule_options.js';
import { t } from '../../app/shell/i18n.js';
import RULE_DIAGRAMS from './rule_diagram_data.js';
import LESSON_DATA from './lesson_data.js';
import { meetsGoal } from './lesson_goals.js';

const BOARDS = Object.freeze(Object.fromEntries(DIAGONALS.map((d) => [d, Object.freeze({ geometry: tigerGeometry(d), pieceSet: TIGER_PIECES })])));

/** What each seat lost in a position: [the tiger side's (never anything), the men taken]. */
function captured(fen, rules) {
  let men = 0;
  for (const ch of String(fen).split(' ')[0]) if (ch === 'M') men += 1;
  const lost = Math.max(0, (rules?.men ?? 12) - men);
  return [[], Array(lost).fill('man')];
}

export const TIGER_CLIENT = Object.freeze({
  key: 'tiger',

  // ----- the board ---------------------------------------------------------------------
  board: BOARDS.none,
  /** The board for a game's rules: its lines follow the rule option `diagonals`. */
  boardFor: (rules) => BOARDS[optionsLook(rules).diagonals],
  geometry: TIGER_GEOMETRY,
  pieceSet: TIGER_PIECES,
  startPlacement: START_PLACEMENT,
  /** The start placement under a rule set's options (`men`, `tigers`). */
  startFor: (rules) => startPlacement(rules ?? {}),
  parsePlacement,
  placementToString,
  /** The board options that depend on a game's rule options: none (the lines are the board's). */
  lookOf: () => ({}),
  /** Which way up a seat sees the board: each side's own pieces at the bottom (the tiger's
   * nest for the tiger, rank 1 for the men); a spectator sees the men's view. */
  orientationFor: (seat) => (seat === 0 ? 'blue' : 'red'),
  /** [from, to] of a move string (to: its last landing point), or null for a pass. */
  moveSquares,
  /** The points whose men a move takes. */
  capturedPoints,

  // ----- pieces and sides in pictures and words --------------------------------------------
  pieceOf: (color, kind) => ({ color, kind }),
  kindOf: (piece) => piece.kind,
  /** A piece's picture (an SVG string): (piece, {style}). */
  pieceSvg,
  /** The piece sets (the board option `pieceStyle`): characters, pictures, letters, classic. */
  pieceStyles: PIECE_STYLES,
  pieceChar: (kind) => pieceChar(kind),
  kindWord: (kind) => t(`tiger.piece.${kind === 'tiger' ? 'tiger' : 'man'}`),
  /** The translation keys of the seats' names (虎方, 人方) and of "who moves first". */
  sideKeys: Object.freeze(['side.tiger', 'side.men']),
  firstKeys: Object.freeze(['first.tiger', 'first.men']),
  /** The keys of the seats' one-character tokens (虎, 人), and the record tags naming their players. */
  tokenKeys: Object.freeze(['tiger.token.tiger', 'tiger.token.men']),
  recordTags: Object.freeze(['Tiger', 'Men']),
  /** The seat to move in a position string (its second field: t the tiger's side, m the men's). */
  seatToMove: (fen) => (String(fen).trim().split(/\s+/)[1] === 'm' ? 1 : 0),
  /** The letters a position string may name the side to move by (t: the tiger's, m: the men's). */
  turnLetters: Object.freeze(['t', 'm']),
  /** The kinds of piece by seat. */
  kinds: KINDS,
  captured,
  homeIcons: Object.freeze({
    hero: [['red', 'tiger'], ['blue', 'man']],
    vsai: ['red', 'tiger'], local: ['blue', 'man'], online: ['red', 'tiger'], rules: ['blue', 'man'],
  }),
  /** The position editor's palette: one row, the tiger (the tiger side's) and a man (the men's);
   * the first chosen: [color, kind]. */
  palette: Object.freeze({
    rows: Object.freeze([Object.freeze([Object.freeze(['red', 'tiger']), Object.freeze(['blue', 'man'])])]),
    initial: Object.freeze(['red', 'tiger']),
  }),
  /** The position editor's words that name the pieces, as this game's: translation keys. */
  editorKeys: Object.freeze({
    help: 'tiger.editor.help', palette: 'tiger.editor.palette', eraser: 'tiger.editor.eraser', depth: 'tiger.editor.depth',
  }),
  /** The endgame tables' view: the tables hold one tiger against four men (five pieces), and
   * the value line's words by the winner's seat ("the men win", not "Men wins"). */
  tablebase: Object.freeze({
    pieces: 5,
    winsKeys: Object.freeze(['tiger.tablebase.wins.tiger', 'tiger.tablebase.wins.men']),
    noMoveKeys: Object.freeze(['tiger.tablebase.noMove.tiger', 'tiger.tablebase.noMove.men']),
    explainKey: 'tiger.tablebase.explain',
  }),

  // ----- moves in words ------------------------------------------------------------------
  moveWords,
  parseTypedMove,
  /** The server's move texts read the same in both scripts (虎 人). */
  hantChars: Object.freeze({}),

  // ----- rules ------------------------------------------------------------------------------
  ruleSetNames: RULE_SET_NAMES,
  defaultRules: RULE_SET_NAMES[0],
  ruleOptions: Object.freeze({
    choices: CHOICES,
    valueKey,
    valueText,
    numbers: NUMBERS,
    naming: Object.freeze([]),
    namedValues: Object.freeze([]),
    /** The translation keys of the options: `tigeropt.<key>` and `tigeropt.<key>.help`. */
    prefix: 'tigeropt.',
    /** The option "who moves first" (the new-game page's own control sets it). */
    firstOption: 'first',
    /** The seat names of that option's values, by seat. */
    firstValues: Object.freeze(['tiger', 'men']),
    /** Options the site does not offer yet (the server refuses them: one jump per move). */
    hidden: Object.freeze(['multi_jump']),
  }),
  namesIn: (set, text) => text,
  faqEntries,
  rulesPageVars: pageVars,
  /** The rules page's points, each with its words' key and its diagrams. */
  rulesPoints: Object.freeze([
    ['board', 'tigerrules.board'], ['pieces', 'tigerrules.pieces'], ['move', 'tigerrules.move'],
    ['capture', 'tigerrules.capture'], ['win', 'tigerrules.win'], ['draw', 'tigerrules.draw'],
  ]),
  ruleDiagrams: RULE_DIAGRAMS,
  lessons: LESSON_DATA,
  /** Whether a learner's move meets a lesson step's goal: (goal, from, to, before, after, {seat}). */
  meetsGoal,
});
