// Liveness you can trust (protocol.md 2), in Chromium against the real server: a
// page that goes offline is shown away to the others within about 15 s; a card
// tapped while it is offline is sent when it is back and taken; a page whose socket
// silently stops delivering (open, but nothing comes through) notices by its own
// heartbeat, reconnects by itself and does not lose the tap made into it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { startServer } from './lib/server.mjs';
import { launch } from './lib/browser.mjs';
import { openSeat, settle, tid } from './lib/pages.mjs';
const ARTIFACTS = new URL('./artifacts/', import.meta.url).pathname;

let server;
let browser;
const errors = [];

before(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  server = await startServer();
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

/** The seat to act makes a plain move by clicking: Obenabe, or its first legal card. */
async function move(players, ss) {
  const g0 = ss[0].view.game;
  const i = ss.findIndex((s) => s.view.you === g0.to_act);
  const p = players[i];
  const g = ss[i].view.game;
  if (g.allowed.choose) {
    await p.page.click(tid('contract-obenabe'));
  } else {
    await p.page.click(tid(`card-${g.allowed.cards[0]}`), { position: { x: 12, y: 30 } });
  }
  return settle(players, ss[i].version + 1);
}

/** Plays on until seat 1 (Ben) must play a card; returns the states then. */
async function untilBenPlays(players, ss) {
  for (let step = 0; step < 60; step++) {
    const g = ss[0].view.game;
    if (g.to_act === 1 && g.phase === 'playing') return ss;
    ss = await move(players, ss);
  }
  throw new Error('Ben never had to play');
}

test('an offline page is shown away, comes back by itself and keeps its tap', { timeout: 120_000 }, async (t) => {
  const created = await server.post('/api/tables', { name: 'Anna', preset: 'to_1000' });
  const table = created.table;
  const tokens = [created.token];
  for (const [seat, name] of [[1, 'Ben'], [2, 'Carla'], [3, 'Dan']]) {
    tokens.push((await server.post(`/api/tables/${table}/seats`, { name, seat })).token);
  }
  const players = [];
  for (const [i, name] of ['Anna', 'Ben', 'Carla', 'Dan'].entries()) players.push(await openSeat(browser, server.base, name, table, tokens[i], { seat: i, errors }));
  const [anna, ben] = players;
  let ss = await settle(players);
  await anna.page.click(tid('start'));
  ss = await settle(players, ss[0].version + 1);
  ss = await untilBenPlays(players, ss);

  // --- Ben's network goes away: the others see him away. When the
  // browser closes the socket that is at once; when the socket just goes silent, the
  // server shows him away once it has been silent for the away time (10 s), at most
  // 10 s after going offline, and the wait allows a loaded machine 10 s more.
  const t0 = Date.now();
  ben.offline = true;
  await ben.ctx.setOffline(true);
  await anna.page.waitForSelector(tid('offline-1'), { timeout: 20_000 });
  const away = Date.now() - t0;
  assert.ok(away <= 20_000, `shown away after ${away} ms`);
  t.diagnostic(`offline page shown away after ${away} ms`);
  await ben.page.waitForSelector(tid('conn-banner'));

  // While offline his table is stale: shown dimmed and not clickable, his own dot not
  // green (before, a tap was taken and kept for the next connection).
  const card = ss[1].view.game.allowed.cards[0];
  assert.equal(await ben.page.getAttribute('.screen.game', 'inert'), '', 'the stale table is inert');
  assert.match(await ben.page.getAttribute(tid('dot-1'), 'class'), /\boff\b/);
  await ben.page.screenshot({ path: `${ARTIFACTS}offline-tap-desktop.png` });
  await anna.page.screenshot({ path: `${ARTIFACTS}away-desktop.png` });

  // Back online: he reconnects by himself and plays the card.
  await ben.ctx.setOffline(false);
  await ben.page.waitForFunction(() => window.__jass.status === 'open', null, { timeout: 15_000 });
  ben.offline = false;
  await anna.page.waitForSelector(tid('offline-1'), { state: 'detached', timeout: 15_000 });
  await ben.page.waitForSelector(tid('conn-banner'), { state: 'detached' });
  await ben.page.click(tid(`card-${card}`), { position: { x: 12, y: 30 } });
  await ben.page.waitForFunction((c) => !window.__jass.view.game.hand.includes(c), card, { timeout: 15_000 });
  ss = await settle(players);
  assert.ok(ss[0].view.game.trick.cards.some((c) => c.card === card) || ss[0].view.game.last_trick?.cards.some((c) => c.card === card),
    'the card was played once back');
  assert.equal(await ben.page.$(tid('notice')), null, 'no refusal shown');

  // --- His socket silently stops delivering (open, but nothing comes through either
  // way): his own heartbeat notices within about 10 s, and the tap made into the dead
  // socket is sent again on the new one.
  ss = await untilBenPlays(players, ss);
  await ben.page.evaluate(() => {
    const ws = window.__jass.conn.ws;
    ws.send = () => {};
    ws.onmessage = null;
    window.__deadAt = Date.now();
  });
  const card2 = ss[1].view.game.allowed.cards[0];
  await ben.page.click(tid(`card-${card2}`), { position: { x: 12, y: 30 } });
  await ben.page.waitForFunction(() => window.__jass.status === 'reconnecting', null, { timeout: 11_500 });
  const noticed = await ben.page.evaluate(() => Date.now() - window.__deadAt);
  assert.ok(noticed <= 11_500, `dead connection noticed after ${noticed} ms`);
  t.diagnostic(`dead socket noticed by the heartbeat after ${noticed} ms`);
  await ben.page.waitForFunction((c) => window.__jass.status === 'open' && !window.__jass.view.game.hand.includes(c), card2, { timeout: 15_000 });
  ss = await settle(players);

  // And he plays on.
  ss = await untilBenPlays(players, ss);
  ss = await move(players, ss);
  assert.deepEqual(errors, []);
});
