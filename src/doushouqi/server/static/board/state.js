// Pure state logic of the Jungle (斗兽棋) board component: geometry, placements, what a click,
// a drag or a key does, and which classes and labels each square gets. No DOM here, so that
// all of it runs (and is tested) under plain Node. The board knows no rules: the legal
// destinations (`dests`) are given to it.
//
// A state is a plain frozen-by-convention object; every function returns a new state and
// never mutates its argument.

export const FILES = Object.freeze(['a', 'b', 'c', 'd', 'e', 'f', 'g']);
export const NUM_FILES = 7;
export const NUM_RANKS = 9;
export const COLORS = Object.freeze(['red', 'blue']);

/** All 63 square names, a1 b1 … g1 a2 … g9. */
export const SQUARES = Object.freeze(
  Array.from({ length: NUM_FILES * NUM_RANKS }, (_, i) => FILES[i % NUM_FILES] + (Math.floor(i / NUM_FILES) + 1)),
);

/** Animals in rank order of the default (WANGO) rule set, with their notation letters. */
export const ANIMALS = Object.freeze(['rat', 'cat', 'dog', 'wolf', 'leopard', 'tiger', 'lion', 'elephant']);
export const ANIMAL_LETTERS = Object.freeze({
  r: 'rat', c: 'cat', d: 'dog', w: 'wolf', p: 'leopard', t: 'tiger', l: 'lion', e: 'elephant',
});
const LETTER_OF = Object.freeze(Object.fromEntries(Object.entries(ANIMAL_LETTERS).map(([l, a]) => [a, l])));

export const DEFAULT_RANKS = Object.freeze({
  elephant: 8, lion: 7, tiger: 6, leopard: 5, wolf: 4, dog: 3, cat: 2, rat: 1,
});

export const WATER = Object.freeze(new Set(['b4', 'c4', 'b5', 'c5', 'b6', 'c6', 'e4', 'f4', 'e5', 'f5', 'e6', 'f6']));
/** The two lakes as [lower-left, upper-right] corners (for drawing each as one region). */
export const LAKES = Object.freeze([['b4', 'c6'], ['e4', 'f6']]);
/** The three land bridges (三座桥) between and beside the lakes. */
export const BRIDGES = Object.freeze(new Set(['a4', 'a5', 'a6', 'd4', 'd5', 'd6', 'g4', 'g5', 'g6']));
export const TRAPS = Object.freeze({ red: Object.freeze(['c1', 'e1', 'd2']), blue: Object.freeze(['c9', 'e9', 'd8']) });
export const DENS = Object.freeze({ red: 'd1', blue: 'd9' });

export const START_PLACEMENT = 'l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L';

// ---------------------------------------------------------------------------------------------
// Squares and geometry

export function isSquare(name) {
  return typeof name === 'string' && /^[a-g][1-9]$/.test(name);
}

/** File and rank of a square as 0-based numbers: a1 → {file: 0, rank: 0}. */
export function squareCoords(name) {
  if (!isSquare(name)) throw new RangeError(`not a square: ${JSON.stringify(name)} (expected a1 … g9)`);
  return { file: name.charCodeAt(0) - 97, rank: name.charCodeAt(1) - 49 };
}

export function squareName(file, rank) {
  if (file < 0 || file >= NUM_FILES || rank < 0 || rank >= NUM_RANKS) return null;
  return FILES[file] + (rank + 1);
}

/** Where a square is drawn: 0-based column from the left and row from the top. */
export function toScreen(name, orientation = 'red') {
  const { file, rank } = squareCoords(name);
  return orientation === 'blue'
    ? { col: NUM_FILES - 1 - file, row: rank }
    : { col: file, row: NUM_RANKS - 1 - rank };
}

/** The square drawn at a column and row (0-based, from the top left), or null off the board. */
export function fromScreen(col, row, orientation = 'red') {
  if (!Number.isInteger(col) || !Number.isInteger(row)) return null;
  if (col < 0 || col >= NUM_FILES || row < 0 || row >= NUM_RANKS) return null;
  return orientation === 'blue'
    ? squareName(NUM_FILES - 1 - col, row)
    : squareName(col, NUM_RANKS - 1 - row);
}

/** The square under a point given relative to the board's top left corner, or null. */
export function squareAtPoint(x, y, width, height, orientation = 'red') {
  if (!(width > 0 && height > 0) || x < 0 || y < 0 || x >= width || y >= height) return null;
  return fromScreen(Math.floor((x / width) * NUM_FILES), Math.floor((y / height) * NUM_RANKS), orientation);
}

/** Files left to right and ranks top to bottom, as drawn on the board's edges. */
export function edgeLabels(orientation = 'red') {
  const files = [...FILES];
  const ranks = Array.from({ length: NUM_RANKS }, (_, i) => String(NUM_RANKS - i));
  return orientation === 'blue' ? { files: files.reverse(), ranks: ranks.reverse() } : { files, ranks };
}

/** Terrain of a square: {kind: 'land'|'water'|'bridge'|'trap'|'den', side: 'red'|'blue'|null}. */
export function terrainOf(name) {
  squareCoords(name); // validates
  if (WATER.has(name)) return { kind: 'water', side: null };
  if (BRIDGES.has(name)) return { kind: 'bridge', side: null };
  for (const side of COLORS) {
    if (DENS[side] === name) return { kind: 'den', side };
    if (TRAPS[side].includes(name)) return { kind: 'trap', side };
  }
  return { kind: 'land', side: null };
}

/** The lake a water square belongs to (0 or 1), or -1. */
export function lakeOf(name) {
  if (!WATER.has(name)) return -1;
  return squareCoords(name).file < 3 ? 0 : 1;
}

/** The grid area (1-based CSS grid lines) covered by a lake in the given orientation. */
export function lakeArea(index, orientation = 'red') {
  const corners = LAKES[index].map((sq) => toScreen(sq, orientation));
  const cols = corners.map((c) => c.col);
  const rows = corners.map((c) => c.row);
  return {
    colStart: Math.min(...cols) + 1,
    colEnd: Math.max(...cols) + 2,
    rowStart: Math.min(...rows) + 1,
    rowEnd: Math.max(...rows) + 2,
  };
}

// ---------------------------------------------------------------------------------------------
// Placements (the first field of the position string, docs/rules.md 7a)

export class PlacementError extends Error {
  constructor(message, placement) {
    super(message);
    this.name = 'PlacementError';
    this.placement = placement;
  }
}

/**
 * Parse a placement such as `l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L` into a Map from square
 * to {color, animal}. A full position string is accepted too (the fields after the first space
 * are ignored). Throws PlacementError explaining what is wrong.
 */
export function parsePlacement(text) {
  if (typeof text !== 'string') {
    throw new PlacementError(`placement must be a string, got ${text === null ? 'null' : typeof text}`, text);
  }
  const placement = text.trim().split(/\s+/)[0];
  if (placement === '') throw new PlacementError('placement is empty', text);
  const rows = placement.split('/');
  if (rows.length !== NUM_RANKS) {
    throw new PlacementError(
      `placement must have ${NUM_RANKS} rows separated by "/", got ${rows.length}: ${JSON.stringify(placement)}`, text,
    );
  }
  const pieces = new Map();
  rows.forEach((row, i) => {
    const rank = NUM_RANKS - 1 - i;
    const rowName = `row ${i + 1} (rank ${rank + 1})`;
    if (row === '') throw new PlacementError(`${rowName} is empty`, text);
    let file = 0;
    let previousDigit = false;
    for (const ch of row) {
      if (/[1-9]/.test(ch)) {
        if (previousDigit) throw new PlacementError(`${rowName} has two digits in a row: ${JSON.stringify(row)}`, text);
        file += Number(ch);
        previousDigit = true;
      } else {
        const animal = ANIMAL_LETTERS[ch.toLowerCase()];
        if (!animal) {
          throw new PlacementError(
            `${rowName} has an unknown piece letter ${JSON.stringify(ch)} (expected one of RCDWPTLE / rcdwptle or a digit 1-7)`, text,
          );
        }
        if (file >= NUM_FILES) throw new PlacementError(`${rowName} is longer than ${NUM_FILES} squares: ${JSON.stringify(row)}`, text);
        pieces.set(squareName(file, rank), { color: ch === ch.toUpperCase() ? 'red' : 'blue', animal });
        file += 1;
        previousDigit = false;
      }
      if (file > NUM_FILES) throw new PlacementError(`${rowName} is longer than ${NUM_FILES} squares: ${JSON.stringify(row)}`, text);
    }
    if (file !== NUM_FILES) {
      throw new PlacementError(`${rowName} covers ${file} squares instead of ${NUM_FILES}: ${JSON.stringify(row)}`, text);
    }
  });
  return pieces;
}

/** The placement string of a Map from square to {color, animal}. */
export function placementToString(pieces) {
  const rows = [];
  for (let rank = NUM_RANKS - 1; rank >= 0; rank--) {
    let row = '';
    let empty = 0;
    for (let file = 0; file < NUM_FILES; file++) {
      const piece = pieces.get(squareName(file, rank));
      if (!piece) {
        empty += 1;
        continue;
      }
      if (empty) row += empty;
      empty = 0;
      const letter = LETTER_OF[piece.animal];
      row += piece.color === 'red' ? letter.toUpperCase() : letter;
    }
    if (empty) row += empty;
    rows.push(row);
  }
  return rows.join('/');
}

// ---------------------------------------------------------------------------------------------
// Configuration → state

const CONFIG_KEYS = new Set([
  'position', 'orientation', 'turnColor', 'movableColor', 'dests', 'lastMove', 'hint', 'threats', 'selected',
  'lang', 'wolfName', 'ranks', 'animation', 'announceMoves', 'events',
]);

function oneOf(key, value, allowed) {
  if (!allowed.includes(value)) {
    throw new TypeError(`${key} must be one of ${allowed.map((v) => JSON.stringify(v)).join(', ')}; got ${JSON.stringify(value)}`);
  }
  return value;
}

/** Legal destinations as a Map from square to an array of squares (from a Map or an object). */
export function normalizeDests(dests) {
  const result = new Map();
  if (dests == null) return result;
  const entries = dests instanceof Map ? [...dests.entries()] : Object.entries(dests);
  for (const [from, tos] of entries) {
    if (!isSquare(from)) throw new TypeError(`dests: not a square: ${JSON.stringify(from)}`);
    const list = [...(tos ?? [])];
    for (const to of list) if (!isSquare(to)) throw new TypeError(`dests[${from}]: not a square: ${JSON.stringify(to)}`);
    if (list.length) result.set(from, list);
  }
  return result;
}

function normalizeMove(move, key) {
  if (move == null) return null;
  if (!Array.isArray(move) || move.length !== 2 || !move.every(isSquare)) {
    throw new TypeError(`${key} must be [from, to] squares or null; got ${JSON.stringify(move)}`);
  }
  return [move[0], move[1]];
}

function normalizeRanks(ranks) {
  const result = { ...DEFAULT_RANKS };
  for (const [animal, rank] of Object.entries(ranks ?? {})) {
    if (!ANIMALS.includes(animal)) throw new TypeError(`ranks: unknown animal ${JSON.stringify(animal)}`);
    result[animal] = rank;
  }
  return result;
}

/** A state with every field set to its default. */
export function defaultState() {
  return {
    pieces: parsePlacement(START_PLACEMENT),
    orientation: 'red',
    turnColor: 'red',
    movableColor: null,
    dests: new Map(),
    lastMove: null,
    hint: null,
    threats: new Set(),
    selected: null,
    focus: 'a1',
    lang: 'zh',
    wolfName: 'wolf',
    ranks: { ...DEFAULT_RANKS },
    animation: { enabled: true, duration: 220 },
    announceMoves: true,
  };
}

/** Bottom-left square on screen: where keyboard focus starts. */
export function homeSquare(orientation) {
  return fromScreen(0, NUM_RANKS - 1, orientation);
}

/**
 * A new state with a (partial) configuration applied. Unknown keys and bad values throw.
 * `events` is accepted and ignored here (the DOM layer keeps the callbacks).
 */
export function configure(state, config = {}) {
  const next = { ...state };
  for (const key of Object.keys(config)) {
    if (!CONFIG_KEYS.has(key)) throw new TypeError(`unknown board option ${JSON.stringify(key)}`);
  }
  if ('position' in config) next.pieces = parsePlacement(config.position);
  if ('orientation' in config) {
    next.orientation = oneOf('orientation', config.orientation, COLORS);
    if (next.orientation !== state.orientation && state.focus === homeSquare(state.orientation)) {
      next.focus = homeSquare(next.orientation);
    }
  }
  if ('turnColor' in config) next.turnColor = oneOf('turnColor', config.turnColor, COLORS);
  if ('movableColor' in config) next.movableColor = oneOf('movableColor', config.movableColor ?? null, ['red', 'blue', 'both', null]);
  if ('dests' in config) next.dests = normalizeDests(config.dests);
  if ('lastMove' in config) next.lastMove = normalizeMove(config.lastMove, 'lastMove');
  if ('hint' in config) next.hint = normalizeMove(config.hint, 'hint');
  if ('threats' in config) {
    const threats = [...(config.threats ?? [])];
    for (const sq of threats) if (!isSquare(sq)) throw new TypeError(`threats: not a square: ${JSON.stringify(sq)}`);
    next.threats = new Set(threats);
  }
  if ('lang' in config) next.lang = oneOf('lang', config.lang, ['zh', 'zh-Hant', 'en']);
  if ('wolfName' in config) next.wolfName = oneOf('wolfName', config.wolfName, ['wolf', 'fox']);
  if ('ranks' in config) next.ranks = normalizeRanks(config.ranks);
  if ('animation' in config) {
    const anim = config.animation ?? {};
    next.animation = {
      enabled: anim.enabled ?? state.animation.enabled,
      duration: Math.max(0, Number(anim.duration ?? state.animation.duration) || 0),
    };
  }
  if ('announceMoves' in config) next.announceMoves = oneOf('announceMoves', config.announceMoves, [true, false]);
  if ('selected' in config) {
    const sq = config.selected ?? null;
    if (sq !== null && !isSquare(sq)) throw new TypeError(`selected: not a square: ${JSON.stringify(sq)}`);
    next.selected = sq;
  }
  // A selection only stands on a piece that may be moved.
  if (next.selected !== null && !isMovable(next, next.selected)) next.selected = null;
  return next;
}

export function createState(config = {}) {
  const base = defaultState();
  const orientation = config.orientation ?? base.orientation;
  return configure({ ...base, focus: homeSquare(orientation) }, config);
}

// ---------------------------------------------------------------------------------------------
// Selection and moves

/** Whether the piece on a square belongs to a side the user may move. */
export function isMovable(state, square) {
  const piece = state.pieces.get(square);
  if (!piece || state.movableColor === null) return false;
  return state.movableColor === 'both' || state.movableColor === piece.color;
}

export function destsOf(state, square) {
  return square && isMovable(state, square) ? state.dests.get(square) ?? [] : [];
}

export function canMove(state, from, to) {
  return from !== to && destsOf(state, from).includes(to);
}

const NONE = Object.freeze({ type: 'none' });

function select(state, square) {
  return { state: { ...state, selected: square, focus: square }, action: { type: 'select', square } };
}

function deselect(state) {
  if (state.selected === null) return { state, action: NONE };
  return { state: { ...state, selected: null }, action: { type: 'deselect', square: state.selected } };
}

/**
 * The user moves a piece: the board shows it at once (the server confirms or corrects it later
 * with setPosition). Whatever stood on `to` is captured. Dests and the hint are cleared: they
 * belonged to the position before the move.
 */
export function applyMove(state, from, to) {
  const piece = state.pieces.get(from);
  if (!piece) return { state, captured: null };
  const pieces = new Map(state.pieces);
  const captured = pieces.get(to) ?? null;
  pieces.delete(from);
  pieces.set(to, piece);
  return {
    state: {
      ...state,
      pieces,
      lastMove: [from, to],
      hint: null,
      selected: null,
      dests: new Map(),
      turnColor: piece.color === 'red' ? 'blue' : 'red',
      focus: state.focus === from ? to : state.focus,
    },
    captured,
  };
}

function moveAction(state, from, to) {
  const piece = state.pieces.get(from);
  const { state: next, captured } = applyMove(state, from, to);
  return { state: next, action: { type: 'move', from, to, piece, captured } };
}

/**
 * A pointer (mouse or touch) goes down on a square. Returns {state, action, drag} where `drag`
 * tells whether the piece there may now be dragged and `wasSelected` whether it was selected
 * before (a tap on the selected piece deselects it on pointerUp).
 */
export function pointerDown(state, square) {
  if (!square) return { ...deselect(state), drag: false, wasSelected: false };
  if (state.selected && canMove(state, state.selected, square)) {
    return { ...moveAction(state, state.selected, square), drag: false, wasSelected: false };
  }
  if (isMovable(state, square)) {
    const wasSelected = state.selected === square;
    const result = wasSelected ? { state: { ...state, focus: square }, action: NONE } : select(state, square);
    return { ...result, drag: true, wasSelected };
  }
  const result = deselect(state);
  return { state: { ...result.state, focus: square }, action: result.action, drag: false, wasSelected: false };
}

/**
 * The pointer comes up after a pointerDown that allowed a drag from `from`. `to` is the square
 * under the pointer (null off the board); `dragged` whether it moved far enough to count as a
 * drag. A drop on a legal destination moves; any other drop snaps back and keeps the selection
 * (so that the legal destinations stay shown); a tap on an already selected piece deselects.
 */
export function pointerUp(state, from, to, { dragged = false, wasSelected = false } = {}) {
  if (!dragged) {
    if (wasSelected && state.selected === from) return deselect(state);
    return { state, action: NONE };
  }
  if (to && canMove(state, from, to)) return moveAction(state, from, to);
  return { state: { ...state, selected: from }, action: { type: 'snapback', square: from } };
}

/** A click (or a tap, or Enter/Space on the focused square): pointerDown then pointerUp. */
export function clickSquare(state, square) {
  const down = pointerDown(state, square);
  if (!down.drag) return { state: down.state, action: down.action };
  const up = pointerUp(down.state, square, square, { dragged: false, wasSelected: down.wasSelected });
  return up.action.type === 'none' ? { state: up.state, action: down.action } : up;
}

export function cancelSelection(state) {
  return deselect(state).state;
}

// ---------------------------------------------------------------------------------------------
// Keyboard

const ARROWS = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };

/** The square reached from `square` by an arrow key, in screen directions; edges stop it. */
export function focusStep(square, key, orientation = 'red') {
  const step = ARROWS[key];
  if (!step) return square;
  const { col, row } = toScreen(square, orientation);
  return fromScreen(col + step[0], row + step[1], orientation) ?? square;
}

/**
 * A key pressed while a square has focus. Returns {state, action, handled}: arrows move the
 * focus, Home/End jump to the row's ends, Enter and Space act like a click, Escape deselects.
 */
export function keyDown(state, key) {
  if (key in ARROWS) {
    return { state: { ...state, focus: focusStep(state.focus, key, state.orientation) }, action: NONE, handled: true };
  }
  if (key === 'Home' || key === 'End') {
    const { row } = toScreen(state.focus, state.orientation);
    const focus = fromScreen(key === 'Home' ? 0 : NUM_FILES - 1, row, state.orientation);
    return { state: { ...state, focus }, action: NONE, handled: true };
  }
  if (key === 'Enter' || key === ' ' || key === 'Spacebar') {
    return { ...clickSquare(state, state.focus), handled: true };
  }
  if (key === 'Escape') {
    const result = deselect(state);
    return { ...result, handled: result.action.type !== 'none' };
  }
  return { state, action: NONE, handled: false };
}

// ---------------------------------------------------------------------------------------------
// Classes and words

/** The CSS classes of a square, in a stable order. */
export function squareClasses(state, square) {
  const { kind, side } = terrainOf(square);
  const classes = ['sq', kind];
  if (side) classes.push(`side-${side}`);
  if (kind === 'land' || kind === 'trap') {
    const { file, rank } = squareCoords(square);
    classes.push((file + rank) % 2 === 0 ? 'dark' : 'light');
  }
  const piece = state.pieces.get(square);
  if (piece) classes.push('occupied', `piece-${piece.color}`);
  if (isMovable(state, square)) classes.push('movable');
  if (state.lastMove && state.lastMove.includes(square)) classes.push('last-move');
  if (state.selected === square) classes.push('selected');
  if (state.selected && canMove(state, state.selected, square)) classes.push(piece ? 'capture' : 'dest');
  if (state.threats.has(square)) classes.push('threat');
  if (state.hint?.[0] === square) classes.push('hint-from');
  if (state.hint?.[1] === square) classes.push('hint-to');
  return classes;
}

const WORDS = {
  en: {
    color: { red: 'red', blue: 'blue' },
    Color: { red: 'Red', blue: 'Blue' },
    animal: { rat: 'rat', cat: 'cat', dog: 'dog', wolf: 'wolf', fox: 'fox', leopard: 'leopard', tiger: 'tiger', lion: 'lion', elephant: 'elephant' },
    water: 'water', bridge: 'bridge', trap: (s) => `${s} trap`, den: (s) => `${s} den`,
    empty: 'empty', sep: ', ', strength: (n) => `strength ${n}`,
    selected: 'selected', dest: 'legal move', capture: 'capture', lastMove: 'last move', threat: 'threatened',
    hintFrom: 'hint: move from here', hintTo: 'hint: move here',
    boardLabel: 'Jungle board',
    help: 'Arrow keys move between squares, Enter or Space selects a piece and moves it, Escape cancels.',
  },
  zh: {
    color: { red: '红方', blue: '蓝方' },
    Color: { red: '红方', blue: '蓝方' },
    water: '小河', bridge: '桥', trap: (s) => `${s}陷阱`, den: (s) => `${s}兽穴`,
    empty: '空', sep: '，', strength: (n) => `战力${n}`,
    selected: '已选中', dest: '可走', capture: '可吃', lastMove: '上一步', threat: '受威胁',
    hintFrom: '提示：走这只', hintTo: '提示：走到这里',
    boardLabel: '斗兽棋棋盘',
    help: '方向键移动光标，回车或空格键选子、走子，Esc 取消选择。',
    hint: (name, from, to) => `提示：${name} ${from} 走到 ${to}`, takes: (name) => `，吃掉${name}`,
    picked: (name, sq) => `已选中${name} ${sq}。`, moves: (list) => `可走：${list.join('、')}。`,
    noMoves: '没有可走的步。', cleared: '已取消选择。', moved: (name, from, to) => `${name} ${from} 走到 ${to}`,
    refused: '不能走到那里。', stop: '。',
  },
  // Traditional Chinese (Taiwan, Hong Kong, Macau): the same sentences in traditional characters.
  'zh-Hant': {
    color: { red: '紅方', blue: '藍方' },
    Color: { red: '紅方', blue: '藍方' },
    water: '小河', bridge: '橋', trap: (s) => `${s}陷阱`, den: (s) => `${s}獸穴`,
    empty: '空', sep: '，', strength: (n) => `戰力${n}`,
    selected: '已選中', dest: '可走', capture: '可吃', lastMove: '上一步', threat: '受威脅',
    hintFrom: '提示：走這隻', hintTo: '提示：走到這裡',
    boardLabel: '鬥獸棋棋盤',
    help: '方向鍵移動游標，Enter 或空白鍵選子、走子，Esc 取消選擇。',
    hint: (name, from, to) => `提示：${name} ${from} 走到 ${to}`, takes: (name) => `，吃掉${name}`,
    picked: (name, sq) => `已選中${name} ${sq}。`, moves: (list) => `可走：${list.join('、')}。`,
    noMoves: '沒有可走的步。', cleared: '已取消選擇。', moved: (name, from, to) => `${name} ${from} 走到 ${to}`,
    refused: '不能走到那裡。', stop: '。',
  },
};

/** Chinese shown in characters of its script: 'zh' simplified, 'zh-Hant' traditional. */
const isChinese = (lang) => lang === 'zh' || lang === 'zh-Hant';

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

export function words(lang) {
  return WORDS[lang] ?? WORDS.en;
}

/** A piece in words: "red tiger 虎" / "红方虎". */
export function pieceName(state, piece, { capital = false } = {}) {
  const w = words(state.lang);
  const char = pieceChar(piece.animal, state.wolfName, state.lang);
  if (isChinese(state.lang)) return `${w.color[piece.color]}${char}`;
  const animal = piece.animal === 'wolf' && state.wolfName === 'fox' ? 'fox' : piece.animal;
  return `${(capital ? w.Color : w.color)[piece.color]} ${w.animal[animal]} ${char}`;
}

/** The accessible name of a square, e.g. "d4, red tiger 虎, strength 6" or "c9, blue trap, empty". */
export function squareLabel(state, square) {
  const w = words(state.lang);
  const parts = [square];
  const { kind, side } = terrainOf(square);
  if (kind === 'water' || kind === 'bridge') parts.push(w[kind]);
  if (kind === 'trap' || kind === 'den') parts.push(w[kind](w.color[side]));
  const piece = state.pieces.get(square);
  if (piece) parts.push(pieceName(state, piece), w.strength(state.ranks[piece.animal]));
  else parts.push(w.empty);
  if (state.selected === square) parts.push(w.selected);
  if (state.selected && canMove(state, state.selected, square)) parts.push(piece ? w.capture : w.dest);
  if (state.lastMove && state.lastMove.includes(square)) parts.push(w.lastMove);
  if (state.threats.has(square)) parts.push(w.threat);
  if (state.hint?.[0] === square) parts.push(w.hintFrom);
  if (state.hint?.[1] === square) parts.push(w.hintTo);
  return parts.join(w.sep);
}

/** The suggested move in words, for the live region: "Hint: Red rat 鼠 g3 to g4." (or ''). */
export function hintText(state) {
  if (!state.hint) return '';
  const [from, to] = state.hint;
  const piece = state.pieces.get(from);
  const target = state.pieces.get(to);
  const captured = piece && target && target.color !== piece.color ? target : null;
  if (isChinese(state.lang)) {
    const w = words(state.lang);
    const name = piece ? pieceName(state, piece) : '';
    return w.hint(name, from, to) + (captured ? w.takes(pieceName(state, captured)) : '') + w.stop;
  }
  const name = piece ? `${pieceName(state, piece, { capital: true })} ` : '';
  return `Hint: ${name}${from} to ${to}` + (captured ? `, captures ${pieceName(state, captured)}.` : '.');
}

/**
 * The hint arrow in screen units (one square = 100, the board 700 × 900, as drawn for
 * `orientation`): a shaft from the centre of `from` towards `to` and a triangular head whose
 * tip stops short of the centre of `to`, so that the piece there stays visible.
 */
export function arrowGeometry(from, to, orientation = 'red') {
  const a = toScreen(from, orientation);
  const b = toScreen(to, orientation);
  const x1 = a.col * 100 + 50;
  const y1 = a.row * 100 + 50;
  const dx = (b.col - a.col) * 100;
  const dy = (b.row - a.row) * 100;
  const length = Math.hypot(dx, dy) || 1;
  const ux = dx / length;
  const uy = dy / length;
  const tipBack = 22; // the tip stops this far before the target's centre
  const headLength = 34;
  const headHalfWidth = 22;
  const tip = [x1 + ux * (length - tipBack), y1 + uy * (length - tipBack)];
  const base = [tip[0] - ux * headLength, tip[1] - uy * headLength];
  const round = (n) => Math.round(n * 10) / 10;
  return {
    shaft: { x1: round(x1 + ux * 18), y1: round(y1 + uy * 18), x2: round(base[0]), y2: round(base[1]) },
    head: [
      tip,
      [base[0] - uy * headHalfWidth, base[1] + ux * headHalfWidth],
      [base[0] + uy * headHalfWidth, base[1] - ux * headHalfWidth],
    ].map(([x, y]) => [round(x), round(y)]),
  };
}

/** What the live region says after an action (empty when nothing is worth saying). */
export function announce(state, action) {
  const w = words(state.lang);
  const zh = isChinese(state.lang);
  switch (action.type) {
    case 'select': {
      const piece = state.pieces.get(action.square);
      const dests = destsOf(state, action.square);
      const name = pieceName(state, piece, { capital: true });
      if (zh) {
        return w.picked(name, action.square) + (dests.length ? w.moves(dests) : w.noMoves);
      }
      return `${name} on ${action.square} selected. ` + (dests.length ? `Moves: ${dests.join(', ')}.` : 'No legal moves.');
    }
    case 'deselect':
      return zh ? w.cleared : 'Selection cleared.';
    case 'move': {
      const name = pieceName(state, action.piece, { capital: true });
      if (zh) {
        return w.moved(name, action.from, action.to) + (action.captured ? w.takes(pieceName(state, action.captured)) : '') + w.stop;
      }
      return `${name} ${action.from} to ${action.to}` + (action.captured ? `, captures ${pieceName(state, action.captured)}.` : '.');
    }
    case 'snapback':
      return zh ? w.refused : 'Not a legal move.';
    default:
      return '';
  }
}

// ---------------------------------------------------------------------------------------------
// Position changes → animations

function samePiece(a, b) {
  return Boolean(a && b && a.color === b.color && a.animal === b.animal);
}

function distance(a, b) {
  const p = squareCoords(a);
  const q = squareCoords(b);
  return Math.hypot(p.file - q.file, p.rank - q.rank);
}

/**
 * How to get from one position (Map square → piece) to another: which pieces move
 * ({from, to}), which vanish (captured) and which appear. A hint [from, to] (the last move)
 * is matched first; other pieces that moved are matched to the nearest vanished piece of the
 * same colour and animal.
 */
export function diffPieces(before, after, hint = null) {
  const vanished = [];
  const appeared = [];
  for (const [sq, piece] of before) if (!samePiece(piece, after.get(sq))) vanished.push(sq);
  for (const [sq, piece] of after) if (!samePiece(piece, before.get(sq))) appeared.push(sq);
  const moves = [];
  const take = (from, to) => {
    moves.push({ from, to });
    vanished.splice(vanished.indexOf(from), 1);
    appeared.splice(appeared.indexOf(to), 1);
  };
  if (hint && vanished.includes(hint[0]) && appeared.includes(hint[1]) && samePiece(before.get(hint[0]), after.get(hint[1]))) {
    take(hint[0], hint[1]);
  }
  const candidates = [];
  for (const to of appeared) {
    for (const from of vanished) {
      if (samePiece(before.get(from), after.get(to))) candidates.push({ from, to, d: distance(from, to) });
    }
  }
  candidates.sort((a, b) => a.d - b.d);
  for (const { from, to } of candidates) {
    if (vanished.includes(from) && appeared.includes(to)) take(from, to);
  }
  return { moves, removed: vanished, added: appeared };
}
