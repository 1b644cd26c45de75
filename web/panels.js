// The dialogs over the table during a game: the last trick, the contract to choose,
// the Weis to declare, "bedanke" to confirm, the game's end, and the host's seat
// controls.
import { t } from './i18n.js';
import { CONTRACTS } from './cards.js';
import { h } from './dom.js';
import { seatName, teamLabel, cardImg, contractLabel, contractIcon, weisName } from './labels.js';
import { computerBadge, levelSelect } from './levels.js';
import { roundSummary, roundTricks } from './rounds.js';

export function lastTrickPanel(view, env) {
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

export function contractDialog(view, env) {
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

export function weisChooser(view, env, ui) {
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

export function bedankeConfirm(view) {
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

export function gameOver(view, env, ui) {
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

/** The host's seat controls during a game: free a seat, or give it to the computer. */
export function seatManager(view, ui) {
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
