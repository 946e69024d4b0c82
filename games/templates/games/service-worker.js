// Cuatrola Online's service worker (served at /sw.js by games.offline_views).
// It keeps what offline practice needs (docs/offline.md) in one cache named
// after the content's version; a deployment that changes that content changes
// this file, so browsers install the new worker, which fills a new cache and
// deletes the old one. Everything else goes to the network as usual; only
// when a page cannot be fetched does the offline practice page stand in.
"use strict";
const CONFIG = {{ config|safe }};
const PREFIX = "cuatrola-offline-";
const CACHE = PREFIX + CONFIG.version;
const PAGE = new URL(CONFIG.page, self.location).href;
const CACHED = new Set(CONFIG.urls.map(function (url) { return new URL(url, self.location).href; }));

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches.open(CACHE).then(function (cache) {
      // "reload": straight from the server, never from the browser's HTTP cache.
      return cache.addAll(CONFIG.urls.map(function (url) {
        return new Request(url, { cache: "reload", credentials: "same-origin" });
      }));
    }).then(function () { return self.skipWaiting(); })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (names) {
      return Promise.all(names.filter(function (name) {
        return name.startsWith(PREFIX) && name !== CACHE;
      }).map(function (name) { return caches.delete(name); }));
    }).then(function () { return self.clients.claim(); })
  );
});

// ignoreVary: the site's responses vary on Cookie and Accept-Language, which
// must not hide the kept copy when the network is off.
function fromCache(request) {
  return caches.open(CACHE).then(function (cache) { return cache.match(request, { ignoreVary: true }); });
}

// The practice page: the network's copy when there is one (it is then kept),
// else the kept copy.
function practicePage(request) {
  return fetch(request).then(function (response) {
    if (response.ok) {
      const copy = response.clone();
      caches.open(CACHE).then(function (cache) { return cache.put(PAGE, copy); });
    }
    return response;
  }).catch(function () {
    return fromCache(PAGE).then(function (kept) { return kept || Response.error(); });
  });
}

self.addEventListener("fetch", function (event) {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    const bare = url.origin + url.pathname;
    if (bare === PAGE) {
      event.respondWith(practicePage(request));
      return;
    }
    // Any other page: the network, or with the network off, offline practice.
    event.respondWith(fetch(request).catch(function () {
      return fromCache(PAGE).then(function (kept) { return kept || Response.error(); });
    }));
    return;
  }
  if (CACHED.has(url.href)) {
    event.respondWith(fromCache(request).then(function (kept) { return kept || fetch(request); }));
  }
});

// Web Push (docs/notifications.md): a notification the site pushed is shown; a
// click opens its link, in a tab of the site already open if there is one.
function showPush(data) {
  const body = data || {};
  return self.registration.showNotification(body.title || "Cuatrola Online", {
    body: body.body || "",
    tag: body.tag || undefined,
    icon: "/static/icons/icon-192.png",
    data: { url: body.url || "/notifications/" },
  });
}

function openLink(link) {
  const url = new URL(link || "/notifications/", self.location.origin);
  if (url.origin !== self.location.origin) return Promise.resolve(null);
  return self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (windows) {
    const own = windows.find(function (client) { return new URL(client.url).origin === url.origin; });
    if (own && own.navigate) {
      // navigate() rejects for a tab this worker does not control (a shift-reload):
      // a new window then, rather than nothing.
      return own.navigate(url.href).then(function (client) {
        const shown = client || own;
        return shown.focus ? shown.focus().catch(function () { return shown; }) : shown;
      }).catch(function () { return self.clients.openWindow(url.href); });
    }
    return self.clients.openWindow(url.href);
  });
}

self.addEventListener("push", function (event) {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch (error) {
    data = { body: event.data ? event.data.text() : "" };
  }
  event.waitUntil(showPush(data));
});

self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  event.waitUntil(openLink(event.notification.data && event.notification.data.url));
});
