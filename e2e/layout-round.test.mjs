// A whole round on one screen, from the contract to the ninth trick, at 390×844 with
// touch and on a desktop, in both languages: nothing above the hand changes height
// and the hand stays where the thumb is; nothing (a seat, a Weis, the caption, the lead
// star, a sheet, a notice) covers a card on the felt, and the phone's trick cards use
// the room the felt has. Canned views (lib/scenes15.mjs) rendered by the real client
// over a static server; screenshots to artifacts/round-*.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DESKTOP, PHONE } from './lib/browser.mjs';
import { LAST_ROUND, game, view, played, NONE } from './lib/scenes15.mjs';
import { ARTIFACTS, cannedSuite, openCanned, imagesLoaded } from './lib/canned.mjs';

const SIZES = [['phone', PHONE], ['desktop', DESKTOP]];
const LANGS = ['de', 'en'];

const suite = cannedSuite();
const open = (size, lang) => openCanned(suite, size, { lang });

/** Renders `msg` (optionally with a notice or a connection status) and waits for its images. */
async function show(page, msg, { notice = null, status = 'open', release = false } = {}) {
  await page.evaluate(([m, s]) => window.__jassRender(m, s), [msg, status]);
  // A finished trick is held on the felt for its time; tap it away where the scene
  // is about what comes after it.
  if (release) {
    while (await page.$('[data-testid=trick].completed')) {
      await page.evaluate(() => document.querySelector('[data-testid=trick].completed')?.click());
      await page.waitForTimeout(30);
    }
  }
  if (notice) await page.evaluate((n) => { window.__jass.ui.notice = n; window.__jass.ui.noticeKind = 'info'; window.__jassRender({ type: 'state', version: window.__jass.version, view: window.__jass.view }); }, notice);
  await imagesLoaded(page);
}

/** Top and height of the top bar, the felt, the control rows and the hand. */
function frame(page) {
  return page.evaluate(() => {
    const box = (sel) => {
      const e = document.querySelector(sel);
      if (!e) return null;
      const r = e.getBoundingClientRect();
      return [Math.round(r.top), Math.round(r.height)];
    };
    return { topbar: box('.topbar'), felt: box('[data-testid=table]'), controls: box('.under-table'), hand: box('[data-testid=hand]') };
  });
}

/**
 * Every card on the felt, sampled on a 6×8 grid: the names of whatever else is topmost
 * at any sample point (the card's own Stöck tag is part of it).
 */
function coveredCards(page) {
  return page.evaluate(() => {
    const bad = [];
    // A stale table is inert (not hit-tested) while reconnecting: nothing to sample.
    for (const card of document.querySelectorAll('[data-testid^=trick-card-]')) {
      if (card.closest('[inert]')) continue;
      const img = card.querySelector('img');
      const r = img.getBoundingClientRect();
      const seen = new Set();
      for (let i = 0; i < 6; i++) {
        for (let j = 0; j < 8; j++) {
          const x = r.left + 2 + (i * (r.width - 4)) / 5;
          const y = r.top + 2 + (j * (r.height - 4)) / 7;
          const hit = document.elementFromPoint(x, y);
          if (!hit || card.contains(hit)) continue;
          const named = hit.closest('[data-testid]');
          seen.add(named?.dataset.testid || hit.className || hit.tagName);
        }
      }
      if (seen.size) bad.push(`${card.dataset.testid} under ${[...seen].join(', ')}`);
    }
    return bad;
  });
}

const HAND9 = ['H6', 'HA', 'DT', 'DJ', 'DQ', 'DK', 'S8', 'S9', 'ST'];
const WEIS_LR = [
  { seat: 1, points: [100, 20], cards: [['D9', 'DT', 'DJ', 'DQ', 'DK'], ['C6', 'C7', 'C8']] },
  { seat: 3, points: [200, 20], cards: [['CJ', 'DJ', 'HJ', 'SJ'], ['H8', 'H9', 'HT']] },
];
const WEIS_TB = [
  { seat: 0, points: [150, 50], cards: [['C9', 'D9', 'H9', 'S9'], ['S6', 'S7', 'S8', 'S9']] },
  { seat: 2, points: [50, 20], cards: [['DT', 'DJ', 'DQ', 'DK'], ['S8', 'S9', 'ST']] },
];

/** A round as one screen sees it, in order: each scene with its label. */
function roundScenes() {
  const out = [];
  const push = (label, g, extra = {}, opts = {}) => out.push({ label, msg: view(game(g), { version: 100 + out.length, ...extra }), opts });
  push('contract', { phase: 'choosing', contract: null, chosen_by: null, pushed: true, hand: HAND9, allowed: { ...NONE, choose: true } });
  push('pushed notice', { phase: 'choosing', contract: null, chosen_by: null, pushed: true, hand: HAND9, allowed: { ...NONE, choose: true } }, {}, { notice: 'Anna schiebt: Carla wählt.' });
  push('weis to declare', {
    trick: { number: 0, leader: 1, cards: played(1, ['H7']) }, hand: HAND9, hand_counts: [9, 8, 9, 9],
    weis: [{ seat: 1, points: [20], cards: null }], allowed: { ...NONE, cards: ['H6', 'HA'], weis: [['DT', 'DJ', 'DQ', 'DK'], ['S8', 'S9', 'ST']], weis_points: [50, 20] },
  });
  push('weis to declare, fourth', {
    trick: { number: 0, leader: 3, cards: played(3, ['H7', 'HQ', 'HK']) }, hand: HAND9, hand_counts: [8, 8, 9, 8], to_act: 2,
    weis: [{ seat: 1, points: [20], cards: null }, { seat: 3, points: [200, 20], cards: null }, { seat: 0, points: [150], cards: null }],
    stoeck: null, allowed: { ...NONE, cards: ['H6', 'HA'], weis: [['DT', 'DJ', 'DQ', 'DK'], ['S8', 'S9', 'ST']], weis_points: [50, 20] },
  });
  push('first trick, played', {
    trick: { number: 0, leader: 1, cards: played(1, ['H7', 'HA']) }, hand: HAND9.filter((c) => c !== 'HA'), hand_counts: [9, 8, 8, 9], to_act: 3,
    weis: [{ seat: 1, points: [20], cards: null }, { seat: 2, points: [50, 20], cards: null }, { seat: 3, points: [200, 20], cards: null }],
  }, { reserve: [60000, 60000, 60000, 41000], clock: { seat: 3, kind: 'move_clock', deadline: Date.now() + 12000, now: Date.now() }, timing: { step_in: 20, move_clock: 15, reserve: 60 } }, { notice: 'Dan: Stöck!' });
  push('first trick held', {
    trick: { number: 1, leader: 3, cards: [] }, hand: HAND9.filter((c) => c !== 'HA'), hand_counts: [8, 8, 8, 8], to_act: 3,
    weis: WEIS_LR, weis_result: { team: 1, points: 340 }, stoeck: 3,
    last_trick: { trick: 0, cards: played(1, ['H7', 'HA', 'HK', 'HQ']), winner: 3, points: 18 },
  });
  push('second trick, Weis left and right', {
    trick: { number: 1, leader: 3, cards: played(3, ['SQ', 'S6', 'S9', 'SK']) }, hand: ['H6', 'DT', 'DJ', 'DQ', 'DK', 'S8', 'ST'], hand_counts: [7, 7, 8, 7], to_act: 2,
    weis: WEIS_LR, weis_result: { team: 1, points: 340 }, stoeck: 3,
    last_trick: { trick: 0, cards: played(1, ['H7', 'HA', 'HK', 'HQ']), winner: 3, points: 18 },
  }, { host: 2, seats: [{ name: 'Annemarie', connected: true }, { name: 'Bartholomew', connected: true, stand_in: true, benched: true }, { name: 'Carla', connected: true }, { name: 'Dan', connected: false, stand_in: true }] }, { release: true });
  push('second trick, Weis top and bottom', {
    trick: { number: 1, leader: 0, cards: played(0, ['CA', 'C6', 'C8', 'CT']) }, hand: ['H6', 'DT', 'DJ', 'DQ', 'DK', 'S8', 'ST'], hand_counts: [7, 7, 7, 7], to_act: 0,
    weis: WEIS_TB, weis_result: { team: 0, points: 270 }, stoeck: 0,
    last_trick: { trick: 0, cards: played(1, ['H7', 'HA', 'HK', 'HQ']), winner: 0, points: 18 },
  }, {}, { release: true });
  push('second trick held', {
    trick: { number: 2, leader: 0, cards: [] }, hand: ['H6', 'DT', 'DJ', 'DQ', 'DK', 'S8'], hand_counts: [6, 6, 6, 6], to_act: 0,
    weis: WEIS_TB, weis_result: { team: 0, points: 270 }, stoeck: 0,
    last_trick: { trick: 1, cards: played(0, ['CA', 'C6', 'C8', 'CT']), winner: 1, points: 21 },
  });
  for (const [n, hand] of [[3, ['H6', 'DT', 'DJ', 'DQ', 'DK']], [6, ['H6', 'DK']]]) {
    push(`trick ${n + 1}`, {
      trick: { number: n, leader: n % 4, cards: played(n % 4, ['S7', 'SJ', 'SA'].slice(0, 3 - (n % 3))) }, hand, hand_counts: [hand.length, hand.length, hand.length, hand.length], to_act: 2,
      weis: WEIS_TB, weis_result: { team: 0, points: 270 }, stoeck: 0,
      last_trick: { trick: n - 1, cards: played(2, ['C7', 'C9', 'CJ', 'CQ']), winner: 2, points: 7 },
      allowed: { ...NONE, cards: hand },
    }, {}, { release: true });
  }
  push('ninth trick', {
    trick: { number: 8, leader: 1, cards: played(1, ['H9', 'S7', 'DA']) }, hand: ['CA'], hand_counts: [1, 0, 1, 0], to_act: 2,
    last_trick: { trick: 7, cards: played(0, ['CT', 'CJ', 'CQ', 'CK']), winner: 2, points: 17 }, allowed: { ...NONE, cards: ['CA'] },
  }, {}, { release: true });
  // The connection drops: the banner floats, the table under it stays put.
  const last = out[out.length - 1];
  out.push({ label: 'reconnecting', msg: { ...last.msg, version: last.msg.version + 1 }, opts: { status: 'reconnecting' } });
  return out;
}

for (const [label, size] of SIZES) {
  for (const lang of LANGS) {
    test(`${label}, ${lang}: nothing above the hand changes height during a round, and nothing covers a card`, async () => {
      const page = await open(size, lang);
      const frames = [];
      const covered = [];
      for (const { label: scene, msg, opts } of roundScenes()) {
        await show(page, msg, opts);
        frames.push([scene, await frame(page)]);
        covered.push(...(await coveredCards(page)).map((c) => `${scene}: ${c}`));
        await page.screenshot({ path: `${ARTIFACTS}round-${label}-${lang}-${scene.replace(/[^a-z0-9]+/gi, '-')}.png` });
      }
      // Before: on a phone the hand moved about 80 px between the first and the third
      // trick, and switched between one and two rows.
      const [, first] = frames[0];
      const moved = frames.filter(([, f]) => JSON.stringify(f) !== JSON.stringify(first))
        .map(([scene, f]) => `${scene}: ${JSON.stringify(f)} against the contract's ${JSON.stringify(first)}`);
      // Before: a Weis box covered a trick card (1,598 px² at worst), your own Weis
      // your own card, the caption and the lead star covered cards.
      assert.deepEqual({ moved, covered }, { moved: [], covered: [] });
      if (size === PHONE) {
        // The hand, two rows of it, ends on the screen, where the thumb is.
        assert.ok(first.hand[0] + first.hand[1] <= size.height, `hand at ${first.hand}`);
      }
      assert.deepEqual(page.errors, []);
      await page.context().close();
    });
  }
}

test('phone: the trick cards use the felt (before: 52×78 px on an almost empty felt)', async () => {
  const page = await open(PHONE, 'en');
  const scenes = roundScenes();
  await show(page, scenes.find((s) => s.label === 'second trick, Weis left and right').msg, { release: true });
  const sizes = await page.evaluate(() => [...document.querySelectorAll('[data-testid^=trick-card-] img')].map((i) => Math.round(i.getBoundingClientRect().width)));
  assert.equal(sizes.length, 4);
  for (const w of sizes) assert.ok(w >= 64, `trick card ${w} px wide`);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

// The last round's summary on the felt with the contract dialog open: neither covers the other.
test('phone: the contract sheet leaves the last round\'s summary whole', async () => {
  for (const lang of LANGS) {
    const page = await open(PHONE, lang);
    await show(page, view(game({ phase: 'choosing', contract: null, chosen_by: null, pushed: false, forehand: 2, last_round: LAST_ROUND, allowed: { ...NONE, choose: true, schiebe: true } })));
    await page.waitForSelector('[data-testid=round-summary]');
    const [sum, sheet] = await page.evaluate(() => ['[data-testid=round-summary]', '.felt-sheet'].map((s) => {
      const r = document.querySelector(s).getBoundingClientRect();
      return [r.top, r.bottom];
    }));
    assert.ok(sum[1] <= sheet[0], `summary ${sum} runs under the sheet ${sheet}`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});
