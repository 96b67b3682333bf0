// Ratings as the site shows them: one per speed (bullet … correspondence, as lichess keeps
// them), and a provisional one (too few rated games to say much: the server's `provisional`,
// RD above 110) marked with a "?" ("1500?"), wherever a rating is shown.

import { t } from './i18n.js';

/** The speeds, fastest first: the order of tabs and lists. */
export const SPEEDS = Object.freeze(['bullet', 'blitz', 'rapid', 'classical', 'correspondence']);

/** "1523", or "1500?" for a provisional rating ({rating, provisional}); '' for none. */
export function ratingText(rating) {
  if (!rating || typeof rating.rating !== 'number') return '';
  const shown = Math.round(rating.rating);
  return rating.provisional ? `${shown}?` : String(shown);
}

/** A speed in words ("Blitz", 快棋). */
export function speedName(speed) {
  return t(`speed.${speed}`);
}


/** Keep a form's rated box (`box`) to timed games: ratings are per speed, and a game without a
 * clock has none, so it is casual (the box unticked and greyed, the hint saying why). */
export function ratedNeedsClock(box, hasClock) {
  if (!box) return;
  const hint = box.form?.querySelector(`#${box.getAttribute('aria-describedby')}`);
  const untimed = !hasClock();
  if (untimed && !box.disabled) box.dataset.wanted = String(box.checked);
  if (!untimed && box.disabled) box.checked = box.dataset.wanted !== 'false';
  box.disabled = untimed;
  if (untimed) box.checked = false;
  if (hint) hint.textContent = t(untimed ? 'ratings.untimed' : (hint.dataset.hint || 'account.rated.hint'));
}
