// The page's state, shared by the modules that wire the client: the latest view and
// the local UI state (`app`, also `window.__jass`), the device's stored seats, the
// notice over the table, and `render`, which draws the page again (page.js).
import { displayStyle } from './cards.js';
import { storedLevel } from './levels.js';

export const root = document.getElementById('app');

export const app = {
  table: null,
  conn: null,
  view: null,
  version: 0,
  status: null,
  stopped: null, // close code that stopped the connection
  ui: {
    pause: false,
    lastTrickKey: null,
    showLastTrick: false,
    bedankeOpen: false,
    summaryClosed: new Set(),
    weisKey: '',
    weisSel: new Set(),
    swapFrom: null,
    optionsDraft: null, // the host's options being edited in the lobby
    notice: null,
    clockEnds: null, // local ms when the seat to act runs out (view.clock)
    manageOpen: false, // the host's seat controls during a game
    computerLevel: storedLevel(), // the level of the computers the host adds (protocol.md 3, "Computer levels")
    otherDevice: null, // {url}: the "continue on another device" panel
    history: [], // this game's rounds as their `last_round` arrived
    shareQr: null, // the table link shown as a QR code
    // The ninth trick, the round's tricks, motion.
    ninth: null, // the finished round's last trick while it is shown
    held: null, // the finished trick on the felt now, shown for TRICK_HOLD_MS whatever comes behind it
    roundEnding: false, // a finished round's last tricks are still being shown (no summary, no new hand yet)
    heldQueue: [], // finished tricks waiting for their turn on the felt
    collecting: false, // the shown trick travels to its winner
    fresh: new Set(), // trick cards new in this state (they travel in once)
    dealt: false, // a new hand fans in once
    browseTrick: null, // index into the finished round's tricks, or null
    roundTricks: null, // { key, tricks }: the finished round's tricks, fetched for its summary
    review: null, // { round, status: 'loading' | 'ready' | 'error', data, pick: {trick, card} | null }
    lastRoundKey: null,
    handKey: null,
  },
  stylePref: localStorage.getItem('jass:cards'),
  sound: localStorage.getItem('jass:sound') === 'on', // off unless switched on
  pauseTimer: null,
  noticeTimer: null,
  page: null, // 'start' | 'join' | 'table' | 'message'
};
app.cues = { turns: 0, vibrations: 0, beeps: 0 };
// For the browser tests and for debugging: the latest state this page received.
window.__jass = app;

export function env() {
  const deck = app.view?.options?.deck || 'french';
  return { style: displayStyle(app.stylePref, deck), deck, status: app.status, sound: app.sound };
}

export function stored(table) {
  try {
    const v = JSON.parse(localStorage.getItem(`jass:${table}`) || 'null');
    if (v && typeof v.token === 'string') return v;
  } catch { /* ignore */ }
  return null;
}

export function store(table, seat, token) {
  localStorage.setItem(`jass:${table}`, JSON.stringify({ seat, token }));
}

// A message over the table; `ms` 0 keeps it until the next one (or clearNotice).
export function notice(text, ms = 4000, kind = 'error', now = true) {
  app.ui.notice = text;
  app.ui.noticeKind = kind;
  clearTimeout(app.noticeTimer);
  if (ms) app.noticeTimer = setTimeout(() => { app.ui.notice = null; render(); }, ms);
  if (now) render();
}

export function clearNotice(text) {
  if (app.ui.notice !== text) return;
  clearTimeout(app.noticeTimer);
  app.ui.notice = null;
  render();
}

/** The page's drawing, set once by page.js: every module redraws through `render`. */
let draw = null;

export function setRender(fn) {
  draw = fn;
}

/** Draws the page again from `app` (page.js). */
export function render() {
  draw?.();
}
