// Drawing the page the app is on: the table, the start or join page, a game record
// or a message.
import { t } from './i18n.js';
import { h } from './dom.js';
import { topBar } from './topbar.js';
import { renderApp } from './view.js';
import { reviewPanel } from './review.js';
import { renderStart, renderJoin } from './start.js';
import { myTurn } from './cues.js';
import { recordPage } from './record.js';
import { app, root, env, setRender } from './state.js';

function render() {
  // Keyboard play survives the re-render every state causes: the focused control is
  // found again by its test id.
  // A control that cannot take focus for a moment (the hand is inert while a trick
  // is collected) gets it back at a later render, unless the player moved on.
  const active = document.activeElement;
  const mine = root.contains(active) ? active?.dataset?.testid : null;
  if (mine) app.focusWanted = mine;
  else if (active && active !== document.body) app.focusWanted = null;
  renderPage();
  document.title = app.page === 'table' && myTurn(app.view) ? `● ${t('yourTurn')} · ${t('title')}` : t('title');
  const want = app.focusWanted;
  if (want) {
    const el = root.querySelector(`[data-testid="${CSS.escape(want)}"]`);
    if (!el) app.focusWanted = null;
    else if (!el.disabled && !el.closest('[inert]')) el.focus({ preventScroll: true });
  }
}

function renderPage() {
  if (app.page === 'table') {
    if (!app.view) {
      root.replaceChildren(h('div', { class: 'app-root' }, topBar(null, env()),
        h('div', { class: 'banner', testid: 'conn-banner' },
        app.status === 'reconnecting' ? t('reconnecting') : app.status === 'offline' ? t('offlineBanner') : t('connecting'))));
      return;
    }
    root.replaceChildren(...[renderApp(app.view, env(), app.ui),
      app.ui.review ? reviewPanel(app.view, env(), app.ui.review) : null].filter(Boolean));
    // Arrivals and the deal move once, not again on the next redraw.
    app.ui.fresh = new Set();
    app.ui.dealt = false;
  } else if (app.page === 'start') {
    renderStart();
  } else if (app.page === 'join') {
    renderJoin();
  } else if (app.page === 'record') {
    root.replaceChildren(...[recordPage(),
      app.ui.review ? reviewPanel(app.record.view, env(), app.ui.review) : null].filter(Boolean));
  } else if (app.page === 'message') {
    root.replaceChildren(h('div', { class: 'app-root' }, topBar(null, env()),
      h('div', { class: 'screen narrow' }, h('div', { class: 'panel', testid: 'message' }, h('p', {}, app.message.text),
        app.message.button ? h('button', { class: 'primary', action: app.message.action, testid: 'message-btn' }, app.message.button) : null,
        h('a', { class: 'button', href: '/' }, t('newTable'))))));
  }
}

export function showMessage(text, button, action) {
  app.page = 'message';
  app.message = { text, button, action };
  render();
}

setRender(render);
