// The keyboard at the table.
import { app, root } from './state.js';

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
