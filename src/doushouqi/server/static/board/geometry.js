// Geometries for the board component. The board draws whatever it is given: how many files and
// ranks, what the places are called, which of them are special and how they look. Two kinds:
//   gridGeometry   pieces stand IN squares (Jungle's 7 × 9: games/jungle/geometry.js);
//   pointGeometry  pieces stand ON points where lines cross, the lines drawn between them, and
//                  not every cell of the files × ranks frame need be a point (老虎棋's 87 points
//                  with its nest on top: games/tiger/geometry.js).
// Both answer the same questions (the board asks no other), so the board needs no game: a
// point geometry is a grid whose cells are the points, with holes where there is no point and a
// backdrop of lines. A game describes its board once and passes the result to createBoard as
// `geometry`. No DOM here, so that it runs under Node.
//
// Places are named by a file letter and a rank number (a1 … g9 on a 7 × 9 grid); rank 1 is at
// the bottom when the board is seen from Red's side, i.e. seat 0's (orientation 'red'), and at
// the top from Blue's (seat 1's).

/**
 * A geometry of `files` (letters, left to right from Red's side) × `ranks` (how many). The rest
 * is what the game says about its squares; every part may be left out:
 *   squareClasses(square)    CSS classes of a square's kind, e.g. ['water'] or ['trap', 'side-red']
 *   squareWords(square, lang) what a square's accessible label says about it ('blue trap'), or null
 *   squareArt(square, lang)   HTML drawn inside a square (a den's picture and name), or ''
 *   regions                   [{from, to, className, html}]: rectangles of squares (from the
 *                             lower-left to the upper-right corner) drawn as one element each
 *                             under the squares, e.g. a lake over its water squares
 *   label                     {lang: the board's accessible name}
 */
export function gridGeometry({
  files, ranks, squareClasses = () => [], squareWords = () => null, squareArt = () => '', regions = [], label = {},
}) {
  const numFiles = files.length;
  const numRanks = ranks;
  const squares = Object.freeze(
    Array.from({ length: numFiles * numRanks }, (_, i) => files[i % numFiles] + (Math.floor(i / numFiles) + 1)),
  );
  const known = new Set(squares);
  const isSquare = (name) => typeof name === 'string' && known.has(name);

  /** File and rank of a square as 0-based numbers: a1 → {file: 0, rank: 0}. */
  function coords(name) {
    if (!isSquare(name)) {
      throw new RangeError(`not a square: ${JSON.stringify(name)} (expected ${squares[0]} … ${squares[squares.length - 1]})`);
    }
    return { file: files.indexOf(name[0]), rank: Number(name.slice(1)) - 1 };
  }

  function name(file, rank) {
    if (file < 0 || file >= numFiles || rank < 0 || rank >= numRanks) return null;
    return files[file] + (rank + 1);
  }

  /** Where a square is drawn: 0-based column from the left and row from the top. */
  function toScreen(square, orientation = 'red') {
    const { file, rank } = coords(square);
    return orientation === 'blue'
      ? { col: numFiles - 1 - file, row: rank }
      : { col: file, row: numRanks - 1 - rank };
  }

  /** The square drawn at a column and row (0-based, from the top left), or null off the board. */
  function fromScreen(col, row, orientation = 'red') {
    if (!Number.isInteger(col) || !Number.isInteger(row)) return null;
    if (col < 0 || col >= numFiles || row < 0 || row >= numRanks) return null;
    return orientation === 'blue' ? name(numFiles - 1 - col, row) : name(col, numRanks - 1 - row);
  }

  /** The square under a point given relative to the board's top left corner, or null. */
  function squareAtPoint(x, y, width, height, orientation = 'red') {
    if (!(width > 0 && height > 0) || x < 0 || y < 0 || x >= width || y >= height) return null;
    return fromScreen(Math.floor((x / width) * numFiles), Math.floor((y / height) * numRanks), orientation);
  }

  /** Files left to right and ranks top to bottom, as drawn on the board's edges. */
  function edgeLabels(orientation = 'red') {
    const shownFiles = [...files];
    const shownRanks = Array.from({ length: numRanks }, (_, i) => String(numRanks - i));
    return orientation === 'blue'
      ? { files: shownFiles.reverse(), ranks: shownRanks.reverse() }
      : { files: shownFiles, ranks: shownRanks };
  }

  /** The grid area (1-based CSS grid lines) covered by region `index` in the given orientation. */
  function regionArea(index, orientation = 'red') {
    const corners = [regions[index].from, regions[index].to].map((sq) => toScreen(sq, orientation));
    const cols = corners.map((c) => c.col);
    const rows = corners.map((c) => c.row);
    return {
      colStart: Math.min(...cols) + 1,
      colEnd: Math.max(...cols) + 2,
      rowStart: Math.min(...rows) + 1,
      rowEnd: Math.max(...rows) + 2,
    };
  }

  /** The squares of a rank (0-based), in file order: what a placement's row lists. */
  const rows = Array.from({ length: numRanks }, (_, rank) => Object.freeze(files.map((f) => f + (rank + 1))));

  return Object.freeze({
    kind: 'grid',
    className: '',
    files: Object.freeze([...files]),
    numFiles,
    numRanks,
    squares,
    rowSquares: (rank) => rows[rank] ?? [],
    backdrop: null,
    isSquare,
    coords,
    name,
    toScreen,
    fromScreen,
    squareAtPoint,
    edgeLabels,
    regions: Object.freeze(regions.map((r) => Object.freeze({ ...r }))),
    regionArea,
    squareClasses,
    squareWords,
    squareArt,
    label: (lang) => label[lang] ?? label.en ?? '',
  });
}

/**
 * A geometry of points joined by lines, on a frame of `files` (letters) × `ranks` (how many):
 *   points        the names of the points (a subset of the frame's cells, e.g. 'e10'); a place
 *                 of the frame that is no point is a hole (no piece, no tap, no label)
 *   lines         [[a, b], …]: the lines between points, drawn from centre to centre
 *   areas         [{points: [names…], className}]: polygons drawn under the lines (a nest)
 *   pointClasses(point)      CSS classes of a point's kind, e.g. ['nest']
 *   pointWords(point, lang)  what a point's accessible label says about it ('nest'), or null
 *   label         {lang: the board's accessible name}
 *   className     a class the board's root element gets (a game's stylesheet scopes by it)
 * `backdrop(orientation)` is the lines (and areas) as an SVG drawn under the pieces, one cell
 * being 100 × 100 units, as the board's hint arrow is.
 */
export function pointGeometry({
  files, ranks, points, lines = [], areas = [], pointClasses = () => [], pointWords = () => null, label = {},
  className = '',
}) {
  const numFiles = files.length;
  const numRanks = ranks;
  const known = new Set(points);
  const place = (name) => ({ file: files.indexOf(name[0]), rank: Number(name.slice(1)) - 1 });
  for (const point of points) {
    const { file, rank } = place(point);
    if (file < 0 || !(rank >= 0 && rank < numRanks) || `${files[file]}${rank + 1}` !== point) {
      throw new RangeError(`not a place of the frame: ${JSON.stringify(point)}`);
    }
  }
  for (const [a, b] of lines) {
    if (!known.has(a) || !known.has(b)) throw new RangeError(`a line joins no points: ${a}–${b}`);
  }
  const isSquare = (name) => typeof name === 'string' && known.has(name);
  // Rank by rank from the bottom, files left to right: the order of a placement read backwards.
  const ordered = [...points].sort((x, y) => place(x).rank - place(y).rank || place(x).file - place(y).file);
  const squares = Object.freeze(ordered);
  const rows = Array.from({ length: numRanks }, (_, rank) => Object.freeze(ordered.filter((p) => place(p).rank === rank)));

  function coords(name) {
    if (!isSquare(name)) throw new RangeError(`not a point: ${JSON.stringify(name)}`);
    return place(name);
  }

  function name(file, rank) {
    const found = files[file] === undefined ? null : files[file] + (rank + 1);
    return isSquare(found) ? found : null;
  }

  function toScreen(point, orientation = 'red') {
    const { file, rank } = coords(point);
    return orientation === 'blue'
      ? { col: numFiles - 1 - file, row: rank }
      : { col: file, row: numRanks - 1 - rank };
  }

  function fromScreen(col, row, orientation = 'red') {
    if (!Number.isInteger(col) || !Number.isInteger(row)) return null;
    if (col < 0 || col >= numFiles || row < 0 || row >= numRanks) return null;
    return orientation === 'blue' ? name(numFiles - 1 - col, row) : name(col, numRanks - 1 - row);
  }

  /** The point whose cell holds a point given relative to the board's top left, or null. */
  function squareAtPoint(x, y, width, height, orientation = 'red') {
    if (!(width > 0 && height > 0) || x < 0 || y < 0 || x >= width || y >= height) return null;
    return fromScreen(Math.floor((x / width) * numFiles), Math.floor((y / height) * numRanks), orientation);
  }

  function edgeLabels(orientation = 'red') {
    const shownFiles = [...files];
    const shownRanks = Array.from({ length: numRanks }, (_, i) => String(numRanks - i));
    return orientation === 'blue'
      ? { files: shownFiles.reverse(), ranks: shownRanks.reverse() }
      : { files: shownFiles, ranks: shownRanks };
  }

  /** A point's centre in backdrop units (a cell is 100 × 100). */
  function centre(point, orientation) {
    const { col, row } = toScreen(point, orientation);
    return [col * 100 + 50, row * 100 + 50];
  }

  function backdrop(orientation = 'red') {
    const polygon = ({ points: corners, className: cls }) => `<polygon class="${cls}" points="${corners
      .map((p) => centre(p, orientation).join(',')).join(' ')}"/>`;
    const segment = ([a, b]) => {
      const [[x1, y1], [x2, y2]] = [centre(a, orientation), centre(b, orientation)];
      const kind = x1 !== x2 && y1 !== y2 ? 'dsq-line diagonal' : 'dsq-line';
      return `<line class="${kind}" x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}"/>`;
    };
    return `<svg class="dsq-backdrop-art" viewBox="0 0 ${numFiles * 100} ${numRanks * 100}" preserveAspectRatio="none" aria-hidden="true" focusable="false">`
      + areas.map(polygon).join('') + lines.map(segment).join('')
      + squares.map((p) => { const [x, y] = centre(p, orientation); return `<circle class="dsq-dot" cx="${x}" cy="${y}" r="7"/>`; }).join('')
      + '</svg>';
  }

  return Object.freeze({
    kind: 'points',
    className,
    files: Object.freeze([...files]),
    numFiles,
    numRanks,
    squares,
    rowSquares: (rank) => rows[rank] ?? [],
    lines: Object.freeze(lines.map(([a, b]) => Object.freeze([a, b]))),
    backdrop,
    isSquare,
    coords,
    name,
    toScreen,
    fromScreen,
    squareAtPoint,
    edgeLabels,
    regions: Object.freeze([]),
    regionArea: () => { throw new RangeError('a point geometry has no regions'); },
    squareClasses: (point) => ['point', ...pointClasses(point)],
    squareWords: pointWords,
    squareArt: () => '',
    label: (lang) => label[lang] ?? label.en ?? '',
  });
}
