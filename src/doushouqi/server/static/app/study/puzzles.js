// Puzzles (#/puzzles?mode=rated|streak|daily|theme&theme=…, #/puzzles/<id>): find the one move
// that wins (or the only move that does not lose), then the next, against the opponent's best
// defence. The server judges every move (POST /api/puzzles/<id>/attempt with the moves so
// far) and answers with the opponent's reply, "wrong" or "solved". A wrong move is marked on
// the board and taken back, and the player tries again (as on lichess): the go was rated at
// its first miss, so later calls say `retry` and are recorded no more. The solution comes only
// when the puzzle is solved or the player asks for it, and can then be stepped through move by
// move. Every move is written as the rest of the site writes it ("象 d3-c3"), from the server's
// texts in the reader's language. Puzzles are of the player's rule set (the game's default
// unless another is chosen here, remembered on this device). The puzzle rating and its change
// come from the server (Glicko-2); guests play under their guest session.

import { createBoard } from '../../board/board.js';
import { gameClient } from '../../games/index.js';
import { t, plural, currentLang } from '../shell/i18n.js';
import { api, ensurePlayer } from '../shell/api.js';
import { h, pageHead } from '../shell/dom.js';
import { ruleSetLabel } from '../play/rule_options.js';
import { pieceStyle } from '../shell/appearance.js';

const MODES = ['rated', 'streak', 'daily'];
const REPLY_DELAY = 350; // ms: the player sees the own move land before the reply
const WRONG_DELAY = 900; // ms: the wrong move stays marked this long before it is taken back
const PREFS_KEY = 'doushouqi.puzzles';
const ANY_RULES = 'any';

/** The rule set chosen on this page before (this device), else the game's default. */
export function savedRules(game = gameClient()) {
  let saved = null;
  try { saved = JSON.parse(localStorage.getItem(PREFS_KEY))?.rules; } catch { /* private mode */ }
  return knownRules(saved, game) ? saved : game.defaultRules;
}

function knownRules(rules, game = gameClient()) {
  return rules === ANY_RULES || game.ruleSetNames.includes(rules);
}

function saveRules(rules) {
  try { localStorage.setItem(PREFS_KEY, JSON.stringify({ rules })); } catch { /* private mode: not remembered */ }
}

/** A move as the server wrote it for each language ({en, zh, 'zh-Hant'}), in the reader's. */
export function readable(texts, fallback = '') {
  return texts?.[currentLang()] ?? texts?.en ?? fallback;
}

/** `#/puzzles[/<id>]`. */
export function puzzlesView(view, parts, params) {
  const page = new PuzzlePage(view, parts[1] ? decodeURIComponent(parts[1]) : null, params);
  window.puzzlePage = page; // for tests and the curious
  return () => page.destroy();
}

/** "+12" / "−7" / "±0". */
export function signed(n) {
  if (n > 0) return `+${n}`;
  if (n < 0) return `−${-n}`;
  return '±0';
}

class PuzzlePage {
  constructor(root, id, params) {
    this.root = root;
    this.id = id;
    this.mode = id ? 'rated' : (params.get('mode') || 'rated');
    this.theme = params.get('theme') || '';
    if (this.theme && this.mode === 'rated') this.mode = 'theme';
    this.rules = knownRules(params.get('rules')) ? params.get('rules') : savedRules();
    this.closed = false;
    this.request = 0;
    this.build();
    this.loadThemes();
    this.load();
  }

  destroy() {
    this.closed = true;
    this.request++;
    clearTimeout(this.timer);
    this.board?.destroy();
    if (window.puzzlePage === this) window.puzzlePage = null;
  }

  // ----- layout ---------------------------------------------------------------------------
  build() {
    const modeButton = (mode) => h('button', {
      type: 'button', id: `pz-mode-${mode}`, class: 'pz-mode', 'aria-pressed': String(this.mode === mode),
      onclick: () => this.switchMode(mode),
    }, t(`puzzle.mode.${mode}`));
    this.el = {
      board: h('div', { class: 'board-box', id: 'board' }),
      prompt: h('p', { class: 'pz-prompt', id: 'pz-prompt' }),
      feedback: h('p', { class: 'pz-feedback', id: 'pz-feedback', role: 'status', 'aria-live': 'polite' }),
      rating: h('span', { class: 'pz-rating', id: 'pz-rating' }),
      change: h('span', { class: 'pz-change', id: 'pz-change' }),
      streak: h('span', { class: 'pz-streak', id: 'pz-streak' }),
      about: h('p', { class: 'pz-about', id: 'pz-about' }),
      rules: h('p', { class: 'pz-rules', id: 'pz-rules' }),
      hint: h('button', { type: 'button', id: 'pz-hint', onclick: () => this.hint() }, t('puzzle.hint')),
      solution: h('button', { type: 'button', id: 'pz-solution', onclick: () => this.giveUp() }, t('puzzle.showSolution')),
      next: h('button', { type: 'button', class: 'primary', id: 'pz-next', onclick: () => this.nextPuzzle() }, t('puzzle.next')),
      prev: h('button', { type: 'button', id: 'pz-step-prev', 'aria-label': t('puzzle.stepBack'), onclick: () => this.step(-1) }, '◀'),
      fwd: h('button', { type: 'button', id: 'pz-step-next', 'aria-label': t('puzzle.stepForward'), onclick: () => this.step(1) }, '▶'),
      stepText: h('span', { class: 'pz-step-text', id: 'pz-step-text' }),
      theme: h('select', { id: 'pz-theme', 'aria-label': t('puzzle.theme'), onchange: (e) => this.chooseTheme(e.target.value) },
        h('option', { value: '' }, t('puzzle.theme.any'))),
      ruleSet: h('select', { id: 'pz-rule-set', onchange: (e) => this.chooseRules(e.target.value) },
        this.ruleSetOptions([gameClient().defaultRules])),
      history: h('ol', { class: 'pz-history', id: 'pz-history' }),
    };
    this.el.stepper = h('div', { class: 'pz-stepper', id: 'pz-stepper', hidden: true }, this.el.prev, this.el.stepText, this.el.fwd);
    this.root.replaceChildren(h('section', { class: 'page puzzles', id: 'puzzle-page' },
      pageHead(t('puzzle.title')),
      h('div', { class: 'game-page pz-layout' },
        h('div', { class: 'board-col' },
          h('div', { class: 'pz-bar' }, this.el.prompt, h('p', { class: 'pz-score' }, this.el.rating, ' ', this.el.change, ' ', this.el.streak), this.el.rules),
          this.el.feedback,
          this.el.board,
          this.el.stepper),
        h('aside', { class: 'side-col' },
          h('div', { class: 'actions pz-actions' }, this.el.hint, this.el.solution, this.el.next),
          h('div', { class: 'pz-modes', role: 'group', 'aria-label': t('puzzle.modes') }, ...MODES.map(modeButton)),
          h('label', { class: 'field pz-theme' }, h('span', {}, t('puzzle.ruleSet')), this.el.ruleSet),
          h('label', { class: 'field pz-theme' }, h('span', {}, t('puzzle.theme')), this.el.theme),
          this.el.about,
          h('h2', { class: 'moves-title' }, t('puzzle.history')),
          this.el.history))));
    this.board = createBoard(this.el.board, {
      ...gameClient().board, lang: currentLang(), pieceStyle: pieceStyle(), announceMoves: true, events: { move: (from, to) => this.played(`${from}${to}`) },
    });
  }

  /** The rule-set choices: the named sets (the default first), then all of them. */
  ruleSetOptions(names) {
    const first = gameClient().defaultRules;
    const sets = [first, ...names.filter((name) => name !== first)];
    return [...sets.map((name) => h('option', { value: name, selected: name === this.rules }, ruleSetLabel(name))),
      h('option', { value: ANY_RULES, selected: this.rules === ANY_RULES }, t('puzzle.ruleSet.any'))];
  }

  async loadThemes() {
    let counts;
    try {
      counts = await api(`/api/puzzles/themes?${new URLSearchParams({ rules: this.rules })}`);
    } catch {
      return;
    }
    if (this.closed) return;
    this.el.ruleSet.replaceChildren(...this.ruleSetOptions(counts.rules.map((r) => r.rules)));
    this.el.theme.replaceChildren(h('option', { value: '' }, t('puzzle.theme.any')),
      ...counts.themes.filter((c) => c.count > 0).map((c) => h('option', { value: c.theme, selected: c.theme === this.theme },
        t('puzzle.themeCount', { theme: t(`puzzle.theme.${c.theme}`), n: c.count }))));
  }

  // ----- loading a puzzle -----------------------------------------------------------------
  async load() {
    const request = ++this.request;
    this.setFeedback('', t('puzzle.loading'));
    let got;
    try {
      await ensurePlayer();
      if (this.id) got = await api(`/api/puzzles/${encodeURIComponent(this.id)}`);
      else if (this.mode === 'daily') got = await api(`/api/puzzles/daily?${new URLSearchParams({ rules: this.rules })}`);
      else {
        const query = new URLSearchParams({ mode: this.mode, rules: this.rules });
        if (this.mode === 'theme' && this.theme) query.set('theme', this.theme);
        got = await api(`/api/puzzles/next?${query}`);
      }
    } catch (error) {
      if (request === this.request) this.setFeedback('error', t('puzzle.error', { message: error.message || String(error) }));
      return;
    }
    if (request !== this.request) return;
    this.start(got);
    this.refreshPlayer();
  }

  start(got) {
    const p = got.puzzle;
    this.puzzle = p;
    this.moves = []; // the player's moves so far
    this.replies = []; // the opponent's replies to them
    this.line = null; // the solution, once solved or asked for
    this.lineText = []; // its readable texts
    this.over = false;
    this.hints = 0;
    this.retry = false; // this go's miss is recorded (a wrong move or a hint)
    this.wrongAnswer = null; // a wrong move on the board, until it is taken back
    delete this.el.board.dataset.wrong;
    this.id = null; // the next puzzle comes from the mode
    this.root.querySelector('#puzzle-page').dataset.puzzle = p.id;
    this.board.set({
      position: p.fen, orientation: p.turn, turnColor: p.turn, movableColor: p.turn, dests: p.dests,
      lastMove: null, hint: null, selected: null,
    });
    this.el.prompt.textContent = this.goalText(p);
    this.el.rules.textContent = t('puzzle.rules', { rules: ruleSetLabel(p.rules) });
    const themes = p.themes.map((name) => t(`puzzle.theme.${name}`)).join(' · ');
    const about = [t('puzzle.about', { rating: p.rating, moves: p.moves, plays: p.plays })];
    if (themes) about.push(themes);
    if (got.day) about.push(t('puzzle.dailyOf', { day: got.day }));
    this.el.about.textContent = about.join(' — ');
    this.el.stepper.hidden = true;
    this.el.hint.disabled = false;
    this.el.solution.disabled = false;
    this.el.change.textContent = '';
    this.el.change.className = 'pz-change';
    this.setFeedback('', t('puzzle.yourMove', { n: p.moves }));
    if (got.player) this.showPlayer(got.player);
  }

  async refreshPlayer() {
    try {
      const me = await api('/api/puzzles/me');
      if (!this.closed) this.showPlayer(me);
    } catch {
      // a rating we could not read stays as it was
    }
  }

  showPlayer(me) {
    this.el.rating.textContent = t('puzzle.yourRating', { rating: me.rating });
    this.el.streak.textContent = this.mode === 'streak' ? t('puzzle.streak', { n: me.streak, best: me.streak_best }) : '';
    this.el.history.replaceChildren(...me.history.slice(0, 10).map((a) => h('li', { class: a.solved ? 'pz-won' : 'pz-lost' },
      h('a', { href: `#/puzzles/${encodeURIComponent(a.puzzle)}` }, `${a.solved ? '✓' : '✗'} ${a.puzzle_rating}`),
      a.rated ? ` ${signed(a.change)}` : '')));
  }

  /** What the puzzle asks, by its goal: a den entry (or the way to it), a win, a defence. */
  goalText(p) {
    const side = t(`side.${p.turn}`);
    if (p.goal === 'defence') return plural('puzzle.goal.defence', p.depth, { side });
    const goal = p.goal === 'den' ? 'den' : 'win';
    return p.moves > 1 ? t(`puzzle.goal.${goal}In`, { side, n: p.moves }) : t(`puzzle.goal.${goal}`, { side });
  }

  /** The puzzle's goal as the feedback words key it. */
  get goal() {
    return ['den', 'defence'].includes(this.puzzle?.goal) ? this.puzzle.goal : 'win';
  }

  setFeedback(kind, text) {
    this.el.feedback.textContent = text;
    this.el.feedback.dataset.result = kind;
  }

  // ----- solving --------------------------------------------------------------------------
  async played(move) {
    if (!this.puzzle || this.over) return;
    const p = this.puzzle;
    this.board.set({ movableColor: null, dests: {}, hint: null, selected: null });
    this.moves.push(move);
    const request = this.request;
    let answer;
    try {
      answer = await api(`/api/puzzles/${encodeURIComponent(p.id)}/attempt`, { method: 'POST', body: { moves: this.moves, mode: this.mode, retry: this.retry } });
    } catch (error) {
      if (request !== this.request) return;
      this.moves.pop();
      this.setFeedback('error', t('puzzle.error', { message: error.message || String(error) }));
      return;
    }
    if (request !== this.request) return;
    const played = readable(answer.move_text, move);
    if (answer.result === 'continue') {
      this.setFeedback('right', `✓ ${played}`);
      this.replies[this.moves.length - 1] = answer.reply;
      this.timer = setTimeout(() => {
        if (request !== this.request) return;
        this.board.move(answer.reply.slice(0, 2), answer.reply.slice(2, 4));
        this.board.set({ movableColor: p.turn, turnColor: p.turn, dests: answer.dests, lastMove: [answer.reply.slice(0, 2), answer.reply.slice(2, 4)] });
        this.setFeedback('right', t('puzzle.replied', { move: played, reply: readable(answer.reply_text, answer.reply) }));
      }, REPLY_DELAY);
      return;
    }
    if (answer.result === 'wrong') this.wrong(answer, played, request);
    else this.solved(answer, played);
  }

  /** A wrong move: marked where it landed, then taken back; the player tries again. */
  wrong(answer, played, request) {
    this.moves.pop();
    this.retry = true;
    if (answer.score) this.showScore(answer.score);
    this.setFeedback('wrong', t(`puzzle.wrong.${this.goal}`, { move: played }));
    this.el.board.dataset.wrong = answer.move;
    this.wrongAnswer = answer;
    this.timer = setTimeout(() => {
      if (request === this.request) this.takeBack();
    }, WRONG_DELAY);
    this.refreshPlayer();
  }

  /** Take the wrong move back (now, if a hint is asked before its time): the position before
   * it, the player's to move again. */
  takeBack() {
    const answer = this.wrongAnswer;
    if (!answer) return;
    this.wrongAnswer = null;
    clearTimeout(this.timer);
    delete this.el.board.dataset.wrong;
    const p = this.puzzle;
    this.board.set({ position: answer.fen, turnColor: p.turn, movableColor: p.turn, dests: answer.dests, lastMove: this.lastReply(), selected: null });
  }

  /** The opponent's last reply (to mark again once a wrong move is taken back), or null. */
  lastReply() {
    const reply = this.replies?.[this.moves.length - 1];
    return reply ? [reply.slice(0, 2), reply.slice(2, 4)] : null;
  }

  solved(answer, played) {
    this.over = true;
    this.line = answer.solution;
    this.lineText = answer.solution_text || [];
    this.board.set({ movableColor: null, dests: {} });
    this.el.hint.disabled = true;
    this.el.solution.disabled = true;
    if (answer.score) this.showScore(answer.score);
    this.setFeedback('solved', t(`puzzle.solved.${this.goal}`, { move: played }));
    this.showStepper(this.line.length);
    this.refreshPlayer();
  }

  showScore(score) {
    this.el.rating.textContent = t('puzzle.yourRating', { rating: score.rating });
    if (score.rated) {
      this.el.change.textContent = signed(score.change);
      this.el.change.className = `pz-change ${score.change >= 0 ? 'up' : 'down'}`;
    }
    if (this.mode === 'streak') this.el.streak.textContent = t('puzzle.streak', { n: score.streak, best: score.streak_best });
  }

  async hint() {
    if (!this.puzzle || this.over) return;
    this.takeBack();
    const level = Math.min(2, this.hints + 1);
    let answer;
    try {
      answer = await api(`/api/puzzles/${encodeURIComponent(this.puzzle.id)}/hint`, { method: 'POST', body: { moves: this.moves, level, mode: this.mode } });
    } catch (error) {
      this.setFeedback('error', t('puzzle.error', { message: error.message || String(error) }));
      return;
    }
    this.hints = level;
    this.retry = true;
    if (answer.score) this.showScore(answer.score);
    if (answer.move) {
      this.board.set({ hint: [answer.move.slice(0, 2), answer.move.slice(2, 4)] });
      this.setFeedback('hint', t('puzzle.hintMove', { move: readable(answer.move_text, answer.move) }));
    } else {
      this.board.set({ selected: answer.square });
      this.setFeedback('hint', t('puzzle.hintPiece', { piece: readable(answer.piece, '?'), square: answer.square }));
    }
  }

  async giveUp() {
    if (!this.puzzle || this.over) return;
    let answer;
    try {
      answer = await api(`/api/puzzles/${encodeURIComponent(this.puzzle.id)}/solution`, { method: 'POST', body: { mode: this.mode } });
    } catch (error) {
      this.setFeedback('error', t('puzzle.error', { message: error.message || String(error) }));
      return;
    }
    this.wrongAnswer = null;
    clearTimeout(this.timer);
    delete this.el.board.dataset.wrong;
    this.over = true;
    this.line = answer.solution;
    this.lineText = answer.solution_text || [];
    this.board.set({ movableColor: null, dests: {}, hint: null, selected: null });
    this.el.hint.disabled = true;
    this.el.solution.disabled = true;
    if (answer.score) this.showScore(answer.score);
    this.setFeedback('shown', t(`puzzle.shown.${this.goal}`));
    this.showStepper(0);
    this.step(1);
  }

  // ----- the solution, move by move -------------------------------------------------------
  showStepper(at) {
    this.at = 0;
    this.board.set({ position: this.puzzle.fen, lastMove: null, hint: null, selected: null });
    for (let i = 0; i < Math.min(at, this.line.length); i++) this.applyPly(i, false);
    this.el.stepper.hidden = false;
    this.updateStepper();
  }

  applyPly(i, animate = true) {
    const move = this.line[i];
    if (animate) this.board.move(move.slice(0, 2), move.slice(2, 4));
    else {
      this.board.set({ animation: { enabled: false } });
      this.board.move(move.slice(0, 2), move.slice(2, 4));
      this.board.set({ animation: { enabled: true } });
    }
    this.board.set({ lastMove: [move.slice(0, 2), move.slice(2, 4)] });
    this.at = i + 1;
  }

  step(delta) {
    if (!this.line) return;
    if (delta > 0 && this.at < this.line.length) this.applyPly(this.at);
    else if (delta < 0 && this.at > 0) {
      const target = this.at - 1;
      this.board.set({ position: this.puzzle.fen, lastMove: null });
      this.at = 0;
      for (let i = 0; i < target; i++) this.applyPly(i, false);
    }
    this.updateStepper();
  }

  updateStepper() {
    this.el.prev.disabled = this.at <= 0;
    this.el.fwd.disabled = this.at >= this.line.length;
    const move = this.at ? readable(this.lineText[this.at - 1], this.line[this.at - 1]) : '—';
    this.el.stepText.textContent = t('puzzle.step', { n: this.at, total: this.line.length, move });
  }

  // ----- choosing -------------------------------------------------------------------------
  switchMode(mode) {
    this.mode = mode;
    this.theme = '';
    this.el.theme.value = '';
    for (const m of MODES) this.root.querySelector(`#pz-mode-${m}`).setAttribute('aria-pressed', String(m === mode));
    this.id = null;
    this.load();
  }

  chooseRules(rules) {
    this.rules = rules;
    saveRules(rules);
    this.id = null;
    this.loadThemes();
    this.load();
  }

  chooseTheme(theme) {
    this.theme = theme;
    this.mode = theme ? 'theme' : 'rated';
    for (const m of MODES) this.root.querySelector(`#pz-mode-${m}`).setAttribute('aria-pressed', String(m === this.mode));
    this.id = null;
    this.load();
  }

  nextPuzzle() {
    if (this.mode === 'daily') this.mode = 'rated';
    for (const m of MODES) this.root.querySelector(`#pz-mode-${m}`).setAttribute('aria-pressed', String(m === this.mode));
    this.id = null;
    this.load();
  }
}
