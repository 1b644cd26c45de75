// The trick on the felt: the one in play, or a finished one held for its time.
import { t } from './i18n.js';
import { h } from './dom.js';
import { position, seatName, cardImg } from './labels.js';

/** The number of the trick on the felt: a finished one still held, or the one in play. */
export function shownTrick(view, ui) {
  return ui.pause && ui.held ? ui.held.trick : view.game.trick.number;
}

export function trickView(view, env, ui) {
  const g = view.game;
  const me = view.you;
  let cards = g.trick.cards;
  let leader = g.trick.leader;
  let caption = null;
  let completed = null;
  // Every finished trick, the round's ninth too, is held on the felt for its time
  // whatever arrived behind it (the next lead shows once it is gone).
  if (ui.pause && ui.held) completed = ui.held;
  if (completed) {
    cards = completed.cards;
    leader = cards[0]?.seat;
    caption = t('takes', { name: seatName(view, completed.winner), points: completed.points });
  }
  const fresh = ui.fresh || new Set();
  const shownTrick = completed ? completed.trick : g.trick.number;
  const st = ui.stoeckAt;
  const stoeckHere = st && st.games === view.games && st.round === g.round && st.trick === shownTrick ? st.seat : null;
  const slots = cards.map(({ seat, card }) => h('div', {
    class: `trick-card at-${position(seat, me)}${seat === leader ? ' leader' : ''}${completed && seat === completed.winner ? ' winner' : ''}${fresh.has(card) ? ' arrive' : ''}`,
    testid: `trick-card-${seat}`,
    'data-card': card,
  }, cardImg(card, env), seat === stoeckHere ? h('span', { class: 'trick-stoeck', testid: `trick-stoeck-${seat}` }, t('announceStoeck')) : null));
  // The lead star sits beside the led card, never on its index.
  const lead = cards.find((c) => c.seat === leader);
  const mark = lead ? h('span', { class: `lead-mark at-${position(lead.seat, me)}`, testid: 'lead-mark', title: t('leader') }, '★') : null;
  const collect = completed && ui.collecting ? ` collect-${position(completed.winner, me)}` : '';
  return h('div', { class: `trick${completed ? ' completed' : ''}${collect}`, testid: 'trick', 'data-count': cards.length, 'data-trick': completed ? completed.trick : g.trick.number,
    ...(completed ? { action: 'release-trick', title: t('tapToGoOn') } : {}) },
    mark,
    slots,
    caption ? h('div', { class: 'trick-caption', testid: 'trick-winner' }, caption) : null);
}
