// Wiring only: the modules that make up the client, the pages before a table, and
// the routes. The page's state is in state.js, its drawing in page.js, the
// connection in connection.js, clicks in actions.js; rendering is in view.js and
// the modules it draws with, the socket in net.js.
import { getLang, setLang } from './i18n.js';
import { initPages } from './start.js';
import { WIDE_QUERY } from './game.js';
import { app, root, env, store, render } from './state.js';
import { showMessage } from './page.js';
import { openTable, onState } from './connection.js';
import { openRecord } from './record.js';
import { route } from './routing.js';
import './actions.js';
import './keys.js';

setLang(getLang());

initPages({
  root, env, store, route, openTable, showMessage, openRecord,
  page: () => app.page,
  setPage: (p) => { app.page = p; },
});

window.addEventListener('popstate', route);
// The contract dialog moves between the felt and below it with the width.
matchMedia(WIDE_QUERY).addEventListener?.('change', () => { if (app.page === 'table') render(); });

// Offline rendering of a given state (layout checks without a server).
window.__jassRender = (msg, status = 'open') => {
  if (app.conn) { app.conn.close(); app.conn = null; }
  app.page = 'table';
  app.status = status;
  onState(msg);
};

route();
