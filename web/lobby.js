// The lobby: the seats before the start, the host's controls (swap, free, computers,
// start), the options and timing in force.
import { t } from './i18n.js';
import { h } from './dom.js';
import { levelSelect } from './levels.js';
import { seatBox } from './seats.js';
import { otherDevicePanel, shareBox, shareQrPanel } from './share.js';
import { optionsList, field, optionsFields } from './options.js';

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
