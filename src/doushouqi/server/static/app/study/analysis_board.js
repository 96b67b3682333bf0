// The analysis board (#/analysis?game=…&fen=…&rules=…): set up any position of a game the site
// has a position editor for (the picker lists them; a link without `game` names it by its rule
// set, else the default game), then play lines on it with the engine's best three lines beside
// the board. The page knows no game: the pieces, the board and the words are the game client's.
//
// Setting up: pick a piece from the palette (the game's, by side: Jungle's eight animals each,
// 老虎棋's tiger and man) or the eraser, then tap places, or drag from the palette onto the
// board; drag a piece on the board to move it, off the board to take it away. The server says whether the rules accept the position
// (POST /api/positions/check): its problems come as codes shown in words here. Analysing:
// the board offers the legal moves the server lists (POST /api/position), and the engine's
// three best lines (POST /api/analysis, multipv 3) are shown with their scores; tapping a
// line plays it out. The board component knows no rules.
//
// A position string pasted (or typed) into the position box is set up at once: the server reads
// it (either with its two counters or without them, whatever the whitespace around it); a string
// that is no position of this board's game is refused in words, and one of another game the
// site has an editor for is set up on that game's board.

import { createBoard } from '../../board/board.js';
import { GAMES, gameClient } from '../../games/index.js';
import { t, currentLang } from '../shell/i18n.js';
import { moveText } from '../shell/move_text.js';
import { api, fetchRuleSets } from '../shell/api.js';
import { h, pageHead } from '../shell/dom.js';
import { pieceIcon } from '../shell/icons.js';
import { ruleSetLabel } from '../play/rule_options.js';
import { gameName, gamePicker, offered, sideName } from '../shell/site_games.js';
import * as G from './evalgraph.js';
import { TablebasePanel } from './tablebase_view.js';
import { pieceStyle } from '../shell/appearance.js';

const LINES = 3;
const MOVETIME = 0.5;
const CHECK_DELAY = 150; // ms: a burst of edits is checked once

/** `pieces` (Map place → piece) as the server's {place: letter}, in the game `client`'s letters. */
export function piecesToLetters(pieces, client = gameClient()) {
  const out = {};
  for (const [square, piece] of pieces) out[square] = client.pieceSet.letterOf(piece);
  return out;
}

/** The game a link to the board means: its `game`, else the game whose rule set it names,
 * else the default game. */
export function gameOfLink(params) {
  const named = params.get('game');
  if (named) return gameClient(named);
  const rules = String(params.get('rules') || '').split(' ')[0];
  return Object.values(GAMES).find((g) => g.ruleSetNames.includes(rules)) ?? gameClient();
}

/** The palette's pieces, a row each: [[color, kind], …]. A piece is named by its side only where
 * both sides have its kind (Jungle's red and blue lions; 老虎棋's tiger is the tiger side's). */
export function paletteRows(client) {
  const rows = client.palette.rows;
  const colorsOf = (kind) => new Set(rows.flat().filter(([, k]) => k === kind).map(([c]) => c));
  return rows.map((row) => row.map(([color, kind]) => ({ color, kind, withSide: colorsOf(kind).size > 1 })));
}

/** A pasted position string as the server reads it: its fields split by single spaces, with
 * nothing around them (a copy from a record or a chat brings tabs, newlines, spaces). */
export function cleanPosition(text) {
  return String(text ?? '').trim().split(/\s+/).filter(Boolean).join(' ');
}

/**
 * A position string of the game `client` as {pieces, turn: 'red' | 'blue'}, or null when it is
 * none: the placement as the game's board reads it, a side to move the game's position strings
 * name (its client's `turnLetters`), and either no counters or two whole numbers.
 */
export function readPosition(fen, client) {
  const fields = cleanPosition(fen).split(' ');
  if (fields.length !== 2 && fields.length !== 4) return null;
  if (fields.length === 4 && !fields.slice(2).every((n) => /^[0-9]{1,4}$/.test(n))) return null;
  if (!client.turnLetters?.includes(fields[1])) return null;
  try {
    return { pieces: client.parsePlacement(fields[0]), turn: client.seatToMove(fen) === 1 ? 'blue' : 'red' };
  } catch {
    return null;
  }
}

/** An engine score in words from the first seat's view: "+1.2", "−0.4", "Red: den in 3",
 * "Men: wins in 5". */
function scoreWords(line, turn, key) {
  const described = G.describeScore({ score: line.score, turn });
  if (!described || described.kind === 'over') return '';
  if (described.kind === 'even') return '0.0';
  const side = sideName(described.side === 'blue' ? 1 : 0, key);
  if (described.kind === 'den') return t('analysis.denIn', { side, moves: described.moves });
  if (described.kind === 'win') return t('replay.score.win', { side, moves: described.moves });
  return `${described.side === 'red' ? '+' : '−'}${described.pawns}`;
}

/** `#/analysis`. */
export function analysisBoardView(view, params) {
  const board = new AnalysisBoard(view, params);
  window.analysisBoard = board; // for tests and the curious
  return () => board.destroy();
}

class AnalysisBoard {
  constructor(root, params) {
    this.root = root;
    this.game = gameOfLink(params);
    this.rules = params.get('rules') || this.game.defaultRules;
    this.sets = [];
    this.pieces = new Map();
    this.turn = 'red';
    this.hasTables = false; // until the site says it has tables for this game
    const fen = params.get('fen');
    try {
      this.pieces = this.game.parsePlacement(fen || this.start());
      if (fen) this.turn = this.game.seatToMove(fen) === 1 ? 'blue' : 'red';
    } catch {
      this.pieces = this.game.parsePlacement(this.start());
    }
    this.tool = this.game.pieceOf(...this.game.palette.initial);
    this.mode = 'edit';
    this.checked = null; // the server's answer for the set-up position
    this.line = []; // moves played from it
    this.request = 0;
    this.closed = false;
    this.drag = null;
    this.build();
    this.onPointerUp = (e) => this.pointerUp(e);
    document.addEventListener('pointerup', this.onPointerUp);
    this.renderEditor();
    this.check();
    fetchRuleSets(this.game.key).then((sets) => this.fillRules(sets)).catch(() => {});
    offered({ needs: 'editor' }).then((games) => this.fillGames(games)).catch(() => {});
  }

  /** The chosen rule set's options ({name, men, …}: what the start and the board follow). */
  ruleSet() {
    return this.sets.find((s) => s.name === this.rules) ?? { name: this.rules };
  }

  start() {
    return this.game.startFor(this.ruleSet());
  }

  /** Words that differ by game (the pieces' names): the game's key, else the shared one. */
  word(name, vars) {
    return t(this.game.editorKeys?.[name] ?? `editor.${name}`, vars);
  }

  destroy() {
    this.closed = true;
    this.request++;
    clearTimeout(this.checkTimer);
    this.tablebase.destroy();
    document.removeEventListener('pointerup', this.onPointerUp);
    this.board?.destroy();
    if (window.analysisBoard === this) window.analysisBoard = null;
  }

  // ----- layout ---------------------------------------------------------------------------
  build() {
    const GAME = this.game;
    const key = GAME.key;
    // A palette button's data-animal is the piece's kind (the tests and the styles read it).
    const paletteButton = ({ color, kind, withSide }) => h('button', {
      type: 'button', class: 'ab-piece', dataset: { color, animal: kind },
      'aria-label': withSide ? `${sideName(color === 'blue' ? 1 : 0, key)} ${GAME.kindWord(kind)}` : GAME.kindWord(kind),
      'aria-pressed': 'false', onclick: () => this.choose(GAME.pieceOf(color, kind)),
      onpointerdown: (e) => { this.choose(GAME.pieceOf(color, kind)); this.drag = { tool: GAME.pieceOf(color, kind) }; e.preventDefault(); },
    }, pieceIcon(color, kind, 'ab-icon', GAME));
    const eraser = h('button', {
      type: 'button', class: 'ab-piece ab-eraser', id: 'ab-eraser', dataset: { color: '', animal: '' }, 'aria-pressed': 'false',
      'aria-label': this.word('eraser'), title: this.word('eraser'), onclick: () => this.choose(null),
    }, '✕ ', t('editor.eraserShort'));
    this.picker = h('div', { class: 'ab-games', id: 'ab-games' });
    this.el = {
      board: h('div', { class: 'board-box', id: 'board' }),
      palette: h('div', { class: 'ab-palette', id: 'ab-palette', role: 'group', 'aria-label': this.word('palette') },
        ...paletteRows(GAME).map((row) => h('div', { class: 'ab-palette-row', dataset: { count: row.length } }, ...row.map(paletteButton))),
        eraser),
      turn: h('div', { class: 'ab-turn', role: 'radiogroup', 'aria-label': t('editor.turn') },
        ...['red', 'blue'].map((color, seat) => h('label', { class: 'ab-radio' },
          h('input', { type: 'radio', name: 'ab-turn', value: color, id: `ab-turn-${color}`, onchange: () => this.setTurn(color) }),
          t('editor.toMove', { side: sideName(seat, key) })))),
      rules: h('select', { id: 'ab-rules', 'aria-label': t('editor.rules'), onchange: (e) => this.chooseRules(e.target.value) },
        h('option', { value: this.rules }, ruleSetLabel(this.rules))),
      status: h('div', { class: 'ab-status', id: 'ab-status', role: 'alert' }),
      analyse: h('button', { type: 'button', class: 'primary', id: 'ab-analyse', onclick: () => this.startAnalysis() }, t('editor.analyse')),
      edit: h('button', { type: 'button', id: 'ab-edit', onclick: () => this.startEditing() }, t('editor.edit')),
      back: h('button', { type: 'button', id: 'ab-back', onclick: () => this.takeBack() }, t('editor.takeBack')),
      moves: h('p', { class: 'ab-moves', id: 'ab-moves', 'aria-live': 'polite' }),
      lines: h('ol', { class: 'ab-lines', id: 'ab-lines', 'aria-label': t('editor.lines') }),
      engine: h('p', { class: 'ab-engine', id: 'ab-engine', role: 'status' }),
      fen: h('input', {
        type: 'text', id: 'ab-fen', class: 'ab-fen', 'aria-label': t('editor.fen'), 'aria-describedby': 'ab-fen-help',
        autocomplete: 'off', autocapitalize: 'off', spellcheck: 'false',
        onpaste: (e) => { e.preventDefault(); this.loadPosition(e.clipboardData?.getData('text') ?? ''); },
        onkeydown: (e) => { if (e.key === 'Enter') this.loadPosition(e.target.value); },
      }),
      fenHelp: h('p', { class: 'ab-help ab-fen-help', id: 'ab-fen-help' }, t('editor.pasteHelp')),
      explorer: h('a', { class: 'button', id: 'ab-explorer' }, t('editor.toExplorer')),
    };
    this.editPanel = h('div', { class: 'ab-edit-panel', id: 'ab-edit-panel' },
      this.picker,
      h('p', { class: 'ab-help' }, this.word('help')),
      this.el.palette,
      this.el.turn,
      h('label', { class: 'field ab-rules' }, h('span', {}, t('editor.rules')), this.el.rules),
      h('div', { class: 'actions' },
        h('button', { type: 'button', id: 'ab-start', onclick: () => this.setPieces(GAME.parsePlacement(this.start())) }, t('editor.start')),
        h('button', { type: 'button', id: 'ab-clear', onclick: () => this.setPieces(new Map()) }, t('editor.clear')),
        h('button', { type: 'button', id: 'ab-flip', onclick: () => this.flip() }, t('editor.flip'))),
      this.el.status,
      h('div', { class: 'actions' }, this.el.analyse));
    // The endgame tables' value and every move's effect, in both modes (a tap plays the move).
    this.tablebase = new TablebasePanel({ id: 'ab-tb', game: key, onPlay: (uci) => this.playFromTable(uci) });
    this.playPanel = h('div', { class: 'ab-play-panel', id: 'ab-play-panel', hidden: true },
      h('h2', { class: 'moves-title' }, t('editor.lines')),
      this.el.engine,
      this.el.lines,
      h('h2', { class: 'moves-title' }, t('editor.played')),
      this.el.moves,
      h('div', { class: 'actions' }, this.el.back, this.el.edit, this.el.explorer));
    this.root.replaceChildren(h('section', { class: 'page analysis-board', id: 'analysis-board', dataset: { game: key } },
      pageHead(t('editor.title')),
      h('div', { class: 'game-page ab-layout' },
        h('div', { class: 'board-col' }, this.el.board),
        h('aside', { class: 'side-col' }, this.editPanel, this.tablebase.el, this.playPanel, this.el.fen, this.el.fenHelp))));
    this.orientation = 'red';
    this.el.board.dataset.game = key;
    this.board = createBoard(this.el.board, {
      ...GAME.boardFor(this.ruleSet()),
      position: GAME.placementToString(this.pieces), lang: currentLang(), pieceStyle: pieceStyle(GAME), announceMoves: true,
      events: { move: (from, to) => this.played(`${from}${to}`) },
    });
    // Editing: taps and drops on squares (the board reports moves only, and only in play).
    this.el.board.addEventListener('click', (e) => this.squareClicked(e));
    this.el.board.addEventListener('pointerdown', (e) => this.boardPointerDown(e));
  }

  fillRules(sets) {
    if (this.closed) return;
    this.sets = sets;
    const names = sets.map((s) => s.name).filter((n) => !n.includes('('));
    if (!names.includes(this.rules)) names.unshift(this.rules);
    this.el.rules.replaceChildren(...names.map((name) => h('option', { value: name, selected: name === this.rules }, ruleSetLabel(name))));
  }

  /** The game picker (the games the site has an editor for; none when there is one), and
   * whether the site has endgame tables for this game. */
  fillGames(games) {
    if (this.closed) return;
    this.hasTables = Boolean(games.find((g) => g.key === this.game.key)?.tablebase);
    const picker = gamePicker(games, this.game.key, (key) => { location.hash = `#/analysis?game=${encodeURIComponent(key)}`; }, { name: 'ab-game' });
    this.picker.replaceChildren(...(picker ? [picker] : []));
    if (this.hasTables && this.checked?.valid) this.showTables(this.checked.fen);
  }

  // The named sets only (the board's lines, fixed when it is drawn, are the same under all:
  // 老虎棋's diagonals are an option no named set has).
  chooseRules(name) {
    this.rules = name;
    this.changed();
  }

  /** The endgame tables' view of a position, for a game the site has tables for. */
  showTables(fen) {
    if (this.hasTables) this.tablebase.show(fen, this.rules);
  }

  // ----- editing --------------------------------------------------------------------------
  choose(tool) {
    this.tool = tool;
    for (const button of this.el.palette.querySelectorAll('.ab-piece')) {
      const on = tool ? button.dataset.color === tool.color && button.dataset.animal === this.game.kindOf(tool) : button.id === 'ab-eraser';
      button.setAttribute('aria-pressed', String(on));
    }
  }

  /** The square of a tap (its element), or of a drop (the point: a touch drag's events all
   * go to the element it started on). */
  squareOf(e) {
    const el = e.target.closest?.('[data-square]');
    if (e.type === 'click' && el && this.el.board.contains(el)) return el.dataset.square;
    return this.squareAtPoint(e);
  }

  squareAtPoint(e) {
    const box = this.el.board.querySelector('.dsq-squares')?.getBoundingClientRect?.();
    if (!box || e.clientX < box.left || e.clientX > box.right || e.clientY < box.top || e.clientY > box.bottom) return null;
    return this.game.geometry.squareAtPoint(e.clientX - box.left, e.clientY - box.top, box.width, box.height, this.orientation);
  }

  squareClicked(e) {
    if (this.mode !== 'edit') return;
    if (this.skipClick) {
      this.skipClick = false;
      return;
    }
    const square = this.squareOf(e);
    if (!square) return;
    const here = this.pieces.get(square);
    const next = new Map(this.pieces);
    const same = here && this.tool && here.color === this.tool.color && this.game.kindOf(here) === this.game.kindOf(this.tool);
    if (!this.tool || same) next.delete(square); // the eraser, or the same animal again: off
    else next.set(square, { ...this.tool });
    this.setPieces(next);
  }

  boardPointerDown(e) {
    if (this.mode !== 'edit') return;
    const square = this.squareOf(e);
    if (square && this.pieces.has(square)) this.drag = { from: square };
  }

  /** The end of a drag: from the palette onto a square, or from a square to another / off. */
  pointerUp(e) {
    const drag = this.drag;
    this.drag = null;
    if (!drag || this.mode !== 'edit') return;
    const square = this.squareAtPoint(e);
    if (drag.tool) {
      if (!square) return; // a palette tap: the click chooses the tool
      const next = new Map(this.pieces);
      next.set(square, { ...drag.tool });
      this.skipClick = false;
      this.setPieces(next);
      return;
    }
    if (square === drag.from) return; // a tap: the click handles it
    const next = new Map(this.pieces);
    const piece = next.get(drag.from);
    next.delete(drag.from);
    if (square) next.set(square, piece); // dropped off the board: taken away
    this.skipClick = Boolean(square);
    this.setPieces(next);
  }

  setPieces(pieces) {
    this.pieces = pieces;
    this.changed();
  }

  setTurn(color) {
    this.turn = color;
    this.changed();
  }

  flip() {
    this.orientation = this.orientation === 'red' ? 'blue' : 'red';
    this.board.set({ orientation: this.orientation });
  }

  changed() {
    this.checked = null;
    this.tablebase.hide();
    this.request++; // an answer still on its way is about the position before this edit
    this.el.analyse.disabled = true; // until the server has checked the new position
    this.el.status.dataset.valid = 'pending';
    this.renderEditor();
    clearTimeout(this.checkTimer);
    this.checkTimer = setTimeout(() => this.check(), CHECK_DELAY);
  }

  renderEditor() {
    const placement = this.game.placementToString(this.pieces);
    this.board.set({
      position: placement, turnColor: this.turn, movableColor: null, dests: {},
      lastMove: null, hint: null, orientation: this.orientation,
    });
    for (const input of this.el.turn.querySelectorAll('input')) input.checked = input.value === this.turn;
    this.choose(this.tool);
    // The side to move in the game's own letter (w/b; t/m): the first two of its turn letters
    // name seats 0 and 1 (Jungle's also reads r).
    const letters = this.game.turnLetters.filter((l) => l !== 'r');
    const fen = `${placement} ${letters[this.turn === 'blue' ? 1 : 0]}`;
    this.el.fen.value = fen;
    this.el.board.dataset.pieces = String(this.pieces.size);
    // The set-up in the address: a reload, a language switch or a shared link keeps it.
    history.replaceState(null, '', `#/analysis?${new URLSearchParams({ game: this.game.key, fen, rules: this.rules })}`);
  }

  /** Ask the server whether the rules accept the position. */
  async check() {
    const request = ++this.request;
    this.el.analyse.disabled = true;
    let answer;
    try {
      answer = await api('/api/positions/check', { method: 'POST', body: {
        game: this.game.key, rules: this.rules, pieces: piecesToLetters(this.pieces, this.game), turn: this.turn,
      } });
    } catch (error) {
      if (request !== this.request) return;
      this.showStatus(false, [t('editor.checkError', { message: error.message || String(error) })]);
      return;
    }
    if (request !== this.request || this.closed) return;
    this.checked = answer;
    if (answer.valid) {
      this.showStatus(true, [answer.outcome ? t('editor.finished') : t('editor.valid')]);
      this.el.analyse.disabled = false;
      this.el.fen.value = answer.fen;
      this.showTables(answer.fen);
    } else {
      this.showStatus(false, answer.problems.map((code) => t(`editor.problem.${code}`)));
    }
  }

  showStatus(ok, messages, title = t('editor.invalid')) {
    this.el.status.className = `ab-status ${ok ? 'ok' : 'error'}`;
    this.el.status.dataset.valid = String(ok);
    this.el.status.replaceChildren(...(ok ? [h('p', {}, messages[0])]
      : [h('p', { class: 'ab-status-title' }, title), h('ul', {}, ...messages.map((m) => h('li', {}, m)))]));
  }

  // ----- a pasted position ----------------------------------------------------------------
  /** Set up the position a string names (pasted, or typed and Enter). The string is read here
   * (the board's own placement reader, the side to move, counters if any: dropped, as the
   * editor's positions start them again); whether the rules accept the position is the
   * server's check, as for any set-up, so a position the rules refuse is set up and explained. */
  loadPosition(text) {
    const fen = cleanPosition(text);
    if (!fen) return;
    const read = readPosition(fen, this.game);
    if (!read) {
      this.request++; // an answer on its way is about the position before this paste
      this.el.fen.value = fen;
      this.el.fen.setAttribute('aria-invalid', 'true');
      this.refusePosition(fen);
      return;
    }
    this.el.fen.removeAttribute('aria-invalid');
    if (this.mode !== 'edit') this.startEditing();
    this.turn = read.turn;
    this.setPieces(read.pieces);
  }

  /** A string that is no position of this game: another game's (set up on that game's board
   * where the site has an editor for it, else named), or none at all (said why). */
  async refusePosition(fen) {
    clearTimeout(this.checkTimer);
    this.el.analyse.disabled = true;
    const request = this.request;
    const games = (await offered().catch(() => [])).filter((g) => g.key !== this.game.key);
    if (request !== this.request || this.closed) return;
    const other = games.find((g) => readPosition(fen, gameClient(g.key)));
    if (other?.editor) {
      location.hash = `#/analysis?${new URLSearchParams({ game: other.key, fen })}`;
      return;
    }
    const example = `${this.start()} ${this.game.turnLetters[0]}`;
    this.showStatus(false, [other
      ? t('editor.pasteOtherGame', { game: gameName(other.key), board: gameName(this.game.key) })
      : t('editor.pasteBad', { text: fen.length > 40 ? `${fen.slice(0, 40)}…` : fen, example })], t('editor.pasteTitle'));
  }

  // ----- analysing ------------------------------------------------------------------------
  startAnalysis() {
    if (!this.checked?.valid) return;
    this.mode = 'play';
    this.startFen = this.checked.fen;
    this.line = [];
    this.editPanel.hidden = true;
    this.playPanel.hidden = false;
    this.root.querySelector('#analysis-board').dataset.mode = 'play';
    this.load();
  }

  startEditing() {
    this.request++;
    this.tablebase.hide();
    this.mode = 'edit';
    this.editPanel.hidden = false;
    this.playPanel.hidden = true;
    this.root.querySelector('#analysis-board').dataset.mode = 'edit';
    this.renderEditor();
    this.check();
  }

  takeBack() {
    if (!this.line.length) return;
    this.line = this.line.slice(0, -1);
    this.load();
  }

  /** A move tapped in the tablebase list: from the set-up position, analysis starts with it. */
  playFromTable(move) {
    if (this.mode === 'edit') {
      if (!this.checked?.valid) return;
      this.startAnalysis();
    }
    this.played(move);
  }

  played(move) {
    if (this.mode !== 'play') return;
    this.line = [...this.line, move];
    this.load();
  }

  /** The position after the line: legal moves from the server, then the engine's lines. */
  async load() {
    const request = ++this.request;
    this.board.set({ movableColor: null, dests: {} });
    // The explorer's link points at the position the server is about to tell: until then it
    // has no address (or the last position's), so it is not shown, though its room is kept.
    this.el.explorer.style.visibility = 'hidden';
    this.tablebase.hide();
    this.el.lines.replaceChildren();
    this.el.engine.textContent = t('editor.thinking');
    let position;
    try {
      position = await api('/api/position', { method: 'POST', body: { game: this.game.key, rules: this.rules, fen: this.startFen, moves: this.line } });
    } catch (error) {
      if (request === this.request) this.el.engine.textContent = t('editor.checkError', { message: error.message || String(error) });
      return;
    }
    if (request !== this.request) return;
    const color = position.turn === 1 ? 'blue' : 'red';
    this.board.set({
      position: position.fen, turnColor: color, movableColor: position.outcome ? null : color, dests: position.dests,
      lastMove: this.game.moveSquares(position.last_move), hint: null,
    });
    this.el.board.dataset.ply = String(this.line.length);
    this.el.fen.value = position.fen;
    this.el.explorer.href = `#/explorer?${new URLSearchParams({ game: this.game.key, fen: position.fen, rules: this.rules })}`;
    this.el.explorer.style.visibility = '';
    this.el.moves.textContent = position.moves.length
      ? position.moves.map((m) => moveText(m.readable_zh, m.readable_en) || m.move).join('  ') : t('editor.noMoves');
    this.el.back.disabled = !this.line.length;
    if (position.outcome) this.tablebase.hide();
    else this.showTables(position.fen);
    if (position.outcome) {
      this.el.engine.textContent = t('editor.over', { result: position.outcome.result });
      return;
    }
    await this.engineLines(request, position.turn);
  }

  async engineLines(request, turn) {
    let found;
    try {
      found = await api('/api/analysis', { method: 'POST', body: {
        game: this.game.key, rules: this.rules, fen: this.startFen, moves: this.line, multipv: LINES, movetime: MOVETIME,
      } });
    } catch (error) {
      if (request === this.request) this.el.engine.textContent = t('editor.engineError', { message: error.message || String(error) });
      return;
    }
    if (request !== this.request) return;
    const lines = found.lines || [];
    // Each line's moves in words: the server replays them (the client knows no rules).
    const words = await Promise.all(lines.map((line) => api('/api/position', { method: 'POST', body: {
      game: this.game.key, rules: this.rules, fen: this.startFen, moves: [...this.line, ...line.pv.slice(0, 8)],
    } }).then((p) => p.moves.slice(this.line.length)).catch(() => null)));
    if (request !== this.request) return;
    this.el.engine.textContent = this.word('depth', { depth: found.depth ?? 0 });
    this.el.lines.replaceChildren(...lines.map((line, i) => h('li', {},
      h('button', { type: 'button', class: 'ab-line', dataset: { index: i, move: line.move }, onclick: () => this.playLine(line) },
        h('strong', { class: 'ab-score' }, scoreWords(line, turn, this.game.key)), ' ',
        h('span', { class: 'ab-line-moves' }, words[i]
          ? words[i].map((m) => moveText(m.readable_zh, m.readable_en) || m.move).join('  ')
          : moveText(line.readable_zh, line.readable_en))))));
    const best = this.game.moveSquares(lines[0]?.move);
    if (best) this.board.set({ hint: best });
  }

  /** Play a line out on the board (its first moves; take-back steps back through them). */
  playLine(line) {
    this.line = [...this.line, ...line.pv.slice(0, 8)];
    this.load();
  }
}
