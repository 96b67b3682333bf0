// 老虎棋's pieces for the board component: the tiger (虎, the tiger side: seat 0, drawn as the
// board's 'red' seat) and the men (人, seat 1, the 'blue' seat), their letters T and M (docs/
// tiger.md: a position string writes both in upper case, the side to move apart), their names
// in the three languages and their pictures as inline SVG: the tiger an orange disc with ears, a
// man a smaller light disc, each unlike the other in shape, colour and size so that they read
// apart at a phone's 320 px; on them what the chosen piece set shows (PIECE_STYLES: 虎 and 人,
// a striped face and a person's figure, T and M, or the striped tiger with 虎 and the figure). Colours are classes (tiger.css).
// `TIGER_PIECES` at the end is the piece set createBoard takes.

import { parsePlacement as parsePoints, placementToString as pointsToString } from '../../board/state.js';
import { TIGER_GEOMETRY } from './geometry.js';

/** The kinds of piece, by seat: seat 0 the tiger, seat 1 the men. */
export const KINDS = Object.freeze(['tiger', 'man']);
const SEATS = Object.freeze(['red', 'blue']);
const LETTERS = Object.freeze({ T: 'tiger', M: 'man' });

/** `laohuqi`'s start: one tiger on e10, twelve men on a1–i1 and d2 e2 f2. */
export const START_PLACEMENT = '3/1T1/9/9/9/9/9/9/9/3MMM3/MMMMMMMMM';

/** The start placements by the rule options `men` and `tigers` (docs/tiger.md 2). */
export function startPlacement({ men = 12, tigers = 1 } = {}) {
  const nest = tigers === 2 ? 'T1T' : '1T1';
  const rank2 = men === 18 ? 'MMMMMMMMM' : '3MMM3';
  return `3/${nest}/9/9/9/9/9/9/9/${rank2}/MMMMMMMMM`;
}

const CHARS = Object.freeze({ tiger: '虎', man: '人' });

/** The character of a kind (the same in both scripts). */
export function pieceChar(kind) {
  return CHARS[kind] ?? '';
}

/**
 * The piece sets a reader may choose (settings, Appearance), as Jungle's: the characters 虎 and
 * 人, pictures (a tiger's striped face, a person's figure), the letters T and M, or the site's
 * first look (`classic`: the striped tiger with 虎 on it, the person's figure).
 */
export const PIECE_STYLES = Object.freeze(['characters', 'pictures', 'letters', 'classic']);

const TIGER_TOKEN = '<circle class="ear" cx="27" cy="19" r="11"/><circle class="ear" cx="73" cy="19" r="11"/>'
  + '<circle class="ear-in" cx="27" cy="19" r="5"/><circle class="ear-in" cx="73" cy="19" r="5"/>'
  + '<circle class="tok" cx="50" cy="54" r="42"/>';
const STRIPES = '<path class="stripe" d="M9 46l15 4-15 6zM91 46l-15 4 15 6zM12 70l14-3-10 9zM88 70l-14-3 10 9zM50 12l-5 11h10z"/>';
// The tiger's face: eyes, nose and mouth in the stripes' colour.
const TIGER_FACE = '<ellipse class="stripe" cx="37" cy="49" rx="5" ry="6.5"/><ellipse class="stripe" cx="63" cy="49" rx="5" ry="6.5"/>'
  + '<path class="stripe" d="M43 63h14l-7 8z"/>'
  + '<path class="whisker" d="M50 71v5M50 76q-7 7-13 2M50 76q7 7 13 2"/>';
const MAN_TOKEN = '<circle class="tok" cx="50" cy="50" r="37"/><circle class="tok-ring" cx="50" cy="50" r="31"/>';
const MAN_FIGURE = '<circle class="fig" cx="50" cy="37" r="10"/><path class="fig" d="M29 71c0-13 9-21 21-21s21 8 21 21z"/>';

const DRAWINGS = Object.freeze({
  classic: { tiger: TIGER_TOKEN + STRIPES + '<text class="char" x="50" y="72">虎</text>', man: MAN_TOKEN + MAN_FIGURE },
  characters: {
    tiger: TIGER_TOKEN + '<text class="char" x="50" y="72">虎</text>',
    man: MAN_TOKEN + '<text class="char" x="50" y="64">人</text>',
  },
  pictures: { tiger: TIGER_TOKEN + STRIPES + TIGER_FACE, man: MAN_TOKEN + MAN_FIGURE },
  letters: {
    tiger: TIGER_TOKEN + '<text class="letter" x="50" y="72">T</text>',
    man: MAN_TOKEN + '<text class="letter" x="50" y="64">M</text>',
  },
});

/** A piece's picture: an SVG string, in the piece set `style` (PIECE_STYLES; default classic). */
export function pieceSvg(piece, { style = 'classic' } = {}) {
  const kind = piece.kind ?? piece.animal;
  const drawing = DRAWINGS[style] ?? DRAWINGS.classic;
  return '<svg class="dsq-piece-svg" viewBox="0 0 100 100" aria-hidden="true" focusable="false">'
    + (kind === 'tiger' ? drawing.tiger : drawing.man) + '</svg>';
}

function readStyle(value) {
  if (!PIECE_STYLES.includes(value)) throw new TypeError(`pieceStyle must be one of ${PIECE_STYLES.map((s) => JSON.stringify(s)).join(', ')}; got ${JSON.stringify(value)}`);
  return value;
}

const WORDS = {
  en: { tiger: 'tiger', man: 'man', Tiger: 'Tiger', Man: 'Man' },
  zh: { tiger: '老虎', man: '人' },
  'zh-Hant': { tiger: '老虎', man: '人' },
};

/** A piece in words: "tiger 虎" / "老虎"; `capital` for the start of a sentence. */
export function pieceName(piece, { lang = 'zh' } = {}, { capital = false } = {}) {
  const w = WORDS[lang] ?? WORDS.en;
  if (lang === 'en') return `${w[capital ? (piece.kind === 'tiger' ? 'Tiger' : 'Man') : piece.kind]} ${pieceChar(piece.kind)}`;
  return w[piece.kind];
}

/** 老虎棋's piece set, for createBoard's `pieceSet`. A piece is {color, kind}: 'red' is the
 * tiger's seat, 'blue' the men's (the board's names for seats 0 and 1). */
export const TIGER_PIECES = Object.freeze({
  start: START_PLACEMENT,
  letters: 'TM',
  fromLetter(ch) {
    const kind = LETTERS[ch];
    return kind ? { color: SEATS[KINDS.indexOf(kind)], kind } : null;
  },
  letterOf: (piece) => (piece.kind === 'tiger' ? 'T' : 'M'),
  kindOf: (piece) => piece.kind,
  /** `pieceStyle`: what the pieces show (PIECE_STYLES; default 'classic'). */
  options: Object.freeze({ pieceStyle: Object.freeze({ initial: 'classic', read: readStyle }) }),
  svg: (piece, { pieceStyle } = {}) => pieceSvg(piece, { style: pieceStyle }),
  name: pieceName,
  details: () => [],
});

/** A placement (or a whole position string) as a Map point → {color, kind}. The points are
 * the same under every `diagonals` option, so the plain geometry reads them all. */
export function parsePlacement(text) {
  return parsePoints(text, TIGER_GEOMETRY, TIGER_PIECES);
}

/** The placement string of a Map point → {color, kind}. */
export function placementToString(pieces) {
  return pointsToString(pieces, TIGER_GEOMETRY, TIGER_PIECES);
}
