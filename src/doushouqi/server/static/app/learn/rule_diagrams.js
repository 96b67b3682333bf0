// The rules page's diagrams: beside each rule point, small read-only boards that show the rule
// on a position (drawn by the board component), with arrows for the moves the rule allows
// (green) or forbids (red, dashed, ending in a cross), rings on the squares that matter, and a
// caption. The positions are the game's (games/<game>/rule_diagram_data.js, checked with the
// rules library by tests/server/static/test_rule_diagrams.py and test_tiger_rule_diagrams.py);
// where the rule sets differ, the chosen set's options pick the diagram that shows its own
// behaviour. The overlays are drawn in the board's own units (100 a cell), whatever its size.

import { createBoard } from '../../board/board.js';
import { gameClient } from '../../games/index.js';
import { h } from '../shell/dom.js';
import { currentLang, t } from '../shell/i18n.js';
import { pieceStyle } from '../shell/appearance.js';

const SVG = 'http://www.w3.org/2000/svg';

// The boards drawn so far. The rules page has no cleanup of its own: a board whose page was
// replaced (another rule set chosen, another page) is destroyed the next time diagrams are drawn,
// so its document listener does not live on.
let drawn = [];
function forgetReplacedBoards() {
  drawn = drawn.filter((board) => {
    if (board.element.isConnected) return true;
    board.destroy();
    return false;
  });
}

/** Whether a diagram of `game` is for the rule set `set` (its options as /api/rules gives them). */
export function diagramApplies(diagram, set, game = gameClient()) {
  return Object.entries(diagram.when ?? {}).every(([option, value]) =>
    (option in set ? set[option] : game.ruleDiagrams.defaults[option]) === value);
}

/** The diagrams of one rule point for the rule set `set`, in the data's order. */
export function diagramsFor(set, point, game = gameClient()) {
  return game.ruleDiagrams.diagrams.filter((d) => d.point === point && diagramApplies(d, set, game));
}

function svgEl(tag, attrs) {
  const el = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, String(value));
  return el;
}

/** The centre of a place in the board's overlay units (100 a cell; seat 0's view). */
function centre(game, square) {
  const { col, row } = game.geometry.toScreen(square, 'red');
  return { x: col * 100 + 50, y: row * 100 + 50 };
}

/**
 * An arrow from one square towards another. It runs from the edge of the moving piece to the
 * edge of the target square's piece, so that both characters stay readable; a forbidden one
 * ends in a cross where it would enter the target square.
 */
function arrow(game, { move, legal }) {
  const [fromPlace, toPlace] = game.moveSquares(move);
  const from = centre(game, fromPlace);
  const to = centre(game, toPlace);
  const length = Math.hypot(to.x - from.x, to.y - from.y);
  const ux = (to.x - from.x) / length;
  const uy = (to.y - from.y) / length;
  const at = (p, d) => ({ x: p.x + ux * d, y: p.y + uy * d });
  const g = svgEl('g', { class: `rd-arrow ${legal ? 'can' : 'cannot'}`, 'data-move': move });
  const start = at(from, 30);
  if (legal) {
    const tip = at(to, -30);
    const base = at(tip, -30);
    g.append(
      svgEl('line', { class: 'rd-shaft', x1: start.x, y1: start.y, x2: base.x, y2: base.y }),
      svgEl('polygon', {
        class: 'rd-head',
        points: [[tip.x, tip.y], [base.x - uy * 22, base.y + ux * 22], [base.x + uy * 22, base.y - ux * 22]]
          .map((p) => p.join(',')).join(' '),
      }));
  } else {
    const cross = at(to, -50);
    const r = 15;
    g.append(
      svgEl('line', { class: 'rd-shaft', x1: start.x, y1: start.y, x2: cross.x, y2: cross.y }),
      svgEl('path', { class: 'rd-cross', d: `M${cross.x - r} ${cross.y - r}L${cross.x + r} ${cross.y + r}M${cross.x + r} ${cross.y - r}L${cross.x - r} ${cross.y + r}` }));
  }
  return g;
}

function layer(game, name) {
  const { numFiles, numRanks } = game.geometry;
  return svgEl('svg', { class: `rd-layer ${name}`, viewBox: `0 0 ${numFiles * 100} ${numRanks * 100}`, 'aria-hidden': 'true', focusable: 'false' });
}

/**
 * The rings, and a tint on each arrow's target square (green: allowed, red: not), drawn under
 * the pieces: a ringed piece stays readable, and a one-square capture, whose arrow is short,
 * still shows where it goes.
 */
function marksLayer(game, diagram) {
  const svg = layer(game, 'rd-marks');
  for (const { move, legal } of diagram.arrows) {
    const { x, y } = centre(game, game.moveSquares(move)[1]);
    svg.append(svgEl('rect', { class: `rd-target ${legal ? 'can' : 'cannot'}`, x: x - 50, y: y - 50, width: 100, height: 100 }));
  }
  for (const square of diagram.marks) {
    const { x, y } = centre(game, square);
    svg.append(svgEl('rect', { class: 'rd-mark', 'data-square': square, x: x - 44, y: y - 44, width: 88, height: 88, rx: 14 }));
  }
  return svg;
}

/** The arrows, drawn over the pieces (a capture's arrow ends on the piece it takes). */
function arrowsLayer(game, diagram) {
  const svg = layer(game, 'rd-arrows');
  for (const a of diagram.arrows) svg.append(arrow(game, a));
  return svg;
}

/** One diagram: the board (read-only, out of the tab order) and its caption. */
function figure(game, diagram, set) {
  const box = h('div', { class: 'rd-board', inert: true, 'aria-hidden': 'true' });
  const config = {
    position: diagram.fen, lang: currentLang(), pieceStyle: pieceStyle(game), announceMoves: false, animation: { enabled: false },
    ...game.lookOf(set),
  };
  const board = createBoard(box, { ...game.boardFor(set), ...config });
  drawn.push(board);
  const pieces = board.element.querySelector('.dsq-pieces');
  pieces?.before(marksLayer(game, diagram));
  pieces?.after(arrowsLayer(game, diagram));
  return h('figure', { class: 'rule-diagram', dataset: { diagram: diagram.id } },
    box, h('figcaption', {}, game.namesIn(set, t(diagram.caption))));
}

/**
 * The diagrams of a rule point (`board`, `pieces`, `move`, `water`, `capture`, `win`) for the
 * rule set `set`, in a box that sits under the point's text on a phone and beside it on a
 * desktop; null when the point has none.
 */
export function ruleDiagrams(set, point, game = gameClient()) {
  const diagrams = diagramsFor(set, point, game);
  if (!diagrams.length) return null;
  // The new page replaces the old one right after it is built: clean up once that is done.
  setTimeout(forgetReplacedBoards, 0);
  return h('div', { class: 'rule-diagrams', dataset: { point } }, diagrams.map((d) => figure(game, d, set)));
}
