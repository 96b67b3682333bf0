// The learn pages: the list of lessons (#/learn) and one interactive lesson (#/learn/{id}).
//
// Every game the site offers with lessons (`/api/site-games`: `lessons`) brings its own, in its
// client module (games/<key>/: the lesson data and its `meetsGoal`); the list shows a section
// per game. A lesson teaches one side (its `seat`), in positions with that side to move.
//
// The client knows no rules. For every position it asks the server (POST /api/position: the
// game, the lesson's position and the moves played so far) for the legal destinations, the
// outcome and the threats, and the board component only offers those moves. What this module
// decides is whether a legal move meets the step's goal (the game's `meetsGoal`): a right move
// earns praise and the next step, a wrong one a hint and a retry that resets the step. A try the
// rules forbid (the board's `illegal` event) is sent to the server too (POST
// /api/position/explain), whose answer says why (a code, put in the reader's words by the
// translations: illegal.<game>.<code>).
// Completed lessons are remembered in localStorage and ticked in the list.

import { createBoard } from '../../board/board.js';
import { GAMES, gameClient } from '../../games/index.js';
import { pieceIcon } from '../shell/icons.js';
import { t, currentLang, hasKey } from '../shell/i18n.js';
import { moveText } from '../shell/move_text.js';
import { api } from '../shell/api.js';
import { h, pageHead } from '../shell/dom.js';
import { gameName, offered } from '../shell/site_games.js';

/** Every lesson of every game the client knows, each with its game's key: ids are unique
 * across games (`tiger-jump`), so that an address names one lesson. */
export const LESSONS = Object.values(GAMES).flatMap((game) =>
  game.lessons.lessons.map((lesson) => ({ ...lesson, game: game.key, seat: lesson.seat ?? 0 })));

const DONE_KEY = 'doushouqi.lessons.done';
const SEAT_COLORS = ['red', 'blue']; // the board component's names of seats 0 and 1
const REPLY_DELAY_MS = 500; // a pause before the opponent's scripted answer, to see both moves

// Where the learner is in the lesson on screen: its step and the moves that led there (a step
// without a position of its own continues from them). Switching the language draws the page
// anew; the step, also kept in the address (#/learn/{id}?step=N), and these moves let the new
// page carry on from the same step instead of step 1.
let resume = null; // {lesson, index, fen, line}

// ----- progress ---------------------------------------------------------------------------

/** The ids of the lessons completed on this device. */
export function completedLessons() {
  try {
    const ids = JSON.parse(localStorage.getItem(DONE_KEY));
    return new Set(Array.isArray(ids) ? ids : []);
  } catch {
    return new Set();
  }
}

function markCompleted(id) {
  const done = completedLessons();
  done.add(id);
  try { localStorage.setItem(DONE_KEY, JSON.stringify([...done])); } catch { /* private mode */ }
}

// ----- goals ------------------------------------------------------------------------------

/**
 * Whether the move from → to meets `goal` of a lesson of `game` (every condition it names must
 * hold). `before` and `after` are the server's answers for the positions before and after the
 * move; `seat` is the learner's.
 */
export function meetsGoal(goal, from, to, before, after, { game = 'jungle', seat = 0 } = {}) {
  return gameClient(game).meetsGoal(goal, from, to, before, after, { seat });
}

/** The lessons of the game `key`, in order. */
function lessonsOf(key) {
  return LESSONS.filter((lesson) => lesson.game === key);
}

// ----- the list ---------------------------------------------------------------------------

/** The list: a section per offered game with lessons (its name as a heading where there are
 * several), each lesson ticked once completed, and a link to the game's rules. */
export function learnListView(view) {
  const list = h('div', { class: 'learn-games', id: 'learn-games', 'aria-busy': 'true' });
  const progress = h('p', { class: 'learn-progress', id: 'learn-progress' });
  view.replaceChildren(h('section', { class: 'page narrow learn' },
    pageHead(t('learn.title'), '#/', t('nav.home')),
    h('p', { class: 'learn-intro' }, t('learn.intro')),
    progress, list));
  offered({ needs: 'lessons' }).then((games) => {
    if (!list.isConnected) return;
    const shown = games.map((g) => g.key).filter((key) => lessonsOf(key).length);
    const lessons = shown.flatMap(lessonsOf);
    const done = completedLessons();
    const count = lessons.filter((lesson) => done.has(lesson.id)).length;
    progress.textContent = t('learn.progress', { done: count, total: lessons.length });
    list.replaceChildren(...shown.map((key) => gameSection(key, shown.length > 1, done)));
    list.removeAttribute('aria-busy');
  });
}

function gameSection(key, titled, done) {
  const game = gameClient(key);
  return h('section', { class: 'learn-game', dataset: { game: key }, 'aria-label': gameName(key) },
    titled ? h('h2', { class: 'learn-game-title' }, gameName(key)) : null,
    h('ol', { class: 'lesson-list', id: `lesson-list-${key}` },
      lessonsOf(key).map((lesson, i) => {
        const finished = done.has(lesson.id);
        return h('li', { class: 'lesson-item', dataset: { lesson: lesson.id, done: String(finished) } },
          h('a', { class: 'lesson-link', href: `#/learn/${lesson.id}` },
            pieceIcon(...lesson.icon, 'lesson-icon', game),
            h('span', { class: 'lesson-info' },
              h('strong', {}, `${i + 1}. ${t(`learn.${lesson.id}.title`)}`),
              h('small', {}, t(`learn.${lesson.id}.summary`))),
            h('span', { class: 'lesson-tick', 'aria-hidden': 'true' }, finished ? '✓' : ''),
            finished ? h('span', { class: 'learn-sr-only' }, t('learn.completed')) : null));
      })),
    h('a', { class: 'button learn-rules', href: `#/rules/${game.defaultRules}`, id: `learn-rules-${key}` },
      titled ? t('learn.rulesOf', { game: gameName(key) }) : t('learn.rules')));
}

// ----- one lesson -------------------------------------------------------------------------

/** The step to open (`?step=N`, counted from 1) and the position it starts from: the moves this
 * page kept for it, or else (a reload) the nearest step up to it that sets up its own position. */
function startingPoint(lesson, params) {
  const wanted = Math.trunc(Number(params.get('step'))) - 1;
  let index = Number.isFinite(wanted) ? Math.min(Math.max(wanted, 0), lesson.steps.length - 1) : 0;
  if (resume?.lesson === lesson.id && resume.index === index) return resume;
  while (index > 0 && !lesson.steps[index].fen) index -= 1;
  return { lesson: lesson.id, index, fen: null, line: [] };
}

/** Show lesson `id` at the step `params` name; returns the cleanup for the router (null when
 * there is no such lesson). */
export function lessonView(view, id, params = new URLSearchParams()) {
  const lesson = LESSONS.find((l) => l.id === id);
  if (!lesson) {
    view.replaceChildren(h('section', { class: 'page narrow' },
      pageHead(t('learn.title'), '#/learn', t('learn.back')),
      h('p', { class: 'error', role: 'alert' }, t('learn.notFound'))));
    return null;
  }
  const page = new LessonView(view, lesson, startingPoint(lesson, params));
  return () => page.destroy();
}

// The room kept under the board for the feedback (two lines) and its button, and the narrowest
// board worth showing (squares still easy to tap). The board's width / height, frame included,
// is its geometry's (Jungle's 7 × 9 squares, 老虎棋's 9 × 11 points) with about a square of frame.
const RESULT_REM = 7.5;
const MIN_BOARD_PX = 320;

class LessonView {
  constructor(root, lesson, start) {
    this.root = root;
    this.lesson = lesson;
    this.game = gameClient(lesson.game);
    this.data = this.game.lessons;
    this.learner = SEAT_COLORS[lesson.seat];
    this.tries = 0; // answers to older illegal tries are dropped
    this.index = 0;
    this.fen = null; // the position the current line of moves starts from
    this.line = []; // moves played from `fen`: the learner's and the scripted replies
    this.stepStart = []; // `line` when the current step began (what a retry goes back to)
    this.position = null; // the server's answer for the position on the board
    this.request = 0; // answers to older requests are dropped
    this.closed = false;
    this.build();
    this.startStep(start.index, start);
  }

  destroy() {
    this.closed = true;
    clearTimeout(this.replyTimer);
    window.removeEventListener('resize', this.fit);
    this.board.destroy();
  }

  /**
   * On a phone, a board small enough that the task, the whole board and the feedback with its
   * button fit on the screen together (measured: the task's height depends on the text and
   * the language). Where a long text leaves too little room, the board keeps a size still
   * easy to tap, and the board with the feedback and its button still fit under the top bar
   * (the page scrolls the text away when the feedback comes).
   */
  fitBoard() {
    const col = this.el.board.parentElement;
    if (!col?.isConnected) return;
    if (window.matchMedia('(min-width: 60rem)').matches) {
      col.style.width = '';
      return;
    }
    const rem = parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;
    const reserve = RESULT_REM * rem;
    const top = col.getBoundingClientRect().top + window.scrollY;
    const bar = document.querySelector('.topbar')?.getBoundingClientRect().height ?? 0;
    const { numFiles, numRanks } = this.game.boardFor(this.data.rules).geometry;
    const aspect = (numFiles + 0.9) / (numRanks + 0.9);
    const all = (window.innerHeight - top - reserve) * aspect; // no scrolling at all
    const most = (window.innerHeight - bar - reserve) * aspect; // board and feedback
    const width = Math.min(col.parentElement.clientWidth, most, Math.max(all, MIN_BOARD_PX));
    col.style.width = `${Math.floor(width)}px`;
  }

  build() {
    const n = this.lesson.steps.length;
    this.el = {
      step: h('p', { class: 'lesson-step', id: 'lesson-step' }),
      dots: h('ol', { class: 'lesson-dots', 'aria-hidden': 'true' },
        this.lesson.steps.map(() => h('li', {}))),
      text: h('p', { class: 'lesson-text', id: 'lesson-text' }),
      goal: h('p', { class: 'lesson-goal', id: 'lesson-goal' }),
      howto: h('p', { class: 'lesson-howto' }, t(this.data.howto[this.lesson.seat])),
      board: h('div', { class: 'board-box', id: 'lesson-board' }),
      feedback: h('div', { class: 'lesson-feedback', id: 'lesson-feedback', role: 'status', 'aria-live': 'polite' }),
      actions: h('div', { class: 'lesson-actions', id: 'lesson-actions' }),
    };
    this.el.dots.dataset.total = String(n);
    this.root.replaceChildren(h('section', { class: 'page lesson-page', dataset: { lesson: this.lesson.id, game: this.lesson.game } },
      pageHead(t(`learn.${this.lesson.id}.title`), '#/learn', t('learn.back')),
      h('div', { class: 'lesson-layout' },
        h('div', { class: 'lesson-task' }, h('div', { class: 'lesson-progress' }, this.el.step, this.el.dots),
          this.el.text, this.el.goal, this.el.howto),
        h('div', { class: 'lesson-board-col' }, this.el.board),
        h('div', { class: 'lesson-result' }, this.el.feedback, this.el.actions))));
    this.board = createBoard(this.el.board, {
      ...this.game.boardFor(this.data.rules),
      orientation: this.game.orientationFor(this.lesson.seat),
      lang: currentLang(),
      events: { move: (from, to) => this.onMove(from, to), illegal: (from, to) => this.onIllegal(from, to) },
    });
    this.fit = () => this.fitBoard();
    window.addEventListener('resize', this.fit);
  }

  get step() {
    return this.lesson.steps[this.index];
  }

  text(part) {
    return t(`learn.${this.lesson.id}.${this.index + 1}.${part}`);
  }

  /** Begin step `index`: from its own position, from where the last step ended, or from
   * `from` (a step resumed after the page was drawn anew). */
  startStep(index, from = null) {
    this.index = index;
    if (from?.fen) {
      this.fen = from.fen;
      this.line = [...from.line];
    } else if (this.step.fen) {
      this.fen = this.step.fen;
      this.line = [];
    }
    this.stepStart = [...this.line];
    resume = { lesson: this.lesson.id, index, fen: this.fen, line: [...this.line] };
    // The step in the address, without a new route (a reload opens it too).
    const address = `#/learn/${this.lesson.id}${index ? `?step=${index + 1}` : ''}`;
    if (location.hash !== address) history.replaceState(null, '', address);
    const n = this.lesson.steps.length;
    this.el.step.textContent = t('learn.step', { n: index + 1, total: n });
    [...this.el.dots.children].forEach((dot, i) => { dot.className = i < index ? 'done' : i === index ? 'current' : ''; });
    this.el.text.textContent = this.text('text');
    this.el.goal.replaceChildren(h('strong', { class: 'lesson-goal-label' }, t('learn.goal')), ' ', this.text('goal'));
    this.fitBoard(); // the text above the board changed
    this.showFeedback(null);
    this.el.actions.replaceChildren();
    this.load(this.line);
  }

  /** Ask the server for the position after `moves` from the step's position. */
  query(moves) {
    const body = { game: this.lesson.game, rules: this.data.rules, fen: this.fen, moves };
    return api('/api/position', { method: 'POST', body });
  }

  /** [from, to] of a move string, for the board's last-move marks. */
  squares(move) {
    return move ? this.game.moveSquares(move) : null;
  }

  /** Show the position after `moves` with the learner to move. */
  async load(moves) {
    const request = ++this.request;
    this.board.set({ movableColor: null, dests: {} });
    let answer;
    try {
      answer = await this.query(moves);
    } catch (error) {
      if (request === this.request && !this.closed) this.fail(error);
      return;
    }
    if (request !== this.request || this.closed) return;
    this.position = answer;
    const threats = answer.threats ? [...answer.threats.attacked, ...answer.threats.den] : [];
    this.board.set({
      position: answer.fen, lastMove: this.squares(answer.last_move), turnColor: this.learner,
      movableColor: this.learner, dests: answer.dests, threats, selected: null,
    });
  }

  /**
   * The learner tried a move the board does not offer (a tap or a drop on a square that is no
   * destination): the server says why the rules forbid it, and the lesson says so in the
   * reader's words. The position and the step stay as they were.
   */
  async onIllegal(from, to) {
    if (!this.position || this.closed) return;
    const request = this.request;
    const attempt = ++this.tries;
    const body = { game: this.lesson.game, rules: this.data.rules, fen: this.fen, moves: this.line, move: from + to };
    let why;
    try {
      why = await api('/api/position/explain', { method: 'POST', body });
    } catch {
      return; // the server is away: the board's own "not a legal move" has to do
    }
    if (attempt !== this.tries || request !== this.request || this.closed) return;
    const key = `illegal.${this.lesson.game}.${why.reason}`;
    if (why.legal || !why.reason || !hasKey(key)) return; // nothing the lesson can explain
    this.showFeedback('illegal', t('learn.illegal', { reason: t(key, this.reasonWords(why.params)) }));
  }

  /** The details of a refusal as its words need them: pieces by kind in the reader's words. */
  reasonWords(params) {
    const words = { ...params };
    for (const key of ['piece', 'target']) {
      if (params[key]) words[key] = this.game.kindWord(params[key]);
    }
    return words;
  }

  async onMove(from, to) {
    const request = ++this.request;
    const before = this.position;
    const move = from + to;
    this.board.set({ movableColor: null, dests: {}, threats: [] });
    let after;
    try {
      after = await this.query([...this.line, move]);
    } catch (error) {
      if (request === this.request && !this.closed) this.fail(error);
      return;
    }
    if (request !== this.request || this.closed) return;
    this.position = after;
    this.board.set({ position: after.fen, lastMove: [from, to], turnColor: SEAT_COLORS[after.turn] });
    const whose = { game: this.lesson.game, seat: this.lesson.seat };
    if (!meetsGoal(this.step.goal, from, to, before, after, whose)) {
      this.showFeedback('wrong', t('learn.wrong', { hint: this.text('hint') }));
      this.offer(this.retryButton());
      return;
    }
    this.line.push(move);
    this.showFeedback('right', t('learn.right', { done: this.text('done') }));
    this.el.dots.children[this.index].className = 'done';
    if (this.step.reply) {
      await this.playReply(this.step.reply, request);
      if (request !== this.request || this.closed) return;
    }
    if (this.index + 1 < this.lesson.steps.length) {
      this.offer(h('button', { type: 'button', class: 'primary', id: 'lesson-next', onclick: () => this.startStep(this.index + 1) }, t('learn.next')));
    } else {
      this.finish();
    }
  }

  /** Play the opponent's scripted answer after a pause, and say what it was. */
  async playReply(reply, request) {
    await new Promise((resolve) => { this.replyTimer = setTimeout(resolve, REPLY_DELAY_MS); });
    if (request !== this.request || this.closed) return;
    let answer;
    try {
      answer = await this.query([...this.line, reply]);
    } catch (error) {
      if (request === this.request && !this.closed) this.fail(error);
      return;
    }
    if (request !== this.request || this.closed) return;
    this.line.push(reply);
    this.position = answer;
    this.board.set({ position: answer.fen, lastMove: this.squares(reply), turnColor: this.learner });
    const played = answer.moves[answer.moves.length - 1];
    const readable = moveText(played.readable_zh, played.readable_en);
    const replying = this.data.replies[1 - this.lesson.seat];
    this.el.feedback.append(h('p', { class: 'lesson-reply' }, t(replying, { move: readable })));
  }

  finish() {
    markCompleted(this.lesson.id);
    [...this.el.dots.children].forEach((dot) => { dot.className = 'done'; });
    const done = completedLessons();
    const ofGame = lessonsOf(this.lesson.game);
    const next = ofGame[ofGame.findIndex((l) => l.id === this.lesson.id) + 1];
    const allDone = ofGame.every((l) => done.has(l.id));
    this.el.feedback.append(h('p', { class: 'lesson-complete', id: 'lesson-complete' },
      t('learn.lessonDone'), allDone ? ` ${t('learn.allDone')}` : ''));
    this.offer(
      next ? h('a', { class: 'button primary', href: `#/learn/${next.id}`, id: 'lesson-next-lesson' }, `${t('learn.nextLesson')}: ${t(`learn.${next.id}.title`)}`) : null,
      allDone ? h('a', { class: 'button primary', href: `#/new/vs_ai?game=${this.lesson.game}`, id: 'lesson-play' }, t('learn.play')) : null,
      h('a', { class: 'button', href: '#/learn', id: 'lesson-list-link' }, t('learn.back')));
  }

  retryButton() {
    return h('button', { type: 'button', class: 'primary', id: 'lesson-retry', onclick: () => this.retry() }, t('learn.retry'));
  }

  retry() {
    this.line = [...this.stepStart];
    this.showFeedback(null);
    this.el.actions.replaceChildren();
    this.load(this.line);
  }

  fail(error) {
    this.showFeedback('error', t('learn.error', { message: error.message || error }));
    this.offer(this.retryButton());
  }

  showFeedback(result, message = '') {
    if (result) this.el.feedback.dataset.result = result;
    else delete this.el.feedback.dataset.result;
    this.el.feedback.replaceChildren(...(message ? [h('p', {}, message)] : []));
  }

  /** Show the buttons that lead on, focus the first, and bring them into view on a phone. */
  offer(...buttons) {
    const shown = buttons.filter(Boolean);
    this.el.actions.replaceChildren(...shown);
    shown[0]?.focus({ preventScroll: true });
    this.el.actions.scrollIntoView?.({ block: 'nearest' });
  }
}
