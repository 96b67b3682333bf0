// Guests choose the name their opponents see: "Set your name" in the header's account menu
// (accounts.js) opens a small dialog that sends `PATCH /api/account` with `display_name`. The
// server keeps the name for as long as the guest cookie lasts, shows it in the games the guest
// creates or joins from then on, and answers a bad name with a 422 (docs/server.md).

import { t } from '../shell/i18n.js';
import { api, ensurePlayer, setPlayer } from '../shell/api.js';
import { h } from '../shell/dom.js';

/** Whether `player` is a guest who has chosen a name. Until then the server calls a guest
 * "Guest-" and the first five characters of its id (auth.py, Principal.guest). */
export function isNamedGuest(player) {
  return player?.kind === 'guest' && player.name !== `Guest-${String(player.id).slice(0, 5)}`;
}

/** What to say under the field for the server's refusal. */
function problem(error) {
  if (error.status === 422) return t('guestname.error.length');
  if (error.status === 429) return t('guestname.error.busy');
  return t('error.generic', { message: error.message });
}

/** Open the dialog for `player` (a guest, or null for a visitor who has not played yet);
 * `whenClosed` runs after it closes, e.g. to give the focus back to the menu's button. */
export function openGuestNameDialog(player, whenClosed = () => {}) {
  const current = isNamedGuest(player) ? player.name : '';
  const input = h('input', {
    id: 'guest-name-input', name: 'display_name', type: 'text', value: current, maxlength: 40,
    autocomplete: 'nickname', required: true, 'aria-describedby': 'guest-name-hint guest-name-error',
  });
  const error = h('p', { class: 'field-error', id: 'guest-name-error', role: 'alert', hidden: true });
  const save = h('button', { type: 'submit', class: 'primary', id: 'guest-name-save' }, t('guestname.save'));
  const form = h('form', { class: 'guest-name-form', id: 'guest-name-form', method: 'dialog', novalidate: true },
    h('h2', { id: 'guest-name-title' }, t('guestname.title')),
    h('div', { class: 'field account-field' },
      h('label', { for: 'guest-name-input' }, t('guestname.label')),
      input,
      h('small', { class: 'hint', id: 'guest-name-hint' }, t('guestname.hint')),
      error),
    h('div', { class: 'row' },
      save,
      h('button', { type: 'button', id: 'guest-name-cancel', onclick: () => dialog.close() }, t('guestname.cancel'))));
  const dialog = h('dialog', { class: 'guest-name-dialog', id: 'guest-name-dialog', 'aria-labelledby': 'guest-name-title' }, form);

  function showError(message) {
    error.textContent = message;
    error.hidden = !message;
    if (message) input.setAttribute('aria-invalid', 'true'); else input.removeAttribute('aria-invalid');
  }

  form.addEventListener('submit', async (event) => {
    event.preventDefault(); // stays open until the server has the name
    save.disabled = true;
    try {
      const guest = await ensurePlayer(); // a first-time visitor becomes a guest here
      // Sent trimmed: an empty name is the server's 422 to show, not a silent "no change".
      const updated = await api('/api/account', { method: 'PATCH', body: { display_name: input.value.trim() } });
      setPlayer({ ...guest, ...updated, name: updated.display_name }); // the header redraws itself
      dialog.close();
    } catch (failure) {
      showError(problem(failure));
      input.focus();
    } finally {
      save.disabled = false;
    }
  });
  dialog.addEventListener('close', () => {
    dialog.remove();
    whenClosed();
  });
  document.body.append(dialog);
  dialog.showModal();
  input.focus();
  input.select();
}
