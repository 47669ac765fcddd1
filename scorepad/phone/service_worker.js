// Scorepad's service worker (written by `scorepad build-app`): every file of the build is kept,
// so that after the first visit the app starts with no network at all.
//
// The cache is named by the digest of the build's files: a new build installs a new cache whole
// and drops the old one once it is complete; until then the old build keeps serving.
const CACHE = "__CACHE__";
const FILES = __FILES__;

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(CACHE)
      .then((cache) => cache.addAll(FILES.map((f) => new Request(f, { cache: "reload" }))))
      .then(() => self.skipWaiting())
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(
        keys.filter((k) => k.startsWith("scorepad-") && k !== CACHE).map((k) => caches.delete(k))
      ))
      .then(() => self.clients.claim())
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) {
    return;
  }
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    // Every page of the app is the one page (its routes are after the #).
    const key = request.mode === "navigate" ? "./" : request;
    const kept = await cache.match(key, { ignoreSearch: true });
    return kept || fetch(request);
  })());
});
