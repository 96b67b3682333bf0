// Translations: every UI string comes from /i18n/{lang}.json, which the server merges from the
// area files of static/i18n/{lang}/. The language defaults to the browser's, can be switched,
// and is remembered in localStorage.

const KEY = 'doushouqi.lang';

/** The languages, each named in itself (what the language menu lists). */
export const LANGS = Object.freeze([
  { code: 'zh', name: '简体中文', html: 'zh-CN' },
  { code: 'zh-Hant', name: '繁體中文', html: 'zh-Hant' },
  { code: 'en', name: 'English', html: 'en' },
]);
const CODES = LANGS.map((l) => l.code);
let lang = 'zh';
let table = {};
let plurals = new Intl.PluralRules('zh-CN');

/**
 * The site's language for a browser language tag: Traditional Chinese for Taiwan, Hong Kong,
 * Macau and any tag that names the Hant script; Simplified for other Chinese; else null.
 */
export function langOfTag(tag) {
  const parts = String(tag).toLowerCase().split(/[-_]/);
  if (parts[0] === 'en') return 'en';
  if (parts[0] !== 'zh') return null;
  if (parts.includes('hant') || parts.some((p) => ['tw', 'hk', 'mo'].includes(p))) return 'zh-Hant';
  return 'zh';
}

function browserLang() {
  const list = navigator.languages?.length ? navigator.languages : [navigator.language || 'zh'];
  for (const tag of list) {
    const chosen = langOfTag(tag);
    if (chosen) return chosen;
  }
  return 'en';
}

export function currentLang() {
  return lang;
}

/** True for both scripts of Chinese (the server's `readable_zh` move texts, word order …). */
export function isChinese(code = lang) {
  return code === 'zh' || code === 'zh-Hant';
}

/** The language tag for Intl formatters and `<html lang>`: zh-CN, zh-Hant or en. */
export function htmlLang(code = lang) {
  return LANGS.find((l) => l.code === code)?.html ?? 'en';
}

/**
 * `<html lang>` and the title in the language loaded. A change of language sets them once the
 * page is drawn again in it, so whoever waits for the attribute finds the new page (a form
 * filled in before the redraw would be replaced, empty).
 */
export function markLang() {
  document.documentElement.lang = htmlLang();
  document.title = `${t('app.title')} · ${t('app.subtitle')}`;
}

export async function loadLang(wanted, { mark = true } = {}) {
  let chosen = wanted;
  if (!chosen) {
    try { chosen = localStorage.getItem(KEY); } catch { chosen = null; }
  }
  if (!CODES.includes(chosen)) chosen = browserLang();
  const response = await fetch(`/i18n/${chosen}.json`);
  table = await response.json();
  lang = chosen;
  plurals = new Intl.PluralRules(htmlLang());
  try { localStorage.setItem(KEY, lang); } catch { /* private mode */ }
  if (mark) markLang();
  return lang;
}

/** The string for `key` with `{name}` placeholders filled from `vars`. */
export function t(key, vars = {}) {
  const text = table[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in vars ? String(vars[name]) : whole));
}

/** Whether the table has `key` (a server code the client may not know yet). */
export function hasKey(key) {
  return Object.prototype.hasOwnProperty.call(table, key);
}

/**
 * A counted phrase: `key.one` / `key.other` (… `key.few` where a language has it) picked by
 * the language's plural rules for `n`, with `{n}` filled ("1 game", "2 games", "1 局").
 */
export function plural(key, n, vars = {}) {
  const form = `${key}.${plurals.select(n)}`;
  return t(hasKey(form) ? form : `${key}.other`, { n, ...vars });
}

/**
 * The number before a ply in a move list: moves are counted in pairs ("1. Red Blue"), so the
 * first ply of a pair carries "1." and the second none.
 */
export function moveNumber(ply) {
  return ply % 2 === 1 ? `${(ply + 1) / 2}.` : '';
}

// A guest who has not chosen a name is called "Guest-" and five characters of its id by the
// server (auth.py); shown, that is a name in the reader's words ("游客 1a2b3").
const DEFAULT_GUEST = /^Guest-([\w-]{5})$/;

/** A player's name as shown: a guest's default name in the reader's language, else as is. */
export function playerName(name) {
  const guest = DEFAULT_GUEST.exec(String(name ?? ''));
  return guest ? t('players.guestName', { id: guest[1] }) : name;
}
