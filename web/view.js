// Pure rendering: (latest view, local UI state) → DOM. No rules live here: what
// may be done comes only from view.game.allowed. Clicks are wired in app.js
// through data-action attributes.
import { t, getLang } from './i18n.js';
import { cardUrl, suitUrl, cardName, suitName, sortHand, rankLabel, TRUMPS, CONTRACTS } from './cards.js';
import { jasstafel } from './jasstafel.js';
import qrcode from './vendor/qrcode.js';

export function h(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v == null || v === false) continue;
    if (k === 'class') e.className = v;
    else if (k === 'text') e.textContent = v;
    else if (k === 'testid') e.setAttribute('data-testid', v);
    else if (k === 'action') e.setAttribute('data-action', v);
    else if (v === true) e.setAttribute(k, '');
    else e.setAttribute(k, String(v));
  }
  for (const c of children.flat(Infinity)) {
    if (c == null || c === false) continue;
    e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return e;
}

/**
 * The card that completes this seat's Stöck, when it may be announced with it: the
 * king or queen of trump still in hand, the other one played already (R7).
 */
export function stoeckCard(view) {
  const g = view.game;
  if (!g?.allowed?.stoeck || view.options.auto_stoeck || !g.contract || g.phase !== 'playing') return null;
  const trump = { hearts: 'H', diamonds: 'D', clubs: 'C', spades: 'S' }[g.contract];
  if (!trump) return null;
  const inHand = [`${trump}K`, `${trump}Q`].filter((c) => g.hand.includes(c));
  return inHand.length === 1 && g.allowed.cards.includes(inHand[0]) ? inHand[0] : null;
}

/** Whether announcing Stöck now would bring the seat's team to the target. */
function stoeckReaches(view) {
  const g = view.game;
  const team = view.you % 2;
  const mult = g.contract ? (view.options.multipliers?.[g.contract] ?? 1) : 1;
  return view.options.end === 'bedanken' && g.totals[team] < view.options.target && g.totals[team] + 20 * mult >= view.options.target;
}

/** Display position of an absolute seat, seen from `me` (R1). */
export function position(seat, me) {
  return ['bottom', 'right', 'top', 'left'][(seat - (me ?? 0) + 4) % 4];
}

export function seatName(view, s) {
  return view.seats[s]?.name || `${t('seat')} ${s + 1}`;
}

function teamLabel(view, team) {
  const a = seatName(view, team);
  const b = seatName(view, team + 2);
  if (view.you == null) return t('team0', { a, b });
  return view.you % 2 === team ? `${t('us')} (${a} & ${b})` : `${t('them')} (${a} & ${b})`;
}

function shortTeam(view, team) {
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

function contractIcon(contract, env) {
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

// ---------------------------------------------------------------- top bar

function eyeIcon() {
  const NS = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('viewBox', '0 0 24 16');
  svg.setAttribute('class', 'eye');
  svg.innerHTML = '<path d="M1 8C5 1 19 1 23 8C19 15 5 15 1 8Z" fill="none" stroke="currentColor" stroke-width="2"/><circle cx="12" cy="8" r="3.5" fill="currentColor"/>';
  return svg;
}

/** A speaker, with sound waves when on and a cross when off (no emoji font needed). */
function speakerIcon(on) {
  const NS = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('class', 'speaker');
  svg.setAttribute('aria-hidden', 'true');
  svg.innerHTML = '<path d="M3 9h4l5-4v14l-5-4H3z" fill="currentColor"/>' + (on
    ? '<path d="M15 9a4 4 0 0 1 0 6M17.5 6.5a7.5 7.5 0 0 1 0 11" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"/>'
    : '<path d="M15 9l6 6M21 9l-6 6" stroke="currentColor" stroke-width="2" stroke-linecap="round"/>');
  return svg;
}

function topBar(view, env, ui) {
  // While the finished round's ninth trick shows, the bar is still that round's.
  const g = ui?.roundEnding && view?.game?.last_round ? view.game.last_round : view?.game;
  const info = [];
  if (g) {
    info.push(h('span', { class: 'round', testid: 'round' }, t('round', { n: g.round + 1 })));
    if (g.contract) {
      const mult = view.options.multipliers[g.contract];
      // Trump, multiplier, who chose it and whether pushed, on every size.
      info.push(h('span', { class: 'contract-chip', testid: 'contract' },
        contractIcon(g.contract, env), h('span', { class: 'chip-main' }, ` ${contractLabel(g.contract, env)} ×${mult}`),
        g.chosen_by != null ? h('small', { class: 'chip-who', testid: 'chosen-by' }, t('chosenBy', { name: seatName(view, g.chosen_by) })) : null,
        g.pushed ? h('small', { class: 'chip-pushed', testid: 'pushed' }, t('pushedNote')) : null));
    }
  }
  return h('header', { class: 'topbar' },
    h('a', { class: 'brand', href: '/', title: t('newTable') }, t('title')),
    h('div', { class: 'info' }, info),
    h('div', { class: 'tools' },
      view ? h('span', { class: 'spectators', testid: 'spectators', title: t('spectators', { n: view.spectators }) }, eyeIcon(), String(view.spectators)) : null,
      // Labelled with the deck in use (R9); a click steps to the next one.
      h('button', { class: 'tool deck-tool', action: 'toggle-style', testid: 'toggle-deck', 'data-style': env.style, title: t('cardsStyleTitle') },
        // Named by its visible text (axe: the accessible name contains what is shown).
        h('span', { class: 'tool-label' }, t('cardsStyle')), h('span', { class: 'sr-only' }, ': '), h('span', { class: 'tool-value', testid: 'deck-current' }, t(`cards_${env.style}`))),
      h('button', { class: 'tool sound-tool', action: 'toggle-sound', testid: 'toggle-sound', 'aria-pressed': env.sound ? 'true' : 'false', title: t(env.sound ? 'soundOn' : 'soundOff'), 'aria-label': t(env.sound ? 'soundOn' : 'soundOff') },
        speakerIcon(env.sound)),
      h('button', { class: 'tool', action: 'toggle-lang', testid: 'toggle-lang' }, t('language'))));
}

export function connBanner(status) {
  if (status === 'open' || !status) return null;
  const text = status === 'reconnecting' ? t('reconnecting')
    : status === 'offline' ? t('offlineBanner')
      : status === 'connecting' ? t('connecting') : null;
  if (!text) return null;
  return h('div', { class: 'banner', testid: 'conn-banner', role: 'status' }, text);
}

// ---------------------------------------------------------------- seats

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

function countdown(view, ui, s, cls) {
  const c = view.clock;
  if (!c || c.seat !== s || ui.clockEnds == null) return null;
  return h('span', { class: `clock ${cls} ${c.kind}`, testid: `clock-${s}`, 'data-ends': ui.clockEnds, 'data-seat': s },
    clockText(view, ui.clockEnds));
}

function seatBox(view, s, env, extra, ui = {}) {
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

function seatExtras(view, s, env, ui) {
  const g = view.game;
  if (!g) return null;
  const out = [];
  if (s !== view.you && g.phase !== 'over') {
    // Every hand is empty while the finished round's ninth trick shows.
    const n = ui.roundEnding ? 0 : g.hand_counts[s];
    const backs = h('div', { class: 'backs', testid: `count-${s}`, title: String(n) });
    for (let i = 0; i < n; i++) backs.append(h('span', { class: 'back' }));
    out.push(backs);
  }
  // Weis: points during the first trick (until it is collected), the winning team's
  // cards after it.
  const decl = g.weis.filter((w) => w.seat === s);
  const firstShown = shownTrick(view, ui) === 0;
  if (decl.length) {
    if (firstShown || (g.trick.number === 0 && !g.weis_result)) {
      out.push(h('div', { class: 'weis-badge', testid: `weis-points-${s}` },
        `${t('weis')} ${decl.flatMap((w) => w.points).join(' + ')}`));
    } else if (g.weis_result && g.weis_result.team === s % 2 && g.trick.number <= 1) {
      const shown = decl.filter((w) => w.cards);
      if (shown.length) {
        // Each Weis by name with its points (R6), its cards as a legible text strip.
        out.push(h('div', { class: 'weis-reveal', testid: `weis-cards-${s}` },
          shown.flatMap((w) => w.cards.map((cards, i) => h('div', { class: 'weis-line' },
            h('span', { class: 'weis-name' }, `${weisName(cards, env)} ${w.points[i] ?? ''}`),
            weisStrip(cards, env))))));
      }
    }
  }
  if (g.stoeck === s) out.push(h('div', { class: 'stoeck-badge', testid: `stoeck-${s}` }, t('stoeck')));
  return out;
}

// ---------------------------------------------------------------- trick

/** The number of the trick on the felt: a finished one still held, or the one in play. */
function shownTrick(view, ui) {
  return ui.pause && ui.held ? ui.held.trick : view.game.trick.number;
}

function trickView(view, env, ui) {
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

function statusLine(view, ui) {
  const g = view.game;
  if (!g || g.phase === 'over') return null;
  let text;
  const mine = g.seat != null && g.to_act === g.seat;
  if (mine) text = t('yourTurn');
  else if (g.phase === 'choosing' && g.pushed && !g.pushed_back) {
    text = t('pushedChoosing', { name: seatName(view, g.forehand), partner: seatName(view, g.to_act) });
  } else if (g.phase === 'choosing') text = t('waitingChoice', { name: seatName(view, g.to_act) });
  else text = t('turnOf', { name: seatName(view, g.to_act) });
  return h('div', { class: `status${mine ? ' mine' : ''}`, testid: 'status' }, text,
    g.phase === 'playing' ? h('span', { class: 'trick-no' }, ` · ${t('tricks', { n: g.trick.number + 1 })}`) : null,
    mine ? countdown(view, ui, g.seat, 'my-clock') : null);
}

// ---------------------------------------------------------------- panels

function roundSummary(view, lr, env, closable, tricks) {
  const row = (label, key, testid) => h('tr', {},
    h('th', {}, label),
    h('td', { testid: testid ? `${testid}-0` : null }, String(lr[key][0])),
    h('td', { testid: testid ? `${testid}-1` : null }, String(lr[key][1])));
  // A round cut short by bedanke says so (R10).
  const stopped = lr.complete === false;
  return h('div', { class: `panel summary${stopped ? ' stopped' : ''}`, testid: 'round-summary' },
    h('div', { class: 'panel-head' },
      h('strong', {}, t('roundSummary', { n: lr.round + 1 })),
      lr.contract ? h('span', {}, ` · ${contractLabel(lr.contract, env)} ×${lr.multiplier}`) : null,
      tricks && tricks.length ? h('button', { class: 'small-btn tricks-btn', action: 'browse-tricks', testid: 'browse-tricks' }, `${t('roundTricks')} (${tricks.length})`) : null,
      closable ? h('button', { class: 'x', action: 'close-summary', testid: 'close-summary', 'aria-label': t('close') }, '×') : null),
    stopped ? h('p', { class: 'round-stopped', testid: 'round-stopped' }, t('roundStopped')) : null,
    h('table', { class: 'sum-table' },
      h('thead', {}, h('tr', {}, h('th', {}), h('th', {}, shortTeam(view, 0)), h('th', {}, shortTeam(view, 1)))),
      h('tbody', {},
        row(t('cardPoints'), 'card_points'),
        row(t('weis'), 'weis'),
        row(t('stoeck'), 'stoeck'),
        row(t('matchBonus'), 'match_bonus'),
        // The multiplier applies to both teams: shown under both (R8).
        h('tr', {}, h('th', {}, t('multiplier')), h('td', { testid: 'sum-mult-0' }, `×${lr.multiplier}`), h('td', { testid: 'sum-mult-1' }, `×${lr.multiplier}`)),
        row(t('roundTotal'), 'total', 'sum-total'),
        row(t('runningTotal'), 'running_total', 'sum-running'))),
    lr.chosen_by != null ? h('p', { class: 'sum-who', testid: 'summary-chosen-by' },
      t('chosenBy', { name: seatName(view, lr.chosen_by) }), lr.pushed ? ` · ${t('pushedNote')}` : '',
      // Once the round is over anyone at the table may see what each card was worth
      // (protocol.md, "Round review"); `review_ready` says it is computed already.
      lr.contract ? h('button', {
        class: `small-btn review-btn${view.review_ready != null && view.review_ready >= lr.round ? ' ready' : ''}`,
        action: 'open-review', 'data-round': lr.round, testid: 'open-review',
      }, t('review')) : null) : null);
}

/** The finished round's tricks, one at a time. */
function tricksPanel(view, env, tricks, i) {
  const tr = tricks[Math.min(Math.max(i, 0), tricks.length - 1)];
  if (!tr) return null;
  const at = tricks.indexOf(tr);
  return h('div', { class: 'modal', testid: 'tricks-panel' },
    h('div', { class: 'panel' },
      h('div', { class: 'panel-head' }, h('strong', { testid: 'tricks-title' }, t('trickOf', { n: tr.trick + 1, m: 9 })),
        h('button', { class: 'x', action: 'close-tricks', testid: 'close-tricks', 'aria-label': t('close') }, '×')),
      h('div', { class: 'lt-cards' }, tr.cards.map(({ seat, card }) => h('figure', { class: seat === tr.winner ? 'winner' : '' },
        cardImg(card, env), h('figcaption', {}, seatName(view, seat))))),
      h('p', { testid: 'tricks-winner' }, t('takes', { name: seatName(view, tr.winner), points: tr.points })),
      h('div', { class: 'row tricks-nav' },
        h('button', { action: 'trick-prev', testid: 'trick-prev', disabled: at <= 0, 'aria-label': t('prevTrick') }, '◀'),
        h('button', { action: 'trick-next', testid: 'trick-next', disabled: at >= tricks.length - 1, 'aria-label': t('nextTrick') }, '▶'))));
}

function lastTrickPanel(view, env) {
  const lt = view.game.last_trick;
  if (!lt) return null;
  return h('div', { class: 'modal', testid: 'last-trick-panel', action: 'close-last-trick' },
    h('div', { class: 'panel' },
      h('div', { class: 'panel-head' }, h('strong', {}, t('lastTrick')),
        h('button', { class: 'x', action: 'close-last-trick', 'aria-label': t('close') }, '×')),
      h('div', { class: 'lt-cards' }, lt.cards.map(({ seat, card }) => h('figure', { class: seat === lt.winner ? 'winner' : '' },
        cardImg(card, env), h('figcaption', {}, seatName(view, seat))))),
      h('p', {}, t('takes', { name: seatName(view, lt.winner), points: lt.points }))));
}

function contractDialog(view, env) {
  const g = view.game;
  const a = g.allowed;
  if (!a.choose && !a.schiebe) return null;
  const note = g.pushed_back ? t('pushedBackToYou') : g.pushed ? t('pushedToYou') : null;
  // Keys 1–6 choose, S pushes; the hints hide on touch screens.
  const buttons = CONTRACTS.map((c, i) => h('button', {
    class: `contract-btn c-${c}`, action: 'choose', 'data-contract': c, testid: `contract-${c}`, disabled: !a.choose, 'aria-keyshortcuts': String(i + 1),
  }, contractIcon(c, env), h('span', { class: 'c-name' }, contractLabel(c, env)), h('span', { class: 'mult' }, `×${view.options.multipliers[c]}`),
  h('kbd', { class: 'key-hint', 'aria-hidden': 'true' }, String(i + 1))));
  return h('div', { class: 'sheet contract-dialog', testid: 'contract-dialog' },
    h('strong', {}, t('chooseContract')),
    note ? h('p', { class: 'note' }, note) : null,
    h('div', { class: 'contracts' }, buttons),
    a.schiebe ? h('button', { class: 'schiebe-btn', action: 'schiebe', testid: 'schiebe', 'aria-keyshortcuts': 'S' }, g.pushed ? t('schiebenBack') : t('schieben'),
      h('kbd', { class: 'key-hint', 'aria-hidden': 'true' }, 'S')) : null);
}

function weisChooser(view, env, ui) {
  const g = view.game;
  const list = g.allowed.weis;
  if (!list.length || !g.allowed.cards.length) return null;
  return h('div', { class: 'weis-choice', testid: 'weis-choice' },
    h('strong', {}, t('weisDeclare')),
    list.map((cards, i) => h('label', { class: 'weis-opt' },
      h('input', { type: 'checkbox', action: 'toggle-weis', 'data-index': i, testid: `weis-option-${i}`, checked: ui.weisSel.has(i) }),
      h('span', { class: 'weis-name', testid: `weis-name-${i}` }, weisName(cards, env)),
      // Its points as the server counts them (R6), not worked out here.
      g.allowed.weis_points?.[i] != null ? h('span', { class: 'weis-pts', testid: `weis-opt-points-${i}` }, String(g.allowed.weis_points[i])) : null,
      h('span', { class: 'mini-row' }, cards.map((c) => cardImg(c, env, { class: 'card-img mini' }))))));
}

function bedankeConfirm(view) {
  const g = view.game;
  const team = view.you % 2;
  return h('div', { class: 'modal', testid: 'bedanke-confirm' },
    h('div', { class: 'panel' },
      h('strong', {}, t('bedankeConfirm')),
      h('p', { testid: 'bedanke-info' }, t('bedankeInfo', { total: g.totals[team], target: view.options.target })),
      h('div', { class: 'row' },
        h('button', { class: 'primary', action: 'bedanke-yes', testid: 'bedanke-yes' }, t('confirm')),
        h('button', { action: 'bedanke-no', testid: 'bedanke-no' }, t('cancel')))));
}

function gameOver(view, env, ui) {
  const g = view.game;
  const r = g.result;
  const reason = r.reason;
  let why;
  if (reason.type === 'bedanke') why = t(reason.right ? 'reasonBedankeRight' : 'reasonBedankeWrong', { name: seatName(view, reason.seat) });
  else if (reason.type === 'automatic') why = t('reasonAutomatic');
  else why = t('reasonFixed');
  const votes = view.rematch.filter(Boolean).length;
  const voted = view.you != null && view.rematch[view.you];
  return h('div', { class: 'modal over' },
    h('div', { class: 'panel game-over', testid: 'game-over' },
      h('h2', {}, t('gameOver')),
      h('p', { class: 'winner', testid: 'winner' }, r.winner == null ? t('draw') : t('winner', { team: teamLabel(view, r.winner) })),
      h('p', { testid: 'result-reason' }, why),
      r.schneider ? h('p', { class: 'schneider', testid: 'schneider' }, t('schneiderResult')) : null,
      h('table', { class: 'sum-table' }, h('tbody', {},
        [0, 1].map((tm) => h('tr', {}, h('th', {}, teamLabel(view, tm)), h('td', { testid: `final-${tm}` }, String(r.totals[tm])))))),
      // The last round's table unless a bedanke stopped it before it scored anything:
      // an all-zero table said nothing of the game.
      g.last_round && (g.last_round.complete || g.last_round.total.some((x) => x !== 0))
        ? roundSummary(view, g.last_round, env, false, roundTricks(view, ui)) : null,
      h('div', { class: 'row' },
        view.you != null ? h('button', { class: 'primary', action: 'rematch', testid: 'rematch', disabled: voted }, t('rematch')) : null,
        h('a', { class: 'button', href: `/api/tables/${encodeURIComponent(view.table)}/record`, download: `jass-${view.table}.json`, testid: 'record-link' }, t('record'))),
      h('p', { class: 'muted', testid: 'rematch-votes' }, t('rematchVotes', { n: votes })),
      // Who voted, not only how many.
      h('ul', { class: 'rematch-voters', testid: 'rematch-voters' }, view.seats.map((seat, s) => h('li', {
        class: view.rematch[s] ? 'voted' : 'pending', testid: `rematch-voter-${s}`, 'data-voted': view.rematch[s] ? 'true' : 'false',
      }, h('span', { class: 'mark', 'aria-hidden': 'true' }, view.rematch[s] ? '✓' : '…'), ' ', seatName(view, s),
        h('span', { class: 'sr-only' }, ` ${view.rematch[s] ? t('votedYes') : t('votedNotYet')}`))))));
}

/** Whether a team's total shown in the view is at the target (R10). */
function atTarget(view, team) {
  const g = view.game;
  return !!g && g.totals[team] >= view.options.target;
}

function scoreBoard(view, env, ui) {
  const g = view.game;
  const totals = g ? g.totals : [0, 0];
  const target = view.options.target;
  return h('aside', { class: 'score', testid: 'score' },
    [0, 1].map((tm) => h('div', { class: `team-score${view.you != null && view.you % 2 === tm ? ' mine' : ''}${atTarget(view, tm) ? ' reached' : ''}` },
      h('div', { class: 'team-head' },
        h('span', { class: 'team-name' }, teamLabel(view, tm)),
        atTarget(view, tm) ? h('span', { class: 'reached-mark', testid: `reached-${tm}`, title: t('targetReachedShort') }, '✓') : null,
        h('span', { class: 'total', testid: `total-${tm}` }, String(totals[tm]))),
      jasstafel(totals[tm], teamLabel(view, tm), `jasstafel-${tm}`))),
    h('div', { class: 'target muted' }, `${t('target')}: ${target}`),
    historyList(view, env, ui.history));
}

/**
 * The rounds so far, one row each: the view carries only the
 * last round, so the page keeps each `last_round` as it arrives; rounds it never saw
 * (another device, a cleared storage) are said to be missing, not invented.
 */
function historyList(view, env, history) {
  const g = view.game;
  if (!g) return null;
  const rows = (history || []).filter((r) => r.round < g.rounds_played || g.phase === 'over');
  const missing = Math.max(0, g.rounds_played - rows.length);
  const cell = (text, testid, cls) => h('td', { testid, class: cls }, String(text));
  return h('section', { class: 'history', testid: 'history' },
    h('h3', {}, t('history')),
    rows.length ? h('table', { class: 'hist-table' },
      h('thead', {}, h('tr', {},
        h('th', { scope: 'col' }, '#'), h('th', { scope: 'col' }, t('contract')),
        h('th', { scope: 'col' }, shortTeam(view, 0)), h('th', { scope: 'col' }, shortTeam(view, 1)),
        h('th', { scope: 'col', class: 'run' }, `Σ ${shortTeam(view, 0)}`), h('th', { scope: 'col', class: 'run' }, `Σ ${shortTeam(view, 1)}`))),
      h('tbody', {}, rows.map((r) => h('tr', { testid: `hist-row-${r.round}`, class: r.complete === false ? 'stopped' : null },
        // A round played is reviewed from its row (protocol.md, "Round review").
        h('td', {}, r.contract ? h('button', {
          class: 'hist-review', action: 'open-review', 'data-round': r.round, testid: `hist-review-${r.round}`,
          'aria-label': `${t('review')} ${r.round + 1}`, title: t('review'),
        }, `${r.round + 1} ›`) : String(r.round + 1)),
        h('td', { class: 'hist-contract' },
          r.contract ? [contractIcon(r.contract, env), ` ×${r.multiplier}`] : '—',
          h('small', { class: 'hist-chooser', testid: `hist-chooser-${r.round}` },
            r.chosen_by != null ? seatName(view, r.chosen_by) : '', r.pushed ? ` · ${t('pushedNote')}` : '',
            r.complete === false ? ` · ${t('stoppedShort')}` : '')),
        cell(r.total[0], `hist-total-${r.round}-0`), cell(r.total[1], `hist-total-${r.round}-1`),
        cell(r.running_total[0], `hist-running-${r.round}-0`, 'run'), cell(r.running_total[1], `hist-running-${r.round}-1`, 'run'))))) : null,
    missing ? h('p', { class: 'muted small', testid: 'history-missing' }, t('historyMissing', { n: missing })) : null,
    !rows.length && !missing ? h('p', { class: 'muted small' }, t('historyEmpty')) : null);
}

// ---------------------------------------------------------------- screens

/** Which finished round the page's copy of its tricks belongs to. */
export function roundKey(view) {
  const lr = view.game?.last_round;
  return lr ? `${view.table}:${view.games}:${lr.round}` : null;
}

/**
 * The tricks of the round `last_round` scores, in order, once fetched (the server's
 * `GET /api/tables/{table}/rounds`: views carry only the last one, to stay small).
 */
function roundTricks(view, ui) {
  const got = ui.roundTricks;
  return got && got.key === roundKey(view) ? got.tricks : [];
}

/** Wide screens keep the contract dialog on the felt, beside the summary. */
export const WIDE_QUERY = '(min-width: 1000px)';

export function renderGame(view, env, ui) {
  const g = view.game;
  const me = view.you;
  const wide = typeof matchMedia === 'function' && matchMedia(WIDE_QUERY).matches;
  const choosing = g.phase === 'choosing' && g.seat != null;
  const ninthShown = ui.roundEnding;
  const dialog = choosing && !ninthShown ? contractDialog(view, env) : null;
  const lr = g.last_round;
  const summary = g.phase === 'choosing' && lr && !ui.summaryClosed.has(roundKey(view)) && !ninthShown
    ? roundSummary(view, lr, env, true, roundTricks(view, ui)) : null;
  const middle = summary || (ninthShown || !(wide && dialog) ? trickView(view, env, ui) : null);
  // The contract dialog (but on a wide screen, where it sits beside the summary) and
  // the Weis to declare open as a sheet over the bottom of the felt, where only your
  // own seat is (your card is not played yet): nothing above the hand changes height.
  const weisOpen = g.phase === 'playing' && g.seat != null ? weisChooser(view, env, ui) : null;
  const sheet = (!wide && dialog) || weisOpen;
  // The first trick lies higher on the felt (room for the Weis sheet under it); from
  // the second on it lies lower (room for the Weis shown beside the seats above it).
  // It moves only while the felt is empty, between the two.
  const first = g.phase === 'playing' && !ninthShown && shownTrick(view, ui) === 0;
  const table = h('section', { class: `table-area${sheet ? ` has-sheet sheet-${weisOpen ? 'weis' : 'contract'}` : ''}${first ? ' trick-first' : ''}`, testid: 'table' },
    [0, 1, 2, 3].map((s) => seatBox(view, s, env, seatExtras(view, s, env, ui), ui)),
    h('div', { class: `center${wide && dialog ? ' with-dialog' : ''}` }, middle, wide ? dialog : null),
    sheet ? h('div', { class: 'felt-sheet' }, sheet) : null);

  const a = g.allowed;
  const legal = new Set(a.cards);
  // Eight or nine playable cards do not fit a phone's width at 44 px a strip: two rows.
  // The same in every phase, so the hand does not reflow when play begins.
  const rows2 = g.hand.length > 7;
  // While the ninth trick shows, the hands are empty as at the table: the next deal
  // fans in after it.
  const held = ninthShown ? [] : g.hand;
  const hand = h('section', { class: `hand${rows2 ? ' rows2' : ''}${ui.dealt ? ' dealt' : ''}`, testid: 'hand', style: `--n: ${Math.max(held.length, 2)}` },
    sortHand(held, g.contract).map((c, i) => h('button', {
      class: `card ${legal.has(c) ? 'legal' : legal.size ? 'illegal' : 'idle'}${c === stoeckCard(view) ? ' with-stoeck' : ''}`,
      action: 'play', 'data-card': c, testid: `card-${c}`,
      'data-stoeck': c === stoeckCard(view) ? 'true' : null,
      disabled: !legal.has(c),
      style: `--i: ${i}`,
      'aria-label': cardName(c, env.style, env.deck, getLang()) + (c === stoeckCard(view) ? ` ${t('withStoeck')}` : ''),
    }, cardImg(c, env), c === stoeckCard(view) ? h('span', { class: 'stoeck-tag', testid: 'card-stoeck-tag' }, t('withStoeck')) : null)));

  // "Mir bedanke üs" is always there (a wrong claim is part of the game) but leads
  // the row, large, only once your team is at the target; before, it is the last and
  // least of the controls.
  const reached = me != null && atTarget(view, me % 2);
  const bedanke = a.bedanke ? h('button', { class: `bedanke-btn${reached ? ' prominent' : ' quiet'}`, action: 'bedanke', testid: 'bedanke-btn', 'aria-keyshortcuts': 'B' }, t('bedanke')) : null;
  // Stöck goes with the card that completes it (R7: it counts in that card's trick),
  // in the same tap; alone only where announcing it now reaches the target.
  const withCard = stoeckCard(view);
  const stoeckAlone = a.stoeck && !view.options.auto_stoeck && me != null && !withCard && stoeckReaches(view);
  const actions = h('div', { class: 'actions' },
    reached ? bedanke : null,
    g.last_trick ? h('button', { action: 'show-last-trick', testid: 'last-trick-btn' }, t('lastTrick')) : null,
    stoeckAlone ? h('button', { class: 'stoeck-btn', action: 'stoeck', testid: 'stoeck-btn' }, t('announceStoeck')) : null,
    me != null && me === view.host ? h('button', { class: 'small-btn', action: 'manage-seats', testid: 'manage-seats' }, t('manageSeats')) : null,
    me != null ? h('button', { class: 'small-btn', action: 'other-device', testid: 'other-device-btn' }, t('otherDevice')) : null,
    reached ? null : bedanke);

  // On a phone the Jasstafel is below the fold: the totals are on a line of their own
  // under the felt, yours first (the Weis won beside them).
  const mineTeam = me != null ? me % 2 : 0;
  const scoreLine = h('div', { class: 'score-line', testid: 'score-line' },
    [mineTeam, 1 - mineTeam].map((tm) => h('span', { class: `sl-team${me != null && tm === mineTeam ? ' mine' : ''}` },
      `${shortTeam(view, tm)} `, h('strong', {}, String(g.totals[tm])))),
    h('span', { class: 'sl-target' }, `/ ${view.options.target}`));
  let weisInfo = null;
  if (g.weis_result && g.phase === 'playing') {
    weisInfo = h('div', { class: 'weis-info muted', testid: 'weis-result' },
      g.weis_result.team == null ? t('weisNone') : t('weisWon', { team: shortTeam(view, g.weis_result.team), points: g.weis_result.points }));
  }

  return h('div', { class: `screen game phase-${g.phase}${g.seat == null ? ' spectator' : ''}` },
    h('div', { class: 'play-col' },
      table,
      me != null && g.phase !== 'over' && atTarget(view, me % 2)
        ? h('div', { class: 'target-reached', testid: 'target-reached', role: 'status' },
          h('strong', {}, t('targetReached', { total: g.totals[me % 2], target: view.options.target })),
          a.bedanke ? h('span', {}, ` ${t('targetReachedBedanke')}`) : null)
        : null,
      h('div', { class: 'under-table' }, statusLine(view, ui), scoreLine, weisInfo, actions),
      g.seat != null ? hand
        : me != null && view.seats[me]?.benched ? h('p', { class: 'panel waiting-self', testid: 'benched-self', role: 'status' }, t('benchedSelf'))
        : me != null ? h('p', { class: 'panel waiting-self', testid: 'waiting-self' }, t('waitingSelf'))
          : h('p', { class: 'muted' }, t('spectating'))),
    scoreBoard(view, env, ui),
    ui.manageOpen && me != null && me === view.host ? seatManager(view, ui) : null,
    ui.otherDevice ? otherDevicePanel(ui.otherDevice) : null,
    ui.showLastTrick ? lastTrickPanel(view, env) : null,
    ui.bedankeOpen && a.bedanke ? bedankeConfirm(view) : null,
    g.phase === 'over' && g.result ? gameOver(view, env, ui) : null,
    // Above the game-over panel, whose summary opens it too.
    ui.browseTrick != null && lr ? tricksPanel(view, env, roundTricks(view, ui), ui.browseTrick) : null);
}

// ---------------------------------------------------------------- seats (host) and other device

/** The computer levels, weakest first (protocol.md 3, "Computer levels"). */
export const LEVELS = ['easy', 'normal', 'strong'];

/** The host's last computer level, kept across tables; normal unless one was chosen. */
export function storedLevel() {
  try {
    const l = localStorage.getItem('jass:level');
    if (LEVELS.includes(l)) return l;
  } catch { /* storage may be unavailable */ }
  return 'normal';
}

/** A computer seat's badge; it names the level unless it is normal (protocol.md 3, "Computer levels"). */
function computerBadge(seat, testid) {
  const level = LEVELS.includes(seat.level) ? seat.level : 'normal';
  return h('span', { class: `badge comp${level !== 'normal' ? ` lvl-${level}` : ''}`, testid, 'data-level': level },
    level === 'normal' ? t('computer') : t('computerAt', { level: t(`level_${level}`) }));
}

/** The host's level for the computers they add; app.js keeps the choice. */
export function levelSelect(current, testid) {
  return h('label', { class: 'level-pick' },
    h('span', { class: 'muted small' }, t('computerLevel')),
    h('select', { 'data-level': 'pick', testid, 'aria-label': t('computerLevel') },
      LEVELS.map((l) => h('option', { value: l, selected: l === current }, t(`level_${l}`)))));
}

/** The host's seat controls during a game: free a seat, or give it to the computer. */
function seatManager(view, ui) {
  const me = view.you;
  const rows = [0, 1, 2, 3].filter((s) => s !== me).map((s) => {
    const seat = view.seats[s];
    const who = seat.name || t('free');
    const btns = [];
    if (!seat.name) {
      btns.push(h('button', { action: 'add-computer', 'data-seat': s, testid: `mg-add-computer-${s}` }, t('giveComputer')));
    } else if (seat.computer) {
      btns.push(h('button', { action: 'free-seat', 'data-seat': s, testid: `mg-free-${s}` }, `✕ ${t('freeSeat')}`));
    } else if (seat.benched) {
      btns.push(h('button', { class: 'primary', action: 'give-back', 'data-seat': s, testid: `mg-give-back-${s}` }, t('giveBackTo', { name: seat.name })));
    } else {
      btns.push(h('button', { action: 'free-seat', 'data-seat': s, testid: `mg-free-${s}` }, `✕ ${t('freeSeat')}`));
      btns.push(h('button', { action: 'give-computer', 'data-seat': s, testid: `mg-give-computer-${s}` }, t('giveComputer')));
    }
    return h('div', { class: 'mg-row', testid: `mg-row-${s}` },
      h('span', { class: 'mg-who' }, h('strong', {}, `${t('seat')} ${s + 1}`), ` ${who}`,
        seat.computer ? computerBadge(seat) : null,
        seat.benched ? h('span', { class: 'badge comp' }, t('standIn', { name: seat.name })) : null,
        seat.name && !seat.computer && !seat.connected ? h('span', { class: 'badge off' }, t('offline')) : null),
      h('span', { class: 'row' }, btns));
  });
  return h('div', { class: 'modal', testid: 'seat-manager' },
    h('div', { class: 'panel' },
      h('div', { class: 'panel-head' }, h('strong', {}, t('manageTitle')),
        h('button', { class: 'x', action: 'close-manage', testid: 'close-manage', 'aria-label': t('close') }, '×')),
      levelSelect(ui.computerLevel, 'mg-level'),
      rows,
      h('p', { class: 'muted small' }, t('manageNote'))));
}

/** A QR code of `text` as an SVG, drawn from the vendored encoder's modules. */
export function qrSvg(text, label = text) {
  const qr = qrcode(0, 'M');
  qr.addData(text);
  qr.make();
  const n = qr.getModuleCount();
  const quiet = 4;
  let d = '';
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) if (qr.isDark(r, c)) d += `M${c + quiet} ${r + quiet}h1v1h-1z`;
  }
  const NS = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('viewBox', `0 0 ${n + 2 * quiet} ${n + 2 * quiet}`);
  svg.setAttribute('class', 'qr');
  svg.setAttribute('data-testid', 'qr');
  svg.setAttribute('shape-rendering', 'crispEdges');
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', label);
  const bg = document.createElementNS(NS, 'rect');
  bg.setAttribute('width', '100%');
  bg.setAttribute('height', '100%');
  bg.setAttribute('fill', '#fff');
  const path = document.createElementNS(NS, 'path');
  path.setAttribute('d', d);
  path.setAttribute('fill', '#000');
  svg.append(bg, path);
  return svg;
}

function otherDevicePanel(link) {
  return h('div', { class: 'modal', testid: 'other-device' },
    h('div', { class: 'panel other-device' },
      h('div', { class: 'panel-head' }, h('strong', {}, t('otherDeviceTitle')),
        h('button', { class: 'x', action: 'close-other-device', testid: 'close-other-device', 'aria-label': t('close') }, '×')),
      link.url ? [
        h('div', { class: 'qr-box' }, qrSvg(link.url, t('otherDeviceTitle'))),
        h('div', { class: 'row nowrap' },
          h('input', { id: 'device-link', readonly: true, value: link.url, testid: 'device-link', 'aria-label': t('otherDeviceTitle') }),
          h('button', { action: 'copy-device-link', testid: 'copy-device-link' }, t('copy'))),
        h('p', { class: 'muted small' }, t('otherDeviceNote')),
      ] : h('p', {}, t('noToken'))));
}

function optionsList(opts, env) {
  const yn = (b) => (b ? t('on') : t('off'));
  const m = opts.multipliers;
  const items = [
    [t('target'), opts.target],
    [t('multipliers'), CONTRACTS.map((c) => `${contractLabel(c, env)} ×${m[c]}`).join(', ')],
    [t('deck'), t(`deck_${opts.deck}`)],
    [t('firstRound'), t(`first_${opts.first_round}`)],
    [t('pushBack'), yn(opts.push_back)],
    [t('smallWeis'), yn(opts.small_weis)],
    [t('autoStoeck'), yn(opts.auto_stoeck)],
    [t('end'), t(`end_${opts.end}`)],
    [t('schneider'), yn(opts.schneider)],
  ];
  if (opts.old_undenufe) items.push([t('old_undenufe'), yn(true)]);
  return h('dl', { class: 'options-list', testid: 'options-list' },
    items.map(([k, v]) => [h('dt', {}, k), h('dd', {}, String(v))]));
}

/**
 * The table link with copy, the native share sheet where the browser has one, and a
 * QR code of it.
 */
export function shareBox(link) {
  return h('div', { class: 'share', testid: 'share' },
    h('label', { for: 'share-link' }, t('shareLink')),
    h('div', { class: 'row share-row' },
      h('input', { id: 'share-link', readonly: true, value: link, testid: 'share-link' }),
      h('button', { action: 'copy-link', testid: 'copy-link' }, t('copy')),
      typeof navigator.share === 'function'
        ? h('button', { action: 'share-link', testid: 'share-btn', 'data-url': link }, t('share')) : null,
      h('button', { action: 'share-qr', testid: 'share-qr-btn', 'data-url': link }, t('showQr'))));
}

/** The table link as a QR code, for a phone at the same table to scan. */
export function shareQrPanel(url) {
  return h('div', { class: 'modal', testid: 'share-qr' },
    h('div', { class: 'panel other-device' },
      h('div', { class: 'panel-head' }, h('strong', {}, t('qrTitle')),
        h('button', { class: 'x', action: 'close-share-qr', testid: 'close-share-qr', 'aria-label': t('close') }, '×')),
      h('div', { class: 'qr-box' }, qrSvg(url, t('qrTitle'))),
      h('p', { class: 'muted small' }, t('qrNote'))));
}

// ---------------------------------------------------------------- options form

/** The target field; the start page shows it outside the folded options. */
export function targetField(o) {
  return field(t('target'), h('input', { type: 'number', name: 'target', min: 1, max: 100000, value: o.target, testid: 'opt-target', inputmode: 'numeric' }));
}

export function field(label, input) {
  return h('label', { class: 'field' }, h('span', {}, label), input);
}

function check(name, label, checked) {
  return h('label', { class: 'check' }, h('input', { type: 'checkbox', name, testid: `opt-${name}`, checked }), h('span', {}, label));
}

function select(name, values, current, labelKey) {
  return h('select', { name, testid: `opt-${name}` },
    values.map((v) => h('option', { value: v, selected: v === current }, t(`${labelKey}${v}`))));
}

/** The option fields, filled from `o` (the start page's form and the host's lobby editor). */
export function optionsFields(o, { target = true } = {}) {
  return [
    target ? targetField(o) : null,
    h('fieldset', { class: 'mults' }, h('legend', {}, t('multipliers')),
      CONTRACTS.map((c) => h('label', { class: 'mult-field' }, h('span', {}, c === 'obenabe' || c === 'undenufe' ? t(c) : ({ hearts: '♥', diamonds: '♦', clubs: '♣', spades: '♠' })[c]),
        h('input', { type: 'number', min: 1, max: 10, name: `mult-${c}`, value: o.multipliers[c], testid: `opt-mult-${c}` })))),
    field(t('deck'), select('deck', ['french', 'swiss_swisslos', 'swiss_manual'], o.deck, 'deck_')),
    field(t('firstRound'), select('first_round', ['seven_of_hearts', 'random'], o.first_round, 'first_')),
    field(t('end'), select('end', ['bedanken', 'automatic'], o.end, 'end_')),
    check('push_back', t('pushBack'), o.push_back),
    check('small_weis', t('smallWeis'), o.small_weis),
    check('auto_stoeck', t('autoStoeck'), o.auto_stoeck),
    check('schneider', t('schneider'), o.schneider),
  ];
}

/** Reads the fields of `optionsFields` back (the protocol's option overrides). */
export function readOptions(f) {
  const multipliers = {};
  for (const c of CONTRACTS) multipliers[c] = Number(f.elements[`mult-${c}`].value);
  return {
    target: Number(f.elements.target.value),
    multipliers,
    deck: f.elements.deck.value,
    first_round: f.elements.first_round.value,
    end: f.elements.end.value,
    push_back: f.elements.push_back.checked,
    small_weis: f.elements.small_weis.checked,
    auto_stoeck: f.elements.auto_stoeck.checked,
    schneider: f.elements.schneider.checked,
  };
}

/** The options box of the lobby: the list, and for the host a way to change it. */
function lobbyOptions(view, env, ui, isHost) {
  if (isHost && ui.optionsDraft) {
    return h('aside', { class: 'options-box' }, h('h3', {}, t('editOptions')),
      h('form', { class: 'options-edit', testid: 'options-form' }, optionsFields(ui.optionsDraft),
        h('div', { class: 'row' },
          h('button', { type: 'button', class: 'primary', action: 'apply-options', testid: 'apply-options' }, t('apply')),
          h('button', { type: 'button', action: 'cancel-options', testid: 'cancel-options' }, t('cancel')))));
  }
  return h('aside', { class: 'options-box' }, h('h3', {}, t('optionsInForce')), optionsList(view.options, env),
    isHost ? h('button', { action: 'edit-options', testid: 'edit-options' }, t('editOptions')) : null,
    timingBox(view, isHost));
}

const STEP_IN_CHOICES = [0, 10, 20, 30, 60];
const MOVE_CLOCK_CHOICES = [0, 10, 15, 20];
const RESERVE_CHOICES = [0, 30, 60, 120];

function timingSelect(name, choices, current) {
  const values = choices.includes(current) ? choices : [...choices, current].sort((a, b) => a - b);
  return h('select', { name, 'data-timing': name, testid: `timing-${name}` },
    values.map((v) => h('option', { value: v, selected: v === current }, v === 0 && name !== 'reserve' ? t('off') : t('secs', { n: v }))));
}

/** The table's step-in and move clock: a list for everyone, selects for the host. */
function timingBox(view, isHost) {
  const tm = view.timing || { step_in: 20, move_clock: 0, reserve: 60 };
  const secs = (n) => (n ? t('secs', { n }) : t('off'));
  if (!isHost) {
    const items = [[t('stepIn'), secs(tm.step_in)], [t('moveClock'), secs(tm.move_clock)]];
    if (tm.move_clock) items.push([t('reserve'), t('secs', { n: tm.reserve })]);
    return h('div', { class: 'timing' }, h('h3', {}, t('timing')),
      h('dl', { class: 'options-list', testid: 'timing-list' }, items.map(([k, v]) => [h('dt', {}, k), h('dd', {}, v)])));
  }
  return h('div', { class: 'timing', testid: 'timing-form' }, h('h3', {}, t('timing')),
    field(t('stepIn'), timingSelect('step_in', STEP_IN_CHOICES, tm.step_in)),
    field(t('moveClock'), timingSelect('move_clock', MOVE_CLOCK_CHOICES, tm.move_clock)),
    tm.move_clock ? field(t('reserve'), timingSelect('reserve', RESERVE_CHOICES, tm.reserve)) : null);
}

export function renderLobby(view, env, ui) {
  const me = view.you;
  const isHost = me != null && me === view.host;
  const full = view.seats.every((s) => s.name);
  const seats = [0, 1, 2, 3].map((s) => {
    const extra = [];
    extra.push(h('div', { class: 'muted small' }, `${t('team')} ${s % 2 === 0 ? 'A' : 'B'}`));
    if (isHost) {
      extra.push(h('button', {
        class: `swap-btn${ui.swapFrom === s ? ' selected' : ''}`, action: 'swap', 'data-seat': s, testid: `swap-${s}`,
      }, ui.swapFrom === s ? '…' : ui.swapFrom != null ? `⇄ ${t('swapWith')} ${s + 1}` : `⇄ ${t('swap')}`));
      const seat = view.seats[s];
      if (s !== me && seat?.computer) {
        extra.push(h('button', { class: 'free-btn', action: 'free-seat', 'data-seat': s, testid: `remove-computer-${s}` }, `✕ ${t('removeComputer')}`));
      } else if (s !== me && seat?.name) {
        extra.push(h('button', { class: 'free-btn', action: 'free-seat', 'data-seat': s, testid: `free-${s}` }, `✕ ${t('freeSeat')}`));
      } else if (!seat?.name) {
        extra.push(h('button', {
          class: 'free-btn add-computer', action: 'add-computer', 'data-seat': s, testid: `add-computer-${s}`, title: t('addComputerTitle'),
        }, `+ ${t('addComputer')}`));
      }
    }
    return seatBox(view, s, env, extra, ui);
  });
  return h('div', { class: 'screen lobby', testid: 'lobby' },
    h('div', { class: 'play-col' },
      shareBox(`${location.origin}/t/${view.table}`),
      h('section', { class: 'table-area lobby-table' }, seats,
        h('div', { class: 'center' },
          h('div', { class: 'lobby-center' },
            h('strong', {}, t('lobby')),
            h('p', { class: 'muted' }, full ? t('onlyHostStarts') : t('waitingPlayers')),
            h('p', { class: 'muted', testid: 'lobby-spectators' }, t('spectators', { n: view.spectators })),
            isHost && !full ? levelSelect(ui.computerLevel, 'lobby-level') : null,
            isHost ? h('button', { class: 'primary', action: 'start', testid: 'start', disabled: !full }, t('start')) : null))),
      me == null ? h('p', { class: 'muted' }, t('spectating'))
        : h('div', { class: 'row' }, h('button', { class: 'small-btn', action: 'other-device', testid: 'other-device-btn' }, t('otherDeviceTitle')))),
    ui.otherDevice ? otherDevicePanel(ui.otherDevice) : null,
    ui.shareQr ? shareQrPanel(ui.shareQr) : null,
    lobbyOptions(view, env, ui, isHost));
}

export function renderApp(view, env, ui) {
  const body = view.game ? renderGame(view, env, ui) : renderLobby(view, env, ui);
  // While the connection is not open the table shown may be stale: dimmed and not
  // clickable until the next state arrives.
  if (env.status && env.status !== 'open') {
    body.setAttribute('inert', '');
    body.classList.add('stale');
    body.setAttribute('aria-busy', 'true');
  }
  // The connection banner and notices float over the top bar: what they say comes
  // and goes during a round, and the table under them must not move.
  const banner = connBanner(env.status);
  const toasts = banner || ui.notice
    ? h('div', { class: 'toasts' }, banner,
      ui.notice ? h('div', { class: `notice ${ui.noticeKind || 'error'}`, testid: 'notice', role: 'status' }, ui.notice) : null)
    : null;
  return h('div', { class: 'app-root' },
    topBar(view, env, ui),
    toasts,
    body);
}

export { topBar };
