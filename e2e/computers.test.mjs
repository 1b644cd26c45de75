// Computer players in the browser (protocol.md 3, "Host controls" and "Step-in and
// move clock"), against the real jass-server with computers that move at once
// (--computer-think-ms 0):
// - a phone (touch, German) plays a whole game against three computers by tapping
//   only, started with "play with computers" from the start page;
// - the host fills seats with computers in the lobby; a page that goes offline is
//   shown away to the host, the computer plays for it after the step-in time (with
//   the countdown and the "computer plays for …" badge), and when it is back the
//   player plays on;
// - the host frees a seat during the game and gives another to the computer; a
//   player who takes the freed seat waits for the next deal (no hand meanwhile);
// - a seat moves to a second browser context with the other-device link and QR code
//   (the token only in the fragment, never in a request), the first page is replaced.
// Screenshots (EN and DE, phone and desktop) go to e2e/artifacts/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { startServer } from './lib/server.mjs';
import { launch, DESKTOP, PHONE } from './lib/browser.mjs';
import { openPage, openSeat as openSeatPage, press, view, tid, sleep } from './lib/pages.mjs';

const ARTIFACTS = new URL('./artifacts/', import.meta.url).pathname;
const AWAY_SECS = 4;

let server;
let browser;
const errors = [];

before(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  server = await startServer([
    '--computer-think-ms', '0', '--computer-budget-ms', '30', '--computer-playouts', '300',
    '--away-after-secs', String(AWAY_SECS),
  ]);
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

async function shot(p, name) {
  // Nothing wider than the phone: no sideways scrolling.
  const w = await p.page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(w <= p.page.viewportSize().width, `${name}: page ${w} px wide on a ${p.page.viewportSize().width} px screen`);
  await p.page.screenshot({ path: `${ARTIFACTS}${name}-${p.size}.png`, fullPage: true });
}

/** A page holding a seat by its token, as if it had joined itself. */
function openSeat(label, table, token, opts = {}) {
  return openSeatPage(browser, server.base, label, table, token, { errors, ...opts });
}

/** Waits until this page must decide (or the game is over); returns its view. */
async function myTurn(p, timeout = 30_000) {
  await p.page.waitForFunction(() => {
    const a = window.__jass;
    const g = a?.view?.game;
    if (!g || a.status !== 'open') return false;
    if (g.phase === 'over') return true;
    const al = g.allowed;
    return g.seat != null && g.to_act === g.seat && (al.cards.length > 0 || al.choose || al.schiebe);
  }, null, { timeout });
  return (await view(p)).view;
}

/** This page's one decision, by clicking (or tapping): Obenabe or its first legal card. */
async function decide(p, v) {
  const g = v.game;
  const before = (await view(p)).version;
  if (g.allowed.choose) {
    await p.page.waitForSelector(tid('contract-dialog'));
    await press(p, tid('contract-obenabe'));
  } else {
    await press(p, tid(`card-${g.allowed.cards[0]}`), { position: { x: 12, y: 30 } });
  }
  await p.page.waitForFunction((b) => window.__jass.version > b, before);
}

test('a phone plays a whole game against three computers by tapping only', { timeout: 240_000 }, async () => {
  const p = await openPage(browser, 'Solo', { size: PHONE, locale: 'de-DE', errors });
  await p.page.goto(`${server.base}/`);
  await p.page.fill(tid('name-input'), 'Sofia');
  await p.page.selectOption(tid('preset-select'), 'to_1000');
  await p.page.fill(tid('opt-target'), '300');
  // The options beyond preset and target are folded.
  await press(p, tid('more-options-toggle'));
  await p.page.selectOption(tid('opt-end'), 'automatic');
  await shot(p, 'start-de');
  await press(p, tid('play-computers'));
  // Into the game at once: Sofia at seat 0, computers in the other three.
  await p.page.waitForFunction(() => window.__jass?.view?.game && window.__jass.status === 'open');
  let v = (await view(p)).view;
  assert.equal(v.you, 0);
  assert.deepEqual(v.seats.map((s) => !!s.computer), [false, true, true, true]);
  for (const s of [1, 2, 3]) await p.page.waitForSelector(tid(`computer-${s}`));
  assert.equal(await p.page.textContent(tid('computer-1')), 'Computer');
  await shot(p, 'computers-game-de');

  let moves = 0;
  for (;;) {
    v = await myTurn(p, 60_000);
    if (v.game.phase === 'over') break;
    await decide(p, v);
    moves += 1;
    assert.ok(moves < 400, 'the game ends');
  }
  await p.page.waitForSelector(tid('game-over'));
  const g = v.game;
  assert.equal(g.result.reason.type, 'automatic');
  assert.ok(Math.max(...g.result.totals) >= 300);
  for (const tm of [0, 1]) assert.equal(await p.page.textContent(tid(`final-${tm}`)), String(g.result.totals[tm]));
  await shot(p, 'computers-over-de');
  // The record lists the computers as computers.
  const rec = await (await fetch(`${server.base}/api/tables/${v.table}/record`)).json();
  assert.deepEqual(rec.players.map((pl) => !!pl.computer), [false, true, true, true], 'the record marks the computer seats');
  // Computers go by players' names, not "Computer 2".
  assert.ok(rec.players.slice(1).every((pl) => pl.name && !/^Computer/.test(pl.name)), JSON.stringify(rec.players));
  await p.ctx.close();
  assert.deepEqual(errors, []);
});

/** A table of Anna (host, seat 0) and Ben (seat 1) with computers the host adds by clicking. */
async function annaAndBen(timing, sizes = [DESKTOP, DESKTOP], locales = ['en-US', 'en-US']) {
  const created = await server.post('/api/tables', { name: 'Anna', preset: 'to_1000', timing });
  const table = created.table;
  const benToken = (await server.post(`/api/tables/${table}/seats`, { name: 'Ben', seat: 1 })).token;
  const anna = await openSeat('Anna', table, created.token, { size: sizes[0], locale: locales[0] });
  const ben = await openSeat('Ben', table, benToken, { size: sizes[1], locale: locales[1] });
  // --- lobby: the host puts computers in the two free seats, removes one, adds it again.
  for (const s of [2, 3]) {
    await press(anna, tid(`add-computer-${s}`));
    await anna.page.waitForSelector(tid(`computer-${s}`));
  }
  await ben.page.waitForSelector(tid('computer-3'));
  await press(anna, tid('remove-computer-3'));
  await anna.page.waitForSelector(tid('add-computer-3'));
  await press(anna, tid('add-computer-3'));
  await anna.page.waitForSelector(tid('computer-3'));
  return { table, anna, ben, benToken };
}

test('offline: shown away, the computer plays for the seat, and the player plays on', { timeout: 120_000 }, async (t) => {
  const { anna, ben } = await annaAndBen({ step_in: 5 }, [DESKTOP, PHONE], ['en-US', 'de-DE']);
  // The timing is shown to the others, and the host can change it in the lobby.
  await ben.page.waitForSelector(tid('timing-list'));
  assert.match(await ben.page.textContent(tid('timing-list')), /5 s/);
  await anna.page.selectOption(tid('timing-move_clock'), '15');
  await ben.page.waitForFunction(() => window.__jass.view.timing.move_clock === 15);
  await anna.page.waitForSelector(tid('timing-reserve'));
  await shot(anna, 'lobby-computers-en');
  await shot(ben, 'lobby-computers-de');
  await anna.page.selectOption(tid('timing-move_clock'), '0');
  await ben.page.waitForFunction(() => window.__jass.view.timing.move_clock === 0);
  await press(anna, tid('start'));
  await ben.page.waitForFunction(() => window.__jass.view?.game);

  // Play until Ben must decide.
  for (;;) {
    const [va, vb] = await Promise.race([
      myTurn(anna).then((v) => [v, null]),
      myTurn(ben).then((v) => [null, v]),
    ]);
    if (vb) break;
    await decide(anna, va);
  }
  const benBefore = (await view(ben)).view.game;

  // --- Ben's network goes away: Anna sees him away within about 15 s, then the
  // countdown of the step-in, and the computer plays for him.
  const t0 = Date.now();
  ben.offline = true;
  await ben.ctx.setOffline(true);
  await anna.page.waitForSelector(tid('offline-1'), { timeout: 15_000 });
  const away = Date.now() - t0;
  t.diagnostic(`offline page shown away after ${away} ms`);
  assert.ok(away <= 15_000);
  await anna.page.waitForFunction(() => window.__jass.view.clock?.seat === 1 && window.__jass.view.clock.kind === 'step_in', null, { timeout: 10_000 });
  await anna.page.waitForSelector(tid('clock-1'));
  assert.match(await anna.page.textContent(tid('clock-1')), /computer in \d+ s/);
  await shot(anna, 'step-in-countdown-en');
  // The computer plays for Ben. Anna plays on meanwhile: when Ben's partner pushed to
  // him, the computer chooses for Ben and the partner leads, so Anna is next before Ben.
  const until = Date.now() + 15_000;
  for (;;) {
    const { view: va } = await view(anna);
    const ga = va.game;
    if (ga.hand_counts[1] < benBefore.hand.length || ga.round > 0) break;
    assert.ok(Date.now() < until, 'the computer played for Ben within 15 s');
    if (ga.to_act === ga.seat && (ga.allowed.cards.length > 0 || ga.allowed.choose)) await decide(anna, va);
    else await sleep(50);
  }
  await anna.page.waitForSelector(tid('standin-1'));
  assert.match(await anna.page.textContent(tid('standin-1')), /computer plays for Ben/);
  await shot(anna, 'stand-in-en');

  // --- Ben is back: no stand-in, and his next decision is his.
  ben.offline = false;
  await ben.ctx.setOffline(false);
  await ben.page.waitForFunction(() => window.__jass.status === 'open', null, { timeout: 15_000 });
  // He is told what the computer played for him, not left with a smaller hand.
  const note = await ben.page.waitForFunction(() => {
    const n = document.querySelector('[data-testid=notice]')?.textContent || '';
    return /Computer .*für dich gespielt/.test(n) && n;
  }, null, { timeout: 5_000 });
  t.diagnostic(`Ben back: ${note}`);
  await shot(ben, 'back-note-de');
  await anna.page.waitForSelector(tid('offline-1'), { state: 'detached', timeout: 15_000 });
  await anna.page.waitForSelector(tid('standin-1'), { state: 'detached', timeout: 15_000 });
  for (;;) {
    const [va, vb] = await Promise.race([
      myTurn(anna).then((v) => [v, null]),
      myTurn(ben).then((v) => [null, v]),
    ]);
    if (vb) {
      assert.equal(vb.game.phase === 'over', false);
      const card = vb.game.allowed.cards[0];
      await decide(ben, vb);
      if (card) {
        const g = (await view(ben)).view.game;
        assert.ok(!g.hand.includes(card), 'Ben played his own card');
      }
      break;
    }
    await decide(anna, va);
  }
  await shot(ben, 'back-de');
  await anna.ctx.close();
  await ben.ctx.close();
  assert.deepEqual(errors, []);
});

test('the host frees a seat and gives one to the computer during a game; a new player waits for the deal', { timeout: 120_000 }, async () => {
  const { anna, ben } = await annaAndBen({ step_in: 20, move_clock: 20, reserve: 60 }, [PHONE, DESKTOP], ['en-US', 'en-US']);
  await shot(anna, 'lobby-computers-en');
  await press(anna, tid('start'));
  await ben.page.waitForFunction(() => window.__jass.view?.game);
  // The move clock: the seat to act has a countdown, and every human seat its reserve.
  await anna.page.waitForSelector(tid('reserve-0'));
  assert.match(await anna.page.textContent(tid('reserve-1')), /reserve 60 s/);
  await anna.page.waitForFunction(() => window.__jass.view.clock?.kind === 'move_clock');
  await anna.page.waitForSelector('.clock');
  await shot(anna, 'move-clock-en');
  await shot(ben, 'move-clock-en');
  for (const p of [anna, ben]) {
    await press(p, tid('toggle-lang'));
    await p.page.waitForSelector('.clock');
    assert.match(await p.page.textContent('.clock'), /\d+ s/);
    await shot(p, 'move-clock-de');
    await press(p, tid('toggle-lang'));
  }

  // --- the host gives Ben's seat to the computer: Ben keeps it, is told, and watches.
  // (Before, the page freed the seat and added a computer: Ben landed on the join page
  // with no reason, saw his seat free and then the table full.)
  await press(anna, tid('manage-seats'));
  await anna.page.waitForSelector(tid('seat-manager'));
  await shot(anna, 'seat-manager-en');
  await press(anna, tid('mg-give-computer-1'));
  await anna.page.waitForSelector(tid('mg-give-back-1'));
  await press(anna, tid('close-manage'));
  await ben.page.waitForSelector(tid('benched-self'));
  assert.match(await ben.page.textContent(tid('benched-self')), /host gave your seat to the computer/);
  assert.equal(await ben.page.$(tid('hand')), null, 'he watches without a hand');
  assert.equal(await ben.page.$(tid('join')), null, 'he stays at the table');
  assert.equal((await view(ben)).status, 'open');
  await anna.page.waitForSelector(tid('give-back-1'));
  assert.match(await anna.page.textContent(tid('give-back-1')), /Give back/);
  await shot(ben, 'benched-en');
  await shot(anna, 'benched-host-en');
  for (const p of [anna, ben]) await press(p, tid('toggle-lang'));
  await ben.page.waitForSelector(tid('benched-self'));
  assert.match(await ben.page.textContent(tid('benched-self')), /Gastgeber hat deinen Platz dem Computer gegeben/);
  await shot(ben, 'benched-de');
  await shot(anna, 'benched-host-de');
  for (const p of [anna, ben]) await press(p, tid('toggle-lang'));
  // One tap on his seat gives it back: his hand is there again.
  await press(anna, tid('give-back-1'));
  await ben.page.waitForSelector(tid('hand'));
  assert.equal(await ben.page.$(tid('benched-self')), null);
  assert.equal((await view(ben)).view.game.seat, 1);

  // --- freeing his seat instead closes his connection: the join page says why.
  await press(anna, tid('manage-seats'));
  await press(anna, tid('mg-free-1'));
  await press(anna, tid('close-manage'));
  await ben.page.waitForSelector(tid('join'));
  await ben.page.waitForFunction(() => /no longer yours/.test(document.querySelector('[data-testid=join-error]')?.textContent || ''));

  // --- the host frees a computer seat: left open for someone with the link.
  await press(anna, tid('manage-seats'));
  await press(anna, tid('mg-free-3'));
  await anna.page.waitForFunction(() => !window.__jass.view.seats[3].name);
  await anna.page.waitForSelector(tid('standin-3'));
  await press(anna, tid('close-manage'));

  // --- Ben takes the free seat from the join page (it notices the freed seat by
  // itself): he waits for the next deal.
  await ben.page.fill(tid('join-name'), 'Ben');
  await ben.page.waitForSelector(`${tid('join-seat-3')}:not([disabled])`, { timeout: 10_000 });
  await ben.page.waitForSelector(tid('join-next-deal'));
  assert.equal(await ben.page.inputValue(tid('join-name')), 'Ben', 'the typed name survives the refresh');
  await shot(ben, 'join-mid-game-en');
  await press(ben, tid('join-seat-3'));
  await ben.page.waitForFunction(() => window.__jass?.view?.game && window.__jass.status === 'open');
  const vb = (await view(ben)).view;
  if (vb.seats[3].waiting) {
    await ben.page.waitForSelector(tid('waiting-self'));
    assert.equal(await ben.page.$(tid('hand')), null, 'no hand before the deal');
    assert.equal(vb.game.seat, null);
    await anna.page.waitForSelector(tid('waiting-3'));
    await shot(ben, 'waiting-en');
    await shot(anna, 'waiting-en');
    // Play on (Anna only: the others are computers) until the next deal gives Ben his seat.
    for (;;) {
      const w = (await view(ben)).view;
      if (w.game.seat === 3) break;
      const va = await Promise.race([myTurn(anna), ben.page.waitForFunction(() => window.__jass.view.game.seat === 3).then(() => null)]);
      if (va && va.game.phase !== 'over') await decide(anna, va);
    }
  }
  await ben.page.waitForSelector(tid('hand'));
  assert.equal((await view(ben)).view.game.seat, 3);
  await anna.ctx.close();
  await ben.ctx.close();
  assert.deepEqual(errors, []);
});

// The host picks each computer's level (protocol.md 3, "Computer levels"); the seat
// badge names easy and strong (normal is just "computer").
test('the host picks computer levels in the lobby, the seat manager and the start page', { timeout: 120_000 }, async () => {
  // --- the start page: "play with computers" at strong.
  const solo = await openPage(browser, 'Solo', { size: PHONE, locale: 'en-US', errors });
  await solo.page.goto(`${server.base}/`);
  await solo.page.fill(tid('name-input'), 'Sofia');
  assert.equal(await solo.page.inputValue(tid('start-level')), 'normal', 'normal by default');
  await solo.page.selectOption(tid('start-level'), 'strong');
  await shot(solo, 'start-level-en');
  await press(solo, tid('play-computers'));
  await solo.page.waitForFunction(() => window.__jass?.view?.game && window.__jass.status === 'open');
  assert.deepEqual((await view(solo)).view.seats.map((s) => s.level ?? null), [null, 'strong', 'strong', 'strong']);
  await solo.page.waitForSelector(tid('computer-2'));
  assert.equal(await solo.page.textContent(tid('computer-2')), 'computer · Strong');
  await shot(solo, 'computers-strong-en');
  await solo.ctx.close();

  // --- the lobby (a German phone): easy in seat 1, normal in seat 2, strong in seat 3.
  const created = await server.post('/api/tables', { name: 'Anna', preset: 'to_1000' });
  const anna = await openSeat('Anna', created.table, created.token, { size: PHONE, locale: 'de-DE' });
  assert.equal(await anna.page.inputValue(tid('lobby-level')), 'normal', 'normal by default');
  for (const [s, level] of [[1, 'easy'], [2, 'normal'], [3, 'strong']]) {
    await anna.page.selectOption(tid('lobby-level'), level);
    await press(anna, tid(`add-computer-${s}`));
    await anna.page.waitForSelector(`${tid(`computer-${s}`)}[data-level=${level}]`);
    if (s === 1) await shot(anna, 'lobby-level-pick-de');
  }
  assert.equal(await anna.page.$(tid('lobby-level')), null, 'no level to pick once the table is full');
  assert.equal(await anna.page.textContent(tid('computer-1')), 'Computer · Leicht');
  assert.equal(await anna.page.textContent(tid('computer-2')), 'Computer');
  assert.equal(await anna.page.textContent(tid('computer-3')), 'Computer · Stark');
  assert.deepEqual((await view(anna)).view.seats.map((s) => s.level ?? null), [null, 'easy', null, 'strong']);
  await shot(anna, 'lobby-levels-de');

  // --- during the game, the seat manager: the easy computer is replaced by a strong one.
  await press(anna, tid('remove-computer-1'));
  await anna.page.waitForSelector(tid('add-computer-1'));
  await anna.page.selectOption(tid('lobby-level'), 'easy');
  await press(anna, tid('add-computer-1'));
  await anna.page.waitForSelector(`${tid('computer-1')}[data-level=easy]`);
  await press(anna, tid('start'));
  await anna.page.waitForFunction(() => window.__jass.view?.game);
  await press(anna, tid('manage-seats'));
  await anna.page.waitForSelector(tid('seat-manager'));
  await press(anna, tid('mg-free-1'));
  await anna.page.waitForSelector(tid('mg-add-computer-1'));
  await anna.page.selectOption(tid('mg-level'), 'strong');
  await shot(anna, 'seat-manager-level-de');
  await press(anna, tid('mg-add-computer-1'));
  await anna.page.waitForFunction(() => window.__jass.view.seats[1].level === 'strong');
  await press(anna, tid('close-manage'));
  await anna.page.waitForSelector(`${tid('computer-1')}[data-level=strong]`);
  await shot(anna, 'game-levels-de');
  await anna.ctx.close();
  assert.deepEqual(errors, []);
});

test('a seat moves to a second browser context with the other-device link', { timeout: 120_000 }, async () => {
  const created = await server.post('/api/tables', { name: 'Mia', preset: 'to_1000', computers: true });
  const { table, token } = created;
  const first = await openSeat('Mia phone', table, token, { size: PHONE, locale: 'de-DE' });
  await press(first, tid('other-device-btn'));
  await first.page.waitForSelector(tid('other-device'));
  await first.page.waitForSelector(`${tid('other-device')} svg.qr path`);
  const link = await first.page.inputValue(tid('device-link'));
  assert.equal(link, `${server.base}/t/${table}#seat=${encodeURIComponent(token)}`);
  await shot(first, 'other-device-de');

  const second = await openPage(browser, 'Mia laptop', { size: DESKTOP, errors });
  await second.page.goto(link);
  await second.page.waitForFunction(() => window.__jass?.view?.game && window.__jass.status === 'open');
  // The fragment is read, kept like a joined token and taken out of the address bar.
  assert.equal(await second.page.evaluate(() => location.hash), '');
  assert.equal(await second.page.evaluate((t) => JSON.parse(localStorage.getItem(`jass:${t}`)).token, table), token);
  assert.equal((await view(second)).view.you, 0);
  assert.ok(second.requests.every((u) => !u.includes(token)), 'the token is never in a request line');
  // The first page is replaced.
  await first.page.waitForSelector(tid('message'));
  assert.match(await first.page.textContent(tid('message')), /übernommen/);
  // The second plays the seat.
  const v = await myTurn(second);
  await decide(second, v);
  // The other-device panel in English, on the desktop.
  await press(second, tid('other-device-btn'));
  await second.page.waitForSelector(`${tid('other-device')} svg.qr path`);
  await shot(second, 'other-device-en');
  await first.ctx.close();
  await second.ctx.close();
  assert.deepEqual(errors, []);
});
