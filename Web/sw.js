// The service worker: keeps the app's files so the page opens offline (docs/web.md). The network
// is asked first, so a new version is used as soon as it is served; the API (/v1/) and shared
// reports (/s/) are never kept here.
const CACHE = 'lifelog-app-v1';
const SHELL = [
  '/', '/index.html', '/app.js', '/app.css', '/manifest.webmanifest', '/icon.svg',
  '/i18n/en.json', '/i18n/pl.json', '/ui/i18n.js', '/ui/store.js', '/ui/view.js',
  '/core/activity.js', '/core/bytes.js', '/core/client.js', '/core/codec.js', '/core/due.js',
  '/core/envelope-loader.js', '/core/envelope.js', '/core/log-index.js', '/core/sodium.js', '/core/merge.js', '/core/pairing.js', '/core/replica.js',
  '/core/stamp.js', '/core/sync.js', '/core/time.js',
];

self.addEventListener('install', (event) => {
  // The encryption module too, when this server has it (a plain account never needs it).
  event.waitUntil(caches.open(CACHE)
    .then((cache) => cache.addAll(SHELL).then(() => cache.add('/sodium.wasm').catch(() => {})))
    .then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((key) => key !== CACHE).map((key) => caches.delete(key))))
    .then(() => self.clients.claim()));
});

self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== 'GET' || url.origin !== self.location.origin) return;
  if (url.pathname.startsWith('/v1/') || url.pathname.startsWith('/s/')) return;
  const key = url.pathname === '/' ? '/index.html' : url.pathname;
  event.respondWith(fetch(event.request).then((response) => {
    if (response.ok) {
      const copy = response.clone();
      caches.open(CACHE).then((cache) => cache.put(key, copy));
    }
    return response;
  }).catch(() => caches.match(key).then((cached) => cached ?? Response.error())));
});
