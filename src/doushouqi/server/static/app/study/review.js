// Game review on the replay page: the server's grades of every analysed move (POST /api/review:
// accuracy per player, inaccuracies ?!, mistakes ?, blunders ??; the arithmetic is the
// server's, server/grading.py), the better move and its line for a marked move, and "learn
// from your mistakes": each mistake of one side replayed as a puzzle, judged by the server
// (POST /api/review/check). replay.js owns the page; this module fills its review box.

import { createBoard } from '../../board/board.js';
import { t, currentLang } from '../shell/i18n.js';
import { moveText } from '../shell/move_text.js';
import { api } from '../shell/api.js';
import { h } from '../shell/dom.js';
import { sideName, sideToken } from '../shell/site_games.js';
import { pieceStyle } from '../shell/appearance.js';

/** A grade's mark in the move list and on the graph. */
export const GRADE_MARKS = Object.freeze({ inaccuracy: '?!', mistake: '?', blunder: '??' });
const CHECK_MOVETIME = 0.3;

/** The board options a position of this replay needs (names and ranks of the rule set). */
function boardOptions(game, rules) {
  return { lang: currentLang(), pieceStyle: pieceStyle(game), ...game.lookOf(rules) };
}

/** The words of a list of moves (as /api/position names them), joined. */
function lineText(moves) {
  return moves.map((m) => moveText(m.readable_zh, m.readable_en) || m.move).join('  ');
}

export class Review {
  /** `view`: the replay (fens, moves, analyses, data, goTo, buildMoves, renderAnalysis). */
  constructor(view) {
    this.view = view;
    this.grades = new Map(); // ply → {grade, loss, accuracy, mover}
    this.players = null;
    this.pending = null; // the scores sent last, while a request is out
    this.again = false;
    this.lines = new Map(); // ply → the better line's words (fetched on demand)
    this.learn = null;
    this.mine = []; // the colours (0 Red, 1 Blue) the reader played in this game, if any
    if (view.kind === 'game') this.findSeats();
    this.el = {
      box: h('div', { class: 'rv-box', id: 'rv-summary', hidden: true }),
      better: h('div', { class: 'rv-better', id: 'rv-better', hidden: true, 'aria-live': 'polite' }),
    };
  }

  /** Which side the reader played (a game of the server): their mistakes come first. */
  async findSeats() {
    try {
      const state = await api(`/api/games/${encodeURIComponent(this.view.id)}`);
      this.mine = Array.isArray(state.you?.seats) ? state.you.seats : [];
    } catch {
      return;
    }
    if (!this.view.closed) this.renderSummary();
  }

  /** The marked plies' grades, for the move list and the graph. */
  gradeOf(ply) {
    return this.grades.get(ply)?.grade ?? null;
  }

  /** Plies graded mistake or blunder (what the page counts as mistakes). */
  mistakes() {
    return new Set([...this.grades].filter(([, g]) => g.grade === 'mistake' || g.grade === 'blunder').map(([ply]) => ply));
  }

  /** New scores: ask the server to grade them (one request at a time; the latest wins). */
  update(scores) {
    if (!scores.some((s) => typeof s === 'number')) return;
    if (this.pending) {
      this.again = true;
      return;
    }
    this.pending = this.send(scores).finally(() => {
      this.pending = null;
      if (this.again && !this.view.closed) {
        this.again = false;
        this.update(this.view.scores);
      }
    });
  }

  async send(scores) {
    const v = this.view;
    const turn = v.game.seatToMove(v.fens[0]); // the game's own side letters (w/b; t/m)
    let answer;
    try {
      answer = await api('/api/review', { method: 'POST', body: { scores, turn, moves: v.moves } });
    } catch {
      return; // the next score tries again
    }
    if (v.closed) return;
    this.showGrades(answer.plies, answer.players);
  }

  /** The server's grades (`plies`: each graded ply) and each side's summary, on the page. */
  showGrades(plies, players) {
    const v = this.view;
    this.grades = new Map(plies.filter((p) => p.grade).map((p) => [p.ply, p]));
    this.players = players;
    v.mistakes = this.mistakes();
    v.buildMoves();
    v.showAnalysisState();
    v.renderAnalysis();
    this.renderSummary();
  }

  // ----- the summary: accuracy and counts per player, and the learn buttons ----------------
  renderSummary() {
    const players = this.players;
    if (!players || !players.some((p) => p.moves)) {
      this.el.box.hidden = true;
      return;
    }
    const key = this.view.game.key; // the sides in the game's words (红方; 虎方 and 人方)
    const seatOf = (color) => (color === 'blue' ? 1 : 0);
    const row = (color, p) => h('tr', { class: `rv-player ${color}`, dataset: { color } },
      h('th', { scope: 'row' }, h('span', { class: `token small ${color}`, 'aria-hidden': 'true' }, sideToken(seatOf(color), key)), ' ', sideName(seatOf(color), key)),
      h('td', { class: 'rv-accuracy', dataset: { accuracy: p.accuracy ?? '' } }, p.accuracy === null ? '–' : t('analysis.accuracyValue', { value: p.accuracy.toFixed(1) })),
      h('td', { class: 'rv-inaccuracies' }, String(p.inaccuracies)),
      h('td', { class: 'rv-mistakes' }, String(p.mistakes)),
      h('td', { class: 'rv-blunders' }, String(p.blunders)));
    const yours = this.mine.length === 1 ? this.mine[0] : null; // one seat: that side is "you"
    const learnButton = (color, index) => {
      const count = players[index].mistakes + players[index].blunders;
      const label = index === yours ? t('analysis.learnYours', { n: count }) : t('analysis.learn', { side: sideName(seatOf(color), key), n: count });
      return count ? h('button', { type: 'button', class: `rv-learn${index === yours ? ' primary' : ''}`, id: `rv-learn-${color}`, onclick: () => this.startLearning(index) },
        label) : null;
    };
    const head = h('tr', {}, h('th', {}, ''), h('th', { scope: 'col' }, t('analysis.accuracy')),
      h('th', { scope: 'col', title: t('analysis.grade.inaccuracy') }, `?! ${t('analysis.short.inaccuracy')}`),
      h('th', { scope: 'col', title: t('analysis.grade.mistake') }, `? ${t('analysis.short.mistake')}`),
      h('th', { scope: 'col', title: t('analysis.grade.blunder') }, `?? ${t('analysis.short.blunder')}`));
    const learn = (yours === 1 ? [learnButton('blue', 1), learnButton('red', 0)] : [learnButton('red', 0), learnButton('blue', 1)]).filter(Boolean);
    this.el.box.replaceChildren(
      h('table', { class: 'rv-table', id: 'rv-table' }, h('thead', {}, head), h('tbody', {}, row('red', players[0]), row('blue', players[1]))),
      learn.length ? h('div', { class: 'rv-learn-row' }, h('span', { class: 'rv-learn-title' }, t('analysis.learnTitle')), ...learn) : null);
    this.el.box.hidden = false;
  }

  // ----- the better move for the marked move on the board ----------------------------------
  /** For ply `ply` (the move just played on the board): the engine's better move and line. */
  renderBetter(ply) {
    const graded = ply ? this.grades.get(ply) : null;
    const before = ply ? this.view.analyses[ply - 1] : null;
    const box = this.el.better;
    if (!graded || !before?.bestmove) {
      box.hidden = true;
      box.replaceChildren();
      return;
    }
    const best = moveText(before.readable_zh, before.readable_en) || before.bestmove;
    const line = this.lines.get(ply);
    if (line === undefined) this.fetchLine(ply, before.pv?.length ? before.pv : [before.bestmove]);
    box.dataset.ply = String(ply);
    box.dataset.grade = graded.grade;
    box.replaceChildren(
      h('p', { class: 'rv-better-head' },
        h('strong', { class: `rv-mark ${graded.grade}` }, GRADE_MARKS[graded.grade]), ' ',
        t(`analysis.grade.${graded.grade}`), ' · ', t('analysis.lost', { loss: graded.loss.toFixed(1) })),
      h('p', { class: 'rv-better-move' }, t('analysis.better', { move: best })),
      line ? h('p', { class: 'rv-line', id: 'rv-line' }, t('analysis.line', { line })) : null);
    box.hidden = false;
  }

  async fetchLine(ply, pv) {
    const v = this.view;
    this.lines.set(ply, null);
    const moves = v.moves.slice(0, ply - 1);
    try {
      const answer = await api('/api/position', { method: 'POST', body: { game: v.game.key, rules: v.data.rules, fen: v.fens[0], moves: [...moves, ...pv.slice(0, 8)] } });
      this.lines.set(ply, lineText(answer.moves.slice(moves.length)));
    } catch {
      this.lines.delete(ply);
      return;
    }
    if (!v.closed && v.ply === ply) this.renderBetter(ply);
  }

  // ----- learn from your mistakes ----------------------------------------------------------
  startLearning(side) {
    const plies = [...this.grades].filter(([, g]) => g.mover === side && (g.grade === 'mistake' || g.grade === 'blunder'))
      .map(([ply]) => ply).sort((a, b) => a - b);
    if (!plies.length) return;
    this.stopLearning();
    this.learn = new LearnMistakes(this.view, plies, () => this.stopLearning());
  }

  stopLearning() {
    this.learn?.destroy();
    this.learn = null;
  }

  destroy() {
    this.stopLearning();
  }
}

/** The puzzles of one side's mistakes, one after the other, over the replay's page. */
class LearnMistakes {
  constructor(view, plies, onClose) {
    this.view = view;
    this.plies = plies;
    this.index = 0;
    this.onClose = onClose;
    this.request = 0;
    this.page = view.root.querySelector('.replay-page');
    this.el = {
      board: h('div', { class: 'board-box', id: 'learn-board' }),
      title: h('h2', { class: 'lm-title', id: 'lm-title' }),
      task: h('p', { class: 'lm-task', id: 'lm-task' }),
      feedback: h('p', { class: 'lm-feedback', id: 'lm-feedback', role: 'status' }),
      hint: h('button', { type: 'button', id: 'lm-hint', onclick: () => this.showHint() }, t('analysis.hint')),
      next: h('button', { type: 'button', id: 'lm-next', class: 'primary', onclick: () => this.go(this.index + 1) }, t('analysis.next')),
      close: h('button', { type: 'button', id: 'lm-close', onclick: () => this.onClose() }, t('analysis.stopLearning')),
    };
    this.section = h('div', { class: 'game-page lm-page', id: 'learn-mistakes' },
      h('div', { class: 'board-col' }, this.el.board),
      h('aside', { class: 'side-col lm-side' }, this.el.title, this.el.task, this.el.feedback,
        h('div', { class: 'actions' }, this.el.hint, this.el.next, this.el.close)));
    this.page.hidden = true;
    this.page.after(this.section);
    this.view.root.querySelector('.rp-head')?.scrollIntoView({ block: 'start' }); // the board in view
    this.go(0);
  }

  destroy() {
    this.request++;
    this.board?.destroy();
    this.section.remove();
    this.page.hidden = false;
  }

  /** Puzzle `index`: the position before the mistake, the mistaken side to move. */
  async go(index) {
    if (index >= this.plies.length) {
      this.finish();
      return;
    }
    this.index = index;
    const v = this.view;
    const ply = this.plies[index];
    this.ply = ply;
    this.solved = false;
    const played = v.data.plies[ply - 1];
    const color = v.game.seatToMove(v.fens[ply - 1]) === 1 ? 'blue' : 'red';
    this.el.title.textContent = t('analysis.puzzleOf', { n: index + 1, count: this.plies.length });
    this.el.task.textContent = t('analysis.findBetter', { side: sideName(color === 'blue' ? 1 : 0, v.game.key), move: moveText(played.readable_zh, played.readable) || played.move });
    this.el.feedback.textContent = '';
    this.el.feedback.className = 'lm-feedback';
    this.el.next.textContent = t(index + 1 < this.plies.length ? 'analysis.skip' : 'analysis.finish');
    this.el.hint.disabled = false;
    const game = v.game; // the replay's game (its board, pieces and side letters)
    const config = {
      // The learner's side at the bottom, as the game shows it (老虎棋's tiger sees its nest there).
      ...boardOptions(game, v.data.rules), position: v.fens[ply - 1], orientation: game.orientationFor(color === 'blue' ? 1 : 0), turnColor: color,
      movableColor: null, dests: {}, hint: null, lastMove: null,
      events: { move: (from, to) => this.tried(`${from}${to}`) },
    };
    if (!this.board) this.board = createBoard(this.el.board, { ...game.boardFor(v.data.rules || {}), ...config });
    else this.board.set(config);
    this.el.board.dataset.ply = String(ply - 1);
    await this.loadDests();
  }

  async loadDests() {
    const request = ++this.request;
    const v = this.view;
    const answer = await api('/api/position', { method: 'POST', body: { game: v.game.key, rules: v.data.rules, fen: v.fens[0], moves: v.moves.slice(0, this.ply - 1) } });
    if (request !== this.request) return;
    const color = v.game.seatToMove(v.fens[this.ply - 1]) === 1 ? 'blue' : 'red';
    this.board.set({ position: answer.fen, movableColor: color, dests: answer.dests, turnColor: color });
    this.el.board.dataset.ready = 'true';
  }

  async tried(move) {
    const request = ++this.request;
    const v = this.view;
    this.board.set({ movableColor: null, dests: {} });
    this.el.board.dataset.ready = 'false'; // until the position is offered again
    this.el.feedback.textContent = t('analysis.judging');
    this.el.feedback.className = 'lm-feedback';
    let answer;
    try {
      answer = await api('/api/review/check', { method: 'POST', body: {
        game: v.game.key, rules: v.data.rules, fen: v.fens[0], moves: v.moves.slice(0, this.ply - 1), move, movetime: CHECK_MOVETIME,
      } });
    } catch (error) {
      if (request !== this.request) return;
      this.el.feedback.textContent = t('analysis.judgeError', { message: error.message || String(error) });
      this.el.feedback.className = 'lm-feedback error';
      this.retry();
      return;
    }
    if (request !== this.request) return;
    const best = moveText(answer.best.readable_zh, answer.best.readable_en) || answer.best.move;
    if (answer.accepted) {
      this.solved = true;
      this.el.feedback.textContent = answer.move === answer.best.move ? t('analysis.right') : t('analysis.rightToo', { move: best });
      this.el.feedback.className = 'lm-feedback good';
      this.el.next.textContent = t(this.index + 1 < this.plies.length ? 'analysis.next' : 'analysis.finish');
      this.el.hint.disabled = true;
    } else {
      this.el.feedback.textContent = t('analysis.wrong', { loss: answer.loss.toFixed(1) });
      this.el.feedback.className = 'lm-feedback bad';
      setTimeout(() => { if (request === this.request) this.retry(); }, 900);
    }
  }

  retry() {
    this.board.set({ position: this.view.fens[this.ply - 1], lastMove: null });
    this.loadDests();
  }

  /** The engine's move, as an arrow on the board. */
  showHint() {
    const best = this.view.analyses[this.ply - 1]?.bestmove;
    if (!best) return;
    this.board.set({ hint: this.view.game.moveSquares(best) }); // e10e9: two-digit points
    const a = this.view.analyses[this.ply - 1];
    this.el.feedback.textContent = t('analysis.hintText', { move: moveText(a.readable_zh, a.readable_en) || best });
    this.el.feedback.className = 'lm-feedback';
  }

  finish() {
    this.request++;
    this.board.set({ movableColor: null, dests: {}, hint: null });
    this.el.title.textContent = t('analysis.learnDone');
    this.el.task.textContent = '';
    this.el.feedback.textContent = '';
    this.el.hint.disabled = true;
    this.el.next.hidden = true;
  }
}
