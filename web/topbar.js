// The top bar of every page: the round and its contract, spectators, and the deck,
// sound and language switches.
import { t } from './i18n.js';
import { h } from './dom.js';
import { seatName, contractLabel, contractIcon } from './labels.js';

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

export function topBar(view, env, ui) {
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
