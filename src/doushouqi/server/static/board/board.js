// The board component: a rules-free board for the browser, in the spirit of chessground. It is
// told the position and the legal destinations and reports the moves the user makes; it never
// decides what is legal. Nor does it know a game: the caller gives it a `geometry` (squares of
// a grid, or points joined by lines; their special places and looks: board/geometry.js) and a
// `pieceSet` (letters, pictures and names of the pieces). Jungle's (斗兽棋, 7 × 9 squares) are in
// games/jungle/, 老虎棋's (87 points and their lines) in games/tiger/. The logic lives in
// state.js (pure, tested under Node); this file only turns that state into DOM and DOM events
// into state changes. Include board.css on the page, and the game's stylesheets (Jungle's:
// games/jungle/geometry.css and pieces.css); nothing else is fetched (all is inline SVG).
//
//   import { createBoard } from '../board/board.js';
//   import { JUNGLE } from '../games/jungle/index.js';   // {geometry, pieceSet}
//   const board = createBoard(document.querySelector('#board'), {
//     ...JUNGLE,
//     position: 'l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L',
//     movableColor: 'red', dests: { g3: ['g4', 'f3', 'g2'] },
//     events: { move: (from, to) => socket.send(...) },
//   });
//
// Config (geometry and pieceSet are required and fixed; the rest is optional, and the same keys
// work in board.set):
//   geometry      the squares (gridGeometry in geometry.js): files × ranks, the classes, words
//                 and art of special squares (water, traps, dens), regions drawn as one (lakes)
//   pieceSet      the pieces: {start, letters, fromLetter(ch), letterOf(piece), kindOf(piece),
//                 svg(piece, look), name(piece, look, {capital}), details(piece, look), options};
//                 `look` is {lang, ...the piece set's options}. Jungle's: games/jungle/pieces.js
//   position      placement (docs/rules.md 7a) or a whole position string; default: the piece
//                 set's start
//   orientation   'red' (Red at the bottom, default) | 'blue'
//   turnColor     'red' | 'blue'
//   movableColor  'red' | 'blue' | 'both' | null (default: nothing can be moved)
//   dests         Map or object: square → array of squares the piece there may move to
//   lastMove      [from, to] or null (highlighted)
//   pendingMove   [from, to] or null: a move the host shows made but not yet confirmed (e.g. by a
//                 server); its squares and the moved piece are drawn as pending. The host gives
//                 the position after it: this only marks it
//   premoveColor  'red' | 'blue' | null: whose pieces the user may premove (pick up while the
//                 other side is to move); a premove is only remembered and reported, never made
//   premoveDests  Map or object like dests: where each such piece might be premoved to (the
//                 host's guess; whether the premove is legal when its turn comes is the host's)
//   premove       [from, to] or null: the premove set (highlighted apart from the last move); the
//                 user sets it (a drag, or two taps) and cancels it (a tap on any other square,
//                 Escape); the host clears it when it plays or drops it
//   hint          [from, to] or null: a suggested move, drawn as an arrow with both squares
//                 marked (and named in their labels); announced when it changes; a move clears it
//   threats       squares to mark (pieces the opponent could capture, attackers of a den)
//   selected      square of a movable piece to select, or null
//   lang          'zh' (default) | 'zh-Hant' | 'en': words of the labels and announcements
//                 (and what the piece set draws: Jungle's 'zh-Hant' shows 貓 獅 in traditional script)
//   animation     {enabled: true, duration: 220} (ms; off under prefers-reduced-motion)
//   announceMoves true (default) | false: whether the live region reads out moves (a host
//                 that announces moves itself turns this off so that nothing is read twice)
//   events        {move(from, to), select(square | null), premove(from, to) (null, null: cancelled),
//                 illegal(from, to): a piece that may move was sent (tap or drop) to a square that
//                 is no destination; the board only reports it, the host may say why (lessons)}
//   …and the piece set's options; Jungle's: wolfName 'wolf' (狼, default) | 'fox' (狐), and
//   ranks {animal: number} shown on the pieces (default 象8 狮7 虎6 豹5 狼4 狗3 猫2 鼠1).
// Unknown keys and bad values throw TypeError; a malformed position throws PlacementError.
//
// API: set(partial), move(from, to), setPosition(placement, lastMove?), toggleOrientation(),
// cancelSelection(), getState(), destroy(), and `element` (the board's root element).
// A user move is shown at once and its dests are dropped; the host then sends the next state
// (set / setPosition), which corrects the board if the server refused the move.

import * as S from './state.js';

let instances = 0;

const HTML_LANG = { zh: 'zh-CN', 'zh-Hant': 'zh-Hant', en: 'en' };

function px(n) {
  return `${n}px`;
}

/**
 * Create a board inside `element` (its content is replaced). `config` is described in
 * state.js `configure`; `config.events` may hold `move(from, to)` (the user made a move; the
 * board already shows it) and `select(square)` (a piece was selected; null on deselect).
 */
export function createBoard(element, config = {}) {
  if (!element || typeof element.appendChild !== 'function') throw new TypeError('createBoard needs a DOM element');
  const id = `dsq${++instances}`;
  let events = config.events ?? {};
  let state = S.createState(config);
  const { geometry, pieceSet } = state;
  const doc = element.ownerDocument;
  const win = doc.defaultView;
  const reducedMotion = win?.matchMedia ? win.matchMedia('(prefers-reduced-motion: reduce)') : null;

  // ----- DOM skeleton -----------------------------------------------------------------------
  const root = doc.createElement('div');
  // The geometry's kind (grid or points) and its own class: what board.css and a game's
  // stylesheet draw by.
  root.className = ['dsq-board', `dsq-kind-${geometry.kind ?? 'grid'}`, geometry.className].filter(Boolean).join(' ');
  root.innerHTML = `
    <div class="dsq-frame">
      <div class="dsq-coords dsq-files dsq-top" aria-hidden="true"></div>
      <div class="dsq-coords dsq-ranks dsq-left" aria-hidden="true"></div>
      <div class="dsq-field">
        <div class="dsq-squares" role="group" aria-describedby="${id}-help"></div>
        <div class="dsq-pieces" aria-hidden="true"></div>
        <div class="dsq-overlay" aria-hidden="true"><div class="dsq-cursor" hidden></div>
          <svg class="dsq-arrows" viewBox="0 0 ${geometry.numFiles * 100} ${geometry.numRanks * 100}" focusable="false" hidden>
            <line class="dsq-arrow-shaft"/><polygon class="dsq-arrow-head"/></svg></div>
      </div>
      <div class="dsq-coords dsq-ranks dsq-right" aria-hidden="true"></div>
      <div class="dsq-coords dsq-files dsq-bottom" aria-hidden="true"></div>
    </div>
    <p class="dsq-sr-only" id="${id}-help"></p>
    <p class="dsq-sr-only" aria-live="polite" aria-atomic="true"></p>`;
  const squaresEl = root.querySelector('.dsq-squares');
  const piecesEl = root.querySelector('.dsq-pieces');
  const cursorEl = root.querySelector('.dsq-cursor');
  const arrowEl = root.querySelector('.dsq-arrows');
  const helpEl = root.querySelector(`#${id}-help`);
  const liveEl = root.querySelector('[aria-live]');
  const coordEls = [...root.querySelectorAll('.dsq-coords')];

  // The grid's size is the geometry's: board.css lays the squares, pieces and edges out by it.
  root.style.setProperty('--dsq-files', String(geometry.numFiles));
  root.style.setProperty('--dsq-ranks', String(geometry.numRanks));

  // A point geometry's lines (and areas) under everything, redrawn when the board turns.
  const backdropEl = geometry.backdrop ? doc.createElement('div') : null;
  if (backdropEl) {
    backdropEl.className = 'dsq-backdrop';
    backdropEl.setAttribute('aria-hidden', 'true');
    squaresEl.appendChild(backdropEl);
  }

  // Regions drawn as one under their squares (Jungle's lakes).
  const regionEls = geometry.regions.map((region) => {
    const el = doc.createElement('div');
    el.className = region.className;
    el.setAttribute('aria-hidden', 'true');
    el.innerHTML = region.html ?? '';
    squaresEl.appendChild(el);
    return el;
  });

  const squareEls = new Map();
  for (const sq of geometry.squares) {
    const el = doc.createElement('div');
    el.setAttribute('role', 'button');
    el.dataset.square = sq;
    squareEls.set(sq, el);
  }

  element.replaceChildren(root);

  // ----- rendering --------------------------------------------------------------------------
  const pieceEls = new Map(); // square → element
  const timers = new Set();
  let drawn = { orientation: null, lang: null, pieceLook: null, arrow: null };
  let drag = null;
  let pointerInput = false; // the keyboard cursor shows only while the keyboard is in use

  const later = (fn, ms) => {
    const t = win.setTimeout(() => { timers.delete(t); fn(); }, ms);
    timers.add(t);
  };
  const animationMs = () => (state.animation.enabled && !reducedMotion?.matches ? state.animation.duration : 0);
  const pieceLook = () => JSON.stringify(S.pieceLook(state));

  function placePiece(el, square) {
    const { col, row } = geometry.toScreen(square, state.orientation);
    el.style.transform = `translate(${col * 100}%, ${row * 100}%)`;
  }

  function drawPiece(el, piece) {
    el.className = `dsq-piece ${piece.color} ${pieceSet.kindOf(piece)}`;
    el.innerHTML = pieceSet.svg(piece, S.pieceLook(state));
  }

  function newPiece(piece, square) {
    const el = doc.createElement('div');
    drawPiece(el, piece);
    el.dataset.square = square;
    placePiece(el, square);
    piecesEl.appendChild(el);
    pieceEls.set(square, el);
    return el;
  }

  function setDuration(el, ms) {
    el.style.setProperty('--dsq-ms', `${ms}ms`);
  }

  function slide(el, square, ms) {
    setDuration(el, ms);
    if (ms) {
      el.classList.add('moving');
      later(() => el.classList.remove('moving'), ms + 30);
    }
    placePiece(el, square);
  }

  /** Bring the piece elements from one position to the next, animating when `ms` > 0. */
  function syncPieces(before, after, hint, ms) {
    const diff = S.diffPieces(geometry, before, after, hint);
    for (const sq of diff.removed) {
      const el = pieceEls.get(sq);
      pieceEls.delete(sq);
      if (!el) continue;
      if (ms) {
        setDuration(el, ms);
        el.classList.add('captured');
        later(() => el.remove(), ms + 60);
      } else {
        el.remove();
      }
    }
    const moving = diff.moves.map((m) => ({ ...m, el: pieceEls.get(m.from) }));
    for (const m of moving) pieceEls.delete(m.from);
    for (const m of moving) {
      if (!m.el) {
        newPiece(after.get(m.to), m.to);
        continue;
      }
      pieceEls.set(m.to, m.el);
      m.el.dataset.square = m.to;
      slide(m.el, m.to, ms);
    }
    for (const sq of diff.added) {
      const el = newPiece(after.get(sq), sq);
      if (ms) {
        setDuration(el, ms);
        el.classList.add('appearing');
        later(() => el.classList.remove('appearing'), 20);
      }
    }
  }

  function layout() {
    const { orientation } = state;
    root.dataset.orientation = orientation;
    // DOM order follows the drawn order, so that reading order matches what is seen.
    if (backdropEl) backdropEl.innerHTML = geometry.backdrop(orientation);
    for (let row = 0; row < geometry.numRanks; row++) {
      for (let col = 0; col < geometry.numFiles; col++) {
        const el = squareEls.get(geometry.fromScreen(col, row, orientation));
        if (!el) continue; // a hole of a point geometry: nothing there
        el.style.gridColumn = String(col + 1);
        el.style.gridRow = String(row + 1);
        squaresEl.appendChild(el);
      }
    }
    regionEls.forEach((region, i) => {
      const a = geometry.regionArea(i, orientation);
      region.style.gridArea = `${a.rowStart} / ${a.colStart} / ${a.rowEnd} / ${a.colEnd}`;
    });
    const { files, ranks } = geometry.edgeLabels(orientation);
    for (const el of coordEls) {
      const labels = el.classList.contains('dsq-files') ? files : ranks;
      el.innerHTML = labels.map((t) => `<span>${t}</span>`).join('');
    }
    for (const [sq, el] of pieceEls) {
      setDuration(el, 0);
      placePiece(el, sq);
    }
  }

  function render() {
    if (drawn.orientation !== state.orientation) layout();
    if (drawn.lang !== state.lang) {
      const w = S.words(state.lang, geometry);
      root.lang = HTML_LANG[state.lang];
      squaresEl.setAttribute('aria-label', w.boardLabel);
      helpEl.textContent = w.help;
      // What the geometry draws in a square (Jungle's den and trap names) is in the language.
      for (const [sq, el] of squareEls) {
        const art = geometry.squareArt(sq, state.lang);
        if (art || el.firstChild) el.innerHTML = art;
      }
    }
    if (drawn.pieceLook !== pieceLook()) {
      for (const [sq, el] of pieceEls) drawPiece(el, state.pieces.get(sq));
    }
    const arrow = state.hint ? `${state.hint.join('')}|${state.orientation}` : '';
    if (drawn.arrow !== arrow) drawArrow();
    drawn = { orientation: state.orientation, lang: state.lang, pieceLook: pieceLook(), arrow };
    root.classList.toggle('dsq-interactive', S.isInteractive(state));
    for (const [sq, el] of pieceEls) el.classList.toggle('pending', Boolean(state.pendingMove && state.pendingMove[1] === sq));
    for (const [sq, el] of squareEls) {
      const cls = S.squareClasses(state, sq).join(' ');
      if (el.className !== cls) el.className = cls;
      const label = S.squareLabel(state, sq);
      if (el.getAttribute('aria-label') !== label) el.setAttribute('aria-label', label);
      const tabIndex = sq === state.focus ? '0' : '-1';
      if (el.getAttribute('tabindex') !== tabIndex) el.setAttribute('tabindex', tabIndex);
    }
    drawCursor();
  }

  /** The hint arrow over the board (hidden without a hint). */
  function drawArrow() {
    arrowEl.toggleAttribute('hidden', !state.hint); // an <svg> has no `hidden` property
    if (!state.hint) return;
    const { shaft, head } = S.arrowGeometry(geometry, state.hint[0], state.hint[1], state.orientation);
    const line = arrowEl.querySelector('line');
    for (const [key, value] of Object.entries(shaft)) line.setAttribute(key, String(value));
    arrowEl.querySelector('polygon').setAttribute('points', head.map((p) => p.join(',')).join(' '));
  }

  function drawCursor() {
    const active = doc.activeElement;
    const show = Boolean(active && squaresEl.contains(active) && active.matches(':focus-visible') && !pointerInput);
    cursorEl.hidden = !show;
    if (show) {
      const { col, row } = geometry.toScreen(active.dataset.square, state.orientation);
      cursorEl.style.transform = `translate(${col * 100}%, ${row * 100}%)`;
    }
  }

  let lastSaid = '';
  function say(text) {
    if (!text) return;
    // A repeated message is changed slightly so that screen readers read it again.
    lastSaid = text === lastSaid ? `${text}\u00a0` : text;
    liveEl.textContent = lastSaid;
  }

  /** Make `next` the state: redraw, announce the action and tell the host about it. */
  function commit(next, action, { ms = animationMs(), hint = next.lastMove } = {}) {
    const before = state;
    state = next;
    if (before.pieces !== next.pieces) syncPieces(before.pieces, next.pieces, hint, ms);
    render();
    if (!action || action.type === 'none') return;
    if (action.type !== 'move' || state.announceMoves) say(S.announce(state, action));
    if (action.type === 'move') events.move?.(action.from, action.to);
    else if (action.type === 'premove') events.premove?.(action.from, action.to);
    else if (action.type === 'unpremove') events.premove?.(null, null);
    else if (action.type === 'select') events.select?.(action.square);
    else if (action.type === 'deselect') events.select?.(null);
    if (action.tried) events.illegal?.(...action.tried);
  }

  function focusSquare(square) {
    const el = squareEls.get(square);
    if (el && doc.activeElement !== el) el.focus({ preventScroll: true });
  }

  // ----- pointer: click-click and drag ------------------------------------------------------
  function squareAtEvent(e) {
    const rect = squaresEl.getBoundingClientRect();
    return geometry.squareAtPoint(e.clientX - rect.left, e.clientY - rect.top, rect.width, rect.height, state.orientation);
  }

  function markDragOver(square) {
    if (drag.over === square) return;
    if (drag.over) squareEls.get(drag.over)?.classList.remove('drag-over');
    drag.over = square;
    if (square && (S.canMove(state, drag.from, square) || S.canPremove(state, drag.from, square))) {
      squareEls.get(square)?.classList.add('drag-over');
    }
  }

  function endDrag() {
    if (!drag) return null;
    const d = drag;
    if (d.over) squareEls.get(d.over)?.classList.remove('drag-over');
    if (d.el) d.el.classList.remove('dragging');
    root.classList.remove('dsq-dragging');
    drag = null;
    return d;
  }

  /** Stop a drag in progress (the position or the orientation changed under it). */
  function cancelDrag() {
    const d = endDrag();
    if (d?.moved && d.el && pieceEls.get(d.from) === d.el) {
      setDuration(d.el, 0);
      placePiece(d.el, d.from);
    }
  }

  function onPointerDown(e) {
    if (drag || (e.pointerType === 'mouse' && e.button !== 0)) return;
    pointerInput = true;
    if (!S.isInteractive(state)) {
      drawCursor();
      return;
    }
    const square = squareAtEvent(e);
    const result = S.pointerDown(state, square);
    commit(result.state, result.action);
    if (square) focusSquare(state.focus);
    if (!result.drag) return;
    e.preventDefault();
    drag = {
      from: square, pointerId: e.pointerId, x: e.clientX, y: e.clientY, moved: false,
      wasSelected: result.wasSelected, el: pieceEls.get(square), over: null,
      threshold: e.pointerType === 'mouse' ? 4 : 9,
    };
    try { squaresEl.setPointerCapture(e.pointerId); } catch { /* pointer already gone */ }
  }

  function onPointerMove(e) {
    if (!drag || e.pointerId !== drag.pointerId) return;
    if (!drag.moved) {
      if (Math.hypot(e.clientX - drag.x, e.clientY - drag.y) < drag.threshold) return;
      drag.moved = true;
      drag.el?.classList.add('dragging');
      root.classList.add('dsq-dragging');
    }
    e.preventDefault();
    const rect = squaresEl.getBoundingClientRect();
    if (drag.el) {
      const w = rect.width / geometry.numFiles;
      const h = rect.height / geometry.numRanks;
      setDuration(drag.el, 0);
      drag.el.style.transform = `translate(${px(e.clientX - rect.left - w / 2)}, ${px(e.clientY - rect.top - h / 2)})`;
    }
    markDragOver(squareAtEvent(e));
  }

  function onPointerUp(e) {
    if (!drag || e.pointerId !== drag.pointerId) return;
    const d = endDrag();
    const target = squareAtEvent(e);
    const result = S.pointerUp(state, d.from, target, { dragged: d.moved, wasSelected: d.wasSelected });
    if (result.action.type === 'move') {
      commit(result.state, result.action, { ms: 0 }); // the piece is already where it was dropped
      focusSquare(state.focus);
      return;
    }
    if (d.moved && d.el) slide(d.el, d.from, animationMs()); // snap back
    commit(result.state, result.action);
  }

  function onPointerCancel(e) {
    if (!drag || e.pointerId !== drag.pointerId) return;
    const d = endDrag();
    if (d.moved && d.el) slide(d.el, d.from, animationMs());
  }

  // ----- keyboard ---------------------------------------------------------------------------
  function onKeyDown(e) {
    if (!e.target.dataset?.square || e.altKey || e.ctrlKey || e.metaKey) return;
    pointerInput = false;
    const result = S.keyDown({ ...state, focus: e.target.dataset.square }, e.key);
    if (!result.handled) return;
    e.preventDefault();
    const interactive = S.isInteractive(state);
    if (!interactive && result.action.type !== 'none') return; // a board to look at only
    commit(result.state, result.action);
    focusSquare(state.focus);
    drawCursor();
  }

  function onFocusIn(e) {
    const sq = e.target.dataset?.square;
    if (sq && sq !== state.focus) {
      state = { ...state, focus: sq };
      render();
    }
    drawCursor();
  }

  const listeners = [
    [squaresEl, 'pointerdown', onPointerDown],
    [squaresEl, 'pointermove', onPointerMove],
    [squaresEl, 'pointerup', onPointerUp],
    [squaresEl, 'pointercancel', onPointerCancel],
    [squaresEl, 'lostpointercapture', onPointerCancel],
    [squaresEl, 'keydown', onKeyDown],
    [squaresEl, 'focusin', onFocusIn],
    [squaresEl, 'focusout', () => win.setTimeout(drawCursor, 0)],
    [squaresEl, 'contextmenu', (e) => e.preventDefault()],
    [doc, 'keydown', () => { pointerInput = false; }], // e.g. Tab back onto the board
  ];
  for (const [target, type, fn] of listeners) target.addEventListener(type, fn);

  syncPieces(new Map(), state.pieces, null, 0);
  render();

  // ----- API --------------------------------------------------------------------------------
  /** What to say about a new position with a new last move (the opponent moved): the move. */
  function arrivalText(before, after) {
    if (!after.lastMove) return '';
    const sameMove = before.lastMove && before.lastMove[0] === after.lastMove[0] && before.lastMove[1] === after.lastMove[1];
    if (sameMove || S.placementToString(before.pieces, geometry, pieceSet) === S.placementToString(after.pieces, geometry, pieceSet)) return '';
    const [from, to] = after.lastMove;
    const piece = after.pieces.get(to);
    if (!piece) return '';
    const prior = before.pieces.get(to);
    const captured = prior && prior.color !== piece.color ? prior : null;
    return S.announce(after, { type: 'move', from, to, piece, captured });
  }

  const api = {
    /** Change any part of the configuration (the same keys as createBoard's config). */
    set(partial = {}) {
      if ('events' in partial) events = partial.events ?? {};
      const before = state;
      const next = S.configure(state, partial);
      if (drag && ('position' in partial || before.orientation !== next.orientation)) cancelDrag();
      commit(next, null);
      // One message for both, so that the second does not cut the first off.
      const arrival = 'position' in partial && next.announceMoves ? arrivalText(before, next) : '';
      const newHint = next.hint && next.hint.join() !== before.hint?.join() ? S.hintText(next) : '';
      say([arrival, newHint].filter(Boolean).join(' '));
    },
    /** Play a move the server confirmed (animated). Returns false when `from` is empty. */
    move(from, to) {
      if (!geometry.isSquare(from) || !geometry.isSquare(to)) throw new TypeError(`move: not squares: ${from}, ${to}`);
      const piece = state.pieces.get(from);
      if (!piece) return false;
      cancelDrag();
      const { state: next, captured } = S.applyMove(state, from, to);
      commit(next, null);
      if (state.announceMoves) say(S.announce(state, { type: 'move', from, to, piece, captured }));
      return true;
    },
    /** Show a placement (or full position string), with an optional last move [from, to]. */
    setPosition(placement, lastMove = null) {
      api.set({ position: placement, lastMove });
    },
    toggleOrientation() {
      api.set({ orientation: state.orientation === 'red' ? 'blue' : 'red' });
    },
    cancelSelection() {
      if (state.selected) commit(S.cancelSelection(state), null);
    },
    /** A snapshot of the state (plain values; changing it changes nothing). */
    getState() {
      return {
        position: S.placementToString(state.pieces, geometry, pieceSet),
        orientation: state.orientation,
        turnColor: state.turnColor,
        movableColor: state.movableColor,
        dests: Object.fromEntries([...state.dests].map(([k, v]) => [k, [...v]])),
        lastMove: state.lastMove ? [...state.lastMove] : null,
        pendingMove: state.pendingMove ? [...state.pendingMove] : null,
        premoveColor: state.premoveColor,
        premoveDests: Object.fromEntries([...state.premoveDests].map(([k, v]) => [k, [...v]])),
        premove: state.premove ? [...state.premove] : null,
        hint: state.hint ? [...state.hint] : null,
        threats: [...state.threats],
        selected: state.selected,
        focus: state.focus,
        lang: state.lang,
        ...structuredClone(Object.fromEntries(S.pieceOptionKeys(state).map((k) => [k, state[k]]))),
        animation: { ...state.animation },
        announceMoves: state.announceMoves,
      };
    },
    /** Remove the board from the page and stop listening. */
    destroy() {
      cancelDrag();
      for (const [target, type, fn] of listeners) target.removeEventListener(type, fn);
      for (const t of timers) win.clearTimeout(t);
      timers.clear();
      root.remove();
    },
    /** The board's root element (for styling and tests). */
    element: root,
  };
  return api;
}

export { S as boardState };
