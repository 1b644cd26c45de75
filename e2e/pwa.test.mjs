// Install and share, against the real jass-server (its headers,
// its content types): the manifest and its icons are served and parsed, Chromium
// finds the page installable, the service worker registers and takes control, caches
// the static client under a versioned name and never /api or /ws, a page opened
// offline shows the waiting page and turns into the table when the network is back,
// and the lobby's share link goes to the native share sheet (where there is one) and
// to a QR code of exactly the table link.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { startServer } from './lib/server.mjs';
import { launch, DESKTOP, PHONE } from './lib/browser.mjs';
import { openPage, press, tid } from './lib/pages.mjs';
import qrcode from '../web/vendor/qrcode.js';

const ARTIFACTS = new URL('./artifacts/', import.meta.url).pathname;

let server;
let browser;

before(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  server = await startServer();
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

function createTable(name = 'Anna') {
  return server.post('/api/tables', { name, preset: 'swisslos' });
}

/** A page holding `token` for `table`, as if it had created the table itself. */
function seatInit(table, token) {
  return { fn: ([t, k]) => localStorage.setItem(`jass:${t}`, JSON.stringify({ seat: 0, token: k })), arg: [table, token] };
}

/** Width and height of a PNG, from its IHDR chunk. */
function pngSize(buf) {
  assert.equal(buf.subarray(1, 4).toString(), 'PNG');
  return [buf.readUInt32BE(16), buf.readUInt32BE(20)];
}

// The manifest and the icons it names.
test('the web app manifest and its icons are served and complete', async () => {
  const r = await fetch(`${server.base}/manifest.webmanifest`);
  assert.equal(r.status, 200);
  assert.match(r.headers.get('content-type'), /^application\/manifest\+json/);
  const m = await r.json();
  assert.equal(m.start_url, '/');
  assert.equal(m.display, 'standalone');
  assert.ok(m.name && m.short_name);
  const want = new Map([['any 192x192', false], ['any 512x512', false], ['maskable 512x512', false]]);
  for (const icon of m.icons.filter((i) => i.type === 'image/png')) {
    const res = await fetch(`${server.base}${icon.src}`);
    assert.equal(res.status, 200, icon.src);
    assert.equal(res.headers.get('content-type'), 'image/png');
    const [w, h] = pngSize(Buffer.from(await res.arrayBuffer()));
    assert.equal(`${w}x${h}`, icon.sizes, icon.src);
    want.set(`${icon.purpose} ${icon.sizes}`, true);
  }
  assert.deepEqual([...want].filter(([, ok]) => !ok), [], 'a 192, a 512 and a maskable 512 PNG');
  const sw = await fetch(`${server.base}/sw.js`);
  assert.equal(sw.status, 200);
  assert.match(sw.headers.get('content-type'), /javascript/);
});

// Installable, the worker in control, the cache versioned and static only.
test('the service worker registers, controls the page and caches the static client only', async () => {
  const errors = [];
  const p = await openPage(browser, 'Installer', { size: PHONE, errors });
  try {
    await p.page.goto(`${server.base}/`);
    const scope = await p.page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
    assert.equal(scope, `${server.base}/`);
    const cdp = await p.ctx.newCDPSession(p.page);
    const man = await cdp.send('Page.getAppManifest');
    assert.deepEqual(man.errors, [], JSON.stringify(man.errors));
    assert.ok(man.url.endsWith('/manifest.webmanifest'));
    // Playwright's contexts are incognito profiles, where Chromium never offers to
    // install; every other criterion (manifest, icons, worker) must hold.
    const inst = (await cdp.send('Page.getInstallabilityErrors')).installabilityErrors.filter((e) => e.errorId !== 'in-incognito');
    assert.deepEqual(inst, [], JSON.stringify(inst));

    // A table page, so /api and /ws are used under the worker's control.
    const t = await createTable();
    await p.ctx.addInitScript(seatInit(t.table, t.token).fn, seatInit(t.table, t.token).arg);
    await p.page.goto(`${server.base}/t/${t.table}`);
    await p.page.waitForFunction(() => window.__jass?.view && window.__jass.status === 'open');
    assert.ok(await p.page.evaluate(() => !!navigator.serviceWorker.controller), 'the worker controls the table page');
    const cached = await p.page.evaluate(async () => {
      const out = {};
      for (const k of await caches.keys()) out[k] = (await (await caches.open(k)).keys()).map((r) => new URL(r.url).pathname);
      return out;
    });
    const names = Object.keys(cached);
    assert.equal(names.length, 1, `one cache: ${names}`);
    assert.match(names[0], /^jass-static-v\d+$/);
    const paths = cached[names[0]];
    for (const must of ['/', '/offline.html', '/app.js', '/style.css', '/manifest.webmanifest']) assert.ok(paths.includes(must), must);
    assert.deepEqual(paths.filter((x) => x.startsWith('/api/') || x.startsWith('/ws/') || x.startsWith('/t/')), []);
    assert.deepEqual(errors, []);
  } finally {
    await p.ctx.close();
  }
});

/** The QR code's dark modules as `qrSvg` draws them, for the same text. */
function qrPath(text) {
  const qr = qrcode(0, 'M');
  qr.addData(text);
  qr.make();
  let d = '';
  for (let r = 0; r < qr.getModuleCount(); r++) {
    for (let c = 0; c < qr.getModuleCount(); c++) if (qr.isDark(r, c)) d += `M${c + 4} ${r + 4}h1v1h-1z`;
  }
  return d;
}

// The native share sheet where the browser has one, and a QR code of the link.
test('the lobby shares the table link by the native share sheet and by a QR code', async () => {
  const t = await createTable();
  const link = `${server.base}/t/${t.table}`;
  // A browser without the Web Share API (desktop Linux Chromium): no share button.
  const errors = [];
  const ben = await server.post(`/api/tables/${t.table}/seats`, { name: 'Ben', seat: 1 });
  const plain = await openPage(browser, 'Plain', { size: DESKTOP, errors, init: seatInit(t.table, ben.token) });
  // A phone with one: the button calls it with the table link.
  const phone = await openPage(browser, 'Sharer', {
    size: PHONE,
    errors,
    init: {
      fn: ([table, token]) => {
        localStorage.setItem(`jass:${table}`, JSON.stringify({ seat: 0, token }));
        window.__shared = [];
        navigator.share = (data) => { window.__shared.push(data); return Promise.resolve(); };
      },
      arg: [t.table, t.token],
    },
  });
  try {
    for (const p of [plain, phone]) {
      await p.page.goto(link);
      await p.page.waitForSelector(tid('share-link'));
    }
    assert.equal(await plain.page.$(tid('share-btn')), null, 'no share button without navigator.share');
    await press(phone, tid('share-btn'));
    await phone.page.waitForFunction(() => window.__shared.length === 1);
    const shared = await phone.page.evaluate(() => window.__shared[0]);
    assert.equal(shared.url, link);
    assert.ok(shared.title);
    for (const p of [plain, phone]) {
      await press(p, tid('share-qr-btn'));
      await p.page.waitForSelector(`${tid('share-qr')} svg.qr path`);
      assert.equal(await p.page.getAttribute(`${tid('share-qr')} svg.qr path`, 'd'), qrPath(link), 'the QR code holds the table link');
      const box = await p.page.locator(`${tid('share-qr')} svg.qr`).boundingBox();
      assert.ok(box.width >= 150, `QR code ${box.width} px wide`);
      await p.page.screenshot({ path: `${ARTIFACTS}share-qr-${p.phone ? 'phone' : 'desktop'}.png` });
      await press(p, tid('close-share-qr'));
      await p.page.waitForSelector(tid('share-qr'), { state: 'detached' });
    }
    assert.deepEqual(errors, []);
  } finally {
    await plain.ctx.close();
    await phone.ctx.close();
  }
});

// Opened while the server cannot be reached, the waiting page; when
// it answers again, the table. (The server is stopped and started again on the same
// port and database: Chromium's offline emulation does not reach a service worker's
// own fetches, so it could not tell the cache from the network.)
test('offline, the installed table opens to the waiting page and reloads into the table', { timeout: 90_000 }, async () => {
  for (const [lang, text] of [['en-US', 'Waiting for connection'], ['de-CH', 'Warte auf Verbindung']]) {
    const t = await createTable();
    const p = await openPage(browser, `Offline ${lang}`, { size: PHONE, locale: lang, init: seatInit(t.table, t.token) });
    try {
      await p.page.goto(`${server.base}/t/${t.table}`);
      await p.page.evaluate(async () => { await navigator.serviceWorker.ready; });
      await p.page.waitForFunction(() => window.__jass?.view && window.__jass.status === 'open');
      const { port, db } = server;
      await server.stop();
      await p.page.goto(`http://127.0.0.1:${port}/t/${t.table}`);
      await p.page.waitForSelector(tid('offline-page'));
      assert.match(await p.page.textContent(tid('offline-page')), new RegExp(text));
      assert.equal(await p.page.evaluate(() => document.documentElement.lang), lang.slice(0, 2));
      await p.page.screenshot({ path: `${ARTIFACTS}offline-${lang.slice(0, 2)}-phone.png` });
      server = await startServer([], { port, db });
      // The waiting page looks every 3 s (and on "online") and reloads into the table.
      await p.page.waitForFunction(() => window.__jass?.page === 'table' || window.__jass?.page === 'join', null, { timeout: 20_000 });
      assert.equal(await p.page.$(tid('offline-page')), null);
    } finally {
      await p.ctx.close();
    }
  }
});
