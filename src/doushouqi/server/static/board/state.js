// Pure state logic of the board component: placements, what a click, a drag or a key does, and
// which classes and labels each square gets. No DOM here, so that all of it runs (and is
// tested) under plain Node. The board knows no rules: the legal destinations (`dests`) are given
// to it. Nor does it know a game: the squares come from the `geometry` (board/geometry.js) and
// the pieces, their letters, pictures and names from the `pieceSet` (games/jungle/ has Jungle's).
// Premoves (a move chosen while the opponent is to move) are no different: the host says whose
// pieces may be premoved and where to (`premoveDests`, its guess), and decides later whether the
// premove is played.
//
// A state is a plain frozen-by-convention object; every function returns a new state and
// never mutates its argument.

export const COLORS = Object.freeze(['red', 'blue']);

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
 * Parse a placement such as `l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L` (Jungle's start) into a
 * Map from square to piece: one row per rank from the top, a digit for that many empty places,
 * a piece set's letter for a piece (Jungle: upper case Red, lower case Blue). A row lists the
 * places of its rank that the geometry has, in file order (all of them on a grid; only the
 * points of a point geometry, such as 老虎棋's three-point nest rows `3/1T1`). A full position
 * string is accepted too (the fields after the first space are ignored). Throws PlacementError
 * explaining what is wrong.
 */
export function parsePlacement(text, geometry, pieceSet) {
  const { numRanks } = geometry;
  if (typeof text !== 'string') {
    throw new PlacementError(`placement must be a string, got ${text === null ? 'null' : typeof text}`, text);
  }
  const placement = text.trim().split(/\s+/)[0];
  if (placement === '') throw new PlacementError('placement is empty', text);
  const rows = placement.split('/');
  if (rows.length !== numRanks) {
    throw new PlacementError(
      `placement must have ${numRanks} rows separated by "/", got ${rows.length}: ${JSON.stringify(placement)}`, text,
    );
  }
  const letters = pieceSet.letters;
  const pieces = new Map();
  rows.forEach((row, i) => {
    const rank = numRanks - 1 - i;
    const places = geometry.rowSquares(rank);
    const size = places.length;
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
        const piece = pieceSet.fromLetter(ch);
        if (!piece) {
          throw new PlacementError(
            `${rowName} has an unknown piece letter ${JSON.stringify(ch)} (expected one of ${letters.toUpperCase()} / ${letters} or a digit 1-${Math.min(size, 9)})`, text,
          );
        }
        if (file >= size) throw new PlacementError(`${rowName} is longer than ${size} squares: ${JSON.stringify(row)}`, text);
        pieces.set(places[file], piece);
        file += 1;
        previousDigit = false;
      }
      if (file > size) throw new PlacementError(`${rowName} is longer than ${size} squares: ${JSON.stringify(row)}`, text);
    }
    if (file !== size) {
      throw new PlacementError(`${rowName} covers ${file} squares instead of ${size}: ${JSON.stringify(row)}`, text);
    }
  });
  return pieces;
}

/** The placement string of a Map from square to piece. */
export function placementToString(pieces, geometry, pieceSet) {
  const rows = [];
  for (let rank = geometry.numRanks - 1; rank >= 0; rank--) {
    let row = '';
    let empty = 0;
    for (const place of geometry.rowSquares(rank)) {
      const piece = pieces.get(place);
      if (!piece) {
        empty += 1;
        continue;
      }
      if (empty) row += empty;
      empty = 0;
      row += pieceSet.letterOf(piece);
    }
    if (empty) row += empty;
    rows.push(row);
  }
  return rows.join('/');
}

// ---------------------------------------------------------------------------------------------
// Configuration → state

const CONFIG_KEYS = new Set([
  'geometry', 'pieceSet', 'position', 'orientation', 'turnColor', 'movableColor', 'dests', 'lastMove', 'hint', 'threats',
  'selected', 'lang', 'animation', 'announceMoves', 'events', 'premoveColor', 'premoveDests', 'premove',
  'pendingMove',
]);

function oneOf(key, value, allowed) {
  if (!allowed.includes(value)) {
    throw new TypeError(`${key} must be one of ${allowed.map((v) => JSON.stringify(v)).join(', ')}; got ${JSON.stringify(value)}`);
  }
  return value;
}

/** Legal destinations as a Map from square to an array of squares (from a Map or an object). */
export function normalizeDests(dests, geometry) {
  const result = new Map();
  if (dests == null) return result;
  const entries = dests instanceof Map ? [...dests.entries()] : Object.entries(dests);
  for (const [from, tos] of entries) {
    if (!geometry.isSquare(from)) throw new TypeError(`dests: not a square: ${JSON.stringify(from)}`);
    const list = [...(tos ?? [])];
    for (const to of list) if (!geometry.isSquare(to)) throw new TypeError(`dests[${from}]: not a square: ${JSON.stringify(to)}`);
    if (list.length) result.set(from, list);
  }
  return result;
}

function normalizeMove(move, key, geometry) {
  if (move == null) return null;
  if (!Array.isArray(move) || move.length !== 2 || !move.every(geometry.isSquare)) {
    throw new TypeError(`${key} must be [from, to] squares or null; got ${JSON.stringify(move)}`);
  }
  return [move[0], move[1]];
}

/** The piece set's options (e.g. Jungle's wolfName and ranks): board options of their own. */
export function pieceOptionKeys(state) {
  return Object.keys(state.pieceSet.options ?? {});
}

/** What the pieces are drawn and named with: the language and the piece set's options. */
export function pieceLook(state) {
  const look = { lang: state.lang };
  for (const key of pieceOptionKeys(state)) look[key] = state[key];
  return look;
}

/** A state with every field set to its default, for a geometry and a piece set. */
export function defaultState(geometry, pieceSet) {
  const state = {
    geometry,
    pieceSet,
    pieces: pieceSet.start ? parsePlacement(pieceSet.start, geometry, pieceSet) : new Map(),
    orientation: 'red',
    turnColor: 'red',
    movableColor: null,
    dests: new Map(),
    lastMove: null,
    premoveColor: null,
    premoveDests: new Map(),
    premove: null,
    pendingMove: null,
    hint: null,
    threats: new Set(),
    selected: null,
    focus: geometry.squares[0],
    lang: 'zh',
    animation: { enabled: true, duration: 220 },
    announceMoves: true,
  };
  for (const [key, option] of Object.entries(pieceSet.options ?? {})) state[key] = option.read(option.initial);
  return state;
}

/** The bottom-left place on screen (the lowest row's leftmost; on a point geometry with holes
 * there, the first point up from it): where keyboard focus starts. */
export function homeSquare(state, orientation = state.orientation) {
  const { geometry } = state;
  for (let row = geometry.numRanks - 1; row >= 0; row--) {
    for (let col = 0; col < geometry.numFiles; col++) {
      const place = geometry.fromScreen(col, row, orientation);
      if (place) return place;
    }
  }
  return geometry.squares[0];
}

/**
 * A new state with a (partial) configuration applied. Unknown keys and bad values throw.
 * `events` is accepted and ignored here (the DOM layer keeps the callbacks). The geometry and
 * the piece set are the board's for good: they may be given again, but not changed.
 */
export function configure(state, config = {}) {
  const next = { ...state };
  const pieceKeys = pieceOptionKeys(state);
  for (const key of Object.keys(config)) {
    if (!CONFIG_KEYS.has(key) && !pieceKeys.includes(key)) throw new TypeError(`unknown board option ${JSON.stringify(key)}`);
  }
  for (const key of ['geometry', 'pieceSet']) {
    if (key in config && config[key] !== state[key]) throw new TypeError(`${key} is given when the board is created and cannot change`);
  }
  const { geometry, pieceSet } = state;
  const isSquare = geometry.isSquare;
  if ('position' in config) next.pieces = parsePlacement(config.position, geometry, pieceSet);
  if ('orientation' in config) {
    next.orientation = oneOf('orientation', config.orientation, COLORS);
    if (next.orientation !== state.orientation && state.focus === homeSquare(state)) {
      next.focus = homeSquare(state, next.orientation);
    }
  }
  if ('turnColor' in config) next.turnColor = oneOf('turnColor', config.turnColor, COLORS);
  if ('movableColor' in config) next.movableColor = oneOf('movableColor', config.movableColor ?? null, ['red', 'blue', 'both', null]);
  if ('dests' in config) next.dests = normalizeDests(config.dests, geometry);
  if ('lastMove' in config) next.lastMove = normalizeMove(config.lastMove, 'lastMove', geometry);
  if ('premoveColor' in config) next.premoveColor = oneOf('premoveColor', config.premoveColor ?? null, ['red', 'blue', null]);
  if ('premoveDests' in config) next.premoveDests = normalizeDests(config.premoveDests, geometry);
  if ('premove' in config) next.premove = normalizeMove(config.premove, 'premove', geometry);
  if ('pendingMove' in config) next.pendingMove = normalizeMove(config.pendingMove, 'pendingMove', geometry);
  if ('hint' in config) next.hint = normalizeMove(config.hint, 'hint', geometry);
  if ('threats' in config) {
    const threats = [...(config.threats ?? [])];
    for (const sq of threats) if (!isSquare(sq)) throw new TypeError(`threats: not a square: ${JSON.stringify(sq)}`);
    next.threats = new Set(threats);
  }
  if ('lang' in config) next.lang = oneOf('lang', config.lang, ['zh', 'zh-Hant', 'en']);
  for (const key of pieceKeys) if (key in config) next[key] = pieceSet.options[key].read(config[key]);
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
  // A selection only stands on a piece that may be moved (or premoved).
  if (next.selected !== null && !isMovable(next, next.selected) && !isPremovable(next, next.selected)) next.selected = null;
  return next;
}

/** A new state: `config.geometry` and `config.pieceSet` are required, the rest as in configure. */
export function createState(config = {}) {
  const { geometry, pieceSet } = config;
  if (!geometry || typeof geometry.toScreen !== 'function') {
    throw new TypeError('the board needs a geometry (board/geometry.js gridGeometry; Jungle\'s: games/jungle/)');
  }
  if (!pieceSet || typeof pieceSet.fromLetter !== 'function') {
    throw new TypeError('the board needs a piece set (Jungle\'s: games/jungle/pieces.js JUNGLE_PIECES)');
  }
  const base = defaultState(geometry, pieceSet);
  const orientation = config.orientation ?? base.orientation;
  return configure({ ...base, focus: homeSquare(base, orientation) }, config);
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

/** Whether the piece on a square may be premoved: the host's `premoveColor`, not movable now. */
export function isPremovable(state, square) {
  const piece = state.pieces.get(square);
  if (!piece || state.premoveColor === null || isMovable(state, square)) return false;
  return piece.color === state.premoveColor;
}

export function premoveDestsOf(state, square) {
  return square && isPremovable(state, square) ? state.premoveDests.get(square) ?? [] : [];
}

export function canPremove(state, from, to) {
  return from !== to && premoveDestsOf(state, from).includes(to);
}

/** Whether the user may pick pieces up at all (to move them now, or to premove them). */
export function isInteractive(state) {
  return state.movableColor !== null || state.premoveColor !== null;
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

/** A premove is only remembered: the piece stays where it is until the host plays the move. */
function premoveAction(state, from, to) {
  const piece = state.pieces.get(from);
  return {
    state: { ...state, premove: [from, to], selected: null, focus: to },
    action: { type: 'premove', from, to, piece },
  };
}

/** A tap that starts no move cancels the premove (and the selection with it). */
function unpremove(state) {
  return { state: { ...state, premove: null, selected: null }, action: { type: 'unpremove' } };
}

/**
 * A pointer (mouse or touch) goes down on a square. Returns {state, action, drag} where `drag`
 * tells whether the piece there may now be dragged and `wasSelected` whether it was selected
 * before (a tap on the selected piece deselects it on pointerUp). A tap that sends the selected
 * piece to a square that is no destination gives an action with `tried: [from, to]`.
 */
export function pointerDown(state, square) {
  if (!square) return { ...deselect(state), drag: false, wasSelected: false };
  if (state.selected && canMove(state, state.selected, square)) {
    return { ...moveAction(state, state.selected, square), drag: false, wasSelected: false };
  }
  if (state.selected && canPremove(state, state.selected, square)) {
    return { ...premoveAction(state, state.selected, square), drag: false, wasSelected: false };
  }
  if (isMovable(state, square) || isPremovable(state, square)) {
    const wasSelected = state.selected === square;
    const result = wasSelected ? { state: { ...state, focus: square }, action: NONE } : select(state, square);
    return { ...result, drag: true, wasSelected };
  }
  const result = state.premove ? unpremove(state) : deselect(state);
  if (!state.premove && state.selected && isMovable(state, state.selected)) {
    // A piece that may move now, sent where the host offers no move: deselected as before,
    // and the try reported (`tried`), so that the host may say why the rules forbid it.
    result.action = { ...result.action, tried: [state.selected, square] };
  }
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
  if (to && canPremove(state, from, to)) return premoveAction(state, from, to);
  const action = { type: 'snapback', square: from };
  // Dropped on a square that is no destination: the try is reported too (see pointerDown).
  if (to && to !== from && isMovable(state, from) && !isMovable(state, to)) action.tried = [from, to];
  return { state: { ...state, selected: from }, action };
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
export function focusStep(geometry, square, key, orientation = 'red') {
  const step = ARROWS[key];
  if (!step) return square;
  const { col, row } = geometry.toScreen(square, orientation);
  return geometry.fromScreen(col + step[0], row + step[1], orientation) ?? square;
}

/**
 * A key pressed while a square has focus. Returns {state, action, handled}: arrows move the
 * focus, Home/End jump to the row's ends, Enter and Space act like a click, Escape deselects.
 */
export function keyDown(state, key) {
  if (key in ARROWS) {
    return { state: { ...state, focus: focusStep(state.geometry, state.focus, key, state.orientation) }, action: NONE, handled: true };
  }
  if (key === 'Home' || key === 'End') {
    const { geometry } = state;
    const { row } = geometry.toScreen(state.focus, state.orientation);
    const focus = geometry.fromScreen(key === 'Home' ? 0 : geometry.numFiles - 1, row, state.orientation);
    return { state: { ...state, focus }, action: NONE, handled: true };
  }
  if (key === 'Enter' || key === ' ' || key === 'Spacebar') {
    return { ...clickSquare(state, state.focus), handled: true };
  }
  if (key === 'Escape') {
    const result = state.selected === null && state.premove ? unpremove(state) : deselect(state);
    return { ...result, handled: result.action.type !== 'none' };
  }
  return { state, action: NONE, handled: false };
}

// ---------------------------------------------------------------------------------------------
// Classes and words

/** The CSS classes of a square, in a stable order: the geometry's (its kind) before the marks. */
export function squareClasses(state, square) {
  const classes = ['sq', ...state.geometry.squareClasses(square)];
  const piece = state.pieces.get(square);
  if (piece) classes.push('occupied', `piece-${piece.color}`);
  if (isMovable(state, square)) classes.push('movable');
  if (isPremovable(state, square)) classes.push('premovable');
  if (state.lastMove && state.lastMove.includes(square)) classes.push('last-move');
  if (state.pendingMove && state.pendingMove.includes(square)) classes.push('pending');
  if (state.selected === square) classes.push('selected');
  if (state.selected && canMove(state, state.selected, square)) classes.push(piece ? 'capture' : 'dest');
  if (state.selected && canPremove(state, state.selected, square)) classes.push('premove-dest');
  if (state.premove?.[0] === square) classes.push('premove-from');
  if (state.premove?.[1] === square) classes.push('premove-to');
  if (state.threats.has(square)) classes.push('threat');
  if (state.hint?.[0] === square) classes.push('hint-from');
  if (state.hint?.[1] === square) classes.push('hint-to');
  return classes;
}

// The board's own words; what squares and pieces are called comes from the geometry and the
// piece set.
const WORDS = {
  en: {
    empty: 'empty', sep: ', ',
    selected: 'selected', dest: 'legal move', capture: 'capture', lastMove: 'last move', threat: 'threatened',
    hintFrom: 'hint: move from here', hintTo: 'hint: move here',
    pending: 'move not confirmed yet', premoveDest: 'premove here', premoveFrom: 'premove from here',
    premoveTo: 'premove to here',
    help: 'Arrow keys move between squares, Enter or Space selects a piece and moves it, Escape cancels.',
  },
  zh: {
    empty: '空', sep: '，',
    selected: '已选中', dest: '可走', capture: '可吃', lastMove: '上一步', threat: '受威胁',
    hintFrom: '提示：走这只', hintTo: '提示：走到这里',
    pending: '这步还未确认', premoveDest: '可预走', premoveFrom: '预走：从这里', premoveTo: '预走：走到这里',
    help: '方向键移动光标，回车或空格键选子、走子，Esc 取消选择。',
    hint: (name, from, to) => `提示：${name} ${from} 走到 ${to}`, takes: (name) => `，吃掉${name}`,
    picked: (name, sq) => `已选中${name} ${sq}。`, moves: (list) => `可走：${list.join('、')}。`,
    noMoves: '没有可走的步。', cleared: '已取消选择。', moved: (name, from, to) => `${name} ${from} 走到 ${to}`,
    refused: '不能走到那里。', stop: '。',
    premoved: (name, from, to) => `预走：${name} ${from} 走到 ${to}`, unpremoved: '已取消预走。',
    premoves: (list) => `可预走：${list.join('、')}。`,
  },
  // Traditional Chinese (Taiwan, Hong Kong, Macau): the same sentences in traditional characters.
  'zh-Hant': {
    empty: '空', sep: '，',
    selected: '已選中', dest: '可走', capture: '可吃', lastMove: '上一步', threat: '受威脅',
    hintFrom: '提示：走這隻', hintTo: '提示：走到這裡',
    pending: '這步還未確認', premoveDest: '可預走', premoveFrom: '預走：從這裡', premoveTo: '預走：走到這裡',
    help: '方向鍵移動游標，Enter 或空白鍵選子、走子，Esc 取消選擇。',
    hint: (name, from, to) => `提示：${name} ${from} 走到 ${to}`, takes: (name) => `，吃掉${name}`,
    picked: (name, sq) => `已選中${name} ${sq}。`, moves: (list) => `可走：${list.join('、')}。`,
    noMoves: '沒有可走的步。', cleared: '已取消選擇。', moved: (name, from, to) => `${name} ${from} 走到 ${to}`,
    refused: '不能走到那裡。', stop: '。',
    premoved: (name, from, to) => `預走：${name} ${from} 走到 ${to}`, unpremoved: '已取消預走。',
    premoves: (list) => `可預走：${list.join('、')}。`,
  },
};

/** Chinese shown in characters of its script: 'zh' simplified, 'zh-Hant' traditional. */
const isChinese = (lang) => lang === 'zh' || lang === 'zh-Hant';

/** The board's words in a language, with its accessible name (from the geometry). */
export function words(lang, geometry = null) {
  const w = WORDS[lang] ?? WORDS.en;
  return geometry ? { ...w, boardLabel: geometry.label(lang) } : w;
}

/** A piece in words, as the piece set names it: "red tiger 虎" / "红方虎". */
export function pieceName(state, piece, { capital = false } = {}) {
  return state.pieceSet.name(piece, pieceLook(state), { capital });
}

/** The accessible name of a square, e.g. "d4, red tiger 虎, strength 6" or "c9, blue trap, empty". */
export function squareLabel(state, square) {
  const w = words(state.lang);
  const parts = [square];
  const terrain = state.geometry.squareWords(square, state.lang);
  if (terrain) parts.push(terrain);
  const piece = state.pieces.get(square);
  if (piece) parts.push(pieceName(state, piece), ...(state.pieceSet.details?.(piece, pieceLook(state)) ?? []));
  else parts.push(w.empty);
  if (state.selected === square) parts.push(w.selected);
  if (state.selected && canMove(state, state.selected, square)) parts.push(piece ? w.capture : w.dest);
  if (state.selected && canPremove(state, state.selected, square)) parts.push(w.premoveDest);
  if (state.lastMove && state.lastMove.includes(square)) parts.push(w.lastMove);
  if (state.pendingMove && state.pendingMove.includes(square)) parts.push(w.pending);
  if (state.premove?.[0] === square) parts.push(w.premoveFrom);
  if (state.premove?.[1] === square) parts.push(w.premoveTo);
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
 * The hint arrow in screen units (one square = 100, so a 7 × 9 board is 700 × 900, as drawn
 * for `orientation`): a shaft from the centre of `from` towards `to` and a triangular head
 * whose tip stops short of the centre of `to`, so that the piece there stays visible.
 */
export function arrowGeometry(geometry, from, to, orientation = 'red') {
  const a = geometry.toScreen(from, orientation);
  const b = geometry.toScreen(to, orientation);
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
      const name = pieceName(state, piece, { capital: true });
      if (isPremovable(state, action.square)) {
        const later = premoveDestsOf(state, action.square);
        if (zh) return w.picked(name, action.square) + (later.length ? w.premoves(later) : w.noMoves);
        return `${name} on ${action.square} selected. ` + (later.length ? `Premoves: ${later.join(', ')}.` : 'No legal moves.');
      }
      const dests = destsOf(state, action.square);
      if (zh) {
        return w.picked(name, action.square) + (dests.length ? w.moves(dests) : w.noMoves);
      }
      return `${name} on ${action.square} selected. ` + (dests.length ? `Moves: ${dests.join(', ')}.` : 'No legal moves.');
    }
    case 'premove': {
      const name = pieceName(state, action.piece, { capital: true });
      if (zh) return w.premoved(name, action.from, action.to) + w.stop;
      return `Premove: ${name} ${action.from} to ${action.to}.`;
    }
    case 'unpremove':
      return zh ? w.unpremoved : 'Premove cancelled.';
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

/** Whether two pieces are alike: every field equal (a piece set's pieces are plain objects). */
function samePiece(a, b) {
  if (!a || !b) return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k]);
}

/**
 * How to get from one position (Map square → piece) to another: which pieces move
 * ({from, to}), which vanish (captured) and which appear. A hint [from, to] (the last move)
 * is matched first; other pieces that moved are matched to the nearest vanished piece alike.
 */
export function diffPieces(geometry, before, after, hint = null) {
  const distance = (a, b) => {
    const p = geometry.coords(a);
    const q = geometry.coords(b);
    return Math.hypot(p.file - q.file, p.rank - q.rank);
  };
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
