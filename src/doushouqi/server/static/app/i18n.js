// Translations: every UI string comes from /i18n/{lang}.json, which the server merges from the
// area files of static/i18n/{lang}/. The language defaults to the browser's, can be switched,
// and is remembered in localStorage.

const KEY = 'doushouqi.lang';
const LANGS = ['zh', 'en'];
let lang = 'zh';
let table = {};

function browserLang() {
  const list = navigator.languages?.length ? navigator.languages : [navigator.language || 'zh'];
  for (const tag of list) {
    const base = String(tag).toLowerCase().split('-')[0];
    if (LANGS.includes(base)) return base;
  }
  return 'en';
}

export function currentLang() {
  return lang;
}

export async function loadLang(wanted) {
  let chosen = wanted;
  if (!chosen) {
    try { chosen = localStorage.getItem(KEY); } catch { chosen = null; }
  }
  if (!LANGS.includes(chosen)) chosen = browserLang();
  const response = await fetch(`/i18n/${chosen}.json`);
  table = await response.json();
  lang = chosen;
  try { localStorage.setItem(KEY, lang); } catch { /* private mode */ }
  document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
  document.title = `${t('app.title')} · ${t('app.subtitle')}`;
  return lang;
}

/** The string for `key` with `{name}` placeholders filled from `vars`. */
export function t(key, vars = {}) {
  const text = table[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in vars ? String(vars[name]) : whole));
}

export function otherLang() {
  return lang === 'zh' ? 'en' : 'zh';
}
