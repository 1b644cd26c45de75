// Pages for the browser tests: a context per player (its own localStorage), a
// CSP-safe waitForFunction, and every console error or failed request collected.
import { DESKTOP, PHONE } from './browser.mjs';

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
export const tid = (id) => `[data-testid="${id}"]`;

/**
 * Opens a page in a new context. `size` DESKTOP or PHONE (a phone gets touch),
 * `locale` e.g. 'de-DE' (the client picks German from it), `errors` collects problems.
 */
export async function openPage(browser, label, { size = DESKTOP, locale = 'en-US', errors = [], init } = {}) {
  const phone = size === PHONE;
  const ctx = await browser.newContext({ viewport: size, locale, hasTouch: phone, isMobile: phone });
  if (init) await ctx.addInitScript(init.fn, init.arg);
  const page = await ctx.newPage();
  // The server's Content-Security-Policy forbids eval, which Playwright's own
  // waitForFunction polling uses; poll with evaluate instead (not subject to the CSP).
  page.waitForFunction = async (fn, arg, { timeout = 30_000 } = {}) => {
    const end = Date.now() + timeout;
    for (;;) {
      const ok = await page.evaluate(fn, arg).catch((e) => {
        if (/context was destroyed|navigation/i.test(String(e))) return false;
        throw e;
      });
      if (ok) return ok;
      if (Date.now() > end) throw new Error(`${label}: waitForFunction timed out after ${timeout} ms: ${fn}`);
      await sleep(50);
    }
  };
  // `offline` and `reloading` are set by a test around what it does to the page: a
  // page without network, or one reloading (which cancels its image loads), fails
  // requests on purpose.
  const p = { label, phone, size: phone ? 'phone' : 'desktop', ctx, page, offline: false, reloading: false, requests: [] };
  page.on('console', (m) => { if (m.type() === 'error' && !p.offline) errors.push(`${label} console: ${m.text()}`); });
  page.on('pageerror', (e) => errors.push(`${label} page error: ${e.message}`));
  page.on('request', (r) => p.requests.push(r.url()));
  page.on('requestfailed', (r) => {
    const why = r.failure()?.errorText || '';
    if (p.offline || (p.reloading && why.includes('ERR_ABORTED'))) return;
    errors.push(`${label} request failed: ${r.url()} ${why}`);
  });
  page.on('response', (r) => { if (r.status() >= 400) errors.push(`${label} HTTP ${r.status()} ${r.url()}`); });
  return p;
}

/**
 * A page holding a seat of `table` by its token, as if it had joined itself: the
 * token is put where the client keeps it before the page loads. `base` is the
 * server's address; `opts` as for `openPage`, and `seat` the seat to record (null:
 * the token alone tells the server).
 */
export async function openSeat(browser, base, label, table, token, { seat = null, ...opts } = {}) {
  const p = await openPage(browser, label, {
    ...opts,
    init: {
      fn: ([t, s, k]) => {
        if (!localStorage.getItem(`jass:${t}`)) localStorage.setItem(`jass:${t}`, JSON.stringify({ seat: s, token: k }));
      },
      arg: [table, seat, token],
    },
  });
  await p.page.goto(`${base}/t/${table}`);
  await p.page.waitForFunction(() => window.__jass?.view && window.__jass.status === 'open');
  return p;
}

/** Clicks, or taps on a touch phone. */
export async function press(p, selector, opts = {}) {
  if (p.phone) await p.page.tap(selector, opts);
  else await p.page.click(selector, opts);
}

export async function view(p) {
  return p.page.evaluate(() => ({ version: window.__jass?.version, view: window.__jass?.view, status: window.__jass?.status }));
}

/**
 * Waits up to `ms` until every page holds a view of the same state version, at least
 * `min`, over an open connection; returns their states. If they never do, the error
 * names each page's version and connection status, so a move that was lost and a
 * connection that was lost tell apart.
 */
export async function settle(players, min = 0, ms = 30_000) {
  const until = Date.now() + ms;
  let last;
  for (;;) {
    const ss = await Promise.all(players.map(view));
    last = ss.map((s) => `${s.version}/${s.status}`);
    if (ss.every((s) => s.view && s.status === 'open' && s.version === ss[0].version) && ss[0].version >= min) return ss;
    if (Date.now() > until) break;
    await sleep(20);
  }
  throw new Error(`pages did not agree on a state of version ${min} or later within ${ms} ms: ${JSON.stringify(last)}`);
}

/**
 * Answers a canned scene's `GET /api/tables/{table}/rounds` (the client asks for the
 * finished round's tricks when its summary shows): the page's current `last_round`,
 * with `tricks` as its tricks. `target` is a page or a context.
 */
export async function serveRounds(target, tricks) {
  await target.route('**/api/tables/*/rounds', async (route) => {
    const page = route.request().frame().page();
    const v = await page.evaluate(() => window.__jass?.view).catch(() => null);
    const lr = v?.game?.last_round;
    await route.fulfill({ json: { table: v?.table ?? '', game: v?.games ?? 0, rounds: lr ? [lr] : [], last_round_tricks: lr ? tricks : [] } });
  });
}
