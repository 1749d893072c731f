// The lab's service worker: after one visit the lab, and its guide beside it, open without a
// network (guide/src/using-the-page.md, "Works offline"). assets/service-worker.sh puts VERSION
// and FILES in front of this text at build time; this file alone is not a worker, and
// index.html does not load it (so Trunk does not ship it under a hashed name: the worker's URL
// must stay ./sw.js for the browser to find a new version there).
//
// - install: every file of FILES is fetched, checked against its SHA-256 and stored in this
//   version's cache; one missing or different file and nothing is installed (the old version
//   stays), so the cache never mixes two builds or keeps a host's error page.
// - fetch: those URLs come from the cache first, and so does a page opened with a query (the
//   lab's state, the guide's search) or by its folder (./ and guide/ are their index.html);
//   every other request goes to the network untouched and is never stored.
// - activate: the caches of earlier versions at this scope are deleted.
/* global VERSION, FILES */

const SCOPE = new URL("./", self.location).href;
// One origin may host several copies of the lab (one per sub-path): each keeps its own caches.
const PREFIX = `parallelism-lab ${SCOPE} `;
const CACHE = PREFIX + VERSION;
const SHIPPED = new Map(FILES.map(([path, sha256]) => [new URL(path, SCOPE).href, sha256]));

self.addEventListener("install", (event) => {
  event.waitUntil(precache().then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith(PREFIX) && name !== CACHE) {
          await caches.delete(name);
        }
      }
      // The page that installed this worker is served by it from now on, without a reload.
      await self.clients.claim();
    })(),
  );
});

self.addEventListener("fetch", (event) => {
  const key = cacheKey(event.request);
  if (key) {
    event.respondWith(cacheFirst(key, event.request));
  }
});

// The URL a request is kept under, or null for requests this worker leaves alone.
function cacheKey(request) {
  if (request.method !== "GET") {
    return null;
  }
  const url = new URL(request.url);
  const bare = url.origin + url.pathname;
  // A page's query is its state (the lab's view, the guide's search): every view of a page is
  // the same file; a folder's page is its index.html (the lab's, the guide's).
  if (request.mode === "navigate") {
    const page = bare.endsWith("/") ? bare + "index.html" : bare;
    if (SHIPPED.has(page)) {
      return page;
    }
  }
  // Trunk's files are requested without a query; one with a query is not a file this build shipped.
  return url.search === "" && SHIPPED.has(bare) ? bare : null;
}

async function cacheFirst(key, request) {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(key);
  // Not there only when the reader cleared part of the site's data: the network, not stored.
  return kept ?? fetch(request);
}

async function precache() {
  const cache = await caches.open(CACHE);
  try {
    await Promise.all(
      [...SHIPPED].map(async ([url, sha256]) => {
        // Revalidated, so an HTTP cache holding another build's index.html cannot slip in.
        const response = await fetch(url, { cache: "no-cache" });
        if (!response.ok) {
          throw new Error(`${url}: HTTP ${response.status}`);
        }
        const body = await response.arrayBuffer();
        const got = hex(await crypto.subtle.digest("SHA-256", body));
        if (got !== sha256) {
          throw new Error(`${url}: not the file this build shipped`);
        }
        // A fresh response: one that came through a redirect (some hosts send index.html on
        // to ./) could not answer a navigation. The host's headers stay (its CSP, the wasm's
        // type) but those of the transfer go: the body is stored decoded.
        const headers = new Headers(response.headers);
        for (const name of ["content-encoding", "content-length", "transfer-encoding", "vary"]) {
          headers.delete(name);
        }
        await cache.put(url, new Response(body, { status: 200, headers }));
      }),
    );
  } catch (error) {
    await caches.delete(CACHE);
    throw error;
  }
}

function hex(buffer) {
  return [...new Uint8Array(buffer)].map((b) => b.toString(16).padStart(2, "0")).join("");
}
