// Generates the card images in web/cards/ (run: node e2e/gen-cards.mjs).
// Two decks of the same 36 cards (R1, R9), drawn from plain SVG shapes only:
//   web/cards/french/{SUIT}{RANK}.svg   SUIT = H D C S, RANK = 6 7 8 9 T J Q K A
//   web/cards/french-de/…              the same with German indices (B D K for J Q K)
//   web/cards/french4/…, french4-de/…  the four-colour deck (diamonds blue, clubs green)
//   web/cards/swiss/{suit}{RANK}.svg    suit = rosen schellen schilten eicheln
// plus web/cards/back.svg. No fonts or images are loaded; text uses the system
// sans-serif font.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', 'web', 'cards');
const W = 200;
const H = 300;
const FONT = "font-family=\"DejaVu Sans, Arial, Helvetica, sans-serif\" font-weight=\"bold\"";

// Suit symbols, each drawn in a 100×100 box.
const FRENCH = {
  H: { color: '#c8102e', body: '<path d="M50 90C22 68 4 50 4 30C4 14 16 4 30 4C40 4 47 10 50 18C53 10 60 4 70 4C84 4 96 14 96 30C96 50 78 68 50 90Z"/>' },
  D: { color: '#d4202f', body: '<path d="M50 2L88 50L50 98L12 50Z"/>' },
  C: { color: '#1a1a1a', body: '<circle cx="50" cy="28" r="21"/><circle cx="26" cy="60" r="21"/><circle cx="74" cy="60" r="21"/><path d="M46 50L38 96H62L54 50Z"/>' },
  S: { color: '#1a1a1a', body: '<path d="M50 3C64 28 96 44 96 66C96 81 84 89 72 89C63 89 56 84 53 77C55 87 58 92 66 97H34C42 92 45 87 47 77C44 84 37 89 28 89C16 89 4 81 4 66C4 44 36 28 50 3Z"/>' },
};

// The four-colour deck of tournament play: hearts red, diamonds blue, clubs green,
// spades black.
const FOUR_COLOUR = { H: '#c8102e', D: '#1565c0', C: '#1b7a2f', S: '#1a1a1a' };
// Court indices: German-speaking Swiss French decks read B (Bauer), D (Dame), K (König).
const FRENCH_LABELS = { en: { T: '10' }, de: { T: '10', J: 'B', Q: 'D' } };

const SWISS = {
  rosen: {
    color: '#c8102e',
    body: (() => {
      let s = '<g>';
      for (let i = 0; i < 8; i++) {
        const a = (i * Math.PI) / 4;
        s += `<circle cx="${(50 + 30 * Math.cos(a)).toFixed(1)}" cy="${(50 + 30 * Math.sin(a)).toFixed(1)}" r="16" fill="#d62828" stroke="#7a0a0a" stroke-width="2"/>`;
      }
      for (let i = 0; i < 4; i++) {
        const a = (i * Math.PI) / 2 + Math.PI / 4;
        s += `<path d="M50 50L${(50 + 46 * Math.cos(a - 0.18)).toFixed(1)} ${(50 + 46 * Math.sin(a - 0.18)).toFixed(1)}L${(50 + 46 * Math.cos(a + 0.18)).toFixed(1)} ${(50 + 46 * Math.sin(a + 0.18)).toFixed(1)}Z" fill="#2e7d32"/>`;
      }
      s += '<circle cx="50" cy="50" r="24" fill="#e63946" stroke="#7a0a0a" stroke-width="2"/>';
      s += '<circle cx="50" cy="50" r="11" fill="#f4c430" stroke="#9a6b00" stroke-width="2"/></g>';
      return s;
    })(),
  },
  schellen: {
    color: '#b8860b',
    body: '<g stroke="#5a3d00" stroke-width="2.5"><circle cx="50" cy="16" r="7" fill="#f4c430"/><circle cx="50" cy="56" r="38" fill="#f4c430"/>' +
      '<path d="M13 50H87V60H13Z" fill="#c8102e"/><path d="M30 74Q50 64 70 74" fill="none" stroke-width="5"/><circle cx="50" cy="80" r="5" fill="#5a3d00"/></g>',
  },
  schilten: {
    color: '#1a1a1a',
    body: '<g stroke="#1a1a1a" stroke-width="3"><path d="M12 8H88V48C88 74 68 90 50 97C32 90 12 74 12 48Z" fill="#f4c430"/>' +
      '<path d="M12 8H88V34H12Z" fill="#1a1a1a"/><path d="M12 48H88" /><path d="M50 34V97" stroke="#c8102e" stroke-width="8"/></g>',
  },
  // Eicheln: a brown nut under a green cap, and green indices, so that it cannot be
  // taken for the yellow Schellen on a phone.
  eicheln: {
    color: '#1b6b2a',
    body: '<g stroke="#2a1808" stroke-width="2.5"><path d="M50 2V16" stroke-width="5"/><path d="M22 64C22 40 34 30 50 30C66 30 78 40 78 64C78 84 64 97 50 97C36 97 22 84 22 64Z" fill="#8b5a2b"/>' +
      '<path d="M18 42C18 24 32 14 50 14C68 14 82 24 82 42C70 48 30 48 18 42Z" fill="#2e7d32"/><path d="M28 24L40 44M42 17L52 45M58 16L64 45M72 22L74 44" stroke="#154a1c" stroke-width="2"/></g>',
  },
};

const RANKS = ['6', '7', '8', '9', 'T', 'J', 'Q', 'K', 'A'];

// Pip positions (x, y in the card) for 6 to 10 pips.
const COLS = [62, 138];
function pipPositions(n) {
  const pos = [];
  const rows4 = [62, 122, 182, 242];
  const rows3 = [70, 150, 230];
  if (n === 6 || n === 7 || n === 8) {
    for (const y of rows3) for (const x of COLS) pos.push([x, y]);
    if (n >= 7) pos.push([100, 110]);
    if (n === 8) pos.push([100, 190]);
  } else {
    for (const y of rows4) for (const x of COLS) pos.push([x, y]);
    if (n === 9) pos.push([100, 152]);
    if (n === 10) { pos.push([100, 92]); pos.push([100, 212]); }
  }
  return pos;
}

function symbol(id, x, y, size, flip = false) {
  const k = size / 100;
  const rot = flip ? ` rotate(180 ${x} ${y})` : '';
  return `<use href="#${id}" transform="${rot.trim()} translate(${(x - size / 2).toFixed(1)} ${(y - size / 2).toFixed(1)}) scale(${k.toFixed(3)})"/>`;
}

function frame(defs, inner) {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}">` +
    `<defs>${defs}</defs>` +
    `<rect x="2" y="2" width="${W - 4}" height="${H - 4}" rx="14" fill="#fffdf7" stroke="#555" stroke-width="3"/>` +
    inner + '</svg>\n';
}

function corners(label, color, sym) {
  const idx = (x, y, flip) => {
    const g = flip ? ` transform="rotate(180 ${W / 2} ${H / 2})"` : '';
    return `<g${g}><text x="${x}" y="${y}" text-anchor="middle" font-size="${label.length > 1 ? 30 : 38}" ${FONT} fill="${color}">${label}</text>` +
      symbol(sym, x, y + 24, 28) + '</g>';
  };
  return idx(26, 42, false) + idx(26, 42, true);
}

// A simple court figure: head, body in the suit colour, crown for kings.
function figure(color, kind, sym) {
  const crown = kind === 'K'
    ? '<path d="M78 62L84 44L92 56L100 40L108 56L116 44L122 62Z" fill="#f4c430" stroke="#7a5a00" stroke-width="2"/>'
    : kind === 'Q'
      ? '<path d="M82 62Q100 40 118 62Z" fill="#8e44ad" stroke="#4a235a" stroke-width="2"/>'
      : '<path d="M80 62H120L116 50H84Z" fill="#1f6fb2" stroke="#0d3a5e" stroke-width="2"/>';
  return crown +
    '<circle cx="100" cy="80" r="18" fill="#f6d7b0" stroke="#7a5a3a" stroke-width="2"/>' +
    `<path d="M64 150Q66 104 100 100Q134 104 136 150Z" fill="${color}" stroke="#333" stroke-width="2"/>` +
    '<path d="M88 104L100 130L112 104" fill="#fff" stroke="#333" stroke-width="1.5"/>' +
    symbol(sym, 124, 124, 26);
}

function french(suit, rank, { lang = 'en', four = false } = {}) {
  const s = four ? { ...FRENCH[suit], color: FOUR_COLOUR[suit] } : FRENCH[suit];
  const sym = 's';
  const defs = `<g id="s" fill="${s.color}">${s.body}</g>`;
  const label = FRENCH_LABELS[lang][rank] || rank;
  let inner = corners(label, s.color, sym);
  if (rank === 'A') {
    inner += symbol(sym, 100, 150, 110);
  } else if ('JQK'.includes(rank)) {
    inner += `<rect x="46" y="40" width="108" height="220" rx="6" fill="#f3ecd8" stroke="${s.color}" stroke-width="3"/>`;
    inner += `<svg x="46" y="40" width="108" height="110" viewBox="46 40 108 110" overflow="hidden">${figure(s.color, rank, sym)}</svg>`;
    inner += `<g transform="rotate(180 100 150)"><svg x="46" y="40" width="108" height="110" viewBox="46 40 108 110" overflow="hidden">${figure(s.color, rank, sym)}</svg></g>`;
    inner += '<path d="M46 150H154" stroke="#999" stroke-width="1.5"/>';
  } else {
    const n = rank === 'T' ? 10 : Number(rank);
    for (const [x, y] of pipPositions(n)) inner += symbol(sym, x, y, 40, y > 160);
  }
  return frame(defs, inner);
}

// Swiss-German court cards: Under (symbol below), Ober (symbol above), König.
function swissFigure(color, rank, sym) {
  const head = '<circle cx="100" cy="92" r="20" fill="#f6d7b0" stroke="#7a5a3a" stroke-width="2"/>';
  const hat = rank === 'K'
    ? '<path d="M78 76L84 52L93 66L100 48L107 66L116 52L122 76Z" fill="#f4c430" stroke="#7a5a00" stroke-width="2"/>'
    : rank === 'Q'
      ? '<path d="M74 78Q100 48 126 78Z" fill="#2e7d32" stroke="#1b4d1e" stroke-width="2"/><path d="M118 66L140 48" stroke="#c8102e" stroke-width="4"/>'
      : '<path d="M78 78Q100 58 122 78Z" fill="#1f6fb2" stroke="#0d3a5e" stroke-width="2"/>';
  const body = `<path d="M62 200Q62 120 100 114Q138 120 138 200Z" fill="${color}" stroke="#333" stroke-width="2.5"/>` +
    '<path d="M84 200V244M116 200V244" stroke="#333" stroke-width="10"/>' +
    '<path d="M74 244H94M106 244H126" stroke="#333" stroke-width="8"/>';
  const symY = rank === 'J' ? 222 : rank === 'Q' ? 56 : 160;
  const symX = rank === 'K' ? 100 : 148;
  return body + head + hat + symbol(sym, symX, symY, rank === 'K' ? 46 : 40);
}

function swiss(name, rank) {
  const s = SWISS[name];
  const sym = 's';
  const defs = `<g id="s">${s.body}</g>`;
  const label = { T: '10', J: 'U', Q: 'O', K: 'K', A: 'A' }[rank] || rank;
  let inner = corners(label, s.color, sym);
  if (rank === 'A') {
    inner += '<rect x="40" y="40" width="120" height="220" rx="10" fill="none" stroke="#b8860b" stroke-width="3" stroke-dasharray="10 6"/>';
    inner += symbol(sym, 100, 108, 80) + symbol(sym, 100, 196, 80);
  } else if (rank === 'T') {
    inner += '<path d="M60 50V262" stroke="#6b4423" stroke-width="7" stroke-linecap="round"/>';
    inner += '<path d="M64 58H162L146 112L162 166H64Z" fill="#fbf3e0" stroke="#333" stroke-width="3"/>';
    inner += '<path d="M64 80H154M64 144H154" stroke="#c8102e" stroke-width="3"/>';
    inner += symbol(sym, 108, 112, 56);
  } else if ('JQK'.includes(rank)) {
    inner += `<rect x="46" y="40" width="108" height="220" rx="6" fill="#f3ecd8" stroke="#b8860b" stroke-width="3"/>`;
    inner += swissFigure(s.color, rank, sym);
  } else {
    for (const [x, y] of pipPositions(Number(rank))) inner += symbol(sym, x, y, 40);
  }
  return frame(defs, inner);
}

function back() {
  let lines = '';
  for (let i = -300; i < 300; i += 16) lines += `<path d="M${i} 0L${i + 300} 300M${i + 300} 0L${i} 300" />`;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}">` +
    `<rect x="2" y="2" width="${W - 4}" height="${H - 4}" rx="14" fill="#1d4e89" stroke="#0b2545" stroke-width="3"/>` +
    `<g stroke="#4f86c6" stroke-width="2" clip-path="inset(14px round 8px)">${lines}</g>` +
    `<rect x="14" y="14" width="${W - 28}" height="${H - 28}" rx="8" fill="none" stroke="#e8eef7" stroke-width="3"/>` +
    `<path d="M100 118L116 150L100 182L84 150Z" fill="#e8eef7"/></svg>\n`;
}

function write(path, text) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

for (const [dir, opts] of [['french', {}], ['french-de', { lang: 'de' }], ['french4', { four: true }], ['french4-de', { lang: 'de', four: true }]]) {
  for (const suit of Object.keys(FRENCH)) {
    for (const rank of RANKS) write(join(root, dir, `${suit}${rank}.svg`), french(suit, rank, opts));
  }
}
for (const name of Object.keys(SWISS)) {
  for (const rank of RANKS) write(join(root, 'swiss', `${name}${rank}.svg`), swiss(name, rank));
}
write(join(root, 'back.svg'), back());
// Suit symbols alone (contract buttons and labels).
const icon = (defs) => `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100" width="100" height="100">${defs}</svg>\n`;
for (const [suit, s] of Object.entries(FRENCH)) {
  write(join(root, 'suits', `${suit}.svg`), icon(`<g fill="${s.color}">${s.body}</g>`));
  write(join(root, 'suits', `${suit}4.svg`), icon(`<g fill="${FOUR_COLOUR[suit]}">${s.body}</g>`));
}
for (const [name, s] of Object.entries(SWISS)) write(join(root, 'suits', `${name}.svg`), icon(s.body));
console.log(`cards written to ${root}`);
