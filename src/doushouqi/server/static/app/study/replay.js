// The replay page: step through any game (#/replay/game/ID) or uploaded record
// (#/replay/record/ID) on a read-only board, and, for a game the site has a computer player for,
// show the engine's assessment of every position (the evaluation graph, the best move and the
// mistakes): a game's stored review, computed once on the server for every viewer
// (stored_review.js), or for an uploaded record, positions asked for one by one; and the upload page (#/replay[?game=tiger]) that turns a record's text into a
// replay (in the chosen game's record format). The arithmetic of the graph lives in
// evalgraph.js. What differs between games (board, sides, the tags naming the players) is the
// game's client module's.

import { createBoard } from '../../board/board.js';
import { gameClient } from '../../games/index.js';
import { t, currentLang, moveNumber, playerName as shownName } from '../shell/i18n.js';
import { moveText } from '../shell/move_text.js';
import { api, apiError } from '../shell/api.js';
import { h, pageHead } from '../shell/dom.js';
import * as G from './evalgraph.js';
import { ruleSetLabel } from '../play/rule_options.js';
import { pageCheck } from '../shell/navigation.js';
import { Review, GRADE_MARKS } from './review.js';
import { StoredReview } from './stored_review.js';
import { ReplayTablebase } from './tablebase_view.js';
import { chosenGame, gamePicker, offered, sideName, siteGames } from '../shell/site_games.js';
import { pieceStyle } from '../shell/appearance.js';

const SVG_NS = 'http://www.w3.org/2000/svg';
const MOVETIME = 0.3; // seconds per position: a 60-ply game is assessed in about 20 s
const BUSY_RETRIES = 5; // answers "too many requests" / "engine busy" in a row before giving up
const COLORS = ['red', 'blue']; // the board's names of seats 0 and 1

// The analyses of the last replay shown survive a language switch or a look at another page.
let kept = { key: null, analyses: [] };

const sleep = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });

/** A tag's value, or null for the record format's "unknown" (`?`, `????.??.??`). */
function known(value) {
  return value && !/^[?.]*$/.test(value) ? value : null;
}

// The server names the computer "AI level N" in a record's Red/Blue tags (PlayerSlot.ai).
const AI_TAG = /^AI level (\d{1,2})$/;

/** A player's name from the record's tag, the computer's in the reader's language. A name only
 * counts as the computer's in a game against it (or a record that does not say its mode). */
function playerName(tag, tags) {
  const name = known(tag);
  const ai = name && (!tags.Mode || tags.Mode === 'vs_ai') ? AI_TAG.exec(name) : null;
  return ai ? t('game.ai', { level: Number(ai[1]) }) : shownName(name);
}

async function fetchReplay(kind, id) {
  const path = kind === 'game' ? `/api/games/${encodeURIComponent(id)}/replay` : `/api/records/${encodeURIComponent(id)}`;
  return api(path);
}

/** POST a record's text of `game` (api() sends JSON only). */
async function postRecord(text, game) {
  const response = await fetch(`/api/records?game=${encodeURIComponent(game)}`, {
    method: 'POST', credentials: 'same-origin', headers: { 'Content-Type': 'text/plain; charset=utf-8' }, body: text,
  });
  const data = await response.json().catch(() => null);
  if (!response.ok) throw apiError(response.status, data);
  return data;
}

/**
 * The text of a chosen file, or null when it is not text: a NUL byte, or bytes that are not
 * UTF-8 (a picture, a zip, a word-processor file). Such a file is refused with a clear
 * message instead of being poured into the text box.
 */
export async function fileText(file) {
  const bytes = new Uint8Array(await file.arrayBuffer());
  if (bytes.includes(0)) return null;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, '');
  } catch {
    return null;
  }
}

// The Event tags the server writes into its records (api/games.py), shown in the reader's words.
const SERVER_EVENTS = { 'Online game': 'replay.event.online', 'Casual game': 'replay.event.casual' };

function eventName(value) {
  const name = known(value);
  return name && SERVER_EVENTS[name] ? t(SERVER_EVENTS[name]) : name;
}

/**
 * Show #/replay… in `root` (`parts`: the hash path split at `/`); returns the cleanup for the
 * router, or null.
 */
export async function replayRoute(root, parts, params, navigate) {
  const [, kind, id] = parts;
  if (!['game', 'record'].includes(kind) || !id) {
    const games = await offered({ needs: 'records' });
    uploadPage(root, navigate, games, chosenGame(games, params.get('game')));
    return null;
  }
  const stillHere = pageCheck();
  let data;
  try {
    data = await fetchReplay(kind, id);
  } catch (error) {
    if (error.status !== 404) throw error;
    if (stillHere()) notFound(root, kind);
    return null;
  }
  const site = (await siteGames()).find((g) => g.key === data.game) ?? {};
  if (!stillHere()) return null; // the reader went elsewhere while it loaded
  const view = new ReplayView(root, { kind, id, data, site, ply: Number(params.get('ply')) || 0 });
  window.replayView = view; // for tests and the curious
  return () => view.destroy();
}

function notFound(root, kind) {
  root.replaceChildren(h('section', { class: 'page narrow' },
    pageHead(t('replay.title')),
    h('p', { class: 'error', role: 'alert' }, t(kind === 'game' ? 'replay.notFound.game' : 'replay.notFound.record')),
    h('a', { class: 'button', href: '#/replay' }, t('replay.another'))));
}

// ----- upload -----------------------------------------------------------------------------

/** Select line `n` (1-based) of a textarea, to show where a record went wrong. */
function selectLine(textarea, n) {
  const lines = textarea.value.split('\n');
  if (n < 1 || n > lines.length) return;
  const start = lines.slice(0, n - 1).reduce((sum, line) => sum + line.length + 1, 0);
  textarea.focus();
  textarea.setSelectionRange(start, start + lines[n - 1].length);
}

function uploadPage(root, navigate, games, game) {
  const text = h('textarea', {
    id: 'record-text', name: 'record', rows: 10, spellcheck: 'false', autocomplete: 'off', autocapitalize: 'off',
    placeholder: t('replay.upload.placeholder'), 'aria-describedby': 'record-help',
  });
  const file = h('input', { type: 'file', id: 'record-file', class: 'rp-file-input', accept: '.txt,.pgn,text/plain' });
  const error = h('p', { class: 'error rp-upload-error', id: 'record-error', role: 'alert', hidden: true });
  const submit = h('button', { type: 'submit', class: 'primary big', id: 'record-open' }, t('replay.upload.submit'));

  function fail(message) {
    error.textContent = message;
    error.hidden = false;
  }

  async function send(body) {
    if (!body.trim()) {
      fail(t('replay.upload.empty'));
      return;
    }
    error.hidden = true;
    submit.disabled = true;
    submit.textContent = t('replay.upload.sending');
    try {
      const record = await postRecord(body, game);
      navigate(`/replay/record/${record.id}`);
    } catch (e) {
      // The server names the line of the first problem (params.line): it is selected.
      fail(e.message);
      const line = e.params?.line;
      if (line) selectLine(text, Number(line));
      submit.disabled = false;
      submit.textContent = t('replay.upload.submit');
    }
  }

  file.addEventListener('change', async () => {
    const chosen = file.files?.[0];
    if (!chosen) return;
    file.value = ''; // choosing the same file again still reads it
    const content = await fileText(chosen);
    if (content === null) {
      fail(t('replay.upload.binary'));
      return;
    }
    text.value = content;
    send(text.value);
  });
  // The record's game: its format is read (another game's record is refused with its line).
  const picker = gamePicker(games, game, (key) => navigate(`/replay?game=${encodeURIComponent(key)}`), { name: 'record-game' });
  const form = h('form', { class: 'settings rp-upload', id: 'record-form', dataset: { game }, onsubmit: (e) => { e.preventDefault(); send(text.value); } },
    picker,
    h('p', { class: 'rp-help', id: 'record-help' }, t('replay.upload.help')),
    h('label', { class: 'field' }, h('span', {}, t('replay.upload.text')), text),
    h('label', { class: 'button rp-file' }, t('replay.upload.file'), file),
    error,
    submit);
  root.replaceChildren(h('section', { class: 'page narrow' }, pageHead(t('replay.upload.title')), form));
}

// ----- the viewer -------------------------------------------------------------------------

class ReplayView {
  constructor(root, { kind, id, data, site, ply }) {
    this.root = root;
    this.game = gameClient(data.game);
    // The engine's assessment and the endgame tables only for a game the site has them for.
    this.engine = Boolean(site?.engine);
    this.kind = kind;
    this.id = id;
    this.data = data;
    this.fens = [data.start_fen, ...data.plies.map((p) => p.fen)]; // fens[i]: after ply i
    this.moves = data.plies.map((p) => p.move);
    this.last = data.plies.length;
    this.ply = Math.max(0, Math.min(this.last, Math.trunc(ply)));
    // A game of the site is reviewed on the server, once, the same for every viewer.
    this.stored = kind === 'game' && this.engine ? new StoredReview(this) : null;
    // A game that went on (or took moves back) since is another key: its analyses start afresh.
    const key = `${kind}/${id}/${this.last}/${this.fens[this.last]}`;
    if (kept.key !== key || this.stored) kept = { key, analyses: [] };
    this.analyses = kept.analyses; // analyses[i]: the server's answer for position i
    this.scores = [];
    this.mistakes = new Set();
    this.orientation = 'red';
    this.run = null; // the analysis in progress: {stopped}
    this.analysisError = null;
    this.closed = false;
    this.downloadUrl = null;
    this.review = new Review(this); // grades, accuracy, learn from mistakes (review.js)
    // The endgame tables: the shown position's value, and a badge on each move that changed it.
    this.tablebase = new ReplayTablebase({
      fens: this.fens, moves: this.moves, rules: site?.tablebase ? data.rules : null, game: this.game.key,
      onChanges: () => this.buildMoves(),
    });
    this.build();
    this.onKey = (e) => this.key(e);
    document.addEventListener('keydown', this.onKey);
    this.scoreAnalyses();
    this.buildMoves();
    this.showAnalysisState();
    this.render();
    this.stored?.load();
  }

  destroy() {
    this.closed = true;
    this.stored?.destroy();
    if (this.run) this.run.stopped = true;
    this.run = null;
    this.review.destroy();
    this.tablebase.destroy();
    document.removeEventListener('keydown', this.onKey);
    this.board?.destroy();
    if (this.downloadUrl) URL.revokeObjectURL(this.downloadUrl);
    if (window.replayView === this) window.replayView = null;
  }

  // ----- layout -------------------------------------------------------------------------
  build() {
    const step = (id, label, text, onclick) => h('button', { type: 'button', id, class: 'rp-step', 'aria-label': label, title: label, onclick }, text);
    const graph = document.createElementNS(SVG_NS, 'svg');
    graph.setAttribute('class', 'eval-graph');
    graph.id = 'eval-graph';
    graph.setAttribute('role', 'img');
    graph.setAttribute('aria-label', t('replay.graph.label'));
    graph.addEventListener('click', (e) => {
      const box = graph.getBoundingClientRect();
      this.goTo(G.plyAtFraction((e.clientX - box.left) / box.width, this.last + 1));
    });
    this.el = {
      top: h('div', { class: 'player-bar top' }),
      board: h('div', { class: 'board-box', id: 'board' }),
      bottom: h('div', { class: 'player-bar bottom' }),
      counter: h('span', { class: 'rp-counter', id: 'rp-counter', 'aria-hidden': 'true' }),
      slider: h('input', {
        type: 'range', id: 'rp-slider', class: 'rp-slider', min: 0, max: this.last, step: 1, value: this.ply,
        'aria-label': t('replay.slider'), oninput: (e) => this.goTo(Number(e.target.value)),
      }),
      analyse: h('button', { type: 'button', id: 'analyse', class: 'primary', onclick: () => this.toggleAnalysis() }, t('replay.analyse')),
      // The count is not in the live status: a screen reader would read it out for every position.
      progressBar: h('progress', { class: 'rp-progress-bar', max: this.last + 1, value: 0, 'aria-label': t('replay.progressLabel') }),
      progress: h('span', { class: 'rp-progress', id: 'rp-progress', role: 'status' }),
      count: h('span', { class: 'rp-count', id: 'rp-count', 'aria-hidden': 'true' }),
      graph,
      graphBox: h('div', { class: 'rp-graph', id: 'rp-graph', hidden: true },
        h('span', { class: 'rp-graph-side red', 'aria-hidden': 'true' }, sideName(0, this.game.key)),
        graph,
        h('span', { class: 'rp-graph-side blue', 'aria-hidden': 'true' }, sideName(1, this.game.key))),
      best: h('p', { class: 'rp-best', id: 'rp-best', 'aria-live': 'polite' }),
      comment: h('p', { class: 'rp-comment', id: 'rp-comment', hidden: true }),
      moves: h('ol', { class: 'moves rp-moves', id: 'rp-moves', 'aria-label': t('replay.moves') }),
    };
    this.buttons = {
      first: step('rp-first', t('replay.first'), '«', () => this.goTo(0)),
      prev: step('rp-prev', t('replay.prev'), '‹', () => this.goTo(this.ply - 1)),
      next: step('rp-next', t('replay.next'), '›', () => this.goTo(this.ply + 1)),
      last: step('rp-last', t('replay.last'), '»', () => this.goTo(this.last)),
    };
    const b = this.buttons;
    this.root.replaceChildren(h('section', { class: 'replay', id: 'replay' },
      h('div', { class: 'page-head rp-head' },
        h('a', { class: 'back', href: '#/', 'aria-label': t('nav.home') }, '‹'),
        h('div', { class: 'rp-title' }, h('h1', {}, t('replay.title')), this.tagsLine())),
      h('div', { class: 'game-page replay-page' },
        h('div', { class: 'board-col' }, this.el.top, this.el.board, this.el.bottom,
          h('div', { class: 'rp-controls', role: 'group', 'aria-label': t('replay.controls') },
            b.first, b.prev, this.el.counter, b.next, b.last),
          this.el.slider),
        h('aside', { class: 'side-col' },
          (this.el.analysis = h('div', { class: 'rp-analysis', id: 'rp-analysis', hidden: !this.engine },
            h('div', { class: 'rp-analysis-head' }, this.el.analyse, this.el.progress, this.el.count),
            this.el.progressBar, this.el.graphBox, this.el.best, this.tablebase.el, this.review.el.better, this.review.el.box)),
          this.el.comment,
          h('h2', { class: 'moves-title' }, t('replay.moves')),
          this.el.moves,
          h('div', { class: 'actions' },
            h('button', { type: 'button', id: 'rp-flip', onclick: () => this.flip() }, t('replay.flip')),
            (this.el.toBoard = h('a', { class: 'button', id: 'rp-to-board', hidden: !this.engine }, t('analysis.thisPosition'))),
            this.downloadLink(),
            this.kind === 'game' ? h('a', { class: 'button', id: 'rp-to-game', href: `#/game/${encodeURIComponent(this.id)}` }, t('replay.toGame')) : null,
            h('a', { class: 'button', id: 'rp-another', href: '#/replay' }, t('replay.another')))))));
  }

  /** Event, date, rules, result and how the game ended, as one line under the title. */
  tagsLine() {
    const d = this.data;
    const tags = d.tags || {};
    const ruleName = d.rules?.name;
    const parts = [
      eventName(tags.Event),
      known(tags.Date),
      ruleName ? ruleSetLabel(ruleName) : null,
      this.resultWords(d.result),
      d.termination ? t(`term.${d.termination}`) : null,
    ].filter(Boolean);
    return h('p', { class: 'rp-meta', id: 'rp-meta' }, parts.join(' · '));
  }

  /** The result in words: which side won (in the game's words), a draw, or not finished. */
  resultWords(result) {
    if (result === '1-0' || result === '0-1') return t('replay.result.won', { side: sideName(result === '1-0' ? 0 : 1, this.game.key) });
    return t(result === '1/2-1/2' ? 'replay.result.draw' : 'replay.result.none');
  }

  downloadLink() {
    const key = this.game.key;
    if (this.kind === 'game') {
      return h('a', { class: 'button', id: 'rp-download', href: `/api/games/${encodeURIComponent(this.id)}/record`, download: `${key}-${this.id}.txt` }, t('replay.download'));
    }
    this.downloadUrl = URL.createObjectURL(new Blob([this.data.text ?? ''], { type: 'text/plain;charset=utf-8' }));
    return h('a', { class: 'button', id: 'rp-download', href: this.downloadUrl, download: `${key}-record-${this.id}.txt` }, t('replay.download'));
  }

  /** The board's name of the seat to move in a position ('red' seat 0, 'blue' seat 1). */
  colorToMove(fen) {
    return COLORS[this.game.seatToMove(fen)];
  }

  /** The move list: one button per ply, mistakes marked. */
  buildMoves() {
    this.el.moves.replaceChildren(...this.data.plies.map((p) => {
      const mover = this.colorToMove(this.fens[p.ply - 1]);
      const mistake = this.mistakes.has(p.ply);
      const grade = this.review.gradeOf(p.ply); // ?! ? ?? from the server's review
      const text = moveText(p.readable_zh, p.readable) || p.move;
      return h('li', { class: `${mover}${mistake ? ' mistake' : ''}${grade ? ` graded ${grade}` : ''}`, dataset: { ply: p.ply, grade: grade ?? '' }, title: p.comment || null },
        h('button', { type: 'button', class: 'rp-move', dataset: { ply: p.ply }, onclick: () => this.goTo(p.ply) },
          h('span', { class: 'ply' }, moveNumber(p.ply)), ' ', text,
          grade ? h('span', { class: `rp-mistake rv-mark ${grade}`, 'aria-hidden': 'true', title: t(`analysis.grade.${grade}`) }, GRADE_MARKS[grade]) : null,
          grade ? h('span', { class: 'rp-sr' }, ` (${t(`analysis.grade.${grade}`)})`) : null,
          this.tablebase.badge(p.ply)));
    }));
    this.markCurrentMove();
  }

  // ----- stepping -----------------------------------------------------------------------
  goTo(ply) {
    if (!Number.isFinite(ply)) return;
    const next = Math.max(0, Math.min(this.last, Math.trunc(ply)));
    if (next === this.ply) return;
    this.ply = next;
    this.render();
    // Keep the ply in the address (a reload or a shared link opens it) without a new route.
    history.replaceState(null, '', `#/replay/${this.kind}/${encodeURIComponent(this.id)}${next ? `?ply=${next}` : ''}`);
  }

  key(e) {
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
    if (e.target.closest?.('input, textarea, select, [contenteditable]')) return; // the slider steps itself
    const to = { ArrowLeft: this.ply - 1, ArrowRight: this.ply + 1, Home: 0, End: this.last }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    this.goTo(to);
  }

  flip() {
    this.orientation = this.orientation === 'red' ? 'blue' : 'red';
    this.render();
  }

  // ----- rendering ----------------------------------------------------------------------
  render() {
    const fen = this.fens[this.ply];
    const played = this.ply ? this.moves[this.ply - 1] : null;
    const analysis = this.analyses[this.ply];
    const best = analysis?.bestmove;
    const rules = this.data.rules || {};
    const game = this.game;
    const config = {
      position: fen, orientation: this.orientation, turnColor: this.colorToMove(fen), movableColor: null,
      lastMove: played ? game.moveSquares(played) : null,
      hint: best ? game.moveSquares(best) : null,
      lang: currentLang(), pieceStyle: pieceStyle(game), ...game.lookOf(rules),
    };
    if (!this.board) this.board = createBoard(this.el.board, { ...game.boardFor(rules), ...config });
    else this.board.set(config);
    this.el.board.dataset.ply = String(this.ply);
    this.renderPlayers(fen);
    const b = this.buttons;
    b.first.disabled = b.prev.disabled = this.ply === 0;
    b.next.disabled = b.last.disabled = this.ply === this.last;
    this.el.counter.textContent = `${this.ply} / ${this.last}`;
    this.el.slider.value = String(this.ply);
    this.el.slider.setAttribute('aria-valuetext', t('replay.plyOf', { ply: this.ply, count: this.last }));
    const comment = this.ply ? this.data.plies[this.ply - 1].comment : null;
    this.el.comment.hidden = !comment;
    this.el.comment.textContent = comment ? t('replay.comment', { text: comment }) : '';
    this.markCurrentMove();
    this.renderAnalysis();
    this.tablebase.render(this.ply);
  }

  /** The sides' players' names in bars above and below the board (the bottom one: the side
   * that sees the board this way up). */
  renderPlayers(fen) {
    const tags = this.data.tags || {};
    const sameScreen = tags.Mode === 'same_screen'; // one person played both sides: no names
    const toMove = this.colorToMove(fen);
    const over = this.ply === this.last && this.data.result !== '*'; // nobody moves any more
    const game = this.game;
    const bottomSeat = game.orientationFor(1) === this.orientation ? 1 : 0;
    for (const [el, seat] of [[this.el.top, 1 - bottomSeat], [this.el.bottom, bottomSeat]]) {
      const color = COLORS[seat];
      const side = sideName(seat, game.key);
      const name = (!sameScreen && playerName(tags[game.recordTags[seat]], tags)) || side;
      el.dataset.color = color;
      el.classList.toggle('to-move', !over && toMove === color);
      el.replaceChildren(
        h('span', { class: `token small ${color}`, 'aria-hidden': 'true' }, t(game.tokenKeys[seat])),
        h('span', { class: 'pname' }, h('strong', {}, name), name === side ? null : h('small', {}, side)));
    }
  }

  markCurrentMove() {
    const list = this.el.moves;
    let current = null;
    for (const li of list.children) {
      const on = Number(li.dataset.ply) === this.ply;
      li.classList.toggle('current', on);
      const button = li.firstElementChild;
      if (on) button.setAttribute('aria-current', 'step');
      else button.removeAttribute('aria-current');
      if (on) current = li;
    }
    // Scroll the list, never the page: the reader's eyes stay on the board.
    if (!current) {
      if (this.ply === 0) list.scrollTop = 0;
      return;
    }
    const top = current.offsetTop;
    const bottom = top + current.offsetHeight;
    if (top < list.scrollTop) list.scrollTop = top;
    else if (bottom > list.scrollTop + list.clientHeight) list.scrollTop = bottom - list.clientHeight;
  }

  // ----- analysis -----------------------------------------------------------------------
  /** Scores and mistakes from the analyses so far; the move list follows the mistakes. */
  scoreAnalyses() {
    if (this.stored) return false; // the stored review brings its scores and grades
    this.scores = this.fens.map((_, i) => G.positionScore(this.analyses[i], this.data.result));
    this.review.update(this.scores); // the server grades them; review.js rebuilds the list
    return false;
  }

  analysedCount() {
    return this.fens.filter((_, i) => this.analyses[i]).length;
  }

  toggleAnalysis() {
    if (this.stored) {
      this.stored.request();
      return;
    }
    if (this.run) {
      this.run.stopped = true;
      this.run = null;
      this.showAnalysisState();
    } else {
      this.analyse();
    }
  }

  /** Ask the engine about every position not yet assessed, one after the other. */
  async analyse() {
    const run = { stopped: false };
    this.run = run;
    this.analysisError = null;
    this.showAnalysisState();
    try {
      for (let ply = 0; ply <= this.last; ply++) {
        if (this.analyses[ply]) continue;
        const answer = await this.analysePosition(ply, run);
        if (run.stopped) return;
        this.analyses[ply] = answer;
        if (this.scoreAnalyses()) this.buildMoves();
        this.showAnalysisState();
        this.renderAnalysis();
        if (ply === this.ply) this.render(); // the hint on the board
      }
    } catch (error) {
      if (!run.stopped) this.analysisError = error.message || String(error);
    } finally {
      if (this.run === run) this.run = null;
      if (!this.closed) this.showAnalysisState();
    }
  }

  async analysePosition(ply, run) {
    const body = { game: this.game.key, ...G.analysisQuery({ rules: this.data.rules, fens: this.fens, moves: this.moves, ply, movetime: MOVETIME }) };
    for (let attempt = 1; ; attempt++) {
      try {
        return await api('/api/analysis', { method: 'POST', body });
      } catch (error) {
        const busy = error.status === 429 || error.status === 503;
        if (!busy || attempt >= BUSY_RETRIES || run.stopped) throw error;
        await sleep(1000 * attempt);
        if (run.stopped) throw error;
      }
    }
  }

  /** The analyse button, the progress and any error. */
  showAnalysisState() {
    if (this.stored) {
      this.stored.show();
      return;
    }
    const done = this.analysedCount();
    const total = this.last + 1;
    const complete = done === total;
    const button = this.el.analyse;
    button.textContent = t(this.run ? 'replay.stop' : complete ? 'replay.analysed' : done ? 'replay.continue' : 'replay.analyse');
    button.disabled = complete && !this.run;
    button.classList.toggle('primary', !this.run);
    this.el.progressBar.hidden = !this.run;
    this.el.progressBar.value = done;
    let status = '';
    if (this.analysisError) status = t('replay.analysisError', { message: this.analysisError });
    else if (this.run) status = t('replay.progress');
    else if (complete) status = t('replay.done', { mistakes: this.mistakes.size });
    else if (done) status = t('replay.stopped', { done, total });
    else status = t('replay.intro');
    if (this.el.progress.textContent !== status) this.el.progress.textContent = status;
    this.el.count.textContent = this.run ? `${done} / ${total}` : '';
    this.el.progress.classList.toggle('error', Boolean(this.analysisError));
    this.el.graphBox.hidden = !this.run && !done;
  }

  /** The graph and, for the current position, the engine's best move and score in words. */
  renderAnalysis() {
    if (!this.el.graphBox.hidden) G.drawEvalGraph(this.el.graph, this.scores, { current: this.ply, mistakes: this.mistakes, grades: this.review.grades });
    this.review.renderBetter(this.ply);
    const rules = String(this.data.rules?.name || this.game.defaultRules).split(' ')[0]; // custom rules: their parent set
    this.el.toBoard.href = `#/analysis?${new URLSearchParams({ game: this.game.key, fen: this.fens[this.ply], rules })}`;
    const analysis = this.analyses[this.ply];
    const described = G.describeScore(analysis);
    let text = '';
    if (!described) text = this.run ? t('replay.waiting') : '';
    else if (described.kind === 'over') text = t('replay.score.over');
    else {
      const side = described.side ? sideName(described.side === 'blue' ? 1 : 0, this.game.key) : '';
      const score = described.kind === 'cp' ? t('replay.score.cp', { side, pawns: described.pawns })
        : described.kind === 'even' ? t('replay.score.even')
          : t(`replay.score.${described.kind}`, { side, moves: described.moves });
      const move = moveText(analysis.readable_zh, analysis.readable_en) || analysis.bestmove;
      text = t('replay.best', { move, score });
    }
    if (this.el.best.textContent !== text) this.el.best.textContent = text;
    this.el.best.hidden = !text;
  }
}
