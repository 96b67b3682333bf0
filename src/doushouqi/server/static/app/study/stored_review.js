// The stored review of a finished game on the replay page (#/replay/game/ID): computed once on
// the server at a fixed search budget (POST /api/games/ID/review asks for it; a second request,
// anyone's, joins the first), then the same for every viewer (GET shows it, or its progress:
// "analysing 23 / 80", polled). A deeper re-analysis may be asked for once the first is shown;
// the deeper is shown once done. replay.js owns the page; this module drives its analysis box
// (button, progress bar, status) and hands the positions and grades to the page and review.js.

import { t } from '../shell/i18n.js';
import { api } from '../shell/api.js';

const POLL_MS = 1000; // how often a viewer looks at a running review's progress
const RESUMES = 3; // a review whose node went silent is asked for again, this often at most

/** A budget's name in words (a site's own budget, outside the two named ones: its nodes). */
function budgetWords(name) {
  return ['standard', 'deep'].includes(name) ? t(`review.budget.${name}`) : name;
}

export class StoredReview {
  /** `view`: the replay (id, data, analyses, scores, review, el, render, …). */
  constructor(view) {
    this.view = view;
    this.state = null; // the server's last answer
    this.shownNodes = null; // the budget of the review shown on the page
    this.asking = false;
    this.error = null;
    this.timer = null;
    this.resumes = 0;
    this.closed = false;
  }

  get url() {
    return `/api/games/${encodeURIComponent(this.view.id)}/review`;
  }

  /** Whether the game is over (only a finished game is reviewed). */
  get finished() {
    return Boolean(this.view.data.result) && this.view.data.result !== '*';
  }

  destroy() {
    this.closed = true;
    clearTimeout(this.timer);
  }

  async load() {
    try {
      this.apply(await api(this.url));
    } catch (error) {
      if (this.closed) return;
      this.error = error.message || String(error);
      this.show();
    }
  }

  async poll() {
    if (this.closed) return;
    try {
      this.apply(await api(this.url));
    } catch {
      if (!this.closed) this.timer = setTimeout(() => this.poll(), POLL_MS * 3); // a blip: later
    }
  }

  /** Ask for the next budget (the standard one first, then the deeper one), or `budget`. */
  async request(budget = this.nextBudget()?.name) {
    if (!budget || this.asking || this.closed) return;
    this.asking = true;
    this.error = null;
    this.show();
    try {
      const state = await api(this.url, { method: 'POST', body: { budget } });
      this.asking = false;
      this.apply(state);
    } catch (error) {
      this.asking = false;
      if (this.closed) return;
      this.error = error.message || String(error);
      this.show();
    }
  }

  /** The budget after the one shown (null when the deepest is shown). */
  nextBudget() {
    const budgets = this.state?.budgets ?? [{ name: 'standard' }];
    const shown = this.shownNodes ?? 0;
    return budgets.find((b) => b.nodes === undefined || b.nodes > shown) ?? null;
  }

  /** The server's answer: the review shown, and the progress of one asked for. */
  apply(state) {
    if (this.closed) return;
    this.state = state;
    clearTimeout(this.timer);
    const shown = state.review;
    if (shown && shown.budget.nodes !== this.shownNodes) this.showReview(shown);
    const pending = state.pending;
    if (pending?.status === 'running') {
      if (pending.stalled && this.resumes < RESUMES) {
        this.resumes++; // its node stopped: asking again resumes it (here or on another node)
        this.request(pending.budget.name);
      } else {
        this.timer = setTimeout(() => this.poll(), POLL_MS);
      }
    } else if (pending?.status === 'failed') {
      this.error = pending.error || '';
    }
    this.show();
  }

  /** Put a finished review on the page: the engine's view of every position, the graph, the
   * marks and the accuracies, exactly as stored. */
  showReview(review) {
    const v = this.view;
    this.shownNodes = review.budget.nodes;
    v.analyses = review.positions.map((p) => ({ ...p, lines: [] }));
    v.scores = review.positions.map((p) => (typeof p.red_cp === 'number' ? p.red_cp : null));
    v.el.analysis.dataset.budget = review.budget.name;
    v.review.showGrades(review.plies, review.players);
    v.render();
  }

  /** The button, the progress bar and the status line. */
  show() {
    const v = this.view;
    const el = v.el;
    const pending = this.state?.pending;
    const running = pending?.status === 'running';
    const shown = this.state?.review;
    const next = this.nextBudget();
    const button = el.analyse;
    let label;
    if (!shown) label = 'review.request';
    else if (next) label = 'review.deeper';
    else label = 'review.deepest';
    button.textContent = t(label);
    button.disabled = !this.finished || this.asking || running || !next || !this.state;
    button.classList.toggle('primary', !shown);
    el.progressBar.hidden = !running;
    if (running) {
      el.progressBar.max = pending.total;
      el.progressBar.value = pending.done;
    }
    // The numbers beside the status, not in it: a screen reader would read out every poll.
    el.count.textContent = running ? `${pending.done} / ${pending.total}` : '';
    let status;
    if (this.error !== null) status = t('review.failed', { message: this.error || t('review.tryAgain') });
    else if (this.asking) status = t('review.asking');
    else if (running) status = t(shown ? 'review.deeperProgress' : 'review.progress');
    else if (shown) status = t('review.done', { budget: budgetWords(shown.budget.name), mistakes: v.mistakes.size });
    else if (!this.finished) status = t('review.unfinished');
    else status = t('review.intro');
    if (el.progress.textContent !== status) el.progress.textContent = status;
    el.progress.classList.toggle('error', this.error !== null);
    el.analysis.dataset.state = running ? 'running' : shown ? 'done' : 'none';
    el.graphBox.hidden = !shown;
  }
}
