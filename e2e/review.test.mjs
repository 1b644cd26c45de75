// The round review in the browser (protocol.md, "Round review"): a phone player
// (touch, German) plays a round against three computers, opens the round's review
// from the rounds list, waits for it, taps a card to see its alternatives in both
// views, steps through the tricks and replays the deal at a practice table; the same
// on a desktop in English (closing it instead). Screenshots go to e2e/artifacts/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { startServer } from './lib/server.mjs';
import { launch, DESKTOP, PHONE } from './lib/browser.mjs';
import { openPage, press, view, tid } from './lib/pages.mjs';

const ARTIFACTS = new URL('./artifacts/', import.meta.url).pathname;

let server;
let browser;
const errors = [];

before(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  server = await startServer(['--computer-think-ms', '0', '--computer-budget-ms', '30', '--computer-playouts', '300']);
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

/** Plays Obenabe or the first legal card whenever it is this page's turn, until `done`. */
async function playUntil(p, done) {
  for (let moves = 0; moves < 200; moves += 1) {
    const state = () => {
      const a = window.__jass;
      const g = a?.view?.game;
      if (!g || a.status !== 'open') return null;
      if (g.rounds_played >= 1 || g.phase === 'over') return 'done';
      const al = g.allowed;
      return g.seat != null && g.to_act === g.seat && (al.cards.length > 0 || al.choose) ? 'turn' : null;
    };
    await p.page.waitForFunction(state, null, { timeout: 60_000 });
    if ((await p.page.evaluate(state)) === 'done') return;
    const { view: v, version } = await view(p);
    if (v.game.allowed.choose) {
      await p.page.waitForSelector(tid('contract-dialog'));
      await press(p, tid('contract-obenabe'));
    } else {
      await press(p, tid(`card-${v.game.allowed.cards[0]}`), { position: { x: 12, y: 30 } });
    }
    await p.page.waitForFunction((b) => window.__jass.version > b, version);
  }
  assert.fail('the round did not end');
}

async function reviewRound(size, locale, name, { replay = false } = {}) {
  const p = await openPage(browser, name, { size, locale, errors });
  await p.page.goto(`${server.base}/`);
  await p.page.fill(tid('name-input'), name);
  await press(p, tid('play-computers'));
  await p.page.waitForFunction(() => window.__jass?.view?.game && window.__jass.status === 'open');
  await playUntil(p);
  // The rounds list offers the first round's review.
  await p.page.waitForSelector(tid('hist-review-0'));
  await press(p, tid('hist-review-0'));
  await p.page.waitForSelector(tid('review-panel'));
  await p.page.waitForSelector(tid('review-trick-0'), { timeout: 90_000 });
  const cards = await p.page.$$(`[data-testid^="review-card-"]`);
  assert.ok(cards.length >= 4, `${cards.length} cards reviewed`);
  // Every card shows its loss as a number, not by colour alone.
  const loss = await p.page.textContent(tid('review-loss-0-0'));
  assert.match(loss, /^(0|−\d+\+?)$/);
  await press(p, tid('review-card-0-0'));
  await p.page.waitForSelector(tid('review-detail'));
  const rows = await p.page.$$eval(`${tid('review-detail')} tbody tr`, (r) => r.length);
  assert.ok(rows >= 1);
  const w = await p.page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(w <= p.page.viewportSize().width, `the review is ${w} px wide on a ${p.page.viewportSize().width} px screen`);
  await p.page.screenshot({ path: `${ARTIFACTS}review-${locale}-${p.size}.png`, fullPage: false });
  // Step through the round: the four hands before each trick, nine cards before the first.
  await press(p, tid('review-step-start'));
  await p.page.waitForSelector(tid('review-step'));
  const held = () => p.page.$$eval(`${tid('review-hand-0')} .card-img`, (c) => c.length);
  assert.equal(await held(), 9);
  await press(p, tid('review-step-next'));
  await p.page.waitForFunction(() => /2/.test(document.querySelector('[data-testid=review-step-title]')?.textContent || ''));
  assert.equal(await held(), 8);
  await p.page.screenshot({ path: `${ARTIFACTS}review-step-${locale}-${p.size}.png`, fullPage: false });
  if (replay) {
    // "Replay this deal": from the first card, in the player's own seat.
    const before = await p.page.evaluate(() => {
      const a = window.__jass;
      const me = a.view.you;
      const cards = a.ui.review.data.tricks.flatMap((tr) => tr.cards.filter((c) => c.seat === me).map((c) => c.card));
      return { table: a.view.table, me, cards: cards.sort(), contract: a.ui.review.data.contract };
    });
    await p.page.waitForSelector(tid('replay-deal'));
    await press(p, tid('replay-deal'));
    await p.page.waitForFunction((old) => {
      const a = window.__jass;
      return a.view?.table && a.view.table !== old && a.view.game && a.status === 'open';
    }, before.table, { timeout: 30_000 });
    const after = await p.page.evaluate(() => {
      const g = window.__jass.view.game;
      return { seat: g.seat, contract: g.contract, path: location.pathname, hand: [...g.hand].sort(), trick: g.trick };
    });
    assert.equal(after.seat, before.me);
    assert.equal(after.contract, before.contract, 'from the first card the contract stands');
    assert.match(after.path, /^\/t\//);
    // The same cards, less any this seat played already (a computer may have led).
    assert.ok(after.hand.every((c) => before.cards.includes(c)), `${after.hand} within ${before.cards}`);
    assert.ok(after.hand.length >= 8);
    await p.page.screenshot({ path: `${ARTIFACTS}replay-${locale}-${p.size}.png`, fullPage: false });
  } else {
    await press(p, tid('close-review'));
    await p.page.waitForSelector(tid('review-panel'), { state: 'detached' });
  }
  await p.page.close();
}

test('a phone player opens the review of a round, taps a card, steps through it and replays the deal (German)', { timeout: 240_000 }, async () => {
  await reviewRound(PHONE, 'de-DE', 'Sofia', { replay: true });
  assert.deepEqual(errors, []);
});

test('the review on a desktop, in English', { timeout: 240_000 }, async () => {
  await reviewRound(DESKTOP, 'en-US', 'Anna');
  assert.deepEqual(errors, []);
});

test('a game record opened from a file is reviewed round by round (phone, English)', { timeout: 240_000 }, async () => {
  const p = await openPage(browser, 'Records', { size: PHONE, locale: 'en-US', errors });
  await p.page.goto(`${server.base}/`);
  await p.page.waitForSelector(tid('record-file'));
  const record = new URL('../crates/jass-review/tests/data/game.json', import.meta.url).pathname;
  await p.page.setInputFiles(tid('record-file'), record);
  await p.page.waitForSelector(tid('record-page'));
  const rounds = await p.page.$$(`[data-testid^="record-round-"]`);
  assert.ok(rounds.length >= 10, `${rounds.length} rounds listed`);
  await press(p, tid('record-review-1'));
  await p.page.waitForSelector(tid('review-trick-8'), { timeout: 90_000 });
  await press(p, tid('review-card-0-0'));
  await p.page.waitForSelector(tid('review-detail'));
  await p.page.screenshot({ path: `${ARTIFACTS}review-record-en-phone.png`, fullPage: false });
  // A record's round is stepped through trick by trick, to the last.
  await press(p, tid('review-step-start'));
  for (let i = 0; i < 8; i += 1) await press(p, tid('review-step-next'));
  assert.match(await p.page.textContent(tid('review-step-title')), /9 of 9/);
  assert.equal(await p.page.$eval(tid('review-step-next'), (b) => b.disabled), true);
  assert.equal(await p.page.$$eval(`${tid('review-hand-0')} .card-img`, (c) => c.length), 1);
  await p.page.screenshot({ path: `${ARTIFACTS}review-record-step-en-phone.png`, fullPage: false });
  await press(p, tid('close-review'));
  await p.page.close();
  assert.deepEqual(errors, []);
});
