// Canned views on the real client: a static server for web/ and a browser, shared by
// the layout tests (which render lib/scenes15.mjs's views with window.__jassRender).
import { before, after } from 'node:test';
import { mkdirSync } from 'node:fs';
import { startStatic } from './static.mjs';
import { launch, PHONE } from './browser.mjs';
import { serveRounds } from './pages.mjs';
import { ROUND_TRICKS } from './scenes15.mjs';

export const ARTIFACTS = new URL('../artifacts/', import.meta.url).pathname;

/** Starts the static server and the browser before the file's tests, ends them after. */
export function cannedSuite() {
  const suite = {};
  before(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    suite.server = await startStatic();
    suite.base = `http://127.0.0.1:${suite.server.address().port}`;
    suite.browser = await launch();
  });
  after(async () => {
    await suite.browser?.close();
    suite.server?.close();
  });
  return suite;
}

/**
 * A page of the client at `size` (touch on a phone); reduced motion unless `motion`
 * (boxes are measured at rest). Errors it logs are in `page.errors`.
 */
export async function openCanned(suite, size, { lang = 'en', deck = 'french', motion = false } = {}) {
  const phone = size === PHONE;
  const ctx = await suite.browser.newContext({
    viewport: size, hasTouch: phone, isMobile: phone, reducedMotion: motion ? 'no-preference' : 'reduce',
  });
  await ctx.addInitScript(([l, d]) => {
    localStorage.setItem('jass:lang', l);
    localStorage.setItem('jass:cards', d);
  }, [lang, deck]);
  // The canned summary's tricks (the client asks the server for them); the start page,
  // passed on the way to a canned table, asks for the presets.
  await serveRounds(ctx, ROUND_TRICKS);
  await ctx.route('**/api/presets', (r) => r.fulfill({ json: { default: 'swisslos', presets: [] } }));
  const page = await ctx.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto(`${suite.base}/`);
  page.errors = errors;
  return page;
}

/** Waits until every image of the page has loaded, so boxes have their final size. */
export function imagesLoaded(page) {
  return page.evaluate(() => Promise.all([...document.images].map((i) => (i.complete ? 0 : new Promise((r) => { i.onload = r; i.onerror = r; })))));
}
