// The settings page (`#/settings`): how the boards look, for everyone (appearance_settings.js),
// then an account's security (security.js) or, for anyone else, the way to log in.

import { t } from '../shell/i18n.js';
import { currentPlayer, sessionPlayer } from '../shell/api.js';
import { h, pageHead } from '../shell/dom.js';
import { pageCheck } from '../shell/navigation.js';
import { appearanceSection } from './appearance_settings.js';
import { securitySections } from './security.js';

export async function settingsView(view) {
  const stillHere = pageCheck();
  const player = currentPlayer() ?? await sessionPlayer().catch(() => null);
  if (!stillHere()) return null;
  const [appearance, security] = await Promise.all([appearanceSection(), securitySections(player)]);
  if (!stillHere()) return appearance.cleanup;
  view.replaceChildren(h('section', { class: 'page narrow security-page settings-page' },
    pageHead(t('security.title')), appearance.section, ...security));
  return appearance.cleanup;
}
