// The computer's levels in words: a short name for each of 1–10 and a line on how it plays
// (from the engine's real settings, src/doushouqi/jungle/ai/levels.py), so that a player knows what
// the new-game slider picks; the game page's bar shows the name of the level it plays.

import { t } from '../shell/i18n.js';
import { h } from '../shell/dom.js';

const MIN_LEVEL = 1;
const MAX_LEVEL = 10;

function clamp(level) {
  const n = Math.round(Number(level));
  return Number.isFinite(n) ? Math.min(MAX_LEVEL, Math.max(MIN_LEVEL, n)) : MIN_LEVEL;
}

/** The level's short name ("中级", "Intermediate"). */
export function levelName(level) {
  return t(`levels.name.${clamp(level)}`);
}

/** The computer at `level`, named with what the number means: "电脑 5 级（中级）". */
export function computerLabel(level) {
  return t('levels.computer', { level: clamp(level), name: levelName(level) });
}

/** The number and name ("5 级 · 中级"): what the slider says to a screen reader. */
function levelShort(level) {
  return t('levels.short', { level: clamp(level), name: levelName(level) });
}

/** The one-line description under the slider ("5 级 · 中级：看五步，很少失误"). */
export function levelLine(level) {
  return t('levels.line', { short: levelShort(level), about: t(`levels.about.${clamp(level)}`) });
}

/**
 * The new-game page's level field: the slider (named `level`, read by the form), its number
 * (`output` named `levelOut`) and the description, which follow the slider as it moves.
 */
export function levelField(initial) {
  const level = clamp(initial);
  const output = h('output', { name: 'levelOut', for: 'level-input' }, level);
  const about = h('small', { class: 'ro-help', id: 'level-about' }, levelLine(level));
  const input = h('input', { type: 'range', name: 'level', id: 'level-input', min: MIN_LEVEL, max: MAX_LEVEL,
    value: level, 'aria-describedby': 'level-about', 'aria-valuetext': levelShort(level) });
  input.addEventListener('input', () => {
    output.value = input.value;
    about.textContent = levelLine(input.value);
    // Screen readers announce the value as it changes: the name with the number.
    input.setAttribute('aria-valuetext', levelShort(input.value));
  });
  return h('div', { class: 'field' },
    h('label', { for: 'level-input' }, t('settings.level'), ' ', output),
    input, about);
}
