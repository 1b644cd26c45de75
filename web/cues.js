// What a new state tells the player beyond the table itself: a seat freed or given
// to the computer, a push, Stöck, the cards the computer played for this seat, and
// the cues when it becomes this page's turn (a vibration, a beep).
import { t, getLang } from './i18n.js';
import { cardName } from './cards.js';
import { app, env, notice } from './state.js';

/** A seat freed or handed to the computer during a game is said to everyone. */
export function seatChanges(prev, next) {
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
export function playedForYou(view) {
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
export function stoeckSaid(prev, next) {
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
export function pushChange(prev, next) {
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

/** This page must decide now: the view's own to_act and allowed say so. */
export function myTurn(view) {
  const g = view?.game;
  if (!g || g.seat == null || g.phase === 'over' || g.to_act !== g.seat) return false;
  return g.allowed.cards.length > 0 || g.allowed.choose || g.allowed.schiebe;
}

let audio = null;
/** A short beep, only when the player switched sound on. */
export function beep() {
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
export function turnCues(prev, next) {
  if (!myTurn(next) || myTurn(prev)) return;
  app.cues.turns += 1;
  // Browsers allow vibrate only after the page was touched; a desktop has none.
  if (navigator.vibrate && matchMedia('(pointer: coarse)').matches && navigator.userActivation?.hasBeenActive) {
    try { if (navigator.vibrate(80)) app.cues.vibrations += 1; } catch { /* not allowed */ }
  }
  if (app.sound) beep();
}
