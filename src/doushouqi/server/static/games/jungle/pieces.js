// Jungle's (斗兽棋) pieces for the board component: the eight animals, their notation letters and
// ranks, their names in the three languages, and their pictures as inline SVG strings: a token
// (Red: round, Blue: a diamond), the rank, and what the chosen piece set shows (PIECE_STYLES):
// the Chinese name, a simple drawn animal face, the notation letter, or a small face over the
// name. No DOM and no fetched assets; colours come from CSS classes (pieces.css), so themes
// restyle them.
// `JUNGLE_PIECES` at the end is the piece set createBoard takes.
//
// Each face is drawn in a 40 × 30 box and placed in the upper half of a 100 × 100 piece.
// `f` = face colour (light), `k` = cut-outs in the token colour, `ks` = lines in the token
// colour, `fs` = lines in the face colour.

import { parsePlacement as parseGrid, placementToString as gridToString } from '../../board/state.js';
import { JUNGLE_GEOMETRY } from './geometry.js';

/** Animals in rank order of the default (WANGO) rule set, with their notation letters. */
export const ANIMALS = Object.freeze(['rat', 'cat', 'dog', 'wolf', 'leopard', 'tiger', 'lion', 'elephant']);
export const ANIMAL_LETTERS = Object.freeze({
  r: 'rat', c: 'cat', d: 'dog', w: 'wolf', p: 'leopard', t: 'tiger', l: 'lion', e: 'elephant',
});
const LETTER_OF = Object.freeze(Object.fromEntries(Object.entries(ANIMAL_LETTERS).map(([l, a]) => [a, l])));

export const DEFAULT_RANKS = Object.freeze({
  elephant: 8, lion: 7, tiger: 6, leopard: 5, wolf: 4, dog: 3, cat: 2, rat: 1,
});

/** The ranks of rule sets where the dog outranks the wolf (`ranks: 'dog>wolf'`, docs/rules.md 6). */
export const DOG_OVER_WOLF_RANKS = Object.freeze({ elephant: 8, lion: 7, tiger: 6, leopard: 5, dog: 4, wolf: 3, cat: 2, rat: 1 });

export const START_PLACEMENT = 'l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L';

export const CHINESE_NAMES = Object.freeze({
  rat: '鼠', cat: '猫', dog: '狗', wolf: '狼', leopard: '豹', tiger: '虎', lion: '狮', elephant: '象',
});

/** The names in traditional characters, for readers of zh-Hant (貓, 獅). */
export const TRADITIONAL_NAMES = Object.freeze({ ...CHINESE_NAMES, cat: '貓', lion: '獅' });

/**
 * The Chinese character shown on a piece (狐 for the wolf when it is called fox), in
 * traditional characters when `lang` is 'zh-Hant' (English readers see the simplified ones).
 */
export function pieceChar(animal, wolfName = 'wolf', lang = 'zh') {
  if (animal === 'wolf' && wolfName === 'fox') return '狐';
  return (lang === 'zh-Hant' ? TRADITIONAL_NAMES : CHINESE_NAMES)[animal];
}

function mane(cx, cy, radius, lobes, lobeRadius) {
  // A lion's mane: a ring of round tufts around a disc.
  let out = `<circle class="f" cx="${cx}" cy="${cy}" r="${radius}"/>`;
  for (let i = 0; i < lobes; i++) {
    const a = (i / lobes) * 2 * Math.PI;
    out += `<circle class="f" cx="${(cx + radius * Math.sin(a)).toFixed(2)}" cy="${(cy - radius * Math.cos(a)).toFixed(2)}" r="${lobeRadius}"/>`;
  }
  return out;
}

const eyes = (y, dx = 5, r = 1.9) => `<circle class="k" cx="${20 - dx}" cy="${y}" r="${r}"/><circle class="k" cx="${20 + dx}" cy="${y}" r="${r}"/>`;

export const GLYPHS = Object.freeze({
  rat:
    '<circle class="f" cx="8" cy="9" r="7"/><circle class="f" cx="32" cy="9" r="7"/>'
    + '<circle class="k" cx="8" cy="9" r="3.6"/><circle class="k" cx="32" cy="9" r="3.6"/>'
    + '<path class="f" d="M20 29C15 29 10.5 22 10.5 16.5C10.5 11 15 7.5 20 7.5C25 7.5 29.5 11 29.5 16.5C29.5 22 25 29 20 29Z"/>'
    + eyes(16, 4.4, 1.8)
    + '<circle class="k" cx="20" cy="26" r="2"/>'
    + '<path class="fs" d="M11 22.5L1.5 20.5M11 24.5L2 25.5M29 22.5L38.5 20.5M29 24.5L38 25.5"/>',
  cat:
    '<path class="f" d="M7 17L8.5 2L17.5 9ZM33 17L31.5 2L22.5 9Z"/>'
    + '<path class="k" d="M9.8 11L10.5 5.8L14 9ZM30.2 11L29.5 5.8L26 9Z"/>'
    + '<ellipse class="f" cx="20" cy="17.5" rx="13.5" ry="11"/>'
    + '<ellipse class="k" cx="14.8" cy="16" rx="2.1" ry="3"/><ellipse class="k" cx="25.2" cy="16" rx="2.1" ry="3"/>'
    + '<path class="k" d="M17.8 20.5H22.2L20 23Z"/>'
    + '<path class="ks" d="M20 23V24.5M20 24.5Q18 26.5 16.2 25M20 24.5Q22 26.5 23.8 25"/>'
    + '<path class="fs" d="M7.5 20L0.5 18.5M7.5 22.5L0.5 23.5M32.5 20L39.5 18.5M32.5 22.5L39.5 23.5"/>',
  dog:
    '<path class="f" d="M12 5.5C14.5 2 25.5 2 28 5.5C31 10 30.5 19 28 23.5C25.5 28.5 14.5 28.5 12 23.5C9.5 19 9 10 12 5.5Z"/>'
    + '<path class="f ke" d="M11.5 4.5C6 4 2 9.5 2.5 16C3 20.5 5.5 22 7.5 21C10 19.5 10.5 12 13 8Z"/>'
    + '<path class="f ke" d="M28.5 4.5C34 4 38 9.5 37.5 16C37 20.5 34.5 22 32.5 21C30 19.5 29.5 12 27 8Z"/>'
    + eyes(13.5, 4.6, 1.9)
    + '<ellipse class="k" cx="20" cy="19.5" rx="3.4" ry="2.5"/>'
    + '<path class="ks" d="M20 22V24M20 24Q17.5 26.5 15.5 24.5M20 24Q22.5 26.5 24.5 24.5"/>',
  wolf:
    '<path class="f" d="M5 2L14 10H26L35 2L33.5 15.5L25 26L20 29L15 26L6.5 15.5Z"/>'
    + '<path class="k" d="M8 6.5L12.5 10.5L9.2 13.5ZM32 6.5L27.5 10.5L30.8 13.5Z"/>'
    + '<path class="k" d="M12 15.5L17.5 16.5L13.5 18ZM28 15.5L22.5 16.5L26.5 18Z"/>'
    + '<ellipse class="k" cx="20" cy="25.5" rx="2.6" ry="1.9"/>'
    + '<path class="ks" d="M20 11.5V20"/>',
  leopard:
    '<circle class="f" cx="8.5" cy="6.5" r="5"/><circle class="f" cx="31.5" cy="6.5" r="5"/>'
    + '<circle class="k" cx="8.5" cy="6.5" r="2.2"/><circle class="k" cx="31.5" cy="6.5" r="2.2"/>'
    + '<ellipse class="f" cx="20" cy="16.5" rx="13.5" ry="12"/>'
    + '<circle class="k" cx="20" cy="7.2" r="1.5"/><circle class="k" cx="14.5" cy="9" r="1.3"/><circle class="k" cx="25.5" cy="9" r="1.3"/>'
    + '<circle class="k" cx="9.5" cy="16" r="1.3"/><circle class="k" cx="30.5" cy="16" r="1.3"/><circle class="k" cx="10.5" cy="21" r="1.1"/><circle class="k" cx="29.5" cy="21" r="1.1"/>'
    + eyes(14.5, 4.8, 1.9)
    + '<path class="k" d="M17.8 19.5H22.2L20 22Z"/>'
    + '<path class="ks" d="M20 22V23.5M20 23.5Q18 25.5 16.2 24M20 23.5Q22 25.5 23.8 24"/>',
  tiger:
    '<circle class="f" cx="7.5" cy="6.5" r="5.5"/><circle class="f" cx="32.5" cy="6.5" r="5.5"/>'
    + '<circle class="k" cx="7.5" cy="6.5" r="2.5"/><circle class="k" cx="32.5" cy="6.5" r="2.5"/>'
    + '<ellipse class="f" cx="20" cy="17" rx="15.5" ry="12"/>'
    // 王 on the forehead, as on every tiger in Chinese pictures
    + '<path class="ks" d="M16.5 6.8H23.5M17.2 9.3H22.8M16.2 11.8H23.8M20 6.8V11.8"/>'
    + '<path class="k" d="M4.5 13.5L10.5 15L5 16.5ZM35.5 13.5L29.5 15L35 16.5ZM5.5 19.5L10.5 19.8L6.5 21.5ZM34.5 19.5L29.5 19.8L33.5 21.5Z"/>'
    + eyes(15.5, 5, 1.9)
    + '<path class="k" d="M17.6 20H22.4L20 22.6Z"/>'
    + '<path class="ks" d="M20 22.6V24.2M20 24.2Q17.8 26.4 15.8 24.8M20 24.2Q22.2 26.4 24.2 24.8"/>',
  lion:
    mane(20, 15, 11, 14, 3.4)
    + '<circle class="k" cx="20" cy="15.5" r="9.6"/>'
    + '<path class="f" d="M12.2 12.5C12.2 7.5 16 5.6 20 5.6S27.8 7.5 27.8 12.5C27.8 18 24.5 23.8 20 23.8S12.2 18 12.2 12.5Z"/>'
    + eyes(12.8, 3.7, 1.6)
    + '<path class="k" d="M17.6 16.6H22.4L20 19.4Z"/>'
    + '<path class="ks" d="M20 19.4V20.8M20 20.8Q18.2 22.6 16.6 21.2M20 20.8Q21.8 22.6 23.4 21.2"/>',
  elephant:
    '<path class="f ke" d="M12 6C6 2 0.5 6 1 13.5C1.5 20 6 22.5 11.5 20Z"/>'
    + '<path class="f ke" d="M28 6C34 2 39.5 6 39 13.5C38.5 20 34 22.5 28.5 20Z"/>'
    + '<path class="f" d="M11 11.5C11 5.5 15 2.5 20 2.5C25 2.5 29 5.5 29 11.5C29 15.5 26.5 18.5 23.3 19.5V24.5C23.3 26.5 25 27.3 26.5 26.3L28.5 28.3C25 31 19.7 29.5 19.7 25V19.5C15 18.5 11 15.5 11 11.5Z"/>'
    + eyes(12, 4.6, 1.6)
    + '<path class="ks" d="M16.2 19.2Q14.8 22.8 12.6 23.6M23.9 19.6Q25.3 22.8 27.4 23.6"/>',
});

/**
 * The piece sets a reader may choose (settings, Appearance): the Chinese character alone, the
 * drawn animal alone, the notation letter (the letters of the move list: E L T P W D C R), or
 * both the character and a small animal (the site's first look, `classic`). Every set keeps the
 * rank: strength decides captures.
 */
export const PIECE_STYLES = Object.freeze(['characters', 'pictures', 'letters', 'classic']);

/** The token: Red's round, Blue's a diamond (the same in every set, so the sides read apart). */
function token(red) {
  return red
    ? '<circle class="tok" cx="50" cy="50" r="44.5"/><circle class="tok-ring" cx="50" cy="50" r="38.5"/>'
      + '<path class="shine" d="M17 42A33 33 0 0 1 83 42A40 22 0 0 0 17 42Z"/>'
    : '<rect class="tok" x="12" y="12" width="76" height="76" rx="10" transform="rotate(45 50 50)"/>'
      + '<rect class="tok-ring" x="19.5" y="19.5" width="61" height="61" rx="6" transform="rotate(45 50 50)"/>'
      + '<path class="shine" d="M14 47L50 11L86 47Q50 33 14 47Z"/>';
}

/** An animal's face, its 40 × 30 drawing scaled and centred on (50, `cy`). */
function face(animal, scale, cy) {
  const x = 50 - 20 * scale;
  const y = cy - 15 * scale;
  return `<g class="glyph" transform="translate(${x.toFixed(2)} ${y.toFixed(2)}) scale(${scale})">${GLYPHS[animal]}</g>`;
}

/** What a set draws on the token, for a red (round) or blue (diamond, smaller inside) piece. */
const MARKS = Object.freeze({
  classic: (animal, red, char) => face(animal, red ? 0.95 : 0.88, red ? 31 : 33)
    + `<text class="char" x="50" y="${red ? 79 : 78.5}">${char}</text>`,
  characters: (animal, red, char) => `<text class="char char-big" x="50" y="${red ? 67 : 66}">${char}</text>`,
  pictures: (animal, red) => face(animal, red ? 1.7 : 1.45, 52),
  letters: (animal, red) => `<text class="letter" x="50" y="${red ? 68 : 67}">${LETTER_OF[animal].toUpperCase()}</text>`,
});

/**
 * The SVG (a string) of a piece; `rank` is the number shown on it, `lang` picks the script,
 * `style` the piece set (PIECE_STYLES; default `classic`).
 */
export function pieceSvg(piece, { rank, wolfName = 'wolf', lang = 'zh', style = 'classic' } = {}) {
  const { color, animal } = piece;
  const red = color === 'red';
  const marks = MARKS[style] ?? MARKS.classic;
  const rankText = rank == null ? '' : String(rank);
  return '<svg class="dsq-piece-svg" viewBox="0 0 100 100" aria-hidden="true" focusable="false">'
    + token(red)
    + marks(animal, red, pieceChar(animal, wolfName, lang))
    + (rankText ? `<g class="rank"><circle cx="85" cy="15" r="13.5"/><text x="85" y="21">${rankText}</text></g>` : '')
    + '</svg>';
}

function readStyle(value) {
  if (!PIECE_STYLES.includes(value)) throw new TypeError(`pieceStyle must be one of ${PIECE_STYLES.map((s) => JSON.stringify(s)).join(', ')}; got ${JSON.stringify(value)}`);
  return value;
}

// ---------------------------------------------------------------------------------------------
// The piece set

const WORDS = {
  en: {
    color: { red: 'red', blue: 'blue' },
    Color: { red: 'Red', blue: 'Blue' },
    animal: { rat: 'rat', cat: 'cat', dog: 'dog', wolf: 'wolf', fox: 'fox', leopard: 'leopard', tiger: 'tiger', lion: 'lion', elephant: 'elephant' },
    strength: (n) => `strength ${n}`,
  },
  zh: { color: { red: '红方', blue: '蓝方' }, strength: (n) => `战力${n}` },
  'zh-Hant': { color: { red: '紅方', blue: '藍方' }, strength: (n) => `戰力${n}` },
};
const isChinese = (lang) => lang === 'zh' || lang === 'zh-Hant';

/** A piece in words: "red tiger 虎" / "红方虎"; `look` is {lang, wolfName}. */
export function pieceName(piece, { lang = 'zh', wolfName = 'wolf' } = {}, { capital = false } = {}) {
  const w = WORDS[lang] ?? WORDS.en;
  const char = pieceChar(piece.animal, wolfName, lang);
  if (isChinese(lang)) return `${w.color[piece.color]}${char}`;
  const animal = piece.animal === 'wolf' && wolfName === 'fox' ? 'fox' : piece.animal;
  return `${(capital ? w.Color : w.color)[piece.color]} ${w.animal[animal]} ${char}`;
}

function readWolfName(value) {
  if (value !== 'wolf' && value !== 'fox') throw new TypeError(`wolfName must be one of "wolf", "fox"; got ${JSON.stringify(value)}`);
  return value;
}

function readRanks(ranks) {
  const result = { ...DEFAULT_RANKS };
  for (const [animal, rank] of Object.entries(ranks ?? {})) {
    if (!ANIMALS.includes(animal)) throw new TypeError(`ranks: unknown animal ${JSON.stringify(animal)}`);
    result[animal] = rank;
  }
  return result;
}

/**
 * Jungle's piece set, for createBoard's `pieceSet`. A piece is {color, animal}. Its options
 * are board options of their own: `wolfName` ('wolf' | 'fox': 狼 or 狐 on the wolf), `ranks`
 * ({animal: number} shown on the pieces; default 象8 狮7 虎6 豹5 狼4 狗3 猫2 鼠1) and
 * `pieceStyle` (PIECE_STYLES: what the pieces show; default 'classic').
 */
export const JUNGLE_PIECES = Object.freeze({
  start: START_PLACEMENT,
  letters: Object.keys(ANIMAL_LETTERS).join(''),
  fromLetter(ch) {
    const animal = ANIMAL_LETTERS[ch.toLowerCase()];
    return animal ? { color: ch === ch.toUpperCase() ? 'red' : 'blue', animal } : null;
  },
  letterOf(piece) {
    const letter = LETTER_OF[piece.animal];
    return piece.color === 'red' ? letter.toUpperCase() : letter;
  },
  kindOf: (piece) => piece.animal,
  options: Object.freeze({
    wolfName: Object.freeze({ initial: 'wolf', read: readWolfName }),
    ranks: Object.freeze({ initial: DEFAULT_RANKS, read: readRanks }),
    pieceStyle: Object.freeze({ initial: 'classic', read: readStyle }),
  }),
  svg: (piece, { ranks = DEFAULT_RANKS, wolfName, lang, pieceStyle } = {}) => pieceSvg(piece, { rank: ranks[piece.animal], wolfName, lang, style: pieceStyle }),
  name: pieceName,
  /** More words for a square's label: the piece's strength. */
  details: (piece, { lang, ranks = DEFAULT_RANKS } = {}) => [(WORDS[lang] ?? WORDS.en).strength(ranks[piece.animal])],
});

/** A Jungle placement (or a whole position string) as a Map square → {color, animal}. */
export function parsePlacement(text) {
  return parseGrid(text, JUNGLE_GEOMETRY, JUNGLE_PIECES);
}

/** The placement string of a Map square → {color, animal}. */
export function placementToString(pieces) {
  return gridToString(pieces, JUNGLE_GEOMETRY, JUNGLE_PIECES);
}
