// How the table names and draws its pieces: seat positions, seat and team names,
// cards, contracts and Weis.
import { t, getLang } from './i18n.js';
import { cardUrl, suitUrl, cardName, suitName, rankLabel, TRUMPS } from './cards.js';
import { h } from './dom.js';

/** Display position of an absolute seat, seen from `me` (R1). */
export function position(seat, me) {
  return ['bottom', 'right', 'top', 'left'][(seat - (me ?? 0) + 4) % 4];
}

export function seatName(view, s) {
  return view.seats[s]?.name || `${t('seat')} ${s + 1}`;
}

export function teamLabel(view, team) {
  const a = seatName(view, team);
  const b = seatName(view, team + 2);
  if (view.you == null) return t('team0', { a, b });
  return view.you % 2 === team ? `${t('us')} (${a} & ${b})` : `${t('them')} (${a} & ${b})`;
}

export function shortTeam(view, team) {
  if (view.you == null) return t('team0', { a: seatName(view, team), b: seatName(view, team + 2) });
  return view.you % 2 === team ? t('us') : t('them');
}

export function cardImg(card, env, extra = {}) {
  return h('img', {
    class: 'card-img',
    src: cardUrl(card, env.style, env.deck, getLang()),
    alt: cardName(card, env.style, env.deck, getLang()),
    draggable: 'false',
    ...extra,
  });
}

export function contractLabel(contract, env) {
  if (!contract) return '';
  if (contract === 'obenabe') return t('obenabe');
  if (contract === 'undenufe') return t('undenufe');
  const s = TRUMPS[contract];
  return suitName(s, env.style, env.deck, getLang());
}

export function contractIcon(contract, env) {
  if (contract === 'obenabe') return h('span', { class: 'c-icon' }, '▲');
  if (contract === 'undenufe') return h('span', { class: 'c-icon' }, '▼');
  const s = TRUMPS[contract];
  return h('img', { class: 'c-icon-img', alt: '', src: suitUrl(s, env.style, env.deck) });
}

/**
 * The name of a Weis from its cards (display only: the server said it is one): four
 * cards of one rank are "four Jacks", anything else is a run named by its length.
 */
export function weisName(cards, env) {
  const rank = cards[0]?.[1];
  if (cards.length === 4 && cards.every((c) => c[1] === rank)) {
    const swiss = env.style === 'swiss' && (rank === 'Q' || rank === 'T');
    return t(`weis4_${rank}${swiss ? '_swiss' : ''}`);
  }
  return t(`weisRun${Math.min(Math.max(cards.length, 3), 9)}`);
}

/** A Weis's cards as suit symbols and rank indices: legible at any size. */
export function weisStrip(cards, env) {
  const lang = getLang();
  const parts = [];
  let suit = null;
  for (const c of cards) {
    if (c[0] !== suit) {
      suit = c[0];
      parts.push(h('img', { class: 'ws-suit', alt: suitName(suit, env.style, env.deck, lang), src: suitUrl(suit, env.style, env.deck) }));
    }
    parts.push(h('span', { class: 'ws-rank' }, rankLabel(c[1], env.style, lang)));
  }
  return h('span', { class: 'weis-strip', title: cards.map((c) => cardName(c, env.style, env.deck, lang)).join(', ') }, parts);
}
