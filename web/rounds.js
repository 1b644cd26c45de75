// The rounds: the finished round's summary and its tricks, the score board with the
// Jasstafel, and the list of the game's rounds.
import { t } from './i18n.js';
import { jasstafel } from './jasstafel.js';
import { h } from './dom.js';
import { seatName, teamLabel, shortTeam, cardImg, contractLabel, contractIcon } from './labels.js';

export function roundSummary(view, lr, env, closable, tricks) {
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
export function tricksPanel(view, env, tricks, i) {
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

/** Whether a team's total shown in the view is at the target (R10). */
export function atTarget(view, team) {
  const g = view.game;
  return !!g && g.totals[team] >= view.options.target;
}

export function scoreBoard(view, env, ui) {
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

/** Which finished round the page's copy of its tricks belongs to. */
export function roundKey(view) {
  const lr = view.game?.last_round;
  return lr ? `${view.table}:${view.games}:${lr.round}` : null;
}

/**
 * The tricks of the round `last_round` scores, in order, once fetched (the server's
 * `GET /api/tables/{table}/rounds`: views carry only the last one, to stay small).
 */
export function roundTricks(view, ui) {
  const got = ui.roundTricks;
  return got && got.key === roundKey(view) ? got.tricks : [];
}
