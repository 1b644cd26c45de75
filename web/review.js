// The review of a finished round (protocol.md, "Round review"): per trick the four
// cards, each marked by what it cost with all hands known and from what its player
// could see (a symbol and a number beside the colour), a tapped card's alternatives,
// the contract's choice and the totals; the round step by step, and "replay this deal".
// Rendering only: review-actions.js fetches it, actions.js wires its clicks.
import { t } from './i18n.js';
import { h } from './dom.js';
import { cardImg, contractLabel, seatName } from './labels.js';

/** A verdict's mark: never colour alone. */
const MARKS = { good: '✓', forced: '·', guess: '?', mistake: '!', lucky: '~' };

/** Bounds as text: one number when exact, "≥ n" when only shown to be at least n. */
function bound(b, { loss = false } = {}) {
  if (b.at_least === b.at_most) return String(b.at_least);
  if (loss) return `≥ ${b.at_least}`;
  // A value only shown to be below the best less the tolerance.
  return b.at_least === 0 ? `≤ ${b.at_most}` : `${b.at_least}–${b.at_most}`;
}

/** Points with one decimal, as estimates are shown. */
function est(e) {
  return `${e.mean.toFixed(1)} ± ${e.se >= 1e6 ? '∞' : e.se.toFixed(1)}`;
}

/** Points ahead of the opponents, with their sign. */
function signed(x) {
  const n = Math.round(x);
  return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : '0';
}

function contractName(c, env) {
  return c == null ? t('schieben') : contractLabel(c, env);
}

/** The contract's choice: each decision with its options, and the exact values. */
function choicePart(view, env, r) {
  const decisions = r.choice.decisions.map((d) => h('div', { class: 'rv-decision', testid: 'review-decision' },
    h('p', {}, d.chose == null ? t('reviewPushed', { name: seatName(view, d.seat) })
      : t('reviewChose', { name: seatName(view, d.seat), contract: contractLabel(d.chose, env) }),
    d.clear ? h('span', { class: 'rv-cost mistake' }, ` ${MARKS.mistake} ${t('reviewCosts', { n: d.loss.mean.toFixed(1) })}`) : null),
    h('p', { class: 'rv-options' }, t('reviewCouldSee', { name: seatName(view, d.seat) }), ': ',
      [...d.options].sort((a, b) => b.value.mean - a.value.mean).map((o, i) => [i ? ' · ' : '', h('span', {
        class: `rv-opt${o.contract === d.chose ? ' played' : ''}`,
      }, `${contractName(o.contract, env)} ${signed(o.value.mean)}`)]))));
  const exact = h('p', { class: 'rv-options', testid: 'review-contract-exact' }, t('reviewAllKnown'), ': ',
    r.choice.exact.map((b, i) => ({ b, c: CONTRACT_ORDER[i] }))
      .sort((x, y) => y.b.at_most - x.b.at_most)
      .map(({ b, c }, i) => [i ? ' · ' : '', h('span', { class: `rv-opt${c === r.contract ? ' played' : ''}` },
        `${contractLabel(c, env)} ${b.at_least === b.at_most ? b.at_least : `≤ ${b.at_most}`}`)]));
  return h('section', { class: 'rv-choice' },
    h('h3', {}, t('reviewContract'), ` · ${contractLabel(r.contract, env)} ×${r.multiplier}`),
    decisions, exact, h('p', { class: 'muted rv-note' }, t('reviewAheadNote')));
}

const CONTRACT_ORDER = ['hearts', 'diamonds', 'clubs', 'spades', 'obenabe', 'undenufe'];

/** One card of a trick with its marks; tapping it opens its alternatives. */
function cardCell(view, env, c, ti, ci, picked) {
  // "−13", or "−13+" where the loss is only known to be at least that.
  const l = c.exact.loss;
  const lossText = l.at_least > 0 ? `−${l.at_least}${l.at_least === l.at_most ? '' : '+'}` : '0';
  return h('button', {
    class: `rv-card v-${c.verdict}${picked ? ' picked' : ''}`,
    action: 'review-card', 'data-trick': ti, 'data-card': ci, testid: `review-card-${ti}-${ci}`,
    'aria-label': `${seatName(view, c.seat)}: ${c.card}, ${t(`verdict_${c.verdict}`)}`,
  },
  cardImg(c.card, env, { class: 'card-img mini' }),
  h('span', { class: 'rv-mark', 'aria-hidden': 'true' }, MARKS[c.verdict] || ''),
  h('span', { class: 'rv-loss', testid: `review-loss-${ti}-${ci}` }, lossText),
  h('span', { class: 'rv-seat' }, seatName(view, c.seat)));
}

/** A tapped card: what each legal card was worth in both views. */
function cardDetail(view, env, c) {
  const seen = new Map((c.seen?.options || []).map((o) => [o.card, o.value]));
  const rows = c.exact.options.map((o) => h('tr', { class: o.card === c.card ? 'played' : '' },
    h('td', {}, cardImg(o.card, env, { class: 'card-img mini' })),
    h('td', {}, bound(o.value)),
    h('td', {}, seen.has(o.card) ? est(seen.get(o.card)) : '—')));
  const who = seatName(view, c.seat);
  return h('div', { class: 'rv-detail', testid: 'review-detail' },
    h('p', { class: `rv-verdict v-${c.verdict}` }, `${MARKS[c.verdict] || ''} ${t(`verdict_${c.verdict}`)}`),
    h('p', {}, t('reviewAllKnown'), ': ', c.exact.loss.at_least > 0
      ? t('reviewCosts', { n: bound(c.exact.loss, { loss: true }) }) : t('reviewBest')),
    c.seen ? h('p', {}, t('reviewCouldSee', { name: who }), ': ', c.seen.clear
      ? t('reviewCosts', { n: est(c.seen.loss) }) : t('reviewNoClearLoss')) : null,
    h('table', { class: 'rv-alts' },
      h('thead', {}, h('tr', {}, h('th', {}, t('reviewCard')), h('th', {}, t('reviewExactCol')), h('th', {}, t('reviewSeenCol')))),
      h('tbody', {}, rows)),
    h('p', { class: 'muted rv-note' }, t('reviewValuesNote')));
}

function totalsPart(view, r) {
  return h('section', { class: 'rv-totals', testid: 'review-totals' },
    h('h3', {}, t('reviewTotals')),
    h('table', { class: 'sum-table' },
      h('thead', {}, h('tr', {}, h('th', {}), h('th', {}, t('reviewExactCol')), h('th', {}, t('reviewSeenCol')), h('th', {}, MARKS.mistake))),
      h('tbody', {}, [0, 1, 2, 3].map((s) => h('tr', {},
        h('th', {}, seatName(view, s)),
        h('td', { testid: `review-lost-${s}` }, bound(r.players[s].exact, { loss: true })),
        h('td', {}, r.players[s].seen.toFixed(1)),
        h('td', {}, String(r.players[s].mistakes)))))),
    h('p', { class: 'muted' }, [0, 1].map((tm) => t('reviewTeamLine', {
      team: `${seatName(view, tm)} & ${seatName(view, tm + 2)}`,
      took: r.teams[tm].took,
      best: bound(r.teams[tm].best_play),
    })).join(' · ')));
}

/**
 * The review panel: `state` is `{round, status, data, pick, step, replay}` (review-actions.js):
 * `step` the trick stepped to (`null`: the list only), `replay` the replay's choices.
 */
/**
 * Stepping through the round trick by trick: the four hands as they stood before trick
 * `step` (every hand is public once the round is over) and that trick's cards, marked.
 */
function stepPart(view, env, r, step) {
  const last = r.tricks.length - 1;
  const at = Math.max(0, Math.min(step, last));
  const held = [[], [], [], []];
  r.tricks.slice(at).forEach((tr) => tr.cards.forEach((c) => held[c.seat].push(c.card)));
  const tr = r.tricks[at];
  return h('section', { class: 'rv-step', testid: 'review-step' },
    h('div', { class: 'rv-step-head' },
      h('button', { class: 'small-btn', action: 'review-step', 'data-step': at - 1, disabled: at === 0,
        testid: 'review-step-prev', 'aria-label': t('reviewPrevTrick') }, '◀'),
      h('strong', { testid: 'review-step-title' }, t('reviewTrickOf', { n: at + 1, of: r.tricks.length })),
      h('button', { class: 'small-btn', action: 'review-step', 'data-step': at + 1, disabled: at === last,
        testid: 'review-step-next', 'aria-label': t('reviewNextTrick') }, '▶')),
    [0, 1, 2, 3].map((s) => h('div', { class: `rv-hand${s === tr.leader ? ' leads' : ''}`, testid: `review-hand-${s}` },
      h('span', { class: 'rv-hand-who' }, seatName(view, s)),
      h('span', { class: 'rv-hand-cards' }, held[s].map((c) => cardImg(c, env, {
        class: `card-img mini${tr.cards.some((x) => x.seat === s && x.card === c) ? ' played' : ''}`,
      }))))),
    h('div', { class: 'rv-trick' },
      tr.cards.map((c, ci) => cardCell(view, env, c, at, ci, false))),
    h('p', { class: 'muted' }, t('reviewTrickWon', { name: seatName(view, tr.winner) })));
}

/**
 * "Replay this deal": a practice table with the round's four hands, the player in any
 * seat and three computers, from the deal, the first card or any trick
 * (protocol.md, "Replay a deal").
 */
function replayPart(view, r, choice) {
  const seat = choice?.seat ?? view.you ?? 0;
  const from = choice?.from ?? '0';
  return h('section', { class: 'rv-replay', testid: 'review-replay' },
    h('h3', {}, t('replayDeal')),
    h('label', {}, t('replaySeat'), ' ',
      h('select', { 'data-replay': 'seat', testid: 'replay-seat' }, [0, 1, 2, 3].map((s) =>
        h('option', { value: String(s), selected: s === seat }, seatName(view, s))))),
    h('label', {}, t('replayFrom'), ' ',
      h('select', { 'data-replay': 'from', testid: 'replay-from' },
        h('option', { value: '', selected: from === '' }, t('replayFromDeal')),
        r.tricks.map((_, i) => h('option', { value: String(i), selected: String(i) === from },
          i === 0 ? t('replayFromFirst') : t('replayFromTrick', { n: i + 1 }))))),
    h('button', { class: 'primary', action: 'replay-deal', 'data-round': r.round, testid: 'replay-deal' }, t('replayStart')),
    h('p', { class: 'muted rv-note' }, t('replayNote')));
}

export function reviewPanel(view, env, state) {
  const head = h('div', { class: 'panel-head' },
    h('strong', { testid: 'review-title' }, t('reviewTitle', { n: state.round + 1 })),
    h('button', { class: 'x', action: 'close-review', testid: 'close-review', 'aria-label': t('close') }, '×'));
  let body;
  if (state.status !== 'ready') {
    body = h('p', { class: 'muted', testid: 'review-status', role: 'status' },
      state.status === 'error' ? t('reviewFailed') : t('reviewLoading'));
  } else {
    const r = state.data;
    const picked = state.pick && r.tricks[state.pick.trick]?.cards[state.pick.card];
    body = [
      state.step != null ? stepPart(view, env, r, state.step) : h('p', {},
        h('button', { class: 'small-btn', action: 'review-step', 'data-step': 0, testid: 'review-step-start' }, t('reviewStepThrough'))),
      choicePart(view, env, r),
      h('section', { class: 'rv-tricks' },
        h('p', { class: 'rv-legend muted' }, ['good', 'guess', 'mistake', 'lucky', 'forced']
          .map((v) => h('span', { class: `v-${v}` }, `${MARKS[v]} ${t(`verdict_${v}`)}  `))),
        r.tricks.map((tr, ti) => [
          h('div', { class: 'rv-trick', testid: `review-trick-${ti}` },
            h('span', { class: 'rv-no' }, String(ti + 1)),
            tr.cards.map((c, ci) => cardCell(view, env, c, ti, ci, state.pick?.trick === ti && state.pick?.card === ci))),
          picked && state.pick.trick === ti ? cardDetail(view, env, picked) : null,
        ])),
      totalsPart(view, r),
      replayPart(view, r, state.replay),
    ];
  }
  return h('div', { class: 'modal review-modal', testid: 'review-panel' },
    h('div', { class: 'panel review' }, head, body));
}
