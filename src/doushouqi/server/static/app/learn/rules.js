// The rules page (#/rules/<set>): each rule in words with its diagrams, the questions people
// ask, the chosen set's options, and a button to play by them.

import { t } from '../shell/i18n.js';
import { fetchRuleSets } from '../shell/api.js';
import { h, pageHead } from '../shell/dom.js';
import { pageCheck } from '../shell/navigation.js';
import { optionValueText } from '../play/rule_options.js';
import { savedSettings, saveSettings } from '../play/new_game.js';
import { faqList, namesIn } from './rules_faq.js';
import { gameClient } from '../../games/index.js';
import { ruleDiagrams } from './rule_diagrams.js';

export async function rulesView(view, name, go) {
  const stillHere = pageCheck();
  const sets = await fetchRuleSets();
  if (!stillHere()) return; // the user went elsewhere meanwhile: leave their page be
  const set = sets.find((s) => s.name === name) || sets[0];
  const options = Object.entries(set).filter(([k]) => !['name', 'description'].includes(k));
  const game = gameClient();
  const vars = game.rulesPageVars(set, t);
  view.replaceChildren(h('section', { class: 'page narrow rules' },
    pageHead(t('rulespage.title')),
    h('label', { class: 'field' }, h('span', {}, t('rulespage.set')),
      h('select', { id: 'rules-select', onchange: (e) => go(`/rules/${e.target.value}`) },
        sets.map((s) => h('option', { value: s.name, selected: s.name === set.name }, t(`rules.${s.name}`))))),
    h('ol', { class: 'rule-points' },
      h('li', {}, h('p', {}, t('rulespage.board')), ruleDiagrams(set, 'board')),
      h('li', {}, h('p', {}, namesIn(set, t('rulespage.pieces', vars))), ruleDiagrams(set, 'pieces')),
      h('li', {}, h('p', {}, t('rulespage.move')), ruleDiagrams(set, 'move')),
      h('li', {}, h('p', {}, t('rulespage.water')), ruleDiagrams(set, 'water')),
      h('li', {}, h('p', {}, t('rulespage.capture')), ruleDiagrams(set, 'capture')),
      h('li', {}, h('p', {}, t('rulespage.win')), ruleDiagrams(set, 'win'))),
    h('h2', {}, t('rulesfaq.title')),
    faqList(set, game),
    h('h2', {}, t('rulespage.options')),
    h('table', { class: 'options', id: 'rule-options' },
      h('tbody', {}, options.map(([k, v]) => h('tr', { dataset: { option: k } },
        h('th', { scope: 'row' }, game.ruleOptions.naming.includes(k) ? t(`opt.${k}`) : namesIn(set, t(`opt.${k}`))),
        h('td', {}, namesIn(set, optionValueText(k, v))))))),
    h('a', { class: 'button primary big', href: '#/new/vs_ai',
      onclick: () => { const s = savedSettings(); s.rules = set.name; saveSettings(s); } },
    t('rulespage.play'))));
}
