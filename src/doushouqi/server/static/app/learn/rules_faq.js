// The rules page's questions and answers (docs/rules.md sections 3–6, the points players ask about),
// written for the chosen rule set: where an answer depends on a rule option, the option's value
// picks the answer. Every text comes from the translation files.

import { h } from '../shell/dom.js';
import { t } from '../shell/i18n.js';

/**
 * `text` with the wolf called fox (狐) when the rule set names it so (docs/rules.md 6, `wolf_name`).
 * Only for texts that name the animal, such as the ranks; never for the option that names it.
 */
export function wolfText(set, text) {
  if (set.wolf_name !== 'fox') return text;
  return text.replaceAll('狼', '狐').replaceAll('Wolf', 'Fox').replaceAll('wolf', 'fox');
}

/** The questions and answers for a rule set (its options as `/api/rules` gives them). */
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
  const vars = { n: set.no_capture_draw_rounds };
  return entries.map(([id, key]) => ({ id, question: t(`${key}.q`, vars), answer: t(`${key}.a`, vars) }));
}

/** The FAQ as a definition list: each question (dt) with its answer (dd). */
export function faqList(set) {
  return h('dl', { class: 'rule-faq', id: 'rule-faq' },
    faqEntries(set).flatMap(({ id, question, answer }) => [
      h('dt', { dataset: { faq: id } }, question),
      h('dd', { dataset: { faq: id } }, answer),
    ]));
}
