// What the player does: every click on a data-action, the selects that apply at
// once, and the requests they send (each answered on screen).
import { t, getLang, setLang } from './i18n.js';
import { STYLES } from './cards.js';
import { readOptions } from './options.js';
import { clockText } from './seats.js';
import { roundKey } from './rounds.js';
import { LEVELS } from './levels.js';
import { app, root, env, stored, notice, clearNotice, render } from './state.js';
import { beep } from './cues.js';
import { releaseHeld } from './held.js';
import { openReview, replayDeal } from './review-actions.js';
import { route } from './routing.js';

/** An add_computer message at the host's chosen level (normal is the default, left out). */
function addComputerMsg(seat, type = 'add_computer') {
  const level = app.ui.computerLevel;
  return level && level !== 'normal' ? { type, seat, level } : { type, seat };
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
