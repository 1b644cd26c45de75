// The page the service worker shows when a page is opened without a network:
// it says so in the chosen language and reloads the real page as soon as
// the server answers its health check.
import { t, getLang } from './i18n.js';

document.documentElement.lang = getLang();
for (const el of document.querySelectorAll('[data-text]')) el.textContent = t(el.dataset.text);

async function reachable() {
  try {
    const r = await fetch('/healthz', { cache: 'no-store' });
    return r.ok;
  } catch {
    return false;
  }
}

async function check() {
  if (await reachable()) location.reload();
}

window.addEventListener('online', check);
setInterval(check, 3000);
