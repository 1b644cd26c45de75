// The service worker: the installed table opens without a
// network to a "waiting for connection" page, and the static client comes from the
// cache when the network fails. The network always goes first, so a new client is
// picked up at once; the cache is only the fallback. The table's live state is never
// cached: /api/, /ws/ and /healthz go past this worker untouched.

// Bump when the list below changes; old caches are dropped on activation.
const VERSION = 'jass-static-v7';

const STATIC = [
  '/', '/offline.html', '/offline.js', '/style.css', '/app.js', '/start.js', '/view.js', '/review.js', '/net.js', '/i18n.js',
  '/state.js', '/page.js', '/connection.js', '/actions.js', '/keys.js', '/routing.js', '/cues.js', '/history.js', '/held.js',
  '/record.js', '/review-actions.js', '/dom.js', '/labels.js', '/levels.js', '/topbar.js', '/seats.js', '/trick.js',
  '/rounds.js', '/panels.js', '/share.js', '/options.js', '/lobby.js', '/game.js',
  '/cards.js', '/jasstafel.js', '/pwa.js', '/vendor/qrcode.js', '/manifest.webmanifest',
  '/icons/icon.svg', '/icons/icon-192.png', '/icons/icon-512.png', '/icons/icon-maskable-512.png',
];

/** Requests this worker never answers: live table state, the socket, the health check. */
function live(url) {
  return url.pathname.startsWith('/api/') || url.pathname.startsWith('/ws/') || url.pathname === '/healthz';
}

self.addEventListener('install', (ev) => {
  ev.waitUntil(caches.open(VERSION).then((c) => c.addAll(STATIC)).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (ev) => {
  ev.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k !== VERSION).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

self.addEventListener('fetch', (ev) => {
  const req = ev.request;
  const url = new URL(req.url);
  if (req.method !== 'GET' || url.origin !== self.location.origin || live(url)) return;
  if (req.mode === 'navigate') {
    // Every page is index.html; offline it is the waiting page instead, which
    // reloads itself when the server answers again. Past the HTTP cache, so an
    // unreachable server is noticed here and not hidden behind a stored page.
    ev.respondWith(fetch(req.url, { cache: 'no-store', credentials: 'same-origin' })
      .catch(() => caches.match('/offline.html')));
    return;
  }
  ev.respondWith(fetch(req).then((res) => {
    // Card images and the like join the cache as they are first used.
    if (res.ok && res.type === 'basic') {
      const copy = res.clone();
      caches.open(VERSION).then((c) => c.put(req, copy));
    }
    return res;
  }).catch(() => caches.match(req).then((hit) => hit || Response.error())));
});
