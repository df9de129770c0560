// The service worker (served at the site root by sitewide/install.py, so its
// scope is the whole site). It keeps the hashed static files: their names
// change with their content, so a cached copy is never stale and the cache
// can answer first. Everything else (pages, the API, sockets, any non-GET)
// goes to the network untouched: a page or a move must never be an old copy.

const CACHE = "tiles-static-v1";
// The static prefix comes from the registering page (settings.STATIC_URL).
const STATIC = new URL(self.location.href).searchParams.get("static") || "/static/";
// ManifestStaticFilesStorage names: "site.0123456789ab.css".
const HASHED = /\.[0-9a-f]{12}\.[^/.]+$/;

function cacheable(request) {
  if (request.method !== "GET") return false;
  const url = new URL(request.url);
  return url.origin === self.location.origin && url.pathname.startsWith(STATIC) && HASHED.test(url.pathname);
}

self.addEventListener("install", () => self.skipWaiting());

self.addEventListener("activate", (event) => {
  // Caches of an older worker version go; then this one serves open pages.
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((n) => n !== CACHE).map((n) => caches.delete(n))))
      .then(() => self.clients.claim()),
  );
});

async function cacheFirst(request) {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(request);
  if (hit) return hit;
  const response = await fetch(request);
  if (response.ok) await cache.put(request, response.clone());
  return response;
}

self.addEventListener("fetch", (event) => {
  if (cacheable(event.request)) event.respondWith(cacheFirst(event.request));
});
