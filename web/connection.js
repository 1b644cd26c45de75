// The table's connection and what each state it brings does to the page: the
// countdown, the notices, the held tricks, the Weis preselected.
import { t } from './i18n.js';
import { TableConnection } from './net.js';
import { loadJoin } from './start.js';
import { app, store, notice, render } from './state.js';
import { showMessage } from './page.js';
import { seatChanges, playedForYou, stoeckSaid, pushChange, turnCues } from './cues.js';
import { keepHistory } from './history.js';
import { holdNext, releaseHeld, ninthTrick } from './held.js';

export function openTable(table, token) {
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

export function onState(msg) {
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
