// The finished tricks held on the felt, one after the other, each for its time.
import { app, render } from './state.js';

/** How long a finished trick stays on the felt. */
const TRICK_HOLD_MS = 1500;

/** Puts the next finished trick waiting on the felt, if none is shown. */
export function holdNext() {
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
export function releaseHeld(draw = true) {
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
export function ninthTrick(last) {
  return last && last.trick === 8 ? last : null;
}
