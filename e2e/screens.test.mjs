// Every screen, on both sizes, in both languages and with both decks: the
// start page, the join page, the lobby and its QR code from the real server, the game's screens
// (the table mid-trick, the contract dialog, a full trick with Weis, the round
// summary, game over, the other-device panel) from canned views (preview.mjs) drawn
// by the same client. axe-core must find no serious or critical violation on any of
// them; the screenshots go to e2e/artifacts/screen-*.png (listed in README.md).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { startServer } from './lib/server.mjs';
import { launch, DESKTOP, PHONE } from './lib/browser.mjs';
import { openPage, press, tid, serveRounds } from './lib/pages.mjs';
import { axeViolations } from './lib/axe.mjs';
import { smallTargets } from './lib/targets.mjs';
import { SCENES, lastRoundTricks } from './preview.mjs';

const ARTIFACTS = new URL('./artifacts/', import.meta.url).pathname;

let server;
let browser;
let host; // the lobby's table, held by this test's pages at seat 0
let other; // a table with free seats, for the join page

before(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  server = await startServer();
  browser = await launch();
  host = await server.post('/api/tables', { name: 'Anna', preset: 'swisslos' });
  await server.post(`/api/tables/${host.table}/seats`, { name: 'Ben', seat: 1 });
  await server.post(`/api/tables/${host.table}/seats`, { name: 'Dan', seat: 3 });
  other = await server.post('/api/tables', { name: 'Carla', preset: 'manual' });
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

const DECKS = { french: 'french', swiss: 'swiss_swisslos' };

/** A canned view with the table deck of `deck` (the display follows the page's choice). */
function scene(name, deck, over = {}) {
  const m = structuredClone(SCENES[name]);
  m.view.options.deck = DECKS[deck];
  if (m.view.game) Object.assign(m.view.game, over);
  return m;
}

/** The screens in order: each brings the page to it. */
const SCREENS = {
  start: async (p) => { await p.page.goto(`${server.base}/`); await p.page.waitForSelector(tid('start-form')); },
  join: async (p) => { await p.page.goto(`${server.base}/t/${other.table}`); await p.page.waitForSelector(tid('join')); },
  lobby: async (p) => { await p.page.goto(`${server.base}/t/${host.table}`); await p.page.waitForSelector(tid('lobby')); },
  'share-qr': async (p) => { await press(p, tid('share-qr-btn')); await p.page.waitForSelector(`${tid('share-qr')} svg.qr`); },
  game: (p, deck) => render(p, scene('playing', deck)),
  contract: (p, deck) => render(p, scene('choosing', deck, { round: 0, last_round: null, rounds_played: 0, totals: [0, 0] })),
  trick: (p, deck) => render(p, scene('trick3', deck)),
  summary: (p, deck) => render(p, scene('choosing', deck)),
  // The summary's browser of the round's tricks (from the rounds list), at the ninth.
  'summary-tricks': async (p, deck) => {
    await render(p, scene('choosing', deck));
    await press(p, tid('browse-tricks'));
    for (let i = 0; i < 8; i++) await press(p, tid('trick-next'));
    await p.page.waitForSelector(`${tid('tricks-title')}:has-text("9")`);
  },
  over: (p, deck) => render(p, scene('over', deck)),
  'other-device': async (p, deck) => {
    await p.page.evaluate(() => { window.__jass.ui.otherDevice = { url: `${location.origin}/t/k3v9q2x7m4p8r6t1w5y0z2b8#seat=example-token` }; });
    await render(p, scene('playing', deck));
    await p.page.waitForSelector(tid('other-device'));
  },
};

async function render(p, msg) {
  await p.page.evaluate((m) => window.__jassRender(m), msg);
  await p.page.waitForSelector(tid('table'));
  // Let transitions and card images settle before a picture.
  await p.page.evaluate(() => Promise.all([...document.images].map((i) => (i.complete ? null : new Promise((r) => { i.onload = r; i.onerror = r; })))));
}

/** A page in `lang` with `deck` cards, holding the lobby's host seat. */
async function pageFor(size, lang, deck, errors) {
  const p = await openPage(browser, `${lang}-${deck}-${size.width}`, {
    size,
    locale: lang === 'de' ? 'de-CH' : 'en-US',
    errors,
    init: {
      fn: ([table, token, l, d]) => {
        localStorage.setItem(`jass:${table}`, JSON.stringify({ seat: 0, token }));
        localStorage.setItem('jass:lang', l);
        localStorage.setItem('jass:cards', d);
      },
      arg: [host.table, host.token, lang, deck],
    },
  });
  // The canned summary's tricks (the client asks the server for them).
  await serveRounds(p.ctx, lastRoundTricks);
  return p;
}

const SIZES = { phone: PHONE, desktop: DESKTOP };

/**
 * Brings a page to every screen, on both sizes and in both languages (French cards),
 * and collects what `check(page, where)` finds on each; no page may log an error.
 */
async function findOnEveryScreen(check) {
  const found = [];
  for (const [sizeName, size] of Object.entries(SIZES)) {
    for (const lang of ['en', 'de']) {
      const errors = [];
      const p = await pageFor(size, lang, 'french', errors);
      try {
        for (const [name, go] of Object.entries(SCREENS)) {
          await go(p, 'french');
          found.push(...await check(p, `${name} ${sizeName} ${lang}`, name));
        }
      } finally {
        await p.ctx.close();
      }
      assert.deepEqual(errors, []);
    }
  }
  return found;
}

// axe-core on the start, lobby and game screens (and the others).
test('axe-core finds no serious or critical violation on any screen', { timeout: 180_000 }, async () => {
  const found = await findOnEveryScreen(async (p, where) => (await axeViolations(p.page)).map((v) => `${where}: ${v}`));
  assert.deepEqual(found, []);
});

// Every tap target of every screen is at least 44×44, on the phone and on the desktop,
// in both languages: beyond the game screen, the start page's inputs (39–41 px high),
// "more options" (31), the join page's "watch only" (40), the sound toggle and the
// summary's close button (40) were smaller.
test('every tap target of every screen is at least 44×44', { timeout: 180_000 }, async () => {
  const found = await findOnEveryScreen(async (p, where, name) => {
    const small = (await smallTargets(p.page)).map((b) => `${where}: ${b}`);
    if (name === 'start') {
      await press(p, tid('more-options-toggle'));
      small.push(...(await smallTargets(p.page)).map((b) => `${where}, more options: ${b}`));
    }
    return small;
  });
  assert.deepEqual(found, []);
});

// The screenshot matrix (screen × size × language × deck).
test('screenshots of every screen on both sizes, in both languages, with both decks', { timeout: 300_000 }, async () => {
  const taken = [];
  for (const [sizeName, size] of Object.entries(SIZES)) {
    for (const lang of ['en', 'de']) {
      for (const deck of Object.keys(DECKS)) {
        const errors = [];
        const p = await pageFor(size, lang, deck, errors);
        try {
          for (const [name, go] of Object.entries(SCREENS)) {
            await go(p, deck);
            assert.equal(await p.page.evaluate(() => document.documentElement.lang), lang);
            // Nothing wider than the screen: no sideways scrolling.
            const w = await p.page.evaluate(() => document.documentElement.scrollWidth);
            assert.ok(w <= size.width, `${name} ${sizeName} ${lang} ${deck}: page ${w} px wide on a ${size.width} px screen`);
            const file = `screen-${name}-${sizeName}-${lang}-${deck}.png`;
            await p.page.screenshot({ path: `${ARTIFACTS}${file}`, fullPage: true });
            taken.push(file);
          }
        } finally {
          await p.ctx.close();
        }
        assert.deepEqual(errors, []);
      }
    }
  }
  assert.equal(taken.length, Object.keys(SCREENS).length * 2 * 2 * 2);
});
