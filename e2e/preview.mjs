// Renders example views (from protocol.md's shapes) with the static server and
// saves screenshots to e2e/artifacts/preview-*.png: a layout check without the
// Rust server. Run: node preview.mjs
import { mkdirSync } from 'node:fs';
import { startStatic } from './lib/static.mjs';
import { launch, DESKTOP, PHONE } from './lib/browser.mjs';

const OPTIONS = {
  multipliers: { hearts: 1, diamonds: 1, clubs: 2, spades: 2, obenabe: 3, undenufe: 3 }, target: 2500, deck: 'french',
  first_round: 'seven_of_hearts', push_back: false, old_undenufe: false, small_weis: false, auto_stoeck: false,
  counting_order: 'stoeck_weis_stich', end: 'bedanken', schneider: false, fixed_rounds: null,
};
const seats = [{ name: 'Anna', connected: true }, { name: 'Ben', connected: true }, { name: 'Carla', connected: true }, { name: 'Dan', connected: false }];
const lastRound = { round: 0, dealer: 0, forehand: 1, contract: 'clubs', chosen_by: 1, pushed: false, multiplier: 2, card_points: [102, 55], match_bonus: [0, 0], weis: [50, 0], stoeck: [20, 0], total: [344, 110], running_total: [344, 110], complete: true, seed: '03'.repeat(32) };
// The previous round's nine tricks (`GET /api/tables/{table}/rounds`, protocol.md 3).
export const lastRoundTricks = [
  ['H7', 'HA', 'HK', 'HQ'], ['S6', 'S9', 'SQ', 'SA'], ['D6', 'D7', 'D8', 'D9'], ['C6', 'C7', 'C8', 'C9'],
  ['HT', 'HJ', 'H6', 'H8'], ['ST', 'SJ', 'SK', 'S8'], ['DT', 'DJ', 'DQ', 'DK'], ['CT', 'CJ', 'CQ', 'CK'],
  ['H9', 'S7', 'DA', 'CA'],
].map((cards, i) => ({ trick: i, cards: cards.map((card, j) => ({ seat: (i + j + 1) % 4, card })), winner: (i * 3 + 1) % 4, points: i === 8 ? 37 : 10 + i }));
function game(over) {
  return {
    seat: 2, phase: 'playing', round: 1, dealer: 0, forehand: 1, to_act: 2,
    hand: ['H6', 'HA', 'D6', 'DK', 'C8', 'CT', 'S8', 'ST', 'SJ'], hand_counts: [9, 8, 9, 9],
    contract: 'spades', chosen_by: 3, pushed: true, pushed_back: false,
    trick: { number: 0, leader: 1, cards: [{ seat: 1, card: 'H7' }] }, last_trick: null,
    weis: [{ seat: 1, points: [20], cards: null }], weis_result: null, stoeck: null,
    round_points: [0, 0], totals: [344, 1237], commitment: 'ab'.repeat(32), last_round: lastRound, rounds_played: 1, result: null,
    allowed: { schiebe: false, choose: false, cards: ['H6', 'HA', 'S8', 'ST', 'SJ'], weis: [['S8', 'S9', 'ST'].slice(0, 0)].filter((w) => w.length), stoeck: false, bedanke: true },
    ...over,
  };
}
const view = (g, extra = {}) => ({ type: 'state', version: 5, view: { table: 'k3v9q2x7m4p8r6t1w5y0z2b8', you: 2, host: 0, seats, spectators: 1, options: OPTIONS, games: 1, rematch: [false, false, false, false], game: g, ...extra } });

export const SCENES = {
  lobby: view(null, { games: 0, you: 0, seats: [seats[0], seats[1], { name: null, connected: false }, seats[3]] }),
  playing: view(game({ allowed: { schiebe: false, choose: false, cards: ['H6', 'HA', 'S8', 'ST', 'SJ'], weis: [['DT', 'DJ', 'DQ', 'DK']], weis_points: [50], stoeck: true, bedanke: true }, hand: ['H6', 'HA', 'DT', 'DJ', 'DQ', 'DK', 'S8', 'ST', 'SJ'] })),
  choosing: view(game({ phase: 'choosing', contract: null, chosen_by: null, pushed: true, trick: { number: 0, leader: 1, cards: [] }, weis: [], allowed: { schiebe: false, choose: true, cards: [], weis: [], stoeck: false, bedanke: true } })),
  trick3: view(game({ trick: { number: 1, leader: 3, cards: [{ seat: 3, card: 'SQ' }, { seat: 0, card: 'S6' }, { seat: 1, card: 'S9' }] }, weis: [{ seat: 1, points: [50], cards: [['DT', 'DJ', 'DQ', 'DK']] }, { seat: 2, points: [20], cards: [['H6', 'H7', 'H8']] }], weis_result: { team: 1, points: 50 }, stoeck: 3, last_trick: { trick: 0, cards: [{ seat: 1, card: 'H7' }, { seat: 2, card: 'HA' }, { seat: 3, card: 'HK' }, { seat: 0, card: 'HQ' }], winner: 2, points: 18 } })),
  // Computer seats, a stand-in, a waiting player, the move clock.
  computersLobby: view(null, { games: 0, you: 0, seats: [seats[0], { name: 'Computer 2', computer: true, connected: true }, { name: null, connected: false }, { name: 'Computer 4', computer: true, connected: true }], timing: { step_in: 20, move_clock: 15, reserve: 60 } }),
  computersGame: view(game({ to_act: 3 }), {
    you: 0, seats: [seats[0], { name: 'Computer 2', computer: true, connected: true }, { name: 'Bartholomew', connected: false, stand_in: true }, { name: 'Dan', connected: true, waiting: true, stand_in: true }],
    timing: { step_in: 20, move_clock: 15, reserve: 60 }, reserve: [60000, 60000, 41000, 60000],
    clock: { seat: 3, kind: 'move_clock', deadline: Date.now() + 72000, now: Date.now() },
  }),
  myClock: view(game({ to_act: 2 }), {
    seats: [seats[0], { name: 'Computer 2', computer: true, connected: true }, seats[2], { name: 'Computer 4', computer: true, connected: true }],
    timing: { step_in: 20, move_clock: 15, reserve: 60 }, reserve: [60000, 60000, 41000, 60000],
    clock: { seat: 2, kind: 'move_clock', deadline: Date.now() + 50000, now: Date.now() },
  }),
  waitingSelf: view(game({ seat: null, hand: [], allowed: { schiebe: false, choose: false, cards: [], weis: [], stoeck: false, bedanke: false } }), {
    seats: [seats[0], seats[1], { name: 'Carla', connected: true, waiting: true, stand_in: true }, { name: 'Dan', connected: false, stand_in: true }],
    clock: { seat: 2, kind: 'step_in', deadline: Date.now() + 14000, now: Date.now() },
  }),
  over: view(game({ phase: 'over', to_act: null, result: { winner: 1, reason: { type: 'bedanke', seat: 1, right: true }, schneider: true, totals: [344, 2537] }, allowed: { schiebe: false, choose: false, cards: [], weis: [], stoeck: false, bedanke: false } }), { rematch: [true, false, false, false] }),
};

if (import.meta.url === `file://${process.argv[1]}`) {
  mkdirSync(new URL('./artifacts/', import.meta.url), { recursive: true });
  const server = await startStatic();
  const base = `http://127.0.0.1:${server.address().port}`;
  const browser = await launch();
  const only = process.argv[2];
  for (const [name, size] of [['desktop', DESKTOP], ['phone', PHONE]]) {
    const page = await browser.newPage({ viewport: size });
    page.on('console', (m) => { if (m.type() === 'error') console.log(`[${name}] console error:`, m.text()); });
    page.on('pageerror', (e) => console.log(`[${name}] page error:`, e.message));
    await page.goto(base + '/');
    await page.screenshot({ path: `artifacts/preview-start-${name}.png`, fullPage: true });
    for (const [scene, msg] of Object.entries(SCENES)) {
      if (only && only !== scene) continue;
      await page.evaluate((m) => window.__jassRender(m), msg);
      await page.waitForTimeout(150);
      await page.screenshot({ path: `artifacts/preview-${scene}-${name}.png`, fullPage: true });
    }
    await page.close();
  }
  await browser.close();
  server.close();
  console.log('screenshots in e2e/artifacts/');
}
