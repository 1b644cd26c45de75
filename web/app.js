// Wiring only: routes (start page, join page, table), the connection, local UI
// state and click handling. Rendering is in view.js, the socket in net.js.
import { t, getLang, setLang } from './i18n.js';
import { TableConnection } from './net.js';
import { h, renderApp, topBar, readOptions, clockText, WIDE_QUERY, roundKey, LEVELS, storedLevel, contractLabel } from './view.js';
import { reviewPanel } from './review.js';
import { initPages, renderStart, loadJoin, renderJoin, postJson } from './start.js';
import { displayStyle, STYLES, cardName } from './cards.js';

const root = document.getElementById('app');
setLang(getLang());

/** An add_computer message at the host's chosen level (normal is the default, left out). */
function addComputerMsg(seat, type = 'add_computer') {
  const level = app.ui.computerLevel;
  return level && level !== 'normal' ? { type, seat, level } : { type, seat };
}

const app = {
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

function env() {
  const deck = app.view?.options?.deck || 'french';
  return { style: displayStyle(app.stylePref, deck), deck, status: app.status, sound: app.sound };
}

function stored(table) {
  try {
    const v = JSON.parse(localStorage.getItem(`jass:${table}`) || 'null');
    if (v && typeof v.token === 'string') return v;
  } catch { /* ignore */ }
  return null;
}

function store(table, seat, token) {
  localStorage.setItem(`jass:${table}`, JSON.stringify({ seat, token }));
}

// A message over the table; `ms` 0 keeps it until the next one (or clearNotice).
function notice(text, ms = 4000, kind = 'error', now = true) {
  app.ui.notice = text;
  app.ui.noticeKind = kind;
  clearTimeout(app.noticeTimer);
  if (ms) app.noticeTimer = setTimeout(() => { app.ui.notice = null; render(); }, ms);
  if (now) render();
}

function clearNotice(text) {
  if (app.ui.notice !== text) return;
  clearTimeout(app.noticeTimer);
  app.ui.notice = null;
  render();
}

// ---------------------------------------------------------------- rendering

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

// ---------------------------------------------------------------- pages before a table

function showMessage(text, button, action) {
  app.page = 'message';
  app.message = { text, button, action };
  render();
}

initPages({
  root, env, store, route, openTable, showMessage, openRecord,
  page: () => app.page,
  setPage: (p) => { app.page = p; },
});

// ---------------------------------------------------------------- the table

function openTable(table, token) {
  app.page = 'table';
  app.table = table;
  app.view = null;
  app.ui.manageOpen = false;
  app.ui.otherDevice = null;
  app.status = 'connecting';
  if (app.conn) app.conn.close();
  app.conn = new TableConnection(table, token, {
    onStatus: (s) => { app.status = s; if (app.page === 'table') render(); },
    onWelcome: (w) => {
      // The host may have moved us to another seat: keep the stored seat current.
      if (token && w.seat != null) store(table, w.seat, token);
    },
    onState: onState,
    // A move is kept for the next connection: say so until it is answered.
    onQueued: () => notice(t('moveKept'), 0, 'info'),
    onError: (m) => {
      // An answer to a request of ours is shown by `send`, which awaited it.
      if (m.code === 'disconnected' || m.id != null) return;
      // A refused move is said, never swallowed: the player sees why and acts again.
      notice(m.code === 'stale' ? t('stale') : t('error', { msg: m.message || m.code }));
    },
    onStop: (code) => {
      if (code === 4003) {
        localStorage.removeItem(`jass:${table}`);
        loadJoin(table).then(() => {
          const e = document.querySelector('[data-testid=join-error]');
          if (e) e.textContent = t('badToken');
        });
      } else if (code === 4001) {
        showMessage(t('replaced'), t('join'), 'reconnect');
      } else {
        showMessage(t('unknownTable'));
      }
    },
  });
  app.conn.connect();
  render();
}

function weisDefaults(g) {
  // All Weis preselected; with small_weis a card may count once, so only
  // those that share no card with an earlier one.
  const sel = new Set();
  const used = new Set();
  g.allowed.weis.forEach((cards, i) => {
    if (app.view.options.small_weis && cards.some((c) => used.has(c))) return;
    cards.forEach((c) => used.add(c));
    sel.add(i);
  });
  return sel;
}

/** A seat freed or handed to the computer during a game is said to everyone. */
function seatChanges(prev, next) {
  if (!prev?.game || !next.game || prev.table !== next.table) return null;
  for (let s = 0; s < 4; s++) {
    const a = prev.seats[s];
    const b = next.seats[s];
    if (a.name && !a.computer && !b.name) return t('seatFreed', { name: a.name, seat: s + 1 });
    if (!a.computer && b.computer) return t('seatToComputer', { seat: s + 1 });
    if (!a.benched && b.benched) return s === next.you ? t('benchedYou') : t('benchedOther', { name: b.name, seat: s + 1 });
    if (a.benched && !b.benched) return s === next.you ? t('givenBackYou') : t('givenBackOther', { name: b.name });
  }
  return null;
}

/**
 * Coming back after the computer played for this seat (away, offline, a reload): a
 * note of what it played, from the hand this device last saw (kept in localStorage,
 * so a reload counts too) against the hand now, less the card this page sent itself.
 */
function playedForYou(view) {
  const g = view.game;
  // Only a page at a live table (not one drawing a given state) has a hand to compare.
  if (!app.conn || !g || g.seat == null || view.you == null) return;
  const key = `jass:hand:${view.table}:${view.you}`;
  let seen = null;
  try { seen = JSON.parse(localStorage.getItem(key) || 'null'); } catch { /* dropped */ }
  const now = { games: view.games, round: g.round, hand: g.hand };
  try { localStorage.setItem(key, JSON.stringify(now)); } catch { /* private mode */ }
  if (!seen || seen.games !== view.games || !Array.isArray(seen.hand)) return;
  const sent = app.ui.sentCards || new Set();
  if (seen.round !== g.round) {
    // A round went by: say so only if this page did not play its end itself.
    const left = seen.hand.filter((c) => !sent.has(c));
    if (seen.round < g.round && left.length) notice(t('computerPlayedRound', { n: seen.round + 1 }), 8000, 'info', false);
    return;
  }
  const byComputer = seen.hand.filter((c) => !g.hand.includes(c) && !sent.has(c));
  if (!byComputer.length) return;
  const e = env();
  const names = byComputer.map((c) => cardName(c, e.style, e.deck, getLang())).join(', ');
  notice(t('computerPlayedForYou', { n: byComputer.length, cards: names }), 10000, 'info', false);
}

/**
 * Stöck, the moment it is announced: said to everyone, and marked at the trick where
 * it counts (the trick with the announcer's card, or the one in play).
 */
function stoeckSaid(prev, next) {
  const a = prev?.game;
  const b = next.game;
  if (!a || !b || prev.games !== next.games || a.round !== b.round || a.stoeck != null || b.stoeck == null) return;
  const s = b.stoeck;
  const inTrick = b.trick.cards.some((c) => c.seat === s);
  const inLast = !inTrick && b.last_trick && b.last_trick.cards.some((c) => c.seat === s) && a.trick.number === b.last_trick.trick;
  app.ui.stoeckAt = { games: next.games, round: b.round, seat: s, trick: inLast ? b.last_trick.trick : b.trick.number };
  notice(t('saysStoeck', { name: next.seats[s]?.name || `${t('seat')} ${s + 1}` }), 4000, 'info', false);
}

/** "Anna pushes" for everyone the moment it happens, "You pushed" for the pusher. */
function pushChange(prev, next) {
  const a = prev?.game;
  const b = next.game;
  if (!a || !b || prev.table !== next.table || prev.games !== next.games || a.round !== b.round) return null;
  if (b.phase !== 'choosing') return null;
  const name = (s) => next.seats[s]?.name || `${t('seat')} ${s + 1}`;
  const forehand = b.forehand;
  const partner = (forehand + 2) % 4;
  if (b.pushed_back && !a.pushed_back) {
    return next.you === forehand ? null : t('pushesBack', { name: name(partner), partner: name(forehand) });
  }
  if (!b.pushed || a.pushed) return null;
  if (next.you === forehand) return t('youPushed', { partner: name(partner) });
  // The partner is told in the contract dialog too; the notice is for everyone.
  return t('pushes', { name: name(forehand), partner: name(partner) });
}

// ---------------------------------------------------------------- history and cues

/**
 * Keeps each round's `last_round` as it arrives, per table and game, in localStorage
 * too, so that a reload on this device still lists the rounds before the last.
 * The view itself carries only the last round; what this device never saw comes
 * from the server (`fetchRounds`).
 */
function keepHistory(view) {
  const g = view.game;
  const key = `jass:hist:${view.table}`;
  let h0 = app.ui.historyKey === `${view.table}:${view.games}` ? app.ui.history : null;
  if (!h0) {
    h0 = [];
    try {
      const saved = JSON.parse(localStorage.getItem(key) || 'null');
      if (saved && saved.games === view.games && Array.isArray(saved.rounds)) h0 = saved.rounds;
    } catch { /* a bad entry is dropped */ }
    app.ui.historyKey = `${view.table}:${view.games}`;
  }
  const lr = g?.last_round;
  if (lr && !h0.some((r) => r.round === lr.round && r.complete === lr.complete)) {
    const { seed: _seed, ...row } = lr;
    h0 = [...h0.filter((r) => r.round !== lr.round), row].sort((a, b) => a.round - b.round);
    try { localStorage.setItem(key, JSON.stringify({ games: view.games, rounds: h0 })); } catch { /* full */ }
  }
  app.ui.history = h0;
  fetchRounds(view);
}

/**
 * The server's list of the game's rounds, `GET /api/tables/{table}/rounds`, asked once
 * per round at most: for the rounds this device never saw (it joined or reloaded
 * mid-game, or its storage was cleared), and for the finished round's tricks that its
 * summary browses (views carry only the last one).
 */
function fetchRounds(view) {
  const played = view.game?.rounds_played || 0;
  const phase = view.game?.phase;
  const key = roundKey(view);
  const wantTricks = key && (phase === 'choosing' || phase === 'over') && app.ui.roundTricks?.key !== key;
  if (app.ui.history.length >= played && !wantTricks) return;
  const ask = `${view.table}:${view.games}:${played}:${key}`;
  if (app.ui.historyAsked === ask) return;
  app.ui.historyAsked = ask;
  fetch(`/api/tables/${encodeURIComponent(view.table)}/rounds`)
    .then((r) => (r.ok ? r.json() : null))
    .then((body) => {
      if (!body || body.game !== app.view?.games || !Array.isArray(body.rounds)) return;
      const rows = body.rounds.map(({ seed: _seed, ...row }) => row);
      const mine = app.ui.history.filter((r) => !rows.some((x) => x.round === r.round));
      app.ui.history = [...rows, ...mine].sort((a, b) => a.round - b.round);
      try {
        localStorage.setItem(`jass:hist:${view.table}`, JSON.stringify({ games: body.game, rounds: app.ui.history }));
      } catch { /* full */ }
      const last = rows[rows.length - 1];
      if (last && Array.isArray(body.last_round_tricks)) {
        app.ui.roundTricks = { key: `${view.table}:${body.game}:${last.round}`, tricks: body.last_round_tricks };
      }
      render();
    })
    .catch(() => { /* offline: the note says what is missing */ });
}

/**
 * Opens the review of round `round` of the latest game (protocol.md, "Round review"):
 * asked again every second while the server answers 202 (being computed).
 */
function openReview(round, ask = null) {
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
async function replayDeal(round, section) {
  const seat = Number(section?.querySelector('[data-replay=seat]')?.value ?? 0);
  const from = section?.querySelector('[data-replay=from]')?.value ?? '';
  const view = app.page === 'record' ? app.record?.view : app.view;
  const name = (view?.you != null && view.seats?.[view.you]?.name)
    || localStorage.getItem('jass:name') || seatNameOf(view, seat) || 'Jass';
  const body = { name, round, seat, computer_level: 'strong' };
  if (from !== '') body.trick = Number(from);
  if (app.page === 'record') body.record = app.record.record;
  else body.table = app.view?.table;
  const res = await postJson('/api/practice', body);
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

/**
 * A game record opened from a file (protocol.md 6.3): its rounds, each reviewed by the
 * server on request (`POST /api/review?round=N`), seat names from the record.
 */
function openRecord(record) {
  const names = [0, 1, 2, 3].map((s) => record.players?.find((p) => p.seat === s)?.name || null);
  app.record = { record, view: { seats: names.map((name) => ({ name })), you: null, table: null } };
  app.ui.review = null;
  app.page = 'record';
  render();
}

function recordPage() {
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

/** This page must decide now: the view's own to_act and allowed say so. */
function myTurn(view) {
  const g = view?.game;
  if (!g || g.seat == null || g.phase === 'over' || g.to_act !== g.seat) return false;
  return g.allowed.cards.length > 0 || g.allowed.choose || g.allowed.schiebe;
}

let audio = null;
/** A short beep, only when the player switched sound on. */
function beep() {
  try {
    audio ||= new (window.AudioContext || window.webkitAudioContext)();
    const o = audio.createOscillator();
    const gain = audio.createGain();
    const at = audio.currentTime;
    o.frequency.value = 880;
    gain.gain.setValueAtTime(0.08, at);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.18);
    o.connect(gain).connect(audio.destination);
    o.start(at);
    o.stop(at + 0.2);
    app.cues.beeps += 1;
  } catch { /* no audio here */ }
}

/** When it becomes this page's turn: a vibration on phones where allowed, the beep. */
function turnCues(prev, next) {
  if (!myTurn(next) || myTurn(prev)) return;
  app.cues.turns += 1;
  // Browsers allow vibrate only after the page was touched; a desktop has none.
  if (navigator.vibrate && matchMedia('(pointer: coarse)').matches && navigator.userActivation?.hasBeenActive) {
    try { if (navigator.vibrate(80)) app.cues.vibrations += 1; } catch { /* not allowed */ }
  }
  if (app.sound) beep();
}

function onState(msg) {
  const prev = app.view;
  app.view = msg.view;
  app.version = msg.version;
  const g = msg.view.game;
  const ui = app.ui;
  // The countdown runs from the moment the state arrived, on the server's numbers.
  const c = msg.view.clock;
  ui.clockEnds = c ? Date.now() + (c.deadline - c.now) : null;
  keepHistory(msg.view);
  turnCues(prev, msg.view);
  const changed = seatChanges(prev, msg.view);
  if (changed) notice(changed, 8000, 'info', false);
  const pushed = pushChange(prev, msg.view);
  if (pushed) notice(pushed, 5000, 'info', false);
  stoeckSaid(prev, msg.view);
  playedForYou(msg.view);
  if (g) {
    const lt = g.last_trick;
    const key = lt ? `${msg.view.games}:${g.round}:${lt.trick}:${lt.cards.map((c) => `${c.seat}${c.card}`).join('')}` : null;
    const newTrick = key && key !== ui.lastTrickKey;
    const lr = g.last_round;
    const lrKey = lr ? `${msg.view.games}:${lr.round}` : null;
    const newRound = lrKey && lrKey !== ui.lastRoundKey;
    if (lrKey) ui.lastRoundKey = lrKey;
    if (newRound) ui.browseTrick = null;
    // The 36th card deals the next round at once; the view's
    // `last_round_trick` still has the ninth trick, shown with the same pause as the
    // others, but only to a page that was at that round (not after a reload).
    const ninth = newRound && prev?.game && prev.games === msg.view.games && prev.game.round === lr.round
      ? ninthTrick(g.last_round_trick) : null;
    // Every finished trick is shown for TRICK_HOLD_MS (or until a tap), one after the
    // other, whatever arrives behind it: a quick next lead never cuts one short.
    // A view in which a held trick is not finished yet (a table started over, a
    // canned scene) drops what was held.
    if (ui.held && !ui.ninth && g.round === ui.heldRound && g.trick.number <= ui.held.trick) {
      ui.heldQueue = [];
      releaseHeld(false);
    }
    // Held when it finished before this page's eyes (the trick in play a view ago),
    // not when a reload or a jump brings it.
    const sawIt = prev?.game && prev.games === msg.view.games && prev.game.round === g.round && prev.game.trick.number === lt?.trick;
    if (newTrick && sawIt && !ninth) ui.heldQueue.push({ trick: lt, ninth: false, round: g.round });
    if (ninth) ui.heldQueue.push({ trick: ninth, ninth: true, round: lr.round });
    holdNext();
    ui.roundEnding = !!ui.ninth || ui.heldQueue.some((q) => q.ninth);
    if (key) ui.lastTrickKey = key;
    // Cards new on the table travel in; a new hand fans in.
    const before = new Set(prev?.game?.trick.cards.map((c) => c.card) || []);
    for (const c of g.trick.cards) if (!before.has(c.card) && prev?.game) ui.fresh.add(c.card);
    if (newTrick && prev?.game) for (const c of lt.cards) if (!before.has(c.card)) ui.fresh.add(c.card);
    if (ninth) for (const c of ninth.cards) if (!before.has(c.card)) ui.fresh.add(c.card);
    const handKey = `${msg.view.games}:${g.round}:${g.seat}`;
    if (handKey !== ui.handKey) {
      // A ninth trick still to show deals the hand in once it has gone.
      if (ui.handKey && g.hand.length && !ui.heldQueue.some((q) => q.ninth) && !ui.ninth) ui.dealt = true;
      ui.handKey = handKey;
    }
    const wk = JSON.stringify(g.allowed.weis);
    if (wk !== ui.weisKey) {
      ui.weisKey = wk;
      ui.weisSel = weisDefaults(g);
    }
    if (!g.allowed.bedanke) ui.bedankeOpen = false;
    if (!g.last_trick) ui.showLastTrick = false;
  } else {
    ui.swapFrom = ui.swapFrom != null && msg.view.you === msg.view.host ? ui.swapFrom : null;
  }
  render();
}

/** How long a finished trick stays on the felt. */
const TRICK_HOLD_MS = 1500;

/** Puts the next finished trick waiting on the felt, if none is shown. */
function holdNext() {
  const ui = app.ui;
  if (ui.held || !ui.heldQueue.length) return;
  const next = ui.heldQueue.shift();
  ui.held = next.trick;
  ui.heldRound = next.round;
  ui.pause = true;
  ui.ninth = next.ninth ? next.trick : null;
  ui.roundEnding = next.ninth || ui.heldQueue.some((q) => q.ninth);
  ui.collecting = false;
  clearTimeout(app.pauseTimer);
  clearTimeout(app.collectTimer);
  app.collectTimer = setTimeout(() => { ui.collecting = true; render(); }, TRICK_HOLD_MS - 300);
  app.pauseTimer = setTimeout(releaseHeld, TRICK_HOLD_MS);
}

/** The shown trick has had its time (or was tapped): the next one, or the table as it is. */
function releaseHeld(draw = true) {
  const ui = app.ui;
  clearTimeout(app.pauseTimer);
  clearTimeout(app.collectTimer);
  if (ui.ninth) ui.dealt = true;
  ui.held = null;
  ui.ninth = null;
  ui.roundEnding = false;
  ui.pause = false;
  ui.collecting = false;
  holdNext();
  if (draw) render();
}

/** The round's ninth trick, if the round was played to its end. */
function ninthTrick(last) {
  return last && last.trick === 8 ? last : null;
}

// Whether a game action already shows in the current view: its first copy arrived
// before the connection died, and the copy sent again was refused `stale` for it.
function alreadyTaken(msg) {
  const g = app.view?.game;
  if (!g) return false;
  if (msg.type === 'play') return !g.hand.includes(msg.card);
  if (msg.type === 'choose' || msg.type === 'schiebe') return !g.allowed.choose && !g.allowed.schiebe;
  return false;
}

// Every request is answered on screen: confirmed (the new state shows it) or refused
// with the reason, never silently dropped (protocol.md 4, "`ack` and `error`").
async function send(msg, opts) {
  if (!app.conn) return;
  const err = await app.conn.send(msg, opts);
  // A newer tap took this one's place (and its notice), or the page left the table:
  // nothing to say.
  if (err?.code === 'replaced' || err?.code === 'closed') return;
  clearNotice(t('moveKept'));
  if (!err) return;
  if (err.code === 'disconnected') {
    notice(t('notSent'));
    return;
  }
  if (err.code === 'stale' && err.resent && alreadyTaken(msg)) return;
  notice(err.code === 'stale' ? t('stale') : t('error', { msg: err.message || err.code }));
}

// Game actions carry the version they were decided on, so one sent into a dead
// connection can safely go again on the next: the server takes it at most once.
function act(type, extra = {}) {
  return send({ type, version: app.version, ...extra }, { retry: true });
}

/**
 * The link that moves this seat to another device (README, "Computer players, step-in
 * and move clock"). The token rides in the fragment, which browsers never send in a
 * request line.
 */
function deviceLink(table, token) {
  return `${location.origin}/t/${encodeURIComponent(table)}#seat=${encodeURIComponent(token)}`;
}

/** "Give to computer" during a game: free the seat, then seat a computer in it. */
async function copyLink(inputId, btnId) {
  const input = document.getElementById(inputId);
  const btn = document.querySelector(`[data-testid=${btnId}]`);
  let ok = false;
  try {
    await navigator.clipboard.writeText(input.value);
    ok = true;
  } catch {
    input.select();
    try { ok = document.execCommand('copy'); } catch { ok = false; }
  }
  if (btn) btn.textContent = ok ? t('copied') : t('copy');
}

// The host's options draft survives the re-render every state causes.
// The host's timing selects apply at once (set_timing, lobby only).
root.addEventListener('change', (ev) => {
  // The replay's seat and start survive the re-render every state causes.
  const replay = ev.target.dataset?.replay;
  if (replay && app.ui.review) {
    app.ui.review.replay = { ...app.ui.review.replay, [replay]: ev.target.value };
    return;
  }
  if (ev.target.dataset?.level && LEVELS.includes(ev.target.value)) {
    app.ui.computerLevel = ev.target.value;
    try { localStorage.setItem('jass:level', ev.target.value); } catch { /* ignore */ }
    return;
  }
  const name = ev.target.dataset?.timing;
  if (!name) return;
  send({ type: 'set_timing', [name]: Number(ev.target.value) });
});

// The countdown's seconds tick without re-rendering the page.
setInterval(() => {
  if (!app.view?.clock || app.ui.clockEnds == null) return;
  const now = Date.now();
  for (const el of document.querySelectorAll('.clock[data-ends]')) {
    el.textContent = clockText(app.view, Number(el.dataset.ends), now);
  }
}, 250);

for (const type of ['input', 'change']) {
  root.addEventListener(type, (ev) => {
    const form = ev.target.closest?.('[data-testid=options-form]');
    if (form && app.ui.optionsDraft) app.ui.optionsDraft = readOptions(form);
  });
}

root.addEventListener('click', (ev) => {
  const el = ev.target.closest('[data-action]');
  if (!el || el.disabled) return;
  const a = el.dataset.action;
  const ui = app.ui;
  const g = app.view?.game;
  switch (a) {
    case 'toggle-lang':
      setLang(getLang() === 'de' ? 'en' : 'de');
      render();
      break;
    case 'toggle-sound':
      app.sound = !app.sound;
      localStorage.setItem('jass:sound', app.sound ? 'on' : 'off');
      if (app.sound) beep();
      render();
      break;
    case 'toggle-style': {
      const cur = STYLES.indexOf(env().style);
      const next = STYLES[(cur + 1) % STYLES.length];
      app.stylePref = next;
      localStorage.setItem('jass:cards', next);
      render();
      break;
    }
    case 'play': {
      if (!g) return;
      const msg = { card: el.dataset.card };
      // The card that completes Stöck announces it in the same tap (R7).
      if (el.dataset.stoeck === 'true') msg.stoeck = true;
      // Played by this page, not by the computer for it (see playedForYou).
      (ui.sentCards ||= new Set()).add(msg.card);
      if (g.allowed.weis.length && ui.weisSel.size) {
        msg.weis = g.allowed.weis.filter((_, i) => ui.weisSel.has(i));
      }
      act('play', msg);
      break;
    }
    case 'toggle-weis': {
      const i = Number(el.dataset.index);
      if (el.checked) ui.weisSel.add(i); else ui.weisSel.delete(i);
      render();
      break;
    }
    case 'choose':
      act('choose', { contract: el.dataset.contract });
      break;
    case 'schiebe':
      act('schiebe');
      break;
    case 'stoeck':
      send({ type: 'stoeck' });
      break;
    case 'bedanke':
      ui.bedankeOpen = true;
      render();
      break;
    case 'bedanke-no':
      ui.bedankeOpen = false;
      render();
      break;
    case 'bedanke-yes':
      ui.bedankeOpen = false;
      send({ type: 'bedanke' });
      render();
      break;
    case 'show-last-trick':
      ui.showLastTrick = true;
      render();
      break;
    case 'close-last-trick':
      ui.showLastTrick = false;
      render();
      break;
    case 'open-review':
      openReview(Number(el.dataset.round));
      break;
    case 'record-review': {
      const record = app.record?.record;
      if (record) {
        const round = Number(el.dataset.round);
        openReview(round, () => fetch(`/api/review?round=${round}`, {
          method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(record),
        }));
      }
      break;
    }
    case 'close-review':
      ui.review = null;
      render();
      break;
    case 'review-step':
      if (ui.review) ui.review.step = Number(el.dataset.step);
      render();
      break;
    case 'replay-deal':
      replayDeal(Number(el.dataset.round), el.closest('[data-testid=review-replay]'));
      break;
    case 'review-card': {
      const pick = { trick: Number(el.dataset.trick), card: Number(el.dataset.card) };
      const same = ui.review?.pick && ui.review.pick.trick === pick.trick && ui.review.pick.card === pick.card;
      if (ui.review) ui.review.pick = same ? null : pick;
      render();
      break;
    }
    case 'browse-tricks':
      ui.browseTrick = 0;
      render();
      break;
    case 'close-tricks':
      ui.browseTrick = null;
      render();
      break;
    case 'trick-prev':
      ui.browseTrick = Math.max(0, (ui.browseTrick ?? 0) - 1);
      render();
      break;
    case 'trick-next':
      ui.browseTrick = (ui.browseTrick ?? 0) + 1;
      render();
      break;
    case 'release-trick':
      if (app.ui.held) releaseHeld();
      break;
    case 'close-summary':
      if (g?.last_round) ui.summaryClosed.add(roundKey(app.view));
      render();
      break;
    case 'rematch':
      send({ type: 'rematch' });
      break;
    case 'start':
      send({ type: 'start' });
      break;
    case 'swap': {
      const s = Number(el.dataset.seat);
      if (ui.swapFrom == null) ui.swapFrom = s;
      else if (ui.swapFrom === s) ui.swapFrom = null;
      else {
        send({ type: 'swap_seats', a: ui.swapFrom, b: s });
        ui.swapFrom = null;
      }
      render();
      break;
    }
    case 'free-seat':
      send({ type: 'free_seat', seat: Number(el.dataset.seat) });
      break;
    case 'add-computer':
      send(addComputerMsg(Number(el.dataset.seat)));
      break;
    case 'give-computer':
      // The player keeps the seat and watches; the host can give it back (protocol.md 3).
      send(addComputerMsg(Number(el.dataset.seat), 'give_to_computer'));
      break;
    case 'give-back':
      send({ type: 'give_back', seat: Number(el.dataset.seat) });
      break;
    case 'manage-seats':
      ui.manageOpen = true;
      render();
      break;
    case 'close-manage':
      ui.manageOpen = false;
      render();
      break;
    case 'other-device': {
      const token = app.conn?.token || stored(app.table)?.token;
      ui.otherDevice = { url: token ? deviceLink(app.table, token) : null };
      render();
      break;
    }
    case 'close-other-device':
      ui.otherDevice = null;
      render();
      break;
    case 'copy-device-link':
      copyLink('device-link', 'copy-device-link');
      break;
    case 'edit-options':
      ui.optionsDraft = { ...app.view.options };
      render();
      break;
    case 'cancel-options':
      ui.optionsDraft = null;
      render();
      break;
    case 'apply-options': {
      const form = document.querySelector('[data-testid=options-form]');
      if (form) send({ type: 'set_options', options: readOptions(form) });
      ui.optionsDraft = null;
      render();
      break;
    }
    case 'copy-link':
      copyLink('share-link', 'copy-link');
      break;
    case 'share-link':
      // The native share sheet; a dismissed sheet is no error.
      navigator.share?.({ title: t('shareTitle'), text: t('shareText'), url: el.dataset.url }).catch(() => {});
      break;
    case 'share-qr':
      ui.shareQr = el.dataset.url;
      render();
      break;
    case 'close-share-qr':
      ui.shareQr = null;
      render();
      break;
    case 'reconnect':
      route();
      break;
    default:
      break;
  }
});

// ---------------------------------------------------------------- keyboard

/**
 * Play without a mouse: arrows move between the legal cards (Enter
 * or Space plays the focused one, as buttons do), 1–6 choose a contract, S pushes,
 * B opens "bedanke". Only what the view allows is on screen to be pressed.
 */
document.addEventListener('keydown', (ev) => {
  if (app.page !== 'table' || !app.view?.game || app.status !== 'open') return;
  if (ev.altKey || ev.ctrlKey || ev.metaKey || ev.target.closest?.('input, select, textarea')) return;
  if (root.querySelector('.modal')) return;
  const k = ev.key;
  if (['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home', 'End'].includes(k)) {
    const cards = [...root.querySelectorAll('[data-testid=hand] button.card:not([disabled])')];
    if (!cards.length) return;
    const i = cards.indexOf(document.activeElement);
    const back = k === 'ArrowLeft' || k === 'ArrowUp';
    let n;
    if (k === 'Home') n = 0;
    else if (k === 'End') n = cards.length - 1;
    else if (i < 0) n = back ? cards.length - 1 : 0;
    else n = (i + (back ? -1 : 1) + cards.length) % cards.length;
    cards[n].focus();
    ev.preventDefault();
    return;
  }
  const key = k.toLowerCase();
  let target = null;
  if (/^[1-6]$/.test(k)) target = root.querySelector(`[data-testid=contract-dialog] [aria-keyshortcuts="${k}"]`);
  else if (key === 's') target = root.querySelector('[data-testid=schiebe]');
  else if (key === 'b') target = root.querySelector('[data-testid=bedanke-btn]');
  if (target && !target.disabled) {
    ev.preventDefault();
    target.click();
  }
});

// ---------------------------------------------------------------- routing

function route() {
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
