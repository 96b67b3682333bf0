// Closing your own account (POST /api/account/close, server/api/closing.py), folded away at the
// foot of your profile, and the note a closed account's profile shows. Closing is for good: the
// name stays taken, the games stay in the other players' histories.

import { t } from '../shell/i18n.js';
import { api, setPlayer } from '../shell/api.js';
import { h } from '../shell/dom.js';

/** "This account is closed", on a closed account's profile (null otherwise). */
export function closedNote(profile) {
  if (!profile.closed) return null;
  return h('p', { class: 'profile-closed', id: 'profile-closed', role: 'note' }, t('closing.closed'));
}

/** The owner's form: what closing means, the password, and the button. */
export function closeAccountForm(profile) {
  const error = h('p', { class: 'error form-error', id: 'close-error', role: 'alert', hidden: true });
  const password = h('input', { id: 'close-password', name: 'password', type: 'password',
    autocomplete: 'current-password', required: true, maxlength: 128 });
  const sure = h('input', { id: 'close-sure', type: 'checkbox' });
  const form = h('form', { class: 'settings account-form', id: 'close-form', novalidate: true },
    h('p', {}, t('closing.explain')),
    h('div', { class: 'field account-field' }, h('label', { for: 'close-password' }, t('closing.password')), password),
    h('label', { class: 'check' }, sure, h('span', {}, t('closing.sure'))),
    error,
    h('button', { type: 'submit', class: 'danger', id: 'close-submit' }, t('closing.submit')));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    error.hidden = true;
    if (!password.value) {
      error.textContent = t('closing.passwordNeeded');
      error.hidden = false;
      password.focus();
      return;
    }
    if (!sure.checked) {
      error.textContent = t('closing.sureNeeded');
      error.hidden = false;
      sure.focus();
      return;
    }
    const button = form.querySelector('#close-submit');
    button.disabled = true;
    try {
      await api('/api/account/close', { method: 'POST', body: { password: password.value } });
      // Carry on as a guest, as after logging out; the profile, drawn again, says it is closed.
      setPlayer(await api('/api/auth/guest', { method: 'POST' }));
      location.reload();
    } catch (failure) {
      error.textContent = failure.message;
      error.hidden = false;
      button.disabled = false;
    }
  });
  return h('details', { class: 'profile-edit close-account', id: 'close-account' },
    h('summary', {}, t('closing.title')), form);
}
