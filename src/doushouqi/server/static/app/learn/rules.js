// The rules page (#/rules/<set>): each rule in words with its diagrams, the questions people
// ask, the chosen set's options, and a button to play by them. A picker chooses the game; the
// set's name says which game it is of (the games' sets have names of their own), and what the
// page says is the game's client module's (its rule points, questions, option words).

import { t } from '../shell/i18n.js';
import { fetchRuleSets } from '../shell/api.js';
import { h, pageHead } from '../shell/dom.js';
import { pageCheck } from '../shell/navigation.js';
import { optionKey, optionValueText } from '../play/rule_options.js';
import { rememberRules } from '../play/new_game.js';
import { faqList } from './rules_faq.js';
import { GAMES, gameClient } from '../../games/index.js';
import { ruleDiagrams } from './rule_diagrams.js';
import { chosenGame, gamePicker, offered } from '../shell/site_games.js';

/** The game whose rule set is called `name` (the default game's for a name none knows). */
function gameOfSet(name) {
  return Object.values(GAMES).find((g) => g.ruleSetNames.includes(name)) ?? gameClient();
}

export async function rulesView(view, name, go) {
  const stillHere = pageCheck();
  const games = await offered();
  const game = gameClient(chosenGame(games, gameOfSet(name).key));
  const sets = await fetchRuleSets(game.key);
  if (!stillHere()) return; // the user went elsewhere meanwhile: leave their page be
  const set = sets.find((s) => s.name === name) || sets[0];
  const options = Object.entries(set).filter(([k]) => !['name', 'description'].includes(k));
  const vars = game.rulesPageVars(set, t);
  const named = (k) => (game.ruleOptions.naming.includes(k) ? t(optionKey(k, game.key)) : game.namesIn(set, t(optionKey(k, game.key))));
  const picker = gamePicker(games, game.key, (key) => go(`/rules/${gameClient(key).defaultRules}`), { name: 'rules-game' });
  // The page's title names the game: "How to play Jungle", "老虎棋怎么下".
  const title = game.rulesPoints[0][1].replace(/\.[^.]+$/, '.title');
  view.replaceChildren(h('section', { class: 'page narrow rules', dataset: { game: game.key } },
    pageHead(t(title)),
    picker,
    h('label', { class: 'field' }, h('span', {}, t('rulespage.set')),
      h('select', { id: 'rules-select', onchange: (e) => go(`/rules/${e.target.value}`) },
        sets.map((s) => h('option', { value: s.name, selected: s.name === set.name }, t(`rules.${s.name}`))))),
    h('ol', { class: 'rule-points' },
      game.rulesPoints.map(([point, key]) => h('li', { dataset: { point } },
        h('p', {}, game.namesIn(set, t(key, vars))), ruleDiagrams(set, point, game)))),
    h('h2', {}, t('rulesfaq.title')),
    faqList(set, game),
    h('h2', {}, t('rulespage.options')),
    h('table', { class: 'options', id: 'rule-options' },
      h('tbody', {}, options.map(([k, v]) => h('tr', { dataset: { option: k } },
        h('th', { scope: 'row' }, named(k)),
        h('td', {}, game.namesIn(set, optionValueText(k, v, game.key))))))),
    // Against the computer where the site has one for the game, else on one screen.
    h('a', { class: 'button primary big', id: 'rules-play', href: `#/new/${games.find((g) => g.key === game.key)?.engine ? 'vs_ai' : 'same_screen'}?game=${encodeURIComponent(game.key)}`,
      onclick: () => rememberRules(game.key, set.name) },
    t('rulespage.play'))));
}
