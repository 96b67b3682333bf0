// Rule options (Jungle: docs/rules.md 6; 老虎棋: docs/tiger.md) on the new-game page: every
// option of the chosen named set, adjustable and explained, and what the server is sent (the
// set's name, or the changed options over it as `parent`). Also how a game's rule set is named
// once options were changed: the server calls it "PARENT (custom)", e.g. "classic (custom)".
// What the options are, their words and bounds, is the game's (games/<game>/, `ruleOptions`).

import { t, plural } from '../shell/i18n.js';
import { h } from '../shell/dom.js';
import { fetchRuleSets } from '../shell/api.js';
import { gameClient } from '../../games/index.js';

const CUSTOM_SUFFIX = ' (custom)';
/** Not options: a set's labels. */
const LABELS = ['name', 'description'];

/** A game's rule options (games/<game>/): the options chosen from a list and their values'
 * words, the whole-number options and their bounds, the option the page's own "who moves
 * first" control sets, and the options the site does not offer; the rest are switches. */
const optionsOf = (game) => gameClient(game).ruleOptions;

/** The keys of an option's name and help text in a game ("opt.ranks", "tigeropt.men"). */
export function optionKey(key, game) {
  return `${optionsOf(game).prefix}${key}`;
}

function namedSetLabel(name) {
  const key = `rules.${name}`;
  const text = t(key);
  return text === key ? name : text; // a name the client does not know (an uploaded record)
}

/** The named set a game's rules are, or are based on ("classic" for "classic (custom)"). */
function parentName(name) {
  return name.endsWith(CUSTOM_SUFFIX) ? name.slice(0, -CUSTOM_SUFFIX.length) : name;
}

/** A rule set's name for people: "Classic rules", or "Custom rules (based on Classic rules)". */
export function ruleSetLabel(name) {
  if (!name) return '';
  if (name.endsWith(CUSTOM_SUFFIX)) return t('ruleopts.customName', { parent: namedSetLabel(parentName(name)) });
  return namedSetLabel(name);
}

/** An option's value in words, as the rules page writes it. */
export function optionValueText(key, value, game) {
  const options = optionsOf(game);
  if (typeof value === 'boolean') return t(value ? 'yes' : 'no');
  const words = options.valueText?.(key, value, { t, plural });
  if (words) return words;
  if (key === options.firstOption) {
    const seat = options.firstValues.indexOf(value);
    return seat >= 0 ? t(gameClient(game).firstKeys[seat]) : String(value);
  }
  const valueKey = options.valueKey(key, value);
  if (valueKey) return t(valueKey);
  return String(value);
}

/** "Option: value; …" for the options a game changed (a summary's `rule_changes`). */
export function changesText(changes, game) {
  return Object.entries(changes || {})
    .map(([key, value]) => t('ruleopts.change', { option: t(optionKey(key, game)), value: optionValueText(key, value, game) }))
    .join(t('ruleopts.separator'));
}

/**
 * The "Adjust rule options" disclosure: one control per option of the chosen named set,
 * prefilled from it; `choose(name)` starts again from another set. A changed option is marked
 * and can be reset; `request()` is what `POST /api/games` takes as `rules`.
 */
export class RuleOptionsPanel {
  constructor(sets, name, savedChanges = {}, game = undefined) {
    this.sets = sets;
    this.game = gameClient(game).key;
    this.options = optionsOf(this.game);
    this.count = h('span', { class: 'ro-count', id: 'ro-count', 'aria-live': 'polite' });
    this.list = h('div', { class: 'ro-list', id: 'ro-list' });
    this.resetAll = h('button', { type: 'button', class: 'ro-reset-all', id: 'ro-reset-all', hidden: true,
      onclick: () => this.choose(this.base.name) }, t('ruleopts.resetAll'));
    this.el = h('details', { class: 'rule-options', id: 'rule-options-panel' },
      h('summary', {}, h('span', {}, t('ruleopts.adjust')), this.count),
      h('div', { class: 'ro-body' },
        h('p', { class: 'ro-intro' }, t('ruleopts.intro')),
        this.list,
        this.resetAll));
    this.choose(name, savedChanges);
    // Someone who changed options before sees at once that this game will use them.
    if (Object.keys(this.changes()).length) this.el.open = true;
  }

  /** Start from the named set `name`, with `changes` (valid ones only) applied over it. */
  choose(name, changes = {}) {
    this.base = this.sets.find((s) => s.name === name) || this.sets[0];
    const skipped = [...LABELS, this.options.firstOption, ...this.options.hidden];
    this.keys = Object.keys(this.base).filter((key) => !skipped.includes(key));
    this.values = {};
    for (const key of this.keys) {
      const wanted = changes[key];
      this.values[key] = wanted !== undefined && typeof wanted === typeof this.base[key] ? wanted : this.base[key];
    }
    // Without the sets' options (the rules request failed) there is nothing to adjust.
    this.el.hidden = !this.keys.length;
    this.list.replaceChildren(...this.keys.map((key) => this.row(key)));
    this.refresh();
  }

  /** The options that differ from the named set. */
  changes() {
    return Object.fromEntries(this.keys.filter((key) => this.values[key] !== this.base[key]).map((key) => [key, this.values[key]]));
  }

  /** The set's name when nothing changed, otherwise the changed options over it. */
  request() {
    const changes = this.changes();
    return Object.keys(changes).length ? { parent: this.base.name, ...changes } : this.base.name;
  }

  row(key) {
    const id = `ro-${key}`;
    const name = t(optionKey(key, this.game));
    const help = h('small', { class: 'ro-help', id: `${id}-help` }, t(`${optionKey(key, this.game)}.help`));
    const base = this.base[key];
    const value = this.values[key];
    const described = { id, name: id, 'aria-describedby': `${id}-help ${id}-mark` };
    const choices = this.options.choices[key];
    let control;
    if (typeof base === 'boolean') {
      control = h('label', { class: 'ro-switch' },
        h('input', { ...described, type: 'checkbox', role: 'switch', checked: value,
          onchange: (e) => this.set(key, e.target.checked) }),
        h('span', { class: 'ro-name' }, name));
    } else if (choices) {
      // The value as the game writes it (a number stays a number), from the option's text.
      const chosen = (text) => choices.find((v) => String(v) === text) ?? text;
      control = h('label', { class: 'ro-field' }, h('span', { class: 'ro-name' }, name),
        h('select', { ...described, onchange: (e) => this.set(key, chosen(e.target.value)) },
          choices.map((v) => h('option', { value: v, selected: v === value }, optionValueText(key, v, this.game)))));
    } else {
      // A whole number (0 often: no limit), within the game's bounds (the server checks it).
      const { min = 0, max = 9999 } = this.options.numbers?.[key] ?? {};
      control = h('label', { class: 'ro-field' }, h('span', { class: 'ro-name' }, name),
        h('input', { ...described, type: 'number', min, max, step: 1, inputmode: 'numeric', value,
          oninput: (e) => this.set(key, e.target.value.trim() === '' ? 0 : Number(e.target.value)) }));
    }
    const mark = h('span', { class: 'ro-mark', id: `${id}-mark` });
    const reset = h('button', { type: 'button', class: 'ro-reset', 'aria-label': t('ruleopts.resetOne', { option: name }),
      onclick: () => {
        // A fresh row shows the set's value; the keyboard focus goes to its control.
        this.values[key] = base;
        const fresh = this.row(key);
        row.replaceWith(fresh);
        this.refresh();
        fresh.querySelector(`#${id}`).focus();
      } },
    t('ruleopts.reset'));
    const row = h('div', { class: 'ro-option', dataset: { option: key } }, control, help, h('div', { class: 'ro-state' }, mark, reset));
    return row;
  }

  valueText(key, value) {
    return gameClient(this.game).namesIn(this.values, optionValueText(key, value, this.game));
  }

  set(key, value) {
    this.values[key] = value;
    this.refresh();
  }

  /** Mark the changed options, and say how many there are. */
  refresh() {
    const changed = this.changes();
    for (const row of this.list.children) {
      const key = row.dataset.option;
      const on = key in changed;
      row.classList.toggle('changed', on);
      row.querySelector('.ro-mark').textContent = on ? t('ruleopts.changed', { value: this.valueText(key, this.base[key]) }) : '';
      row.querySelector('.ro-reset').hidden = !on;
    }
    // Some values name pieces as an option chosen here names them (Jungle's ranks: 狼 or 狐).
    for (const key of this.options.namedValues) {
      for (const option of this.list.querySelectorAll(`[data-option="${key}"] option`)) {
        option.textContent = this.valueText(key, option.value);
      }
    }
    const n = Object.keys(changed).length;
    this.count.textContent = n ? t('ruleopts.count', { n }) : '';
    this.resetAll.hidden = !n;
  }
}

/**
 * The game page's line about its rules: the set's name, linked to its rules page; where the
 * game changed options (custom rules, or the first player), the changes, under a disclosure.
 */
export class GameRulesNote {
  constructor() {
    this.el = h('div', { class: 'game-rules', id: 'game-rules' });
    this.shown = null;
  }

  /** Show `rules` (a game state's options, as `/api/rules` writes them) of the game `game`. */
  async show(rules, game = undefined) {
    const key = JSON.stringify([rules ?? null, game ?? null]);
    if (!rules?.name || key === this.shown) return;
    this.shown = key;
    const parent = parentName(rules.name);
    const base = (await fetchRuleSets(game)).find((s) => s.name === parent);
    if (key !== this.shown) return; // newer rules arrived meanwhile
    const changes = base ? Object.fromEntries(Object.entries(rules)
      .filter(([k, v]) => !['name', 'description'].includes(k) && k in base && base[k] !== v)) : {};
    const label = t('ruleopts.game', { name: ruleSetLabel(rules.name) });
    const link = base ? h('a', { href: `#/rules/${encodeURIComponent(parent)}` }, t('ruleopts.game.about')) : null;
    if (!Object.keys(changes).length) {
      this.el.replaceChildren(h('p', {}, label, link ? ' · ' : null, link));
      return;
    }
    this.el.replaceChildren(h('details', {},
      h('summary', {}, label),
      h('ul', { class: 'game-rules-changes' }, Object.entries(changes).map(([k, v]) => h('li', { dataset: { option: k } },
        t('ruleopts.change', { option: t(optionKey(k, game)), value: optionValueText(k, v, game) }),
        ' ', h('small', {}, t('ruleopts.game.default', { value: optionValueText(k, base[k], game) }))))),
      link ? h('p', {}, link) : null));
  }
}
