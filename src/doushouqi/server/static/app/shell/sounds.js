// Game sounds, synthesised with the Web Audio API (no audio files): a move, the opponent's move,
// a capture, the end of the game (won, lost, drawn), a warning when the player's own clock
// drops to 10 seconds, and a chime when someone challenges the player (on any page:
// `playAlert`). A switch on the game page turns them off, remembered in localStorage;
// while off, nothing of Web Audio is created. Browsers allow audio only after the user has
// interacted with the page, so the audio context is created (or resumed) on the first pointer or
// key event; a sound asked for before that is simply not heard. Audio may be missing or refused:
// sounds are a nicety, so every failure is silent.

import { h } from './dom.js';
import { t } from './i18n.js';

const KEY = 'doushouqi.sound';
const LOW_TIME = 10; // seconds left on the player's own clock that earn one warning
const VOLUME = 0.5;
const END_DELAY = 0.15; // the end of a game sounds just after the move that ended it
const SVG = 'http://www.w3.org/2000/svg';

/**
 * Each sound is a few notes: `at` (seconds after the start), `freq` (Hz) gliding to `to` over
 * `dur` seconds, the oscillator's `wave` and its `peak` loudness (0–1, before VOLUME). The first
 * note's frequency tells the sounds apart (the browser tests listen for it).
 */
export const SOUNDS = {
  // a short wooden knock; the opponent's a little lower and softer
  move: [{ at: 0, freq: 620, to: 470, dur: 0.09, wave: 'triangle', peak: 0.5 }],
  opponent: [{ at: 0, freq: 440, to: 350, dur: 0.1, wave: 'triangle', peak: 0.4 }],
  // a thump with a bright click on top
  capture: [
    { at: 0, freq: 210, to: 110, dur: 0.18, wave: 'triangle', peak: 0.7 },
    { at: 0.004, freq: 1250, to: 900, dur: 0.05, wave: 'square', peak: 0.08 },
  ],
  // a rising major arpeggio (C E G C)
  win: [
    { at: END_DELAY, freq: 523.25, dur: 0.14, wave: 'triangle', peak: 0.4 },
    { at: END_DELAY + 0.11, freq: 659.25, dur: 0.14, wave: 'triangle', peak: 0.4 },
    { at: END_DELAY + 0.22, freq: 783.99, dur: 0.14, wave: 'triangle', peak: 0.4 },
    { at: END_DELAY + 0.33, freq: 1046.5, dur: 0.45, wave: 'triangle', peak: 0.45 },
  ],
  // a slow falling line (G F E♭ C)
  lose: [
    { at: END_DELAY, freq: 392, dur: 0.2, wave: 'sine', peak: 0.45 },
    { at: END_DELAY + 0.2, freq: 349.23, dur: 0.2, wave: 'sine', peak: 0.45 },
    { at: END_DELAY + 0.4, freq: 311.13, dur: 0.2, wave: 'sine', peak: 0.45 },
    { at: END_DELAY + 0.6, freq: 261.63, dur: 0.55, wave: 'sine', peak: 0.5 },
  ],
  // two calm, equal notes
  draw: [
    { at: END_DELAY, freq: 493.88, dur: 0.22, wave: 'sine', peak: 0.4 },
    { at: END_DELAY + 0.26, freq: 493.88, dur: 0.35, wave: 'sine', peak: 0.4 },
  ],
  // a bright rising chime (E A), someone at the door
  challenge: [
    { at: 0, freq: 659.26, dur: 0.16, wave: 'sine', peak: 0.4 },
    { at: 0.13, freq: 880, dur: 0.32, wave: 'sine', peak: 0.4 },
  ],
  // two quick high beeps
  lowTime: [
    { at: 0, freq: 987.77, dur: 0.08, wave: 'square', peak: 0.12 },
    { at: 0.16, freq: 987.77, dur: 0.08, wave: 'square', peak: 0.12 },
  ],
};

function rememberedOn() {
  try { return localStorage.getItem(KEY) !== '0'; } catch { return true; } // on unless switched off
}

function remember(on) {
  try { localStorage.setItem(KEY, on ? '1' : '0'); } catch { /* private mode: not remembered */ }
}

/** The number of animals on the board of a position string: one fewer after a capture. */
function animalCount(fen) {
  return (fen.split(' ')[0].match(/[a-z]/gi) || []).length;
}

// One audio context for the whole page, kept from game to game (a rematch needs no new tap).
let audio = null; // {ctx, out, wokenAt} once created
let audioBroken = false; // no Web Audio here, or it refused: do not try again

function wakeAudio() {
  if (audioBroken) return;
  try {
    if (!audio) {
      const Context = window.AudioContext || window.webkitAudioContext;
      if (!Context) { audioBroken = true; return; }
      const ctx = new Context();
      const out = ctx.createGain();
      out.gain.value = VOLUME;
      out.connect(ctx.destination);
      audio = { ctx, out };
    }
    audio.wokenAt = performance.now();
    // suspended, or 'interrupted' (Safari, after a call or in the background)
    if (audio.ctx.state !== 'running') audio.ctx.resume().catch(() => {});
  } catch {
    audioBroken = true;
    audio = null;
  }
}

function closeAudio() {
  if (!audio) return;
  const { ctx } = audio;
  audio = null;
  try { ctx.close().catch(() => {}); } catch { /* already gone */ }
}

/** Whether a sound can be heard now. A context still starting up (just woken by a tap) is fine;
 * one left suspended (the browser refused, or the page was in the background) is not: its clock
 * stands still, and every sound queued on it would ring out at once when it resumes. */
function audible() {
  if (!audio) return false;
  const { state } = audio.ctx;
  return state === 'running' || (state === 'suspended' && performance.now() - audio.wokenAt < 1000);
}

function playNotes(notes) {
  if (!audible()) return;
  try {
    const { ctx, out } = audio;
    const now = ctx.currentTime + 0.01;
    for (const note of notes) {
      const start = now + note.at;
      const end = start + note.dur;
      const osc = ctx.createOscillator();
      osc.type = note.wave;
      osc.frequency.value = note.freq;
      if (note.to) {
        osc.frequency.setValueAtTime(note.freq, start);
        osc.frequency.exponentialRampToValueAtTime(note.to, end);
      }
      // A quick rise and an exponential fade: no clicks at either end.
      const gain = ctx.createGain();
      gain.gain.setValueAtTime(0.0001, start);
      gain.gain.linearRampToValueAtTime(note.peak, start + 0.008);
      gain.gain.exponentialRampToValueAtTime(0.0001, end);
      osc.connect(gain);
      gain.connect(out);
      osc.start(start);
      osc.stop(end + 0.02);
    }
  } catch { /* a sound less */ }
}

/** A sound outside a game (`challenge`), unless the player switched sounds off. Heard only once
 * the user has interacted with the site (browsers allow audio no sooner). */
export function playAlert(name) {
  if (!rememberedOn()) return;
  if (navigator.userActivation?.hasBeenActive) wakeAudio();
  playNotes(SOUNDS[name]);
}

/** The speaker icon, with sound waves or struck through. */
function speakerIcon(on) {
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  const path = (d, fill) => {
    const p = document.createElementNS(SVG, 'path');
    p.setAttribute('d', d);
    p.setAttribute('fill', fill ? 'currentColor' : 'none');
    p.setAttribute('stroke', 'currentColor');
    p.setAttribute('stroke-width', '2');
    p.setAttribute('stroke-linecap', 'round');
    p.setAttribute('stroke-linejoin', 'round');
    svg.append(p);
  };
  path('M4 9h4l5-4v14l-5-4H4z', true);
  if (on) {
    path('M16.5 8.5a5 5 0 0 1 0 7');
    path('M19 6a8.5 8.5 0 0 1 0 12');
  } else {
    path('M16.5 9.5l5 5M21.5 9.5l-5 5');
  }
  return svg;
}

/** The game page's sounds and their switch (`button`); game.js tells it what happens. */
export class GameSounds {
  constructor(view) {
    this.view = view;
    this.on = rememberedOn();
    this.clockSeen = [null, null]; // each side's main time left when the clock was last drawn
    this.warned = new Set(); // the sides whose low-time warning was given
    this.button = h('button', { type: 'button', id: 'sound-toggle', class: 'sound-toggle', onclick: () => this.toggle() });
    this.paintButton();
    // Audio may start only once the user has touched the page or pressed a key. The switch
    // itself wakes audio only when it turns the sound on (see toggle).
    this.wake = (event) => { if (this.on && !this.button.contains(event.target)) wakeAudio(); };
    document.addEventListener('pointerdown', this.wake, true);
    document.addEventListener('keydown', this.wake, true);
  }

  destroy() {
    document.removeEventListener('pointerdown', this.wake, true);
    document.removeEventListener('keydown', this.wake, true);
  }

  toggle() {
    this.on = !this.on;
    remember(this.on);
    this.paintButton();
    if (this.on) {
      wakeAudio(); // this click is the interaction browsers ask for
      this.play('move'); // so the player hears at once what they switched on, and how loud
    } else {
      closeAudio();
    }
  }

  paintButton() {
    this.button.setAttribute('aria-pressed', String(this.on));
    this.button.setAttribute('aria-label', t('sound.label'));
    this.button.title = t(this.on ? 'sound.on' : 'sound.off');
    this.button.replaceChildren(speakerIcon(this.on));
  }

  play(name) {
    if (!this.on) return;
    // The user may have interacted with an earlier page of the app (e.g. "Start" on the
    // settings page): browsers then allow audio without a new tap on this one.
    if (!audio && navigator.userActivation?.hasBeenActive) wakeAudio();
    playNotes(SOUNDS[name]);
  }

  /** An event of the game, before the page applies it (`game.fen` is still the position before). */
  heard(e) {
    const g = this.view.game;
    if (!this.on || !g) return;
    if (e.type === 'move_made') {
      if (e.fen && animalCount(e.fen) < animalCount(g.fen)) this.play('capture');
      else this.play(this.byOpponent(e.color) ? 'opponent' : 'move');
    } else if (e.type === 'game_finished' && e.termination !== 'aborted') {
      this.play(this.endSound(e.winner));
    }
  }

  /** A move by the other side of an online or computer game the user plays in. */
  byOpponent(color) {
    const { seats } = this.view;
    return this.view.game.mode !== 'same_screen' && seats.length > 0 && !seats.includes(color);
  }

  endSound(winner) {
    if (winner === null || winner === undefined) return 'draw';
    const mine = this.view.myColor(); // null on one screen and for spectators: someone won
    return mine === null || mine === winner ? 'win' : 'lose';
  }

  /** Called as the clock of `color` runs: one warning when a player's own main time drops to
   * LOW_TIME (not when the page opens below it, and not for the computer's clock). */
  clock(color, left) {
    const before = this.clockSeen[color];
    this.clockSeen[color] = left;
    const g = this.view.game;
    if (left === null || before === null || this.warned.has(color)) return;
    if (!this.view.seats.includes(color) || g.players[color]?.identity?.kind === 'ai') return;
    if (before > LOW_TIME && left <= LOW_TIME) {
      this.warned.add(color);
      this.play('lowTime');
    }
  }
}
