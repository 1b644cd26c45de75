// The game screen's layout against the real jass-server: a phone and a desktop page
// each play rounds against three computers (--computer-think-ms 0). Whenever the
// page must choose trump its whole hand is in the viewport; during play the top bar
// names who chose trump; after the 36th card the ninth trick (from the view's
// `game.last_round_trick`) shows before the summary, and the summary browses all
// nine tricks (from `GET /api/tables/{table}/rounds`), also after a reload.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { startServer } from './lib/server.mjs';
import { launch, DESKTOP, PHONE } from './lib/browser.mjs';
import { openPage, press, view, tid } from './lib/pages.mjs';

const ARTIFACTS = new URL('./artifacts/', import.meta.url).pathname;

let server;
let browser;

before(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  server = await startServer(['--computer-think-ms', '0', '--computer-budget-ms', '20', '--computer-playouts', '100']);
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

async function handInView(p) {
  return p.page.evaluate(() => {
    const vh = window.innerHeight;
    const vw = window.innerWidth;
    return [...document.querySelectorAll('[data-testid=hand] button[data-card] img')].every((i) => {
      const r = i.getBoundingClientRect();
      return r.top >= 0 && r.left >= 0 && r.bottom <= vh + 0.5 && r.right <= vw + 0.5;
    });
  });
}

/**
 * Notes, in order, each round's ninth trick shown whole with its winner and the
 * round's summary, as they appear on the page (keyed by `last_round.round`).
 */
function recordSequence() {
  window.__seq = [];
  const add = (k) => { if (!window.__seq.includes(k)) window.__seq.push(k); };
  const mark = () => {
    const r = window.__jass?.view?.game?.last_round?.round;
    if (r == null) return;
    const ninth = document.querySelector('[data-testid=trick][data-trick="8"].completed');
    if (ninth && ninth.querySelectorAll('[data-testid^=trick-card-]').length === 4 && ninth.querySelector('[data-testid=trick-winner]')) add(`ninth:${r}`);
    if (document.querySelector('[data-testid=round-summary]')) add(`summary:${r}`);
  };
  document.addEventListener('DOMContentLoaded', () => {
    new MutationObserver(mark).observe(document.body, { subtree: true, childList: true });
  });
}

for (const [label, size, locale] of [['phone', PHONE, 'de-DE'], ['desktop', DESKTOP, 'en-US']]) {
  test(`${label}: hand in view while choosing, chooser named, the round's tricks after it`, { timeout: 120_000 }, async (t) => {
    const errors = [];
    const p = await openPage(browser, label, { size, locale, errors, init: { fn: recordSequence } });
    await p.page.goto(`${server.base}/`);
    await p.page.fill(tid('name-input'), 'Sofia');
    await p.page.selectOption(tid('preset-select'), 'to_1000');
    await press(p, tid('play-computers'));
    await p.page.waitForFunction(() => window.__jass?.view?.game && window.__jass.status === 'open');
    let chose = 0;
    let named = 0;
    let browsed = 0;
    let lastSeen = null;
    let reloaded = false;
    for (let moves = 0; !browsed || !chose; moves++) {
      assert.ok(moves < 400, 'a summary to browse within the game');
      await p.page.waitForFunction(() => {
        const a = window.__jass;
        const g = a?.view?.game;
        if (!g || a.status !== 'open') return false;
        if (g.phase === 'over') return true;
        return g.to_act === g.seat && (g.allowed.cards.length > 0 || g.allowed.choose || g.allowed.schiebe);
      });
      const { view: v, version } = await view(p);
      const g = v.game;
      if (g.phase === 'over') break;
      // The summary shows while the next contract is chosen (here: this page chooses).
      if (g.phase === 'choosing' && g.last_round && g.last_round.round !== lastSeen) {
        lastSeen = g.last_round.round;
        browsed += 1;
        // The ninth trick first, then the summary, which browses the round's nine tricks.
        await p.page.waitForSelector(tid('round-summary'), { timeout: 5000 });
        // The view carries the ninth trick only (the server's rounds list has all nine).
        assert.equal(g.last_round_trick?.trick, 8, 'the view carries the ninth trick');
        const seq = await p.page.evaluate(() => window.__seq);
        const r = g.last_round.round;
        assert.ok(seq.includes(`ninth:${r}`) && seq.indexOf(`ninth:${r}`) < seq.indexOf(`summary:${r}`), `ninth trick before the summary: ${seq}`);
        if (!reloaded) {
          // After a reload the summary comes at once, still with all nine.
          reloaded = true;
          await p.page.reload();
          await p.page.waitForFunction(() => window.__jass?.view?.game && window.__jass.status === 'open');
          await p.page.waitForSelector(tid('round-summary'), { timeout: 5000 });
        }
        await press(p, tid('browse-tricks'));
        await p.page.waitForSelector(tid('tricks-panel'));
        const n = await p.page.evaluate(() => {
          const m = document.querySelector('[data-testid=browse-tricks]').textContent.match(/\((\d+)\)/);
          return Number(m?.[1]);
        });
        assert.equal(n, 9, 'all nine tricks to browse');
        for (let i = 0; i < 8; i++) await press(p, tid('trick-next'));
        assert.match(await p.page.textContent(tid('tricks-title')), /9/);
        const rounds = await (await fetch(`${server.base}/api/tables/${v.table}/rounds`)).json();
        const last = rounds.last_round_tricks[8];
        assert.ok((await p.page.textContent(tid('tricks-winner'))).includes(v.seats[last.winner].name));
        await p.page.screenshot({ path: `${ARTIFACTS}layout-live-tricks-${label}.png` });
        await press(p, tid('close-tricks'));
      }
      if (g.allowed.choose || g.allowed.schiebe) {
        await p.page.waitForSelector(tid('contract-dialog'));
        assert.ok(await handInView(p), 'the whole hand is in view while choosing');
        if (!chose) await p.page.screenshot({ path: `${ARTIFACTS}layout-live-contract-${label}.png` });
        chose += 1;
        await press(p, tid(g.allowed.choose ? 'contract-obenabe' : 'schiebe'));
      } else {
        // The top bar says who chose trump (and whether it was pushed), once a ninth
        // trick still on show (the finished round's bar) has gone.
        await p.page.waitForFunction(() => !window.__jass.ui.pause);
        const name = v.seats[g.chosen_by].name;
        const chip = await p.page.textContent(tid('chosen-by'));
        assert.ok(chip.includes(name), `chip "${chip}" names ${name}`);
        assert.equal(await p.page.locator(tid('pushed')).count(), g.pushed ? 1 : 0);
        named += 1;
        await press(p, tid(`card-${g.allowed.cards[0]}`), { position: { x: 12, y: 30 } });
      }
      await p.page.waitForFunction((b) => window.__jass.version > b, version);
    }
    assert.ok(named > 0);
    t.diagnostic(`chose ${chose} times, played ${named} cards`);
    assert.deepEqual(errors, []);
    await p.ctx.close();
  });
}
