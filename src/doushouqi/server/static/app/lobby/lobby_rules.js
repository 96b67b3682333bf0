// A lobby entry's changed rule options (a game summary's `rule_changes`), readable on a phone:
// one option a line, the first few shown and a "+N more" button for the rest. The lobby
// redraws its entries every few seconds, so which entries are open, and a focused button,
// are carried over to the new drawing.

import { t } from '../shell/i18n.js';
import { h } from '../shell/dom.js';
import { changesText } from '../play/rule_options.js';

const SHOWN = 2; // changes shown before "+N more"
const FOLD_FROM = SHOWN + 2; // fewer than this are all shown: "+1 more" would hide nothing worth it

const expanded = new Set(); // ids of the games whose whole list the reader opened

/** The list of `game`'s changed options, or null when it plays a named set as it is. */
export function lobbyRuleChanges(game) {
  const lines = Object.entries(game.rule_changes || {}).map(([key, value]) => changesText({ [key]: value }, game.game_key));
  if (!lines.length) return null;
  const id = `lobby-rules-${game.id}`;
  const list = h('ul', { class: 'lobby-rule-list', id, 'aria-label': t('lobbyrules.label') },
    lines.map((line) => h('li', {}, line)));
  // The tooltip keeps the whole list in one line for a mouse.
  const box = h('div', { class: 'lobby-rules', title: changesText(game.rule_changes, game.game_key) }, list);
  if (lines.length < FOLD_FROM) return box;

  const button = h('button', { type: 'button', class: 'lobby-rules-more', 'aria-controls': id,
    dataset: { rulesFor: game.id } });
  const show = (open) => {
    [...list.children].forEach((item, i) => { item.hidden = !open && i >= SHOWN; });
    button.setAttribute('aria-expanded', String(open));
    button.textContent = open ? t('lobbyrules.less') : t('lobbyrules.more', { n: lines.length - SHOWN });
    if (open) expanded.add(game.id); else expanded.delete(game.id);
  };
  button.addEventListener('click', () => show(button.getAttribute('aria-expanded') !== 'true'));
  show(expanded.has(game.id));
  // This entry replaces one still on the page: if its button had the focus, the new one takes
  // it once the lobby has put the new entries in (a keyboard user keeps their place).
  const focused = document.activeElement;
  if (focused instanceof HTMLElement && focused.dataset.rulesFor === game.id) {
    queueMicrotask(() => { if (button.isConnected) button.focus(); });
  }
  box.append(button);
  return box;
}
