// The rules page's questions and answers, written for the chosen rule set: the game's client
// module says which questions a set has (where an answer depends on a rule option, the option's
// value picks it); every text comes from the translation files.

import { h } from '../shell/dom.js';
import { t } from '../shell/i18n.js';
import { gameClient } from '../../games/index.js';

/**
 * `text` with the pieces named as the rule set names them (in Jungle, the wolf called fox).
 * Only for texts that name a piece; never for the option that names it.
 */
export function namesIn(set, text, game = gameClient()) {
  return game.namesIn(set, text);
}

/** The questions and answers for a rule set (its options as `/api/rules` gives them). */
export function faqEntries(set, game = gameClient()) {
  return game.faqEntries(set).map(({ id, key, vars }) => ({ id, question: t(`${key}.q`, vars), answer: t(`${key}.a`, vars) }));
}

/** The FAQ as a definition list: each question (dt) with its answer (dd). */
export function faqList(set, game = gameClient()) {
  return h('dl', { class: 'rule-faq', id: 'rule-faq' },
    faqEntries(set, game).flatMap(({ id, question, answer }) => [
      h('dt', { dataset: { faq: id } }, question),
      h('dd', { dataset: { faq: id } }, answer),
    ]));
}
