// Grid geometries for the board component. The board draws whatever grid it is given: how many
// files and ranks, what the squares are called, which of them are special and how they look.
// A game describes its board once with `gridGeometry` (Jungle's: games/jungle/geometry.js) and
// passes the result to createBoard as `geometry`. No DOM here, so that it runs under Node.
//
// Squares are named by a file letter and a rank number (a1 … g9 on a 7 × 9 grid); rank 1 is at
// the bottom when the board is seen from Red's side (orientation 'red'), and at the top from
// Blue's.

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

  return Object.freeze({
    files: Object.freeze([...files]),
    numFiles,
    numRanks,
    squares,
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
