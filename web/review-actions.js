// A round's review asked of the server (again while it is computed), and its deal
// replayed as practice at a new table.
import { t } from './i18n.js';
import { postJson } from './start.js';
import { app, store, notice, render } from './state.js';
import { route } from './routing.js';

/**
 * Opens the review of round `round` of the latest game (protocol.md, "Round review"):
 * asked again every second while the server answers 202 (being computed).
 */
export function openReview(round, ask = null) {
  const table = app.view?.table;
  const get = ask || (table != null
    ? () => fetch(`/api/tables/${encodeURIComponent(table)}/rounds/${round}/review`)
    : null);
  if (!get || !Number.isInteger(round)) return;
  const state = { round, status: 'loading', data: null, pick: null };
  app.ui.review = state;
  render();
  let tries = 0;
  const again = () => {
    if (app.ui.review !== state) return; // closed, or another round opened
    get()
      .then(async (r) => {
        if (app.ui.review !== state) return;
        if ((r.status === 202 || r.status === 503) && tries++ < 120) {
          setTimeout(again, 1000);
          return;
        }
        if (!r.ok) throw new Error(String(r.status));
        state.data = await r.json();
        state.status = 'ready';
        render();
      })
      .catch(() => {
        if (app.ui.review !== state) return;
        state.status = 'error';
        render();
      });
  };
  again();
}

/**
 * "Replay this deal" (protocol.md, "Replay a deal"): a new table with round `round`'s
 * four hands, this player in the seat chosen and three strong computers, from the deal
 * or the trick chosen; the page then goes to it like a table just created.
 */
export async function replayDeal(round, section) {
  const seat = Number(section?.querySelector('[data-replay=seat]')?.value ?? 0);
  const from = section?.querySelector('[data-replay=from]')?.value ?? '';
  const view = app.page === 'record' ? app.record?.view : app.view;
  const name = (view?.you != null && view.seats?.[view.you]?.name)
    || localStorage.getItem('jass:name') || seatNameOf(view, seat) || 'Jass';
  const body = { name, round, seat, computer_level: 'strong' };
  if (from !== '') body.trick = Number(from);
  // A table's round under the table's own path (a balancer sends it to the table's
  // node); a record's with the record.
  let url = '/api/practice';
  if (app.page === 'record') body.record = app.record.record;
  else url = `/api/tables/${encodeURIComponent(app.view?.table ?? '')}/practice`;
  const res = await postJson(url, body);
  if (!res.ok) {
    notice(res.body?.message || t('error', { msg: res.status }));
    return;
  }
  app.ui.review = null;
  app.record = null;
  store(res.body.table, res.body.seat, res.body.token);
  history.pushState(null, '', `/t/${res.body.table}`);
  route();
}

/** A seat's name from a view or a record's names, if it has one that fits a name. */
function seatNameOf(view, seat) {
  const n = view?.seats?.[seat]?.name;
  return typeof n === 'string' && n.length <= 24 ? n : null;
}
