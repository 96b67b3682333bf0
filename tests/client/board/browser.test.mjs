// The board component in a real browser: headless Chromium driven over the DevTools protocol
// (a pipe, so no npm packages are needed). Skipped when Chromium is not installed.
// Run with: node --test tests/client/      (CHROMIUM=/path/to/chrome to choose the browser;
// BOARD_SCREENSHOTS=/some/dir to also save screenshots of the demo page there.)
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const STATIC = resolve(fileURLToPath(new URL('../../../src/doushouqi/server/static', import.meta.url)));
const CANDIDATES = [process.env.CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];
const CHROMIUM = CANDIDATES.find((p) => p && existsSync(p));

const START = 'l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L';
const START_DESTS = {
  a1: ['a2', 'b1'], g1: ['g2', 'f1'], f2: ['f1', 'f3', 'e2', 'g2'], b2: ['b1', 'b3', 'a2', 'c2'],
  g3: ['g4', 'f3', 'g2'], e3: ['d3', 'f3', 'e2'], c3: ['c2', 'b3', 'd3'], a3: ['a4', 'a2', 'b3'],
};

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml' };

function serveStatic() {
  const server = createServer((req, res) => {
    const path = normalize(join(STATIC, decodeURIComponent(new URL(req.url, 'http://x').pathname)));
    if (!path.startsWith(STATIC) || !existsSync(path)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream' });
    res.end(readFileSync(path));
  });
  return new Promise((ok) => server.listen(0, '127.0.0.1', () => ok(server)));
}

/** A minimal DevTools protocol client over --remote-debugging-pipe. */
class Browser {
  constructor(executable) {
    this.profile = mkdtempSync(join(tmpdir(), 'dsq-chromium-'));
    this.proc = spawn(executable, [
      '--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run', '--no-default-browser-check',
      '--hide-scrollbars', '--mute-audio', '--remote-debugging-pipe', `--user-data-dir=${this.profile}`, 'about:blank',
    ], { stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'] });
    this.nextId = 1;
    this.pending = new Map();
    this.listeners = [];
    let buffer = '';
    this.proc.stdio[4].on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      let end;
      while ((end = buffer.indexOf('\0')) >= 0) {
        const message = JSON.parse(buffer.slice(0, end));
        buffer = buffer.slice(end + 1);
        if (message.id && this.pending.has(message.id)) {
          const { ok, fail } = this.pending.get(message.id);
          this.pending.delete(message.id);
          if (message.error) fail(new Error(`${message.error.message} ${message.error.data ?? ''}`));
          else ok(message.result);
        } else if (message.method) {
          for (const fn of this.listeners) fn(message);
        }
      }
    });
  }

  send(method, params = {}, sessionId = undefined) {
    const id = this.nextId++;
    const message = JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) });
    return new Promise((ok, fail) => {
      this.pending.set(id, { ok, fail });
      this.proc.stdio[3].write(`${message}\0`);
    });
  }

  async close() {
    try { await this.send('Browser.close'); } catch { /* already gone */ }
    await new Promise((ok) => (this.proc.exitCode !== null ? ok() : this.proc.once('exit', ok)));
    rmSync(this.profile, { recursive: true, force: true });
  }
}

class Page {
  constructor(browser, sessionId) {
    this.browser = browser;
    this.sessionId = sessionId;
  }

  send(method, params) {
    return this.browser.send(method, params, this.sessionId);
  }

  async eval(expression) {
    const { result, exceptionDetails } = await this.send('Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true });
    if (exceptionDetails) throw new Error(`in page: ${exceptionDetails.exception?.description ?? exceptionDetails.text}`);
    return result.value;
  }

  async waitFor(expression, timeout = 5000) {
    const until = Date.now() + timeout;
    while (Date.now() < until) {
      if (await this.eval(expression)) return;
      await sleep(25);
    }
    throw new Error(`timed out waiting for ${expression}`);
  }

  async open(url, width, height, { mobile = false } = {}) {
    await this.send('Emulation.setDeviceMetricsOverride', { width, height, deviceScaleFactor: 1, mobile });
    await this.send('Emulation.setTouchEmulationEnabled', mobile ? { enabled: true, maxTouchPoints: 1 } : { enabled: false });
    await this.send('Page.navigate', { url });
    await this.waitFor('document.readyState === "complete" && window.board !== undefined');
  }

  center(square) {
    return this.eval(`(() => { const r = document.querySelector('.dsq-board [data-square="${square}"]').getBoundingClientRect();
      return { x: r.x + r.width / 2, y: r.y + r.height / 2 }; })()`);
  }

  async mouse(type, { x, y }, buttons = 1) {
    await this.send('Input.dispatchMouseEvent', { type, x, y, button: 'left', buttons, clickCount: 1 });
  }

  async click(square) {
    const at = await this.center(square);
    await this.mouse('mousePressed', at);
    await this.mouse('mouseReleased', at, 0);
  }

  async drag(from, to, { touch = false } = {}) {
    const a = await this.center(from);
    const b = await this.center(to);
    const steps = 6;
    const point = (i) => ({ x: a.x + ((b.x - a.x) * i) / steps, y: a.y + ((b.y - a.y) * i) / steps });
    if (touch) {
      await this.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [a] });
      for (let i = 1; i <= steps; i++) await this.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [point(i)] });
      await this.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
      return;
    }
    await this.mouse('mousePressed', a);
    for (let i = 1; i <= steps; i++) await this.mouse('mouseMoved', point(i));
    await this.mouse('mouseReleased', b, 0);
  }

  async key(key, code = key, keyCode = 0) {
    await this.send('Input.dispatchKeyEvent', { type: 'rawKeyDown', key, code, windowsVirtualKeyCode: keyCode });
    await this.send('Input.dispatchKeyEvent', { type: 'keyUp', key, code, windowsVirtualKeyCode: keyCode });
  }

  /** Reset the demo's board to the start position and record its events in window.events. */
  reset(extra = '') {
    return this.eval(`(() => {
      window.events = [];
      board.set({ position: '${START}', lastMove: null, threats: [], orientation: 'red', selected: null,
        turnColor: 'red', movableColor: 'red', dests: ${JSON.stringify(START_DESTS)}, lang: 'en',
        premoveColor: null, premoveDests: {}, premove: null, pendingMove: null,
        events: { move: (f, t) => events.push('move ' + f + t), select: (s) => events.push('select ' + s) } ${extra} });
      return true; })()`);
  }

  /** Whether the piece drawn on a square sits on it (after any animation). */
  pieceOn(square) {
    return this.eval(`(() => {
      const sq = document.querySelector('.dsq-board [data-square="${square}"]').getBoundingClientRect();
      return [...document.querySelectorAll('.dsq-piece:not(.captured)')].some((p) => {
        const r = p.getBoundingClientRect();
        return Math.abs(r.x - sq.x) < 2 && Math.abs(r.y - sq.y) < 2;
      }); })()`);
  }
}

const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));

describe('board component in Chromium', { skip: CHROMIUM ? false : 'Chromium is not installed', timeout: 120_000 }, () => {
  let browser;
  let server;
  let page;
  let base;

  before(async () => {
    server = await serveStatic();
    base = `http://127.0.0.1:${server.address().port}`;
    browser = new Browser(CHROMIUM);
    const { targetId } = await browser.send('Target.createTarget', { url: 'about:blank' });
    const { sessionId } = await browser.send('Target.attachToTarget', { targetId, flatten: true });
    page = new Page(browser, sessionId);
    await page.send('Page.enable');
    await page.send('Runtime.enable');
  });

  after(async () => {
    await browser?.close();
    server?.close();
  });

  test('fits a 390 px phone screen with no horizontal overflow', async () => {
    await page.open(`${base}/board/demo.html`, 390, 844, { mobile: true });
    const m = await page.eval(`(() => {
      const board = document.querySelector('.dsq-board').getBoundingClientRect();
      const sq = document.querySelector('[data-square="d5"]').getBoundingClientRect();
      return { scroll: document.documentElement.scrollWidth, inner: innerWidth, left: board.left, right: board.right,
               w: sq.width, h: sq.height };
    })()`);
    assert.ok(m.scroll <= m.inner, `page scrolls sideways: ${m.scroll} > ${m.inner}`);
    assert.ok(m.left >= 0 && m.right <= 390, `board at ${m.left}…${m.right}`);
    assert.ok(m.w > 44, `squares are ${m.w} px wide`);
    assert.ok(Math.abs(m.w - m.h) < 1, 'squares are square');
  });

  test('renders 63 labelled squares, 16 pieces and no fetched images', async () => {
    const m = await page.eval(`(() => ({
      squares: document.querySelectorAll('.dsq-board [role="button"][data-square]').length,
      labelled: [...document.querySelectorAll('.dsq-board [role="button"]')].every((e) => e.getAttribute('aria-label')),
      tabbable: document.querySelectorAll('.dsq-board [tabindex="0"]').length,
      pieces: document.querySelectorAll('.dsq-piece').length,
      redRound: document.querySelectorAll('.dsq-piece.red circle.tok').length,
      blueDiamonds: document.querySelectorAll('.dsq-piece.blue rect.tok').length,
      foreign: performance.getEntriesByType('resource').map((e) => e.name)
        .filter((n) => !/\\/(board|games\\/jungle)\\/[a-z_]+\\.(js|css)$/.test(n) && !n.endsWith('/favicon.ico')),
      live: document.querySelectorAll('.dsq-board [aria-live]').length,
    }))()`);
    assert.equal(m.squares, 63);
    assert.ok(m.labelled);
    assert.equal(m.tabbable, 1);
    assert.equal(m.pieces, 16);
    assert.equal(m.redRound, 8);
    assert.equal(m.blueDiamonds, 8);
    assert.deepEqual(m.foreign, []);
    assert.equal(m.live, 1);
  });

  test('click-click: select, then move to a destination', async () => {
    await page.reset();
    await page.click('g3');
    assert.equal(await page.eval('board.getState().selected'), 'g3');
    assert.equal(await page.eval('document.querySelectorAll(".sq.dest").length'), 3);
    assert.match(await page.eval('document.querySelector("[aria-live]").textContent'), /Red rat 鼠 on g3 selected\. Moves: g4, f3, g2\./);
    await page.click('g4');
    assert.deepEqual(await page.eval('events'), ['select g3', 'move g3g4']);
    assert.equal(await page.eval('board.getState().position'), 'l5t/1d3c1/r1p1w1e/7/7/6R/E1W1P2/1C3D1/T5L');
    await sleep(400);
    assert.ok(await page.pieceOn('g4'));
    assert.equal(await page.eval('document.querySelectorAll(".sq.last-move").length'), 2);
  });

  test('a click on a square that is no destination does not move', async () => {
    await page.reset();
    await page.click('g3');
    await page.click('g5');
    assert.deepEqual(await page.eval('events'), ['select g3', 'select null']);
    assert.equal(await page.eval('board.getState().position'), START);
  });

  test('drag and drop with the mouse', async () => {
    await page.reset();
    await page.drag('a3', 'a4');
    assert.deepEqual(await page.eval('events'), ['select a3', 'move a3a4']);
    assert.ok(await page.pieceOn('a4'));
    assert.ok(!(await page.pieceOn('a3')));
  });

  test('an illegal drop snaps back', async () => {
    await page.reset();
    await page.drag('e3', 'e5');
    assert.deepEqual(await page.eval('events'), ['select e3']);
    assert.equal(await page.eval('board.getState().position'), START);
    assert.equal(await page.eval('board.getState().selected'), 'e3');
    await sleep(400);
    assert.ok(await page.pieceOn('e3'));
  });

  test('drag and drop by touch', async () => {
    await page.reset();
    await page.drag('c3', 'd3', { touch: true });
    assert.deepEqual(await page.eval('events'), ['select c3', 'move c3d3']);
    assert.ok(await page.pieceOn('d3'));
  });

  test('premoves: a drag by touch sets one, the piece goes back; a tap elsewhere cancels it', async () => {
    await page.reset();
    await page.eval(`(board.set({ turnColor: 'blue', movableColor: null, dests: {}, premoveColor: 'red',
      premoveDests: { g3: ['g4', 'f3', 'g2'] },
      events: { move: (f, t) => events.push('move ' + f + t), premove: (f, t) => events.push('premove ' + f + t) } }), true)`);
    assert.ok(await page.eval('document.querySelector(".dsq-board").classList.contains("dsq-interactive")'));
    await page.drag('g3', 'g4', { touch: true });
    assert.deepEqual(await page.eval('events'), ['premove g3g4']);
    assert.deepEqual(await page.eval('board.getState().premove'), ['g3', 'g4']);
    assert.equal(await page.eval('board.getState().position'), START, 'a premove moves nothing');
    await sleep(400);
    assert.ok(await page.pieceOn('g3'));
    assert.equal(await page.eval('document.querySelectorAll(".sq.premove-from, .sq.premove-to").length'), 2);
    await page.click('d5');
    assert.deepEqual(await page.eval('events'), ['premove g3g4', 'premove nullnull']);
    assert.equal(await page.eval('document.querySelectorAll(".sq.premove-from, .sq.premove-to").length'), 0);
  });

  test('a pending move: its squares and its piece are marked', async () => {
    await page.reset();
    await page.eval("(board.set({ position: 'l5t/1d3c1/r1p1w1e/7/7/6R/E1W1P2/1C3D1/T5L', lastMove: ['g3', 'g4'], pendingMove: ['g3', 'g4'] }), true)");
    assert.equal(await page.eval('document.querySelectorAll(".sq.pending").length'), 2);
    assert.equal(await page.eval('document.querySelector(".dsq-piece.pending").dataset.square'), 'g4');
    await page.eval('(board.set({ pendingMove: null }), true)');
    assert.equal(await page.eval('document.querySelectorAll(".sq.pending, .dsq-piece.pending").length'), 0);
  });

  test('the server moves a piece: move() animates it and captures', async () => {
    await page.reset();
    await page.eval("board.set({ position: '7/7/7/7/7/7/7/2wL3/7', dests: {} })");
    assert.equal(await page.eval("board.move('c2', 'd2')"), true);
    await sleep(450);
    assert.equal(await page.eval('document.querySelectorAll(".dsq-piece").length'), 1);
    assert.ok(await page.pieceOn('d2'));
    assert.match(await page.eval('document.querySelector("[aria-live]").textContent'), /Blue wolf 狼 c2 to d2, captures red lion 狮\./);
    assert.equal(await page.eval("board.move('c2', 'd2')"), false);
  });

  test('keyboard: arrows, Enter to select and to move, visible focus', async () => {
    await page.reset();
    await page.eval('document.querySelector(".dsq-board [data-square=\\"a1\\"]").focus()');
    assert.equal(await page.eval('document.activeElement.dataset.square'), 'a1');
    assert.equal(await page.eval('document.activeElement.getAttribute("tabindex")'), '0', 'roving tabindex follows focus');
    await page.key('ArrowUp', 'ArrowUp', 38);
    await page.key('ArrowUp', 'ArrowUp', 38);
    assert.equal(await page.eval('document.activeElement.dataset.square'), 'a3');
    await page.key('ArrowLeft', 'ArrowLeft', 37);
    assert.equal(await page.eval('document.activeElement.dataset.square'), 'a3', 'the left edge stops the focus');
    await page.key('Enter', 'Enter', 13);
    assert.equal(await page.eval('board.getState().selected'), 'a3');
    assert.equal(await page.eval('document.querySelector(".dsq-cursor").hidden'), false);
    await page.key('ArrowRight', 'ArrowRight', 39);
    await page.key(' ', 'Space', 32);
    assert.deepEqual(await page.eval('events'), ['select a3', 'move a3b3']);
    assert.equal(await page.eval('document.activeElement.getAttribute("aria-label")'), 'b3, red elephant 象, strength 8, last move');
  });

  test('blue at the bottom: squares and arrow keys are turned around', async () => {
    await page.reset(", orientation: 'blue'");
    const a1 = await page.center('a1');
    const g9 = await page.center('g9');
    assert.ok(a1.x > g9.x && a1.y < g9.y, 'a1 is drawn top right');
    assert.equal(await page.eval('document.querySelector(".dsq-left span").textContent'), '1');
    await page.eval('document.querySelector(".dsq-board [data-square=\\"d4\\"]").focus()');
    await page.key('ArrowUp', 'ArrowUp', 38);
    assert.equal(await page.eval('document.activeElement.dataset.square'), 'd3');
    await page.key('ArrowRight', 'ArrowRight', 39);
    assert.equal(await page.eval('document.activeElement.dataset.square'), 'c3');
    await page.drag('g3', 'g4');
    assert.deepEqual(await page.eval('events'), ['select g3', 'move g3g4']);
  });

  test('setPosition announces the opponent\'s move; fox names and ranks redraw the pieces', async () => {
    await page.reset();
    await page.eval("board.setPosition('l5t/1d3c1/2p1w1e/r6/7/7/E1W1P1R/1C3D1/T5L', ['a7', 'a6'])");
    assert.equal(await page.eval('document.querySelector("[aria-live]").textContent'), 'Blue rat 鼠 a7 to a6.');
    await sleep(400);
    assert.ok(await page.pieceOn('a6'));
    await page.eval("board.set({ wolfName: 'fox', ranks: { wolf: 3, dog: 4 } })");
    const texts = await page.eval('[...document.querySelectorAll(".dsq-piece.wolf text")].map((t) => t.textContent)');
    assert.deepEqual(texts, ['狐', '3', '狐', '3']);
    assert.match(await page.eval('document.querySelector("[data-square=\\"c3\\"]").getAttribute("aria-label")'), /red fox 狐, strength 3/);
  });

  test('a new position during a drag cancels the drag', async () => {
    await page.reset();
    const a = await page.center('g3');
    const b = await page.center('g5');
    await page.mouse('mousePressed', a);
    await page.mouse('mouseMoved', { x: a.x, y: (a.y + b.y) / 2 });
    await page.mouse('mouseMoved', b);
    await page.eval("board.setPosition('l5t/1d3c1/2p1w1e/r6/7/7/E1W1P1R/1C3D1/T5L', ['a7', 'a6'])");
    await page.mouse('mouseReleased', b, 0);
    assert.deepEqual(await page.eval('events'), ['select g3']);
    assert.ok(await page.pieceOn('g3'));
    assert.equal(await page.eval('document.querySelectorAll(".dsq-piece.dragging, .sq.drag-over").length'), 0);
  });

  test('a hint: an arrow from square to square, both marked and announced; a move clears it', async () => {
    await page.reset();
    assert.equal(await page.eval('document.querySelector(".dsq-arrows").hasAttribute("hidden")'), true);
    await page.eval("board.set({ hint: ['a3', 'a4'] })");
    assert.equal(await page.eval('document.querySelector("[aria-live]").textContent'), 'Hint: Red elephant 象 a3 to a4.');
    const m = await page.eval(`(() => {
      const arrow = document.querySelector('.dsq-arrows');
      const head = arrow.querySelector('polygon').getBoundingClientRect();
      const a4 = document.querySelector('.dsq-board [data-square="a4"]').getBoundingClientRect();
      const a3 = document.querySelector('.dsq-board [data-square="a3"]');
      return { hidden: arrow.hasAttribute('hidden'), display: getComputedStyle(arrow).display,
        headInA4: head.bottom > a4.top && head.top < a4.bottom && head.left >= a4.left - 1 && head.right <= a4.right + 1,
        from: a3.className, fromLabel: a3.getAttribute('aria-label'), outline: getComputedStyle(a3).outlineStyle,
        to: document.querySelectorAll('.sq.hint-to').length };
    })()`);
    assert.equal(m.hidden, false);
    assert.notEqual(m.display, 'none');
    assert.ok(m.headInA4, 'the arrow head points into a4');
    assert.match(m.from, /\bhint-from\b/);
    assert.match(m.fromLabel, /hint: move from here$/);
    assert.equal(m.outline, 'dashed');
    assert.equal(m.to, 1);
    assert.deepEqual(await page.eval('board.getState().hint'), ['a3', 'a4']);
    await page.click('g3');
    await page.click('g4');
    assert.equal(await page.eval('board.getState().hint'), null);
    assert.equal(await page.eval('document.querySelector(".dsq-arrows").hasAttribute("hidden")'), true);
    assert.equal(await page.eval('document.querySelectorAll(".sq.hint-from, .sq.hint-to").length'), 0);
  });

  test('announceMoves: false keeps moves out of the live region, selections stay in', async () => {
    await page.reset(', announceMoves: false');
    await page.click('g3');
    assert.match(await page.eval('document.querySelector("[aria-live]").textContent'), /Red rat 鼠 on g3 selected/);
    await page.click('g4');
    assert.deepEqual(await page.eval('events'), ['select g3', 'move g3g4']);
    assert.match(await page.eval('document.querySelector("[aria-live]").textContent'), /selected/);
    await page.eval("board.setPosition('l5t/1d3c1/2p1w1e/r6/7/6R/E1W1P2/1C3D1/T5L', ['a7', 'a6'])");
    assert.doesNotMatch(await page.eval('document.querySelector("[aria-live]").textContent'), /a7 to a6/);
    await page.eval('board.set({ announceMoves: true })');
  });

  test('destroy removes the board', async () => {
    await page.eval('board.destroy()');
    assert.equal(await page.eval('document.querySelectorAll(".dsq-board").length'), 0);
  });

  test('fits a 1440 × 900 desktop screen', async () => {
    await page.open(`${base}/board/demo.html`, 1440, 900);
    const m = await page.eval(`(() => { const r = document.querySelector('.dsq-board').getBoundingClientRect();
      return { bottom: r.bottom, width: r.width, scroll: document.documentElement.scrollWidth }; })()`);
    assert.ok(m.bottom <= 900, `board bottom at ${m.bottom}`);
    assert.ok(m.width >= 450, `board only ${m.width} px wide`);
    assert.ok(m.scroll <= 1440);
  });

  test('screenshots (when BOARD_SCREENSHOTS is set)', { skip: !process.env.BOARD_SCREENSHOTS }, async () => {
    const dir = process.env.BOARD_SCREENSHOTS;
    mkdirSync(dir, { recursive: true });
    const shots = [
      ['demo-390x844', 390, 844, true, ''],
      ['demo-1440x900', 1440, 900, false, ''],
      ['midgame-390x844', 390, 844, true, '?demo=midgame'],
      ['midgame-1440x900-en-blue', 1440, 900, false, '?demo=midgame&lang=en&orientation=blue'],
      ['midgame-390x844-dark', 390, 844, true, '?demo=midgame&wolf=fox', 'dark'],
    ];
    for (const [name, width, height, mobile, query, scheme = 'light'] of shots) {
      await page.send('Emulation.setEmulatedMedia', { features: [{ name: 'prefers-color-scheme', value: scheme }] });
      await page.open(`${base}/board/demo.html${query}`, width, height, { mobile });
      await sleep(300);
      const { data } = await page.send('Page.captureScreenshot', { format: 'png' });
      writeFileSync(join(dir, `${name}.png`), Buffer.from(data, 'base64'));
    }
    await page.send('Emulation.setEmulatedMedia', { features: [] });
    // keyboard focus on one square while a piece is being dragged over a destination
    await page.open(`${base}/board/demo.html?demo=midgame`, 390, 844, { mobile: false });
    await page.eval('document.querySelector(".dsq-board [data-square=\\"c3\\"]").focus()');
    await page.key('ArrowUp', 'ArrowUp', 38);
    await page.key('ArrowRight', 'ArrowRight', 39);
    const a = await page.center('d5');
    const b = await page.center('g5');
    await page.mouse('mousePressed', a);
    await page.mouse('mouseMoved', { x: (a.x + 2 * b.x) / 3, y: a.y + 4 });
    await page.mouse('mouseMoved', { x: b.x - 6, y: b.y + 4 });
    await sleep(200);
    const { data } = await page.send('Page.captureScreenshot', { format: 'png', clip: { x: 0, y: 0, width: 390, height: 500, scale: 2 } });
    writeFileSync(join(dir, 'interaction-390x844.png'), Buffer.from(data, 'base64'));
    await page.mouse('mouseReleased', b, 0);
  });
});
