// Registers the service worker (sw.js) that makes the table installable and lets
// it open offline to a waiting page. Nothing else depends on it:
// without service workers the client works as before.
if ('serviceWorker' in navigator) {
  window.addEventListener('load', () => {
    navigator.serviceWorker.register('/sw.js').catch(() => { /* the client works without it */ });
  });
}
