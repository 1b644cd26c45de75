// A game record opened from a file: its rounds, each to review.
import { t } from './i18n.js';
import { h } from './dom.js';
import { contractLabel } from './labels.js';
import { topBar } from './topbar.js';
import { app, env, render } from './state.js';

/**
 * A game record opened from a file (protocol.md 6.3): its rounds, each reviewed by the
 * server on request (`POST /api/review?round=N`), seat names from the record.
 */
export function openRecord(record) {
  const names = [0, 1, 2, 3].map((s) => record.players?.find((p) => p.seat === s)?.name || null);
  app.record = { record, view: { seats: names.map((name) => ({ name })), you: null, table: null } };
  app.ui.review = null;
  app.page = 'record';
  render();
}

export function recordPage() {
  const { record, view } = app.record;
  const rounds = (record.rounds || []).map((r, i) => {
    const chose = r.actions?.find((a) => a.action?.type === 'choose');
    return h('li', { class: 'record-round', testid: `record-round-${i}` },
      h('span', {}, t('roundSummary', { n: i + 1 })),
      chose ? h('span', { class: 'muted' }, ` · ${contractLabel(chose.action.contract, env())} · ${view.seats[chose.seat]?.name || `${t('seat')} ${chose.seat + 1}`}`) : null,
      chose ? h('button', { class: 'small-btn', action: 'record-review', 'data-round': i, testid: `record-review-${i}` }, t('review')) : null);
  });
  return h('div', { class: 'app-root' }, topBar(null, env()),
    h('div', { class: 'screen narrow' }, h('div', { class: 'panel', testid: 'record-page' },
      h('h2', {}, t('recordTitle')),
      h('ol', { class: 'record-rounds' }, rounds),
      h('a', { class: 'button', href: '/' }, t('newTable')))));
}
