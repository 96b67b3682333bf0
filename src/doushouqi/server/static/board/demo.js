// The board demo page: a board with the start position's legal moves written in, and buttons
// for its options (kept out of demo.html: the server's CSP allows no inline script).

import { createBoard } from './board.js';
import { JUNGLE } from '../games/jungle/board.js';

const START = 'l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L';
// Red's 24 legal moves in the start position.
const START_DESTS = {
  a1: ['a2', 'b1'], g1: ['g2', 'f1'], f2: ['f1', 'f3', 'e2', 'g2'], b2: ['b1', 'b3', 'a2', 'c2'],
  g3: ['g4', 'f3', 'g2'], e3: ['d3', 'f3', 'e2'], c3: ['c2', 'b3', 'd3'], a3: ['a4', 'a2', 'b3'],
};
// Blue's answer to any first move, to show an animated move from the server.
const REPLY = ['a7', 'a6'];

// A mid-game position: the red lion on the middle bridge may jump both lakes or take the wolf,
// the red rat swims, a blue leopard stands in a red trap next to the den.
const MIDGAME = '1l4t/1d3c1/r5e/E2w3/3L3/5R1/2W1P2/1C3D1/T3p2';
const MIDGAME_DESTS = {
  d5: ['d6', 'd4', 'a5', 'g5'], a6: ['a7', 'a5', 'b6'], f4: ['f5', 'f3', 'e4', 'g4'],
  c3: ['c2', 'b3', 'd3'], e3: ['e2', 'd3', 'f3'], f2: ['f1', 'f3', 'e2', 'g2'],
  b2: ['b1', 'b3', 'a2', 'c2'], a1: ['a2', 'b1'],
};

const log = document.querySelector('#log');
const note = (text) => { log.textContent = `${text}\n${log.textContent}`.slice(0, 4000); };
const params = new URLSearchParams(location.search);

const board = createBoard(document.querySelector('#board'), {
  ...JUNGLE, // the demo shows the component with Jungle's board and pieces
  position: START,
  orientation: params.get('orientation') === 'blue' ? 'blue' : 'red',
  lang: params.get('lang') === 'en' ? 'en' : 'zh',
  turnColor: 'red',
  movableColor: 'red',
  dests: START_DESTS,
  events: {
    move(from, to) {
      note(`move ${from}${to}`);
      const { position } = board.getState();
      if (position.startsWith('l5t/1d3c1/r1p1w1e')) {
        setTimeout(() => { board.move(...REPLY); note(`server: blue ${REPLY.join('')}`); }, 450);
      }
    },
    select(square) { note(square ? `select ${square}` : 'deselect'); },
  },
});

function midgame() {
  board.set({
    position: MIDGAME, lastMove: ['e2', 'e1'], turnColor: 'red', movableColor: 'red',
    dests: MIDGAME_DESTS, threats: ['a6', 'e1'], selected: 'd5',
  });
}
if (params.get('demo') === 'midgame') midgame();
if (params.get('select')) board.set({ selected: params.get('select') });
if (params.get('wolf') === 'fox') board.set({ wolfName: 'fox' });
const hint = params.get('hint')?.match(/^([a-g][1-9])([a-g][1-9])$/); // e.g. ?hint=a3a4
if (hint) board.set({ hint: [hint[1], hint[2]] });
const foxButton = document.querySelector('#fox');
const syncFox = () => { foxButton.textContent = board.getState().wolfName === 'wolf' ? '狼 → 狐' : '狐 → 狼'; };
syncFox();

const langButton = document.querySelector('#lang');
const syncLang = () => { langButton.textContent = board.getState().lang === 'zh' ? 'English' : '中文'; };
syncLang();
document.querySelector('#flip').addEventListener('click', () => board.toggleOrientation());
langButton.addEventListener('click', () => { board.set({ lang: board.getState().lang === 'zh' ? 'en' : 'zh' }); syncLang(); });
foxButton.addEventListener('click', () => {
  board.set({ wolfName: board.getState().wolfName === 'wolf' ? 'fox' : 'wolf' });
  syncFox();
});
document.querySelector('#midgame').addEventListener('click', midgame);
document.querySelector('#reset').addEventListener('click', () => {
  board.set({ position: START, lastMove: null, hint: null, threats: [], dests: START_DESTS, turnColor: 'red', selected: null });
});
window.board = board;
