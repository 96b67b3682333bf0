// The app reaches a game only through the registry (static/games/index.js): no module under
// static/app/ imports a game's own modules (games/<game>/…) itself.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const STATIC = fileURLToPath(new URL('../../../src/doushouqi/server/static/', import.meta.url));
const APP = join(STATIC, 'app');

function jsFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return jsFiles(path);
    return entry.name.endsWith('.js') ? [path] : [];
  });
}

/** Every module specifier a file names: static imports, re-exports and dynamic import(). */
export function specifiers(source) {
  const found = [];
  const patterns = [
    /\b(?:import|export)\s[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/g,
    /\bimport\s*['"]([^'"]+)['"]/g,
    /\bimport\s*\(\s*['"`]([^'"`]+)['"`]\s*\)/g,
  ];
  for (const pattern of patterns) for (const m of source.matchAll(pattern)) found.push(m[1]);
  return found;
}

/** Whether a specifier reaches into a game's folder (games/<game>/…) rather than the registry. */
export function reachesIntoGame(specifier) {
  return /(^|\/)games\/(?!index\.js$)[^/]+\//.test(specifier);
}

test('the scan sees the ways a module can be imported', () => {
  const source = [
    "import { JUNGLE } from '../../games/jungle/index.js';",
    "import DATA from '../../games/jungle/rule_diagram_data.js';",
    "import {\n  a,\n  b,\n} from '../../games/jungle/pieces.js';",
    "export { x } from '../../games/tiger/index.js';",
    "import '../../games/jungle/side_effect.js';",
    "const m = await import('../../games/jungle/lazy.js');",
    "import { gameClient } from '../../games/index.js';",
  ].join('\n');
  const reaching = specifiers(source).filter(reachesIntoGame);
  assert.equal(reaching.length, 6);
  assert.ok(!reachesIntoGame('../../games/index.js'));
  assert.ok(!reachesIntoGame('../shell/games.js'));
});

test('app/ imports no game module directly, only games/index.js', () => {
  const files = jsFiles(APP);
  assert.ok(files.length > 20, 'the scan found the app modules');
  const offending = files.flatMap((file) => specifiers(readFileSync(file, 'utf8'))
    .filter(reachesIntoGame)
    .map((spec) => `${relative(STATIC, file)} imports ${spec}`));
  assert.deepEqual(offending, []);
});

test('the registry gives each game a client module with what the app uses', async () => {
  const { GAMES, gameClient, DEFAULT_GAME } = await import(join(STATIC, 'games/index.js'));
  assert.equal(gameClient(), GAMES[DEFAULT_GAME]);
  assert.equal(gameClient(undefined), GAMES[DEFAULT_GAME]);
  assert.equal(gameClient('no-such-game'), GAMES[DEFAULT_GAME]);
  const needed = {
    board: 'object', geometry: 'object', pieceSet: 'object', startPlacement: 'string',
    parsePlacement: 'function', placementToString: 'function', lookOf: 'function',
    pieceOf: 'function', kindOf: 'function', pieceSvg: 'function', pieceChar: 'function', pieceStyles: 'object',
    kindWord: 'function', captured: 'function', homeIcons: 'object', palette: 'object',
    moveWords: 'function', parseTypedMove: 'function', hantChars: 'object',
    ruleSetNames: 'object', defaultRules: 'string', ruleOptions: 'object', namesIn: 'function',
    faqEntries: 'function', rulesPageVars: 'function', ruleDiagrams: 'object', lessons: 'object',
    meetsGoal: 'function', boardFor: 'function', startFor: 'function', orientationFor: 'function',
    moveSquares: 'function', sideKeys: 'object', firstKeys: 'object', rulesPoints: 'object',
    tablebase: 'object',
  };
  for (const [key, game] of Object.entries(GAMES)) {
    assert.equal(game.key, key);
    for (const [name, type] of Object.entries(needed)) assert.equal(typeof game[name], type, `${key}.${name}`);
    assert.ok(game.ruleSetNames.includes(game.defaultRules));
    // The editor's palette: [color, kind] pairs the game's pieces are made of, the first among them.
    const palette = game.palette.rows.flat();
    assert.ok(palette.some(([c, k]) => c === game.palette.initial[0] && k === game.palette.initial[1]));
    for (const [color, kind] of palette) assert.equal(game.kindOf(game.pieceOf(color, kind)), kind);
    assert.equal(typeof game.editorKeys, 'object', `${key}.editorKeys`);
    assert.equal(game.sideKeys.length, 2);
    // The tables' view: the most pieces worth asking about, the value line's words by seat.
    assert.ok(Number.isInteger(game.tablebase.pieces) && game.tablebase.pieces > 1, `${key}.tablebase.pieces`);
    for (const field of ['winsKeys', 'noMoveKeys']) assert.equal(game.tablebase[field].length, 2, `${key}.tablebase.${field}`);
    assert.equal(typeof game.tablebase.explainKey, 'string');
    assert.equal(game.firstKeys.length, 2);
    assert.equal(game.ruleOptions.firstValues.length, 2);
    for (const field of ['prefix', 'firstOption']) assert.equal(typeof game.ruleOptions[field], 'string', `${key}.${field}`);
    for (const field of ['choices', 'numbers', 'hidden']) assert.equal(typeof game.ruleOptions[field], 'object', `${key}.${field}`);
    const board = game.boardFor({});
    assert.ok(board.geometry && board.pieceSet, `${key}.boardFor`);
    assert.equal(game.placementToString(game.parsePlacement(game.startFor({}))), game.startFor({}));
  }
});

test("Jungle's client: captured animals, traditional characters, the pieces' look", async () => {
  const { gameClient } = await import(join(STATIC, 'games/index.js'));
  const jungle = gameClient('jungle');
  assert.deepEqual(jungle.captured(`${jungle.startPlacement} w`), [[], []]);
  assert.deepEqual(jungle.captured('l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T6 w 0 1'), [['lion'], []]);
  assert.deepEqual(jungle.hantChars, { 猫: '貓', 狮: '獅' });
  assert.deepEqual(jungle.lookOf({}), { wolfName: 'wolf' });
  assert.equal(jungle.lookOf({ wolf_name: 'fox', ranks: 'dog>wolf' }).ranks.dog, 4);
  assert.equal(jungle.namesIn({ wolf_name: 'fox' }, 'Wolf 狼'), 'Fox 狐');
  assert.equal(jungle.ruleOptions.valueKey('ranks', 'dog>wolf'), 'opt.ranks.dog_over_wolf');
  assert.equal(jungle.ruleOptions.valueKey('rat_captures_across_water', true), null);
  assert.deepEqual(jungle.pieceOf('red', 'lion'), { color: 'red', animal: 'lion' });
});

test("the Tiger's client: moves as points, lines by the diagonals option, its sides", async () => {
  const { gameClient } = await import(join(STATIC, 'games/index.js'));
  const tiger = gameClient('tiger');
  assert.deepEqual(tiger.moveSquares('e10e9'), ['e10', 'e9']);
  assert.deepEqual(tiger.moveSquares('e5e7e9'), ['e5', 'e9']);
  assert.equal(tiger.moveSquares('0000'), null);
  assert.deepEqual(tiger.capturedPoints('e6e4'), ['e5']);
  assert.equal(tiger.parseTypedMove('E10 - e9'), 'e10e9');
  assert.equal(tiger.parseTypedMove('z1 e9'), null);
  assert.deepEqual(tiger.captured('3/1T1/9/9/9/9/9/9/9/3M1M3/MMMMMMMMM t 1 5', { men: 12 }), [[], ['man']]);
  assert.deepEqual(tiger.captured('3/1T1/9/9/9/9/9/9/9/MMMMMMMMM/MMMMMMMMM t 0 1', { men: 18 }), [[], []]);
  assert.equal(tiger.startFor({ men: 18, tigers: 2 }), '3/T1T/9/9/9/9/9/9/9/MMMMMMMMM/MMMMMMMMM');
  assert.deepEqual(tiger.parsePlacement('3/1T1/9/9/9/9/9/9/9/3MMM3/MMMMMMMMM t 0 1').get('e10'), { color: 'red', kind: 'tiger' });
  assert.equal(tiger.boardFor({ diagonals: 'all' }).geometry.lines.length, 290);
  assert.equal(tiger.boardFor({ diagonals: 'nest' }).geometry.lines.length, 162);
  assert.equal(tiger.boardFor({}).geometry.lines.length, 154);
  assert.deepEqual(tiger.sideKeys, ['side.tiger', 'side.men']);
  assert.equal(tiger.orientationFor(0), 'blue');
  assert.deepEqual(tiger.lookOf({ diagonals: 'all' }), {});
});
