// A tiny helper to build DOM without innerHTML for dynamic text, and the pages' shared head.

import { t } from './i18n.js';

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith('on')) el.addEventListener(key.slice(2), value);
    else if (key === 'class') el.className = value;
    else if (key === 'dataset') Object.assign(el.dataset, value);
    else el.setAttribute(key, value === true ? '' : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : String(child));
  }
  return el;
}

/** A page's title with its back link (to the home page unless told otherwise). */
export function pageHead(title, back = '#/', backLabel = t('nav.home')) {
  return h('div', { class: 'page-head' },
    h('a', { class: 'back', href: back, 'aria-label': backLabel }, '‹'),
    h('h1', {}, title));
}
