// The computer players' levels: the host's choice (kept across tables), its picker
// and a computer seat's badge.
import { t } from './i18n.js';
import { h } from './dom.js';

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
export function computerBadge(seat, testid) {
  const level = LEVELS.includes(seat.level) ? seat.level : 'normal';
  return h('span', { class: `badge comp${level !== 'normal' ? ` lvl-${level}` : ''}`, testid, 'data-level': level },
    level === 'normal' ? t('computer') : t('computerAt', { level: t(`level_${level}`) }));
}

/** The host's level for the computers they add; actions.js keeps the choice. */
export function levelSelect(current, testid) {
  return h('label', { class: 'level-pick' },
    h('span', { class: 'muted small' }, t('computerLevel')),
    h('select', { 'data-level': 'pick', testid, 'aria-label': t('computerLevel') },
      LEVELS.map((l) => h('option', { value: l, selected: l === current }, t(`level_${l}`)))));
}
