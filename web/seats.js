// The four seats around the felt: names, presence, badges, and the clock of the seat
// to act.
import { t } from './i18n.js';
import { h } from './dom.js';
import { position } from './labels.js';
import { computerBadge } from './levels.js';

/** Whole seconds left until `ends` (local ms), never below 0. */
export function secsLeft(ends, now = Date.now()) {
  return Math.max(0, Math.ceil((ends - now) / 1000));
}

/**
 * The countdown text of the seat to act. With the move clock the deadline includes
 * the seat's reserve: the decision's own seconds run first, then the reserve.
 */
export function clockText(view, ends, now = Date.now()) {
  const c = view.clock;
  if (!c) return '';
  const left = Math.max(0, ends - now);
  if (c.kind === 'step_in') return t('stepInIn', { n: secsLeft(ends, now) });
  const res = view.reserve?.[c.seat] ?? 0;
  if (left > res) return t('clockLeft', { n: Math.ceil((left - res) / 1000) });
  return t('clockReserve', { n: Math.ceil(left / 1000) });
}

export function countdown(view, ui, s, cls) {
  const c = view.clock;
  if (!c || c.seat !== s || ui.clockEnds == null) return null;
  return h('span', { class: `clock ${cls} ${c.kind}`, testid: `clock-${s}`, 'data-ends': ui.clockEnds, 'data-seat': s },
    clockText(view, ui.clockEnds));
}

export function seatBox(view, s, env, extra, ui = {}) {
  const seat = view.seats[s];
  const pos = position(s, view.you);
  const g = view.game;
  const classes = ['seat', `pos-${pos}`];
  if (g && g.to_act === s) classes.push('to-act');
  if (!seat.name) classes.push('empty');
  if (seat.computer) classes.push('computer');
  const away = seat.name && !seat.computer && !seat.connected;
  if (away) classes.push('disconnected');
  if (seat.stand_in) classes.push('stand-in');
  const badges = [];
  if (view.host === s) badges.push(h('span', { class: 'badge host' }, t('host')));
  if (g && g.dealer === s && g.phase !== 'over') badges.push(h('span', { class: 'badge' }, t('dealer')));
  if (seat.computer) badges.push(computerBadge(seat, `computer-${s}`));
  if (away) badges.push(h('span', { class: 'badge off', testid: `offline-${s}` }, t('offline')));
  if (seat.waiting) badges.push(h('span', { class: 'badge wait', testid: `waiting-${s}` }, t('waitingDeal')));
  if (seat.benched && view.you === view.host && view.you != null) {
    // The host gives the seat back in one tap, right where it shows.
    badges.push(h('button', { class: 'give-back-btn', action: 'give-back', 'data-seat': s, testid: `give-back-${s}`, title: t('giveBackTo', { name: seat.name }) },
      `↩ ${t('giveBackShort')}`));
  } else if (seat.benched) {
    badges.push(h('span', { class: 'badge comp', testid: `benched-${s}` }, t('standIn', { name: seat.name })));
  } else if (seat.stand_in && !seat.computer && !seat.waiting) {
    badges.push(h('span', { class: 'badge comp', testid: `standin-${s}` },
      seat.name ? t('standIn', { name: seat.name }) : t('standInFree')));
  }
  if (g && view.reserve && g.phase !== 'over' && !seat.computer && !seat.benched) {
    badges.push(h('span', { class: 'badge res', testid: `reserve-${s}` }, t('clockReserve', { n: Math.ceil(view.reserve[s] / 1000) })));
  }
  return h('div', { class: classes.join(' '), testid: `seat-${pos}`, 'data-seat': s },
    h('div', { class: 'seat-head' },
      // Your own dot is green only while this page's connection is open.
      h('span', { class: `dot ${(seat.connected || seat.computer) && !(s === view.you && env.status && env.status !== 'open') ? 'on' : 'off'}`, testid: `dot-${s}`, title: away ? t('offline') : '' }),
      h('span', { class: 'seat-name', testid: `seat-name-${s}` }, seat.name || t('free')),
      s === view.you ? h('span', { class: 'you' }, `(${t('you')})`) : null),
    badges.length ? h('div', { class: 'badges' }, badges) : null,
    g ? countdown(view, ui, s, 'seat-clock') : null,
    extra);
}
