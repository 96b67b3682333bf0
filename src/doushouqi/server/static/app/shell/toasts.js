// Toasts: a short line that something happened (a notification), in a corner of any page, gone
// after a few seconds or when closed; the bell keeps the history. Nothing here knows what a
// notification is: the caller gives the words and, if any, the page they lead to.

import { h } from './dom.js';
import { t } from './i18n.js';

const SHOWN_MS = 6000;
const MAX_SHOWN = 3; // more at once push the oldest out

let stack = null;

function container() {
  if (stack?.isConnected) return stack;
  stack = h('div', { class: 'site-toasts', id: 'site-toasts', role: 'status', 'aria-live': 'polite', 'aria-label': t('notify.toasts') });
  document.body.append(stack);
  return stack;
}

/** Show `text` for a few seconds; `link` (a `#/…` route) makes it lead there. Returns the
 * toast's element. Hovering or focusing it holds it until the pointer or focus leaves. */
export function showToast(text, { link = null, kind = '' } = {}) {
  const box = container();
  const words = link ? h('a', { class: 'site-toast-text', href: link }, text) : h('span', { class: 'site-toast-text' }, text);
  const toast = h('div', { class: 'site-toast', dataset: { kind } }, words);
  const close = () => { clearTimeout(timer); toast.remove(); };
  toast.append(h('button', { type: 'button', class: 'site-toast-close', 'aria-label': t('notify.toast.close'), onclick: close }, '×'));
  if (link) words.addEventListener('click', close);
  let timer = setTimeout(close, SHOWN_MS);
  const hold = () => clearTimeout(timer);
  const release = () => { clearTimeout(timer); timer = setTimeout(close, SHOWN_MS / 2); };
  toast.addEventListener('pointerenter', hold);
  toast.addEventListener('pointerleave', release);
  toast.addEventListener('focusin', hold);
  toast.addEventListener('focusout', release);
  box.append(toast);
  while (box.children.length > MAX_SHOWN) box.firstElementChild.remove();
  return toast;
}
