// Card faces and suit names. The engine's cards are always H D C S + rank; the
// Swiss-German deck is only a display of them (R1, R9).

export const SUITS = ['H', 'D', 'C', 'S'];
export const RANKS = ['6', '7', '8', '9', 'T', 'J', 'Q', 'K', 'A'];
export const TRUMPS = { hearts: 'H', diamonds: 'D', clubs: 'C', spades: 'S' };
export const CONTRACTS = ['hearts', 'diamonds', 'clubs', 'spades', 'obenabe', 'undenufe'];

// Which Swiss suit shows which engine suit (R9). A table with French cards whose
// player prefers Swiss cards gets the Swisslos mapping.
const SWISS_MAP = {
  swiss_swisslos: { H: 'rosen', D: 'eicheln', C: 'schellen', S: 'schilten' },
  swiss_manual: { H: 'rosen', D: 'schellen', C: 'eicheln', S: 'schilten' },
};

const NAMES = {
  french: {
    en: { H: 'Hearts', D: 'Diamonds', C: 'Clubs', S: 'Spades' },
    de: { H: 'Herz', D: 'Ecke', C: 'Kreuz', S: 'Schaufel' },
  },
  swiss_swisslos: { H: 'Rosen', D: 'Eicheln', C: 'Schellen', S: 'Schilten' },
  swiss_manual: { H: 'Rosen', D: 'Schälle', C: 'Eichle', S: 'Schilte' },
};

const RANK_NAMES = {
  french: {
    en: { 6: '6', 7: '7', 8: '8', 9: '9', T: '10', J: 'Jack', Q: 'Queen', K: 'King', A: 'Ace' },
    de: { 6: '6', 7: '7', 8: '8', 9: '9', T: '10', J: 'Bauer', Q: 'Dame', K: 'König', A: 'Ass' },
  },
  swiss: {
    en: { 6: '6', 7: '7', 8: '8', 9: '9', T: 'Banner', J: 'Under', Q: 'Ober', K: 'König', A: 'Ass' },
    de: { 6: '6', 7: '7', 8: '8', 9: '9', T: 'Banner', J: 'Under', Q: 'Ober', K: 'König', A: 'Ass' },
  },
};

/** The display styles a player may pick, in the order the deck button steps through. */
export const STYLES = ['french', 'swiss', 'french4'];

/** The display deck: the player's choice ('french'/'french4'/'swiss') or the table's. */
export function displayStyle(pref, tableDeck) {
  if (STYLES.includes(pref)) return pref;
  return tableDeck && tableDeck.startsWith('swiss') ? 'swiss' : 'french';
}

function swissMapping(tableDeck) {
  return SWISS_MAP[tableDeck] || SWISS_MAP.swiss_swisslos;
}

/**
 * A card's image. French cards carry German indices (B D K) in German and the
 * four-colour deck's colours with 'french4' (R9: display only).
 */
export function cardUrl(card, style, tableDeck, lang = 'en') {
  const suit = card[0];
  const rank = card[1];
  if (style === 'swiss') return `/cards/swiss/${swissMapping(tableDeck)[suit]}${rank}.svg`;
  const dir = `${style === 'french4' ? 'french4' : 'french'}${lang === 'de' ? '-de' : ''}`;
  return `/cards/${dir}/${suit}${rank}.svg`;
}

/** The suit's symbol alone. */
export function suitUrl(suit, style, tableDeck) {
  if (style === 'swiss') return `/cards/suits/${swissMapping(tableDeck)[suit]}.svg`;
  return `/cards/suits/${suit}${style === 'french4' ? '4' : ''}.svg`;
}

export function suitName(suit, style, tableDeck, lang) {
  if (style === 'swiss') {
    const key = SWISS_MAP[tableDeck] ? tableDeck : 'swiss_swisslos';
    return NAMES[key][suit];
  }
  return NAMES.french[lang][suit];
}

export const FRENCH_PIP = { H: '♥', D: '♦', C: '♣', S: '♠' };

export function cardName(card, style, tableDeck, lang) {
  const r = RANK_NAMES[style === 'swiss' ? 'swiss' : 'french'][lang][card[1]];
  return `${suitName(card[0], style, tableDeck, lang)} ${r}`;
}

/** Hand order: by suit (trump first, colours alternating), then rank. */
export function sortHand(cards, contract) {
  const order = ['H', 'S', 'D', 'C'];
  const trump = TRUMPS[contract];
  const suitKey = (s) => (s === trump ? -1 : order.indexOf(s));
  return [...cards].sort((a, b) => suitKey(a[0]) - suitKey(b[0]) || RANKS.indexOf(a[1]) - RANKS.indexOf(b[1]));
}

// The index printed in a card's corner, for text strips (a Weis in a seat box).
const RANK_INDEX = {
  french: {
    en: { T: '10', J: 'J', Q: 'Q', K: 'K', A: 'A' },
    de: { T: '10', J: 'B', Q: 'D', K: 'K', A: 'A' },
  },
  swiss: { T: '10', J: 'U', Q: 'O', K: 'K', A: 'A' },
};

export function rankLabel(rank, style, lang) {
  const table = style === 'swiss' ? RANK_INDEX.swiss : RANK_INDEX.french[lang] || RANK_INDEX.french.en;
  return table[rank] || rank;
}
