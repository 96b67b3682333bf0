// Jungle's rule options (docs/rules.md 6) as the client shows them: the options picked from a
// list and their values, the options that rename or re-rank pieces, and the questions players
// ask on the rules page. The words themselves are in the translation files (`opt.*`,
// `rulesfaq.*`); the option names and values are the server's (`/api/rules`).

import { DOG_OVER_WOLF_RANKS } from './pieces.js';

/** The named rule sets, for when `/api/rules` cannot be reached. */
export const RULE_SET_NAMES = Object.freeze(['wango', 'classic', 'classic-dog', 'international']);

/** Options chosen from a list (the others are switches, or a number of rounds). */
export const CHOICES = Object.freeze({
  ranks: Object.freeze(['wolf>dog', 'dog>wolf']),
  repetition: Object.freeze(['threefold_draw', 'initiator_must_vary']),
  wolf_name: Object.freeze(['wolf', 'fox']),
});

/** The translation keys of values that are no key themselves ('dog>wolf'). */
const VALUE_KEYS = Object.freeze({
  ranks: Object.freeze({ 'wolf>dog': 'opt.ranks.wolf_over_dog', 'dog>wolf': 'opt.ranks.dog_over_wolf' }),
});

/** The translation key of an option's value, or null where the value is said as it is. */
export function valueKey(key, value) {
  if (key in VALUE_KEYS) return VALUE_KEYS[key][value] ?? VALUE_KEYS[key][CHOICES[key][0]];
  if (key in CHOICES) return `opt.${key}.${value}`;
  return null;
}

/** The options that name a piece (their own texts are never renamed). */
export const NAMING_OPTIONS = Object.freeze(['wolf_name']);

/**
 * The options whose rows name other options' values (the ranks name the wolf as the
 * wolf-name option calls it), redrawn when an option changes.
 */
export const NAMED_VALUE_OPTIONS = Object.freeze(['ranks']);

/**
 * `text` with the wolf called fox (狐) when the rule set names it so (`wolf_name`). Only for
 * texts that name the animal, such as the ranks; never for the option that names it.
 */
export function namesIn(set, text) {
  if (set?.wolf_name !== 'fox') return text;
  return text.replaceAll('狼', '狐').replaceAll('Wolf', 'Fox').replaceAll('wolf', 'fox');
}

/** The pieces' look under a game's rule options, for the board: {wolfName, ranks?}. */
export function lookOf(rules) {
  const look = { wolfName: rules?.wolf_name === 'fox' ? 'fox' : 'wolf' };
  if (rules?.ranks === 'dog>wolf') look.ranks = DOG_OVER_WOLF_RANKS;
  return look;
}

/** The rules page's questions for a rule set: [{id, key}], `key.q` / `key.a` the texts ({n}). */
export function faqEntries(set) {
  const entries = [
    ['rat-elephant', 'rulesfaq.ratElephant'],
    ['rat-rat', set.rat_captures_across_water ? 'rulesfaq.ratRat.across' : 'rulesfaq.ratRat.notAcross'],
    ['jump-block', set.own_rat_blocks_jump === false ? 'rulesfaq.jump.enemyRat' : 'rulesfaq.jump.anyRat'],
    ['traps', set.trapped_can_capture ? 'rulesfaq.traps.canCapture' : 'rulesfaq.traps.cannotCapture'],
    ['own-den', 'rulesfaq.ownDen'],
    ['timer', 'rulesfaq.timer'],
    ['repetition', set.repetition === 'initiator_must_vary' ? 'rulesfaq.repetition.vary' : 'rulesfaq.repetition.draw'],
    ['no-capture', set.no_capture_draw_rounds ? 'rulesfaq.noCapture.limit' : 'rulesfaq.noCapture.none'],
  ];
  if (set.rule_7_3) entries.push(['rule-7-3', 'rulesfaq.rule73']);
  if (set.rule_17_5) entries.push(['rule-17-5', 'rulesfaq.rule175']);
  return entries.map(([id, key]) => ({ id, key, vars: { n: set.no_capture_draw_rounds } }));
}

/** The variables of the rules page's texts for a set: the ranks in words ({ranks}). */
export function pageVars(set, t) {
  return { ranks: t(set.ranks === 'dog>wolf' ? 'opt.ranks.dog_over_wolf' : 'opt.ranks.wolf_over_dog') };
}
