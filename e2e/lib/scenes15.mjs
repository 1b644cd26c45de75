// Canned views for the layout checks (layout.test.mjs) and screenshots:
// shapes as in protocol.md section 5, rendered with window.__jassRender.

export const OPTIONS = {
  multipliers: { hearts: 1, diamonds: 1, clubs: 2, spades: 2, obenabe: 3, undenufe: 3 }, target: 2500, deck: 'french',
  first_round: 'seven_of_hearts', push_back: false, old_undenufe: false, small_weis: false, auto_stoeck: false,
  counting_order: 'stoeck_weis_stich', end: 'bedanken', schneider: false, fixed_rounds: null,
};

// Long names on purpose: the seat boxes must stay off the trick anyway.
export const SEATS = [
  { name: 'Annemarie', connected: true }, { name: 'Bartholomew', connected: true },
  { name: 'Carla', connected: true }, { name: 'Dan', connected: false },
];

export const NONE = { schiebe: false, choose: false, cards: [], weis: [], weis_points: [], stoeck: false, bedanke: true };

/** The nine tricks of a finished round, as `GET /api/tables/{table}/rounds` gives them (protocol.md 3). */
export const ROUND_TRICKS = [
  ['H7', 'HA', 'HK', 'HQ'], ['S6', 'S9', 'SQ', 'SA'], ['D6', 'D7', 'D8', 'D9'], ['C6', 'C7', 'C8', 'C9'],
  ['HT', 'HJ', 'H6', 'H8'], ['ST', 'SJ', 'SK', 'S8'], ['DT', 'DJ', 'DQ', 'DK'], ['CT', 'CJ', 'CQ', 'CK'],
  ['H9', 'S7', 'DA', 'CA'],
].map((cards, i) => ({
  trick: i,
  cards: cards.map((card, j) => ({ seat: (i + j + 1) % 4, card })),
  winner: (i * 3 + 1) % 4,
  points: i === 8 ? 37 : 10 + i,
}));

export const LAST_ROUND = {
  round: 0, dealer: 0, forehand: 1, contract: 'clubs', chosen_by: 3, pushed: true, multiplier: 2,
  card_points: [102, 55], match_bonus: [0, 0], weis: [50, 0], stoeck: [20, 0], total: [344, 110],
  running_total: [344, 110], complete: true, seed: '03'.repeat(32),
};

export function game(over = {}) {
  return {
    seat: 2, phase: 'playing', round: 1, dealer: 0, forehand: 1, to_act: 2,
    hand: ['H6', 'HA', 'D6', 'DK', 'C8', 'CT', 'S8', 'ST', 'SJ'], hand_counts: [9, 9, 9, 9],
    contract: 'spades', chosen_by: 3, pushed: true, pushed_back: false,
    trick: { number: 0, leader: 1, cards: [] }, last_trick: null,
    weis: [], weis_result: null, stoeck: null,
    round_points: [0, 0], totals: [344, 1237], commitment: 'ab'.repeat(32), last_round: LAST_ROUND, rounds_played: 1, result: null,
    allowed: NONE,
    ...over,
  };
}

export function view(g, extra = {}) {
  return {
    type: 'state', version: extra.version ?? 5,
    view: { table: 'k3v9q2x7m4p8r6t1w5y0z2b8', you: 2, host: 0, seats: SEATS, spectators: 1, options: OPTIONS, games: 1, rematch: [false, false, false, false], game: g, ...extra },
  };
}

/** Seats from `leader` on, playing `cards`. */
export const played = (leader, cards) => cards.map((card, j) => ({ seat: (leader + j) % 4, card }));

export const SCENES = {
  // The partner pushed: Carla chooses, last round's summary on the felt.
  contractPushed: view(game({
    phase: 'choosing', contract: null, chosen_by: null, pushed: true, to_act: 2,
    allowed: { ...NONE, choose: true },
  })),
  // Carla is forehand: she may choose or push.
  contractForehand: view(game({
    phase: 'choosing', contract: null, chosen_by: null, pushed: false, forehand: 2, to_act: 2,
    allowed: { ...NONE, choose: true, schiebe: true },
  })),
  // The first trick, Carla to play with two Weis to declare and Stöck.
  firstTrick: view(game({
    trick: { number: 0, leader: 1, cards: played(1, ['H7']) }, hand_counts: [9, 8, 9, 9],
    hand: ['H6', 'HA', 'DT', 'DJ', 'DQ', 'DK', 'S8', 'S9', 'ST'],
    weis: [{ seat: 1, points: [20], cards: null }],
    allowed: { ...NONE, cards: ['H6', 'HA'], weis: [['DT', 'DJ', 'DQ', 'DK'], ['S8', 'S9', 'ST']], weis_points: [50, 20] },
  })),
  // Trick 2: the Weis of Bartholomew (left) and Dan (right) revealed, a card each on the table.
  weisLeftRight: view(game({
    trick: { number: 1, leader: 3, cards: played(3, ['SQ', 'S6', 'S9']) }, hand_counts: [7, 7, 8, 7], hand: ['H6', 'HA', 'D6', 'DK', 'C8', 'CT', 'S8', 'ST'],
    weis: [{ seat: 1, points: [100], cards: [['D9', 'DT', 'DJ', 'DQ', 'DK']] }, { seat: 3, points: [200, 20], cards: [['CJ', 'DJ', 'HJ', 'SJ'], ['H8', 'H9', 'HT']] }],
    weis_result: { team: 1, points: 320 }, stoeck: 3,
    last_trick: { trick: 0, cards: played(1, ['H7', 'HQ', 'HK', 'C6']), winner: 3, points: 7 },
    allowed: { ...NONE },
    to_act: 2,
  })),
  // Trick 2: Annemarie's (top) and Carla's own Weis revealed.
  weisTopBottom: view(game({
    trick: { number: 1, leader: 0, cards: played(0, ['CA']) }, hand_counts: [7, 8, 8, 8], hand: ['H6', 'HA', 'D6', 'DK', 'C8', 'CT', 'S8', 'ST'],
    weis: [{ seat: 0, points: [150, 50], cards: [['C9', 'D9', 'H9', 'S9'], ['S6', 'S7', 'S8', 'S9']] }, { seat: 2, points: [20], cards: [['D6', 'D7', 'D8']] }],
    weis_result: { team: 0, points: 220 }, stoeck: 0, to_act: 1,
    last_trick: { trick: 0, cards: played(1, ['H7', 'HQ', 'HK', 'HA']), winner: 0, points: 18 },
  })),
  // The last round's eighth trick over, three cards of the ninth on the table.
  ninthBefore: view(game({
    round: 1, trick: { number: 8, leader: 1, cards: played(1, ['H9', 'S7', 'DA']) }, hand_counts: [1, 0, 0, 0], hand: ['CA'], to_act: 0,
    last_trick: { trick: 7, cards: played(0, ['CT', 'CJ', 'CQ', 'CK']), winner: 2, points: 17 },
    allowed: { ...NONE, cards: [] },
  }), { version: 40 }),
  // The 36th card: the next round is dealt at once; `last_round_trick` has the ninth trick.
  ninthAfter: view(game({
    round: 2, phase: 'choosing', contract: null, chosen_by: null, pushed: false, forehand: 2, to_act: 2, dealer: 1,
    last_round: { ...LAST_ROUND, round: 1 }, last_round_trick: ROUND_TRICKS[8],
    allowed: { ...NONE, choose: true, schiebe: true },
  }), { version: 41 }),
};

/** A completed trick led by `leader` (shown with its winner after the state before it). */
export function completedTrick(leader) {
  const cards = played(leader, ['HK', 'H9', 'HA', 'H6']);
  const before = view(game({ trick: { number: 1, leader, cards: cards.slice(0, 3) }, to_act: (leader + 3) % 4, hand_counts: [8, 8, 8, 8] }), { version: 10 + leader * 2 });
  const after = view(game({
    trick: { number: 2, leader: (leader + 2) % 4, cards: [] }, to_act: (leader + 2) % 4, hand_counts: [7, 7, 7, 7],
    last_trick: { trick: 1, cards, winner: (leader + 2) % 4, points: 25 },
  }), { version: 11 + leader * 2 });
  return [before, after];
}
