// The table's options: as a list, and as the form fields of the start page and the
// host's lobby editor.
import { t } from './i18n.js';
import { CONTRACTS } from './cards.js';
import { h } from './dom.js';
import { contractLabel } from './labels.js';

export function optionsList(opts, env) {
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
