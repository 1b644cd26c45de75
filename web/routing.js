// Routes: the start page, or a table (its seat from this device, or the join page).
import { loadJoin } from './start.js';
import { app, stored, store, render } from './state.js';
import { openTable } from './connection.js';

export function route() {
  const m = location.pathname.match(/^\/t\/([^/]+)\/?$/);
  if (app.conn) { app.conn.close(); app.conn = null; }
  if (!m) {
    app.page = 'start';
    app.view = null;
    render();
    return;
  }
  const table = decodeURIComponent(m[1]);
  // "Continue on another device": the seat's token in the fragment is kept like a
  // token from joining, and taken out of the address bar at once.
  const frag = new URLSearchParams(location.hash.slice(1)).get('seat');
  if (frag) {
    store(table, null, frag);
    history.replaceState(null, '', location.pathname + location.search);
  }
  const s = stored(table);
  if (s) openTable(table, s.token);
  else loadJoin(table);
}
