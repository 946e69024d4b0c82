// Installs the service worker that keeps offline practice available with the
// network off (docs/offline.md). The browser checks /sw.js for a new version
// on every visit; a new version replaces the cached files.
(function () {
  "use strict";
  const script = document.currentScript;
  if (!("serviceWorker" in navigator) || !script) return;
  const url = script.dataset.swUrl;
  window.addEventListener("load", function () {
    navigator.serviceWorker.register(url, { scope: "/" }).catch(function () {
      // No service worker (private mode, http on a non-local host): the site
      // works as before, only offline practice needs the network to load.
    });
  });
})();
