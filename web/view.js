// Pure rendering: (latest view, local UI state) → DOM. No rules live here: what
// may be done comes only from view.game.allowed. Clicks are wired in actions.js
// through data-action attributes. This module draws the table page's frame (the top
// bar, the connection banner and notices over it) around the lobby (lobby.js) or the
// game (game.js).
import { t } from './i18n.js';
import { h } from './dom.js';
import { topBar } from './topbar.js';
import { renderGame } from './game.js';
import { renderLobby } from './lobby.js';

export function connBanner(status) {
  if (status === 'open' || !status) return null;
  const text = status === 'reconnecting' ? t('reconnecting')
    : status === 'offline' ? t('offlineBanner')
      : status === 'connecting' ? t('connecting') : null;
  if (!text) return null;
  return h('div', { class: 'banner', testid: 'conn-banner', role: 'status' }, text);
}

export function renderApp(view, env, ui) {
  const body = view.game ? renderGame(view, env, ui) : renderLobby(view, env, ui);
  // While the connection is not open the table shown may be stale: dimmed and not
  // clickable until the next state arrives.
  if (env.status && env.status !== 'open') {
    body.setAttribute('inert', '');
    body.classList.add('stale');
    body.setAttribute('aria-busy', 'true');
  }
  // The connection banner and notices float over the top bar: what they say comes
  // and goes during a round, and the table under them must not move.
  const banner = connBanner(env.status);
  const toasts = banner || ui.notice
    ? h('div', { class: 'toasts' }, banner,
      ui.notice ? h('div', { class: `notice ${ui.noticeKind || 'error'}`, testid: 'notice', role: 'status' }, ui.notice) : null)
    : null;
  return h('div', { class: 'app-root' },
    topBar(view, env, ui),
    toasts,
    body);
}
