// The evaluation graph of the replay page, and the arithmetic behind it.
//
// Every score here is from Red's view, in centipawns, as the server's analysis gives it
// (`red_cp`, with a forced den entry as ±DEN_SCORE). The graph shows plies left to right and
// Red's advantage upwards; scores are clipped to ±CP_LIMIT so that one big number does not
// flatten the rest, and den scores sit on the edges. Everything but `drawEvalGraph` is pure
// (no DOM) and tested under Node: tests/client/evalgraph.test.mjs.
// `analysisQuery` builds the request for one point of the graph.

export const CP_LIMIT = 1500;
export const DEN_SCORE = 10000;
// Den scores may come as ±(DEN_SCORE − distance); anything this big is one.
const DEN_THRESHOLD = 9000;

const SVG_NS = 'http://www.w3.org/2000/svg';

export function isDenScore(score) {
  return typeof score === 'number' && Math.abs(score) >= DEN_THRESHOLD;
}

/** A score on the graph's scale: clipped to ±CP_LIMIT; null (no score) stays null. */
export function graphValue(score) {
  if (typeof score !== 'number' || !Number.isFinite(score)) return null;
  return Math.max(-CP_LIMIT, Math.min(CP_LIMIT, score));
}

/** The side to move in a position string: its second field is `b` for Blue (`w`/`r`: Red). */
export function turnOfFen(fen) {
  return String(fen).trim().split(/\s+/)[1] === 'b' ? 'blue' : 'red';
}

/**
 * The Red-view score of one analysed position, or null when there is none yet. A position
 * where the game is over has no engine score; the record's result stands in for it
 * ('1-0': Red won, at the top edge; '0-1': at the bottom; a draw: zero).
 */
export function positionScore(analysis, result = null) {
  if (!analysis) return null;
  const over = analysis.bestmove === null && (analysis.score === null || analysis.score === undefined);
  if (over) {
    if (result === '1-0') return DEN_SCORE;
    if (result === '0-1') return -DEN_SCORE;
    if (result === '1/2-1/2') return 0;
  }
  return typeof analysis.red_cp === 'number' ? analysis.red_cp : null;
}

/**
 * The engine's score of a position in words' parts, from the side that stands better:
 * {kind: 'cp', side, pawns} (pawns: one decimal, never negative) or {kind: 'den', side, moves}
 * (that side enters the den in `moves` moves) or {kind: 'win', side, moves} (wins in `moves`
 * moves) or {kind: 'even'} or {kind: 'over'} (game over)
 * or null (no analysis). `analysis.score` is the side to move's view, `turn` 0 Red / 1 Blue.
 */
export function describeScore(analysis) {
  if (!analysis) return null;
  const score = analysis.score;
  if (score === null || score === undefined) return { kind: 'over' };
  const mover = analysis.turn === 1 ? 'blue' : 'red';
  const other = mover === 'red' ? 'blue' : 'red';
  for (const kind of ['den', 'win']) { // Jungle's den entry; any game's forced win
    if (typeof score[kind] === 'number') {
      return { kind, side: score[kind] > 0 ? mover : other, moves: Math.max(1, Math.abs(score[kind])) };
    }
  }
  const cp = typeof score.cp === 'number' ? score.cp : 0;
  const pawns = Math.round(Math.abs(cp) / 10) / 10;
  if (pawns === 0) return { kind: 'even' };
  return { kind: 'cp', side: cp > 0 ? mover : other, pawns: pawns.toFixed(1) };
}

// ----- what to ask the server -------------------------------------------------------------

/**
 * The body of `POST /api/analysis` for position `ply` of a replay: the start position and the
 * moves up to it (passes, `0000`, included), so that the engine knows the history (repetition
 * rules). `fens[0]` is the start position.
 */
export function analysisQuery({ rules, fens, moves, ply, movetime }) {
  return { rules, fen: fens[0], moves: moves.slice(0, ply), movetime };
}

// ----- geometry -----------------------------------------------------------------------------

/** x of ply `ply` among `count` positions (plies 0 … count − 1) across `width`. */
export function xOfPly(ply, count, width) {
  if (count <= 1) return width / 2;
  return (ply / (count - 1)) * width;
}

/** y of a graph value (±CP_LIMIT) in a graph `height` high with `pad` kept free at both edges. */
export function yOfValue(value, height, pad = 0) {
  const half = height / 2;
  return half - (value / CP_LIMIT) * (half - pad);
}

/** The ply nearest to a point `fraction` (0 … 1) of the way across the graph. */
export function plyAtFraction(fraction, count) {
  if (count <= 1 || !Number.isFinite(fraction)) return 0;
  const f = Math.max(0, Math.min(1, fraction));
  return Math.round(f * (count - 1));
}

const round = (n) => Math.round(n * 10) / 10;

/**
 * Everything the graph draws, as numbers and SVG path data: the zero line's y, the score line
 * and the area between it and the zero line (`line`, `area`: one sub-path per run of known
 * scores), one dot per known score ({ply, x, y, den}) and the x of the current ply.
 */
export function graphShape(scores, { width, height, pad = 4, current = 0 }) {
  const count = scores.length;
  const zeroY = round(yOfValue(0, height, pad));
  const dots = [];
  const runs = [];
  let run = null;
  scores.forEach((score, ply) => {
    const value = graphValue(score);
    if (value === null) {
      run = null;
      return;
    }
    const dot = { ply, x: round(xOfPly(ply, count, width)), y: round(yOfValue(value, height, pad)), den: isDenScore(score) };
    dots.push(dot);
    if (!run) runs.push((run = []));
    run.push(dot);
  });
  const line = runs.map((r) => r.map((d, i) => `${i ? 'L' : 'M'}${d.x} ${d.y}`).join('')).join('');
  const area = runs
    .map((r) => `M${r[0].x} ${zeroY}${r.map((d) => `L${d.x} ${d.y}`).join('')}L${r[r.length - 1].x} ${zeroY}Z`)
    .join('');
  return { zeroY, line, area, dots, currentX: round(xOfPly(current, count, width)) };
}

// ----- drawing (browser only) ---------------------------------------------------------------

function svg(tag, attrs) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
}

/**
 * Draw the graph into `element` (an <svg>; its content is replaced). The picture stretches to
 * the element's size; lines keep their width and dots stay round (zero-length round-capped
 * strokes). `mistakes` (a Set of plies) get a warning dot; `grades` (a Map of ply → {grade}, the
 * server's review) name the dot's grade in its class (inaccuracy, mistake, blunder).
 */
export function drawEvalGraph(element, scores, { current = 0, mistakes = new Set(), grades = new Map(), width = 600, height = 150 } = {}) {
  const shape = graphShape(scores, { width, height, current, pad: 8 }); // room for the dots on the edges
  element.setAttribute('viewBox', `0 0 ${width} ${height}`);
  element.setAttribute('preserveAspectRatio', 'none');
  const fixed = { 'vector-effect': 'non-scaling-stroke' };
  const parts = [
    svg('rect', { class: 'eg-blue-half', x: 0, y: shape.zeroY, width, height: height - shape.zeroY }),
    svg('path', { class: 'eg-area', d: shape.area || 'M0 0' }),
    svg('line', { class: 'eg-zero', x1: 0, x2: width, y1: shape.zeroY, y2: shape.zeroY, ...fixed }),
    svg('path', { class: 'eg-line', d: shape.line || 'M0 0', ...fixed }),
    svg('line', { class: 'eg-current', x1: shape.currentX, x2: shape.currentX, y1: 0, y2: height, ...fixed }),
  ];
  for (const dot of shape.dots) {
    const grade = grades.get(dot.ply)?.grade;
    const cls = ['eg-dot', dot.den ? 'den' : '', mistakes.has(dot.ply) ? 'mistake' : '', grade ? `graded ${grade}` : '', dot.ply === current ? 'current' : '']
      .filter(Boolean).join(' ');
    parts.push(svg('path', { class: cls, d: `M${dot.x} ${dot.y}h0`, 'data-ply': dot.ply, ...fixed }));
  }
  element.replaceChildren(...parts);
  element.dataset.points = String(shape.dots.length);
  return shape;
}
