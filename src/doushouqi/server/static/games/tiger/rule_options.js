// 老虎棋's rule options (docs/tiger.md) as the client shows them: the options picked from a list
// and their values, the whole-number options and their bounds, the option that says who moves
// first (the new-game page's own control sets it), and the option the site does not offer yet
// (multi-jumps: the board takes one jump per move, so the server refuses rule sets that ask for
// them). The words are in the translation files (`tigeropt.*`, area tiger); the option names and
// values are the server's (`/api/rules?game=tiger`).

/** The named rule sets, for when `/api/rules` cannot be reached. */
export const RULE_SET_NAMES = Object.freeze(['laohuqi', 'laohuqi-18', 'laohuqi-strict', 'laohuqi-south']);

/** Options chosen from a list (values as the server writes them: numbers stay numbers). */
export const CHOICES = Object.freeze({
  diagonals: Object.freeze(['none', 'nest', 'all']),
  men: Object.freeze([12, 18]),
  tigers: Object.freeze([1, 2]),
});

/** Whole-number options: their bounds (the server checks them again). */
export const NUMBERS = Object.freeze({
  tiger_wins_below: Object.freeze({ min: 0, max: 18 }),
  max_rounds: Object.freeze({ min: 0, max: 9998 }),
});

/** The translation key of an option's value, or null where the value is said as it is. */
export function valueKey(key, value) {
  if (key === 'diagonals') return `tigeropt.diagonals.${CHOICES.diagonals.includes(value) ? value : 'none'}`;
  return null;
}

/** An option's value in words where a number alone would say too little. */
export function valueText(key, value, { t, plural }) {
  if (key === 'max_rounds') return value ? plural('tigeropt.max_rounds.value', value) : t('none');
  if (key === 'tiger_wins_below') return value ? t('tigeropt.tiger_wins_below.value', { n: value }) : t('tigeropt.tiger_wins_below.never');
  if (key === 'men' || key === 'tigers') return plural(`tigeropt.${key}.value`, value);
  return null;
}

/** The pieces' look under a game's rule options: the board's lines (`diagonals`). */
export function lookOf(rules) {
  return { diagonals: CHOICES.diagonals.includes(rules?.diagonals) ? rules.diagonals : 'none' };
}

/** The rules page's questions for a rule set: [{id, key, vars}], `key.q` / `key.a` the texts. */
export function faqEntries(set) {
  const below = set.tiger_wins_below ?? 4;
  const entries = [
    ['men-capture', 'tigerfaq.menCapture'],
    ['guard', 'tigerfaq.guard'],
    ['jump-optional', set.capture_mandatory ? 'tigerfaq.jump.mandatory' : 'tigerfaq.jump.optional'],
    ['tiger-wins', below ? 'tigerfaq.tigerWins' : 'tigerfaq.tigerWins.never'],
    ['retreat', set.men_retreat === false ? 'tigerfaq.retreat.no' : 'tigerfaq.retreat.yes'],
    ['diagonals', `tigerfaq.diagonals.${CHOICES.diagonals.includes(set.diagonals) ? set.diagonals : 'none'}`],
    ['multi-jump', 'tigerfaq.multiJump'],
    ['draw', set.max_rounds ? 'tigerfaq.draw.limit' : 'tigerfaq.draw.repetition'],
  ];
  const men = set.men ?? 12;
  return entries.map(([id, key]) => ({ id, key, vars: { n: below, men, taken: men - below + 1, rounds: set.max_rounds } }));
}

/** The variables of the rules page's texts for a set. */
export function pageVars(set) {
  return { men: set.men ?? 12, tigers: set.tigers ?? 1, below: set.tiger_wins_below ?? 4 };
}
