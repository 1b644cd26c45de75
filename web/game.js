// The table during a game: the felt with the seats and the trick, the hand, the
// controls under the felt, the score board and the dialogs over it. No rules live
// here: what may be done comes only from view.game.allowed.
import { t, getLang } from './i18n.js';
import { cardName, sortHand } from './cards.js';
import { h } from './dom.js';
import { seatName, shortTeam, cardImg, weisName, weisStrip } from './labels.js';
import { countdown, seatBox } from './seats.js';
import { shownTrick, trickView } from './trick.js';
import { roundSummary, tricksPanel, atTarget, scoreBoard, roundKey, roundTricks } from './rounds.js';
import { lastTrickPanel, contractDialog, weisChooser, bedankeConfirm, gameOver, seatManager } from './panels.js';
import { otherDevicePanel } from './share.js';

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
