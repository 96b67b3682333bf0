// The new-game page's time control: the presets, or "Custom…" with a control of one's own typed
// as BASE+INC/PERs (e.g. 10+5/30s). The server checks it; the page shows its message.

import { t } from '../shell/i18n.js';
import { h } from '../shell/dom.js';

const CUSTOM = 'custom';

/**
 * The time fields (the select and the custom input, shown while "Custom…" is chosen) and
 * `value()`: the control to send ('' = untimed), or null when "Custom…" was left empty.
 */
export function timeFields(presets, saved = '', label = (p) => p || t('time.none')) {
  const custom = Boolean(saved) && !presets.includes(saved);
  const input = h('input', { type: 'text', name: 'timeCustom', id: 'time-custom', value: custom ? saved : '',
    placeholder: '10+5/30s', autocomplete: 'off', spellcheck: 'false', maxlength: 40, 'aria-describedby': 'time-custom-help' });
  const box = h('label', { class: 'field time-custom', id: 'time-custom-field', hidden: !custom },
    h('span', {}, t('ruleopts.time.input')), input,
    h('small', { class: 'ro-help', id: 'time-custom-help' }, t('ruleopts.time.help')));
  const select = h('select', { name: 'time',
    onchange: () => { box.hidden = select.value !== CUSTOM; if (!box.hidden) input.focus(); } },
  presets.map((p) => h('option', { value: p, selected: !custom && p === saved }, label(p))),
  h('option', { value: CUSTOM, selected: custom }, t('ruleopts.time.custom')));
  const value = () => {
    if (select.value !== CUSTOM) return select.value;
    return input.value.trim() || null;
  };
  return { elements: [h('label', { class: 'field' }, h('span', {}, t('settings.time')), select), box], value, input };
}
